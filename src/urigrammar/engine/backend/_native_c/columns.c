/*
 * Columns: a Runner (validate) or a Tagger (parse) over every row of an
 * Arrow string column, through the Arrow C data interface, with no Python
 * object per row.
 *
 * In: the PyCapsules of the Arrow PyCapsule interface ("arrow_schema" and
 * "arrow_array" from __arrow_c_array__, "arrow_array_stream" from
 * __arrow_c_stream__), of utf8 ("u"), large_utf8 ("U") or utf8_view
 * ("vu") strings, or a struct of exactly one such column (a table of one
 * column, as DuckDB streams a relation).  The array's offset, its validity
 * bitmap and a struct's are honoured.  Each row's UTF-8 is decoded into
 * code points a chunk at a time (classmap.h's Source) and fed to the same
 * loops that run a str (run_source, tagger_run_source): ill-formed UTF-8
 * ends the row, which then does not match.  Both read a row of ASCII in
 * place first (row_ascii here, the tagger's own for a parse), and decode
 * only a row with a byte past it.
 *
 * Out: Arrow arrays that this file allocates (malloc, so that a consumer
 * on any thread may release them without the GIL), exported as capsules
 * whose destructors release what no consumer took:
 *
 *   validate   bool; null where the row is null;
 *   parse      struct<reference: struct<field...: utf8>, error_offset: int64>
 *              (a distinct job's fields: dictionary<int32, utf8>),
 *              never null itself: reference is null where the row is null
 *              or the rule does not match it (or a forbidden code point is
 *              found), and error_offset, in code points, is set exactly in
 *              the second case.
 *
 * A job (a capsule, see column_job) holds what runs a row: the Runner, the
 * Tagger, which of the tagger's slots become which fields (and whether
 * each distinct value is written once), and the code points to refuse.  Nothing here knows a grammar or a URI.
 *
 * A stream is processed one batch per get_next, as the consumer pulls: the
 * input batch is released before the output is returned, so memory holds
 * one batch and its output.  get_next takes the GIL (to start a batch's
 * shares and to make its error), so a consumer may call it from any thread.
 */

#include "arrow.h"
#include "native.h"

#include <errno.h>
#include <stdlib.h>
#ifndef _WIN32
#include <unistd.h>
#endif

#define JOB_NAME "urigrammar.engine.backend._native.column_job"
/* Output fields of a parse job, at most: a struct of that many strings. */
#define MAX_FIELDS 64

/* ---- the job ------------------------------------------------------------ */

typedef struct {
    PyObject *runner;    /* Runner: the verdict, and the error offset */
    PyObject *tagger;    /* Tagger, or NULL: validate only */
    Py_ssize_t nslots;   /* the tagger's output slots */
    Py_ssize_t nfields;
    Py_ssize_t slots[MAX_FIELDS]; /* field i is slot slots[i] */
    char *names[MAX_FIELDS];      /* field i's name, UTF-8 (malloc) */
    Py_ssize_t nconsts;
    const char **const_utf8;      /* the tagger's constants, borrowed */
    Py_ssize_t *const_len;
    Py_UCS4 *forbidden;           /* code points a match must not hold */
    Py_ssize_t nforbidden;
    Py_UCS4 least_forbidden;      /* the smallest of them */
    int distinct;                 /* the fields dictionary encoded */
} Job;

static void
job_free(Job *job)
{
    Py_XDECREF(job->runner);
    Py_XDECREF(job->tagger);
    for (Py_ssize_t i = 0; i < MAX_FIELDS; i++) {
        free(job->names[i]);
    }
    PyMem_Free(job->const_utf8);
    PyMem_Free(job->const_len);
    PyMem_Free(job->forbidden);
    PyMem_Free(job);
}

static void
job_capsule_free(PyObject *capsule)
{
    Job *job = PyCapsule_GetPointer(capsule, JOB_NAME);
    if (job != NULL) {
        job_free(job);
    }
}

static Job *
job_of(PyObject *capsule)
{
    return PyCapsule_GetPointer(capsule, JOB_NAME);
}

/* 0 when tagger is a Tagger whose spans a row's buffer holds (parse_row),
   else -1 with an exception set. */
static int
check_tagger(module_state *st, PyObject *tagger)
{
    int is_tagger = PyObject_IsInstance(tagger, st->tagger_type);
    if (is_tagger <= 0) {
        if (is_tagger == 0) {
            PyErr_SetString(PyExc_TypeError, "tagger must be a Tagger or None");
        }
        return -1;
    }
    return 0;
}

PyDoc_STRVAR(column_job_doc,
"column_job(runner, tagger, fields, forbidden, distinct=False, /)\n--\n\n"
"What column_array and column_stream run on each row: a Runner, and for a\n"
"parse a Tagger (else None), some of whose output slots become the fields,\n"
"a tuple of (name, slot) pairs, and the code points (a str) a match must\n"
"not hold.  With distinct, each field is dictionary encoded: its distinct\n"
"values once (a value may repeat), and each row's index among them.");

