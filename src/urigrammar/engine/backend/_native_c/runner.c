/*
 * Runner: a DFA over classes of code points (engine/_dfa.py's tables: a
 * minimal complete DFA built from a grammar's rule).  One Runner object
 * holds one DFA:
 *
 *   ascii, starts, classes   the class map (classmap.h);
 *   moves      uint16 native-endian: moves[state * nclasses + class];
 *              state 0 is dead and loops on every class;
 *   accepting  one byte per state;
 *   otherwise  optional: what accepts() returns for a text the DFA
 *              refuses is otherwise(text), made a bool.  A DFA of texts
 *              that surely hold a property then answers them alone, and
 *              hands the rest to a slower test, with no Python frame
 *              around the common case.  A Runner takes part in the
 *              cyclic GC, as otherwise may lead back to it.
 *
 * Speed (all generic, decided from the tables at construction):
 * - a code point's class: the class map's tables, no search per character;
 * - transitions hold the target's row offset (state * nclasses), not its
 *   number: one load and one add a character on the critical path;
 * - a state that loops on the class just read skips the run with a table
 *   of the ASCII code points it loops on (Runner's stays), four
 *   characters a test, none waiting on another; likewise,
 *   when the rows of the last 16 characters repeat with a period of 2 to 8
 *   (a "%41" run goes around three states, "u:p%20" six positions with a
 *   loop inside), the cycle is followed with its rows fixed while it
 *   holds.  The period is looked for at every 8th change of state, and
 *   only in texts longer than one read chunk: a URL pays nothing for it.
 */

#include "native.h"

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

/* Where a loop of the state at row `off` ends, reading buf from i (the
   character after the one that looped): four ASCII characters a test
   while they all stay, each one load from the state's table, with no
   state carried between them; then one at a time, a character past 127
   through the class map. */
static inline Py_ssize_t
stay_from(const Runner *r, uint32_t off, const Py_UCS4 *buf, Py_ssize_t i, Py_ssize_t n)
{
    const uint8_t *stay = r->stays + r->stay_of[(off >> r->shift) * r->inverse];
    for (;;) {
        while (i + 4 <= n) {
            Py_UCS4 a = buf[i], b = buf[i + 1], c = buf[i + 2], d = buf[i + 3];
            if ((a | b | c | d) >= 128 || !(stay[a] & stay[b] & stay[c] & stay[d])) {
                break;
            }
            i += 4;
        }
        while (i < n && buf[i] < 128 && stay[buf[i]]) {
            i++;
        }
        if (i == n || buf[i] < 128 || r->moves[off + class_of(r, buf[i])] != off) {
            return i;
        }
        i++;
    }
}

/* Run the DFA over `text`; *end gets the end of the longest viable prefix.
   Returns the final state (0 when the text stopped being viable), or -1
   with an exception set. */
int
run(const Runner *r, PyObject *text, Py_ssize_t *end)
{
    Py_ssize_t length = PyUnicode_GetLength(text);
    if (length < 0) {
        return -1;
    }
    Source src;
    source_str(&src, text, length);
    return run_source(r, &src, end);
}

/* run() over any source (a str, or a row of UTF-8): at an ill-formed
   sequence the source ends, and *end is at most where it starts. */
