/*
 * A generic table-driven DFA runner: urigrammar.engine._native.
 *
 * The tables come from engine/_dfa.py (a minimal complete DFA over classes
 * of code points, built from a grammar's rule); nothing here knows any
 * grammar, rule or delimiter.  One Runner object holds one DFA:
 *
 *   ascii      128 bytes: the class of each code point below 128;
 *   starts     uint32 native-endian: the first code point of each interval,
 *              sorted, starts[0] == 0 (the last interval ends at U+10FFFF);
 *   classes    one byte per interval: its class;
 *   moves      uint16 native-endian: moves[state * nclasses + class];
 *              state 0 is dead and loops on every class;
 *   accepting  one byte per state.
 *
 * A second type, Entry, is a C-level front for a Python function that looks
 * matchers up by name (urigrammar.validate): see its section below.
 *
 * Built with the stable ABI (Py_LIMITED_API 3.10), so one wheel serves every
 * CPython from 3.10 on: the text is read with PyUnicode_AsUCS4 into a
 * bounded buffer, a chunk at a time, whatever its kind (1, 2 or 4 bytes a
 * character); a lone surrogate is a code point like any other.  No static
 * state is mutable: the Runner type lives in the module state, the Entry
 * type in the module (its instances keep what they need).
 *
 * Speed (all generic, decided from the tables at construction):
 * - a code point's class: the 128-entry table below 128; above, a two-level
 *   table (the class of each code point of a 256-code-point page, pages
 *   shared: only pages holding an interval boundary differ from a uniform
 *   one), so no search per character;
 * - transitions hold the target's row offset (state * nclasses), not its
 *   number: one load and one add a character on the critical path;
 * - a state that loops on the class just read skips the run in a loop
 *   whose row is fixed, so its loads do not wait on each other; likewise,
 *   when the rows of the last 16 characters repeat with a period of 2 to 8
 *   (a "%41" run goes around three states, "u:p%20" six positions with a
 *   loop inside), the cycle is followed with its rows fixed while it
 *   holds.  The period is looked for at every 8th change of state, and
 *   only in texts longer than one read chunk: a URL pays nothing for it.
  */

#ifndef Py_LIMITED_API
#define Py_LIMITED_API 0x030A0000
#endif
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

/* Characters read per PyUnicode_AsUCS4 call: a stack buffer of 8 KiB. */
#define CHUNK 2048

#define MAX_CODE 0x10FFFF
#define NPAGES ((MAX_CODE >> 8) + 1)

/* The class of each code point: shared by the Runner and the Tagger. */
typedef struct {
    uint8_t ascii[128];
    uint16_t *page_of;   /* NPAGES entries: code >> 8 -> page */
    uint8_t *pages;      /* 256 classes per page */
} ClassMap;

typedef struct {
    PyObject_HEAD
    ClassMap map;
    Py_ssize_t nclasses;
    Py_ssize_t nstates;
    uint32_t *moves;     /* moves[off + class]: the target's row offset; 0 is dead */
    uint8_t *accepting;  /* by state number (offset / nclasses) */
    /* offset / nclasses without a division (tens of cycles, a sizeable
       part of a short text's run): nclasses is 2**shift times an odd
       number whose inverse modulo 2**32 is `inverse`, and an offset is an
       exact multiple of nclasses. */
    unsigned shift;
    uint32_t inverse;
    uint32_t start;      /* the start state's row offset */
} Runner;

typedef struct {
    PyObject *runner_type;
    PyObject *tagger_type;
} module_state;

static inline uint8_t
map_class(const ClassMap *m, Py_UCS4 code)
{
    if (code < 128) {
        return m->ascii[code];
    }
    if (code > MAX_CODE) { /* not from a str; never index past the table */
        code = MAX_CODE;
    }
    return m->pages[((size_t)m->page_of[code >> 8] << 8) | (code & 0xFF)];
}

static inline uint8_t
class_of(const Runner *r, Py_UCS4 code)
{
    return map_class(&r->map, code);
}

/* The states read at the last HIST positions of the text, to spot a
   periodic walk: hist[pos & (HIST - 1)] is the row the DFA was in before
   reading the character at pos.  A period of up to MAX_PERIOD characters
   is seen once HIST positions repeat it (two periods at least). */
#define HIST 16
#define MAX_PERIOD 8

/* The shortest period p in 2..MAX_PERIOD of the rows at the HIST
   positions up to pos (all written), or 0. */
static int
period_at(const uint32_t *hist, Py_ssize_t pos)
{
    for (int p = 2; p <= MAX_PERIOD; p++) {
        Py_ssize_t k = pos;
        while (k > pos - HIST + p && hist[k & (HIST - 1)] == hist[(k - p) & (HIST - 1)]) {
            k--;
        }
        if (k == pos - HIST + p) {
            return p;
        }
    }
    return 0;
}

/* Characters at..at+n of text (of length `length`) into buf, whatever the
   str's kind: 0, or -1 with an exception set. */
static int
read_chunk(PyObject *text, Py_ssize_t at, Py_ssize_t n, Py_ssize_t length, Py_UCS4 *buf)
{
    if (at == 0 && n == length) {
        return PyUnicode_AsUCS4(text, buf, CHUNK, 0) == NULL ? -1 : 0;
    }
    PyObject *part = PyUnicode_Substring(text, at, at + n);
    if (part == NULL) {
        return -1;
    }
    Py_UCS4 *got = PyUnicode_AsUCS4(part, buf, CHUNK, 0);
    Py_DECREF(part);
    return got == NULL ? -1 : 0;
}

/* Run the DFA over `text`; *end gets the end of the longest viable prefix.
   Returns the final state (0 when the text stopped being viable), or -1
   with an exception set. */
static int
run(const Runner *r, PyObject *text, Py_ssize_t *end)
{
    Py_UCS4 buf[CHUNK];
    Py_ssize_t length = PyUnicode_GetLength(text);
    if (length < 0) {
        return -1;
    }
    const uint32_t *moves = r->moves;
    uint32_t off = r->start;
    uint32_t hist[HIST];
    /* Steps that changed state, counted to look for a period now and then
       (every 8th), in texts longer than a chunk. */
    unsigned steps = 0;
    if (off == 0) { /* a rule that matches nothing */
        *end = 0;
        return 0;
    }
    for (Py_ssize_t at = 0; at < length; at += CHUNK) {
        Py_ssize_t n = length - at < CHUNK ? length - at : CHUNK;
        if (read_chunk(text, at, n, length, buf) < 0) {
            return -1;
        }
        Py_ssize_t i = 0;
        if (n == length) {
            /* A text of one chunk (a URL, say): loops skipped, no watch
               for periods, whose bookkeeping would cost short texts more
               than it could save them. */
            while (i < n) {
                uint32_t next = moves[off + class_of(r, buf[i])];
                i++;
                if (next == off) {
                    while (i < n && moves[off + class_of(r, buf[i])] == off) {
                        i++;
                    }
                    continue;
                }
                if (next == 0) {
                    *end = i - 1;
                    return 0;
                }
                off = next;
            }
            break;
        }
        while (i < n) {
            uint32_t next = moves[off + class_of(r, buf[i])];
            hist[(at + i) & (HIST - 1)] = off;
            i++;
            if (next == off) {
                /* A loop: the row stays `off` for as long as it lasts, so
                   the loads do not wait on each other. */
                Py_ssize_t from = i;
                while (i < n && moves[off + class_of(r, buf[i])] == off) {
                    i++;
                }
                for (Py_ssize_t k = i - from > HIST ? i - HIST : from; k < i; k++) {
                    hist[(at + k) & (HIST - 1)] = off;
                }
                continue;
            }
            if (next == 0) {
                *end = at + i - 1;
                return 0;
            }
            off = next;
            if ((++steps & 7) != 0 || at + i < HIST) {
                continue;
            }
            /* Is the walk periodic ("%41" runs go around three states,
               "u:p%20" runs six positions with a loop inside)?  Then
               follow the cycle with its rows fixed while it holds: each
               character's check is independent of the others'. */
            Py_ssize_t pos = at + i;
            hist[pos & (HIST - 1)] = off;
            int p = period_at(hist, pos);
            if (p == 0) {
                continue;
            }
            /* The cycle repeated over a round of up to HIST characters:
               row[k] is the row before the k-th character of a round,
               row[k + 1] the one after it. */
            uint32_t row[HIST + 1];
            int round = HIST / p * p;
            for (int k = 0; k <= round; k++) {
                row[k] = hist[(pos - p + k % p) & (HIST - 1)];
            }
            Py_ssize_t from = i;
            /* Whole periods of three or two (a "%41" run, a "%4" tail)
               with their rows in registers; */
            if (p == 3) {
                uint32_t a = row[0], b = row[1], c = row[2];
                while (i + 3 <= n && moves[a + class_of(r, buf[i])] == b &&
                       moves[b + class_of(r, buf[i + 1])] == c &&
                       moves[c + class_of(r, buf[i + 2])] == a) {
                    i += 3;
                }
            }
            else if (p == 2) {
                uint32_t a = row[0], b = row[1];
                while (i + 2 <= n && moves[a + class_of(r, buf[i])] == b &&
                       moves[b + class_of(r, buf[i + 1])] == a) {
                    i += 2;
                }
            }
            /* else whole rounds, the checks of a round or-ed together: one
               branch a round, and no check waits on another. */
            while (p > 3 && i + round <= n) {
                uint32_t miss = 0;
                for (int k = 0; k < round; k++) {
                    miss |= moves[row[k] + class_of(r, buf[i + k])] ^ row[k + 1];
                }
                if (miss != 0) {
                    break;
                }
                i += round;
            }
            /* Then character by character to where the cycle stops. */
            int j = 0;
            while (i < n && moves[row[j] + class_of(r, buf[i])] == row[j + 1]) {
                i++;
                if (++j == p) {
                    j = 0;
                }
            }
            off = row[j];
            for (Py_ssize_t k = i - from > HIST ? i - HIST : from; k < i; k++) {
                hist[(at + k) & (HIST - 1)] = row[(k - from) % p];
            }
        }
    }
    *end = length;
    return (int)((off >> r->shift) * r->inverse);
}

