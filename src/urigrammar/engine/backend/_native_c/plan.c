/*
 * A Tagger's output (tagger.h's Output): the plan that says which capture
 * fills which slot, read once; the slots' spans of a reading, chosen
 * without a branch where the plan allows; and what parse makes of them: a
 * tuple of values, or a record of a Record class (record.c), made here,
 * with no string for its slots.
 */

#include "tagger.h"

/* The lowest set bit's index of a nonzero word. */
static inline int
lowest_bit(uint64_t word)
{
#if defined(__GNUC__)
    return __builtin_ctzll(word);
#else
    int bit = 0;
    while (!(word & 1)) {
        word >>= 1;
        bit++;
    }
    return bit;
#endif
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
    self->out.slot_first = PyMem_Malloc((size_t)(nslots + 1) * sizeof(Py_ssize_t));
    self->out.defaults = PyMem_Calloc((size_t)nslots + 1, sizeof(PyObject *));
    self->out.cand_capture = PyMem_Malloc((size_t)ncands * sizeof(Py_ssize_t) + 1);
    self->out.cand_const = PyMem_Calloc((size_t)ncands + 1, sizeof(PyObject *));
    if (self->out.slot_first == NULL || self->out.defaults == NULL || self->out.cand_capture == NULL ||
        self->out.cand_const == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    self->out.nslots = nslots;
    self->out.ncands = ncands;
    Py_ssize_t c = 0;
    for (Py_ssize_t s = 0; s < nslots; s++) {
        PyObject *slot = PyTuple_GetItem(plan, s);
        PyObject *cands = PyTuple_GetItem(slot, 1);
        self->out.defaults[s] = PyTuple_GetItem(slot, 0);
        Py_INCREF(self->out.defaults[s]);
        self->out.slot_first[s] = c;
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
            self->out.cand_capture[c] = cap;
            PyObject *constant = PyTuple_GetItem(cand, 1);
            if (constant != Py_None) {
                Py_INCREF(constant);
                self->out.cand_const[c] = constant;
            }
        }
    }
    self->out.slot_first[nslots] = c;
    return 0;
}

/* The index of constant in self->out.consts, appended when new; -1 with an
   exception set. */
static Py_ssize_t
const_index(Tagger *self, PyObject *constant)
{
    Py_ssize_t n = PyList_Size(self->out.consts);
    for (Py_ssize_t k = 0; k < n; k++) {
        int same = PyObject_RichCompareBool(PyList_GetItem(self->out.consts, k), constant, Py_EQ);
        if (same != 0) {
            return same < 0 ? -1 : k;
        }
    }
    return PyList_Append(self->out.consts, constant) < 0 ? -1 : n;
}

/* For a record-making Tagger: the plan's constants and non-None defaults
   as one tuple (self->out.consts), and each one's index. */
static int
read_consts(Tagger *self)
{
    self->out.cand_index = PyMem_Malloc((size_t)self->out.ncands * sizeof(Py_ssize_t) + 1);
    self->out.default_index = PyMem_Malloc((size_t)self->out.nslots * sizeof(Py_ssize_t) + 1);
    self->out.consts = PyList_New(0);
    if (self->out.cand_index == NULL || self->out.default_index == NULL || self->out.consts == NULL) {
        if (!PyErr_Occurred()) {
            PyErr_NoMemory();
        }
        return -1;
    }
    for (Py_ssize_t s = 0; s < self->out.nslots; s++) {
        self->out.default_index[s] = -1;
        if (self->out.defaults[s] != Py_None &&
            (self->out.default_index[s] = const_index(self, self->out.defaults[s])) < 0) {
            return -1;
        }
    }
    for (Py_ssize_t c = 0; c < self->out.ncands; c++) {
        self->out.cand_index[c] = -1;
        if (self->out.cand_const[c] != NULL &&
            (self->out.cand_index[c] = const_index(self, self->out.cand_const[c])) < 0) {
            return -1;
        }
    }
    PyObject *frozen = PyList_AsTuple(self->out.consts);
    Py_DECREF(self->out.consts);
    self->out.consts = frozen;
    return frozen == NULL ? -1 : 0;
}

