/*
 * Tagger: a tagged DFA (engine/automata/tagged.py), for parse: its tables,
 * read from their bytes (engine/automata/tables.py; the shared part by
 * dfa.c), and the passes that read where each capture matched.  plan.c
 * turns that reading into the output.
 *
 * The forward pass is a DFA run like the Runner's (over the same class
 * map), which also keeps the records of its transitions that are not
 * record 0 (the identity without tags), with the position after each; a
 * run of one record on a loop that keeps every thread in place is kept
 * once, at its end.  The backward pass follows the final state's first
 * accepting thread back through those records, to learn the thread each
 * was read in, then sets their tags forwards, a later value over an
 * earlier one.  Once a run enters a state from which no tag can be set by
 * a record whose threads all share one history (`settles`, `untagged`),
 * the tags are known: the rest of the text is a plain DFA run, which is
 * most of a URL when only its host or port is asked for.  Every index
 * read from the tables at run time is checked where it is used.
 */

#include "tagger.h"

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

/* events_push's growth: the arrays doubled (on the heap from the stack),
   with the C library's allocator, which needs no GIL: a column's rows
   run without it.  TAG_NO_MEMORY, with no exception set, where it cannot. */
static int
events_grow(Events *ev)
{
    Py_ssize_t cap = ev->cap * 2;
    if (cap > PY_SSIZE_T_MAX / (Py_ssize_t)sizeof(Py_ssize_t)) {
        return TAG_NO_MEMORY;
    }
    Py_ssize_t *p = malloc((size_t)cap * sizeof(Py_ssize_t));
    uint16_t *r = malloc((size_t)cap * sizeof(uint16_t));
    if (p == NULL || r == NULL) {
        free(p);
        free(r);
        return TAG_NO_MEMORY;
    }
    memcpy(p, ev->pos, (size_t)ev->n * sizeof(Py_ssize_t));
    memcpy(r, ev->rec, (size_t)ev->n * sizeof(uint16_t));
    if (ev->pos != ev->pos_stack) {
        free(ev->pos);
        free(ev->rec);
    }
    ev->pos = p;
    ev->rec = r;
    ev->cap = cap;
    return 0;
}

static inline int
events_push(Events *ev, Py_ssize_t pos, uint16_t rec)
{
    if (ev->n == ev->cap) {
        int grown = events_grow(ev);
        if (grown < 0) {
            return grown;
        }
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
        free(ev->pos);
        free(ev->rec);
    }
}

/* What the forward pass reads: code points decoded into a buffer
   (narrow 0), or a row's bytes in place (narrow 1), which it reads while
   they are ASCII.  Each function below that reads characters takes
   `narrow` as a constant of its caller, and is inlined into two loops,
   one for each. */
#if defined(__GNUC__)
#define ALWAYS_INLINE inline __attribute__((always_inline))
#else
#define ALWAYS_INLINE inline
#endif

static ALWAYS_INLINE Py_UCS4
char_at(const void *chars, int narrow, Py_ssize_t i)
{
    return narrow ? ((const unsigned char *)chars)[i] : ((const Py_UCS4 *)chars)[i];
}

/* The class of a character read; a byte past ASCII is never asked. */
static ALWAYS_INLINE uint8_t
class_of(const Tagger *t, int narrow, Py_UCS4 c)
{
    return narrow ? t->dfa.map.ascii[c] : map_class(&t->dfa.map, c);
}

static ALWAYS_INLINE Py_ssize_t
skip_loop(const Tagger *t, uint32_t off, uint16_t want, const void *chars, int narrow,
          Py_ssize_t i, Py_ssize_t n)
{
    if (narrow) {
        return (Py_ssize_t)loops_skip_bytes(&t->loops, &t->dfa, off, want, chars, (size_t)i,
                                            (size_t)n);
    }
    return loops_skip(&t->loops, &t->dfa, off, want, chars, i, n);
}

/* A run reading bytes in place that meets one past ASCII: the row is run
   again, decoded. */
#define NOT_ASCII (-10)
/* A run that reaches the dead state: the text does not match. */
#define DEAD (-11)

/* The transition from the state at row `row` on character i: 0 with its
   cell in *cell, or NOT_ASCII for a byte past ASCII read in place. */
