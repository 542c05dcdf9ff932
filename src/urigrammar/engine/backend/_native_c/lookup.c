/*
 * host_lookup: a function from a text to what a dict holds for it or for
 * its host (urigrammar.hygiene._suffix keeps the Public Suffix List's
 * answers there, by host as written).
 *
 * The function looks the whole text up first (a host on its own), then,
 * when a Tagger reads the text, the span of its host slot; it answers the
 * value found, or None when there is none (or the value is None), and the
 * caller's Python answers then, and fills the dict.  The dict is the
 * caller's, read through the dict's own API; the function holds nothing
 * that changes.
 */

#include "native.h"

/* The items of a lookup's state, a tuple: the Tagger, the host's slot (an
   int), the dict. */
enum { LOOKUP_TAGGER, LOOKUP_SLOT, LOOKUP_TABLE, LOOKUP_ITEMS };

/* The host of text, as the state's Tagger reads it: a new str, NULL with
   no exception when it has none or is not read, NULL with one set on an
   error. */
static PyObject *
host_of(PyObject *state, PyObject *text)
{
    PyObject *tagger = PyTuple_GetItem(state, LOOKUP_TAGGER);
    Py_ssize_t slot = PyLong_AsSsize_t(PyTuple_GetItem(state, LOOKUP_SLOT));
    Py_ssize_t length = PyUnicode_GetLength(text);
    if (length < 0) {
        return NULL;
    }
    Source src;
    source_str(&src, text, length);
    Reading reading;
    int found = tagger_run_source(tagger, &src, &reading);
    Py_ssize_t nslots = tagger_nslots(tagger);
    if (found <= 0 || slot < 0 || slot >= nslots) {
        return NULL;
    }
    Py_ssize_t few[2 * 32];
    Py_ssize_t *all = nslots <= 32 ? few : PyMem_Malloc(2 * (size_t)nslots * sizeof *all);
    if (all == NULL) {
        return PyErr_NoMemory();
    }
    tagger_slot_spans(tagger, &reading, all);
    Py_ssize_t start = all[2 * slot], end = all[2 * slot + 1];
    if (all != few) {
        PyMem_Free(all);
    }
    if (start < 0 || end < start || end > length) {
        return NULL; /* absent, or a constant */
    }
    return PyUnicode_Substring(text, start, end);
}

/* A lookup's call: the value of text, or of its host, or None. */
static PyObject *
lookup_text(PyObject *state, PyObject *text)
{
    if (!PyUnicode_Check(text)) {
        Py_RETURN_NONE;
    }
    PyObject *table = PyTuple_GetItem(state, LOOKUP_TABLE);
    PyObject *value = PyDict_GetItemWithError(table, text);
    if (value != NULL || PyErr_Occurred()) {
        return value == NULL ? NULL : Py_NewRef(value);
    }
    PyObject *host = host_of(state, text);
    if (host == NULL) {
        return PyErr_Occurred() ? NULL : Py_NewRef(Py_None);
    }
    value = PyDict_GetItemWithError(table, host);
    Py_DECREF(host);
    if (value == NULL) {
        return PyErr_Occurred() ? NULL : Py_NewRef(Py_None);
    }
    return Py_NewRef(value);
}

static PyMethodDef lookup_text_def = {
    "lookup", lookup_text, METH_O,
    "lookup(text, /)\n--\n\nWhat the table holds for text, or for its host, or None."};

PyDoc_STRVAR(host_lookup_doc,
             "host_lookup(parse, slot, table, /)\n"
             "--\n\n"
             "A function from a text to table[text], else table[host] where host is the\n"
             "text of slot `slot` of parse's reading of text (parse: a Tagger's parse),\n"
             "else None.");

static PyObject *
host_lookup(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != LOOKUP_ITEMS) {
        PyErr_SetString(PyExc_TypeError, "host_lookup takes 3 arguments");
        return NULL;
    }
    module_state *st = (module_state *)PyModule_GetState(module);
    PyObject *tagger = tagger_of_parse(args[0], (PyTypeObject *)st->tagger_type);
    if (tagger == NULL || !PyLong_Check(args[1]) || !PyDict_Check(args[2])) {
        PyErr_SetString(PyExc_TypeError, "host_lookup takes a Tagger's parse, an int and a dict");
        return NULL;
    }
    PyObject *state = PyTuple_Pack(LOOKUP_ITEMS, tagger, args[1], args[2]);
    if (state == NULL) {
        return NULL;
    }
    PyObject *made = PyCFunction_NewEx(&lookup_text_def, state, NULL);
    Py_DECREF(state);
    return made;
}

PyMethodDef lookup_methods[] = {
    {"host_lookup", (PyCFunction)(void (*)(void))host_lookup, METH_FASTCALL, host_lookup_doc},
    {NULL, NULL, 0, NULL},
};
