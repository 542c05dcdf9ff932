/*
 * Runner: a minimal DFA over classes of code points (a Tables of
 * engine/automata/tables.py), built from its bytes, which dfa.c reads and
 * checks.  What a Runner adds to the shared DFA (dfa.h):
 *
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
 * - a state that loops on the class just read skips the run with its
 *   loop table (loops_skip), four characters a test, none waiting on
 *   another;
 * - when the rows of the last 16 characters repeat with a period of 2 to 8
 *   (a "%41" run goes around three states, "u:p%20" six positions with a
 *   loop inside), the cycle is followed with its rows fixed while it
 *   holds.  The period is looked for at every 8th change of state, and
 *   only in texts longer than one read chunk: a URL pays nothing for it.
 */

#include "native.h"

static inline uint8_t
class_of(const Runner *r, Py_UCS4 code)
{
    return map_class(&r->dfa.map, code);
}

/* The rows read at the last HIST positions of the text, to spot a
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

/* The run of a text of one chunk (a URL, say): loops skipped, no watch
   for periods, whose bookkeeping would cost short texts more than it
   could save them.  The final row, 0 with *end set where the text
   stopped being viable. */
static uint32_t
run_chunk(const Runner *r, const Py_UCS4 *buf, Py_ssize_t n, Py_ssize_t *end)
{
    const uint32_t *moves = r->dfa.moves;
    uint32_t off = r->dfa.start;
    Py_ssize_t i = 0;
    while (i < n) {
        uint32_t next = moves[off + class_of(r, buf[i])];
        i++;
        if (next == off) {
            i = loops_skip(&r->loops, &r->dfa, off, 0, buf, i, n);
            continue;
        }
        if (next == 0) {
            *end = i - 1;
            return 0;
        }
        off = next;
    }
    *end = n;
    return off;
}

/* A cycle of period p (2..MAX_PERIOD) was just seen in hist at pos:
   follow it from buf[i] with its rows fixed while it holds.  The index
   of the first character not followed; *off and hist at the rows where
   it stops. */
static Py_ssize_t
follow_period(const Runner *r, const Py_UCS4 *buf, Py_ssize_t i, Py_ssize_t n, Py_ssize_t at,
              uint32_t *hist, Py_ssize_t pos, int p, uint32_t *off)
{
    const uint32_t *moves = r->dfa.moves;
    /* The cycle repeated over a round of up to HIST characters: row[k] is
       the row before the k-th character of a round, row[k + 1] the one
       after it. */
    uint32_t row[HIST + 1];
    int round = HIST / p * p;
    for (int k = 0; k <= round; k++) {
        row[k] = hist[(pos - p + k % p) & (HIST - 1)];
    }
    Py_ssize_t from = i;
    /* Whole periods of three or two (a "%41" run, a "%4" tail) with their
       rows in registers; */
    if (p == 3) {
        uint32_t a = row[0], b = row[1], c = row[2];
        while (i + 3 <= n && moves[a + class_of(r, buf[i])] == b &&
               moves[b + class_of(r, buf[i + 1])] == c && moves[c + class_of(r, buf[i + 2])] == a) {
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
    /* else whole rounds, the checks of a round or-ed together: one branch
       a round, and no check waits on another. */
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
    *off = row[j];
    for (Py_ssize_t k = i - from > HIST ? i - HIST : from; k < i; k++) {
        hist[(at + k) & (HIST - 1)] = row[(k - from) % p];
    }
    return i;
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
    const uint32_t *moves = r->dfa.moves;
    uint32_t off = r->dfa.start;
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
        if (at == 0 && source_done(src)) {
            off = run_chunk(r, buf, n, end);
            return off == 0 ? 0 : (int)dfa_state(&r->dfa, off);
        }
        Py_ssize_t i = 0;
        while (i < n) {
            uint32_t next = moves[off + class_of(r, buf[i])];
            hist[(at + i) & (HIST - 1)] = off;
            i++;
            if (next == off) {
                /* A loop: the row stays `off` for as long as it lasts, so
                   the loads do not wait on each other. */
                Py_ssize_t from = i;
                i = loops_skip(&r->loops, &r->dfa, off, 0, buf, i, n);
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
               follow the cycle while it holds: each character's check is
               independent of the others'. */
            Py_ssize_t pos = at + i;
            hist[pos & (HIST - 1)] = off;
            int p = period_at(hist, pos);
            if (p != 0) {
                i = follow_period(r, buf, i, n, at, hist, pos, p, &off);
            }
        }
    }
    *end = src->at;
    return (int)dfa_state(&r->dfa, off);
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

/* The bytes past the shared part: one accepting flag per state. */
static int
read_accepting(Runner *self, Blob *b)
{
    const uint8_t *accepting = blob_items(b, self->dfa.nstates, 1);
    if (accepting == NULL || b->at != b->size) {
        PyErr_SetString(PyExc_ValueError, "tables: truncated, or bytes past their end");
        return -1;
    }
    self->accepting = PyMem_Malloc((size_t)self->dfa.nstates);
    if (self->accepting == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    for (Py_ssize_t s = 0; s < self->dfa.nstates; s++) {
        if (accepting[s] > 1) {
            PyErr_SetString(PyExc_ValueError, "tables: accepting flags are 0 or 1");
            return -1;
        }
        self->accepting[s] = accepting[s];
    }
    return 0;
}

static PyObject *
Runner_new(PyTypeObject *type, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"tables", "otherwise", NULL};
    PyObject *tables, *otherwise = Py_None;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "O|$O", kwlist, &tables, &otherwise)) {
        return NULL;
    }
    if (otherwise != Py_None && !PyCallable_Check(otherwise)) {
        PyErr_SetString(PyExc_TypeError, "otherwise must be callable or None");
        return NULL;
    }
    Blob blob;
    if (blob_of(tables, &blob) < 0) {
        return NULL;
    }
    allocfunc alloc = (allocfunc)PyType_GetSlot(type, Py_tp_alloc);
    Runner *self = (Runner *)alloc(type, 0);
    if (self == NULL) {
        return NULL;
    }
    if (dfa_read(&self->dfa, &blob, "UGD1") < 0 || read_accepting(self, &blob) < 0 ||
        loops_build(&self->loops, &self->dfa, NULL) < 0) {
        Py_DECREF(self);
        return NULL;
    }
    if (otherwise != Py_None) {
        self->otherwise = Py_NewRef(otherwise);
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
    dfa_free(&self->dfa);
    loops_free(&self->loops);
    PyMem_Free(self->accepting);
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
"Runner(tables, *, otherwise=None)\n--\n\n"
"A minimal DFA over classes of code points, from the bytes of\n"
"engine.automata.tables.Tables.to_bytes().");

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