static ALWAYS_INLINE int
step_cell(const Tagger *t, const void *chars, int narrow, Py_ssize_t i, uint32_t row,
          uint32_t *cell)
{
    Py_UCS4 c = char_at(chars, narrow, i);
    if (narrow && c >= 128) {
        return NOT_ASCII;
    }
    *cell = row + class_of(t, narrow, c);
    return 0;
}

/* A cycle of len states (rows[0] -> rows[1] ... -> rows[0], the step from
   rows[j] with record crecs[j]) has just been gone around once, ending at
   position `pos` (the position after character i - 1).  When the records
   it stored are the last ones kept, at the positions that round gave them,
   and their block collapses (two rounds read backwards as the later one),
   every further round only moves those records forward: follow the cycle
   while it holds, its rows fixed, and move them.  Returns the index of the
   first character not followed. */
static ALWAYS_INLINE Py_ssize_t
follow_cycle(const Tagger *t, const void *chars, int narrow, Py_ssize_t i, Py_ssize_t n,
             Py_ssize_t pos, const uint32_t *rows, const uint16_t *crecs, int len, Events *ev,
             BlockMemo *memo)
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
    const uint32_t *moves = t->dfa.moves;
    const uint16_t *recs = t->recs;
    Py_ssize_t rounds = 0;
    while (i + len <= n) {
        int holds = 1;
        for (int j = 0; j < len; j++) {
            uint32_t cell;
            if (step_cell(t, chars, narrow, i + j, rows[j], &cell) < 0 ||
                moves[cell] != rows[(j + 1) % len] || recs[cell] != crecs[j]) {
                /* the cycle ends here (at a byte past ASCII too: the main loop reads it) */
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

/* A run from the state at row *off over characters [i, n) that records
   nothing: the rest of a text once its tags are settled.  Returns n,
   DEAD, or NOT_ASCII. */
static ALWAYS_INLINE Py_ssize_t
run_settled(const Tagger *t, const void *chars, int narrow, Py_ssize_t i, Py_ssize_t n,
            uint32_t *off)
{
    const uint32_t *moves = t->dfa.moves;
    uint32_t row = *off;
    while (i < n) {
        uint32_t cell;
        if (step_cell(t, chars, narrow, i, row, &cell) < 0) {
            return NOT_ASCII;
        }
        uint32_t next = moves[cell];
        i++;
        if (next == 0) {
            return DEAD;
        }
        if (next == row) {
            i = skip_loop(t, row, t->recs[cell], chars, narrow, i, n);
            continue;
        }
        row = next;
    }
    *off = row;
    return n;
}

/* Whether the record just stored, into the state at row `next`, settles
   every tag (see Tagger.settles): the run need keep no more records. */
static inline int
settled_by(const Tagger *t, uint16_t rec, uint32_t next)
{
    return t->settles[rec] && t->untagged[dfa_state(&t->dfa, next)];
}

/* Where the forward pass stands between the pieces of text it reads. */
typedef struct {
    uint32_t off;          /* the current state's row */
    uint32_t back2, back3; /* the rows one and two steps back (0: none) */
    uint16_t rec1, rec2;   /* the records of the last two steps */
    int settled;           /* every tag is known: only the DFA runs */
    BlockMemo memo;
} Forward;

static void
forward_start(const Tagger *t, Forward *f)
{
    memset(f, 0, sizeof *f); /* memo entries of len 0 match no block */
    f->off = t->dfa.start;
}

/* The run settled in the state at row `row`: the rest, characters [i, n),
   by run_settled.  0, DEAD or NOT_ASCII. */
static ALWAYS_INLINE int
settle(const Tagger *t, Forward *f, uint32_t row, const void *chars, int narrow, Py_ssize_t i,
       Py_ssize_t n)
{
    f->settled = 1;
    f->off = row;
    Py_ssize_t done = run_settled(t, chars, narrow, i, n, &f->off);
    return done < 0 ? (int)done : 0;
}

/* The forward pass over characters [0, n), at position `at` of the text:
   0, or DEAD, NOT_ASCII or TAG_NO_MEMORY.  It keeps the records of its
   transitions that are not record 0 (the identity without tags), with the
   position after each; a run of one record on a loop that keeps every
   thread in place is kept once, at its end, and so is a run around a
   cycle of two or three states whose records collapse (follow_cycle). */
static ALWAYS_INLINE int
forward_run(const Tagger *t, Forward *f, Events *ev, const void *chars, int narrow,
            Py_ssize_t n, Py_ssize_t at)
{
    if (f->settled) {
        return settle(t, f, f->off, chars, narrow, 0, n);
    }
    const uint32_t *moves = t->dfa.moves;
    const uint16_t *recs = t->recs;
    uint32_t off = f->off, back2 = f->back2, back3 = f->back3;
    uint16_t rec1 = f->rec1, rec2 = f->rec2;
    Py_ssize_t i = 0;
    while (i < n) {
        uint32_t cell;
        if (step_cell(t, chars, narrow, i, off, &cell) < 0) {
            return NOT_ASCII;
        }
        uint32_t next = moves[cell];
        uint16_t rec = recs[cell];
        i++;
        if (next == 0) {
            return DEAD;
        }
        if (next == off && (rec == 0 || t->keeps[rec])) {
            /* A loop that keeps every thread: only its last step can
               matter backwards, so skip the run and keep that one. */
            Py_ssize_t from = at + i - 1;
            i = skip_loop(t, off, rec, chars, narrow, i, n);
            if (rec != 0) {
                if (ev->n > 0 && ev->rec[ev->n - 1] == rec && ev->pos[ev->n - 1] == from) {
                    ev->pos[ev->n - 1] = at + i;
                }
                else if (events_push(ev, at + i, rec) < 0) {
                    return TAG_NO_MEMORY;
                }
                else {
                    events_compact(t, ev, &f->memo, rec);
                }
                if (settled_by(t, rec, off)) {
                    return settle(t, f, off, chars, narrow, i, n);
                }
            }
            continue;
        }
        if (rec != 0) {
            if (events_push(ev, at + i, rec) < 0) {
                return TAG_NO_MEMORY;
            }
            events_compact(t, ev, &f->memo, rec);
            if (settled_by(t, rec, next)) {
                return settle(t, f, next, chars, narrow, i, n);
            }
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
            i = follow_cycle(t, chars, narrow, i, n, at + i, rows, crecs, len, ev, &f->memo);
        }
        back3 = back2;
        back2 = off;
        rec2 = rec1;
        rec1 = rec;
        off = next;
    }
    f->off = off;
    f->back2 = back2;
    f->back3 = back3;
    f->rec1 = rec1;
    f->rec2 = rec2;
    return 0;
}

/* The end of the forward pass: 1 with the final state's number in *final
   when the run accepts, else 0.  *thread: the thread the backward walk
   starts from in the last record kept (the final state's accepting
   thread, or any thread of a record that settled the tags: 0). */
static int
forward_end(const Tagger *t, const Forward *f, int ill_formed, Py_ssize_t *final,
            Py_ssize_t *thread)
{
    Py_ssize_t state = dfa_state(&t->dfa, f->off);
    if (ill_formed || t->finals[state] < 0) {
        return 0;
    }
    *final = state;
    *thread = f->settled ? 0 : t->finals[state];
    return 1;
}

/* The forward pass over a source, decoded a chunk at a time: 1 (see
   forward_end), 0 when the DFA does not accept the text, TAG_ERROR (a
   str's read failed, its exception set) or TAG_NO_MEMORY. */
static int
tag_forward(const Tagger *t, Source *src, Events *ev, Py_ssize_t *final, Py_ssize_t *thread)
{
    Py_UCS4 buf[CHUNK];
    Forward f;
    forward_start(t, &f);
    for (;;) {
        Py_ssize_t at = src->at;
        Py_ssize_t n = source_next(src, buf);
        if (n < 0) {
            return TAG_ERROR;
        }
        if (n == 0) {
            break;
        }
        int ran = forward_run(t, &f, ev, buf, 0, n, at);
        if (ran < 0) {
            return ran == DEAD ? 0 : ran;
        }
    }
    return forward_end(t, &f, src->ill_formed, final, thread);
}

/* The same over bytes read in place, for a row of UTF-8: NOT_ASCII at a
   byte past ASCII, which the caller then decodes (a row of ASCII, most
   URLs, is not copied). */
static int
tag_forward_ascii(const Tagger *t, const unsigned char *p, Py_ssize_t n, Events *ev,
                  Py_ssize_t *final, Py_ssize_t *thread)
{
    Forward f;
    forward_start(t, &f);
    int ran = forward_run(t, &f, ev, p, 1, n, 0);
    if (ran < 0) {
        return ran == DEAD ? 0 : ran;
    }
    return forward_end(t, &f, 0, final, thread);
}

/* The backward pass: the reading's values and tags set; 0, or
   TAG_NO_MEMORY or TAG_INCONSISTENT (no exception set).  A tag never set reads -1 when `all` asks for it or the
   Tagger lacks the branch-free choice; that choice reads only the tags
   set, so the values are otherwise left as they were.  The thread each
   record was read in is found backwards, from the final state's
   accepting thread; then the records' tags are set forwards, a later one
   overwriting an earlier one, so each tag ends with its last value
   without reading what it holds. */
static int
tag_backward(const Tagger *t, const Events *ev, Py_ssize_t thread, Reading *reading, int all)
{
    Py_ssize_t *values = reading->values;
    /* Per record met: the tag set of the thread it was read in. */
    uint16_t small[EVENTS_ON_STACK];
    uint16_t *sets = small;
    if (ev->n > EVENTS_ON_STACK) {
        sets = malloc((size_t)ev->n * sizeof(uint16_t));
        if (sets == NULL) {
            return TAG_NO_MEMORY;
        }
    }
    int ok = 0;
    Py_ssize_t k = thread;
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
    if (all || t->out.pick == NULL) {
        memset(values, 0xFF, (size_t)t->ntags * sizeof *values); /* -1 in each */
    }
    uint16_t set = t->start_tags[k];
    for (uint32_t j = t->set_first[set]; j < t->set_first[set + 1]; j++) {
        values[t->set_tags[j]] = 0;
    }
    const uint64_t *set_mask = t->out.set_mask;
    uint64_t bits = set_mask != NULL ? set_mask[set] : 0;
    for (Py_ssize_t e = 0; e < ev->n; e++) {
        Py_ssize_t pos = ev->pos[e];
        set = sets[e];
        for (uint32_t j = t->set_first[set]; j < t->set_first[set + 1]; j++) {
            values[t->set_tags[j]] = pos;
        }
        if (set_mask != NULL) {
            bits |= set_mask[set];
        }
    }
    reading->set = bits;
    ok = 1;
done:
    if (sets != small) {
        free(sets);
    }
    return ok ? 0 : TAG_INCONSISTENT;
}

/* 1 with the reading filled when text matches, 0 when not, else a TAG_
   failure: what a run of a UTF-8 source gives needs no GIL. */
static int
tag_run_source(const Tagger *t, Source *src, Reading *reading, int all)
{
    Events ev;
    ev.n = 0;
    ev.cap = EVENTS_ON_STACK;
    ev.pos = ev.pos_stack;
    ev.rec = ev.rec_stack;
    Py_ssize_t final = 0, thread = 0;
    int found = NOT_ASCII;
    if (src->text == NULL) {
        /* UTF-8: its bytes read in place while they are ASCII. */
        found = tag_forward_ascii(t, src->p, src->stop - src->p, &ev, &final, &thread);
        if (found != NOT_ASCII) {
            src->at = src->stop - src->p;
            src->p = src->stop;
        }
        else {
            ev.n = 0;
        }
    }
    if (found == NOT_ASCII) {
        found = tag_forward(t, src, &ev, &final, &thread);
    }
    if (found == 1) {
        int back = tag_backward(t, &ev, thread, reading, all);
        if (back < 0) {
            found = back;
        }
    }
    reading->length = src->at;
    events_free(&ev);
    return found;
}

int
tag_raise(int found)
{
    if (found == TAG_NO_MEMORY) {
        PyErr_NoMemory();
    }
    else if (found == TAG_INCONSISTENT) {
        PyErr_SetString(PyExc_RuntimeError, "tagged DFA tables are inconsistent");
    }
    return found < 0 ? -1 : found;
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
    return tag_raise(tag_run_source(t, &src, reading, all));
}

/* What columns.c reads of a Tagger (declared in native.h). */
int
tagger_run_source(PyObject *tagger, Source *src, Reading *reading)
{
    return tag_raise(tag_run_source((const Tagger *)tagger, src, reading, 0));
}

int
tagger_run_utf8(PyObject *tagger, Source *src, Reading *reading)
{
    return tag_run_source((const Tagger *)tagger, src, reading, 0);
}

Py_ssize_t
tagger_nslots(PyObject *tagger)
{
    return ((const Tagger *)tagger)->out.nslots;
}

PyObject *
tagger_consts(PyObject *tagger)
{
    return ((const Tagger *)tagger)->out.consts;
}

int
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

/* Each record's `settles` and each state's `untagged` (tagger.h), after
   find_common_sources: 0, or -1 with MemoryError.  The states that can
   reach a transition that sets a tag are found backwards from those
   transitions, over the predecessors of each state, so the work is one
   visit of each transition whatever the DFA's shape. */
static int
find_settling(Tagger *self)
{
    Py_ssize_t nstates = self->dfa.nstates, width = self->dfa.nclasses;
    Py_ssize_t ncells = nstates * width;
    self->settles = PyMem_Calloc((size_t)self->nrecords, 1);
    self->untagged = PyMem_Malloc((size_t)nstates);
    uint8_t *tags = PyMem_Calloc((size_t)self->nrecords, 1);
    uint32_t *first = PyMem_Calloc((size_t)nstates + 1, sizeof(uint32_t));
    uint32_t *preds = PyMem_Malloc((size_t)ncells * sizeof(uint32_t) + 1);
    uint32_t *queue = PyMem_Malloc((size_t)nstates * sizeof(uint32_t));
    if (self->settles == NULL || self->untagged == NULL || tags == NULL || first == NULL ||
        preds == NULL || queue == NULL) {
        PyMem_Free(tags);
        PyMem_Free(first);
        PyMem_Free(preds);
        PyMem_Free(queue);
        PyErr_NoMemory();
        return -1;
    }
    for (Py_ssize_t r = 0; r < self->nrecords; r++) {
        for (uint32_t i = self->rec_first[r]; i < self->rec_first[r + 1]; i++) {
            uint16_t set = self->rec_tagset[i];
            tags[r] |= self->set_first[set + 1] > self->set_first[set];
        }
        self->settles[r] = self->rec_common[r] >= 0 && !tags[r];
    }
    /* The predecessors of each state, grouped by state (first[s] ..
       first[s + 1]), and the states with a transition that sets a tag. */
    Py_ssize_t nqueued = 0;
    memset(self->untagged, 1, (size_t)nstates);
    for (Py_ssize_t cell = 0; cell < ncells; cell++) {
        first[dfa_state(&self->dfa, self->dfa.moves[cell]) + 1]++;
    }
    for (Py_ssize_t s = 0; s < nstates; s++) {
        first[s + 1] += first[s];
    }
    for (Py_ssize_t cell = 0; cell < ncells; cell++) {
        Py_ssize_t source = cell / width;
        Py_ssize_t target = dfa_state(&self->dfa, self->dfa.moves[cell]);
        preds[first[target]++] = (uint32_t)source;
        if (target != 0 && tags[self->recs[cell]] && self->untagged[source]) {
            self->untagged[source] = 0;
            queue[nqueued++] = (uint32_t)source;
        }
    }
    /* first[s] now ends s's group: shift back to where it starts. */
    for (Py_ssize_t s = nstates; s > 0; s--) {
        first[s] = first[s - 1];
    }
    first[0] = 0;
    for (Py_ssize_t q = 0; q < nqueued; q++) {
        uint32_t s = queue[q];
        for (uint32_t p = first[s]; p < first[s + 1]; p++) {
            if (self->untagged[preds[p]]) {
                self->untagged[preds[p]] = 0;
                queue[nqueued++] = preds[p];
            }
        }
    }
    PyMem_Free(tags);
    PyMem_Free(first);
    PyMem_Free(preds);
    PyMem_Free(queue);
    return 0;
}

/* A u16 table of count items from the blob, copied: NULL with an
   exception set when the blob is short. */
static uint16_t *
take_u16(Blob *b, Py_ssize_t count)
{
    const unsigned char *p = blob_items(b, count, 2);
    uint16_t *out = PyMem_Malloc((size_t)count * sizeof(uint16_t) + 1);
    if (p == NULL || out == NULL) {
        PyMem_Free(out);
        if (p == NULL) {
            PyErr_SetString(PyExc_ValueError, "tables: truncated");
        }
        else {
            PyErr_NoMemory();
        }
        return NULL;
    }
    for (Py_ssize_t i = 0; i < count; i++) {
        out[i] = le_u16(p, i);
    }
    return out;
}

/* The same for u32 (i32 reads them back as signed). */
static uint32_t *
take_u32(Blob *b, Py_ssize_t count)
{
    const unsigned char *p = blob_items(b, count, 4);
    uint32_t *out = PyMem_Malloc((size_t)count * sizeof(uint32_t) + 1);
    if (p == NULL || out == NULL) {
        PyMem_Free(out);
        if (p == NULL) {
            PyErr_SetString(PyExc_ValueError, "tables: truncated");
        }
        else {
            PyErr_NoMemory();
        }
        return NULL;
    }
    for (Py_ssize_t i = 0; i < count; i++) {
        out[i] = le_u32(p, i);
    }
    return out;
}

/* The same for u8. */
static uint8_t *
take_u8(Blob *b, Py_ssize_t count)
{
    const unsigned char *p = blob_items(b, count, 1);
    uint8_t *out = PyMem_Malloc((size_t)count + 1);
    if (p == NULL || out == NULL) {
        PyMem_Free(out);
        if (p == NULL) {
            PyErr_SetString(PyExc_ValueError, "tables: truncated");
        }
        else {
            PyErr_NoMemory();
        }
        return NULL;
    }
    memcpy(out, p, (size_t)count);
    return out;
}

static int
bad(const char *why)
{
    PyErr_Format(PyExc_ValueError, "tables: %s", why);
    return -1;
}

/* 0 when values[0 .. count] run from `first` to `last` and never
   decrease, else -1 with ValueError naming what. */
static int
check_rising(const uint32_t *values, Py_ssize_t count, uint32_t last, const char *what)
{
    if (values[0] != 0 || values[count] != last) {
        PyErr_Format(PyExc_ValueError, "tables: %s must run from 0 to its count", what);
        return -1;
    }
    for (Py_ssize_t i = 0; i < count; i++) {
        if (values[i] > values[i + 1]) {
            PyErr_Format(PyExc_ValueError, "tables: %s must not decrease", what);
            return -1;
        }
    }
    return 0;
}

/* 0 when every one of count values is below limit, else -1. */
static int
check_below(const void *values, int itemsize, Py_ssize_t count, int64_t limit, const char *what)
{
    for (Py_ssize_t i = 0; i < count; i++) {
        int64_t v = itemsize == 1   ? ((const uint8_t *)values)[i]
                    : itemsize == 2 ? ((const uint16_t *)values)[i]
                                    : ((const uint32_t *)values)[i];
        if (v >= limit) {
            PyErr_Format(PyExc_ValueError, "tables: %s: an index out of range", what);
            return -1;
        }
    }
    return 0;
}

/* The tagged part of the blob, past the DFA both kinds share: the counts,
   the records, the tag sets, the finals and the start threads, each
   checked: 0, or -1 with an exception set. */
static int
read_tagged(Tagger *t, Blob *b)
{
    uint32_t nrecords, nthreads, ntagsets, nsettags, nstart, ntags;
    if (blob_u32(b, &nrecords) < 0 || blob_u32(b, &nthreads) < 0 ||
        blob_u32(b, &ntagsets) < 0 || blob_u32(b, &nsettags) < 0 ||
        blob_u32(b, &nstart) < 0 || blob_u32(b, &ntags) < 0) {
        return bad("truncated");
    }
    if (t->dfa.start != t->dfa.nclasses || t->dfa.nstates < 2 || nrecords < 1 ||
        nrecords > UINT16_MAX || ntagsets < 1 || ntagsets > UINT16_MAX ||
        nthreads > UINT32_MAX / 2 || nsettags > UINT32_MAX / 2 || ntags > MAX_TAGS - 2 ||
        ntags % 2 || nstart < 1) {
        return bad("sizes out of range");
    }
    Py_ssize_t ncells = t->dfa.nstates * t->dfa.nclasses;
    t->nrecords = nrecords;
    t->ntagsets = ntagsets;
    t->nstart = nstart;
    t->ntags = ntags;
    if ((t->recs = take_u16(b, ncells)) == NULL ||
        (t->rec_first = take_u32(b, (Py_ssize_t)nrecords + 1)) == NULL ||
        (t->rec_source = take_u16(b, nthreads)) == NULL ||
        (t->rec_tagset = take_u16(b, nthreads)) == NULL ||
        (t->keeps = take_u8(b, nrecords)) == NULL ||
        (t->set_first = take_u32(b, (Py_ssize_t)ntagsets + 1)) == NULL ||
        (t->set_tags = take_u8(b, nsettags)) == NULL ||
        (t->finals = (int32_t *)take_u32(b, t->dfa.nstates)) == NULL ||
        (t->start_tags = take_u16(b, nstart)) == NULL) {
        return -1;
    }
    if (b->at != b->size) {
        return bad("bytes past their end");
    }
    /* Every index the passes follow without a check of their own. */
    if (check_below(t->recs, 2, ncells, nrecords, "recs") < 0 ||
        check_rising(t->rec_first, nrecords, nthreads, "rec_first") < 0 ||
        check_below(t->rec_tagset, 2, nthreads, ntagsets, "rec_tagset") < 0 ||
        check_below(t->keeps, 1, nrecords, 2, "keeps") < 0 ||
        check_rising(t->set_first, ntagsets, nsettags, "set_first") < 0 ||
        check_below(t->set_tags, 1, nsettags, ntags, "set_tags") < 0 ||
        check_below(t->start_tags, 2, nstart, ntagsets, "start_tags") < 0) {
        return -1;
    }
    for (Py_ssize_t i = 0; i < t->dfa.nstates; i++) {
        if (t->finals[i] < -1 || t->finals[i] > UINT16_MAX) {
            return bad("finals: a thread out of range");
        }
    }
    return 0;
}

static PyObject *
Tagger_new(PyTypeObject *type, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"tables", "plan", "into", NULL};
    PyObject *tables, *plan, *cls = Py_None;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "OO|O", kwlist, &tables, &plan, &cls)) {
        return NULL;
    }
    if (cls != Py_None) {
        module_state *st = (module_state *)PyType_GetModuleState(type);
        if (st == NULL) {
            return NULL;
        }
        if (!PyType_Check(cls) ||
            !PyType_IsSubtype((PyTypeObject *)cls, (PyTypeObject *)st->record_type)) {
            PyErr_SetString(PyExc_TypeError, "into must be None or a subclass of Record");
            return NULL;
        }
    }
    Blob blob;
    if (blob_of(tables, &blob) < 0) {
        return NULL;
    }
    allocfunc alloc = (allocfunc)PyType_GetSlot(type, Py_tp_alloc);
    Tagger *self = (Tagger *)alloc(type, 0);
    if (self == NULL) {
        return NULL;
    }
    if (dfa_read(&self->dfa, &blob, "UGT1") < 0 || read_tagged(self, &blob) < 0 ||
        loops_build(&self->loops, &self->dfa, self->recs) < 0 ||
        find_common_sources(self) < 0 || find_settling(self) < 0 ||
        output_read(self, plan, cls) < 0) {
        Py_DECREF(self);
        return NULL;
    }
    return (PyObject *)self;
}

