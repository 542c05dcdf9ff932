/*
 * urigrammar.engine.backend._native: table-driven DFA runners, the records
 * a parse makes, and a C-level front for the functions that look them up
 * by name.
 *
 * The tables come from engine/automata (their bytes: tables.py); nothing
 * here knows any grammar or rule, and only normal.c and canonical.c know
 * delimiters: those of RFC 3986's components, whose normalization they
 * write.  One concept a file:
 *
 *   classmap.h     the class of each code point, and reading a text (a str
 *                  or a row of UTF-8) a chunk at a time;
 *   dfa.h/.c       the DFA both runners share, read from a table's bytes
 *                  and checked, and its loop tables;
 *   runner.c       Runner: a minimal DFA (validate);
 *   tagger.h/.c    Tagger: a tagged DFA (parse): its tables and its passes;
 *   plan.c         a Tagger's output: which capture fills which slot, and
 *                  the records it makes;
 *   record.c       Record: a text and the spans of its slots (parse's
 *                  value), and Field, the descriptor that reads a slot;
 *   entry.c        Entry: a C-level front for a Python function that looks
 *                  matchers up by name (urigrammar.validate, parse), which
 *                  runs a Runner or a Tagger right there;
 *   arrow.h/.c     the Arrow C data interface: reading a string column,
 *                  building arrays, schemas and streams;
 *   columns.c      a Runner or a Tagger over each row of a string column;
 *   normal.h/.c    RFC 3986's normalization (section 6) of a record's
 *                  text, each component's slot named by the caller, and
 *                  of a text, parsed and normalized in one call;
 *   canonical.c    a reference's key (urigrammar.canonicalize): its
 *                  normal text, its query's pieces dropped and sorted;
 *   lookup.c       what a dict holds for a text's host (the Public Suffix
 *                  List's answers, kept by host);
 *   module.c       the module: its state, and the types' creation.
 *
 * This header declares what the files share; all the rest of each file is
 * static.  No static state is mutable: the Runner, Tagger and Record types
 * live in the module state, the Entry type in the module (its instances
 * keep what they need).
 */

#ifndef URIGRAMMAR_NATIVE_H
#define URIGRAMMAR_NATIVE_H

#include "classmap.h"
#include "dfa.h"

/* One minimal DFA (runner.c); Entry runs one too, with run(). */
typedef struct {
    PyObject_HEAD
    Dfa dfa;
    Loops loops;         /* what a loop records: nothing (0) */
    uint8_t *accepting;  /* by state */
    PyObject *otherwise; /* accepts() of a text refused: otherwise(text); or NULL */
} Runner;

/* The module's state (module.c): the types, which Entry_new hands its
   instances. */
typedef struct {
    PyObject *runner_type;
    PyObject *tagger_type;
    PyObject *record_type;
} module_state;

/* Run the DFA over `text`; *end gets the end of the longest viable prefix.
   Returns the final state (0 when the text stopped being viable), or -1
   with an exception set. */
NATIVE_SHARED int
run(const Runner *r, PyObject *text, Py_ssize_t *end);

/* run() over a Source (classmap.h): a str or a row of UTF-8. */
NATIVE_SHARED int
run_source(const Runner *r, Source *src, Py_ssize_t *end);

/* A Tagger's reading of a text: each tag's position (-1 where never set,
   except where only the tags set are read: tagger.c's tag_backward), for
   a Tagger of at most 62 tags the tags set, as bits, and the text's
   length in code points. */
#define MAX_TAGS 256
typedef struct {
    Py_ssize_t values[MAX_TAGS];
    uint64_t set;
    Py_ssize_t length;
} Reading;

/* What columns.c reads of a Tagger (tagger.c, plan.c), given a Tagger
   object: the reading of the text of src (1 when the DFA accepts it, 0
   when not, -1 with an exception set); the number of output slots; their
   spans from a reading (two numbers a slot, as Tagger.spans gives them,
   all of them or one);
   and the constants those spans index (a borrowed tuple). */
NATIVE_SHARED int
tagger_run_source(PyObject *tagger, Source *src, Reading *reading);
/* What a Tagger's run fails with, besides -1 (TAG_ERROR: a str could not
   be read, its exception set): no exception is set for these. */