int
run_source(const Runner *r, Source *src, Py_ssize_t *end)
{
    Py_UCS4 buf[CHUNK];
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
    for (;;) {
        Py_ssize_t at = src->at;
        Py_ssize_t n = source_next(src, buf);
        if (n <= 0) {
            if (n < 0) {
                return -1;
            }
            break;
        }
        Py_ssize_t i = 0;
        if (at == 0 && source_done(src)) {
            /* A text of one chunk (a URL, say): loops skipped, no watch
               for periods, whose bookkeeping would cost short texts more
               than it could save them. */
            while (i < n) {
                uint32_t next = moves[off + class_of(r, buf[i])];
                i++;
                if (next == off) {
                    i = stay_from(r, off, buf, i, n);
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
                i = stay_from(r, off, buf, i, n);
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
    *end = src->at;
    return (int)((off >> r->shift) * r->inverse);
}

PyDoc_STRVAR(fullmatch_doc,
"fullmatch(text, /)\n--\n\n"
"True when the DFA accepts all of text, else None (the contract of\n"
"re.Pattern.fullmatch: None exactly when there is no match).");

PyObject *
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
"Whether the DFA accepts all of text; for a text it refuses, with\n"
"otherwise given, whether otherwise(text) is true.");

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
    if (state > 0 && r->accepting[state]) {
        Py_RETURN_TRUE;
    }
    if (r->otherwise == NULL) {
        Py_RETURN_FALSE;
    }
    PyObject *said = PyObject_CallFunctionObjArgs(r->otherwise, arg, NULL);
    if (said == NULL) {
        return NULL;
    }
    int truth = PyObject_IsTrue(said);
    Py_DECREF(said);
    if (truth < 0) {
        return NULL;
    }
    return PyBool_FromLong(truth);
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

/* Each state's table of the ASCII code points it loops on (Runner's
   stays and stay_of), equal tables shared: 0, or -1 with MemoryError. */
static int
find_stays(Runner *r)
{
    Py_ssize_t nstates = r->nstates, nclasses = r->nclasses, count = 0;
    r->stay_of = PyMem_Malloc((size_t)nstates * sizeof(uint32_t));
    r->stays = PyMem_Malloc((size_t)nstates * 128);
    if (r->stay_of == NULL || r->stays == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    for (Py_ssize_t s = 0; s < nstates; s++) {
        uint8_t *mine = r->stays + count * 128;
        uint32_t off = (uint32_t)(s * nclasses);
        for (int c = 0; c < 128; c++) {
            mine[c] = r->moves[off + r->map.ascii[c]] == off;
        }
        Py_ssize_t k = 0;
        while (k < count && memcmp(r->stays + k * 128, mine, 128) != 0) {
            k++;
        }
        r->stay_of[s] = (uint32_t)(k * 128);
        if (k == count) {
            count++;
        }
    }
    return 0;
}

static PyObject *
Runner_new(PyTypeObject *type, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"ascii", "starts", "classes", "moves", "accepting",
                             "nclasses", "start", "otherwise", NULL};
    PyObject *ascii, *starts_obj, *classes_obj, *moves_obj, *accepting;
    PyObject *otherwise = Py_None;
    Py_ssize_t nclasses, start;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "SSSSSnn|$O", kwlist, &ascii, &starts_obj,
                                     &classes_obj, &moves_obj, &accepting, &nclasses,
                                     &start, &otherwise)) {
        return NULL;
    }
    if (otherwise != Py_None && !PyCallable_Check(otherwise)) {
        PyErr_SetString(PyExc_TypeError, "otherwise must be callable or None");
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
    if (find_stays(self) < 0) {
        Py_DECREF(self);
        return NULL;
    }
    if (otherwise != Py_None) {
        Py_INCREF(otherwise);
        self->otherwise = otherwise;
    }
    return (PyObject *)self;
}

static int
Runner_traverse(PyObject *obj, visitproc visit, void *arg)
{
    Runner *self = (Runner *)obj;
    Py_VISIT(self->otherwise);
    Py_VISIT(Py_TYPE(obj)); /* a heap type's instances own a reference to it */
    return 0;
}

static int
Runner_clear(PyObject *obj)
{
    Runner *self = (Runner *)obj;
    Py_CLEAR(self->otherwise);
    return 0;
}

static void
Runner_dealloc(PyObject *obj)
{
    Runner *self = (Runner *)obj;
    PyTypeObject *type = Py_TYPE(obj);
    PyObject_GC_UnTrack(obj);
    Py_CLEAR(self->otherwise);
    PyMem_Free(self->moves);
    PyMem_Free(self->accepting);
    PyMem_Free(self->stays);
    PyMem_Free(self->stay_of);
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
"Runner(ascii, starts, classes, moves, accepting, nclasses, start, *,\n"
"       otherwise=None)\n--\n\n"
"A DFA over classes of code points, from engine._dfa's tables.");

static PyType_Slot Runner_slots[] = {
    {Py_tp_new, Runner_new},
    {Py_tp_dealloc, Runner_dealloc},
    {Py_tp_traverse, Runner_traverse},
    {Py_tp_clear, Runner_clear},
    {Py_tp_methods, Runner_methods},
    {Py_tp_doc, (void *)Runner_doc},
    {0, NULL},
};

PyType_Spec Runner_spec = {
    .name = "urigrammar.engine.backend._native.Runner",
    .basicsize = sizeof(Runner),
    .itemsize = 0,
    .flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_IMMUTABLETYPE | Py_TPFLAGS_HAVE_GC,
    .slots = Runner_slots,
};
