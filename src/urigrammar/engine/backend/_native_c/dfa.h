/*
 * The DFA core that the Runner and the Tagger share, and the bytes it is
 * read from.
 *
 * A table arrives as the bytes engine/automata/tables.py writes (its
 * docstring is the one description of the layout): little-endian, no
 * padding, a magic, the sizes, the intervals of the code points and their
 * classes, the moves, then what each kind adds.  Blob reads them front to
 * back, never past their end; dfa_read reads and checks the part both
 * kinds share into a Dfa, so that no index a run follows can fall outside
 * its table, whatever the caller passed.
 *
 * Loops holds, for each transition that stays in its state, what a run
 * records when it does (the runner nothing, 0; the tagger the
 * transition's record), NO_LOOP for one that leaves, and the same for the
 * ASCII code points, one table of 128 per state (states alike share one):
 * loops_skip steps over a run of them four characters a test, none
 * waiting on another.
 */

#ifndef URIGRAMMAR_NATIVE_DFA_H
#define URIGRAMMAR_NATIVE_DFA_H

#include "classmap.h"

/* ---- the bytes ----------------------------------------------------------- */

typedef struct {
    const unsigned char *p;
    Py_ssize_t size;
    Py_ssize_t at;
} Blob;

static inline uint16_t
le_u16(const unsigned char *p, Py_ssize_t i)
{
    p += 2 * i;
    return (uint16_t)(p[0] | (p[1] << 8));
}

static inline uint32_t
le_u32(const unsigned char *p, Py_ssize_t i)
{
    p += 4 * i;
    return (uint32_t)p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16) |
           ((uint32_t)p[3] << 24);
}

static inline int32_t
le_i32(const unsigned char *p, Py_ssize_t i)
{
    return (int32_t)le_u32(p, i);
}

/* The next count items of itemsize bytes, or NULL past the end. */
static inline const unsigned char *
blob_items(Blob *b, Py_ssize_t count, Py_ssize_t itemsize)
{
    if (count < 0 || count > (b->size - b->at) / itemsize) {
        return NULL;
    }
    const unsigned char *found = b->p + b->at;
    b->at += count * itemsize;
    return found;
}

/* The next u32 into *out: 0, or -1 past the end. */
static inline int
blob_u32(Blob *b, uint32_t *out)
{
    const unsigned char *p = blob_items(b, 1, 4);
    if (p == NULL) {
        return -1;
    }
    *out = le_u32(p, 0);
    return 0;
}

/* A bytes object's contents as a Blob: 0, or -1 with TypeError set. */
NATIVE_SHARED int
blob_of(PyObject *obj, Blob *b);

/* ---- the DFA --------------------------------------------------------------- */

typedef struct {
    ClassMap map;
    Py_ssize_t nclasses;
    Py_ssize_t nstates;
    uint32_t *moves; /* moves[off + class]: the target's row offset; 0 is dead */
    /* offset / nclasses without a division (tens of cycles, a sizeable
       part of a short text's run): nclasses is 2**shift times an odd
       number whose inverse modulo 2**32 is `inverse`, and an offset is an
       exact multiple of nclasses. */
    unsigned shift;
    uint32_t inverse;
    uint32_t start; /* the start state's row offset */
} Dfa;

/* The state whose row starts at offset off. */
static inline Py_ssize_t
dfa_state(const Dfa *d, uint32_t off)
{
    return (Py_ssize_t)((off >> d->shift) * d->inverse);
}

/* The shared part of a table's bytes into *d (zeroed first; dfa_free
   frees it whatever happened): the magic, the sizes, the intervals and
   their classes, the moves.  0, or -1 with ValueError set. */
NATIVE_SHARED int
dfa_read(Dfa *d, Blob *b, const char *magic);

NATIVE_SHARED void
dfa_free(Dfa *d);

/* ---- loops ---------------------------------------------------------------- */

/* No record is 0xFFFF: there are at most UINT16_MAX of them. */
#define NO_LOOP 0xFFFF

typedef struct {
    uint16_t *cell;     /* per transition: what it records when it loops */
    uint16_t *ascii;    /* tables of 128, by code point */
    uint32_t *ascii_of; /* per state: the offset of its table in ascii */
} Loops;

/* The loops of d, each looping transition recording value[cell] (NULL:
   0): 0, or -1 with MemoryError set (loops_free frees it either way). */
NATIVE_SHARED int
loops_build(Loops *l, const Dfa *d, const uint16_t *value);

NATIVE_SHARED void
loops_free(Loops *l);

/* Where a loop of the state at row `off` recording `want` ends, reading
   buf from i: four ASCII characters a test while they all stay, then one
   at a time, a character past 127 through the class map. */
static inline Py_ssize_t
loops_skip(const Loops *l, const Dfa *d, uint32_t off, uint16_t want, const Py_UCS4 *buf,
           Py_ssize_t i, Py_ssize_t n)
{
    const uint16_t *t = l->ascii + l->ascii_of[dfa_state(d, off)];
    for (;;) {
        while (i + 4 <= n) {
            Py_UCS4 a = buf[i], b = buf[i + 1], c = buf[i + 2], e = buf[i + 3];
            if ((a | b | c | e) >= 128 ||
                ((t[a] ^ want) | (t[b] ^ want) | (t[c] ^ want) | (t[e] ^ want)) != 0) {
                break;
            }
            i += 4;
        }
        while (i < n && buf[i] < 128 && t[buf[i]] == want) {
            i++;
        }
        if (i == n || buf[i] < 128 || l->cell[off + map_class(&d->map, buf[i])] != want) {
            return i;
        }
        i++;
    }
}

/* loops_skip over bytes, ASCII only: where the run of bytes below 128
   that stay ends. */
static inline size_t
loops_skip_bytes(const Loops *l, const Dfa *d, uint32_t off, uint16_t want,
                 const unsigned char *p, size_t i, size_t n)
{
    const uint16_t *t = l->ascii + l->ascii_of[dfa_state(d, off)];
    while (i + 4 <= n) {
        unsigned char a = p[i], b = p[i + 1], c = p[i + 2], e = p[i + 3];
        if (((a | b | c | e) & 0x80) ||
            ((t[a] ^ want) | (t[b] ^ want) | (t[c] ^ want) | (t[e] ^ want)) != 0) {
            break;
        }
        i += 4;
    }
    while (i < n && p[i] < 128 && t[p[i]] == want) {
        i++;
    }
    return i;
}

#endif /* URIGRAMMAR_NATIVE_DFA_H */
