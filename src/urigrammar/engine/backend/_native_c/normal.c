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
 *
 * Two ways in: normalize_uri(record, ...), for a record and any options;
 * and the functions uri_normalizer() makes, for a text and the options
 * fixed when they are made: parse, look the scheme's rule up, write the
 * normal text, parse that (decoding can change which rule the host
 * matches: "%31.2.3.4" is a reg-name, "1.2.3.4" an IPv4address), all in
 * C.  canonical.c builds its keys on the same writing (normal_text).
 */

#include "normal.h"

#include <string.h>

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
    for (Py_ssize_t i = 0; i < n;) {
        if (!lower) {
            /* The run before the next "%" is copied as it is. */
            const char *percent = memchr(src + i, '%', (size_t)(n - i));
            Py_ssize_t run = percent == NULL ? n - i : percent - (src + i);
            memcpy(out + at, src + i, (size_t)run);
            at += run;
            i += run;
            if (i == n) {
                break;
            }
        }
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
                i += 3;
                continue;
            }
        }
        out[at++] = lower ? ascii_lower(c) : c;
        i++;
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

/* The whole reference into out->chars, with where its query and fragment
   start. */
static void
put_reference(const Call *c, Normal *out, char *work)
{
    const char *t = c->text;
    char *o = out->chars;
    Py_ssize_t at = 0;
    if (has(c, SCHEME)) {
        for (Py_ssize_t i = c->start[SCHEME]; i < c->end[SCHEME]; i++) {
            o[at++] = ascii_lower(t[i]);
        }
        o[at++] = ':';
    }
    if (has(c, HOST)) {
        at = put_authority(c, o, at);
    }
    at = put_path(c, o, at, work);
    out->query = out->fragment = -1;
    if (has(c, QUERY)) {
        o[at++] = '?';
        out->query = at;
        at = put_percent(o, at, t + c->start[QUERY], c->end[QUERY] - c->start[QUERY], c->decode, 0);
    }
    if (has(c, FRAGMENT)) {
        o[at++] = '#';
        out->fragment = at;
        at = put_percent(o, at, t + c->start[FRAGMENT], c->end[FRAGMENT] - c->start[FRAGMENT],
                         c->decode, 0);
    }
    out->length = at;
}

/* c's text (utf8, size bytes, ASCII) with the spans of its components
   (two numbers a component, as a record keeps them): 0, or -1 with
   ValueError set for spans that are no components of the text. */
static int
put_spans(Call *c, const char *utf8, Py_ssize_t size, const Py_ssize_t *spans)
{
    c->text = utf8;
    for (int k = 0; k < NPARTS; k++) {
        c->start[k] = spans[2 * k];
        c->end[k] = spans[2 * k + 1];
        /* A slot that is a constant, or a span outside the text, is no
           component this reads: only a record the library made is given. */
        if (c->start[k] < -1 || (c->start[k] >= 0 && (c->end[k] < c->start[k] || c->end[k] > size))) {
            PyErr_SetString(PyExc_ValueError, "normalize_uri: a slot is no span of the text");
            return -1;
        }
    }
    if (!has(c, PATH)) {
        PyErr_SetString(PyExc_ValueError, "normalize_uri: a reference always has a path");
        return -1;
    }
    return 0;
}

/* The text's bytes when it is ASCII (1), else 0 (no exception: Python's
   way), or -1 with an exception set. */
static int
ascii_text(PyObject *text, const char **utf8, Py_ssize_t *size)
{
    *utf8 = PyUnicode_AsUTF8AndSize(text, size);
    if (*utf8 == NULL) {
        if (!PyErr_ExceptionMatches(PyExc_UnicodeEncodeError)) {
            return -1;
        }
        PyErr_Clear(); /* a lone surrogate: no URI's text, so the Python way */
        return 0;
    }
    return *size == PyUnicode_GetLength(text);
}

/* The scheme's default port, not negative, as digits in c (digits holds
   them, room at least 24). */
static void
put_default_port(Call *c, long port, char *digits, size_t room)
{
    /* Written from the end of digits (snprintf's format parsing cost a
       tenth of a normalization). */
    size_t at = room;
    do {
        digits[--at] = (char)('0' + port % 10);
        port /= 10;
    } while (port > 0);
    c->default_port = digits + at;
    c->default_port_len = (Py_ssize_t)(room - at);
}

