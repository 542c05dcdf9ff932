/*
 * normalize_uri: RFC 3986's normalization of a reference's text, from the
 * spans of a Record (urigrammar.uri._normalize is the same in Python, and
 * the reference this is tested against):
 *
 *   section 6.2.2.1  the scheme and the host in lowercase, the hex digits
 *                    of every percent-encoding in uppercase;
 *   section 6.2.2.2  a percent-encoding decoded where its octet is one the
 *                    caller names (the grammar's unreserved characters);
 *   section 6.2.2.3  the dot segments of the path removed (section 5.2.4);
 *   section 6.2.3    on request, the port without leading zeros, dropped
 *                    when empty or the scheme's default, and an empty path
 *                    under an authority written "/";
 *
 * then the path written so that the text reads back as the same parts (a
 * "/." before a path that would read as an authority, a "./" before a
 * first segment that would read as a scheme), as uri._resolve's
 * unambiguous_path does.  The caller says which slot of the record holds
 * which component.  An ASCII text only: for any other the answer is None,
 * and the caller normalizes in Python.  Linear in the text; nothing is
 * shared between calls.
 */

#include "native.h"

#include <stdio.h>
#include <string.h>

/* The components, in the order of the caller's tuple of slots. */
enum { SCHEME, USERINFO, HOST, PORT, PATH, QUERY, FRAGMENT, NPARTS };

/* Octets a percent-encoding may name: 2**8; the caller's table has an
   entry for each ASCII one, and no other is ever decoded. */
#define ASCII 128

/* The bytes a call writes on the stack (its output, then twice the path);
   a longer text takes the heap. */
#define SMALL 2048

static int
hex_value(char c)
{
    if (c >= '0' && c <= '9') {
        return c - '0';
    }
    if (c >= 'a' && c <= 'f') {
        return c - 'a' + 10;
    }
    if (c >= 'A' && c <= 'F') {
        return c - 'A' + 10;
    }
    return -1;
}

static char
ascii_lower(char c)
{
    return (c >= 'A' && c <= 'Z') ? (char)(c - 'A' + 'a') : c;
}

static char
ascii_upper(char c)
{
    return (c >= 'a' && c <= 'z') ? (char)(c - 'a' + 'A') : c;
}

/* src[0 .. n) written at out + at with each percent-encoding decoded where
   decode[octet] is set and in uppercase otherwise, and with `lower`, the
   letters outside the encodings kept in lowercase.  Returns the new end. */
static Py_ssize_t
put_percent(char *out, Py_ssize_t at, const char *src, Py_ssize_t n,
            const unsigned char *decode, int lower)
{
    for (Py_ssize_t i = 0; i < n; i++) {
        char c = src[i];
        if (c == '%' && i + 2 < n) {
            int high = hex_value(src[i + 1]), low = hex_value(src[i + 2]);
            if (high >= 0 && low >= 0) {
                int octet = high * 16 + low;
                if (octet < ASCII && decode[octet]) {
                    out[at++] = lower ? ascii_lower((char)octet) : (char)octet;
                }
                else {
                    out[at++] = '%';
                    out[at++] = ascii_upper(src[i + 1]);
                    out[at++] = ascii_upper(src[i + 2]);
                }
                i += 2;
                continue;
            }
        }
        out[at++] = lower ? ascii_lower(c) : c;
    }
    return at;
}

/* Whether p[i ..) starts with the n characters of s. */
static int
starts(const char *p, Py_ssize_t i, Py_ssize_t end, const char *s, Py_ssize_t n)
{
    return end - i >= n && memcmp(p + i, s, (size_t)n) == 0;
}

/* The output cut back by its last segment (section 5.2.4, "removing the
   last segment and its preceding '/' (if any)"): a segment holds no "/",
   so the last one starts at the last "/", or at 0. */
static Py_ssize_t
pop_segment(const char *out, Py_ssize_t n)
{
    while (n > 0 && out[n - 1] != '/') {
        n--;
    }
    return n > 0 ? n - 1 : 0;
}

/* Section 5.2.4 over p[0 .. end), written at out (which end characters
   fit); the step letters are the RFC's.  Returns the output's length. */
