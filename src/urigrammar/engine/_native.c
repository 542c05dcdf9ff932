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
 * Built with the stable ABI (Py_LIMITED_API 3.10), so one wheel serves every
 * CPython from 3.10 on: the text is read with PyUnicode_AsUCS4 into a
 * bounded buffer, a chunk at a time, whatever its kind (1, 2 or 4 bytes a
 * character); a lone surrogate is a code point like any other.  No static
 * state is mutable: the Runner type lives in the module state.
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

typedef struct {
    PyObject_HEAD
    uint8_t ascii[128];
    Py_ssize_t nintervals;
    uint32_t *starts;
    uint8_t *classes;
    Py_ssize_t nclasses;
    Py_ssize_t nstates;
    uint16_t *moves;
    uint8_t *accepting;
    uint16_t start;
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
    /* The last interval whose start is <= code; starts[0] == 0. */
    Py_ssize_t lo = 0, hi = r->nintervals - 1;
    while (lo < hi) {
        Py_ssize_t mid = lo + (hi - lo + 1) / 2;
        if (r->starts[mid] <= code) {
            lo = mid;
        }
        else {
            hi = mid - 1;
        }
    }
    return r->classes[lo];
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
    const uint16_t *moves = r->moves;
    const Py_ssize_t width = r->nclasses;
    uint16_t state = r->start;
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
        for (Py_ssize_t i = 0; i < n; i++) {
            state = moves[(Py_ssize_t)state * width + class_of(r, buf[i])];
            if (state == 0) {
                *end = at + i;
                return 0;
            }
        }
    }
    *end = length;
    return state;
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

static int
read_buffer(PyObject *obj, const char *what, Py_ssize_t itemsize, Py_ssize_t count,
            void **out)
{
    /* Copies a bytes object of exactly count items of itemsize bytes. */
    if (!PyBytes_Check(obj)) {
        PyErr_Format(PyExc_TypeError, "%s must be bytes", what);
        return -1;
    }
    Py_ssize_t size = PyBytes_Size(obj);
    if (size != itemsize * count) {
        PyErr_Format(PyExc_ValueError, "%s: %zd bytes, expected %zd", what, size,
                     itemsize * count);
        return -1;
    }
    void *copy = PyMem_Malloc(size > 0 ? (size_t)size : 1);
    if (copy == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    memcpy(copy, PyBytes_AsString(obj), (size_t)size);
    *out = copy;
    return 0;
}

static PyObject *
Runner_new(PyTypeObject *type, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"ascii", "starts", "classes", "moves", "accepting",
                             "nclasses", "start", NULL};
    PyObject *ascii, *starts, *classes, *moves, *accepting;
    Py_ssize_t nclasses, start;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "SSSSSnn", kwlist, &ascii, &starts,
                                     &classes, &moves, &accepting, &nclasses, &start)) {
        return NULL;
    }
    if (nclasses < 1 || nclasses > 256) {
        PyErr_SetString(PyExc_ValueError, "nclasses must be in 1..256");
        return NULL;
    }
    Py_ssize_t nstates = PyBytes_Size(accepting);
    Py_ssize_t nintervals = PyBytes_Size(classes);
    if (nstates < 1 || nstates > 65535 || nintervals < 1 || PyBytes_Size(ascii) != 128) {
        PyErr_SetString(PyExc_ValueError, "bad table sizes");
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
    self->nintervals = nintervals;
    self->nclasses = nclasses;
    self->nstates = nstates;
    self->start = (uint16_t)start;
    memcpy(self->ascii, PyBytes_AsString(ascii), 128);
    if (read_buffer(starts, "starts", sizeof(uint32_t), nintervals, (void **)&self->starts) <
            0 ||
        read_buffer(classes, "classes", 1, nintervals, (void **)&self->classes) < 0 ||
        read_buffer(moves, "moves", sizeof(uint16_t), nstates * nclasses,
                    (void **)&self->moves) < 0 ||
        read_buffer(accepting, "accepting", 1, nstates, (void **)&self->accepting) < 0) {
        Py_DECREF(self);
        return NULL;
    }
    /* Validate every index the run loop follows, so no table lookup can
       fall outside its table whatever the caller passed. */
    if (self->starts[0] != 0) {
        PyErr_SetString(PyExc_ValueError, "starts[0] must be 0");
        Py_DECREF(self);
        return NULL;
    }
    for (Py_ssize_t i = 1; i < nintervals; i++) {
        if (self->starts[i] <= self->starts[i - 1]) {
            PyErr_SetString(PyExc_ValueError, "starts must increase");
            Py_DECREF(self);
            return NULL;
        }
    }
    for (Py_ssize_t i = 0; i < nintervals; i++) {
        if (self->classes[i] >= nclasses) {
            PyErr_SetString(PyExc_ValueError, "class index out of range");
            Py_DECREF(self);
            return NULL;
        }
    }
    for (Py_ssize_t i = 0; i < 128; i++) {
        if (self->ascii[i] >= nclasses) {
            PyErr_SetString(PyExc_ValueError, "ascii class index out of range");
            Py_DECREF(self);
            return NULL;
        }
    }
    for (Py_ssize_t i = 0; i < nstates * nclasses; i++) {
        if (self->moves[i] >= nstates || (i < nclasses && self->moves[i] != 0)) {
            PyErr_SetString(PyExc_ValueError,
                            "moves: a target out of range, or a dead state that moves");
            Py_DECREF(self);
            return NULL;
        }
    }
    return (PyObject *)self;
}

static void
Runner_dealloc(PyObject *obj)
{
    Runner *self = (Runner *)obj;
    PyTypeObject *type = Py_TYPE(obj);
    PyMem_Free(self->starts);
    PyMem_Free(self->classes);
    PyMem_Free(self->moves);
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