static PyObject *
column_job(PyObject *module, PyObject *args)
{
    PyObject *runner, *tagger, *fields, *forbidden;
    int distinct = 0;
    if (!PyArg_ParseTuple(args, "OOO!U|p", &runner, &tagger, &PyTuple_Type, &fields,
                          &forbidden, &distinct)) {
        return NULL;
    }
    module_state *st = (module_state *)PyModule_GetState(module);
    int is_runner = PyObject_IsInstance(runner, st->runner_type);
    if (is_runner <= 0) {
        if (is_runner == 0) {
            PyErr_SetString(PyExc_TypeError, "runner must be a Runner");
        }
        return NULL;
    }
    if (((Runner *)runner)->otherwise != NULL) {
        /* The rows run the DFA alone: its otherwise would go unasked. */
        PyErr_SetString(PyExc_TypeError, "runner must be a Runner without otherwise");
        return NULL;
    }
    if (tagger != Py_None && check_tagger(st, tagger) < 0) {
        return NULL;
    }
    Py_ssize_t nfields = PyTuple_Size(fields);
    if (nfields < 0 || nfields > MAX_FIELDS || (tagger == Py_None) != (nfields == 0)) {
        PyErr_SetString(PyExc_ValueError,
                        "fields: 1 to 64 for a tagger, none without one");
        return NULL;
    }
    Job *job = PyMem_Calloc(1, sizeof(Job));
    if (job == NULL) {
        return PyErr_NoMemory();
    }
    job->runner = Py_NewRef(runner);
    job->nfields = nfields;
    job->distinct = distinct;
    if (tagger != Py_None) {
        job->tagger = Py_NewRef(tagger);
        job->nslots = tagger_nslots(tagger);
        PyObject *consts = tagger_consts(tagger);
        job->nconsts = PyTuple_Size(consts);
        job->const_utf8 = PyMem_Calloc((size_t)job->nconsts + 1, sizeof(char *));
        job->const_len = PyMem_Calloc((size_t)job->nconsts + 1, sizeof(Py_ssize_t));
        if (job->const_utf8 == NULL || job->const_len == NULL) {
            job_free(job);
            return PyErr_NoMemory();
        }
        for (Py_ssize_t k = 0; k < job->nconsts; k++) {
            /* The tagger keeps its constants, and the job the tagger. */
            PyObject *value = PyTuple_GetItem(consts, k);
            if (!PyUnicode_Check(value)) {
                continue; /* a field that gives it is refused below */
            }
            job->const_utf8[k] = PyUnicode_AsUTF8AndSize(value, &job->const_len[k]);
            if (job->const_utf8[k] == NULL) {
                job_free(job);
                return NULL;
            }
        }
    }
    for (Py_ssize_t i = 0; i < nfields; i++) {
        PyObject *name;
        Py_ssize_t slot;
        PyObject *pair = PyTuple_GetItem(fields, i);
        if (pair == NULL || !PyArg_ParseTuple(pair, "Un", &name, &slot)) {
            job_free(job);
            return NULL;
        }
        if (slot < 0 || slot >= job->nslots) {
            job_free(job);
            PyErr_SetString(PyExc_ValueError, "fields: a slot out of range");
            return NULL;
        }
        Py_ssize_t size;
        const char *utf8 = PyUnicode_AsUTF8AndSize(name, &size);
        if (utf8 == NULL) {
            job_free(job);
            return NULL;
        }
        job->names[i] = malloc((size_t)size + 1);
        if (job->names[i] == NULL) {
            job_free(job);
            return PyErr_NoMemory();
        }
        memcpy(job->names[i], utf8, (size_t)size + 1);
        job->slots[i] = slot;
    }
    Py_ssize_t nforbidden = PyUnicode_GetLength(forbidden);
    job->forbidden = PyMem_Malloc(((size_t)nforbidden + 1) * sizeof(Py_UCS4));
    if (job->forbidden == NULL) {
        job_free(job);
        return PyErr_NoMemory();
    }
    job->nforbidden = nforbidden;
    job->least_forbidden = MAX_CODE;
    for (Py_ssize_t i = 0; i < nforbidden; i++) {
        job->forbidden[i] = PyUnicode_ReadChar(forbidden, i);
        if (job->forbidden[i] < job->least_forbidden) {
            job->least_forbidden = job->forbidden[i];
        }
    }
    PyObject *capsule = PyCapsule_New(job, JOB_NAME, job_capsule_free);
    if (capsule == NULL) {
        job_free(job);
    }
    return capsule;
}

/* ---- the output's schema ------------------------------------------------- */

static int
output_schema(const Job *job, int wide, struct ArrowSchema *out)
{
    if (job->tagger == NULL) {
        return new_schema(out, "b", "", 0);
    }
    if (new_schema(out, "+s", "", 2) < 0) {
        return -1;
    }
    struct ArrowSchema *reference = out->children[0];
    if (new_schema(reference, "+s", "reference", job->nfields) < 0 ||
        new_schema(out->children[1], "l", "error_offset", 0) < 0) {
        release_schema(out);
        return -1;
    }
    const char *strings = wide ? "U" : "u";
    for (Py_ssize_t i = 0; i < job->nfields; i++) {
        struct ArrowSchema *field = reference->children[i];
        if (new_schema(field, job->distinct ? "i" : strings, job->names[i], 0) < 0) {
            release_schema(out);
            return -1;
        }
        if (job->distinct) {
            field->dictionary = calloc(1, sizeof(struct ArrowSchema));
            if (field->dictionary == NULL || new_schema(field->dictionary, strings, "", 0) < 0) {
                release_schema(out);
                return -1;
            }
        }
    }
    return 0;
}

