/*
 * What normal.c (RFC 3986's normalization of a reference's text) shares
 * with canonical.c (the keys built on it): the components a call reads,
 * the options fixed when a text's normalizer is made, and the writing of
 * a text's normal form with where its query and fragment landed.
 */

#ifndef URIGRAMMAR_NATIVE_NORMAL_H
#define URIGRAMMAR_NATIVE_NORMAL_H

#include "native.h"

/* The components, in the order of the caller's tuple of slots. */
enum { SCHEME, USERINFO, HOST, PORT, PATH, QUERY, FRAGMENT, NPARTS };

/* Octets a percent-encoding may name: 2**8; the caller's table has an
   entry for each ASCII one, and no other is ever decoded. */
#define ASCII 128

/* The bytes a call writes on the stack (its output, then twice the path);
   a longer text takes the heap. */
#define SMALL 2048

/* Everything a call reads: the text's bytes, each component's span
   (start -1: absent), the octets decoded, the scheme's rule. */
typedef struct {
    const char *text;
    Py_ssize_t start[NPARTS], end[NPARTS];
    const unsigned char *decode;
    const char *default_port; /* the scheme's default port as digits, or NULL */
    Py_ssize_t default_port_len;
    int empty_path_is_root;
    int scheme_based;
} Call;

/* A text's normal form as written: its characters (in `small`, or on the
   heap when longer), and where the query and the fragment start (after
   their "?" and "#"; -1 when absent). */
typedef struct {
    char small[SMALL];
    char *chars;
    Py_ssize_t length;
    Py_ssize_t query, fragment;
} Normal;

/* The options of a text's normalizer, fixed when it is made: bits of the
   state's NORMAL_FLAGS item. */
enum {
    /* Section 6.2.3: the scheme's rule, and the port's steps. */
    NORMAL_SCHEME_BASED = 1,
    /* RFC 5952's form of an IPv6 host, which Python writes (ipaddress):
       such a text is left to it. */
    NORMAL_IPV6_CANONICAL = 2,
};

/* The items of a normalizer's state, a tuple (immutable): the Tagger that
   parses a URI-reference into the caller's record class; the record slots
   of the seven components (bytes); the octets decoded (128 bytes); the
   scheme rules (a dict from a lowercase scheme name to an object with
   default_port and empty_path_is_root, read on each call: the caller may
   change it); the flags (an int); the rules the state knows (for each
   ASCII name the rules had when it was made, a tuple: the name, a str
   whose hash is kept, and the rule, its port and root as read then, or
   None where the rule is none of an immutable type); the two attribute
   names; then what canonical.c adds. */
enum {
    NORMAL_TAGGER,
    NORMAL_SLOTS,
    NORMAL_DECODE,
    NORMAL_RULES,
    NORMAL_FLAGS,
    NORMAL_KNOWN,
    NORMAL_PORT_NAME,
    NORMAL_ROOT_NAME,
    NORMAL_ITEMS
};

/* The arguments of the module function that makes a normalizer: the
   Tagger's bound parse, slots, decode, rules, flags, and the type of the
   rules that are immutable. */
#define NORMAL_ARGS 6

/* The state of a normalizer, from the arguments of the module function
   that makes it (args[0 .. NORMAL_ARGS)), with `extra` more items after
   them, which the caller sets; NULL with an exception set. */
NATIVE_SHARED PyObject *
normal_state(PyObject *module, PyObject *const *args, Py_ssize_t extra);

/* The normal form of text (a str) by a normalizer's state, written into
   *out: 1 when written, 0 when Python must answer (no URI-reference, a
   rule C does not read, an IPv6 host under NORMAL_IPV6_CANONICAL), -1
   with an exception set.  normal_release(out) frees what it took, after
   any of the three. */
NATIVE_SHARED int
normal_text(PyObject *state, PyObject *text, Normal *out);
/* The same of the bytes of an ASCII text (size of them). */
NATIVE_SHARED int
normal_bytes(PyObject *state, const char *utf8, Py_ssize_t size, Normal *out);
NATIVE_SHARED void
normal_release(Normal *out);

/* The module's functions that make keys (canonical.c). */
NATIVE_SHARED extern PyMethodDef canonical_methods[];

#endif /* URIGRAMMAR_NATIVE_NORMAL_H */