static PyObject *
check_str(PyObject *arg)
{
    if (!PyUnicode_Check(arg)) {
        PyObject *name = PyObject_GetAttrString((PyObject *)Py_TYPE(arg), "__name__");
        if (name != NULL) {
            PyErr_Format(PyExc_TypeError, "text must be str, not %U", name);
            Py_DECREF(name);
        }
        return NULL;
    }
    return arg;
}

PyDoc_STRVAR(fullmatch_doc,
"fullmatch(text, /)\n--\n\n"
"True when the DFA accepts all of text, else None (the contract of\n"
"re.Pattern.fullmatch: None exactly when there is no match).");

static PyObject *
Runner_fullmatch(PyObject *self, PyObject *arg)
{
    Runner *r = (Runner *)self;
    Py_ssize_t end;
    if (check_str(arg) == NULL) {
        return NULL;
    }
    int state = run(r, arg, &end);
    if (state < 0) {
        return NULL;
    }
    if (state > 0 && r->accepting[state]) {
        Py_RETURN_TRUE;
    }
    Py_RETURN_NONE;
}

PyDoc_STRVAR(accepts_doc,
"accepts(text, /)\n--\n\n"
"Whether the DFA accepts all of text.");

static PyObject *
Runner_accepts(PyObject *self, PyObject *arg)
{
    Runner *r = (Runner *)self;
    Py_ssize_t end;
    if (check_str(arg) == NULL) {
        return NULL;
    }
    int state = run(r, arg, &end);
    if (state < 0) {
        return NULL;
    }
    return PyBool_FromLong(state > 0 && r->accepting[state]);
}

PyDoc_STRVAR(viable_doc,
"viable(text, /)\n--\n\n"
"The length of the longest prefix of text that some accepted string\n"
"starts with.");

static PyObject *
Runner_viable(PyObject *self, PyObject *arg)
{
    Runner *r = (Runner *)self;
    Py_ssize_t end;
    if (check_str(arg) == NULL) {
        return NULL;
    }
    if (run(r, arg, &end) < 0) {
        return NULL;
    }
    return PyLong_FromSsize_t(end);
}

/* A pointer to the contents of a bytes object of exactly count items of
   itemsize bytes, or NULL with ValueError/TypeError set. */
static const char *
table(PyObject *obj, const char *what, Py_ssize_t itemsize, Py_ssize_t count)
{
    if (!PyBytes_Check(obj)) {
        PyErr_Format(PyExc_TypeError, "%s must be bytes", what);
        return NULL;
    }
    /* count is at most PY_SSIZE_T_MAX / 4 here (the caller bounds it), so
       the product cannot wrap, on 32-bit builds included. */
    if (count < 0 || count > PY_SSIZE_T_MAX / 4 || PyBytes_Size(obj) != itemsize * count) {
        PyErr_Format(PyExc_ValueError, "%s: %zd bytes, expected %zd", what,
                     PyBytes_Size(obj), itemsize * count);
        return NULL;
    }
    return PyBytes_AsString(obj);
}

/* Items of a table read with memcpy: a bytes object's contents carry no
   alignment promise. */
static inline uint32_t
u32_at(const char *data, Py_ssize_t i)
{
    uint32_t value;
    memcpy(&value, data + i * 4, 4);
    return value;
}

static inline uint16_t
u16_at(const char *data, Py_ssize_t i)
{
    uint16_t value;
    memcpy(&value, data + i * 2, 2);
    return value;
}

static PyObject *
refuse(void *self, const char *why)
{
    PyErr_SetString(PyExc_ValueError, why);
    Py_DECREF((PyObject *)self);
    return NULL;
}

/* The two-level class table: for each 256-code-point page, the page of
   classes it shares with every page alike.  A page inside one interval is
   the uniform page of that interval's class; only pages holding an
   interval boundary get pages of their own, so there are at most
   nclasses + min(nintervals, NPAGES) pages. */
static int
build_pages(ClassMap *self, Py_ssize_t nclasses, const uint32_t *starts,
            const uint8_t *classes, Py_ssize_t nintervals)
{
    Py_ssize_t most = nclasses + (nintervals < NPAGES ? nintervals : NPAGES);
    self->page_of = PyMem_Malloc(NPAGES * sizeof(uint16_t));
    self->pages = PyMem_Malloc((size_t)most * 256);
    Py_ssize_t *uniform = PyMem_Malloc((size_t)nclasses * sizeof(Py_ssize_t));
    if (self->page_of == NULL || self->pages == NULL || uniform == NULL) {
        PyMem_Free(uniform);
        PyErr_NoMemory();
        return -1;
    }
    for (Py_ssize_t c = 0; c < nclasses; c++) {
        uniform[c] = -1;
    }
    Py_ssize_t used = 0, at = 0; /* at: the interval holding the page's first code */
    for (uint32_t page = 0; page < NPAGES; page++) {
        uint32_t first = page << 8, last = first | 0xFF;
        while (at + 1 < nintervals && starts[at + 1] <= first) {
            at++;
        }
        uint32_t end = at + 1 < nintervals ? starts[at + 1] - 1 : MAX_CODE;
        if (end >= last) {
            uint8_t c = classes[at];
            if (uniform[c] < 0) {
                uniform[c] = used++;
                memset(self->pages + uniform[c] * 256, c, 256);
            }
            self->page_of[page] = (uint16_t)uniform[c];
            continue;
        }
        uint8_t *mixed = self->pages + used * 256;
        Py_ssize_t k = at;
        for (uint32_t code = first; code <= last; code++) {
            while (k + 1 < nintervals && starts[k + 1] <= code) {
                k++;
            }
            mixed[code - first] = classes[k];
        }
        self->page_of[page] = (uint16_t)used++;
    }
    PyMem_Free(uniform);
    /* Keep only the pages used (a few dozen, against the bound above). */
    uint8_t *kept = PyMem_Realloc(self->pages, (size_t)used * 256);
    if (kept != NULL) {
        self->pages = kept;
    }
    return 0;
}

/* 0 when the intervals are well formed, else -1. */
static int
check_intervals(const uint32_t *starts, const uint8_t *classes, Py_ssize_t nintervals,
                Py_ssize_t nclasses)
{
    if (starts[0] != 0) {
        return -1;
    }
    for (Py_ssize_t i = 0; i < nintervals; i++) {
        if ((i > 0 && starts[i] <= starts[i - 1]) || starts[i] > MAX_CODE ||
            classes[i] >= nclasses) {
            return -1;
        }
    }
    return 0;
}

/* The tables both DFA objects share, read into *map and *moves (which the
   object's dealloc frees, set or not): 0, or -1 with an exception set,
   ValueError for a table that would make the run index out of bounds. */