/* ---- validate ------------------------------------------------------------ */

/* Whether the row's bytes are a well-formed text the runner accepts. */
static inline int
row_accepted(const Runner *runner, const unsigned char *p, size_t n)
{
    Source src;
    source_utf8(&src, p, n);
    Py_ssize_t end;
    int state = run_source(runner, &src, &end);
    return state > 0 && !src.ill_formed && runner->accepting[state];
}

typedef struct {
    const Strings *in;
    int64_t next;     /* the next row */
    int64_t stop;     /* past the last row of this share */
    uint8_t *values;
    uint8_t *valid;   /* NULL: no row of the input is null */
    int64_t nulls;
} Rows;

/* The next row with bytes (nulls and unreadable rows are settled here):
   1 with its bytes and number, 0 when there is none. */
static int
next_row(Rows *rows, const unsigned char **p, size_t *n, int64_t *row)
{
    while (rows->next < rows->stop) {
        int64_t i = rows->next++;
        int got = row_at(rows->in, i, p, n);
        if (got == 1) {
            rows->nulls++;
            continue;
        }
        if (rows->valid != NULL) {
            set_bit(rows->valid, i);
        }
        if (got < 0) {
            continue; /* unreadable: false */
        }
        *row = i;
        return 1;
    }
    return 0;
}

/* A row's verdict over its bytes, ASCII read directly: 1 when the runner
   accepts it, 0 when not, -1 at a byte past ASCII (the row is then run
   again, decoded).  A state's loop is skipped four bytes a test, with the
   runner's loop table (dfa.h). */
static inline int
row_ascii(const Runner *r, const unsigned char *p, size_t n)
{
    const Dfa *d = &r->dfa;
    uint32_t off = d->start;
    size_t i = 0;
    while (i < n) {
        unsigned char c = p[i++];
        if (c >= 128) {
            return -1;
        }
        uint32_t next = d->moves[off + d->map.ascii[c]];
        if (next == off && off != 0) {
            i = loops_skip_bytes(&r->loops, d, off, 0, p, i, n);
            continue;
        }
        if (next == 0) {
            /* Dead, unless a byte past ASCII makes the row ill-formed:
               the verdict is false either way. */
            return 0;
        }
        off = next;
    }
    return off != 0 && r->accepting[dfa_state(d, off)];
}

/* The verdicts on rows into the bitmaps, a row at a time: a row's run
   skips its states' loops (row_ascii), which rows stepped together could
   not. */
static void
validate_each(const Runner *runner, Rows *rows)
{
    const unsigned char *p;
    size_t n;
    int64_t row;
    while (next_row(rows, &p, &n, &row)) {
        int got = row_ascii(runner, p, n);
        if (got < 0) {
            got = row_accepted(runner, p, n);
        }
        if (got) {
            set_bit(rows->values, row);
        }
    }
}

/* A long column is cut into shares, one per processor (at most
   MAX_SHARES), each run on a thread of its own: rows are independent, and
   each share writes whole bytes of the shared bitmaps (its rows start at
   a multiple of 8), so the threads share nothing but the read-only
   tables and input.  A share is at least SHARE_ROWS rows, which keeps a
   thread's start-up (tens of microseconds) small beside its work; a
   thread that cannot start leaves its share to the caller.  The threads
   are CPython's (PyThread, in the stable ABI), not the C library's: the
   extension then needs no threads symbol of its own, whose version would
   tie the wheel to the C library it was built against (glibc 2.34 moved
   pthread_create into libc under a new version).  What a share runs
   calls nothing of Python's (a UTF-8 source, the C allocator), and the
   input stays alive in the caller's capsules. */
#define MAX_SHARES 4
#define SHARE_ROWS 32768

typedef struct {
    void (*work)(void *);
    void *arg;
    /* Held by the caller while the thread runs; the thread releases it as
       its last step, so acquiring it is the join. */
    PyThread_type_lock done;
} Thread;

/* A thread's body; after the release the caller may reuse the Thread. */
static void
thread_main(void *arg)
{
    Thread *thread = arg;
    PyThread_type_lock done = thread->done;
    thread->work(thread->arg);
    PyThread_release_lock(done);
}

/* Starts the thread, holding its lock; 0 (and no lock) where it cannot,
   and the caller runs the work itself. */
static int
thread_start(Thread *thread)
{
    thread->done = PyThread_allocate_lock();
    if (thread->done == NULL) {
        return 0;
    }
    PyThread_acquire_lock(thread->done, WAIT_LOCK);
    /* (unsigned long)-1 is the failure: the limited API lacks the
       macro that names it. */
    if (PyThread_start_new_thread(thread_main, thread) == (unsigned long)-1) {
        PyThread_release_lock(thread->done);
        PyThread_free_lock(thread->done);
        thread->done = NULL;
        return 0;
    }
    return 1;
}

static int
processors(void)
{
#ifdef _WIN32
    return 1;
#else
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n < 1 ? 1 : n > MAX_SHARES ? MAX_SHARES : (int)n;
#endif
}

