/*
 * Tagger: a tagged DFA (engine/_tagged.py), for parse.
 *
 * The forward pass is a DFA run like the Runner's (over the same class
 * map, classmap.h), which also keeps the records of its transitions that
 * are not record 0 (the identity without tags), with the position after
 * each; a run of one record on a loop that keeps every thread in place is
 * kept once, at its end.  The backward pass follows the final state's
 * first accepting thread back through those records, to learn the thread
 * each was read in, then sets their tags forwards, a later value over an
 * earlier one.  Every index read from the tables at run time is checked
 * where it is used.
 */

#include "native.h"

typedef struct {
    PyObject_HEAD
    ClassMap map;
    Py_ssize_t nclasses;
    Py_ssize_t nstates;
    /* offset / nclasses as (offset >> shift) * inverse, without a
       division, as in the Runner (native.h). */
    unsigned shift;
    uint32_t inverse;
    uint32_t *moves;        /* the target's row offset; 0 is dead */
    uint16_t *recs;         /* the record of each transition */
    uint16_t *loop_rec;     /* a loop's record, else NO_LOOP (not a record) */
    /* loop_rec of each ASCII code point, by state: loop_ascii +
       loop_ascii_of[state] holds 128 (states with equal ones share). */
    uint16_t *loop_ascii;
    uint32_t *loop_ascii_of;
    Py_ssize_t nrecords;
    uint32_t *rec_first;    /* record r: threads rec_first[r] .. rec_first[r + 1] */
    uint16_t *rec_source;   /* per thread of a record: its source thread */
    uint16_t *rec_tagset;   /* and the tag set it sets */
    uint8_t *keeps;         /* per record: every thread stays where it was */
    /* per record: the source of every thread when they all share one,
       else -1; the backward walk then needs no thread to know the next */
    int32_t *rec_common;
    Py_ssize_t ntagsets;
    uint32_t *set_first;    /* tag set i: tags set_first[i] .. set_first[i + 1] */
    uint8_t *set_tags;
    int32_t *finals;        /* per state: the accepting thread, or -1 */
    Py_ssize_t nstart;
    uint16_t *start_tags;   /* per thread of the start state: its tag set */
    uint32_t start;         /* the start state's row offset */
    Py_ssize_t ntags;
    /* The output: slot i is the first capture among its candidates that
       took part (its text, or the candidate's constant), else its default. */
    Py_ssize_t nslots;
    Py_ssize_t *slot_first;  /* slot i: candidates slot_first[i] .. [i + 1] */
    Py_ssize_t *cand_capture;
    PyObject **cand_const;   /* NULL: the capture's text */
    PyObject **defaults;
    Py_ssize_t ncands;
    /* When not NULL: parse returns a record of this subclass of Record
       (record.c), whose slots are spans of the text or indexes into
       consts (every constant and non-None default of the plan). */
    PyObject *cls;
    allocfunc alloc;           /* cls's tp_alloc */
    PyObject *consts;
    Py_ssize_t *cand_index;    /* per candidate: its constant's index, or -1 */
    Py_ssize_t *default_index; /* per slot: its default's index, or -1 for None */
    int untrack;               /* records of cls are untracked by the collector */
    /* Slots chosen without a branch (tagger_spans), for at most
       FAST_CAPTURES captures and FAST_CONSTS constants, and a plan whose
       slots each list their captures in increasing order; NULL
       otherwise.  Every slot's output is then a pair: the values of a
       capture's tags (pair 2 c), or a pair of `fixed`, which holds
       (-1, -1) for None, then (-2 - k, 0) for constant k (pairs NONE_AT
       and CONST_AT + 2 k).  set_mask: per tag set, its tags as bits;
       slot_mask: per slot, bit 2 c for each candidate capture c; pick:
       per slot, FAST_CAPTURES + 1 pairs, by capture (the last for
       none). */
    Py_ssize_t *fixed;
    uint64_t *set_mask;
    uint64_t *slot_mask;
    uint8_t *pick;
} Tagger;

/* The branch-free choice: tags 0 .. 61, then the pair for None, then the
   constants' pairs; bit 62 of a reading's tags set stands for "no
   candidate took part". */
#define FAST_CAPTURES 31
#define NONE_BIT ((uint64_t)1 << (2 * FAST_CAPTURES))
#define NONE_AT (2 * FAST_CAPTURES)
#define CONST_AT (NONE_AT + 2)
#define FAST_CONSTS ((MAX_TAGS - CONST_AT) / 2)

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

/* loop_rec of a transition that leaves its state: no record is 0xFFFF,
   since there are at most UINT16_MAX records. */
#define NO_LOOP 0xFFFF

/* The records met, with the position after each; on the stack until it
   outgrows EVENTS_ON_STACK. */
#define EVENTS_ON_STACK 128

typedef struct {
    Py_ssize_t n, cap;
    Py_ssize_t *pos;
    uint16_t *rec;
    Py_ssize_t pos_stack[EVENTS_ON_STACK];
    uint16_t rec_stack[EVENTS_ON_STACK];
} Events;

/* events_push's growth: the arrays doubled (on the heap from the stack). */
static int
events_grow(Events *ev)
{
    Py_ssize_t cap = ev->cap * 2;
    if (cap > PY_SSIZE_T_MAX / (Py_ssize_t)sizeof(Py_ssize_t)) {
        PyErr_NoMemory();
        return -1;
    }
    Py_ssize_t *p = PyMem_Malloc((size_t)cap * sizeof(Py_ssize_t));
    uint16_t *r = PyMem_Malloc((size_t)cap * sizeof(uint16_t));
    if (p == NULL || r == NULL) {
        PyMem_Free(p);
        PyMem_Free(r);
        PyErr_NoMemory();
        return -1;
    }
    memcpy(p, ev->pos, (size_t)ev->n * sizeof(Py_ssize_t));
    memcpy(r, ev->rec, (size_t)ev->n * sizeof(uint16_t));
    if (ev->pos != ev->pos_stack) {
        PyMem_Free(ev->pos);
        PyMem_Free(ev->rec);
    }
    ev->pos = p;
    ev->rec = r;
    ev->cap = cap;
    return 0;
}

