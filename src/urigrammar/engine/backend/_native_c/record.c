/*
 * Record and Field: a value over a text and the spans of its slots
 * (engine/result/record.py is the same interface in Python, and says why).
 *
 * A Record holds its text, a tuple of constants, and two numbers per
 * slot: (start, end) for a slot that is a span of the text, (-1, -1) for
 * a slot that is absent (None), (-2 - k, 0) for a slot that is constant k.
 * The numbers are int32 while the text is shorter than 2**31 characters
 * and int64 beyond (ob_size counts int32 words, so a slot takes two words
 * or four).  Nothing is sliced until a Field reads its slot.  A Record is
 * immutable and refers to a str and a tuple only, so it cannot be part of
 * a reference cycle unless its constants hold one; a subclass made by a
 * class statement has the garbage collector, and Record_traverse lets it
 * see the text and constants.  The only constructors are _make and the
 * Tagger: a record always has its text.
 */

#include "native.h"

#include <stddef.h>

typedef struct {
    PyObject_VAR_HEAD
    PyObject *text;
    PyObject *consts;
    int32_t words[1];
} Record;

/* The int32 words fit offsets below this; longer texts take two words. */
#define NARROW_LIMIT ((Py_ssize_t)INT32_MAX)

static int
record_wide(const Record *r)
{
    return PyUnicode_GetLength(r->text) >= NARROW_LIMIT;
}

static Py_ssize_t
record_nslots(const Record *r)
{
    return Py_SIZE(r) / (record_wide(r) ? 4 : 2);
}

/* Slot i's start and end. */
static void
record_span(const Record *r, Py_ssize_t i, Py_ssize_t *start, Py_ssize_t *end)
{
    if (record_wide(r)) {
        int64_t both[2];
        memcpy(both, r->words + 4 * i, sizeof both);
        *start = (Py_ssize_t)both[0];
        *end = (Py_ssize_t)both[1];
    }
    else {
        *start = r->words[2 * i];
        *end = r->words[2 * i + 1];
    }
}

/* Slot i's value: a new reference, or NULL with an exception set. */
static PyObject *
record_value(const Record *r, Py_ssize_t i)
{
    Py_ssize_t start, end;
    record_span(r, i, &start, &end);
    if (start >= 0) {
        return PyUnicode_Substring(r->text, start, end);
    }
    if (start == -1) {
        Py_RETURN_NONE;
    }
    PyObject *constant = PyTuple_GetItem(r->consts, -2 - start); /* borrowed */
    return constant == NULL ? NULL : Py_NewRef(constant);
}

/* Whether every slot of spans (2 * nslots numbers) is a span of a text of
   `length` characters, absent, or a constant of `nconsts`. */
static int
spans_valid(const Py_ssize_t *spans, Py_ssize_t nslots, Py_ssize_t length, Py_ssize_t nconsts)
{
    for (Py_ssize_t i = 0; i < nslots; i++) {
        Py_ssize_t start = spans[2 * i], end = spans[2 * i + 1];
        if (start >= 0) {
            if (end < start || end > length) {
                return 0;
            }
        }
        else if (start == -1) {
            if (end != -1) {
                return 0;
            }
        }
        else if (-2 - start >= nconsts || end != 0) {
            return 0;
        }
    }
    return 1;
}

NATIVE_SHARED PyObject *
record_spans(PyObject *obj, PyObject *record_type, const Py_ssize_t *slots, Py_ssize_t n,
             Py_ssize_t *spans)
{
    if (!PyObject_TypeCheck(obj, (PyTypeObject *)record_type)) {
        return NULL;
    }
    const Record *r = (const Record *)obj;
    Py_ssize_t nslots = record_nslots(r);
    for (Py_ssize_t k = 0; k < n; k++) {
        if (slots[k] < 0 || slots[k] >= nslots) {
            return NULL;
        }
        record_span(r, slots[k], &spans[2 * k], &spans[2 * k + 1]);
    }
    return r->text;
}