static int
read_tables(ClassMap *map, uint32_t **moves_out, const char *ascii_table,
            const char *starts_data, const uint8_t *classes, Py_ssize_t nintervals,
            const char *moves, Py_ssize_t nstates, Py_ssize_t nclasses)
{
    memcpy(map->ascii, ascii_table, 128);
    for (Py_ssize_t i = 0; i < 128; i++) {
        if (map->ascii[i] >= nclasses) {
            PyErr_SetString(PyExc_ValueError, "ascii: a class index out of range");
            return -1;
        }
    }
    uint32_t *starts = PyMem_Malloc((size_t)nintervals * sizeof(uint32_t));
    if (starts == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    for (Py_ssize_t i = 0; i < nintervals; i++) {
        starts[i] = u32_at(starts_data, i);
    }
    int ok = check_intervals(starts, classes, nintervals, nclasses);
    if (ok < 0) {
        PyErr_SetString(PyExc_ValueError, "starts must start at 0 and increase within "
                                          "0..0x10FFFF, and classes stay below nclasses");
    }
    else {
        ok = build_pages(map, nclasses, starts, classes, nintervals);
    }
    PyMem_Free(starts);
    if (ok < 0) {
        return -1;
    }
    uint32_t *out = *moves_out = PyMem_Malloc((size_t)(nstates * nclasses) * sizeof(uint32_t));
    if (out == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    for (Py_ssize_t i = 0; i < nstates * nclasses; i++) {
        uint16_t target = u16_at(moves, i);
        if (target >= nstates || (i < nclasses && target != 0)) {
            PyErr_SetString(PyExc_ValueError,
                            "moves: a target out of range, or a dead state that moves");
            return -1;
        }
        out[i] = (uint32_t)(target * nclasses);
    }
    return 0;
}

static PyObject *
Runner_new(PyTypeObject *type, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"ascii", "starts", "classes", "moves", "accepting",
                             "nclasses", "start", NULL};
    PyObject *ascii, *starts_obj, *classes_obj, *moves_obj, *accepting;
    Py_ssize_t nclasses, start;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "SSSSSnn", kwlist, &ascii, &starts_obj,
                                     &classes_obj, &moves_obj, &accepting, &nclasses,
                                     &start)) {
        return NULL;
    }
    Py_ssize_t nstates = PyBytes_Size(accepting);
    Py_ssize_t nintervals = PyBytes_Size(classes_obj);
    /* Bound nstates before multiplying: with nclasses <= 256 the product
       then fits a Py_ssize_t even where that is 32 bits. */
    if (nclasses < 1 || nclasses > 256 || nstates < 1 || nintervals < 1 ||
        nstates > (Py_ssize_t)(UINT16_MAX + 1) ||
        (uint64_t)nstates * (uint64_t)nclasses > UINT32_MAX / 2) {
        PyErr_SetString(PyExc_ValueError, "table sizes out of range");
        return NULL;
    }
    const char *ascii_table = table(ascii, "ascii", 1, 128);
    const char *starts_data = table(starts_obj, "starts", 4, nintervals);
    const uint8_t *classes = (const uint8_t *)table(classes_obj, "classes", 1, nintervals);
    const char *moves = table(moves_obj, "moves", 2, nstates * nclasses);
    if (ascii_table == NULL || starts_data == NULL || classes == NULL || moves == NULL) {
        return NULL;
    }
    if (start < 0 || start >= nstates) {
        PyErr_SetString(PyExc_ValueError, "start state out of range");
        return NULL;
    }
    allocfunc alloc = (allocfunc)PyType_GetSlot(type, Py_tp_alloc);
    Runner *self = (Runner *)alloc(type, 0);
    if (self == NULL) {
        return NULL;
    }
    self->nclasses = nclasses;
    self->nstates = nstates;
    self->start = (uint32_t)(start * nclasses);
    uint32_t odd = (uint32_t)nclasses;
    for (self->shift = 0; (odd & 1) == 0; self->shift++) {
        odd >>= 1;
    }
    /* Newton's iteration doubles the correct low bits each round: an odd
       number is its own inverse modulo 8 (3 bits), so 4 rounds give 48. */
    self->inverse = odd;
    for (int round = 0; round < 4; round++) {
        self->inverse *= 2 - odd * self->inverse;
    }
    /* Check every index the run loop follows, so that no lookup can fall
       outside its table whatever the caller passed. */
    if (read_tables(&self->map, &self->moves, ascii_table, starts_data, classes, nintervals,
                    moves, nstates, nclasses) < 0) {
        Py_DECREF(self);
        return NULL;
    }
    self->accepting = PyMem_Malloc((size_t)nstates);
    if (self->accepting == NULL) {
        Py_DECREF(self);
        return PyErr_NoMemory();
    }
    memcpy(self->accepting, PyBytes_AsString(accepting), (size_t)nstates);
    return (PyObject *)self;
}

static void
Runner_dealloc(PyObject *obj)
{
    Runner *self = (Runner *)obj;
    PyTypeObject *type = Py_TYPE(obj);
    PyMem_Free(self->moves);
    PyMem_Free(self->accepting);
    PyMem_Free(self->map.page_of);
    PyMem_Free(self->map.pages);
    freefunc tp_free = (freefunc)PyType_GetSlot(type, Py_tp_free);
    tp_free(obj);
    Py_DECREF(type);
}

static PyMethodDef Runner_methods[] = {
    {"fullmatch", Runner_fullmatch, METH_O, fullmatch_doc},
    {"accepts", Runner_accepts, METH_O, accepts_doc},
    {"viable", Runner_viable, METH_O, viable_doc},
    {NULL, NULL, 0, NULL},
};

PyDoc_STRVAR(Runner_doc,
"Runner(ascii, starts, classes, moves, accepting, nclasses, start)\n--\n\n"
"A DFA over classes of code points, from engine._dfa's tables.");

static PyType_Slot Runner_slots[] = {
    {Py_tp_new, Runner_new},
    {Py_tp_dealloc, Runner_dealloc},
    {Py_tp_methods, Runner_methods},
    {Py_tp_doc, (void *)Runner_doc},
    {0, NULL},
};

static PyType_Spec Runner_spec = {
    .name = "urigrammar.engine._native.Runner",
    .basicsize = sizeof(Runner),
    .itemsize = 0,
    .flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_IMMUTABLETYPE,
    .slots = Runner_slots,
};

/* ------------------------------------------------------------------------
 * Tagger: a tagged DFA (engine/_tagged.py), for parse.
 *
 * The forward pass is a DFA run like the Runner's, which also keeps the
 * records of its transitions that are not record 0 (the identity without
 * tags), with the position after each; a run of one record on a loop that
 * keeps every thread in place is kept once, at its end.  The backward
 * pass follows the final state's first accepting thread through those
 * records, and the first value it meets for a tag is the tag's last.
 * Every index read from the tables at run time is checked where it is used.
 * ---------------------------------------------------------------------- */

typedef struct {
    PyObject_HEAD
    ClassMap map;
    Py_ssize_t nclasses;
    Py_ssize_t nstates;
    uint32_t *moves;        /* the target's row offset; 0 is dead */
    uint16_t *recs;         /* the record of each transition */
    Py_ssize_t nrecords;
    uint32_t *rec_first;    /* record r: threads rec_first[r] .. rec_first[r + 1] */
    uint16_t *rec_source;   /* per thread of a record: its source thread */
    uint16_t *rec_tagset;   /* and the tag set it sets */
    uint8_t *keeps;         /* per record: every thread stays where it was */
    Py_ssize_t ntagsets;
    uint32_t *set_first;    /* tag set i: tags set_first[i] .. set_first[i + 1] */
    uint8_t *set_tags;
    int32_t *finals;        /* per state: the accepting thread, or -1 */
    Py_ssize_t nstart;
    uint16_t *start_tags;   /* per thread of the start state: its tag set */
    uint32_t start;         /* the start state's row offset */
    Py_ssize_t ntags;
    /* The output: slot i is the first capture among its candidates that
       took part (its text, or the candidate's constant), else its default. */
    Py_ssize_t nslots;
    Py_ssize_t *slot_first;  /* slot i: candidates slot_first[i] .. [i + 1] */
    Py_ssize_t *cand_capture;
    PyObject **cand_const;   /* NULL: the capture's text */
    PyObject **defaults;
    Py_ssize_t ncands;
    /* When not NULL: parse returns this tuple subclass, made as
       tuple.__new__(cls, slots) makes it. */
    PyObject *cls;
    newfunc tuple_new;
} Tagger;

#define MAX_TAGS 256

/* The records met, with the position after each; on the stack until it
   outgrows EVENTS_ON_STACK. */
#define EVENTS_ON_STACK 128

typedef struct {
    Py_ssize_t n, cap;
    Py_ssize_t *pos;
    uint16_t *rec;
    Py_ssize_t pos_stack[EVENTS_ON_STACK];
    uint16_t rec_stack[EVENTS_ON_STACK];
} Events;

static int
events_push(Events *ev, Py_ssize_t pos, uint16_t rec)
{
    if (ev->n == ev->cap) {
        Py_ssize_t cap = ev->cap * 2;
        if (cap > PY_SSIZE_T_MAX / (Py_ssize_t)sizeof(Py_ssize_t)) {
            PyErr_NoMemory();
            return -1;
        }
        Py_ssize_t *p = PyMem_Malloc((size_t)cap * sizeof(Py_ssize_t));
        uint16_t *r = PyMem_Malloc((size_t)cap * sizeof(uint16_t));
        if (p == NULL || r == NULL) {
            PyMem_Free(p);
            PyMem_Free(r);
            PyErr_NoMemory();
            return -1;
        }
        memcpy(p, ev->pos, (size_t)ev->n * sizeof(Py_ssize_t));
        memcpy(r, ev->rec, (size_t)ev->n * sizeof(uint16_t));
        if (ev->pos != ev->pos_stack) {
            PyMem_Free(ev->pos);
            PyMem_Free(ev->rec);
        }
        ev->pos = p;
        ev->rec = r;
        ev->cap = cap;
    }
    ev->pos[ev->n] = pos;
    ev->rec[ev->n] = rec;
    ev->n++;
    return 0;
}

/* Blocks of records (1 to MAX_BLOCK) checked by block_collapses, with the
   verdicts: a few, since compaction and cycle following each ask about
   their own block, and a text may alternate between several. */
#define MAX_BLOCK 3
#define MEMO_ENTRIES 4

typedef struct {
    int len;
    uint16_t recs[MAX_BLOCK];
    int collapses;
} BlockVerdict;

typedef struct {
    BlockVerdict entries[MEMO_ENTRIES];
    int next; /* the entry replaced next */
} BlockMemo;

/* Backwards through the records recs[0..len) (forward order) from thread
   k: the thread reached in *k, the tags set added to bits; 0 when a
   thread falls outside a record (not a repeatable block). */
static int
block_walk(const Tagger *t, const uint16_t *recs, int len, Py_ssize_t *k, uint64_t *bits)
{
    for (int i = len - 1; i >= 0; i--) {
        uint32_t first = t->rec_first[recs[i]];
        if (*k < 0 || *k >= (Py_ssize_t)(t->rec_first[recs[i] + 1] - first)) {
            return 0;
        }
        uint16_t set = t->rec_tagset[first + *k];
        for (uint32_t j = t->set_first[set]; j < t->set_first[set + 1]; j++) {
            bits[t->set_tags[j] >> 6] |= (uint64_t)1 << (t->set_tags[j] & 63);
        }
        *k = t->rec_source[first + *k];
    }
    return 1;
}