/* How many shares a column of `length` rows is cut into, and the rows of
   each but the last (a multiple of 8). */
static int
share_count(int64_t length, int64_t *each)
{
    int shares = processors();
    if (length / SHARE_ROWS < shares) {
        shares = (int)(length / SHARE_ROWS);
    }
    if (shares < 1) {
        shares = 1;
    }
    *each = (length / shares + 7) & ~(int64_t)7;
    return shares;
}

/* Share k's rows [*first, *stop) of `length`, each share `each` rows. */
static void
share_rows(int64_t length, int shares, int64_t each, int k, int64_t *first, int64_t *stop)
{
    *first = each * k < length ? each * k : length;
    *stop = k == shares - 1 || each * (k + 1) > length ? length : each * (k + 1);
}

/* work(args[k]) for each of the n shares (n <= MAX_SHARES), all but the
   first on threads of their own: called with the GIL, which it releases
   while they run.  The threads start under it (on CPython 3.10 and 3.11,
   starting a thread reads the thread state of whoever holds the GIL). */
static void
run_shares(void (*work)(void *), void **args, int n)
{
    Thread threads[MAX_SHARES];
    int started[MAX_SHARES] = {0};
    for (int k = 1; k < n; k++) {
        threads[k].work = work;
        threads[k].arg = args[k];
        started[k] = thread_start(&threads[k]);
    }
    Py_BEGIN_ALLOW_THREADS
    for (int k = 0; k < n; k++) {
        if (started[k]) {
            PyThread_acquire_lock(threads[k].done, WAIT_LOCK);
            PyThread_release_lock(threads[k].done);
            PyThread_free_lock(threads[k].done);
        }
        else {
            work(args[k]);
        }
    }
    Py_END_ALLOW_THREADS
}

/* A share's rows validated, its counters on this thread's own stack while
   they change with every row: the shares lie side by side in one array,
   where one thread's writes would take the cache line another reads. */
typedef struct {
    const Runner *runner;
    Rows rows;
} ValidateShare;

static void
validate_share(void *arg)
{
    ValidateShare *share = arg;
    Rows rows = share->rows;
    validate_each(share->runner, &rows);
    share->rows = rows;
}

/* Every row of `in` validated into the two bitmaps; the null rows'
   count.  With the GIL, which the rows run without. */
static int64_t
validate_shared(const Runner *runner, const Strings *in, uint8_t *values, uint8_t *valid)
{
    int64_t each;
    int shares = share_count(in->length, &each);
    ValidateShare share[MAX_SHARES];
    void *args[MAX_SHARES];
    for (int k = 0; k < shares; k++) {
        int64_t first, stop;
        share_rows(in->length, shares, each, k, &first, &stop);
        Rows rows = {in, first, stop, values, valid, 0};
        share[k].runner = runner;
        share[k].rows = rows;
        args[k] = &share[k];
    }
    run_shares(validate_share, args, shares);
    int64_t nulls = 0;
    for (int k = 0; k < shares; k++) {
        nulls += share[k].rows.nulls;
    }
    return nulls;
}

static int
validate_rows(const Job *job, const Strings *in, struct ArrowArray *out)
{
    const Runner *runner = (const Runner *)job->runner;
    int64_t length = in->length;
    uint8_t *values = calloc(bitmap_size(length), 1);
    /* Without a validity bitmap in the input no row is null, and the
       output needs none either. */
    int nullable = in->valid != NULL || in->outer_valid != NULL;
    uint8_t *valid = nullable ? calloc(bitmap_size(length), 1) : NULL;
    if (values == NULL || (nullable && valid == NULL) || new_array(out, length, 2, 0) < 0) {
        free(values);
        free(valid);
        PyErr_NoMemory();
        return -1;
    }
    /* The rows run without the GIL (validate_shared releases it). */
    int64_t nulls = validate_shared(runner, in, values, valid);
    ArrayPrivate *pv = out->private_data;
    if (nulls == 0) {
        free(valid);
        valid = NULL;
    }
    pv->buffers[0] = valid;
    pv->buffers[1] = values;
    out->null_count = nulls;
    return 0;
}

/* ---- parse --------------------------------------------------------------- */

/* The byte offset in well-formed UTF-8 of code point `pos`, from a known
   (code point, byte) pair at or before it, which it then moves to. */
static size_t
byte_at(const unsigned char *p, Py_ssize_t pos, Py_ssize_t *known_pos, size_t *known_byte)
{
    if (pos < *known_pos) {
        *known_pos = 0;
        *known_byte = 0;
    }
    size_t b = *known_byte;
    for (Py_ssize_t k = *known_pos; k < pos; k++) {
        unsigned c = p[b];
        b += c < 0x80 ? 1 : c < 0xE0 ? 2 : c < 0xF0 ? 3 : 4;
    }
    *known_pos = pos;
    *known_byte = b;
    return b;
}

/* The code point offset of the first forbidden code point of the row, or
   -1. */
