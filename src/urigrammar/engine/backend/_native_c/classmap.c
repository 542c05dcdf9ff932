/*
 * The class map's construction (see classmap.h): the tables a Runner or a
 * Tagger is given, checked and read into its class map and moves.
 */

#include "classmap.h"

/* A pointer to the contents of a bytes object of exactly count items of
   itemsize bytes, or NULL with ValueError/TypeError set. */
const char *
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

PyObject *
refuse(void *self, const char *why)
{
    PyErr_SetString(PyExc_ValueError, why);
    Py_DECREF((PyObject *)self);
    return NULL;
}

/* The two-level class table: for each 256-code-point page, the page of
   classes it shares with every page alike.  A page inside one interval is
   the uniform page of that interval's class; only pages holding an
   interval boundary get pages of their own, so there are at most
   nclasses + min(nintervals, NPAGES) pages. */
static int
build_pages(ClassMap *self, Py_ssize_t nclasses, const uint32_t *starts,
            const uint8_t *classes, Py_ssize_t nintervals)
{
    Py_ssize_t most = nclasses + (nintervals < NPAGES ? nintervals : NPAGES);
    self->page_of = PyMem_Malloc(NPAGES * sizeof(uint16_t));
    self->pages = PyMem_Malloc((size_t)most * 256);
    Py_ssize_t *uniform = PyMem_Malloc((size_t)nclasses * sizeof(Py_ssize_t));
    if (self->page_of == NULL || self->pages == NULL || uniform == NULL) {
        PyMem_Free(uniform);
        PyErr_NoMemory();
        return -1;
    }
    for (Py_ssize_t c = 0; c < nclasses; c++) {
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

/* The tables both DFA objects share, read into *map and *moves (which the
   object's dealloc frees, set or not): 0, or -1 with an exception set,
   ValueError for a table that would make the run index out of bounds. */
int
read_tables(ClassMap *map, uint32_t **moves_out, const char *ascii_table,
            const char *starts_data, const uint8_t *classes, Py_ssize_t nintervals,
            const char *moves, Py_ssize_t nstates, Py_ssize_t nclasses)
{
    memcpy(map->ascii, ascii_table, 128);
    for (Py_ssize_t i = 0; i < 128; i++) {
        if (map->ascii[i] >= nclasses) {
            PyErr_SetString(PyExc_ValueError, "ascii: a class index out of range");
            return -1;
        }
    }
    uint32_t *starts = PyMem_Malloc((size_t)nintervals * sizeof(uint32_t));
    if (starts == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    for (Py_ssize_t i = 0; i < nintervals; i++) {
        starts[i] = u32_at(starts_data, i);
    }
    int ok = check_intervals(starts, classes, nintervals, nclasses);
    if (ok < 0) {
        PyErr_SetString(PyExc_ValueError, "starts must start at 0 and increase within "
                                          "0..0x10FFFF, and classes stay below nclasses");
    }
    else {
        ok = build_pages(map, nclasses, starts, classes, nintervals);
    }
    PyMem_Free(starts);
    if (ok < 0) {
        return -1;
    }
    uint32_t *out = *moves_out = PyMem_Malloc((size_t)(nstates * nclasses) * sizeof(uint32_t));
    if (out == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    for (Py_ssize_t i = 0; i < nstates * nclasses; i++) {
        uint16_t target = u16_at(moves, i);
        if (target >= nstates || (i < nclasses && target != 0)) {
            PyErr_SetString(PyExc_ValueError,
                            "moves: a target out of range, or a dead state that moves");
            return -1;
        }
        out[i] = (uint32_t)(target * nclasses);
    }
    return 0;
}