NATIVE_SHARED int
record_plain(PyObject *cls)
{
    static const char *const attrs[] = {"__dictoffset__", "__weakrefoffset__", "__basicsize__"};
    const long expected[] = {0, 0, (long)offsetof(Record, words)};
    for (int i = 0; i < 3; i++) {
        PyObject *value = PyObject_GetAttrString(cls, attrs[i]);
        if (value == NULL) {
            return -1;
        }
        long got = PyLong_AsLong(value);
        Py_DECREF(value);
        if (got == -1 && PyErr_Occurred()) {
            return -1;
        }
        if (got != expected[i]) {
            return 0;
        }
    }
    return 1;
}

NATIVE_SHARED PyObject *
record_make(PyTypeObject *cls, allocfunc alloc, PyObject *text, Py_ssize_t length,
            PyObject *consts, const Py_ssize_t *spans, Py_ssize_t nslots, int untrack)
{
    if (nslots > PY_SSIZE_T_MAX / 8) {
        return PyErr_NoMemory();
    }
    /* A str subclass's own methods (__hash__, __eq__) must not become the
       record's: keep an exact str. */
    PyObject *exact = PyUnicode_CheckExact(text) ? Py_NewRef(text) : PyUnicode_FromObject(text);
    if (exact == NULL) {
        return NULL;
    }
    int wide = length >= NARROW_LIMIT;
    Record *r = (Record *)alloc(cls, nslots * (wide ? 4 : 2));
    if (r == NULL) {
        Py_DECREF(exact);
        return NULL;
    }
    if (untrack) {
        /* A class statement gives every heap type the collector; a record
           of a class that adds no attribute holds a str and a tuple of
           constants, so it can be in no cycle, and tracking it would only
           make the collector visit each kept parse. */
        PyObject_GC_UnTrack(r);
    }
    r->text = exact;
    r->consts = Py_NewRef(consts);
    for (Py_ssize_t i = 0; i < 2 * nslots; i++) {
        if (wide) {
            int64_t value = (int64_t)spans[i];
            memcpy(r->words + 2 * i, &value, sizeof value);
        }
        else {
            r->words[i] = (int32_t)spans[i];
        }
    }
    return (PyObject *)r;
}

NATIVE_SHARED int
record_consts_allowed(PyObject *cls, PyObject *consts)
{
    if (PyType_GetFlags((PyTypeObject *)cls) & Py_TPFLAGS_HAVE_GC) {
        return 1;
    }
    for (Py_ssize_t k = 0; k < PyTuple_Size(consts); k++) {
        if (!PyUnicode_CheckExact(PyTuple_GetItem(consts, k))) {
            PyErr_SetString(PyExc_TypeError,
                            "the constants of a record the collector does not track are str");
            return 0;
        }
    }
    return 1;
}

NATIVE_SHARED int
record_type_check(PyObject *cls, PyObject *record_type)
{
    return PyType_Check(cls) && PyType_IsSubtype((PyTypeObject *)cls, (PyTypeObject *)record_type);
}

PyDoc_STRVAR(make_doc,
"_make(text, consts, spans, /)\n--\n\n"
"A record of this class over text: spans holds two numbers per slot,\n"
"(start, end), (-1, -1) for None or (-2 - k, 0) for consts[k].  Checked\n"
"against the text's length; the values are not read.");

static PyObject *
Record_make(PyObject *cls, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 3) {
        PyErr_SetString(PyExc_TypeError, "_make takes text, consts and spans");
        return NULL;
    }
    PyObject *text = args[0], *consts = args[1], *spans_obj = args[2];
    if (!PyUnicode_Check(text) || !PyTuple_Check(consts) || !PyTuple_Check(spans_obj)) {
        PyErr_SetString(PyExc_TypeError, "_make takes a str, a tuple and a tuple");
        return NULL;
    }
    Py_ssize_t count = PyTuple_Size(spans_obj);
    if (count % 2) {
        PyErr_SetString(PyExc_ValueError, "spans: two numbers per slot");
        return NULL;
    }
    if (!record_consts_allowed(cls, consts)) {
        return NULL;
    }
    Py_ssize_t small[32];
    Py_ssize_t *spans = small;
    if (count > 32) {
        spans = PyMem_Malloc((size_t)count * sizeof(Py_ssize_t));
        if (spans == NULL) {
            return PyErr_NoMemory();
        }
    }
    PyObject *made = NULL;
    for (Py_ssize_t i = 0; i < count; i++) {
        spans[i] = PyLong_AsSsize_t(PyTuple_GetItem(spans_obj, i));
        if (spans[i] == -1 && PyErr_Occurred()) {
            if (PyErr_ExceptionMatches(PyExc_OverflowError)) {
                PyErr_Clear();
                PyErr_SetString(PyExc_ValueError, "spans: a number out of range");
            }
            goto done;
        }
    }
    Py_ssize_t length = PyUnicode_GetLength(text);
    if (length < 0) {
        goto done;
    }
    if (PyTuple_Size(consts) >= MAX_CONSTS) {
        PyErr_SetString(PyExc_ValueError, "consts: too many constants");
        goto done;
    }
    if (!spans_valid(spans, count / 2, length, PyTuple_Size(consts))) {
        PyErr_SetString(PyExc_ValueError, "spans: a slot outside the text or the constants");
        goto done;
    }
    allocfunc alloc = (allocfunc)PyType_GetSlot((PyTypeObject *)cls, Py_tp_alloc);
    made = record_make((PyTypeObject *)cls, alloc, text, length, consts, spans, count / 2, 0);