static inline int
events_push(Events *ev, Py_ssize_t pos, uint16_t rec)
{
    if (ev->n == ev->cap && events_grow(ev) < 0) {
        return -1;
    }
    ev->pos[ev->n] = pos;
    ev->rec[ev->n] = rec;
    ev->n++;
    return 0;
}

/* Blocks of records (1 to MAX_BLOCK) checked by block_collapses, with the
   verdicts: a few, since compaction and cycle following each ask about
   their own block, and a text may alternate between several. */
#define MAX_BLOCK 3
#define MEMO_ENTRIES 4

typedef struct {
    int len;
    uint16_t recs[MAX_BLOCK];
    int collapses;
} BlockVerdict;

typedef struct {
    BlockVerdict entries[MEMO_ENTRIES];
    int next; /* the entry replaced next */
} BlockMemo;

/* Backwards through the records recs[0..len) (forward order) from thread
   k: the thread reached in *k, the tags set added to bits; 0 when a
   thread falls outside a record (not a repeatable block). */
static int
block_walk(const Tagger *t, const uint16_t *recs, int len, Py_ssize_t *k, uint64_t *bits)
{
    for (int i = len - 1; i >= 0; i--) {
        uint32_t first = t->rec_first[recs[i]];
        if (*k < 0 || *k >= (Py_ssize_t)(t->rec_first[recs[i] + 1] - first)) {
            return 0;
        }
        uint16_t set = t->rec_tagset[first + *k];
        for (uint32_t j = t->set_first[set]; j < t->set_first[set + 1]; j++) {
            bits[t->set_tags[j] >> 6] |= (uint64_t)1 << (t->set_tags[j] & 63);
        }
        *k = t->rec_source[first + *k];
    }
    return 1;
}

/* Whether the block, run twice, reads backwards as its later run: from
   every thread k the later run leads to a thread j that the block leads
   back to itself, setting no tag the later run did not set from k.  The
   earlier run then adds no tag and moves no thread (see _tagged.py's
   _collapses, the same for one record on a loop). */
static int
block_collapses(const Tagger *t, const uint16_t *recs, int len)
{
    uint16_t last = recs[len - 1];
    Py_ssize_t width = (Py_ssize_t)(t->rec_first[last + 1] - t->rec_first[last]);
    for (Py_ssize_t k = 0; k < width; k++) {
        uint64_t later[MAX_TAGS / 64] = {0}, earlier[MAX_TAGS / 64] = {0};
        Py_ssize_t j = k;
        if (!block_walk(t, recs, len, &j, later)) {
            return 0;
        }
        Py_ssize_t back = j;
        if (!block_walk(t, recs, len, &back, earlier) || back != j) {
            return 0;
        }
        for (int w = 0; w < MAX_TAGS / 64; w++) {
            if (earlier[w] & ~later[w]) {
                return 0;
            }
        }
    }
    return 1;
}

/* Whether the block recs[0..len) collapses, remembered in memo. */
static int
memo_collapses(const Tagger *t, BlockMemo *memo, const uint16_t *recs, int len)
{
    for (int e = 0; e < MEMO_ENTRIES; e++) {
        BlockVerdict *v = &memo->entries[e];
        if (v->len != len) {
            continue;
        }
        int same = 1;
        for (int i = 0; same && i < len; i++) {
            same = v->recs[i] == recs[i];
        }
        if (same) {
            return v->collapses;
        }
    }
    BlockVerdict *v = &memo->entries[memo->next];
    memo->next = (memo->next + 1) % MEMO_ENTRIES;
    v->len = len;
    for (int i = 0; i < len; i++) {
        v->recs[i] = recs[i];
    }
    v->collapses = block_collapses(t, recs, len);
    return v->collapses;
}

/* After a push: when the records end with the same block twice (records
   0, the identity, are never stored, so the runs need not be adjacent in
   the text) and the block collapses, drop its earlier run.  A "%41" run
   or a "u:p%20" userinfo then keeps a few records, not one per cycle. */
static void
events_compact_block(const Tagger *t, Events *ev, BlockMemo *memo);

static inline void
events_compact(const Tagger *t, Events *ev, BlockMemo *memo, uint16_t last)
{
    /* Most pushes repeat no block: a block of len records ends twice
       only if the last record (`last`, just pushed) is also the len-th
       before it. */
    const uint16_t *end = ev->rec + ev->n;
    for (int len = 1; len <= MAX_BLOCK && 2 * len <= ev->n; len++) {
        if (last == end[-1 - len]) {
            events_compact_block(t, ev, memo);
            return;
        }
    }
}

static void
events_compact_block(const Tagger *t, Events *ev, BlockMemo *memo)
{
    const uint16_t *end = ev->rec + ev->n;
    for (int len = 1; len <= MAX_BLOCK && 2 * len <= ev->n; len++) {
        int same = 1;
        for (int i = 1; i <= len; i++) {
            if (end[-i] != end[-i - len]) {
                same = 0;
                break;
            }
        }
        if (!same) {
            continue;
        }
        if (memo_collapses(t, memo, end - len, len)) {
            Py_ssize_t at = ev->n - 2 * len;
            for (int i = 0; i < len; i++) {
                ev->pos[at + i] = ev->pos[at + len + i];
                ev->rec[at + i] = ev->rec[at + len + i];
            }
            ev->n -= len;
        }
        return;
    }
}

static void
events_free(Events *ev)
{
    if (ev->pos != ev->pos_stack) {
        PyMem_Free(ev->pos);
        PyMem_Free(ev->rec);
    }
}

/* A cycle of len states (rows[0] -> rows[1] ... -> rows[0], the step from
   rows[j] with record crecs[j]) has just been gone around once, ending at
   position `pos` (the position after buf[i - 1]).  When the records it
   stored are the last ones kept, at the positions that round gave them, and
   their block collapses (two rounds read backwards as the later one), every
   further round only moves those records forward: follow the cycle while
   it holds, its rows fixed, and move them.  Returns the index of the first
   character not followed. */
