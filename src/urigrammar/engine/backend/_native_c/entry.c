/*
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
 * read through the dict's own API (a matcher is held with a strong
 * reference while it runs, so another thread emptying the dict cannot free
 * it).  The entry itself holds nothing that changes after it is made: a
 * remembered last lookup would be state shared by every thread, written on
 * calls; the dict lookup it saved costs about 10 ns a call here.
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
 */

#include "native.h"

#include <stddef.h> /* offsetof */

/* The vectorcall protocol entered the limited API in 3.12.  This file is
   built against 3.10's, so it declares the names it uses itself; the
   running CPython (3.10 on) honours them (module.c's entry_exec checks the
   version, and keeps tp_call alone below 3.10, which this build never
   loads on). */
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
    int text_only;         /* with a default name: entry(text) alone, no name */
    /* With a default name: entry(text[, key]) looks the matcher up by the
       key's identity, None when absent: table[id(key)] is (key, matcher),
       and a matcher None means the fallback (a function whose second
       argument is an options value, hashed at a cost). */
    int by_identity;
    PyObject *dict;        /* the instance's __dict__ */
    entry_vectorcallfunc vectorcall; /* read by CPython through __vectorcalloffset__ */
} Entry;

/* The matcher of name (an exact str), as a new reference: held while in
   use, since running can allocate, so collect, so run any code, which may
   empty the table.  NULL when the table has none (with an exception set
   when looking failed). */
static PyObject *
entry_matcher(Entry *self, PyObject *name)
{
    PyObject *matcher = PyDict_GetItemWithError(self->table, name);
    Py_XINCREF(matcher);
    return matcher;
}

/* The fast path: 1 when it answered (*out the result, or NULL with an
   exception set), 0 when the call is for the fallback. */
static int
entry_fast(Entry *self, PyObject *name, PyObject *text, PyObject **out)
{
    if (!PyUnicode_CheckExact(name) || !PyUnicode_Check(text)) {
        return 0;
    }
    PyObject *matcher = entry_matcher(self, name);
    if (matcher == NULL) {
        if (PyErr_Occurred()) {
            *out = NULL;
            return 1;
        }
        return 0;
    }
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

/* The matcher of key by its identity (table[id(key)] is (key, matcher)),
   as a new reference; NULL when the table has none, or None (with an
   exception set when looking failed). */
static PyObject *
entry_by_identity(Entry *self, PyObject *key)
{
    PyObject *id = PyLong_FromVoidPtr(key);
    if (id == NULL) {
        return NULL;
    }
    PyObject *pair = PyDict_GetItemWithError(self->table, id);
    Py_DECREF(id);
    if (pair == NULL || !PyTuple_Check(pair) || PyTuple_Size(pair) != 2 ||
        PyTuple_GetItem(pair, 0) != key || PyTuple_GetItem(pair, 1) == Py_None) {
        return NULL;
    }
    return Py_NewRef(PyTuple_GetItem(pair, 1));
}

/* The fast path of the parse form: 1 when it answered (*out the
   matcher's result, or NULL with an exception set), 0 when the call is for
   the fallback, which also answers a text the rule does not match (its
   error is its own). */
static int
entry_parse(Entry *self, PyObject *text, PyObject *name, PyObject **out)
{
    if (!PyUnicode_Check(text) || !(self->by_identity || PyUnicode_CheckExact(name))) {
        return 0;
    }
    PyObject *matcher = self->by_identity ? entry_by_identity(self, name)
                                          : entry_matcher(self, name);
    if (matcher == NULL) {
        if (PyErr_Occurred()) {
            *out = NULL;
            return 1;
        }
        return 0;
    }
    PyObject *found;
    PyObject *tagger = tagger_of_parse(matcher, (PyTypeObject *)self->tagger_type);
    if (tagger != NULL) {
        found = Tagger_parse(tagger, text);
    }
    else if (Py_IS_TYPE(matcher, &PyCFunction_Type) && PyCFunction_GetFlags(matcher) == METH_O) {
        /* A C function of one argument (normal.c's, canonical.c's): called
           as CPython would, without its call machinery. */
        found = PyCFunction_GetFunction(matcher)(PyCFunction_GetSelf(matcher), text);
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

/* The name, or key, of a call without one (borrowed). */
static PyObject *
entry_default(Entry *self)
{
    return self->by_identity ? Py_None : self->default_name;
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
        else if ((nargs == 1 || (nargs == 2 && !self->text_only)) &&
                 entry_parse(self, PyTuple_GetItem(args, 0),
                             nargs == 2 ? PyTuple_GetItem(args, 1) : entry_default(self),
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
        else if ((nargs == 1 || (nargs == 2 && !self->text_only)) &&
                 entry_parse(self, args[0], nargs == 2 ? args[1] : entry_default(self), &out)) {
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
    static char *kwlist[] = {"table", "fallback", "default", "text_only", "by_identity", NULL};
    PyObject *table, *fallback, *default_name = Py_None;
    int text_only = 0, by_identity = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "O!O|Opp:Entry", kwlist, &PyDict_Type, &table,
                                     &fallback, &default_name, &text_only, &by_identity)) {
        return NULL;
    }
    if ((text_only || by_identity) && default_name == Py_None) {
        PyErr_SetString(PyExc_TypeError, "text_only and by_identity take a default");
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
    self->text_only = text_only;
    self->by_identity = by_identity;
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
"Entry(table, fallback, default=None, text_only=False, by_identity=False)\n--\n\n"
"A callable: entry(name, text) is whether table[name] matches text when\n"
"name is an exact str in the dict table and text a str, else\n"
"fallback(*args, **kwargs).  With a default name, entry(text[, name]) is\n"
"what table[name] returns for text unless that is None, else the fallback's;\n"
"with text_only, entry(text) alone is, the name always the default; with\n"
"by_identity, entry(text[, key]) looks up table[id(key)], a pair (key,\n"
"matcher), key None when absent.");

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

PyType_Spec Entry_spec = {
    .name = "urigrammar.engine.backend._native.Entry",
    .basicsize = sizeof(Entry),
    .itemsize = 0,
    .flags = ENTRY_FLAGS,
    .slots = Entry_slots,
};

PyType_Spec Entry_spec_vectorcall = {
    .name = "urigrammar.engine.backend._native.Entry",
    .basicsize = sizeof(Entry),
    .itemsize = 0,
    .flags = ENTRY_FLAGS | Py_TPFLAGS_HAVE_VECTORCALL,
    .slots = Entry_slots_vectorcall,
};