/* Whether the block, run twice, reads backwards as its later run: from
   every thread k the later run leads to a thread j that the block leads
   back to itself, setting no tag the later run did not set from k.  The
   earlier run then adds no tag and moves no thread (see _tagged.py's
   _collapses, the same for one record on a loop). */
static int
block_collapses(const Tagger *t, const uint16_t *recs, int len)
{
    uint16_t last = recs[len - 1];
    Py_ssize_t width = (Py_ssize_t)(t->rec_first[last + 1] - t->rec_first[last]);
    for (Py_ssize_t k = 0; k < width; k++) {
        uint64_t later[MAX_TAGS / 64] = {0}, earlier[MAX_TAGS / 64] = {0};
        Py_ssize_t j = k;
        if (!block_walk(t, recs, len, &j, later)) {
            return 0;
        }
        Py_ssize_t back = j;
        if (!block_walk(t, recs, len, &back, earlier) || back != j) {
            return 0;
        }
        for (int w = 0; w < MAX_TAGS / 64; w++) {
            if (earlier[w] & ~later[w]) {
                return 0;
            }
        }
    }
    return 1;
}

/* Whether the block recs[0..len) collapses, remembered in memo. */
static int
memo_collapses(const Tagger *t, BlockMemo *memo, const uint16_t *recs, int len)
{
    for (int e = 0; e < MEMO_ENTRIES; e++) {
        BlockVerdict *v = &memo->entries[e];
        if (v->len != len) {
            continue;
        }
        int same = 1;
        for (int i = 0; same && i < len; i++) {
            same = v->recs[i] == recs[i];
        }
        if (same) {
            return v->collapses;
        }
    }
    BlockVerdict *v = &memo->entries[memo->next];
    memo->next = (memo->next + 1) % MEMO_ENTRIES;
    v->len = len;
    for (int i = 0; i < len; i++) {
        v->recs[i] = recs[i];
    }
    v->collapses = block_collapses(t, recs, len);
    return v->collapses;
}

/* After a push: when the records end with the same block twice (records
   0, the identity, are never stored, so the runs need not be adjacent in
   the text) and the block collapses, drop its earlier run.  A "%41" run
   or a "u:p%20" userinfo then keeps a few records, not one per cycle. */
static void
events_compact(const Tagger *t, Events *ev, BlockMemo *memo)
{
    const uint16_t *end = ev->rec + ev->n;
    for (int len = 1; len <= MAX_BLOCK && 2 * len <= ev->n; len++) {
        int same = 1;
        for (int i = 1; i <= len; i++) {
            if (end[-i] != end[-i - len]) {
                same = 0;
                break;
            }
        }
        if (!same) {
            continue;
        }
        if (memo_collapses(t, memo, end - len, len)) {
            Py_ssize_t at = ev->n - 2 * len;
            for (int i = 0; i < len; i++) {
                ev->pos[at + i] = ev->pos[at + len + i];
                ev->rec[at + i] = ev->rec[at + len + i];
            }
            ev->n -= len;
        }
        return;
    }
}

static void
events_free(Events *ev)
{
    if (ev->pos != ev->pos_stack) {
        PyMem_Free(ev->pos);
        PyMem_Free(ev->rec);
    }
}

/* A cycle of len states (rows[0] -> rows[1] ... -> rows[0], the step from
   rows[j] with record crecs[j]) has just been gone around once, ending at
   position `pos` (the position after buf[i - 1]).  When the records it
   stored are the last ones kept, at the positions that round gave them, and
   their block collapses (two rounds read backwards as the later one), every
   further round only moves those records forward: follow the cycle while
   it holds, its rows fixed, and move them.  Returns the index of the first
   character not followed. */
static Py_ssize_t
follow_cycle(const Tagger *t, const Py_UCS4 *buf, Py_ssize_t i, Py_ssize_t n, Py_ssize_t pos,
             const uint32_t *rows, const uint16_t *crecs, int len, Events *ev, BlockMemo *memo)
{
    uint16_t kept[MAX_BLOCK];
    Py_ssize_t kept_pos[MAX_BLOCK];
    int count = 0;
    for (int j = 0; j < len; j++) {
        if (crecs[j] != 0) {
            kept[count] = crecs[j];
            kept_pos[count] = pos - (len - 1) + j;
            count++;
        }
    }
    if (count > ev->n) {
        return i;
    }
    for (int j = 0; j < count; j++) {
        Py_ssize_t e = ev->n - count + j;
        if (ev->rec[e] != kept[j] || ev->pos[e] != kept_pos[j]) {
            return i;
        }
    }
    if (count > 0 && !memo_collapses(t, memo, kept, count)) {
        return i;
    }
    const uint32_t *moves = t->moves;
    const uint16_t *recs = t->recs;
    Py_ssize_t rounds = 0;
    while (i + len <= n) {
        int holds = 1;
        for (int j = 0; j < len; j++) {
            uint32_t cell = rows[j] + map_class(&t->map, buf[i + j]);
            if (moves[cell] != rows[(j + 1) % len] || recs[cell] != crecs[j]) {
                holds = 0;
                break;
            }
        }
        if (!holds) {
            break;
        }
        i += len;
        rounds++;
    }
    for (int j = 0; j < count; j++) {
        ev->pos[ev->n - count + j] += rounds * len;
    }
    return i;
}

/* The forward pass: 1 with the final state's number in *final when the
   DFA accepts text, 0 when it does not, -1 with an exception set. */
static int
tag_forward(const Tagger *t, PyObject *text, Events *ev, Py_ssize_t *final)
{
    Py_UCS4 buf[CHUNK];
    Py_ssize_t length = PyUnicode_GetLength(text);
    if (length < 0) {
        return -1;
    }
    const uint32_t *moves = t->moves;
    const uint16_t *recs = t->recs;
    uint32_t off = t->start;
    /* The rows one and two steps back (0: none) and the records of the
       last two steps, to spot a cycle just completed. */
    uint32_t back2 = 0, back3 = 0;
    uint16_t rec1 = 0, rec2 = 0;
    BlockMemo memo;
    memset(&memo, 0, sizeof memo); /* len 0: no entry matches a block */
    for (Py_ssize_t at = 0; at < length; at += CHUNK) {
        Py_ssize_t n = length - at < CHUNK ? length - at : CHUNK;
        if (read_chunk(text, at, n, length, buf) < 0) {
            return -1;
        }
        Py_ssize_t i = 0;
        while (i < n) {
            uint32_t cell = off + map_class(&t->map, buf[i]);
            uint32_t next = moves[cell];
            uint16_t rec = recs[cell];
            i++;
            if (next == 0) {
                return 0;
            }
            if (next == off && (rec == 0 || t->keeps[rec])) {
                /* A loop that keeps every thread: only its last step can
                   matter backwards, so skip the run and keep that one. */
                Py_ssize_t from = at + i - 1;
                while (i < n) {
                    uint32_t c2 = off + map_class(&t->map, buf[i]);
                    if (moves[c2] != off || recs[c2] != rec) {
                        break;
                    }
                    i++;
                }
                if (rec != 0) {
                    if (ev->n > 0 && ev->rec[ev->n - 1] == rec && ev->pos[ev->n - 1] == from) {
                        ev->pos[ev->n - 1] = at + i;
                    }
                    else if (events_push(ev, at + i, rec) < 0) {
                        return -1;
                    }
                    else {
                        events_compact(t, ev, &memo);
                    }
                }
                continue;
            }
            if (rec != 0) {
                if (events_push(ev, at + i, rec) < 0) {
                    return -1;
                }
                events_compact(t, ev, &memo);
            }
            if (next == back2 || next == back3) {
                /* A cycle of two or three states just completed: follow it
                   while it holds (see follow_cycle). */
                uint32_t rows[MAX_BLOCK] = {next, back2, off};
                uint16_t crecs[MAX_BLOCK] = {rec2, rec1, rec};
                int len = 3;
                if (next == back2) {
                    rows[1] = off;
                    crecs[0] = rec1;
                    crecs[1] = rec;
                    len = 2;
                }
                i = follow_cycle(t, buf, i, n, at + i, rows, crecs, len, ev, &memo);
            }
            back3 = back2;
            back2 = off;
            rec2 = rec1;
            rec1 = rec;
            off = next;
        }
    }
    Py_ssize_t state = (Py_ssize_t)(off / (uint32_t)t->nclasses);
    if (t->finals[state] < 0) {
        return 0;
    }
    *final = state;
    return 1;
}

static PyObject *
inconsistent(void)
{
    PyErr_SetString(PyExc_RuntimeError, "tagged DFA tables are inconsistent");
    return NULL;
}

/* The backward pass: each tag's position into values (-1: never set);
   0, or -1 with an exception set. */