static Py_ssize_t
first_forbidden(const Job *job, const unsigned char *p, size_t n)
{
    Py_UCS4 buf[CHUNK];
    Source src;
    source_utf8(&src, p, n);
    for (;;) {
        Py_ssize_t at = src.at;
        Py_ssize_t got = source_next(&src, buf);
        if (got <= 0) {
            return -1;
        }
        for (Py_ssize_t i = 0; i < got; i++) {
            if (buf[i] < job->least_forbidden) {
                continue;
            }
            for (Py_ssize_t k = 0; k < job->nforbidden; k++) {
                if (buf[i] == job->forbidden[k]) {
                    return at + i;
                }
            }
        }
    }
}

/* What stops a parse share besides TAG_ and COLUMN_ failures (each code
   its own, so parse_raise tells them apart): a field whose constant is
   not a str. */
#define ROW_CONSTANT (-6)

/* A share of a parse: rows [first, stop) of the input, their fields into
   columns of their own (row i at i - first), their verdicts into the
   whole column's bitmaps and error offsets (whole bytes of each: first is
   a multiple of 8). */
typedef struct {
    const Job *job;
    const Strings *in;
    int64_t first, stop;
    Column *fields;
    uint8_t *ref_valid, *error_valid;
    int64_t *errors;
    int64_t ref_nulls, error_nulls;
    int failed;          /* 0, or the failure that stopped the share */
    Py_ssize_t column;   /* the field whose column failed */
} ParseShare;

/* The row's fields null (it does not parse, or is null): 0 or a
   COLUMN_ failure. */
static int
put_nulls(ParseShare *sh, int64_t at)
{
    for (Py_ssize_t f = 0; f < sh->job->nfields; f++) {
        int put = column_put(&sh->fields[f], at, NULL, 0);
        if (put < 0) {
            sh->column = f;
            return put;
        }
    }
    return 0;
}

/* Row i into the share: 0, or a failure (no exception set). */
static int
parse_row(ParseShare *sh, int64_t i)
{
    const Job *job = sh->job;
    int64_t at = i - sh->first;
    const unsigned char *p = NULL;
    size_t n = 0;
    int got = row_at(sh->in, i, &p, &n);
    if (got == 1) {
        sh->ref_nulls++;
        sh->error_nulls++;
        return put_nulls(sh, at);
    }
    Reading reading;
    Source src;
    int found = 0;
    if (got == 0) {
        source_utf8(&src, p, n);
        found = tagger_run_utf8(job->tagger, &src, &reading);
        if (found < 0) {
            return found;
        }
    }
    /* Every code point one byte: the spans are byte offsets. */
    int ascii = found == 1 && (size_t)src.at == n;
    Py_ssize_t error = -1;
    if (found == 1 && job->nforbidden > 0 && !ascii) {
        error = first_forbidden(job, p, n);
    }
    if (found == 1 && error < 0) {
        set_bit(sh->ref_valid, i);
        sh->error_nulls++;
        Py_ssize_t known_pos = 0;
        size_t known_byte = 0;
        for (Py_ssize_t f = 0; f < job->nfields; f++) {
            /* Only the slots the fields keep: a job of one field (a
               host column) reads one of a URI's eight. */
            Py_ssize_t span[2];
            tagger_slot_span(job->tagger, &reading, job->slots[f], span);
            Py_ssize_t start = span[0], end = span[1];
            const unsigned char *value = NULL;
            size_t size = 0;
            if (start <= -2) {
                Py_ssize_t k = -2 - start;
                if (k >= job->nconsts || job->const_utf8[k] == NULL) {
                    return ROW_CONSTANT;
                }
                value = (const unsigned char *)job->const_utf8[k];
                size = (size_t)job->const_len[k];
            }
            else if (start >= 0) {
                size_t from = ascii ? (size_t)start : byte_at(p, start, &known_pos, &known_byte);
                size_t to = ascii ? (size_t)end : byte_at(p, end, &known_pos, &known_byte);
                value = p + from;
                size = to - from;
            }
            int put = column_put(&sh->fields[f], at, value, size);
            if (put < 0) {
                sh->column = f;
                return put;
            }
        }
        return 0;
    }
    /* No match: the offset check gives, the end of the longest prefix some
       matching text starts with (an ill-formed sequence ends it).  A
       UTF-8 source never fails. */
    if (error < 0 && got == 0) {
        Source again;
        source_utf8(&again, p, n);
        Py_ssize_t end = 0;
        (void)run_source((const Runner *)job->runner, &again, &end);
        error = end;
    }
    if (error < 0) {
        error = 0;
    }
    sh->ref_nulls++;
    set_bit(sh->error_valid, i);
    sh->errors[i] = error;
    return put_nulls(sh, at);
}

/* A share's rows parsed, on a copy on this thread's own stack while its
   counters change with every row: the shares lie side by side in one
   array, where one thread's writes would take the cache line another
   reads (as validate_share's). */
static void
parse_share(void *arg)
{
    ParseShare share = *(ParseShare *)arg;
    for (int64_t i = share.first; i < share.stop && share.failed == 0; i++) {
        share.failed = parse_row(&share, i);
    }
    *(ParseShare *)arg = share;
}