/* The tables of the branch-free slot choice (set_mask, slot_mask, pick),
   when the tags and the plan allow it: 0 (with or without them), or -1
   with MemoryError. */
static int
find_fast_choice(Tagger *self)
{
    Py_ssize_t nconsts = PyTuple_Size(self->out.consts);
    if (self->ntags > 2 * FAST_CAPTURES || nconsts > FAST_CONSTS) {
        return 0;
    }
    for (Py_ssize_t s = 0; s < self->out.nslots; s++) {
        for (Py_ssize_t c = self->out.slot_first[s] + 1; c < self->out.slot_first[s + 1]; c++) {
            if (self->out.cand_capture[c] <= self->out.cand_capture[c - 1]) {
                return 0; /* the lowest capture would not be the first */
            }
        }
    }
    Py_ssize_t width = FAST_CAPTURES + 1;
    self->out.fixed = PyMem_Malloc((size_t)(CONST_AT - NONE_AT + 2 * nconsts) * sizeof(Py_ssize_t));
    self->out.set_mask = PyMem_Calloc((size_t)self->ntagsets, sizeof(uint64_t));
    self->out.slot_mask = PyMem_Calloc((size_t)self->out.nslots + 1, sizeof(uint64_t));
    self->out.pick = PyMem_Calloc((size_t)(self->out.nslots * width) + 1, 1);
    if (self->out.fixed == NULL || self->out.set_mask == NULL || self->out.slot_mask == NULL ||
        self->out.pick == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    self->out.fixed[0] = self->out.fixed[1] = -1; /* pair NONE_AT */
    for (Py_ssize_t k = 0; k < nconsts; k++) {
        self->out.fixed[CONST_AT - NONE_AT + 2 * k] = -2 - k;
        self->out.fixed[CONST_AT - NONE_AT + 2 * k + 1] = 0;
    }
    for (Py_ssize_t i = 0; i < self->ntagsets; i++) {
        for (uint32_t j = self->set_first[i]; j < self->set_first[i + 1]; j++) {
            self->out.set_mask[i] |= (uint64_t)1 << self->set_tags[j];
        }
    }
    for (Py_ssize_t s = 0; s < self->out.nslots; s++) {
        uint8_t *pick = self->out.pick + s * width;
        for (Py_ssize_t c = self->out.slot_first[s]; c < self->out.slot_first[s + 1]; c++) {
            Py_ssize_t cap = self->out.cand_capture[c], k = self->out.cand_index[c];
            self->out.slot_mask[s] |= (uint64_t)1 << (2 * cap);
            pick[cap] = (uint8_t)(k >= 0 ? CONST_AT + 2 * k : 2 * cap);
        }
        Py_ssize_t k = self->out.default_index[s];
        pick[FAST_CAPTURES] = (uint8_t)(k >= 0 ? CONST_AT + 2 * k : NONE_AT);
    }
    return 0;
}

/* Slot s's span from a reading into out[0], out[1]. */
static inline void
slot_span(const Tagger *t, const Reading *reading, Py_ssize_t s, Py_ssize_t *out)
{
    const Py_ssize_t *values = reading->values;
    if (t->out.pick != NULL) {
        /* Bit 2c: capture c took part (both its tags set).  A slot's
           first candidate that took part is its lowest such capture, the
           none bit when there is none, and what it gives is a pair of
           values: no branch, since which slots are present varies text
           by text and a branch on it would often be mispredicted. */
        uint64_t took = reading->set & (reading->set >> 1);
        int cap = lowest_bit((took & t->out.slot_mask[s]) | NONE_BIT) >> 1;
        Py_ssize_t at = t->out.pick[s * (FAST_CAPTURES + 1) + cap];
        const Py_ssize_t *pair = at < NONE_AT ? values + at : t->out.fixed + (at - NONE_AT);
        out[0] = pair[0];
        out[1] = pair[1];
        return;
    }
    Py_ssize_t start = -1, end = -1;
    if (t->out.default_index[s] >= 0) {
        start = -2 - t->out.default_index[s];
        end = 0;
    }
    for (Py_ssize_t c = t->out.slot_first[s]; c < t->out.slot_first[s + 1]; c++) {
        Py_ssize_t cap = t->out.cand_capture[c];
        Py_ssize_t opened = values[2 * cap], closed = values[2 * cap + 1];
        if (opened < 0 || closed < 0) {
            continue;
        }
        if (t->out.cand_index[c] >= 0) {
            start = -2 - t->out.cand_index[c];
            end = 0;
        }
        else {
            start = opened;
            end = closed;
        }
        break;
    }
    out[0] = start;
    out[1] = end;
}

void
tagger_spans(const Tagger *t, const Reading *reading, Py_ssize_t *out)
{
    for (Py_ssize_t s = 0; s < t->out.nslots; s++) {
        slot_span(t, reading, s, out + 2 * s);
    }
}

/* The slots' spans for text, as a new array of 2 * nslots numbers (free
   it with PyMem_Free), or NULL with an exception set. */
static Py_ssize_t *
tagger_alloc_spans(const Tagger *t, Py_ssize_t *small, Py_ssize_t nsmall)
{
    if (2 * t->out.nslots <= nsmall) {
        return small;
    }
    Py_ssize_t *out = PyMem_Malloc((size_t)(2 * t->out.nslots) * sizeof(Py_ssize_t));
    if (out == NULL) {
        PyErr_NoMemory();
    }
    return out;
}

static PyObject *
tagger_record(const Tagger *t, PyObject *text, const Reading *reading)
{
    Py_ssize_t small[2 * 16];
    Py_ssize_t *spans = tagger_alloc_spans(t, small, 2 * 16);
    if (spans == NULL) {
        return NULL;
    }
    tagger_spans(t, reading, spans);
    PyObject *made = record_make((PyTypeObject *)t->out.cls, t->out.alloc, text, reading->length,
                                 t->out.consts, spans, t->out.nslots, t->out.untrack);
    if (spans != small) {
        PyMem_Free(spans);
    }
    return made;
}

PyObject *
Tagger_spans(PyObject *self, PyObject *arg)
{
    Tagger *t = (Tagger *)self;
    Reading reading;
    int found = tag_text(t, arg, &reading, 0);
    if (found <= 0) {
        return found < 0 ? NULL : Py_NewRef(Py_None);
    }
    Py_ssize_t small[2 * 16];
    Py_ssize_t *spans = tagger_alloc_spans(t, small, 2 * 16);
    if (spans == NULL) {
        return NULL;
    }
    tagger_spans(t, &reading, spans);
    PyObject *out = PyTuple_New(2 * t->out.nslots);
    for (Py_ssize_t i = 0; out != NULL && i < 2 * t->out.nslots; i++) {
        PyObject *v = PyLong_FromSsize_t(spans[i]);
        if (v == NULL) {
            Py_CLEAR(out);
            break;
        }
        PyTuple_SetItem(out, i, v);
    }
    if (spans != small) {
        PyMem_Free(spans);
    }
    return out;
}

PyObject *
Tagger_get_consts(PyObject *self, void *Py_UNUSED(closure))
{
    return Py_NewRef(((Tagger *)self)->out.consts);
}

PyObject *
tagger_of_parse(PyObject *matcher, PyTypeObject *tagger_type)
{
    if (!Py_IS_TYPE(matcher, &PyCFunction_Type) ||
        PyCFunction_GetFunction(matcher) != Tagger_parse) {
        return NULL;
    }
    PyObject *tagger = PyCFunction_GetSelf(matcher);
    return tagger != NULL && Py_IS_TYPE(tagger, tagger_type) ? tagger : NULL;
}

PyObject *
Tagger_parse(PyObject *self, PyObject *arg)
{
    Tagger *t = (Tagger *)self;
    Reading reading;
    /* A record reads only the slots' spans; the tuple reads the tags. */
    int found = tag_text(t, arg, &reading, t->out.cls == NULL);
    if (found <= 0) {
        return found < 0 ? NULL : Py_NewRef(Py_None);
    }
    if (t->out.cls != NULL) {
        return tagger_record(t, arg, &reading);
    }
    PyObject *out = PyTuple_New(t->out.nslots);
    if (out == NULL) {
        return NULL;
    }
    for (Py_ssize_t s = 0; s < t->out.nslots; s++) {
        PyObject *value = t->out.defaults[s];
        Py_INCREF(value);
        for (Py_ssize_t c = t->out.slot_first[s]; c < t->out.slot_first[s + 1]; c++) {
            Py_ssize_t cap = t->out.cand_capture[c];
            Py_ssize_t opened = reading.values[2 * cap], closed = reading.values[2 * cap + 1];
            if (opened < 0 || closed < 0) {
                continue;
            }
            Py_DECREF(value);
            if (t->out.cand_const[c] != NULL) {
                value = t->out.cand_const[c];
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
    return out;
}

/* The record class ``into``: its allocator, whether its records may go
   untracked, and whether its records may hold the plan's constants: 0,
   or -1 with an exception set. */
static int
read_into(Tagger *self, PyObject *cls)
{
    Output *o = &self->out;
    o->cls = Py_NewRef(cls);
    int plain = record_plain(cls);
    if (plain < 0) {
        return -1;
    }
    /* The constants come from the plan: untracked records may hold them
       only when they are strings, which hold nothing. */
    for (Py_ssize_t k = 0; plain && k < PyTuple_Size(o->consts); k++) {
        plain = PyUnicode_CheckExact(PyTuple_GetItem(o->consts, k));
    }
    o->untrack = plain && (PyType_GetFlags((PyTypeObject *)cls) & Py_TPFLAGS_HAVE_GC);
    o->alloc = (allocfunc)PyType_GetSlot((PyTypeObject *)cls, Py_tp_alloc);
    if (!record_consts_allowed(cls, o->consts)) {
        return -1;
    }
    if (PyTuple_Size(o->consts) >= MAX_CONSTS) {
        PyErr_SetString(PyExc_ValueError, "consts: too many constants");
        return -1;
    }
    return 0;
}

int
output_read(Tagger *t, PyObject *plan, PyObject *cls)
{
    if (read_plan(t, plan) < 0 || read_consts(t) < 0 || find_fast_choice(t) < 0) {
        return -1;
    }
    return cls == Py_None ? 0 : read_into(t, cls);
}

void
output_free(Output *o)
{
    if (o->defaults != NULL) {
        for (Py_ssize_t s = 0; s < o->nslots; s++) {
            Py_XDECREF(o->defaults[s]);
        }
    }
    if (o->cand_const != NULL) {
        for (Py_ssize_t c = 0; c < o->ncands; c++) {
            Py_XDECREF(o->cand_const[c]);
        }
    }
    PyMem_Free(o->defaults);
    PyMem_Free(o->cand_const);
    PyMem_Free(o->cand_capture);
    PyMem_Free(o->slot_first);
    PyMem_Free(o->cand_index);
    PyMem_Free(o->default_index);
    PyMem_Free(o->fixed);
    PyMem_Free(o->set_mask);
    PyMem_Free(o->slot_mask);
    PyMem_Free(o->pick);
    Py_XDECREF(o->consts);
    Py_XDECREF(o->cls);
    memset(o, 0, sizeof *o);
}

void
tagger_slot_spans(PyObject *tagger, const Reading *reading, Py_ssize_t *out)
{
    tagger_spans((const Tagger *)tagger, reading, out);
}

void
tagger_slot_span(PyObject *tagger, const Reading *reading, Py_ssize_t slot, Py_ssize_t *out)
{
    slot_span((const Tagger *)tagger, reading, slot, out);
}