static int
tag_backward(const Tagger *t, const Events *ev, Py_ssize_t final, Py_ssize_t *values)
{
    for (Py_ssize_t i = 0; i < t->ntags; i++) {
        values[i] = -1;
    }
    Py_ssize_t k = t->finals[final];
    for (Py_ssize_t e = ev->n - 1; e >= 0; e--) {
        uint16_t rec = ev->rec[e];
        uint32_t first = t->rec_first[rec];
        if (k < 0 || k >= (Py_ssize_t)(t->rec_first[rec + 1] - first)) {
            inconsistent();
            return -1;
        }
        uint16_t set = t->rec_tagset[first + k];
        for (uint32_t j = t->set_first[set]; j < t->set_first[set + 1]; j++) {
            if (values[t->set_tags[j]] < 0) {
                values[t->set_tags[j]] = ev->pos[e];
            }
        }
        k = t->rec_source[first + k];
    }
    if (k < 0 || k >= t->nstart) {
        inconsistent();
        return -1;
    }
    uint16_t set = t->start_tags[k];
    for (uint32_t j = t->set_first[set]; j < t->set_first[set + 1]; j++) {
        if (values[t->set_tags[j]] < 0) {
            values[t->set_tags[j]] = 0;
        }
    }
    return 0;
}

/* 1 with values filled when text matches, 0 when not, -1 on error. */
static int
tag_run(const Tagger *t, PyObject *text, Py_ssize_t *values)
{
    Events ev;
    ev.n = 0;
    ev.cap = EVENTS_ON_STACK;
    ev.pos = ev.pos_stack;
    ev.rec = ev.rec_stack;
    Py_ssize_t final = 0;
    int found = tag_forward(t, text, &ev, &final);
    if (found == 1 && tag_backward(t, &ev, final, values) < 0) {
        found = -1;
    }
    events_free(&ev);
    return found;
}

/* tag_run on a method's argument: 1 with values filled when it is a str
   the DFA accepts, 0 when it is not accepted, -1 with an exception set
   (TypeError for anything but a str). */
static int
tag_text(const Tagger *t, PyObject *arg, Py_ssize_t *values)
{
    if (check_str(arg) == NULL) {
        return -1;
    }
    return tag_run(t, arg, values);
}

PyDoc_STRVAR(tags_doc,
"tags(text, /)\n--\n\n"
"Each tag's position (-1: never set) in the reading of text, as a list,\n"
"or None when the DFA does not accept text.");

static PyObject *
Tagger_tags(PyObject *self, PyObject *arg)
{
    Tagger *t = (Tagger *)self;
    Py_ssize_t values[MAX_TAGS];
    int found = tag_text(t, arg, values);
    if (found <= 0) {
        return found < 0 ? NULL : Py_NewRef(Py_None);
    }
    PyObject *out = PyList_New(t->ntags);
    if (out == NULL) {
        return NULL;
    }
    for (Py_ssize_t i = 0; i < t->ntags; i++) {
        PyObject *v = PyLong_FromSsize_t(values[i]);
        if (v == NULL) {
            Py_DECREF(out);
            return NULL;
        }
        PyList_SetItem(out, i, v);
    }
    return out;
}

PyDoc_STRVAR(parse_doc,
"parse(text, /)\n--\n\n"
"The output slots for text (see the plan), as a tuple or as cls, or None\n"
"when the DFA does not accept text.");

static PyObject *
Tagger_parse(PyObject *self, PyObject *arg)
{
    Tagger *t = (Tagger *)self;
    Py_ssize_t values[MAX_TAGS];
    int found = tag_text(t, arg, values);
    if (found <= 0) {
        return found < 0 ? NULL : Py_NewRef(Py_None);
    }
    PyObject *out = PyTuple_New(t->nslots);
    if (out == NULL) {
        return NULL;
    }
    for (Py_ssize_t s = 0; s < t->nslots; s++) {
        PyObject *value = t->defaults[s];
        Py_INCREF(value);
        for (Py_ssize_t c = t->slot_first[s]; c < t->slot_first[s + 1]; c++) {
            Py_ssize_t cap = t->cand_capture[c];
            Py_ssize_t opened = values[2 * cap], closed = values[2 * cap + 1];
            if (opened < 0 || closed < 0) {
                continue;
            }
            Py_DECREF(value);
            if (t->cand_const[c] != NULL) {
                value = t->cand_const[c];
                Py_INCREF(value);
            }
            else {
                value = PyUnicode_Substring(arg, opened, closed);
                if (value == NULL) {
                    Py_DECREF(out);
                    return NULL;
                }
            }
            break;
        }
        PyTuple_SetItem(out, s, value);
    }
    if (t->cls == NULL) {
        return out;
    }
    PyObject *args = PyTuple_Pack(1, out);
    Py_DECREF(out);
    if (args == NULL) {
        return NULL;
    }
    PyObject *made = t->tuple_new((PyTypeObject *)t->cls, args, NULL);
    Py_DECREF(args);
    return made;
}

/* A table of count items of `itemsize` bytes, copied into new memory of
   items of `size` bytes (native byte order), or NULL with an error set. */
static void *
copy_table(PyObject *obj, const char *what, Py_ssize_t itemsize, Py_ssize_t count)
{
    const char *data = table(obj, what, itemsize, count);
    if (data == NULL) {
        return NULL;
    }
    void *out = PyMem_Malloc(count > 0 ? (size_t)(itemsize * count) : 1);
    if (out == NULL) {
        PyErr_NoMemory();
        return NULL;
    }
    memcpy(out, data, (size_t)(itemsize * count));
    return out;
}