static Py_ssize_t
follow_cycle(const Tagger *t, const Py_UCS4 *buf, Py_ssize_t i, Py_ssize_t n, Py_ssize_t pos,
             const uint32_t *rows, const uint16_t *crecs, int len, Events *ev, BlockMemo *memo)
{
    uint16_t kept[MAX_BLOCK];
    Py_ssize_t kept_pos[MAX_BLOCK];
    int count = 0;
    for (int j = 0; j < len; j++) {
        if (crecs[j] != 0) {
            kept[count] = crecs[j];
            kept_pos[count] = pos - (len - 1) + j;
            count++;
        }
    }
    if (count > ev->n) {
        return i;
    }
    for (int j = 0; j < count; j++) {
        Py_ssize_t e = ev->n - count + j;
        if (ev->rec[e] != kept[j] || ev->pos[e] != kept_pos[j]) {
            return i;
        }
    }
    if (count > 0 && !memo_collapses(t, memo, kept, count)) {
        return i;
    }
    const uint32_t *moves = t->moves;
    const uint16_t *recs = t->recs;
    Py_ssize_t rounds = 0;
    while (i + len <= n) {
        int holds = 1;
        for (int j = 0; j < len; j++) {
            uint32_t cell = rows[j] + map_class(&t->map, buf[i + j]);
            if (moves[cell] != rows[(j + 1) % len] || recs[cell] != crecs[j]) {
                holds = 0;
                break;
            }
        }
        if (!holds) {
            break;
        }
        i += len;
        rounds++;
    }
    for (int j = 0; j < count; j++) {
        ev->pos[ev->n - count + j] += rounds * len;
    }
    return i;
}

/* The forward pass: 1 with the final state's number in *final when the
   DFA accepts text, 0 when it does not, -1 with an exception set. */
static int
tag_forward(const Tagger *t, Source *src, Events *ev, Py_ssize_t *final)
{
    Py_UCS4 buf[CHUNK];
    const uint32_t *moves = t->moves;
    const uint16_t *recs = t->recs;
    uint32_t off = t->start;
    /* The rows one and two steps back (0: none) and the records of the
       last two steps, to spot a cycle just completed. */
    uint32_t back2 = 0, back3 = 0;
    uint16_t rec1 = 0, rec2 = 0;
    BlockMemo memo;
    memset(&memo, 0, sizeof memo); /* len 0: no entry matches a block */
    for (;;) {
        Py_ssize_t at = src->at;
        Py_ssize_t n = source_next(src, buf);
        if (n <= 0) {
            if (n < 0) {
                return -1;
            }
            break;
        }
        Py_ssize_t i = 0;
        while (i < n) {
            uint32_t cell = off + map_class(&t->map, buf[i]);
            uint32_t next = moves[cell];
            uint16_t rec = recs[cell];
            i++;
            if (next == 0) {
                return 0;
            }
            if (next == off && (rec == 0 || t->keeps[rec])) {
                /* A loop that keeps every thread: only its last step can
                   matter backwards, so skip the run and keep that one. */
                Py_ssize_t from = at + i - 1;
                const uint16_t *loop_rec = t->loop_rec;
                const uint16_t *ascii_rec =
                    t->loop_ascii + t->loop_ascii_of[(off >> t->shift) * t->inverse];
                /* Four ASCII characters a test, none waiting on another,
                   then one at a time, through the class map past 127. */
                while (i + 4 <= n) {
                    Py_UCS4 a = buf[i], b = buf[i + 1], c = buf[i + 2], d = buf[i + 3];
                    if ((a | b | c | d) >= 128 ||
                        ((ascii_rec[a] ^ rec) | (ascii_rec[b] ^ rec) | (ascii_rec[c] ^ rec) |
                         (ascii_rec[d] ^ rec)) != 0) {
                        break;
                    }
                    i += 4;
                }
                while (i < n && loop_rec[off + map_class(&t->map, buf[i])] == rec) {
                    i++;
                }
                if (rec != 0) {
                    if (ev->n > 0 && ev->rec[ev->n - 1] == rec && ev->pos[ev->n - 1] == from) {
                        ev->pos[ev->n - 1] = at + i;
                    }
                    else if (events_push(ev, at + i, rec) < 0) {
                        return -1;
                    }
                    else {
                        events_compact(t, ev, &memo, rec);
                    }
                }
                continue;
            }
            if (rec != 0) {
                if (events_push(ev, at + i, rec) < 0) {
                    return -1;
                }
                events_compact(t, ev, &memo, rec);
            }
            if (next == back2 || next == back3) {
                /* A cycle of two or three states just completed: follow it
                   while it holds (see follow_cycle). */
                uint32_t rows[MAX_BLOCK] = {next, back2, off};
                uint16_t crecs[MAX_BLOCK] = {rec2, rec1, rec};
                int len = 3;
                if (next == back2) {
                    rows[1] = off;
                    crecs[0] = rec1;
                    crecs[1] = rec;
                    len = 2;
                }
                i = follow_cycle(t, buf, i, n, at + i, rows, crecs, len, ev, &memo);
            }
            back3 = back2;
            back2 = off;
            rec2 = rec1;
            rec1 = rec;
            off = next;
        }
    }
    Py_ssize_t state = (Py_ssize_t)((off >> t->shift) * t->inverse);
    if (src->ill_formed || t->finals[state] < 0) {
        return 0;
    }
    *final = state;
    return 1;
}

static PyObject *
inconsistent(void)
{
    PyErr_SetString(PyExc_RuntimeError, "tagged DFA tables are inconsistent");
    return NULL;
}

/* The backward pass: the reading's values and tags set; 0, or -1 with an
   exception set.  A tag never set reads -1 when `all` asks for it or the
   Tagger lacks the branch-free choice; that choice reads only the tags
   set, so the values are otherwise left as they were.  The thread each
   record was read in is found backwards, from the final state's
   accepting thread; then the records' tags are set forwards, a later one
   overwriting an earlier one, so each tag ends with its last value
   without reading what it holds. */