/* The exception of what stopped a share; -1. */
static int
parse_raise(const ParseShare *sh)
{
    switch (sh->failed) {
    case TAG_NO_MEMORY:
    case TAG_INCONSISTENT:
        return tag_raise(sh->failed);
    case ROW_CONSTANT:
        PyErr_SetString(PyExc_TypeError, "a field's constant is not a str");
        return -1;
    default:
        return column_raise(&sh->fields[sh->column], sh->failed);
    }
}

/* The bytes of rows [first, stop) of the input, where its offsets say
   (not for views), capped: a larger column grows as it needs. */
static size_t
rows_bytes(const Strings *in, int64_t first, int64_t stop)
{
    int64_t size = 0;
    if (stop > first && in->kind == 'u') {
        const int32_t *offsets = in->offsets;
        size = (int64_t)offsets[in->offset + stop] - offsets[in->offset + first];
    }
    else if (stop > first && in->kind == 'U') {
        const int64_t *offsets = in->offsets;
        size = offsets[in->offset + stop] - offsets[in->offset + first];
    }
    size_t reserve = size > 0 ? (size_t)size : 0;
    return reserve > ((size_t)1 << 30) ? (size_t)1 << 30 : reserve;
}

/* The columns of field f of the later shares appended to the first
   share's, which is the output's (of every row's offsets): 0, or a
   COLUMN_ failure.  The first share's buffers are kept rather than copied
   into new ones: a column job that allocates and frees buffers of a
   batch's size on each call leads the C library's allocator to keep them
   (its threshold for mapping memory of its own rises with each one freed),
   and a stream's memory then grows with more batches. */
static int
append_columns(ParseShare *share, int shares, Py_ssize_t f)
{
    for (int k = 1; k < shares; k++) {
        int appended = column_append(&share[0].fields[f], &share[k].fields[f], share[k].first);
        if (appended < 0) {
            return appended;
        }
    }
    return 0;
}

typedef struct {
    int64_t length;
    Column fields[MAX_FIELDS];
    uint8_t *ref_valid, *error_valid;
    int64_t *errors;
    int64_t ref_nulls, error_nulls;
} Parsed;

static void
parsed_free(Parsed *out, Py_ssize_t nfields)
{
    for (Py_ssize_t f = 0; f < nfields; f++) {
        column_free(&out->fields[f]);
    }
    free(out->ref_valid);
    free(out->error_valid);
    free(out->errors);
}

/* The later shares' columns (the first's are the output's). */
static void
shares_free(ParseShare *share, int shares, Py_ssize_t nfields)
{
    for (int k = 1; k < shares; k++) {
        for (Py_ssize_t f = 0; f < nfields && share[k].fields != NULL; f++) {
            column_free(&share[k].fields[f]);
        }
        free(share[k].fields);
    }
}

/* Every row of `in` parsed into out's columns and bitmaps, the rows in
   shares (see run_shares): 0, or -1 with an exception set.  The first
   share writes out's columns, sized for every row; each later one writes
   columns of its own, appended to them (append_columns). */
static int
parse_shared(const Job *job, const Strings *in, Parsed *out)
{
    int64_t length = in->length, each;
    int shares = share_count(length, &each);
    ParseShare share[MAX_SHARES];
    void *args[MAX_SHARES];
    memset(share, 0, sizeof share);
    int ok = 1;
    for (int k = 0; k < shares; k++) {
        ParseShare *sh = &share[k];
        share_rows(length, shares, each, k, &sh->first, &sh->stop);
        sh->job = job;
        sh->in = in;
        sh->ref_valid = out->ref_valid;
        sh->error_valid = out->error_valid;
        sh->errors = out->errors;
        sh->fields = k == 0 ? out->fields : calloc((size_t)job->nfields, sizeof(Column));
        ok &= sh->fields != NULL;
        /* The first share's columns hold every row, and reserve the bytes
           of all of them: the later shares' are appended without growing. */
        int64_t rows = k == 0 ? length : sh->stop - sh->first;
        size_t reserve = rows_bytes(in, sh->first, k == 0 ? length : sh->stop);
        for (Py_ssize_t f = 0; ok && f < job->nfields; f++) {
            ok &= (job->distinct ? column_init_distinct : column_init)(
                      &sh->fields[f], rows, in->kind != 'u', reserve) == 0;
        }
        args[k] = sh;
    }
    if (!ok) {
        shares_free(share, shares, job->nfields);
        PyErr_NoMemory();
        return -1;
    }
    run_shares(parse_share, args, shares);
    int failed = 0;
    for (int k = 0; k < shares; k++) {
        out->ref_nulls += share[k].ref_nulls;
        out->error_nulls += share[k].error_nulls;
        if (!failed && share[k].failed != 0) {
            failed = 1;
            parse_raise(&share[k]);
        }
    }
    for (Py_ssize_t f = 0; !failed && f < job->nfields; f++) {
        int appended = append_columns(share, shares, f);
        if (appended < 0) {
            failed = 1;
            column_raise(&share[0].fields[f], appended);
        }
    }
    shares_free(share, shares, job->nfields);
    return failed ? -1 : 0;
}