/* Reads the plan: a tuple of (default, ((capture, constant or None), ...)). */
static int
read_plan(Tagger *self, PyObject *plan)
{
    if (!PyTuple_Check(plan)) {
        PyErr_SetString(PyExc_TypeError, "plan must be a tuple");
        return -1;
    }
    Py_ssize_t nslots = PyTuple_Size(plan), ncands = 0;
    for (Py_ssize_t s = 0; s < nslots; s++) {
        PyObject *slot = PyTuple_GetItem(plan, s);
        if (!PyTuple_Check(slot) || PyTuple_Size(slot) != 2 ||
            !PyTuple_Check(PyTuple_GetItem(slot, 1))) {
            PyErr_SetString(PyExc_TypeError, "plan: each slot is (default, candidates)");
            return -1;
        }
        ncands += PyTuple_Size(PyTuple_GetItem(slot, 1));
    }
    self->slot_first = PyMem_Malloc((size_t)(nslots + 1) * sizeof(Py_ssize_t));
    self->defaults = PyMem_Calloc((size_t)nslots + 1, sizeof(PyObject *));
    self->cand_capture = PyMem_Malloc((size_t)ncands * sizeof(Py_ssize_t) + 1);
    self->cand_const = PyMem_Calloc((size_t)ncands + 1, sizeof(PyObject *));
    if (self->slot_first == NULL || self->defaults == NULL || self->cand_capture == NULL ||
        self->cand_const == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    self->nslots = nslots;
    self->ncands = ncands;
    Py_ssize_t c = 0;
    for (Py_ssize_t s = 0; s < nslots; s++) {
        PyObject *slot = PyTuple_GetItem(plan, s);
        PyObject *cands = PyTuple_GetItem(slot, 1);
        self->defaults[s] = PyTuple_GetItem(slot, 0);
        Py_INCREF(self->defaults[s]);
        self->slot_first[s] = c;
        for (Py_ssize_t j = 0; j < PyTuple_Size(cands); j++, c++) {
            PyObject *cand = PyTuple_GetItem(cands, j);
            if (!PyTuple_Check(cand) || PyTuple_Size(cand) != 2) {
                PyErr_SetString(PyExc_TypeError, "plan: a candidate is (capture, constant)");
                return -1;
            }
            Py_ssize_t cap = PyLong_AsSsize_t(PyTuple_GetItem(cand, 0));
            if (cap == -1 && PyErr_Occurred()) {
                return -1;
            }
            /* cap < ntags / 2, not 2 * cap + 1 < ntags: that product
               wraps for a huge cap and would pass. */
            if (cap < 0 || cap >= self->ntags / 2) {
                PyErr_SetString(PyExc_ValueError, "plan: a capture out of range");
                return -1;
            }
            self->cand_capture[c] = cap;
            PyObject *constant = PyTuple_GetItem(cand, 1);
            if (constant != Py_None) {
                Py_INCREF(constant);
                self->cand_const[c] = constant;
            }
        }
    }
    self->slot_first[nslots] = c;
    return 0;
}

static PyObject *
Tagger_new(PyTypeObject *type, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"ascii", "starts", "classes", "nclasses", "moves", "recs",
                             "rec_first", "rec_source", "rec_tagset", "keeps",
                             "set_first", "set_tags", "finals", "start_tags", "ntags",
                             "plan", "into", NULL};
    PyObject *ascii, *starts_obj, *classes_obj, *moves_obj, *recs_obj, *rec_first_obj,
        *rec_source_obj, *rec_tagset_obj, *keeps_obj, *set_first_obj, *set_tags_obj,
        *finals_obj, *start_tags_obj, *plan, *cls = Py_None;
    Py_ssize_t nclasses, ntags;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "SSSnSSSSSSSSSSnO|O", kwlist, &ascii,
                                     &starts_obj, &classes_obj, &nclasses, &moves_obj,
                                     &recs_obj, &rec_first_obj, &rec_source_obj,
                                     &rec_tagset_obj, &keeps_obj, &set_first_obj,
                                     &set_tags_obj, &finals_obj, &start_tags_obj, &ntags,
                                     &plan, &cls)) {
        return NULL;
    }
    if (cls != Py_None &&
        (!PyType_Check(cls) || !PyType_IsSubtype((PyTypeObject *)cls, &PyTuple_Type))) {
        PyErr_SetString(PyExc_TypeError, "cls must be None or a subclass of tuple");
        return NULL;
    }
    Py_ssize_t nintervals = PyBytes_Size(classes_obj);
    Py_ssize_t nstates = PyBytes_Size(finals_obj) / 4;
    Py_ssize_t nrecords = PyBytes_Size(keeps_obj);
    Py_ssize_t nthreads = PyBytes_Size(rec_source_obj) / 2;
    Py_ssize_t ntagsets = PyBytes_Size(set_first_obj) / 4 - 1;
    Py_ssize_t nsettags = PyBytes_Size(set_tags_obj);
    Py_ssize_t nstart = PyBytes_Size(start_tags_obj) / 2;
    if (nclasses < 1 || nclasses > 256 || nstates < 2 || nintervals < 1 ||
        nstates > (Py_ssize_t)UINT16_MAX || nrecords < 1 || nrecords > (Py_ssize_t)UINT16_MAX ||
        ntagsets < 1 || ntagsets > (Py_ssize_t)UINT16_MAX || nthreads > (Py_ssize_t)UINT32_MAX / 2 ||
        nsettags > (Py_ssize_t)UINT32_MAX / 2 || ntags < 0 || ntags > MAX_TAGS || ntags % 2 ||
        nstart < 1 || (uint64_t)nstates * (uint64_t)nclasses > UINT32_MAX / 2) {
        PyErr_SetString(PyExc_ValueError, "table sizes out of range");
        return NULL;
    }
    const char *ascii_table = table(ascii, "ascii", 1, 128);
    const char *starts_data = table(starts_obj, "starts", 4, nintervals);
    const uint8_t *classes = (const uint8_t *)table(classes_obj, "classes", 1, nintervals);
    const char *moves = table(moves_obj, "moves", 2, nstates * nclasses);
    if (ascii_table == NULL || starts_data == NULL || classes == NULL || moves == NULL) {
        return NULL;
    }
    allocfunc alloc = (allocfunc)PyType_GetSlot(type, Py_tp_alloc);
    Tagger *self = (Tagger *)alloc(type, 0);
    if (self == NULL) {
        return NULL;
    }
    self->nclasses = nclasses;
    self->nstates = nstates;
    self->nrecords = nrecords;
    self->ntagsets = ntagsets;
    self->nstart = nstart;
    self->ntags = ntags;
    self->start = (uint32_t)nclasses; /* state 1 */
    if (read_tables(&self->map, &self->moves, ascii_table, starts_data, classes, nintervals,
                    moves, nstates, nclasses) < 0) {
        Py_DECREF(self);
        return NULL;
    }
    self->recs = copy_table(recs_obj, "recs", 2, nstates * nclasses);
    self->rec_first = copy_table(rec_first_obj, "rec_first", 4, nrecords + 1);
    self->rec_source = copy_table(rec_source_obj, "rec_source", 2, nthreads);
    self->rec_tagset = copy_table(rec_tagset_obj, "rec_tagset", 2, nthreads);
    self->keeps = copy_table(keeps_obj, "keeps", 1, nrecords);
    self->set_first = copy_table(set_first_obj, "set_first", 4, ntagsets + 1);
    self->set_tags = copy_table(set_tags_obj, "set_tags", 1, nsettags);
    self->finals = copy_table(finals_obj, "finals", 4, nstates);
    self->start_tags = copy_table(start_tags_obj, "start_tags", 2, nstart);
    if (self->recs == NULL || self->rec_first == NULL || self->rec_source == NULL ||
        self->rec_tagset == NULL || self->keeps == NULL || self->set_first == NULL ||
        self->set_tags == NULL || self->finals == NULL || self->start_tags == NULL) {
        Py_DECREF(self);
        return NULL;
    }
    /* Every index the passes follow without a check of their own. */
    for (Py_ssize_t i = 0; i < nstates * nclasses; i++) {
        if (self->recs[i] >= nrecords) {
            return refuse(self, "recs: a record out of range");
        }
    }
    if (self->rec_first[0] != 0 || self->rec_first[nrecords] != (uint32_t)nthreads) {
        return refuse(self, "rec_first must run from 0 to the thread count");
    }
    for (Py_ssize_t r = 0; r < nrecords; r++) {
        if (self->rec_first[r] > self->rec_first[r + 1]) {
            return refuse(self, "rec_first must not decrease");
        }
    }
    for (Py_ssize_t i = 0; i < nthreads; i++) {
        if (self->rec_tagset[i] >= ntagsets) {
            return refuse(self, "rec_tagset: a tag set out of range");
        }
    }
    if (self->set_first[0] != 0 || self->set_first[ntagsets] != (uint32_t)nsettags) {
        return refuse(self, "set_first must run from 0 to the tag count");
    }
    for (Py_ssize_t i = 0; i < ntagsets; i++) {
        if (self->set_first[i] > self->set_first[i + 1]) {
            return refuse(self, "set_first must not decrease");
        }
    }
    for (Py_ssize_t i = 0; i < nsettags; i++) {
        if (self->set_tags[i] >= ntags) {
            return refuse(self, "set_tags: a tag out of range");
        }
    }
    for (Py_ssize_t i = 0; i < nstart; i++) {
        if (self->start_tags[i] >= ntagsets) {
            return refuse(self, "start_tags: a tag set out of range");
        }
    }
    for (Py_ssize_t i = 0; i < nstates; i++) {
        if (self->finals[i] < -1 || self->finals[i] > UINT16_MAX) {
            return refuse(self, "finals: a thread out of range");
        }
    }
    if (read_plan(self, plan) < 0) {
        Py_DECREF(self);
        return NULL;
    }
    if (cls != Py_None) {
        self->tuple_new = (newfunc)PyType_GetSlot(&PyTuple_Type, Py_tp_new);
        if (self->tuple_new == NULL) {
            Py_DECREF(self);
            return NULL;
        }
        Py_INCREF(cls);
        self->cls = cls;
    }
    return (PyObject *)self;
}

static void
Tagger_dealloc(PyObject *obj)
{
    Tagger *self = (Tagger *)obj;
    PyTypeObject *type = Py_TYPE(obj);
    PyMem_Free(self->map.page_of);
    PyMem_Free(self->map.pages);
    PyMem_Free(self->moves);
    PyMem_Free(self->recs);
    PyMem_Free(self->rec_first);
    PyMem_Free(self->rec_source);
    PyMem_Free(self->rec_tagset);
    PyMem_Free(self->keeps);
    PyMem_Free(self->set_first);
    PyMem_Free(self->set_tags);
    PyMem_Free(self->finals);
    PyMem_Free(self->start_tags);
    if (self->defaults != NULL) {
        for (Py_ssize_t s = 0; s < self->nslots; s++) {
            Py_XDECREF(self->defaults[s]);
        }
    }
    if (self->cand_const != NULL) {
        for (Py_ssize_t c = 0; c < self->ncands; c++) {
            Py_XDECREF(self->cand_const[c]);
        }
    }
    PyMem_Free(self->defaults);
    PyMem_Free(self->cand_const);
    PyMem_Free(self->cand_capture);
    PyMem_Free(self->slot_first);
    Py_XDECREF(self->cls);
    freefunc tp_free = (freefunc)PyType_GetSlot(type, Py_tp_free);
    tp_free(obj);
    Py_DECREF(type);
}

static PyMethodDef Tagger_methods[] = {
    {"parse", Tagger_parse, METH_O, parse_doc},
    {"tags", Tagger_tags, METH_O, tags_doc},
    {NULL, NULL, 0, NULL},
};

PyDoc_STRVAR(Tagger_doc,
"Tagger(ascii, starts, classes, nclasses, moves, recs, rec_first, rec_source,\n"
"       rec_tagset, keeps, set_first, set_tags, finals, start_tags, ntags, plan,\n"
"       into=None)\n--\n\n"
"A tagged DFA over classes of code points, from engine._tagged's tables.");

static PyType_Slot Tagger_slots[] = {
    {Py_tp_new, Tagger_new},
    {Py_tp_dealloc, Tagger_dealloc},
    {Py_tp_methods, Tagger_methods},
    {Py_tp_doc, (void *)Tagger_doc},
    {0, NULL},
};

static PyType_Spec Tagger_spec = {
    .name = "urigrammar.engine._native.Tagger",
    .basicsize = sizeof(Tagger),
    .itemsize = 0,
    .flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_IMMUTABLETYPE,
    .slots = Tagger_slots,
};

/* ======================================================================
 * Entry: a C-level hot path for a function that looks matchers up by name.
 *
 * Entry(table, fallback) is a callable over `table`, a dict from a name's
 * exact spelling to a matcher: a Runner's bound `fullmatch`, or any
 * callable taking the text and returning None when it does not match.
 * entry(name, text) with name an exact str found in the table, text a str
 * and no keyword arguments returns whether the matcher matches (a Runner
 * runs right here, with no Python call at all); any other call -- a name
 * not in the table, other types, keyword arguments, other counts -- is
 * fallback(*args, **kwargs), the Python function that fills the table and
 * owns every check and error.  So the entry never decides anything the
 * fallback would decide differently: it only skips the fallback's own
 * fast path.  Nothing here knows a name; the table is the caller's dict,
 * read under the GIL (a matcher is held with a strong reference while it
 * runs, so another thread emptying the dict cannot free it).
 *
 * Instances have a __dict__, so the Python side can give one the
 * metadata of the function it stands for (functools.update_wrapper:
 * __wrapped__, __doc__, __name__, __qualname__, __module__), and
 * __reduce__ returns __qualname__: pickle then stores the entry as a
 * reference to the module attribute it is bound to, as for a function.
 *
 * Calls: vectorcall, the protocol of CPython 3.8 on (PEP 590).  The
 * limited API names it from 3.12 only, but a heap type's
 * __vectorcalloffset__ member and Py_TPFLAGS_HAVE_VECTORCALL are honoured
 * from 3.9 on, and on 3.10 and 3.11 the argument tuple of tp_call cost as
 * much as the Python function the entry replaces (0.84-0.92 of a bare re
 * call, against 0.53-0.59 with vectorcall, on 3.11).  tp_call stays for
 * calls made with a tuple.
 * ====================================================================== */