/* Write c into out: 0, or -1 with MemoryError set.  The output is at most
   the components, which never grow but the path (by "/." or "./", or the
   "/" of an empty path, two characters at most), and the nine delimiters
   around them (":", "//", "@", ":", "?", "#" and those two): counted from
   the spans, not the text, so that spans which overlap or leave out their
   delimiters cannot overrun it.  The work space after it holds the path
   twice. */
static int
put_normal(const Call *c, Normal *out)
{
    size_t parts = 0;
    for (int k = 0; k < NPARTS; k++) {
        parts += has(c, k) ? (size_t)(c->end[k] - c->start[k]) : 0;
    }
    size_t output = parts + 9;
    size_t need = output + 2 * (size_t)(c->end[PATH] - c->start[PATH]) + 1;
    out->chars = need <= SMALL ? out->small : PyMem_Malloc(need);
    if (out->chars == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    put_reference(c, out, out->chars + output);
    return 0;
}

void
normal_release(Normal *out)
{
    if (out->chars != NULL && out->chars != out->small) {
        PyMem_Free(out->chars);
    }
    out->chars = NULL;
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
    const char *utf8;
    Py_ssize_t size;
    int ascii = ascii_text(text, &utf8, &size);
    if (ascii <= 0) {
        return ascii < 0 ? NULL : Py_NewRef(Py_None);
    }
    Call c = {.decode = (const unsigned char *)PyBytes_AsString(decode),
              .empty_path_is_root = empty_path_is_root, .scheme_based = scheme_based};
    char digits[24];
    if (put_spans(&c, utf8, size, spans) < 0) {
        return NULL;
    }
    if (default_port != Py_None) {
        long port = PyLong_AsLong(default_port);
        if (port == -1 && PyErr_Occurred()) {
            return NULL;
        }
        if (port < 0) {
            PyErr_SetString(PyExc_ValueError, "normalize_uri: a default port is not negative");
            return NULL;
        }
        put_default_port(&c, port, digits, sizeof digits);
    }
    Normal out;
    if (put_normal(&c, &out) < 0) {
        return NULL;
    }
    PyObject *made = PyUnicode_DecodeASCII(out.chars, out.length, NULL);
    normal_release(&out);
    return made;
}

/* --- A text's normalizer: options fixed, the scheme's rule looked up. */

/* An error C leaves to Python, which raises it its own way or answers
   otherwise: cleared, 0.  An error no fallback may hide (MemoryError, or
   no Exception at all: KeyboardInterrupt): kept, -1. */
static int
python_answers(void)
{
    if (PyErr_ExceptionMatches(PyExc_MemoryError) || !PyErr_ExceptionMatches(PyExc_Exception)) {
        return -1;
    }
    PyErr_Clear();
    return 0;
}

/* What C reads of a scheme's rule: its default port (in C's range: an
   int, or None) and whether an empty path under an authority is "/": 1
   with *port (-1 for None), *root and *fixed (whether the truth value is
   a bool, which cannot change) set; 0 when C does not read it (an object
   without the attributes, a port of another type or past C's range:
   Python answers, with its own error); -1 with an exception set. */
static int
read_rule(PyObject *state, PyObject *rule, long *port, int *root, int *fixed)
{
    PyObject *value = PyObject_GetAttr(rule, PyTuple_GetItem(state, NORMAL_PORT_NAME));
    PyObject *flag = value == NULL ? NULL
                                   : PyObject_GetAttr(rule, PyTuple_GetItem(state, NORMAL_ROOT_NAME));
    int found = 0;
    if (value == NULL || flag == NULL) {
        found = python_answers();
    }
    else if (value == Py_None) {
        *port = -1;
        found = 1;
    }
    else if (PyLong_CheckExact(value)) {
        *port = PyLong_AsLong(value);
        if (*port == -1 && PyErr_Occurred()) {
            found = python_answers(); /* past a C long: Python compares the digits */
        }
        else {
            found = *port >= 0 && *port < 0x7fffffffL;
        }
    }
    if (found > 0) {
        *fixed = PyBool_Check(flag);
        *root = PyObject_IsTrue(flag);
        if (*root < 0) {
            found = python_answers();
        }
    }
    Py_XDECREF(value);
    Py_XDECREF(flag);
    return found;
}

/* The state's known rule named lower[0 .. n) (a borrowed 4-tuple: name,
   rule, port, root), or NULL when the rules had no such name when the
   state was made. */
static PyObject *
known_rule(PyObject *state, const char *lower, Py_ssize_t n)
{
    PyObject *known = PyTuple_GetItem(state, NORMAL_KNOWN);
    for (Py_ssize_t k = 0; k < PyTuple_Size(known); k++) {
        PyObject *entry = PyTuple_GetItem(known, k);
        Py_ssize_t size;
        const char *chars = PyUnicode_AsUTF8AndSize(PyTuple_GetItem(entry, 0), &size);
        if (chars != NULL && size == n && memcmp(chars, lower, (size_t)n) == 0) {
            return entry;
        }
    }
    return NULL;
}

/* The scheme's rule, read into c: 1, or 0 when C does not read it
   (read_rule), or -1 with an exception set.  The rules are looked up on
   each call (the caller may change them); a rule that is the one the state
   read when it was made, of the type it was told is immutable, is not
   read again. */
static int
scheme_rule(PyObject *state, Call *c, char *digits, size_t room)
{
    char lower[64];
    /* No scheme: the rule of "", as Python looks it up. */
    Py_ssize_t n = has(c, SCHEME) ? c->end[SCHEME] - c->start[SCHEME] : 0;
    if (n > (Py_ssize_t)sizeof lower) {
        return 0;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        lower[i] = ascii_lower(c->text[c->start[SCHEME] + i]);
    }
    /* A known name is a str whose hash is kept: none to make and hash. */
    PyObject *entry = known_rule(state, lower, n);
    PyObject *name = entry != NULL ? Py_NewRef(PyTuple_GetItem(entry, 0))
                                   : PyUnicode_DecodeASCII(lower, n, NULL);
    if (name == NULL) {
        return -1;
    }
    PyObject *rule = PyDict_GetItemWithError(PyTuple_GetItem(state, NORMAL_RULES), name);
    Py_DECREF(name);
    if (rule == NULL) {
        return PyErr_Occurred() ? -1 : 1; /* no rule: nothing to change */
    }
    long port;
    int root, fixed, found;
    PyObject *known = entry == NULL ? Py_None : PyTuple_GetItem(entry, 1);
    if (known != Py_None && known == rule) {
        /* The rule read when the state was made, of an immutable type. */
        PyObject *value = PyTuple_GetItem(entry, 2);
        port = value == Py_None ? -1 : PyLong_AsLong(value);
        root = PyTuple_GetItem(entry, 3) == Py_True;
        found = 1;
    }
    else {
        Py_INCREF(rule); /* reading it may run code that empties the dict */
        found = read_rule(state, rule, &port, &root, &fixed);
        Py_DECREF(rule);
    }
    if (found <= 0) {
        return found;
    }
    c->empty_path_is_root = root;
    if (port >= 0) {
        put_default_port(c, port, digits, room);
    }
    return 1;
}

/* The spans of the seven components of utf8 (size bytes, ASCII) as the
   state's Tagger reads it: 1, 0 when it does not match, -1 with an
   exception set.  Read straight from the bytes: no record is made. */
static int
tag_components(PyObject *state, const char *utf8, Py_ssize_t size, Py_ssize_t *spans)
{
    PyObject *tagger = PyTuple_GetItem(state, NORMAL_TAGGER);
    Source src;
    source_utf8(&src, (const unsigned char *)utf8, (size_t)size);
    Reading reading;
    int found = tagger_run_source(tagger, &src, &reading);
    if (found <= 0) {
        return found;
    }
    Py_ssize_t nslots = tagger_nslots(tagger);
    Py_ssize_t few[2 * 32];
    Py_ssize_t *all = nslots <= 32 ? few : PyMem_Malloc(2 * (size_t)nslots * sizeof *all);
    if (all == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    tagger_slot_spans(tagger, &reading, all);
    const unsigned char *slots = (const unsigned char *)PyBytes_AsString(
        PyTuple_GetItem(state, NORMAL_SLOTS));
    for (int k = 0; k < NPARTS && found > 0; k++) {
        if (slots[k] >= nslots) {
            PyErr_SetString(PyExc_ValueError, "normalize_uri: no such slot");
            found = -1;
            break;
        }
        spans[2 * k] = all[2 * slots[k]];
        spans[2 * k + 1] = all[2 * slots[k] + 1];
    }
    if (all != few) {
        PyMem_Free(all);
    }
    return found;
}

int
normal_text(PyObject *state, PyObject *text, Normal *out)
{
    out->chars = NULL;
    const char *utf8;
    Py_ssize_t size;
    int done = ascii_text(text, &utf8, &size); /* a URI-reference is ASCII */
    return done > 0 ? normal_bytes(state, utf8, size, out) : done;
}

int
normal_bytes(PyObject *state, const char *utf8, Py_ssize_t size, Normal *out)
{
    out->chars = NULL;
    Py_ssize_t spans[2 * NPARTS];
    int done = tag_components(state, utf8, size, spans);
    long flags = PyLong_AsLong(PyTuple_GetItem(state, NORMAL_FLAGS));
    Call c = {.decode = (const unsigned char *)PyBytes_AsString(
                  PyTuple_GetItem(state, NORMAL_DECODE)),
              .scheme_based = (flags & NORMAL_SCHEME_BASED) != 0};
    char digits[24];
    if (done > 0) {
        done = put_spans(&c, utf8, size, spans) < 0 ? -1 : 1;
    }
    if (done > 0 && (flags & NORMAL_IPV6_CANONICAL) && has(&c, HOST) &&
        c.end[HOST] - c.start[HOST] > 1 && utf8[c.start[HOST]] == '[' &&
        utf8[c.start[HOST] + 1] != 'v' && utf8[c.start[HOST] + 1] != 'V') {
        done = 0; /* an IPv6 address: RFC 5952's form is Python's */
    }
    if (done > 0 && c.scheme_based) {
        done = scheme_rule(state, &c, digits, sizeof digits);
    }
    if (done > 0) {
        done = put_normal(&c, out) < 0 ? -1 : 1;
    }
    return done;
}

/* For each key of rules that is a str of ASCII, (name, rule, port, root)
   when the rule is of rule_type, which the caller says is immutable, and
   read_rule reads it, else (name, None, None, None): a tuple of them,
   read with state's attribute names; NULL with an exception set. */
/* What known_rules keeps of the rule of key: (key, rule, port or None,
   True or False) when the rule is of rule_type and read_rule reads it with
   a bool for its root, else (key, None, None, None); NULL with an
   exception set. */
static PyObject *
known_entry(PyObject *state, PyObject *key, PyObject *rule, PyObject *rule_type)
{
    long port = -1;
    int root = 0, fixed = 0, read = 0;
    if (Py_IS_TYPE(rule, (PyTypeObject *)rule_type)) {
        Py_INCREF(rule); /* reading it may run code that empties the dict */
        read = read_rule(state, rule, &port, &root, &fixed);
        Py_DECREF(rule);
    }
    if (read < 0) {
        return NULL;
    }
    if (read == 0 || !fixed) {
        return PyTuple_Pack(4, key, Py_None, Py_None, Py_None);
    }
    PyObject *value = port < 0 ? Py_NewRef(Py_None) : PyLong_FromLong(port);
    if (value == NULL) {
        return NULL;
    }
    PyObject *entry = PyTuple_Pack(4, key, rule, value, root ? Py_True : Py_False);
    Py_DECREF(value);
    return entry;
}

static PyObject *
known_rules(PyObject *state, PyObject *rules, PyObject *rule_type)
{
    PyObject *keys = PyDict_Keys(rules);
    PyObject *known = keys == NULL ? NULL : PyList_New(0);
    for (Py_ssize_t k = 0; known != NULL && k < PyList_Size(keys); k++) {
        PyObject *key = PyList_GetItem(keys, k);
        Py_ssize_t size;
        const char *chars = PyUnicode_CheckExact(key) ? PyUnicode_AsUTF8AndSize(key, &size) : NULL;
        if (chars == NULL || size != PyUnicode_GetLength(key)) {
            if (PyErr_Occurred() && python_answers() < 0) {
                Py_CLEAR(known);
            }
            continue; /* no str of ASCII: never a scheme's name */
        }
        PyObject *rule = PyDict_GetItemWithError(rules, key);
        if (rule == NULL) {
            if (PyErr_Occurred()) {
                Py_CLEAR(known);
            }
            continue; /* gone while the others were read */
        }
        Py_INCREF(rule);
        PyObject *entry = known_entry(state, key, rule, rule_type);
        Py_DECREF(rule);
        if (entry == NULL || PyList_Append(known, entry) < 0) {
            Py_CLEAR(known);
        }
        Py_XDECREF(entry);
    }
    Py_XDECREF(keys);
    if (known == NULL) {
        return NULL;
    }
    PyObject *tuple = PyList_AsTuple(known);
    Py_DECREF(known);
    return tuple;
}

PyObject *
normal_state(PyObject *module, PyObject *const *args, Py_ssize_t extra)
{
    module_state *st = (module_state *)PyModule_GetState(module);
    PyObject *slots = args[1], *decode = args[2], *rules = args[3];
    PyObject *tagger = tagger_of_parse(args[0], (PyTypeObject *)st->tagger_type);
    if (tagger == NULL) {
        PyErr_SetString(PyExc_TypeError, "a normalizer parses with a Tagger's parse");
        return NULL;
    }
    if (!PyBytes_Check(slots) || PyBytes_Size(slots) != NPARTS || !PyBytes_Check(decode) ||
        PyBytes_Size(decode) != ASCII || !PyDict_Check(rules) || !PyLong_Check(args[4]) ||
        !PyType_Check(args[5])) {
        PyErr_SetString(PyExc_TypeError,
                        "a normalizer takes 7 slots and 128 octets as bytes, a dict, an int and "
                        "a type");
        return NULL;
    }
    PyObject *state = PyTuple_New(NORMAL_ITEMS + extra);
    if (state == NULL) {
        return NULL;
    }
    PyObject *items[NORMAL_ITEMS] = {
        tagger, slots, decode, rules, args[4], PyTuple_New(0),
        PyUnicode_InternFromString("default_port"), PyUnicode_InternFromString("empty_path_is_root"),
    };
    for (int k = 0; k < NORMAL_ITEMS; k++) {
        if (items[k] == NULL) {
            for (int j = k + 1; j < NORMAL_ITEMS; j++) {
                if (j >= NORMAL_KNOWN) {
                    Py_XDECREF(items[j]); /* new references, not yet in the state */
                }
            }
            Py_DECREF(state);
            return NULL;
        }
        if (k < NORMAL_KNOWN) {
            Py_INCREF(items[k]); /* the others are new references already */
        }
        PyTuple_SetItem(state, k, items[k]);
    }
    /* The state is this function's alone until it returns: its known
       rules, read with its attribute names, go in last. */
    PyObject *known = known_rules(state, rules, args[5]);
    if (known == NULL) {
        Py_DECREF(state);
        return NULL;
    }
    PyTuple_SetItem(state, NORMAL_KNOWN, known);
    return state;
}

/* A normalizer's call: the record of text's normal form, or None when
   Python must answer. */
static PyObject *
normalize_text(PyObject *state, PyObject *text)
{
    if (!PyUnicode_Check(text)) {
        Py_RETURN_NONE;
    }
    Normal out;
    int done = normal_text(state, text, &out);
    if (done <= 0) {
        normal_release(&out);
        return done < 0 ? NULL : Py_NewRef(Py_None);
    }
    PyObject *normal = PyUnicode_DecodeASCII(out.chars, out.length, NULL);
    normal_release(&out);
    if (normal == NULL) {
        return NULL;
    }
    PyObject *record = Tagger_parse(PyTuple_GetItem(state, NORMAL_TAGGER), normal);
    Py_DECREF(normal);
    return record;
}

static PyMethodDef normalize_text_def = {
    "normalize", normalize_text, METH_O,
    "normalize(text, /)\n--\n\nThe record of text's normal form, or None where Python answers."};

PyDoc_STRVAR(uri_normalizer_doc,
             "uri_normalizer(parse, slots, decode, rules, flags, rule_type, /)\n"
             "--\n\n"
             "A function from a text to the record of its normal form (as normalize_uri\n"
             "writes it), or None where Python must answer: parse is a Tagger's parse of\n"
             "URI-reference into a record class whose slots (7 bytes) hold the scheme,\n"
             "userinfo, host, port, path, query and fragment; decode (128 bytes) says which\n"
             "octets a percent-encoding is decoded for; rules maps a lowercase scheme to\n"
             "its rule (default_port, empty_path_is_root); flags: 1 scheme-based, 2 an\n"
             "IPv6 host left to Python; a rule of rule_type (immutable) that the rules\n"
             "hold when the function is made is read then, not on each call.");

static PyObject *
uri_normalizer(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != NORMAL_ARGS) {
        PyErr_SetString(PyExc_TypeError, "uri_normalizer takes 6 arguments");
        return NULL;
    }
    PyObject *state = normal_state(module, args, 0);
    if (state == NULL) {
        return NULL;
    }
    PyObject *made = PyCFunction_NewEx(&normalize_text_def, state, NULL);
    Py_DECREF(state);
    return made;
}

PyMethodDef normal_methods[] = {
    {"normalize_uri", normalize_uri, METH_VARARGS, normalize_uri_doc},
    {"uri_normalizer", (PyCFunction)(void (*)(void))uri_normalizer, METH_FASTCALL,
     uri_normalizer_doc},
    {NULL, NULL, 0, NULL},
};