static void
Tagger_dealloc(PyObject *obj)
{
    Tagger *self = (Tagger *)obj;
    PyTypeObject *type = Py_TYPE(obj);
    dfa_free(&self->dfa);
    loops_free(&self->loops);
    PyMem_Free(self->recs);
    PyMem_Free(self->rec_first);
    PyMem_Free(self->rec_source);
    PyMem_Free(self->rec_tagset);
    PyMem_Free(self->keeps);
    PyMem_Free(self->rec_common);
    PyMem_Free(self->settles);
    PyMem_Free(self->untagged);
    PyMem_Free(self->set_first);
    PyMem_Free(self->set_tags);
    PyMem_Free(self->finals);
    PyMem_Free(self->start_tags);
    output_free(&self->out);
    freefunc tp_free = (freefunc)PyType_GetSlot(type, Py_tp_free);
    tp_free(obj);
    Py_DECREF(type);
}

PyDoc_STRVAR(parse_doc,
"parse(text, /)\n--\n\n"
"The output slots for text (see the plan), as a tuple or as a record of\n"
"into, or None when the DFA does not accept text.");

PyDoc_STRVAR(spans_doc,
"spans(text, /)\n--\n\n"
"The slots for text as a record's spans (two numbers per slot: a span,\n"
"-1, -1 for None, or -2 - k, 0 for consts[k]), as a tuple, or None when\n"
"the DFA does not accept text.");

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
"Tagger(tables, plan, into=None)\n--\n\n"
"A tagged DFA over classes of code points, from the bytes of\n"
"engine.automata.tables.TaggedTables.to_bytes(), and the plan of its\n"
"output slots.");

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