done:
    if (spans != small) {
        PyMem_Free(spans);
    }
    return made;
}

PyDoc_STRVAR(spans_doc,
"_spans()\n--\n\n"
"The numbers _make took: two per slot, as a tuple.");

static PyObject *
Record_spans(PyObject *self, PyObject *Py_UNUSED(ignored))
{
    const Record *r = (const Record *)self;
    Py_ssize_t nslots = record_nslots(r);
    PyObject *out = PyTuple_New(2 * nslots);
    if (out == NULL) {
        return NULL;
    }
    for (Py_ssize_t i = 0; i < nslots; i++) {
        Py_ssize_t start, end;
        record_span(r, i, &start, &end);
        PyObject *a = PyLong_FromSsize_t(start), *b = PyLong_FromSsize_t(end);
        if (a == NULL || b == NULL) {
            Py_XDECREF(a);
            Py_XDECREF(b);
            Py_DECREF(out);
            return NULL;
        }
        PyTuple_SetItem(out, 2 * i, a);
        PyTuple_SetItem(out, 2 * i + 1, b);
    }
    return out;
}

PyDoc_STRVAR(slot_doc,
"_slot(index, /)\n--\n\n"
"Slot index's two numbers, as _make took them.");

static PyObject *
Record_slot(PyObject *self, PyObject *arg)
{
    const Record *r = (const Record *)self;
    Py_ssize_t index = PyLong_AsSsize_t(arg);
    if (index == -1 && PyErr_Occurred()) {
        return NULL;
    }
    if (index < 0 || index >= record_nslots(r)) {
        PyErr_SetString(PyExc_IndexError, "the record has no such slot");
        return NULL;
    }
    Py_ssize_t start, end;
    record_span(r, index, &start, &end);
    return Py_BuildValue("(nn)", start, end);
}

PyDoc_STRVAR(values_doc,
"_values()\n--\n\n"
"Every slot's value, in order, as a tuple.");

static PyObject *
Record_values(PyObject *self, PyObject *Py_UNUSED(ignored))
{
    const Record *r = (const Record *)self;
    Py_ssize_t nslots = record_nslots(r);
    PyObject *out = PyTuple_New(nslots);
    if (out == NULL) {
        return NULL;
    }
    for (Py_ssize_t i = 0; i < nslots; i++) {
        PyObject *value = record_value(r, i);
        if (value == NULL) {
            Py_DECREF(out);
            return NULL;
        }
        PyTuple_SetItem(out, i, value);
    }
    return out;
}

static PyObject *
Record_get_text(PyObject *self, void *Py_UNUSED(closure))
{
    return Py_NewRef(((Record *)self)->text);
}

static PyObject *
Record_get_consts(PyObject *self, void *Py_UNUSED(closure))
{
    return Py_NewRef(((Record *)self)->consts);
}

static PyObject *
Record_str(PyObject *self)
{
    return Py_NewRef(((Record *)self)->text);
}

/* What a subclass with the collector (any class statement's) visits
   besides its own attributes. */
static int
Record_traverse(PyObject *self, visitproc visit, void *arg)
{
    Record *r = (Record *)self;
    Py_VISIT(r->text);
    Py_VISIT(r->consts);
    return 0;
}