#define TAG_ERROR (-1)
#define TAG_NO_MEMORY (-2)
#define TAG_INCONSISTENT (-3)
/* tagger_run_source over a UTF-8 source without the GIL: the failures
   are TAG_NO_MEMORY and TAG_INCONSISTENT, for tag_raise to raise. */
NATIVE_SHARED int
tagger_run_utf8(PyObject *tagger, Source *src, Reading *reading);
/* found as tagger_run_source gives it: -1 with the failure's exception
   set, else found.  With the GIL. */
NATIVE_SHARED int
tag_raise(int found);
NATIVE_SHARED Py_ssize_t
tagger_nslots(PyObject *tagger);
NATIVE_SHARED void
tagger_slot_spans(PyObject *tagger, const Reading *reading, Py_ssize_t *out);
/* One slot's span (0 <= slot < tagger_nslots), for a caller that keeps
   fewer slots than the tagger has. */
NATIVE_SHARED void
tagger_slot_span(PyObject *tagger, const Reading *reading, Py_ssize_t slot, Py_ssize_t *out);
NATIVE_SHARED PyObject *
tagger_consts(PyObject *tagger);

/* The module's functions over Arrow columns (columns.c). */
NATIVE_SHARED extern PyMethodDef columns_methods[];

/* The methods Entry recognizes in its table (by their C function), and
   calls without a Python call. */
NATIVE_SHARED PyObject *
Runner_fullmatch(PyObject *self, PyObject *arg);
NATIVE_SHARED PyObject *
Tagger_parse(PyObject *self, PyObject *arg);
/* The Tagger (of tagger_type) whose bound parse `matcher` is, borrowed,
   else NULL with no exception set: a parse C can run without a call. */
NATIVE_SHARED PyObject *
tagger_of_parse(PyObject *matcher, PyTypeObject *tagger_type);

/* A record of cls (a subclass of Record, record.c) over text, `length`
   code points long, with nslots slots whose spans are spans[0 .. 2 *
   nslots), unchecked, made by alloc, cls's tp_alloc (which a Tagger
   looks up once); consts holds fewer than MAX_CONSTS items.  With
   untrack, the record is taken from the garbage collector's view (only
   for a class with the collector whose records hold nothing beyond a
   Record's, and constants that are strings). */
#define MAX_CONSTS ((Py_ssize_t)INT32_MAX - 2) /* -2 - k fits an int32 */
NATIVE_SHARED PyObject *
record_make(PyTypeObject *cls, allocfunc alloc, PyObject *text, Py_ssize_t length,
            PyObject *consts, const Py_ssize_t *spans, Py_ssize_t nslots, int untrack);

/* 1 when records of cls may hold consts: any, with the collector, else
   str only (a record the collector does not track must not be part of a
   cycle); 0 with TypeError set when not. */
NATIVE_SHARED int
record_consts_allowed(PyObject *cls, PyObject *consts);

/* The text of obj, a record of record_type (borrowed), with the spans of
   its slots slots[0 .. n) in spans[0 .. 2n), two numbers a slot as the
   record keeps them; NULL, with no exception set, when obj is no such
   record or has no such slot. */
NATIVE_SHARED PyObject *
record_spans(PyObject *obj, PyObject *record_type, const Py_ssize_t *slots, Py_ssize_t n,
             Py_ssize_t *spans);

/* The module's functions that normalize a reference's text (normal.c),
   and that look a text's host up (lookup.c). */
NATIVE_SHARED extern PyMethodDef normal_methods[];
NATIVE_SHARED extern PyMethodDef lookup_methods[];

/* 1 when cls's instances hold nothing beyond a Record's (no __dict__, no
   __weakref__, no slot), 0 when they do, -1 with an exception set. */
NATIVE_SHARED int
record_plain(PyObject *cls);

/* The types, which module.c creates. */
NATIVE_SHARED extern PyType_Spec Runner_spec;
NATIVE_SHARED extern PyType_Spec Tagger_spec;
NATIVE_SHARED extern PyType_Spec Entry_spec;
NATIVE_SHARED extern PyType_Spec Record_spec;
NATIVE_SHARED extern PyType_Spec Field_spec;
/* Entry with vectorcall, for a CPython that honours it (module.c asks). */
NATIVE_SHARED extern PyType_Spec Entry_spec_vectorcall;

#endif /* URIGRAMMAR_NATIVE_H */
