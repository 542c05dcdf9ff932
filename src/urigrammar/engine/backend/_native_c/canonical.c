/*
 * uri_key: the function that writes a reference's key
 * (urigrammar.hygiene._canonical, whose Python is the reference this is
 * tested against), for a text that is ASCII with no percent-encoded octet
 * past ASCII: its normal form (normal.c), then, as the options fixed when
 * the function is made say, its query's pieces dropped by name and sorted
 * by name, an empty query dropped, and the fragment dropped.
 *
 * The query is cut at "&" and its pieces are kept as written: nothing is
 * decoded but a piece's name (the text before its first "="), to compare
 * it with the names dropped, so no reserved octet is ever decoded in the
 * key.  A name is dropped when it is one of the exact names (a frozenset
 * of str) or starts with one of the prefixes (bytes: the globs "prefix*",
 * the only globs this reads; the Python side keeps every other for
 * itself).  Sorting is stable, by the name as written, in octet order,
 * which for ASCII is Python's order of str.  Linear in the text but for
 * the sort, O(n log n) in the number of pieces.  Nothing is shared between
 * calls.
 *
 * key_column runs a key function over each row of an Arrow string column,
 * building a string column of the keys (arrow.h's Column), a null where
 * the row is null or Python must write the key.
 */

#include "arrow.h"
#include "normal.h"

#include <string.h>

/* The key's options, bits of the state's NORMAL_FLAGS item beyond
   normal.h's. */
enum { KEY_DROP_FRAGMENT = 4, KEY_SORT_QUERY = 8, KEY_DROP_EMPTY_QUERY = 16 };

/* The state's items after a normalizer's: the exact names dropped, and
   the prefixes of the names dropped. */
enum { KEY_EXACT = NORMAL_ITEMS, KEY_PREFIXES, KEY_ITEMS };

/* A piece of the query: [start, end) of the normal text, its name
   [start, name_end). */
typedef struct {
    Py_ssize_t start, end, name_end;
} Piece;

/* The pieces a call sorts on the stack; more take the heap. */
#define FEW_PIECES 32

static int
hex_digit(char c)
{
    return (c >= '0' && c <= '9') ? c - '0'
           : (c >= 'A' && c <= 'F') ? c - 'A' + 10
           : (c >= 'a' && c <= 'f') ? c - 'a' + 10
                                    : -1;
}

/* Whether the ASCII text has a percent-encoded octet past ASCII ("%8" to
   "%F"): decoded, it may spell a character the IRI normal form writes
   unencoded, which Python's way handles. */
static int
encodes_past_ascii(const char *t, Py_ssize_t n)
{
    for (Py_ssize_t i = 0; i + 1 < n; i++) {
        if (t[i] == '%' && hex_digit(t[i + 1]) >= 8) {
            return 1;
        }
    }
    return 0;
}

/* Whether the piece's name, percent-decoded, is one the state drops: 1
   or 0, or -1 with an exception set. */