static PyObject *
Record_new(PyTypeObject *Py_UNUSED(type), PyObject *Py_UNUSED(args), PyObject *Py_UNUSED(kwds))
{
    PyErr_SetString(PyExc_TypeError, "a Record is made by _make or by a parse");
    return NULL;
}

static int
Record_setattro(PyObject *Py_UNUSED(self), PyObject *Py_UNUSED(name), PyObject *Py_UNUSED(value))
{
    PyErr_SetString(PyExc_AttributeError, "the value is immutable");
    return -1;
}

static void
Record_dealloc(PyObject *obj)
{
    Record *r = (Record *)obj;
    PyTypeObject *type = Py_TYPE(obj);
    Py_XDECREF(r->text);
    Py_XDECREF(r->consts);
    freefunc tp_free = (freefunc)PyType_GetSlot(type, Py_tp_free);
    tp_free(obj);
    Py_DECREF(type);
}

/* The type Record_untracked makes: Record's layout and deallocation, and
   no collector, under a base that a class statement gave one. */
static PyType_Slot Untracked_slots[] = {
    {Py_tp_dealloc, Record_dealloc},
    /* A traverse function of its own keeps the type from taking its
       base's collector (PyType_Ready gives the collector to a type that
       has neither traverse nor clear and a base that has it). */
    {Py_tp_traverse, Record_traverse},
    /* Not inherited from a base with the collector: its tp_free is the
       collector's. */
    {Py_tp_free, PyObject_Free},
    {0, NULL},
};

static PyType_Spec Untracked_spec = {
    .name = "urigrammar.engine.backend._native.Untracked",
    .basicsize = (int)offsetof(Record, words),
    .itemsize = (int)sizeof(int32_t),
    .flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE,
    .slots = Untracked_slots,
};

PyDoc_STRVAR(untracked_doc,
"_untracked()\n--\n\n"
"A subclass of this class whose records the garbage collector does not\n"
"track, freed as a Record is: what a class statement cannot make, since\n"
"it gives every class the collector.  Only for a class of the metaclass\n"
"type, without __del__, whose records hold nothing beyond a Record's;\n"
"its records then hold a str and constants that are str (_make and the\n"
"Tagger refuse others), so no cycle.  Named \"Untracked\": the caller\n"
"names it.");

static PyObject *
Record_untracked(PyObject *cls, PyObject *Py_UNUSED(ignored))
{
    /* PyType_FromSpecWithBases makes a type of the metaclass type, and
       Record_dealloc calls no finalizer. */
    if (!Py_IS_TYPE(cls, &PyType_Type)) {
        PyErr_SetString(PyExc_TypeError, "_untracked: the class's metaclass is not type");
        return NULL;
    }
    if (PyType_GetSlot((PyTypeObject *)cls, Py_tp_finalize) != NULL) {
        PyErr_SetString(PyExc_TypeError, "_untracked: the class has a finalizer (__del__)");
        return NULL;
    }
    int plain = record_plain(cls);
    if (plain <= 0) {
        if (plain == 0) {
            PyErr_SetString(PyExc_TypeError,
                            "_untracked: the records hold more than a Record's");
        }
        return NULL;
    }
    PyObject *bases = PyTuple_Pack(1, cls);
    if (bases == NULL) {
        return NULL;
    }
    PyObject *made = PyType_FromSpecWithBases(&Untracked_spec, bases);
    Py_DECREF(bases);
    return made;
}

