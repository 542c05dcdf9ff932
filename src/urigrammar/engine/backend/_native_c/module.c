/*
 * The module urigrammar.engine.backend._native: its state (the Runner, Tagger and
 * Record types, which Entry_new, Tagger_new and Field_new read), and the
 * creation of the types from their specs (runner.c, tagger.c, record.c,
 * entry.c).
 */

#include "normal.h"

/* The type of spec, added to the module as `name`, and kept in *kept
   (a reference of its own) unless kept is NULL: 0, or -1 with an
   exception set. */
static int
add_type(PyObject *module, PyType_Spec *spec, const char *name, PyObject **kept)
{
    PyObject *type = PyType_FromModuleAndSpec(module, spec, NULL);
    if (type == NULL) {
        return -1;
    }
    if (kept != NULL) {
        *kept = Py_NewRef(type);
    }
    if (PyModule_AddObject(module, name, type) < 0) {
        Py_DECREF(type);
        return -1;
    }
    return 0;
}

/* The module's first exec slot: the Runner, Tagger, Record and Field
   types, the first three kept in the module state as well, and the
   functions of normal.c, canonical.c and lookup.c (those of columns.c are the module's methods). */
static int
native_exec(PyObject *module)
{
    module_state *st = (module_state *)PyModule_GetState(module);
    if (add_type(module, &Runner_spec, "Runner", &st->runner_type) < 0 ||
        add_type(module, &Tagger_spec, "Tagger", &st->tagger_type) < 0 ||
        add_type(module, &Record_spec, "Record", &st->record_type) < 0 ||
        add_type(module, &Field_spec, "Field", NULL) < 0 ||
        PyModule_AddFunctions(module, normal_methods) < 0 ||
        PyModule_AddFunctions(module, canonical_methods) < 0 ||
        PyModule_AddFunctions(module, lookup_methods) < 0) {
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
    .m_name = "urigrammar.engine.backend._native",
    .m_doc = "A generic DFA runner over classes of code points (see engine/automata/dfa.py).",
    .m_size = sizeof(module_state),
    .m_methods = columns_methods,
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