static Py_ssize_t
remove_dot_segments(const char *p, Py_ssize_t end, char *out)
{
    Py_ssize_t i = 0, n = 0;
    while (i < end) {
        if (starts(p, i, end, "../", 3)) { /* A */
            i += 3;
        }
        else if (starts(p, i, end, "./", 2)) { /* A */
            i += 2;
        }
        else if (starts(p, i, end, "/./", 3)) { /* B: "/./" becomes "/" */
            i += 2;
        }
        else if (i + 2 == end && starts(p, i, end, "/.", 2)) { /* B: "/." becomes "/" */
            out[n++] = '/';
            i = end;
        }
        else if (starts(p, i, end, "/../", 4)) { /* C: "/../" becomes "/" */
            i += 3;
            n = pop_segment(out, n);
        }
        else if (i + 3 == end && starts(p, i, end, "/..", 3)) { /* C: "/.." becomes "/" */
            n = pop_segment(out, n);
            out[n++] = '/';
            i = end;
        }
        else if ((end - i == 1 && p[i] == '.') || (end - i == 2 && p[i] == '.' && p[i + 1] == '.')) {
            i = end; /* D */
        }
        else { /* E: the first segment, with its "/", to the output */
            Py_ssize_t stop = p[i] == '/' ? i + 1 : i;
            while (stop < end && p[stop] != '/') {
                stop++;
            }
            memcpy(out + n, p + i, (size_t)(stop - i));
            n += stop - i;
            i = stop;
        }
    }
    return n;
}

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

static int
has(const Call *c, int part)
{
    return c->start[part] >= 0;
}

/* The authority (section 3.2): "//", userinfo "@", the host, ":" port. */
static Py_ssize_t
put_authority(const Call *c, char *out, Py_ssize_t at)
{
    const char *t = c->text;
    out[at++] = '/';
    out[at++] = '/';
    if (has(c, USERINFO)) {
        at = put_percent(out, at, t + c->start[USERINFO], c->end[USERINFO] - c->start[USERINFO],
                         c->decode, 0);
        out[at++] = '@';
    }
    at = put_percent(out, at, t + c->start[HOST], c->end[HOST] - c->start[HOST], c->decode, 1);
    if (!has(c, PORT)) {
        return at;
    }
    const char *port = t + c->start[PORT];
    Py_ssize_t n = c->end[PORT] - c->start[PORT];
    if (c->scheme_based) {
        /* Compared as digit strings: a port may have millions of digits. */
        if (n == 0) {
            return at;
        }
        while (n > 1 && port[0] == '0') {
            port++;
            n--;
        }
        if (c->default_port != NULL && n == c->default_port_len &&
            memcmp(port, c->default_port, (size_t)n) == 0) {
            return at;
        }
    }
    out[at++] = ':';
    memcpy(out + at, port, (size_t)n);
    return at + n;
}

/* The path: its encodings normalized into work, its dot segments removed
   when it has a scheme or starts with "/" (section 5.2.4 applies to
   both), "/" for an empty one where the scheme says so, and written so
   that it reads back as a path. */
static Py_ssize_t
put_path(const Call *c, char *out, Py_ssize_t at, char *work)
{
    Py_ssize_t n = put_percent(work, 0, c->text + c->start[PATH], c->end[PATH] - c->start[PATH],
                               c->decode, 0);
    char *path = work + n; /* after the normalized text: work holds twice the path */
    Py_ssize_t len = n;
    if (has(c, SCHEME) || (n > 0 && work[0] == '/')) {
        len = remove_dot_segments(work, n, path);
    }
    else {
        memcpy(path, work, (size_t)n);
    }
    int authority = has(c, HOST);
    if (c->scheme_based && authority && len == 0 && c->empty_path_is_root) {
        out[at++] = '/';
        return at;
    }
    if (!authority && len >= 2 && path[0] == '/' && path[1] == '/') {
        out[at++] = '/'; /* section 3.3: "//" would start an authority */
        out[at++] = '.';
    }
    else if (!authority && !has(c, SCHEME)) {
        Py_ssize_t k = 0;
        while (k < len && path[k] != '/' && path[k] != ':') {
            k++;
        }
        if (k < len && path[k] == ':') { /* section 4.2: "a:" would read as a scheme */
            out[at++] = '.';
            out[at++] = '/';
        }
    }
    memcpy(out + at, path, (size_t)len);
    return at + len;
}

static Py_ssize_t
put_reference(const Call *c, char *out, char *work)
{
    const char *t = c->text;
    Py_ssize_t at = 0;
    if (has(c, SCHEME)) {
        for (Py_ssize_t i = c->start[SCHEME]; i < c->end[SCHEME]; i++) {
            out[at++] = ascii_lower(t[i]);
        }
        out[at++] = ':';
    }
    if (has(c, HOST)) {
        at = put_authority(c, out, at);
    }
    at = put_path(c, out, at, work);
    if (has(c, QUERY)) {
        out[at++] = '?';
        at = put_percent(out, at, t + c->start[QUERY], c->end[QUERY] - c->start[QUERY], c->decode,
                         0);
    }
    if (has(c, FRAGMENT)) {
        out[at++] = '#';
        at = put_percent(out, at, t + c->start[FRAGMENT], c->end[FRAGMENT] - c->start[FRAGMENT],
                         c->decode, 0);
    }
    return at;
}