static int
parse_rows(const Job *job, const Strings *in, struct ArrowArray *out)
{
    int64_t length = in->length;
    Parsed parsed;
    memset(&parsed, 0, sizeof parsed);
    parsed.length = length;
    parsed.ref_valid = calloc(bitmap_size(length), 1);
    parsed.error_valid = calloc(bitmap_size(length), 1);
    parsed.errors = calloc((size_t)length + 1, sizeof(int64_t));
    if (parsed.ref_valid == NULL || parsed.error_valid == NULL || parsed.errors == NULL) {
        parsed_free(&parsed, 0);
        PyErr_NoMemory();
        return -1;
    }
    if (parse_shared(job, in, &parsed) < 0) {
        parsed_free(&parsed, job->nfields);
        return -1;
    }
    /* outer: struct<reference, error_offset>; reference: struct<fields>. */
    if (new_array(out, length, 1, 2) < 0) {
        parsed_free(&parsed, job->nfields);
        PyErr_NoMemory();
        return -1;
    }
    struct ArrowArray *reference = out->children[0];
    struct ArrowArray *errors = out->children[1];
    if (new_array(reference, length, 1, job->nfields) < 0 || new_array(errors, length, 2, 0) < 0) {
        release_array(out);
        parsed_free(&parsed, job->nfields);
        PyErr_NoMemory();
        return -1;
    }
    for (Py_ssize_t f = 0; f < job->nfields; f++) {
        if (column_export(&parsed.fields[f], reference->children[f]) < 0) {
            release_array(out);
            parsed_free(&parsed, job->nfields);
            PyErr_NoMemory();
            return -1;
        }
    }
    /* The outer struct has no null (a null row has neither a reference
       nor an error offset): so a stream of it is a stream of record
       batches, which is how DuckDB and pyarrow's readers take a table.
       Bitmaps of no null are left out, as producers do. */
    out->null_count = 0;
    ((ArrayPrivate *)reference->private_data)->buffers[0] =
        parsed.ref_nulls > 0 ? parsed.ref_valid : NULL;
    reference->null_count = parsed.ref_nulls;
    ((ArrayPrivate *)errors->private_data)->buffers[0] =
        parsed.error_nulls > 0 ? parsed.error_valid : NULL;
    ((ArrayPrivate *)errors->private_data)->buffers[1] = parsed.errors;
    errors->null_count = parsed.error_nulls;
    if (parsed.ref_nulls == 0) {
        free(parsed.ref_valid);
    }
    if (parsed.error_nulls == 0) {
        free(parsed.error_valid);
    }
    return 0;
}

/* The job over one array: 0 with *out built, or -1 with an exception set. */
static int
run_job(const Job *job, const struct ArrowSchema *schema, const struct ArrowArray *array,
        struct ArrowArray *out)
{
    Strings in;
    if (read_strings(schema, array, &in) < 0) {
        return -1;
    }
    return job->tagger == NULL ? validate_rows(job, &in, out) : parse_rows(job, &in, out);
}

PyDoc_STRVAR(column_array_doc,
"column_array(job, schema, array, /)\n--\n\n"
"The job run over an Arrow array given as its two capsules (from\n"
"__arrow_c_array__): the output's (schema, array) capsules.");

PyDoc_STRVAR(array_stream_doc,
"array_stream(schema, array, /)\n--\n\n"
"An Arrow array's capsules (which it takes) as a stream of one batch.");

static PyObject *
column_array(PyObject *module, PyObject *args)
{
    PyObject *job_capsule, *schema_capsule, *array_capsule;
    if (!PyArg_ParseTuple(args, "OOO", &job_capsule, &schema_capsule, &array_capsule)) {
        return NULL;
    }
    Job *job = job_of(job_capsule);
    if (job == NULL) {
        return NULL;
    }
    struct ArrowSchema *schema = PyCapsule_GetPointer(schema_capsule, "arrow_schema");
    struct ArrowArray *array = PyCapsule_GetPointer(array_capsule, "arrow_array");
    if (schema == NULL || array == NULL) {
        return NULL;
    }
    int kind = input_kind(schema);
    if (kind == 0) {
        return NULL;
    }
    struct ArrowSchema *out_schema = calloc(1, sizeof *out_schema);
    struct ArrowArray *out_array = calloc(1, sizeof *out_array);
    if (out_schema == NULL || out_array == NULL) {
        free(out_schema);
        free(out_array);
        return PyErr_NoMemory();
    }
    if (output_schema(job, kind != 'u', out_schema) < 0) {
        free(out_schema);
        free(out_array);
        return PyErr_NoMemory();
    }
    if (run_job(job, schema, array, out_array) < 0) {
        out_schema->release(out_schema);
        free(out_schema);
        free(out_array);
        return NULL;
    }
    return capsule_pair(out_schema, out_array);
}

/* ---- streams ------------------------------------------------------------- */

typedef struct {
    struct ArrowArrayStream input;
    struct ArrowSchema in_schema;
    PyObject *job_capsule;
    const Job *job;
    int wide;
    char *error;
} StreamPrivate;

static void
stream_error(StreamPrivate *pv, const char *message)
{
    free(pv->error);
    pv->error = copy_string(message != NULL ? message : "unknown error");
}

