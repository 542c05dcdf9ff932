/*
 * Tagger: a tagged DFA (engine/automata/tagged.py) and the output a parse
 * makes of its reading.  tagger.c holds the tables and the passes that
 * read where each capture matched; plan.c the plan that turns a reading
 * into output slots, and the records or tuples it makes.
 */

#ifndef URIGRAMMAR_NATIVE_TAGGER_H
#define URIGRAMMAR_NATIVE_TAGGER_H

#include "native.h"

/* The output: slot i is the first capture among its candidates that took
   part (its text, or the candidate's constant), else its default. */
typedef struct {
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
    /* Slots chosen without a branch (plan.c's tagger_spans), for at most
       FAST_CAPTURES captures and FAST_CONSTS constants, and a plan whose
       slots each list their captures in increasing order; NULL otherwise.
       Every slot's output is then a pair: the values of a capture's tags
       (pair 2 c), or a pair of `fixed`, which holds (-1, -1) for None,
       then (-2 - k, 0) for constant k (pairs NONE_AT and CONST_AT + 2 k).
       set_mask: per tag set, its tags as bits; slot_mask: per slot, bit
       2 c for each candidate capture c; pick: per slot, FAST_CAPTURES + 1
       pairs, by capture (the last for none). */
    Py_ssize_t *fixed;
    uint64_t *set_mask;
    uint64_t *slot_mask;
    uint8_t *pick;
} Output;

typedef struct {
    PyObject_HEAD
    Dfa dfa;
    Loops loops;            /* what a loop records: its transition's record */
    uint16_t *recs;         /* the record of each transition */
    Py_ssize_t nrecords;
    uint32_t *rec_first;    /* record r: threads rec_first[r] .. rec_first[r + 1] */
    uint16_t *rec_source;   /* per thread of a record: its source thread */
    uint16_t *rec_tagset;   /* and the tag set it sets */
    uint8_t *keeps;         /* per record: every thread stays where it was */
    /* per record: the source of every thread when they all share one,
       else -1; the backward walk then needs no thread to know the next */
    int32_t *rec_common;
    /* per record: every thread comes from one source and sets no tag, so
       all the target's threads share one history (see untagged) */
    uint8_t *settles;
    /* per state: no transition reachable from it sets a tag.  A run that
       enters such a state by a record that settles knows every tag it
       will read: the rest of the text is only a DFA run. */
    uint8_t *untagged;
    Py_ssize_t ntagsets;
    uint32_t *set_first;    /* tag set i: tags set_first[i] .. set_first[i + 1] */
    uint8_t *set_tags;
    int32_t *finals;        /* per state: the accepting thread, or -1 */
    Py_ssize_t nstart;
    uint16_t *start_tags;   /* per thread of the start state: its tag set */
    Py_ssize_t ntags;
    Output out;
} Tagger;

/* The branch-free choice: tags 0 .. 61, then the pair for None, then the
   constants' pairs; bit 62 of a reading's tags set stands for "no
   candidate took part". */
#define FAST_CAPTURES 31
#define NONE_BIT ((uint64_t)1 << (2 * FAST_CAPTURES))
#define NONE_AT (2 * FAST_CAPTURES)
#define CONST_AT (NONE_AT + 2)
#define FAST_CONSTS ((MAX_TAGS - CONST_AT) / 2)

/* tagger.c: the reading of a method's argument: 1 with *reading filled
   when it is a str the DFA accepts, 0 when not, -1 with an exception set
   (TypeError for anything but a str).  With `all`, every tag's value is
   set (-1 where never set); without, only the tags a fast choice reads. */
NATIVE_SHARED int
tag_text(const Tagger *t, PyObject *arg, Reading *reading, int all);

/* plan.c: the plan (a tuple of (default, ((capture, constant or None),
   ...)) per slot) and the record class (Py_None for tuples) into t->out:
   0, or -1 with an exception set (output_free frees it either way). */
NATIVE_SHARED int
output_read(Tagger *t, PyObject *plan, PyObject *cls);

NATIVE_SHARED void
output_free(Output *out);

/* plan.c: the slots' spans from a reading: two numbers a slot. */
NATIVE_SHARED void
tagger_spans(const Tagger *t, const Reading *reading, Py_ssize_t *out);

/* plan.c: the methods over the output. */
NATIVE_SHARED PyObject *
Tagger_spans(PyObject *self, PyObject *arg);
NATIVE_SHARED PyObject *
Tagger_get_consts(PyObject *self, void *closure);

#endif /* URIGRAMMAR_NATIVE_TAGGER_H */