#include <stddef.h> /* offsetof */

/* The vectorcall protocol entered the limited API in 3.12.  This file is
   built against 3.10's, so it declares the names it uses itself; the
   running CPython (3.10 on) honours them (entry_exec checks the version,
   and keeps tp_call alone below 3.10, which this build never loads on). */
#if !defined(Py_LIMITED_API) || Py_LIMITED_API + 0 < 0x030C0000
#ifndef Py_TPFLAGS_HAVE_VECTORCALL
#define Py_TPFLAGS_HAVE_VECTORCALL (1UL << 11)
#endif
#ifndef PY_VECTORCALL_ARGUMENTS_OFFSET
#define PY_VECTORCALL_ARGUMENTS_OFFSET ((size_t)1 << (8 * sizeof(size_t) - 1))
#endif
#endif
/* Nor does it call PyObject_Vectorcall or PyVectorcall_Call: CPython 3.10
   does not export the first, and this one binary must load there too. */
/* T_PYSSIZET and READONLY: structmember.h in every version (3.12 spells
   them Py_T_PYSSIZET and Py_READONLY in Python.h, and keeps these). */
#include <structmember.h>

typedef PyObject *(*entry_vectorcallfunc)(PyObject *, PyObject *const *, size_t, PyObject *);

typedef struct {
    PyObject_HEAD
    PyObject *table;       /* dict: spelling -> matcher */
    PyObject *fallback;    /* called for everything else */
    PyObject *runner_type; /* Runner, from the module state */
    PyObject *tagger_type; /* Tagger, likewise */
    /* NULL: entry(name, text) answers whether the matcher matches (validate).
       A str: entry(text[, name]) returns what the matcher returns, name
       defaulting to this, and the fallback answers a None (parse). */
    PyObject *default_name;
    PyObject *dict;        /* the instance's __dict__ */
    entry_vectorcallfunc vectorcall; /* read by CPython through __vectorcalloffset__ */
} Entry;

/* The fast path: 1 when it answered (*out the result, or NULL with an
   exception set), 0 when the call is for the fallback. */
static int
entry_fast(Entry *self, PyObject *name, PyObject *text, PyObject **out)
{
    if (!PyUnicode_CheckExact(name) || !PyUnicode_Check(text)) {
        return 0;
    }
    PyObject *matcher = PyDict_GetItemWithError(self->table, name);
    if (matcher == NULL) {
        if (PyErr_Occurred()) {
            *out = NULL;
            return 1;
        }
        return 0;
    }
    /* Held while in use: running can allocate, so collect, so run any
       code, which may empty the table. */
    Py_INCREF(matcher);
    if (Py_IS_TYPE(matcher, &PyCFunction_Type) &&
        PyCFunction_GetFunction(matcher) == Runner_fullmatch) {
        PyObject *runner = PyCFunction_GetSelf(matcher);
        if (runner != NULL && Py_IS_TYPE(runner, (PyTypeObject *)self->runner_type)) {
            Runner *r = (Runner *)runner;
            Py_ssize_t end;
            int state = run(r, text, &end);
            *out = state < 0 ? NULL : PyBool_FromLong(state > 0 && r->accepting[state]);
            Py_DECREF(matcher);
            return 1;
        }
    }
    PyObject *found = PyObject_CallFunctionObjArgs(matcher, text, NULL);
    Py_DECREF(matcher);
    if (found == NULL) {
        /* What the fallback's own fast path lets through to its checks. */
        if (PyErr_ExceptionMatches(PyExc_TypeError) || PyErr_ExceptionMatches(PyExc_KeyError)) {
            PyErr_Clear();
            return 0;
        }
        *out = NULL;
        return 1;
    }
    *out = PyBool_FromLong(found != Py_None);
    Py_DECREF(found);
    return 1;
}

/* The fast path of the parse form: 1 when it answered (*out the
   matcher's result, or NULL with an exception set), 0 when the call is for
   the fallback, which also answers a text the rule does not match (its
   error is its own). */
static int
entry_parse(Entry *self, PyObject *text, PyObject *name, PyObject **out)
{
    if (!PyUnicode_CheckExact(name) || !PyUnicode_Check(text)) {
        return 0;
    }
    PyObject *matcher = PyDict_GetItemWithError(self->table, name);
    if (matcher == NULL) {
        if (PyErr_Occurred()) {
            *out = NULL;
            return 1;
        }
        return 0;
    }
    Py_INCREF(matcher); /* held while in use, as in entry_fast */
    PyObject *found;
    PyObject *tagger = NULL;
    if (Py_IS_TYPE(matcher, &PyCFunction_Type) &&
        PyCFunction_GetFunction(matcher) == Tagger_parse) {
        tagger = PyCFunction_GetSelf(matcher);
    }
    if (tagger != NULL && Py_IS_TYPE(tagger, (PyTypeObject *)self->tagger_type)) {
        found = Tagger_parse(tagger, text);
    }
    else {
        found = PyObject_CallFunctionObjArgs(matcher, text, NULL);
    }
    Py_DECREF(matcher);
    if (found == NULL) {
        if (PyErr_ExceptionMatches(PyExc_TypeError) || PyErr_ExceptionMatches(PyExc_KeyError)) {
            PyErr_Clear();
            return 0;
        }
        *out = NULL;
        return 1;
    }
    if (found == Py_None) {
        Py_DECREF(found);
        return 0;
    }
    *out = found;
    return 1;
}

static PyObject *
Entry_call(PyObject *obj, PyObject *args, PyObject *kwargs)
{
    Entry *self = (Entry *)obj;
    PyObject *out;
    Py_ssize_t nargs = PyTuple_Size(args);
    if (kwargs == NULL || PyDict_Size(kwargs) == 0) {
        if (self->default_name == NULL) {
            if (nargs == 2 &&
                entry_fast(self, PyTuple_GetItem(args, 0), PyTuple_GetItem(args, 1), &out)) {
                return out;
            }
        }
        else if ((nargs == 1 || nargs == 2) &&
                 entry_parse(self, PyTuple_GetItem(args, 0),
                             nargs == 2 ? PyTuple_GetItem(args, 1) : self->default_name,
                             &out)) {
            return out;
        }
    }
    return PyObject_Call(self->fallback, args, kwargs);
}

static PyObject *
Entry_vectorcall(PyObject *obj, PyObject *const *args, size_t nargsf, PyObject *kwnames)
{
    Entry *self = (Entry *)obj;
    PyObject *out;
    size_t nargs = nargsf & ~PY_VECTORCALL_ARGUMENTS_OFFSET;
    if (kwnames == NULL) {
        if (self->default_name == NULL) {
            if (nargs == 2 && entry_fast(self, args[0], args[1], &out)) {
                return out;
            }
        }
        else if ((nargs == 1 || nargs == 2) &&
                 entry_parse(self, args[0], nargs == 2 ? args[1] : self->default_name, &out)) {
            return out;
        }
    }
    /* The fallback with the call as a tuple and a dict, as tp_call gets it:
       its own cost dwarfs this. */
    Py_ssize_t npos = (Py_ssize_t)nargs;
    Py_ssize_t nkw = kwnames == NULL ? 0 : PyTuple_Size(kwnames);
    PyObject *tuple = PyTuple_New(npos);
    PyObject *dict = nkw > 0 ? PyDict_New() : NULL;
    if (tuple == NULL || (nkw > 0 && dict == NULL)) {
        Py_XDECREF(tuple);
        Py_XDECREF(dict);
        return NULL;
    }
    for (Py_ssize_t k = 0; k < npos; k++) {
        Py_INCREF(args[k]);
        PyTuple_SetItem(tuple, k, args[k]);
    }
    for (Py_ssize_t k = 0; k < nkw; k++) {
        if (PyDict_SetItem(dict, PyTuple_GetItem(kwnames, k), args[npos + k]) < 0) {
            Py_DECREF(tuple);
            Py_DECREF(dict);
            return NULL;
        }
    }
    out = PyObject_Call(self->fallback, tuple, dict);
    Py_DECREF(tuple);
    Py_XDECREF(dict);
    return out;
}