static PyMethodDef Record_methods[] = {
    {"_make", (PyCFunction)(void (*)(void))Record_make, METH_FASTCALL | METH_CLASS, make_doc},
    {"_untracked", Record_untracked, METH_NOARGS | METH_CLASS, untracked_doc},
    {"_spans", Record_spans, METH_NOARGS, spans_doc},
    {"_values", Record_values, METH_NOARGS, values_doc},
    {"_slot", Record_slot, METH_O, slot_doc},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef Record_getset[] = {
    {"_text", Record_get_text, NULL, "The text the slots are spans of.", NULL},
    {"_consts", Record_get_consts, NULL, "The constants a slot may hold.", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

PyDoc_STRVAR(Record_doc,
"A text and the spans of its slots, each sliced when a Field reads it.\n"
"Made by _make or by a Tagger; str() is the text.");

static PyType_Slot Record_slots[] = {
    {Py_tp_new, Record_new},
    {Py_tp_dealloc, Record_dealloc},
    {Py_tp_traverse, Record_traverse},
    {Py_tp_setattro, Record_setattro},
    {Py_tp_str, Record_str},
    {Py_tp_methods, Record_methods},
    {Py_tp_getset, Record_getset},
    {Py_tp_doc, (void *)Record_doc},
    {0, NULL},
};

PyType_Spec Record_spec = {
    .name = "urigrammar.engine.backend._native.Record",
    .basicsize = (int)offsetof(Record, words),
    .itemsize = (int)sizeof(int32_t),
    .flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE | Py_TPFLAGS_IMMUTABLETYPE,
    .slots = Record_slots,
};

/* Field: a descriptor that reads one slot of a Record. */

typedef struct {
    PyObject_HEAD
    Py_ssize_t index;
    PyObject *record_type;
    PyObject *doc;
} Field;

static PyObject *
Field_new(PyTypeObject *type, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"index", "doc", NULL};
    Py_ssize_t index;
    PyObject *doc = Py_None;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "n|O", kwlist, &index, &doc)) {
        return NULL;
    }
    if (index < 0) {
        PyErr_SetString(PyExc_ValueError, "a slot index is not negative");
        return NULL;
    }
    PyObject *module = PyType_GetModule(type);
    if (module == NULL) {
        return NULL;
    }
    module_state *st = (module_state *)PyModule_GetState(module);
    allocfunc alloc = (allocfunc)PyType_GetSlot(type, Py_tp_alloc);
    Field *self = (Field *)alloc(type, 0);
    if (self == NULL) {
        return NULL;
    }
    self->index = index;
    self->record_type = Py_NewRef(st->record_type);
    self->doc = Py_NewRef(doc);
    return (PyObject *)self;
}

static PyObject *
Field_get(PyObject *self, PyObject *obj, PyObject *Py_UNUSED(type))
{
    Field *f = (Field *)self;
    if (obj == NULL) {
        return Py_NewRef(self);
    }
    if (!PyObject_TypeCheck(obj, (PyTypeObject *)f->record_type)) {
        PyErr_SetString(PyExc_TypeError, "a Field reads a Record");
        return NULL;
    }
    const Record *r = (const Record *)obj;
    if (f->index >= record_nslots(r)) {
        PyErr_SetString(PyExc_AttributeError, "the record has no such slot");
        return NULL;
    }
    return record_value(r, f->index);
}

static int
Field_set(PyObject *Py_UNUSED(self), PyObject *Py_UNUSED(obj), PyObject *Py_UNUSED(value))
{
    PyErr_SetString(PyExc_AttributeError, "the value is immutable");
    return -1;
}

static PyObject *
Field_get_doc(PyObject *self, void *Py_UNUSED(closure))
{
    return Py_NewRef(((Field *)self)->doc);
}

static PyObject *
Field_get_index(PyObject *self, void *Py_UNUSED(closure))
{
    return PyLong_FromSsize_t(((Field *)self)->index);
}

static void
Field_dealloc(PyObject *obj)
{
    Field *f = (Field *)obj;
    PyTypeObject *type = Py_TYPE(obj);
    Py_XDECREF(f->record_type);
    Py_XDECREF(f->doc);
    freefunc tp_free = (freefunc)PyType_GetSlot(type, Py_tp_free);
    tp_free(obj);
    Py_DECREF(type);
}

static PyGetSetDef Field_getset[] = {
    {"__doc__", Field_get_doc, NULL, NULL, NULL},
    {"index", Field_get_index, NULL, "The slot this field reads.", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyType_Slot Field_slots[] = {
    {Py_tp_new, Field_new},
    {Py_tp_dealloc, Field_dealloc},
    {Py_tp_descr_get, Field_get},
    {Py_tp_descr_set, Field_set},
    {Py_tp_getset, Field_getset},
    {0, NULL},
};

PyType_Spec Field_spec = {
    .name = "urigrammar.engine.backend._native.Field",
    .basicsize = sizeof(Field),
    .itemsize = 0,
    .flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_IMMUTABLETYPE,
    .slots = Field_slots,
};
