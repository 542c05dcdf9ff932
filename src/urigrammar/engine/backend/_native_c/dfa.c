/*
 * The DFA core (dfa.h): a table's shared bytes read and checked, the
 * class map built from them, the division-free state of an offset, and
 * the loop tables.
 */

#include "dfa.h"

int
blob_of(PyObject *obj, Blob *b)
{
    if (!PyBytes_Check(obj)) {
        PyErr_SetString(PyExc_TypeError, "tables must be bytes");
        return -1;
    }
    b->p = (const unsigned char *)PyBytes_AsString(obj);
    b->size = PyBytes_Size(obj);
    b->at = 0;
    return b->p == NULL ? -1 : 0;
}

static int
bad(const char *why)
{
    PyErr_Format(PyExc_ValueError, "tables: %s", why);
    return -1;
}

/* The two-level class table: for each 256-code-point page, the page of
   classes it shares with every page alike.  A page inside one interval is
   the uniform page of that interval's class; only pages holding an
   interval boundary get pages of their own, so there are at most
   nclasses + min(nintervals, NPAGES) pages.  The ASCII table is the first
   page's first half. */
static int
build_pages(ClassMap *m, Py_ssize_t nclasses, const unsigned char *starts,
            const uint8_t *classes, Py_ssize_t nintervals)
{
    Py_ssize_t most = nclasses + (nintervals < NPAGES ? nintervals : NPAGES);
    m->page_of = PyMem_Malloc(NPAGES * sizeof(uint16_t));
    m->pages = PyMem_Malloc((size_t)most * 256);
    Py_ssize_t *uniform = PyMem_Malloc((size_t)nclasses * sizeof(Py_ssize_t));
    if (m->page_of == NULL || m->pages == NULL || uniform == NULL) {
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
        while (at + 1 < nintervals && le_u32(starts, at + 1) <= first) {
            at++;
        }
        uint32_t end = at + 1 < nintervals ? le_u32(starts, at + 1) - 1 : MAX_CODE;
        if (end >= last) {
            uint8_t c = classes[at];
            if (uniform[c] < 0) {
                uniform[c] = used++;
                memset(m->pages + uniform[c] * 256, c, 256);
            }
            m->page_of[page] = (uint16_t)uniform[c];
            continue;
        }
        uint8_t *mixed = m->pages + used * 256;
        Py_ssize_t k = at;
        for (uint32_t code = first; code <= last; code++) {
            while (k + 1 < nintervals && le_u32(starts, k + 1) <= code) {
                k++;
            }
            mixed[code - first] = classes[k];
        }
        m->page_of[page] = (uint16_t)used++;
    }
    PyMem_Free(uniform);
    /* Keep only the pages used (a few dozen, against the bound above). */
    uint8_t *kept = PyMem_Realloc(m->pages, (size_t)used * 256);
    if (kept != NULL) {
        m->pages = kept;
    }
    memcpy(m->ascii, m->pages + (size_t)m->page_of[0] * 256, 128);
    return 0;
}

/* 0 when the intervals are well formed, else -1 with ValueError set. */
static int
check_intervals(const unsigned char *starts, const uint8_t *classes, Py_ssize_t nintervals,
                Py_ssize_t nclasses)
{
    if (le_u32(starts, 0) != 0) {
        return bad("starts must start at 0");
    }
    for (Py_ssize_t i = 0; i < nintervals; i++) {
        uint32_t start = le_u32(starts, i);
        if ((i > 0 && start <= le_u32(starts, i - 1)) || start > MAX_CODE) {
            return bad("starts must increase within 0..0x10FFFF");
        }
        if (classes[i] >= nclasses) {
            return bad("classes: a class out of range");
        }
    }
    return 0;
}

/* nclasses as 2**shift times an odd number, and that number's inverse
   modulo 2**32. */
static void
find_inverse(Dfa *d)
{
    uint32_t odd = (uint32_t)d->nclasses;
    for (d->shift = 0; (odd & 1) == 0; d->shift++) {
        odd >>= 1;
    }
    /* Newton's iteration doubles the correct low bits each round: an odd
       number is its own inverse modulo 8 (3 bits), so 4 rounds give 48. */
    d->inverse = odd;
    for (int round = 0; round < 4; round++) {
        d->inverse *= 2 - odd * d->inverse;
    }
}