PyDoc_STRVAR(normalize_uri_doc,
             "normalize_uri(record, slots, decode, default_port, empty_path_is_root, scheme_based, /)\n"
             "--\n\n"
             "The normal form of a reference's text (RFC 3986 section 6.2.2, and 6.2.3 when\n"
             "scheme_based), from a Record whose slots[0..7) hold its scheme, userinfo, host,\n"
             "port, path, query and fragment; decode (128 bytes) says which octets a\n"
             "percent-encoding is decoded for; default_port is the scheme's (an int), or\n"
             "None.  None when the record's text is not ASCII, or it is no Record.");

static PyObject *
normalize_uri(PyObject *module, PyObject *args)
{
    PyObject *record, *slots, *decode, *default_port;
    int empty_path_is_root, scheme_based;
    if (!PyArg_ParseTuple(args, "OO!O!Opp:normalize_uri", &record, &PyTuple_Type, &slots,
                          &PyBytes_Type, &decode, &default_port, &empty_path_is_root,
                          &scheme_based)) {
        return NULL;
    }
    if (PyTuple_Size(slots) != NPARTS || PyBytes_Size(decode) != ASCII) {
        PyErr_SetString(PyExc_ValueError, "normalize_uri takes 7 slots and a table of 128 octets");
        return NULL;
    }
    Py_ssize_t index[NPARTS], spans[2 * NPARTS];
    for (int k = 0; k < NPARTS; k++) {
        index[k] = PyLong_AsSsize_t(PyTuple_GetItem(slots, k));
        if (index[k] == -1 && PyErr_Occurred()) {
            return NULL;
        }
    }
    module_state *st = (module_state *)PyModule_GetState(module);
    PyObject *text = record_spans(record, st->record_type, index, NPARTS, spans);
    if (text == NULL) {
        Py_RETURN_NONE;
    }
    Py_ssize_t size;
    const char *utf8 = PyUnicode_AsUTF8AndSize(text, &size);
    if (utf8 == NULL) {
        if (!PyErr_ExceptionMatches(PyExc_UnicodeEncodeError)) {
            return NULL;
        }
        PyErr_Clear(); /* a lone surrogate: no URI's text, so the Python way */
        Py_RETURN_NONE;
    }
    if (size != PyUnicode_GetLength(text)) {
        Py_RETURN_NONE; /* not ASCII: the Python way */
    }
    Call c = {.text = utf8, .decode = (const unsigned char *)PyBytes_AsString(decode),
              .empty_path_is_root = empty_path_is_root, .scheme_based = scheme_based};
    for (int k = 0; k < NPARTS; k++) {
        c.start[k] = spans[2 * k];
        c.end[k] = spans[2 * k + 1];
        /* A slot that is a constant, or a span outside the text, is no
           component this reads: only a record the library made is given. */
        if (c.start[k] < -1 || (c.start[k] >= 0 && (c.end[k] < c.start[k] || c.end[k] > size))) {
            PyErr_SetString(PyExc_ValueError, "normalize_uri: a slot is no span of the text");
            return NULL;
        }
    }
    if (!has(&c, PATH)) {
        PyErr_SetString(PyExc_ValueError, "normalize_uri: a reference always has a path");
        return NULL;
    }
    char digits[24];
    if (default_port != Py_None) {
        long port = PyLong_AsLong(default_port);
        if (port == -1 && PyErr_Occurred()) {
            return NULL;
        }
        if (port < 0) {
            PyErr_SetString(PyExc_ValueError, "normalize_uri: a default port is not negative");
            return NULL;
        }
        c.default_port_len = snprintf(digits, sizeof digits, "%ld", port);
        c.default_port = digits;
    }
    /* The output is at most the components, which never grow but the
       path (by "/." or "./", or the "/" of an empty path, two characters
       at most), and the nine delimiters around them (":", "//", "@", ":",
       "?", "#" and those two): counted from the spans, not the text, so
       that spans which overlap or leave out their delimiters cannot
       overrun it.  The work space after it holds the path twice. */
    size_t parts = 0;
    for (int k = 0; k < NPARTS; k++) {
        parts += has(&c, k) ? (size_t)(c.end[k] - c.start[k]) : 0;
    }
    size_t output = parts + 9;
    size_t need = output + 2 * (size_t)(c.end[PATH] - c.start[PATH]) + 1;
    char small[SMALL];
    char *out = need <= SMALL ? small : PyMem_Malloc(need);
    if (out == NULL) {
        return PyErr_NoMemory();
    }
    Py_ssize_t n = put_reference(&c, out, out + output);
    PyObject *made = PyUnicode_DecodeASCII(out, n, NULL);
    if (out != small) {
        PyMem_Free(out);
    }
    return made;
}

PyMethodDef normal_methods[] = {
    {"normalize_uri", normalize_uri, METH_VARARGS, normalize_uri_doc},
    {NULL, NULL, 0, NULL},
};