static int
dropped(PyObject *state, const char *t, const Piece *p)
{
    char small[256];
    Py_ssize_t n = p->name_end - p->start;
    char *name = n <= (Py_ssize_t)sizeof small ? small : PyMem_Malloc((size_t)n);
    if (name == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    Py_ssize_t len = 0;
    for (Py_ssize_t i = p->start; i < p->name_end; i++) {
        int high, low;
        if (t[i] == '%' && i + 2 < p->name_end && (high = hex_digit(t[i + 1])) >= 0 &&
            (low = hex_digit(t[i + 2])) >= 0) {
            name[len++] = (char)(high * 16 + low); /* below 0x80: checked before */
            i += 2;
        }
        else {
            name[len++] = t[i];
        }
    }
    int found = 0;
    PyObject *prefixes = PyTuple_GetItem(state, KEY_PREFIXES);
    for (Py_ssize_t k = 0; k < PyTuple_Size(prefixes) && !found; k++) {
        PyObject *prefix = PyTuple_GetItem(prefixes, k);
        Py_ssize_t m = PyBytes_Size(prefix);
        found = len >= m && memcmp(name, PyBytes_AsString(prefix), (size_t)m) == 0;
    }
    if (!found) {
        PyObject *str = PyUnicode_DecodeASCII(name, len, NULL);
        found = str == NULL ? -1 : PySet_Contains(PyTuple_GetItem(state, KEY_EXACT), str);
        Py_XDECREF(str);
    }
    if (name != small) {
        PyMem_Free(name);
    }
    return found;
}

/* a's name before b's, in octet order (a prefix first). */
static int
name_before(const char *t, const Piece *a, const Piece *b)
{
    Py_ssize_t na = a->name_end - a->start, nb = b->name_end - b->start;
    int order = memcmp(t + a->start, t + b->start, (size_t)(na < nb ? na : nb));
    return order < 0 || (order == 0 && na < nb);
}

/* pieces[0 .. n) sorted by name, stable (a piece of the right run goes
   first only when its name is strictly before), bottom-up through work. */
static void
sort_pieces(const char *t, Piece *pieces, Piece *work, Py_ssize_t n)
{
    for (Py_ssize_t width = 1; width < n; width *= 2) {
        for (Py_ssize_t lo = 0; lo < n; lo += 2 * width) {
            Py_ssize_t mid = lo + width < n ? lo + width : n;
            Py_ssize_t hi = lo + 2 * width < n ? lo + 2 * width : n;
            Py_ssize_t i = lo, j = mid, k = lo;
            while (i < mid && j < hi) {
                work[k++] = name_before(t, &pieces[j], &pieces[i]) ? pieces[j++] : pieces[i++];
            }
            while (i < mid) {
                work[k++] = pieces[i++];
            }
            while (j < hi) {
                work[k++] = pieces[j++];
            }
        }
        memcpy(pieces, work, (size_t)n * sizeof *pieces);
    }
}

/* The query [q, end) of t cut into pieces[0 ..), those dropped left out;
   the count kept, or -1 with an exception set.  *cut says whether any
   was dropped. */
static Py_ssize_t
cut_query(PyObject *state, const char *t, Py_ssize_t q, Py_ssize_t end, Piece *pieces, int *cut)
{
    int drops = PySet_Size(PyTuple_GetItem(state, KEY_EXACT)) > 0 ||
                PyTuple_Size(PyTuple_GetItem(state, KEY_PREFIXES)) > 0;
    Py_ssize_t kept = 0;
    *cut = 0;
    for (Py_ssize_t start = q; start <= end;) {
        Piece p = {.start = start, .end = start, .name_end = -1};
        while (p.end < end && t[p.end] != '&') {
            if (t[p.end] == '=' && p.name_end < 0) {
                p.name_end = p.end;
            }
            p.end++;
        }
        if (p.name_end < 0) {
            p.name_end = p.end;
        }
        int drop = drops ? dropped(state, t, &p) : 0;
        if (drop < 0) {
            return -1;
        }
        if (drop) {
            *cut = 1;
        }
        else {
            pieces[kept++] = p;
        }
        start = p.end + 1;
    }
    return kept;
}

/* The key's text from the normal text n into out (room for n's length):
   n up to its query, the query's kept pieces in order, the fragment unless
   dropped.  Its length, or -1 with an exception set. */
static Py_ssize_t
put_key(PyObject *state, const Normal *n, long flags, char *out)
{
    const char *t = n->chars;
    Py_ssize_t query_end = n->fragment >= 0 ? n->fragment - 1 : n->length;
    Py_ssize_t head = n->query >= 0 ? n->query - 1 : query_end;
    Py_ssize_t count = 0;
    for (Py_ssize_t i = n->query; n->query >= 0 && i <= query_end; i++) {
        count += i == query_end || t[i] == '&';
    }
    Piece few[2 * FEW_PIECES];
    Piece *pieces = count <= FEW_PIECES ? few : PyMem_Malloc(2 * (size_t)count * sizeof *pieces);
    if (pieces == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    memcpy(out, t, (size_t)head);
    Py_ssize_t at = head;
    if (n->query >= 0) {
        int cut;
        Py_ssize_t kept = cut_query(state, t, n->query, query_end, pieces, &cut);
        if (kept < 0) {
            at = -1;
            goto done;
        }
        if (flags & KEY_SORT_QUERY) {
            sort_pieces(t, pieces, pieces + count, kept);
        }
        Py_ssize_t size = kept == 0 ? 0 : kept - 1;
        for (Py_ssize_t k = 0; k < kept; k++) {
            size += pieces[k].end - pieces[k].start;
        }
        /* A query left empty by dropping goes with its "?", as remove_param does. */
        if (size > 0 || !(cut || (flags & KEY_DROP_EMPTY_QUERY))) {
            out[at++] = '?';
            for (Py_ssize_t k = 0; k < kept; k++) {
                if (k > 0) {
                    out[at++] = '&';
                }
                memcpy(out + at, t + pieces[k].start, (size_t)(pieces[k].end - pieces[k].start));
                at += pieces[k].end - pieces[k].start;
            }
        }
    }
    if (n->fragment >= 0 && !(flags & KEY_DROP_FRAGMENT)) {
        memcpy(out + at, t + n->fragment - 1, (size_t)(n->length - n->fragment + 1));
        at += n->length - n->fragment + 1;
    }
done:
    if (pieces != few) {
        PyMem_Free(pieces);
    }
    return at;
}

/* The key of an ASCII text's bytes (size of them) into *key: the caller's
   small (SMALL bytes), or the heap for a longer one (then *key != small,
   for the caller to free).  Its length; -2 when Python must answer (an
   octet past ASCII percent-encoded, no URI-reference, a rule C does not
   read); -1 with an exception set. */
static Py_ssize_t
key_of(PyObject *state, const char *utf8, Py_ssize_t size, char *small, char **key)
{
    *key = small;
    if (encodes_past_ascii(utf8, size)) {
        return -2;
    }
    Normal n;
    int done = normal_bytes(state, utf8, size, &n);
    Py_ssize_t length = done < 0 ? -1 : -2;
    if (done > 0) {
        *key = n.length <= SMALL ? small : PyMem_Malloc((size_t)n.length);
        if (*key == NULL) {
            *key = small;
            PyErr_NoMemory();
            length = -1;
        }
        else {
            length = put_key(state, &n, PyLong_AsLong(PyTuple_GetItem(state, NORMAL_FLAGS)), *key);
        }
    }
    normal_release(&n);
    return length;
}

/* A key function's call: the key of text, or None when Python must
   answer. */
static PyObject *
key_text(PyObject *state, PyObject *text)
{
    Py_ssize_t size;
    const char *utf8 = PyUnicode_Check(text) ? PyUnicode_AsUTF8AndSize(text, &size) : NULL;
    if (utf8 == NULL) {
        if (PyErr_Occurred() && !PyErr_ExceptionMatches(PyExc_UnicodeEncodeError)) {
            return NULL;
        }
        PyErr_Clear(); /* no str, or a lone surrogate: Python's way says what is wrong */
        Py_RETURN_NONE;
    }
    if (size != PyUnicode_GetLength(text)) {
        Py_RETURN_NONE; /* not ASCII: the IRI way */
    }
    char small[SMALL], *key;
    Py_ssize_t length = key_of(state, utf8, size, small, &key);
    PyObject *made = length >= 0 ? PyUnicode_DecodeASCII(key, length, NULL)
                     : length == -2 ? Py_NewRef(Py_None)
                                    : NULL;
    if (key != small) {
        PyMem_Free(key);
    }
    return made;
}

static PyMethodDef key_text_def = {
    "key", key_text, METH_O,
    "key(text, /)\n--\n\nThe key of text, or None where Python answers."};

PyDoc_STRVAR(uri_key_doc,
             "uri_key(parse, slots, decode, rules, flags, rule_type, exact, prefixes, /)\n"
             "--\n\n"
             "A function from a text to its key (a str), or None where Python must\n"
             "answer: uri_normalizer's arguments, with flags 4 to drop the fragment, 8 to\n"
             "sort the query by name, 16 to drop an empty query; the query's pieces whose\n"
             "decoded name is in exact (a frozenset of str) or starts with one of prefixes\n"
             "(a tuple of bytes) are dropped.");

static PyObject *
uri_key(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != NORMAL_ARGS + 2) {
        PyErr_SetString(PyExc_TypeError, "uri_key takes 8 arguments");
        return NULL;
    }
    PyObject *exact = args[NORMAL_ARGS], *prefixes = args[NORMAL_ARGS + 1];
    if (!PyFrozenSet_Check(exact) || !PyTuple_Check(prefixes)) {
        PyErr_SetString(PyExc_TypeError, "uri_key takes the names as a frozenset, prefixes a tuple");
        return NULL;
    }
    for (Py_ssize_t k = 0; k < PyTuple_Size(prefixes); k++) {
        if (!PyBytes_Check(PyTuple_GetItem(prefixes, k))) {
            PyErr_SetString(PyExc_TypeError, "uri_key takes each prefix as bytes");
            return NULL;
        }
    }
    PyObject *state = normal_state(module, args, KEY_ITEMS - NORMAL_ITEMS);
    if (state == NULL) {
        return NULL;
    }
    PyTuple_SetItem(state, KEY_EXACT, Py_NewRef(exact));
    PyTuple_SetItem(state, KEY_PREFIXES, Py_NewRef(prefixes));
    PyObject *made = PyCFunction_NewEx(&key_text_def, state, NULL);
    Py_DECREF(state);
    return made;
}

/* ---- a column of keys ---------------------------------------------------- */

/* The keys of the rows of in into c (made here): a null for a null row and
   for each row whose key Python must write (the caller writes those).  0,
   or -1 with an exception set. */
static int
key_rows(PyObject *state, const Strings *in, int wide, Column *c)
{
    /* A key is about as long as its row: 64 bytes a row reserved, which
       memory holds only as it is written. */
    if (column_init(c, in->length, wide, 64 * (size_t)in->length) < 0) {
        column_free(c); /* what column_init took before it failed */
        PyErr_NoMemory();
        return -1;
    }
    for (int64_t i = 0; i < in->length; i++) {
        const unsigned char *p;
        size_t n;
        Py_ssize_t length = -2;
        char small[SMALL], *key = small;
        if (row_at(in, i, &p, &n) == 0 && n <= (size_t)PY_SSIZE_T_MAX) {
            size_t k = 0;
            while (k < n && p[k] < 0x80) {
                k++;
            }
            if (k == n) { /* ASCII: any other row is the IRI way's */
                length = key_of(state, (const char *)p, (Py_ssize_t)n, small, &key);
            }
        }
        int put = length == -1 ? -1
                               : column_put(c, i, length >= 0 ? (const unsigned char *)key : NULL,
                                            length >= 0 ? (size_t)length : 0);
        if (key != small) {
            PyMem_Free(key);
        }
        if (put < 0) {
            if (put != -1) {
                column_raise(c, put);
            }
            column_free(c);
            return -1;
        }
    }
    return 0;
}

PyDoc_STRVAR(key_column_doc,
             "key_column(key, schema, array, /)\n"
             "--\n\n"
             "The keys that key (a function uri_key made) writes for the rows of an Arrow\n"
             "string array given as its two capsules: the (schema, array) capsules of a\n"
             "string array (large_utf8 when the input is large or a view), null for a null\n"
             "row and for each row key answers None for.");

static PyObject *
key_column(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 3 || !Py_IS_TYPE(args[0], &PyCFunction_Type) ||
        PyCFunction_GetFunction(args[0]) != key_text) {
        PyErr_SetString(PyExc_TypeError, "key_column takes a key function and two capsules");
        return NULL;
    }
    PyObject *state = PyCFunction_GetSelf(args[0]);
    struct ArrowSchema *schema = PyCapsule_GetPointer(args[1], "arrow_schema");
    struct ArrowArray *array = PyCapsule_GetPointer(args[2], "arrow_array");
    int kind = schema == NULL || array == NULL ? 0 : input_kind(schema);
    Strings in;
    if (kind == 0 || read_strings(schema, array, &in) < 0) {
        return NULL;
    }
    struct ArrowSchema *out_schema = calloc(1, sizeof *out_schema);
    struct ArrowArray *out_array = calloc(1, sizeof *out_array);
    Column c;
    int ok = out_schema != NULL && out_array != NULL &&
             new_schema(out_schema, kind == 'u' ? "u" : "U", "", 0) == 0;
    if (!ok) {
        PyErr_NoMemory();
    }
    else if (key_rows(state, &in, kind != 'u', &c) < 0) {
        ok = 0;
    }
    else if (column_export(&c, out_array) < 0) {
        column_free(&c);
        PyErr_NoMemory();
        ok = 0;
    }
    if (!ok) {
        if (out_schema != NULL && out_schema->release != NULL) {
            out_schema->release(out_schema);
        }
        free(out_schema);
        free(out_array);
        return NULL;
    }
    return capsule_pair(out_schema, out_array);
}

PyMethodDef canonical_methods[] = {
    {"uri_key", (PyCFunction)(void (*)(void))uri_key, METH_FASTCALL, uri_key_doc},
    {"key_column", (PyCFunction)(void (*)(void))key_column, METH_FASTCALL, key_column_doc},
    {NULL, NULL, 0, NULL},
};