int
dfa_read(Dfa *d, Blob *b, const char *magic)
{
    memset(d, 0, sizeof *d);
    const unsigned char *found = blob_items(b, 4, 1);
    if (found == NULL || memcmp(found, magic, 4) != 0) {
        return bad("not of the expected layout");
    }
    uint32_t nintervals, nclasses, nstates, start;
    if (blob_u32(b, &nintervals) < 0 || blob_u32(b, &nclasses) < 0 ||
        blob_u32(b, &nstates) < 0 || blob_u32(b, &start) < 0) {
        return bad("truncated");
    }
    /* Bounded before they multiply: with nclasses below 256 the product
       fits a Py_ssize_t even where that is 32 bits. */
    if (nclasses < 1 || nclasses > 255 || nstates < 1 || nstates > 0x10000 || nintervals < 1 ||
        (uint64_t)nstates * nclasses > UINT32_MAX / 2) {
        return bad("sizes out of range");
    }
    if (start >= nstates) {
        return bad("start: a state out of range");
    }
    d->nclasses = nclasses;
    d->nstates = nstates;
    const unsigned char *starts = blob_items(b, nintervals, 4);
    const uint8_t *classes = blob_items(b, nintervals, 1);
    const unsigned char *moves = blob_items(b, (Py_ssize_t)nstates * nclasses, 2);
    if (starts == NULL || classes == NULL || moves == NULL) {
        return bad("truncated");
    }
    if (check_intervals(starts, classes, nintervals, nclasses) < 0 ||
        build_pages(&d->map, nclasses, starts, classes, nintervals) < 0) {
        return -1;
    }
    d->moves = PyMem_Malloc((size_t)nstates * nclasses * sizeof(uint32_t));
    if (d->moves == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    for (Py_ssize_t i = 0; i < (Py_ssize_t)nstates * nclasses; i++) {
        uint16_t target = le_u16(moves, i);
        if (target >= nstates || (i < (Py_ssize_t)nclasses && target != 0)) {
            return bad("moves: a target out of range, or a dead state that moves");
        }
        d->moves[i] = (uint32_t)target * nclasses;
    }
    d->start = start * nclasses;
    find_inverse(d);
    return 0;
}

void
dfa_free(Dfa *d)
{
    PyMem_Free(d->map.page_of);
    PyMem_Free(d->map.pages);
    PyMem_Free(d->moves);
    d->map.page_of = NULL;
    d->map.pages = NULL;
    d->moves = NULL;
}

int
loops_build(Loops *l, const Dfa *d, const uint16_t *value)
{
    Py_ssize_t nstates = d->nstates, nclasses = d->nclasses, count = 0;
    memset(l, 0, sizeof *l);
    l->cell = PyMem_Malloc((size_t)(nstates * nclasses) * sizeof(uint16_t));
    l->ascii_of = PyMem_Malloc((size_t)nstates * sizeof(uint32_t));
    l->ascii = PyMem_Malloc((size_t)nstates * 128 * sizeof(uint16_t));
    if (l->cell == NULL || l->ascii_of == NULL || l->ascii == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    for (Py_ssize_t i = 0; i < nstates * nclasses; i++) {
        /* The row a transition starts from is i rounded down to a row. */
        uint32_t row = (uint32_t)(i - i % nclasses);
        l->cell[i] = d->moves[i] == row ? (value != NULL ? value[i] : 0) : NO_LOOP;
    }
    for (Py_ssize_t s = 0; s < nstates; s++) {
        uint16_t *mine = l->ascii + count * 128;
        for (int c = 0; c < 128; c++) {
            mine[c] = l->cell[s * nclasses + d->map.ascii[c]];
        }
        Py_ssize_t k = 0;
        while (k < count && memcmp(l->ascii + k * 128, mine, 128 * sizeof(uint16_t)) != 0) {
            k++;
        }
        l->ascii_of[s] = (uint32_t)(k * 128);
        if (k == count) {
            count++;
        }
    }
    return 0;
}

void
loops_free(Loops *l)
{
    PyMem_Free(l->cell);
    PyMem_Free(l->ascii);
    PyMem_Free(l->ascii_of);
    memset(l, 0, sizeof *l);
}