static PyObject *
Entry_new(PyTypeObject *type, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"table", "fallback", "default", NULL};
    PyObject *table, *fallback, *default_name = Py_None;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "O!O|O:Entry", kwlist, &PyDict_Type, &table,
                                     &fallback, &default_name)) {
        return NULL;
    }
    if (default_name != Py_None && !PyUnicode_CheckExact(default_name)) {
        PyErr_SetString(PyExc_TypeError, "default must be None or a str");
        return NULL;
    }
    if (!PyCallable_Check(fallback)) {
        PyErr_SetString(PyExc_TypeError, "fallback must be callable");
        return NULL;
    }
    module_state *st = (module_state *)PyType_GetModuleState(type);
    if (st == NULL) {
        return NULL;
    }
    allocfunc alloc = (allocfunc)PyType_GetSlot(type, Py_tp_alloc);
    Entry *self = (Entry *)alloc(type, 0);
    if (self == NULL) {
        return NULL;
    }
    Py_INCREF(table);
    self->table = table;
    Py_INCREF(fallback);
    self->fallback = fallback;
    Py_INCREF(st->runner_type);
    self->runner_type = st->runner_type;
    Py_INCREF(st->tagger_type);
    self->tagger_type = st->tagger_type;
    if (default_name != Py_None) {
        Py_INCREF(default_name);
        self->default_name = default_name;
    }
    self->dict = NULL;
    self->vectorcall = Entry_vectorcall;
    return (PyObject *)self;
}

static int
Entry_traverse(PyObject *obj, visitproc visit, void *arg)
{
    Entry *self = (Entry *)obj;
    Py_VISIT(Py_TYPE(obj));
    Py_VISIT(self->table);
    Py_VISIT(self->fallback);
    Py_VISIT(self->runner_type);
    Py_VISIT(self->tagger_type);
    Py_VISIT(self->default_name);
    Py_VISIT(self->dict);
    return 0;
}

static int
Entry_clear(PyObject *obj)
{
    Entry *self = (Entry *)obj;
    Py_CLEAR(self->table);
    Py_CLEAR(self->fallback);
    Py_CLEAR(self->runner_type);
    Py_CLEAR(self->tagger_type);
    Py_CLEAR(self->default_name);
    Py_CLEAR(self->dict);
    return 0;
}

static void
Entry_dealloc(PyObject *obj)
{
    PyTypeObject *type = Py_TYPE(obj);
    PyObject_GC_UnTrack(obj);
    Entry_clear(obj);
    freefunc tp_free = (freefunc)PyType_GetSlot(type, Py_tp_free);
    tp_free(obj);
    Py_DECREF(type);
}

/* Bound as a function is: looked up on an instance, a method of it
   (types.MethodType, which the limited API does not offer from C); on a
   class, or with no instance, the entry itself. */
static PyObject *
Entry_get(PyObject *self, PyObject *obj, PyObject *type)
{
    if (obj == NULL || obj == Py_None) {
        Py_INCREF(self);
        return self;
    }
    PyObject *types = PyImport_ImportModule("types");
    if (types == NULL) {
        return NULL;
    }
    PyObject *method_type = PyObject_GetAttrString(types, "MethodType");
    Py_DECREF(types);
    if (method_type == NULL) {
        return NULL;
    }
    PyObject *bound = PyObject_CallFunctionObjArgs(method_type, self, obj, NULL);
    Py_DECREF(method_type);
    return bound;
}

PyDoc_STRVAR(Entry_reduce_doc,
"__reduce__($self, /)\n--\n\n"
"The entry's __qualname__: pickle stores it as a reference to the module\n"
"attribute of that name, as it stores a function.");

static PyObject *
Entry_reduce(PyObject *self, PyObject *Py_UNUSED(ignored))
{
    return PyObject_GetAttrString(self, "__qualname__");
}

static PyMethodDef Entry_methods[] = {
    {"__reduce__", Entry_reduce, METH_NOARGS, Entry_reduce_doc},
    {NULL, NULL, 0, NULL},
};

static PyMemberDef Entry_members[] = {
    {"__dictoffset__", T_PYSSIZET, offsetof(Entry, dict), READONLY, NULL},
    {NULL, 0, 0, 0, NULL},
};

static PyMemberDef Entry_members_vectorcall[] = {
    {"__dictoffset__", T_PYSSIZET, offsetof(Entry, dict), READONLY, NULL},
    {"__vectorcalloffset__", T_PYSSIZET, offsetof(Entry, vectorcall), READONLY, NULL},
    {NULL, 0, 0, 0, NULL},
};

static PyGetSetDef Entry_getset[] = {
    {"__dict__", PyObject_GenericGetDict, PyObject_GenericSetDict, NULL, NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

PyDoc_STRVAR(Entry_doc,
"Entry(table, fallback, default=None)\n--\n\n"
"A callable: entry(name, text) is whether table[name] matches text when\n"
"name is an exact str in the dict table and text a str, else\n"
"fallback(*args, **kwargs).  With a default name, entry(text[, name]) is\n"
"what table[name] returns for text unless that is None, else the fallback's.");

/* The members (__vectorcalloffset__) differ with vectorcall. */
#define ENTRY_SLOTS(members)                                                              \
    {                                                                                     \
        {Py_tp_call, Entry_call}, {Py_tp_members, (members)}, {Py_tp_new, Entry_new},     \
            {Py_tp_traverse, Entry_traverse}, {Py_tp_clear, Entry_clear},                 \
            {Py_tp_dealloc, Entry_dealloc}, {Py_tp_methods, Entry_methods},               \
            {Py_tp_getset, Entry_getset}, {Py_tp_descr_get, Entry_get},                   \
            {Py_tp_doc, (void *)Entry_doc}, {0, NULL},                                    \
    }

static PyType_Slot Entry_slots[] = ENTRY_SLOTS(Entry_members);
/* With vectorcall, tp_call (for calls made with a tuple) stays Entry_call,
   which answers every call as Entry_vectorcall does. */
static PyType_Slot Entry_slots_vectorcall[] = ENTRY_SLOTS(Entry_members_vectorcall);

#define ENTRY_FLAGS (Py_TPFLAGS_DEFAULT | Py_TPFLAGS_IMMUTABLETYPE | Py_TPFLAGS_HAVE_GC)

static PyType_Spec Entry_spec = {
    .name = "urigrammar.engine._native.Entry",
    .basicsize = sizeof(Entry),
    .itemsize = 0,
    .flags = ENTRY_FLAGS,
    .slots = Entry_slots,
};

static PyType_Spec Entry_spec_vectorcall = {
    .name = "urigrammar.engine._native.Entry",
    .basicsize = sizeof(Entry),
    .itemsize = 0,
    .flags = ENTRY_FLAGS | Py_TPFLAGS_HAVE_VECTORCALL,
    .slots = Entry_slots_vectorcall,
};

/* 1 when the running CPython honours a heap type's vectorcall (3.10 on,
   all this abi3 build loads on), 0 when not, -1 with an exception set. */
static int
vectorcall_is_limited(void)
{
    PyObject *running = PySys_GetObject("version_info"); /* borrowed */
    PyObject *since = Py_BuildValue("(ii)", 3, 10);
    if (running == NULL || since == NULL) {
        Py_XDECREF(since);
        if (!PyErr_Occurred()) {
            PyErr_SetString(PyExc_RuntimeError, "sys.version_info is missing");
        }
        return -1;
    }
    int at_least = PyObject_RichCompareBool(running, since, Py_GE);
    Py_DECREF(since);
    return at_least;
}

/* The module's second exec slot: the Entry type, created after Runner's
   (Entry_new reads Runner's type from the module state). */
static int
entry_exec(PyObject *module)
{
    int vectorcall = vectorcall_is_limited();
    if (vectorcall < 0) {
        return -1;
    }
    PyObject *type = PyType_FromModuleAndSpec(
        module, vectorcall ? &Entry_spec_vectorcall : &Entry_spec, NULL);
    if (type == NULL) {
        return -1;
    }
    if (PyModule_AddObject(module, "Entry", type) < 0) {
        Py_DECREF(type);
        return -1;
    }
    return 0;
}

/* ====================================================================== */

static int
native_exec(PyObject *module)
{
    module_state *st = (module_state *)PyModule_GetState(module);
    st->runner_type = PyType_FromModuleAndSpec(module, &Runner_spec, NULL);
    if (st->runner_type == NULL) {
        return -1;
    }
    Py_INCREF(st->runner_type);
    if (PyModule_AddObject(module, "Runner", st->runner_type) < 0) {
        Py_DECREF(st->runner_type);
        return -1;
    }
    st->tagger_type = PyType_FromModuleAndSpec(module, &Tagger_spec, NULL);
    if (st->tagger_type == NULL) {
        return -1;
    }
    Py_INCREF(st->tagger_type);
    if (PyModule_AddObject(module, "Tagger", st->tagger_type) < 0) {
        Py_DECREF(st->tagger_type);
        return -1;
    }
    return 0;
}

static int
native_traverse(PyObject *module, visitproc visit, void *arg)
{
    module_state *st = (module_state *)PyModule_GetState(module);
    Py_VISIT(st->runner_type);
    Py_VISIT(st->tagger_type);
    return 0;
}

static int
native_clear(PyObject *module)
{
    module_state *st = (module_state *)PyModule_GetState(module);
    Py_CLEAR(st->runner_type);
    Py_CLEAR(st->tagger_type);
    return 0;
}

static void
native_free(void *module)
{
    native_clear((PyObject *)module);
}

static PyModuleDef_Slot native_slots[] = {
    {Py_mod_exec, native_exec},
    {Py_mod_exec, entry_exec},
    {0, NULL},
};

static struct PyModuleDef native_module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "urigrammar.engine._native",
    .m_doc = "A generic DFA runner over classes of code points (see engine/_dfa.py).",
    .m_size = sizeof(module_state),
    .m_slots = native_slots,
    .m_traverse = native_traverse,
    .m_clear = native_clear,
    .m_free = native_free,
};

PyMODINIT_FUNC
PyInit__native(void)
{
    return PyModuleDef_Init(&native_module);
}