static int
tag_backward(const Tagger *t, const Events *ev, Py_ssize_t final, Reading *reading, int all)
{
    Py_ssize_t *values = reading->values;
    /* Per record met: the tag set of the thread it was read in. */
    uint16_t small[EVENTS_ON_STACK];
    uint16_t *sets = small;
    if (ev->n > EVENTS_ON_STACK) {
        sets = PyMem_Malloc((size_t)ev->n * sizeof(uint16_t));
        if (sets == NULL) {
            PyErr_NoMemory();
            return -1;
        }
    }
    int ok = 0;
    Py_ssize_t k = t->finals[final];
    for (Py_ssize_t e = ev->n - 1; e >= 0; e--) {
        uint16_t rec = ev->rec[e];
        uint32_t first = t->rec_first[rec];
        if (k < 0 || k >= (Py_ssize_t)(t->rec_first[rec + 1] - first)) {
            goto done;
        }
        sets[e] = t->rec_tagset[first + k];
        /* A branch, not a select: a record whose threads share their
           source (nearly half of a URL's) then breaks the chain of loads
           that the walk otherwise is. */
        int32_t common = t->rec_common[rec];
        if (common >= 0) {
            k = common;
        }
        else {
            k = t->rec_source[first + k];
        }
    }
    if (k < 0 || k >= t->nstart) {
        goto done;
    }
    if (all || t->pick == NULL) {
        memset(values, 0xFF, (size_t)t->ntags * sizeof *values); /* -1 in each */
    }
    uint16_t set = t->start_tags[k];
    for (uint32_t j = t->set_first[set]; j < t->set_first[set + 1]; j++) {
        values[t->set_tags[j]] = 0;
    }
    uint64_t bits = t->set_mask != NULL ? t->set_mask[set] : 0;
    for (Py_ssize_t e = 0; e < ev->n; e++) {
        Py_ssize_t pos = ev->pos[e];
        set = sets[e];
        for (uint32_t j = t->set_first[set]; j < t->set_first[set + 1]; j++) {
            values[t->set_tags[j]] = pos;
        }
        if (t->set_mask != NULL) {
            bits |= t->set_mask[set];
        }
    }
    reading->set = bits;
    ok = 1;
done:
    if (sets != small) {
        PyMem_Free(sets);
    }
    if (!ok) {
        inconsistent();
        return -1;
    }
    return 0;
}

/* 1 with the reading filled when text matches, 0 when not, -1 on error. */
static int
tag_run_source(const Tagger *t, Source *src, Reading *reading, int all)
{
    Events ev;
    ev.n = 0;
    ev.cap = EVENTS_ON_STACK;
    ev.pos = ev.pos_stack;
    ev.rec = ev.rec_stack;
    Py_ssize_t final = 0;
    int found = tag_forward(t, src, &ev, &final);
    if (found == 1 && tag_backward(t, &ev, final, reading, all) < 0) {
        found = -1;
    }
    reading->length = src->at;
    events_free(&ev);
    return found;
}

static int
tag_run(const Tagger *t, PyObject *text, Reading *reading, int all)
{
    Py_ssize_t length = PyUnicode_GetLength(text);
    if (length < 0) {
        return -1;
    }
    Source src;
    source_str(&src, text, length);
    return tag_run_source(t, &src, reading, all);
}

/* What columns.c reads of a Tagger (declared in native.h). */
int
tagger_run_source(PyObject *tagger, Source *src, Reading *reading)
{
    return tag_run_source((const Tagger *)tagger, src, reading, 0);
}

Py_ssize_t
tagger_nslots(PyObject *tagger)
{
    return ((const Tagger *)tagger)->nslots;
}

PyObject *
tagger_consts(PyObject *tagger)
{
    return ((const Tagger *)tagger)->consts;
}

/* tag_run on a method's argument: 1 with the reading filled when it is a str
   the DFA accepts, 0 when it is not accepted, -1 with an exception set
   (TypeError for anything but a str). */
static int
tag_text(const Tagger *t, PyObject *arg, Reading *reading, int all)
{
    if (check_str(arg) == NULL) {
        return -1;
    }
    return tag_run(t, arg, reading, all);
}

PyDoc_STRVAR(tags_doc,
"tags(text, /)\n--\n\n"
"Each tag's position (-1: never set) in the reading of text, as a list,\n"
"or None when the DFA does not accept text.");

static PyObject *
Tagger_tags(PyObject *self, PyObject *arg)
{
    Tagger *t = (Tagger *)self;
    Reading reading;
    int found = tag_text(t, arg, &reading, 1);
    if (found <= 0) {
        return found < 0 ? NULL : Py_NewRef(Py_None);
    }
    PyObject *out = PyList_New(t->ntags);
    if (out == NULL) {
        return NULL;
    }
    for (Py_ssize_t i = 0; i < t->ntags; i++) {
        PyObject *v = PyLong_FromSsize_t(reading.values[i]);
        if (v == NULL) {
            Py_DECREF(out);
            return NULL;
        }
        PyList_SetItem(out, i, v);
    }
    return out;
}

/* The record of cls for text, from the tags' positions: each slot the
   first candidate that took part, as a span or a constant's index, else
   its default; no string is made. */
static void
tagger_spans(const Tagger *t, const Reading *reading, Py_ssize_t *out);

void
tagger_slot_spans(PyObject *tagger, const Reading *reading, Py_ssize_t *out)
{
    tagger_spans((const Tagger *)tagger, reading, out);
}

static void
tagger_spans(const Tagger *t, const Reading *reading, Py_ssize_t *out)
{
    const Py_ssize_t *values = reading->values;
    if (t->pick != NULL) {
        /* Bit 2c: capture c took part (both its tags set).  A slot's
           first candidate that took part is its lowest such capture, the
           none bit when there is none, and what it gives is a pair of
           values: no branch, since which slots are present varies text
           by text and a branch on it would often be mispredicted. */
        uint64_t took = reading->set & (reading->set >> 1);
        for (Py_ssize_t s = 0; s < t->nslots; s++) {
            int cap = lowest_bit((took & t->slot_mask[s]) | NONE_BIT) >> 1;
            Py_ssize_t at = t->pick[s * (FAST_CAPTURES + 1) + cap];
            const Py_ssize_t *pair = at < NONE_AT ? values + at : t->fixed + (at - NONE_AT);
            out[2 * s] = pair[0];
            out[2 * s + 1] = pair[1];
        }
        return;
    }
    for (Py_ssize_t s = 0; s < t->nslots; s++) {
        Py_ssize_t start = -1, end = -1;
        if (t->default_index[s] >= 0) {
            start = -2 - t->default_index[s];
            end = 0;
        }
        for (Py_ssize_t c = t->slot_first[s]; c < t->slot_first[s + 1]; c++) {
            Py_ssize_t cap = t->cand_capture[c];
            Py_ssize_t opened = values[2 * cap], closed = values[2 * cap + 1];
            if (opened < 0 || closed < 0) {
                continue;
            }
            if (t->cand_index[c] >= 0) {
                start = -2 - t->cand_index[c];
                end = 0;
            }
            else {
                start = opened;
                end = closed;
            }
            break;
        }
        out[2 * s] = start;
        out[2 * s + 1] = end;
    }
}

