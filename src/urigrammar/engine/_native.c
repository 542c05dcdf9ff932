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

typedef struct {
    PyObject_HEAD
    uint8_t ascii[128];
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
    uint16_t *page_of;   /* NPAGES entries: code >> 8 -> page */
    uint8_t *pages;      /* 256 classes per page */
} Runner;

typedef struct {
    PyObject *runner_type;
} module_state;

static inline uint8_t
class_of(const Runner *r, Py_UCS4 code)
{
    if (code < 128) {
        return r->ascii[code];
    }
    if (code > MAX_CODE) { /* not from a str; never index past the table */
        code = MAX_CODE;
    }
    return r->pages[((size_t)r->page_of[code >> 8] << 8) | (code & 0xFF)];
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
        if (at == 0 && n == length) {
            if (PyUnicode_AsUCS4(text, buf, CHUNK, 0) == NULL) {
                return -1;
            }
        }
        else {
            PyObject *part = PyUnicode_Substring(text, at, at + n);
            if (part == NULL) {
                return -1;
            }
            Py_UCS4 *got = PyUnicode_AsUCS4(part, buf, CHUNK, 0);
            Py_DECREF(part);
            if (got == NULL) {
                return -1;
            }
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
refuse(Runner *self, const char *why)
{
    PyErr_SetString(PyExc_ValueError, why);
    Py_DECREF(self);
    return NULL;
}

/* The two-level class table: for each 256-code-point page, the page of
   classes it shares with every page alike.  A page inside one interval is
   the uniform page of that interval's class; only pages holding an
   interval boundary get pages of their own, so there are at most
   nclasses + min(nintervals, NPAGES) pages. */
static int
build_pages(Runner *self, const uint32_t *starts, const uint8_t *classes,
            Py_ssize_t nintervals)
{
    Py_ssize_t most = self->nclasses + (nintervals < NPAGES ? nintervals : NPAGES);
    self->page_of = PyMem_Malloc(NPAGES * sizeof(uint16_t));
    self->pages = PyMem_Malloc((size_t)most * 256);
    Py_ssize_t *uniform = PyMem_Malloc((size_t)self->nclasses * sizeof(Py_ssize_t));
    if (self->page_of == NULL || self->pages == NULL || uniform == NULL) {
        PyMem_Free(uniform);
        PyErr_NoMemory();
        return -1;
    }
    for (Py_ssize_t c = 0; c < self->nclasses; c++) {
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
    memcpy(self->ascii, ascii_table, 128);
    for (Py_ssize_t i = 0; i < 128; i++) {
        if (self->ascii[i] >= nclasses) {
            return refuse(self, "ascii: a class index out of range");
        }
    }
    uint32_t *starts = PyMem_Malloc((size_t)nintervals * sizeof(uint32_t));
    if (starts == NULL) {
        Py_DECREF(self);
        return PyErr_NoMemory();
    }
    for (Py_ssize_t i = 0; i < nintervals; i++) {
        starts[i] = u32_at(starts_data, i);
    }
    int ok = check_intervals(starts, classes, nintervals, nclasses);
    if (ok == 0 && build_pages(self, starts, classes, nintervals) < 0) {
        ok = -2;
    }
    PyMem_Free(starts);
    if (ok == -1) {
        return refuse(self, "starts must start at 0 and increase within 0..0x10FFFF, "
                            "and classes stay below nclasses");
    }
    if (ok == -2) {
        Py_DECREF(self);
        return NULL;
    }
    self->moves = PyMem_Malloc((size_t)(nstates * nclasses) * sizeof(uint32_t));
    self->accepting = PyMem_Malloc((size_t)nstates);
    if (self->moves == NULL || self->accepting == NULL) {
        Py_DECREF(self);
        return PyErr_NoMemory();
    }
    for (Py_ssize_t i = 0; i < nstates * nclasses; i++) {
        uint16_t target = u16_at(moves, i);
        if (target >= nstates || (i < nclasses && target != 0)) {
            return refuse(self, "moves: a target out of range, or a dead state that moves");
        }
        self->moves[i] = (uint32_t)(target * nclasses);
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
    PyMem_Free(self->page_of);
    PyMem_Free(self->pages);
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
 * Calls: vectorcall on CPython 3.12 and later, where the limited API has
 * it (chosen at run time, so the one abi3 build serves both); tp_call,
 * with its argument tuple, on 3.10 and 3.11.
 * ====================================================================== */

#include <stddef.h> /* offsetof */

/* The vectorcall protocol entered the limited API in 3.12.  This file is
   built against 3.10's, so it declares the 3.12 stable-ABI names it uses
   itself, and uses them only when the running CPython is 3.12 or later
   (entry_exec picks the type's spec): below that, tp_call. */
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
    PyObject *dict;        /* the instance's __dict__ */
    entry_vectorcallfunc vectorcall; /* read by CPython 3.12+ only */
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

static PyObject *
Entry_call(PyObject *obj, PyObject *args, PyObject *kwargs)
{
    Entry *self = (Entry *)obj;
    PyObject *out;
    if ((kwargs == NULL || PyDict_Size(kwargs) == 0) && PyTuple_Size(args) == 2 &&
        entry_fast(self, PyTuple_GetItem(args, 0), PyTuple_GetItem(args, 1), &out)) {
        return out;
    }
    return PyObject_Call(self->fallback, args, kwargs);
}

static PyObject *
Entry_vectorcall(PyObject *obj, PyObject *const *args, size_t nargsf, PyObject *kwnames)
{
    Entry *self = (Entry *)obj;
    PyObject *out;
    size_t nargs = nargsf & ~PY_VECTORCALL_ARGUMENTS_OFFSET;
    if (kwnames == NULL && nargs == 2 &&
        entry_fast(self, args[0], args[1], &out)) {
        return out;
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
    static char *kwlist[] = {"table", "fallback", NULL};
    PyObject *table, *fallback;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "O!O:Entry", kwlist, &PyDict_Type, &table,
                                     &fallback)) {
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
"Entry(table, fallback)\n--\n\n"
"A callable: entry(name, text) is whether table[name] matches text when\n"
"name is an exact str in the dict table and text a str, else\n"
"fallback(*args, **kwargs).");

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

/* 1 when the running CPython has vectorcall in its limited API (3.12 on),
   0 when not, -1 with an exception set. */
static int
vectorcall_is_limited(void)
{
    PyObject *running = PySys_GetObject("version_info"); /* borrowed */
    PyObject *since = Py_BuildValue("(ii)", 3, 12);
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
    return 0;
}

static int
native_traverse(PyObject *module, visitproc visit, void *arg)
{
    module_state *st = (module_state *)PyModule_GetState(module);
    Py_VISIT(st->runner_type);
    return 0;
}

static int
native_clear(PyObject *module)
{
    module_state *st = (module_state *)PyModule_GetState(module);
    Py_CLEAR(st->runner_type);
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