/* The pending Python exception as the stream's error, cleared. */
static void
stream_error_from_python(StreamPrivate *pv)
{
    PyObject *type, *value, *trace;
    PyErr_Fetch(&type, &value, &trace);
    PyObject *text = value != NULL ? PyObject_Str(value) : NULL;
    const char *utf8 = text != NULL ? PyUnicode_AsUTF8AndSize(text, NULL) : NULL;
    stream_error(pv, utf8);
    PyErr_Clear();
    Py_XDECREF(text);
    Py_XDECREF(type);
    Py_XDECREF(value);
    Py_XDECREF(trace);
}

static int
stream_get_schema(struct ArrowArrayStream *stream, struct ArrowSchema *out)
{
    StreamPrivate *pv = stream->private_data;
    if (output_schema(pv->job, pv->wide, out) < 0) {
        stream_error(pv, "out of memory");
        return ENOMEM;
    }
    return 0;
}

static int
stream_get_next(struct ArrowArrayStream *stream, struct ArrowArray *out)
{
    StreamPrivate *pv = stream->private_data;
    struct ArrowArray in;
    memset(&in, 0, sizeof in);
    int rc = pv->input.get_next(&pv->input, &in);
    if (rc != 0) {
        const char *why = pv->input.get_last_error != NULL
                              ? pv->input.get_last_error(&pv->input)
                              : NULL;
        stream_error(pv, why != NULL ? why : "the input stream failed");
        return rc;
    }
    if (in.release == NULL) { /* the end */
        memset(out, 0, sizeof *out);
        return 0;
    }
    PyGILState_STATE gil = PyGILState_Ensure();
    if (run_job(pv->job, &pv->in_schema, &in, out) < 0) {
        stream_error_from_python(pv);
        rc = EINVAL;
    }
    PyGILState_Release(gil);
    in.release(&in);
    return rc;
}

static const char *
stream_get_last_error(struct ArrowArrayStream *stream)
{
    return ((StreamPrivate *)stream->private_data)->error;
}

static void
stream_release(struct ArrowArrayStream *stream)
{
    StreamPrivate *pv = stream->private_data;
    if (pv->input.release != NULL) {
        pv->input.release(&pv->input);
    }
    if (pv->in_schema.release != NULL) {
        pv->in_schema.release(&pv->in_schema);
    }
    free(pv->error);
    /* A consumer may release the stream on a thread of its own, or after
       the interpreter has gone (then the job is left to the process's end). */
    if (Py_IsInitialized()) {
        PyGILState_STATE gil = PyGILState_Ensure();
        Py_DECREF(pv->job_capsule);
        PyGILState_Release(gil);
    }
    free(pv);
    stream->release = NULL;
}

PyDoc_STRVAR(column_stream_doc,
"column_stream(job, stream, /)\n--\n\n"
"The job run over an Arrow stream given as its capsule (from\n"
"__arrow_c_stream__), which it takes: a stream capsule whose batches are\n"
"made as they are pulled.");

static PyObject *
column_stream(PyObject *module, PyObject *args)
{
    PyObject *job_capsule, *stream_capsule;
    if (!PyArg_ParseTuple(args, "OO", &job_capsule, &stream_capsule)) {
        return NULL;
    }
    const Job *job = job_of(job_capsule);
    if (job == NULL) {
        return NULL;
    }
    struct ArrowArrayStream *input =
        PyCapsule_GetPointer(stream_capsule, "arrow_array_stream");
    if (input == NULL) {
        return NULL;
    }
    if (input->release == NULL) {
        PyErr_SetString(PyExc_ValueError, "the Arrow stream was released or taken");
        return NULL;
    }
    StreamPrivate *pv = calloc(1, sizeof *pv);
    struct ArrowArrayStream *out = calloc(1, sizeof *out);
    if (pv == NULL || out == NULL) {
        free(pv);
        free(out);
        return PyErr_NoMemory();
    }
    /* Take the input: its capsule no longer releases it. */
    pv->input = *input;
    input->release = NULL;
    pv->job_capsule = Py_NewRef(job_capsule);
    pv->job = job;
    out->get_schema = stream_get_schema;
    out->get_next = stream_get_next;
    out->get_last_error = stream_get_last_error;
    out->release = stream_release;
    out->private_data = pv;
    int rc;
    Py_BEGIN_ALLOW_THREADS
    rc = pv->input.get_schema(&pv->input, &pv->in_schema);
    Py_END_ALLOW_THREADS
    if (rc != 0) {
        const char *why = pv->input.get_last_error != NULL
                              ? pv->input.get_last_error(&pv->input)
                              : NULL;
        PyErr_Format(PyExc_ValueError, "the Arrow stream has no schema: %s",
                     why != NULL ? why : "(no message)");
        pv->in_schema.release = NULL;
        out->release(out);
        free(out);
        return NULL;
    }
    int kind = input_kind(&pv->in_schema);
    if (kind == 0) {
        out->release(out);
        free(out);
        return NULL;
    }
    pv->wide = kind != 'u';
    return capsule_of(out, "arrow_array_stream", stream_capsule_free, drop_stream);
}

PyMethodDef columns_methods[] = {
    {"column_job", column_job, METH_VARARGS, column_job_doc},
    {"column_array", column_array, METH_VARARGS, column_array_doc},
    {"column_stream", column_stream, METH_VARARGS, column_stream_doc},
    {"array_stream", array_stream, METH_VARARGS, array_stream_doc},
    {NULL, NULL, 0, NULL},
};