/* The slots' spans for text, as a new array of 2 * nslots numbers (free
   it with PyMem_Free), or NULL with an exception set. */
static Py_ssize_t *
tagger_alloc_spans(const Tagger *t, Py_ssize_t *small, Py_ssize_t nsmall)
{
    if (2 * t->nslots <= nsmall) {
        return small;
    }
    Py_ssize_t *out = PyMem_Malloc((size_t)(2 * t->nslots) * sizeof(Py_ssize_t));
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
    PyObject *made = record_make((PyTypeObject *)t->cls, t->alloc, text, reading->length,
                                 t->consts, spans, t->nslots, t->untrack);
    if (spans != small) {
        PyMem_Free(spans);
    }
    return made;
}

PyDoc_STRVAR(spans_doc,
"spans(text, /)\n--\n\n"
"The slots for text as a record's spans (two numbers per slot: a span,\n"
"-1, -1 for None, or -2 - k, 0 for consts[k]), as a tuple, or None when\n"
"the DFA does not accept text.");

static PyObject *
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
    PyObject *out = PyTuple_New(2 * t->nslots);
    for (Py_ssize_t i = 0; out != NULL && i < 2 * t->nslots; i++) {
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

static PyObject *
Tagger_get_consts(PyObject *self, void *Py_UNUSED(closure))
{
    return Py_NewRef(((Tagger *)self)->consts);
}

PyDoc_STRVAR(parse_doc,
"parse(text, /)\n--\n\n"
"The output slots for text (see the plan), as a tuple or as a record of\n"
"cls, or None when the DFA does not accept text.");

PyObject *
Tagger_parse(PyObject *self, PyObject *arg)
{
    Tagger *t = (Tagger *)self;
    Reading reading;
    /* A record reads only the slots' spans; the tuple reads the tags. */
    int found = tag_text(t, arg, &reading, t->cls == NULL);
    if (found <= 0) {
        return found < 0 ? NULL : Py_NewRef(Py_None);
    }
    if (t->cls != NULL) {
        return tagger_record(t, arg, &reading);
    }
    PyObject *out = PyTuple_New(t->nslots);
    if (out == NULL) {
        return NULL;
    }
    for (Py_ssize_t s = 0; s < t->nslots; s++) {
        PyObject *value = t->defaults[s];
        Py_INCREF(value);
        for (Py_ssize_t c = t->slot_first[s]; c < t->slot_first[s + 1]; c++) {
            Py_ssize_t cap = t->cand_capture[c];
            Py_ssize_t opened = reading.values[2 * cap], closed = reading.values[2 * cap + 1];
            if (opened < 0 || closed < 0) {
                continue;
            }
            Py_DECREF(value);
            if (t->cand_const[c] != NULL) {
                value = t->cand_const[c];
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

/* Each state's loop_rec over the ASCII code points (Tagger's loop_ascii
   and loop_ascii_of), equal tables shared: 0, or -1 with MemoryError. */
static int
find_loop_ascii(Tagger *t)
{
    Py_ssize_t nstates = t->nstates, nclasses = t->nclasses, count = 0;
    t->loop_ascii_of = PyMem_Malloc((size_t)nstates * sizeof(uint32_t));
    t->loop_ascii = PyMem_Malloc((size_t)nstates * 128 * sizeof(uint16_t));
    if (t->loop_ascii_of == NULL || t->loop_ascii == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    for (Py_ssize_t s = 0; s < nstates; s++) {
        uint16_t *mine = t->loop_ascii + count * 128;
        for (int c = 0; c < 128; c++) {
            mine[c] = t->loop_rec[s * nclasses + t->map.ascii[c]];
        }
        Py_ssize_t k = 0;
        while (k < count && memcmp(t->loop_ascii + k * 128, mine, 128 * sizeof(uint16_t)) != 0) {
            k++;
        }
        t->loop_ascii_of[s] = (uint32_t)(k * 128);
        if (k == count) {
            count++;
        }
    }
    return 0;
}

/* A table of count items of `itemsize` bytes, copied into new memory,
   or NULL with an error set. */
static void *
copy_table(PyObject *obj, const char *what, Py_ssize_t itemsize, Py_ssize_t count)
{
    const char *data = table(obj, what, itemsize, count);
    if (data == NULL) {
        return NULL;
    }
    void *out = PyMem_Malloc(count > 0 ? (size_t)(itemsize * count) : 1);
    if (out == NULL) {
        PyErr_NoMemory();
        return NULL;
    }
    memcpy(out, data, (size_t)(itemsize * count));
    return out;
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
    self->slot_first = PyMem_Malloc((size_t)(nslots + 1) * sizeof(Py_ssize_t));
    self->defaults = PyMem_Calloc((size_t)nslots + 1, sizeof(PyObject *));
    self->cand_capture = PyMem_Malloc((size_t)ncands * sizeof(Py_ssize_t) + 1);
    self->cand_const = PyMem_Calloc((size_t)ncands + 1, sizeof(PyObject *));
    if (self->slot_first == NULL || self->defaults == NULL || self->cand_capture == NULL ||
        self->cand_const == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    self->nslots = nslots;
    self->ncands = ncands;
    Py_ssize_t c = 0;
    for (Py_ssize_t s = 0; s < nslots; s++) {
        PyObject *slot = PyTuple_GetItem(plan, s);
        PyObject *cands = PyTuple_GetItem(slot, 1);
        self->defaults[s] = PyTuple_GetItem(slot, 0);
        Py_INCREF(self->defaults[s]);
        self->slot_first[s] = c;
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
            self->cand_capture[c] = cap;
            PyObject *constant = PyTuple_GetItem(cand, 1);
            if (constant != Py_None) {
                Py_INCREF(constant);
                self->cand_const[c] = constant;
            }
        }
    }
    self->slot_first[nslots] = c;
    return 0;
}

/* The index of constant in self->consts, appended when new; -1 with an
   exception set. */
static Py_ssize_t
const_index(Tagger *self, PyObject *constant)
{
    Py_ssize_t n = PyList_Size(self->consts);
    for (Py_ssize_t k = 0; k < n; k++) {
        int same = PyObject_RichCompareBool(PyList_GetItem(self->consts, k), constant, Py_EQ);
        if (same != 0) {
            return same < 0 ? -1 : k;
        }
    }
    return PyList_Append(self->consts, constant) < 0 ? -1 : n;
}

/* For a record-making Tagger: the plan's constants and non-None defaults
   as one tuple (self->consts), and each one's index. */
static int
read_consts(Tagger *self)
{
    self->cand_index = PyMem_Malloc((size_t)self->ncands * sizeof(Py_ssize_t) + 1);
    self->default_index = PyMem_Malloc((size_t)self->nslots * sizeof(Py_ssize_t) + 1);
    self->consts = PyList_New(0);
    if (self->cand_index == NULL || self->default_index == NULL || self->consts == NULL) {
        if (!PyErr_Occurred()) {
            PyErr_NoMemory();
        }
        return -1;
    }
    for (Py_ssize_t s = 0; s < self->nslots; s++) {
        self->default_index[s] = -1;
        if (self->defaults[s] != Py_None &&
            (self->default_index[s] = const_index(self, self->defaults[s])) < 0) {
            return -1;
        }
    }
    for (Py_ssize_t c = 0; c < self->ncands; c++) {
        self->cand_index[c] = -1;
        if (self->cand_const[c] != NULL &&
            (self->cand_index[c] = const_index(self, self->cand_const[c])) < 0) {
            return -1;
        }
    }
    PyObject *frozen = PyList_AsTuple(self->consts);
    Py_DECREF(self->consts);
    self->consts = frozen;
    return frozen == NULL ? -1 : 0;
}

/* Each record's rec_common: 0, or -1 with MemoryError. */
static int
find_common_sources(Tagger *self)
{
    self->rec_common = PyMem_Malloc((size_t)self->nrecords * sizeof(int32_t));
    if (self->rec_common == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    for (Py_ssize_t r = 0; r < self->nrecords; r++) {
        uint32_t first = self->rec_first[r], stop = self->rec_first[r + 1];
        int32_t common = first < stop ? self->rec_source[first] : -1;
        for (uint32_t i = first; common >= 0 && i < stop; i++) {
            if (self->rec_source[i] != common) {
                common = -1;
            }
        }
        self->rec_common[r] = common;
    }
    return 0;
}

/* The tables of the branch-free slot choice (set_mask, slot_mask, pick),
   when the tags and the plan allow it: 0 (with or without them), or -1
   with MemoryError. */
static int
find_fast_choice(Tagger *self)
{
    Py_ssize_t nconsts = PyTuple_Size(self->consts);
    if (self->ntags > 2 * FAST_CAPTURES || nconsts > FAST_CONSTS) {
        return 0;
    }
    for (Py_ssize_t s = 0; s < self->nslots; s++) {
        for (Py_ssize_t c = self->slot_first[s] + 1; c < self->slot_first[s + 1]; c++) {
            if (self->cand_capture[c] <= self->cand_capture[c - 1]) {
                return 0; /* the lowest capture would not be the first */
            }
        }
    }
    Py_ssize_t width = FAST_CAPTURES + 1;
    self->fixed = PyMem_Malloc((size_t)(CONST_AT - NONE_AT + 2 * nconsts) * sizeof(Py_ssize_t));
    self->set_mask = PyMem_Calloc((size_t)self->ntagsets, sizeof(uint64_t));
    self->slot_mask = PyMem_Calloc((size_t)self->nslots + 1, sizeof(uint64_t));
    self->pick = PyMem_Calloc((size_t)(self->nslots * width) + 1, 1);
    if (self->fixed == NULL || self->set_mask == NULL || self->slot_mask == NULL ||
        self->pick == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    self->fixed[0] = self->fixed[1] = -1; /* pair NONE_AT */
    for (Py_ssize_t k = 0; k < nconsts; k++) {
        self->fixed[CONST_AT - NONE_AT + 2 * k] = -2 - k;
        self->fixed[CONST_AT - NONE_AT + 2 * k + 1] = 0;
    }
    for (Py_ssize_t i = 0; i < self->ntagsets; i++) {
        for (uint32_t j = self->set_first[i]; j < self->set_first[i + 1]; j++) {
            self->set_mask[i] |= (uint64_t)1 << self->set_tags[j];
        }
    }
    for (Py_ssize_t s = 0; s < self->nslots; s++) {
        uint8_t *pick = self->pick + s * width;
        for (Py_ssize_t c = self->slot_first[s]; c < self->slot_first[s + 1]; c++) {
            Py_ssize_t cap = self->cand_capture[c], k = self->cand_index[c];
            self->slot_mask[s] |= (uint64_t)1 << (2 * cap);
            pick[cap] = (uint8_t)(k >= 0 ? CONST_AT + 2 * k : 2 * cap);
        }
        Py_ssize_t k = self->default_index[s];
        pick[FAST_CAPTURES] = (uint8_t)(k >= 0 ? CONST_AT + 2 * k : NONE_AT);
    }
    return 0;
}

static PyObject *
Tagger_new(PyTypeObject *type, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"ascii", "starts", "classes", "nclasses", "moves", "recs",
                             "rec_first", "rec_source", "rec_tagset", "keeps",
                             "set_first", "set_tags", "finals", "start_tags", "ntags",
                             "plan", "into", NULL};
    PyObject *ascii, *starts_obj, *classes_obj, *moves_obj, *recs_obj, *rec_first_obj,
        *rec_source_obj, *rec_tagset_obj, *keeps_obj, *set_first_obj, *set_tags_obj,
        *finals_obj, *start_tags_obj, *plan, *cls = Py_None;
    Py_ssize_t nclasses, ntags;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "SSSnSSSSSSSSSSnO|O", kwlist, &ascii,
                                     &starts_obj, &classes_obj, &nclasses, &moves_obj,
                                     &recs_obj, &rec_first_obj, &rec_source_obj,
                                     &rec_tagset_obj, &keeps_obj, &set_first_obj,
                                     &set_tags_obj, &finals_obj, &start_tags_obj, &ntags,
                                     &plan, &cls)) {
        return NULL;
    }
    if (cls != Py_None) {
        PyObject *module = PyType_GetModule(type);
        if (module == NULL) {
            return NULL;
        }
        PyObject *record_type = ((module_state *)PyModule_GetState(module))->record_type;
        if (!PyType_Check(cls) ||
            !PyType_IsSubtype((PyTypeObject *)cls, (PyTypeObject *)record_type)) {
            PyErr_SetString(PyExc_TypeError, "into must be None or a subclass of Record");
            return NULL;
        }
    }
    Py_ssize_t nintervals = PyBytes_Size(classes_obj);
    Py_ssize_t nstates = PyBytes_Size(finals_obj) / 4;
    Py_ssize_t nrecords = PyBytes_Size(keeps_obj);
    Py_ssize_t nthreads = PyBytes_Size(rec_source_obj) / 2;
    Py_ssize_t ntagsets = PyBytes_Size(set_first_obj) / 4 - 1;
    Py_ssize_t nsettags = PyBytes_Size(set_tags_obj);
    Py_ssize_t nstart = PyBytes_Size(start_tags_obj) / 2;
    if (nclasses < 1 || nclasses > 256 || nstates < 2 || nintervals < 1 ||
        nstates > (Py_ssize_t)UINT16_MAX || nrecords < 1 || nrecords > (Py_ssize_t)UINT16_MAX ||
        ntagsets < 1 || ntagsets > (Py_ssize_t)UINT16_MAX || nthreads > (Py_ssize_t)UINT32_MAX / 2 ||
        nsettags > (Py_ssize_t)UINT32_MAX / 2 || ntags < 0 || ntags > MAX_TAGS || ntags % 2 ||
        nstart < 1 || (uint64_t)nstates * (uint64_t)nclasses > UINT32_MAX / 2) {
        PyErr_SetString(PyExc_ValueError, "table sizes out of range");
        return NULL;
    }
    const char *ascii_table = table(ascii, "ascii", 1, 128);
    const char *starts_data = table(starts_obj, "starts", 4, nintervals);
    const uint8_t *classes = (const uint8_t *)table(classes_obj, "classes", 1, nintervals);
    const char *moves = table(moves_obj, "moves", 2, nstates * nclasses);
    if (ascii_table == NULL || starts_data == NULL || classes == NULL || moves == NULL) {
        return NULL;
    }
    allocfunc alloc = (allocfunc)PyType_GetSlot(type, Py_tp_alloc);
    Tagger *self = (Tagger *)alloc(type, 0);
    if (self == NULL) {
        return NULL;
    }
    self->nclasses = nclasses;
    uint32_t odd = (uint32_t)nclasses;
    for (self->shift = 0; (odd & 1) == 0; self->shift++) {
        odd >>= 1;
    }
    /* Newton's iteration doubles the bits of an inverse modulo 2**32; an
       odd number is its own inverse modulo 8 (3 bits), so 4 rounds give 48. */
    self->inverse = odd;
    for (int round = 0; round < 4; round++) {
        self->inverse *= 2 - odd * self->inverse;
    }
    self->nstates = nstates;
    self->nrecords = nrecords;
    self->ntagsets = ntagsets;
    self->nstart = nstart;
    self->ntags = ntags;
    self->start = (uint32_t)nclasses; /* state 1 */
    if (read_tables(&self->map, &self->moves, ascii_table, starts_data, classes, nintervals,
                    moves, nstates, nclasses) < 0) {
        Py_DECREF(self);
        return NULL;
    }
    self->recs = copy_table(recs_obj, "recs", 2, nstates * nclasses);
    self->rec_first = copy_table(rec_first_obj, "rec_first", 4, nrecords + 1);
    self->rec_source = copy_table(rec_source_obj, "rec_source", 2, nthreads);
    self->rec_tagset = copy_table(rec_tagset_obj, "rec_tagset", 2, nthreads);
    self->keeps = copy_table(keeps_obj, "keeps", 1, nrecords);
    self->set_first = copy_table(set_first_obj, "set_first", 4, ntagsets + 1);
    self->set_tags = copy_table(set_tags_obj, "set_tags", 1, nsettags);
    self->finals = copy_table(finals_obj, "finals", 4, nstates);
    self->start_tags = copy_table(start_tags_obj, "start_tags", 2, nstart);
    if (self->recs == NULL || self->rec_first == NULL || self->rec_source == NULL ||
        self->rec_tagset == NULL || self->keeps == NULL || self->set_first == NULL ||
        self->set_tags == NULL || self->finals == NULL || self->start_tags == NULL) {
        Py_DECREF(self);
        return NULL;
    }
    /* Every index the passes follow without a check of their own. */
    for (Py_ssize_t i = 0; i < nstates * nclasses; i++) {
        if (self->recs[i] >= nrecords) {
            return refuse(self, "recs: a record out of range");
        }
    }
    self->loop_rec = PyMem_Malloc((size_t)(nstates * nclasses) * sizeof(uint16_t) + 1);
    if (self->loop_rec == NULL) {
        Py_DECREF(self);
        return PyErr_NoMemory();
    }
    for (Py_ssize_t i = 0; i < nstates * nclasses; i++) {
        /* The row a transition starts from is i rounded down to a row. */
        uint32_t row = (uint32_t)(i - i % nclasses);
        self->loop_rec[i] = self->moves[i] == row ? self->recs[i] : NO_LOOP;
    }
    if (find_loop_ascii(self) < 0) {
        Py_DECREF(self);
        return NULL;
    }
    if (self->rec_first[0] != 0 || self->rec_first[nrecords] != (uint32_t)nthreads) {
        return refuse(self, "rec_first must run from 0 to the thread count");
    }
    for (Py_ssize_t r = 0; r < nrecords; r++) {
        if (self->rec_first[r] > self->rec_first[r + 1]) {
            return refuse(self, "rec_first must not decrease");
        }
    }
    for (Py_ssize_t i = 0; i < nthreads; i++) {
        if (self->rec_tagset[i] >= ntagsets) {
            return refuse(self, "rec_tagset: a tag set out of range");
        }
    }
    if (self->set_first[0] != 0 || self->set_first[ntagsets] != (uint32_t)nsettags) {
        return refuse(self, "set_first must run from 0 to the tag count");
    }
    for (Py_ssize_t i = 0; i < ntagsets; i++) {
        if (self->set_first[i] > self->set_first[i + 1]) {
            return refuse(self, "set_first must not decrease");
        }
    }
    for (Py_ssize_t i = 0; i < nsettags; i++) {
        if (self->set_tags[i] >= ntags) {
            return refuse(self, "set_tags: a tag out of range");
        }
    }
    for (Py_ssize_t i = 0; i < nstart; i++) {
        if (self->start_tags[i] >= ntagsets) {
            return refuse(self, "start_tags: a tag set out of range");
        }
    }
    for (Py_ssize_t i = 0; i < nstates; i++) {
        if (self->finals[i] < -1 || self->finals[i] > UINT16_MAX) {
            return refuse(self, "finals: a thread out of range");
        }
    }
    if (read_plan(self, plan) < 0) {
        Py_DECREF(self);
        return NULL;
    }
    if (read_consts(self) < 0 || find_common_sources(self) < 0 || find_fast_choice(self) < 0) {
        Py_DECREF(self);
        return NULL;
    }
    if (cls != Py_None) {
        self->cls = Py_NewRef(cls);
        int plain = record_plain(cls);
        if (plain < 0) {
            Py_DECREF(self);
            return NULL;
        }
        /* The constants come from the plan: untracked records may hold
           them only when they are strings, which hold nothing. */
        for (Py_ssize_t k = 0; plain && k < PyTuple_Size(self->consts); k++) {
            plain = PyUnicode_CheckExact(PyTuple_GetItem(self->consts, k));
        }
        self->untrack = plain && (PyType_GetFlags((PyTypeObject *)cls) & Py_TPFLAGS_HAVE_GC);
        self->alloc = (allocfunc)PyType_GetSlot((PyTypeObject *)cls, Py_tp_alloc);
        if (!record_consts_allowed(cls, self->consts)) {
            Py_DECREF(self);
            return NULL;
        }
        if (PyTuple_Size(self->consts) >= MAX_CONSTS) {
            return refuse(self, "consts: too many constants");
        }
    }
    return (PyObject *)self;
}

static void
Tagger_dealloc(PyObject *obj)
{
    Tagger *self = (Tagger *)obj;
    PyTypeObject *type = Py_TYPE(obj);
    PyMem_Free(self->map.page_of);
    PyMem_Free(self->map.pages);
    PyMem_Free(self->moves);
    PyMem_Free(self->recs);
    PyMem_Free(self->loop_rec);
    PyMem_Free(self->loop_ascii);
    PyMem_Free(self->loop_ascii_of);
    PyMem_Free(self->rec_first);
    PyMem_Free(self->rec_source);
    PyMem_Free(self->rec_tagset);
    PyMem_Free(self->keeps);
    PyMem_Free(self->rec_common);
    PyMem_Free(self->fixed);
    PyMem_Free(self->set_mask);
    PyMem_Free(self->slot_mask);
    PyMem_Free(self->pick);
    PyMem_Free(self->set_first);
    PyMem_Free(self->set_tags);
    PyMem_Free(self->finals);
    PyMem_Free(self->start_tags);
    if (self->defaults != NULL) {
        for (Py_ssize_t s = 0; s < self->nslots; s++) {
            Py_XDECREF(self->defaults[s]);
        }
    }
    if (self->cand_const != NULL) {
        for (Py_ssize_t c = 0; c < self->ncands; c++) {
            Py_XDECREF(self->cand_const[c]);
        }
    }
    PyMem_Free(self->defaults);
    PyMem_Free(self->cand_const);
    PyMem_Free(self->cand_capture);
    PyMem_Free(self->slot_first);
    PyMem_Free(self->cand_index);
    PyMem_Free(self->default_index);
    Py_XDECREF(self->consts);
    Py_XDECREF(self->cls);
    freefunc tp_free = (freefunc)PyType_GetSlot(type, Py_tp_free);
    tp_free(obj);
    Py_DECREF(type);
}

static PyMethodDef Tagger_methods[] = {
    {"parse", Tagger_parse, METH_O, parse_doc},
    {"tags", Tagger_tags, METH_O, tags_doc},
    {"spans", Tagger_spans, METH_O, spans_doc},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef Tagger_getset[] = {
    {"consts", Tagger_get_consts, NULL, "The constants the spans index.", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

PyDoc_STRVAR(Tagger_doc,
"Tagger(ascii, starts, classes, nclasses, moves, recs, rec_first, rec_source,\n"
"       rec_tagset, keeps, set_first, set_tags, finals, start_tags, ntags, plan,\n"
"       into=None)\n--\n\n"
"A tagged DFA over classes of code points, from engine._tagged's tables.");

static PyType_Slot Tagger_slots[] = {
    {Py_tp_new, Tagger_new},
    {Py_tp_dealloc, Tagger_dealloc},
    {Py_tp_methods, Tagger_methods},
    {Py_tp_getset, Tagger_getset},
    {Py_tp_doc, (void *)Tagger_doc},
    {0, NULL},
};

PyType_Spec Tagger_spec = {
    .name = "urigrammar.engine.backend._native.Tagger",
    .basicsize = sizeof(Tagger),
    .itemsize = 0,
    .flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_IMMUTABLETYPE,
    .slots = Tagger_slots,
};
