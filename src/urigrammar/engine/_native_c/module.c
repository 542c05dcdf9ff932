/*
 * The module urigrammar.engine._native: its state (the Runner, Tagger and
 * Record types, which Entry_new, Tagger_new and Field_new read), and the
 * creation of the types from their specs (runner.c, tagger.c, record.c,
 * entry.c).
 */

#include "native.h"

/* The module's first exec slot: the Runner and Tagger types, kept in the
   module state as well. */
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
    st->record_type = PyType_FromModuleAndSpec(module, &Record_spec, NULL);
    if (st->record_type == NULL) {
        return -1;
    }
    Py_INCREF(st->record_type);
    if (PyModule_AddObject(module, "Record", st->record_type) < 0) {
        Py_DECREF(st->record_type);
        return -1;
    }
    PyObject *field_type = PyType_FromModuleAndSpec(module, &Field_spec, NULL);
    if (field_type == NULL) {
        return -1;
    }
    if (PyModule_AddObject(module, "Field", field_type) < 0) {
        Py_DECREF(field_type);
        return -1;
    }
    return 0;
}

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

static int
native_traverse(PyObject *module, visitproc visit, void *arg)
{
    module_state *st = (module_state *)PyModule_GetState(module);
    Py_VISIT(st->runner_type);
    Py_VISIT(st->tagger_type);
    Py_VISIT(st->record_type);
    return 0;
}

static int
native_clear(PyObject *module)
{
    module_state *st = (module_state *)PyModule_GetState(module);
    Py_CLEAR(st->runner_type);
    Py_CLEAR(st->tagger_type);
    Py_CLEAR(st->record_type);
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
