/*
 * The Arrow C data interface (https://arrow.apache.org/docs/format/CDataInterface.html),
 * as the extension reads and writes it (arrow.c): the structures as the
 * specification defines them, a string column read row by row (utf8,
 * large_utf8, utf8_view, or a struct of one such column; offsets and
 * validity honoured), arrays and schemas built with malloc (so that a
 * consumer on any thread may release them without the GIL), a string
 * column built row by row, the capsules
 * of the Arrow PyCapsule interface that carry them, and a stream of one
 * array.  Nothing here knows what a column is run for (columns.c).
 */

#ifndef URIGRAMMAR_NATIVE_ARROW_H
#define URIGRAMMAR_NATIVE_ARROW_H

#include "classmap.h"

/* The Arrow C data interface (https://arrow.apache.org/docs/format/CDataInterface.html),
   as its specification defines it, guarded as it asks. */
#ifndef ARROW_C_DATA_INTERFACE
#define ARROW_C_DATA_INTERFACE

#define ARROW_FLAG_DICTIONARY_ORDERED 1
#define ARROW_FLAG_NULLABLE 2
#define ARROW_FLAG_MAP_KEYS_SORTED 4

struct ArrowSchema {
    const char *format;
    const char *name;
    const char *metadata;
    int64_t flags;
    int64_t n_children;
    struct ArrowSchema **children;
    struct ArrowSchema *dictionary;
    void (*release)(struct ArrowSchema *);
    void *private_data;
};

struct ArrowArray {
    int64_t length;
    int64_t null_count;
    int64_t offset;
    int64_t n_buffers;
    int64_t n_children;
    const void **buffers;
    struct ArrowArray **children;
    struct ArrowArray *dictionary;
    void (*release)(struct ArrowArray *);
    void *private_data;
};

#endif

#ifndef ARROW_C_STREAM_INTERFACE
#define ARROW_C_STREAM_INTERFACE

struct ArrowArrayStream {
    int (*get_schema)(struct ArrowArrayStream *, struct ArrowSchema *out);
    int (*get_next)(struct ArrowArrayStream *, struct ArrowArray *out);
    const char *(*get_last_error)(struct ArrowArrayStream *);
    void (*release)(struct ArrowArrayStream *);
    void *private_data;
};

#endif

/* ---- reading a string column -------------------------------------------- */

/* ---- reading a string column -------------------------------------------- */

typedef struct {
    char kind;                    /* 'u', 'U' or 'v' (utf8_view) */
    int64_t length;
    int64_t offset;               /* of row 0 in the string array's buffers */
    const uint8_t *valid;         /* the string array's validity, or NULL */
    const uint8_t *outer_valid;   /* a one-column struct's, or NULL */
    int64_t outer_offset;
    const void *offsets;          /* 'u': int32, 'U': int64, 'v': the views */
    const unsigned char *data;    /* 'u', 'U' */
    const unsigned char *const *vbufs; /* 'v': the data buffers */
    const int64_t *vsizes;        /* 'v': their sizes in bytes, or NULL */
    int64_t nvbufs;
} Strings;

static inline int
bit(const uint8_t *bits, int64_t i)
{
    return (bits[i >> 3] >> (i & 7)) & 1;
}

static inline void
set_bit(uint8_t *bits, int64_t i)
{
    bits[i >> 3] |= (uint8_t)(1u << (i & 7));
}

static const unsigned char ARROW_EMPTY[1] = {0};

/* Row i: 1 when it is null, 0 with its bytes in *p and *n, -1 when its
   offsets are out of order or point where no buffer is (read as
   ill-formed).  Offsets past the end of the data buffer cannot be caught:
   the C data interface gives no buffer's length but the views'. */
static inline int
row_at(const Strings *s, int64_t i, const unsigned char **p, size_t *n)
{
    if (s->outer_valid != NULL && !bit(s->outer_valid, s->outer_offset + i)) {
        return 1;
    }
    int64_t j = s->offset + i;
    if (s->valid != NULL && !bit(s->valid, j)) {
        return 1;
    }
    int64_t start, end;
    if (s->kind == 'u') {
        const int32_t *offsets = s->offsets;
        start = offsets[j];
        end = offsets[j + 1];
    }
    else if (s->kind == 'U') {
        const int64_t *offsets = s->offsets;
        start = offsets[j];
        end = offsets[j + 1];
    }
    else {
        const unsigned char *view = (const unsigned char *)s->offsets + 16 * j;
        int32_t len, index, at;
        memcpy(&len, view, 4);
        if (len < 0) {
            return -1;
        }
        if (len <= 12) {
            *p = view + 4;
            *n = (size_t)len;
            return 0;
        }
        memcpy(&index, view + 8, 4);
        memcpy(&at, view + 12, 4);
        if (index < 0 || index >= s->nvbufs || at < 0 || s->vbufs[index] == NULL ||
            (s->vsizes != NULL && (int64_t)at + len > s->vsizes[index])) {
            return -1;
        }
        *p = s->vbufs[index] + at;
        *n = (size_t)len;
        return 0;
    }
    if (start < 0 || end < start || (s->data == NULL && end > start)) {
        return -1;
    }
    *p = end == start ? ARROW_EMPTY : s->data + start;
    *n = (size_t)(end - start);
    return 0;
}

/* The strings of a schema: the schema itself, or the one child of a
   struct; NULL with TypeError set for anything else; *kind its format's
   kind ('u', 'U' or 'v'). */
NATIVE_SHARED const struct ArrowSchema *
string_schema(const struct ArrowSchema *schema, char *kind);

/* The rows of array (of schema): 0, or -1 with an exception set. */
NATIVE_SHARED int
read_strings(const struct ArrowSchema *schema, const struct ArrowArray *array, Strings *out);

/* ---- building arrays and schemas ----------------------------------------- */

typedef struct {
    void *buffers[3];
    struct ArrowArray *children[];
} ArrayPrivate;

/* An empty array of n_buffers (at most 3) and n_children zeroed children,
   released with release_array: 0, or -1 (out of memory, *a untouched). */
NATIVE_SHARED int
new_array(struct ArrowArray *a, int64_t length, int64_t n_buffers, int64_t n_children);
NATIVE_SHARED void
release_array(struct ArrowArray *a);

/* A schema of format and name with n_children zeroed children, nullable,
   released with release_schema: 0, or -1 (out of memory). */
NATIVE_SHARED int
new_schema(struct ArrowSchema *s, const char *format, const char *name, int64_t n_children);
NATIVE_SHARED void
release_schema(struct ArrowSchema *s);

/* A deep copy of src into dst, released with release_schema: 0, or -1
   (out of memory, dst untouched). */
NATIVE_SHARED int
copy_schema(const struct ArrowSchema *src, struct ArrowSchema *dst);

/* A malloc'ed copy of text, or NULL. */
NATIVE_SHARED char *
copy_string(const char *text);

static inline size_t
bitmap_size(int64_t length)
{
    return (size_t)(length / 8 + 1);
}

/* A string column being built: offsets (int32, or int64 when wide), data
   and validity.  A distinct column (column_init_distinct) is dictionary
   encoded: offsets and data hold each distinct value once, in the order
   first met, and `indices` each row's value; `table` finds a value met
   before (open addressing: per entry, the value's hash in the high 32
   bits and its index + 1 in the low, 0 for empty). */
typedef struct {
    int wide;
    int64_t length;
    void *offsets;
    unsigned char *data;
    size_t size, cap;
    uint8_t *valid;
    int64_t nulls;
    int32_t *indices;  /* NULL: not distinct */
    int64_t ndistinct;
    uint64_t *table;
    size_t table_mask; /* its size - 1, a power of 2 less one */
    int64_t in_table;  /* values the table holds */
} Column;

/* reserve: the bytes the column may need, reserved, not touched:
   0, or -1 (out of memory; column_free frees what was taken). */
NATIVE_SHARED int
column_init(Column *c, int64_t length, int wide, size_t reserve);
/* The same for a distinct column. */
NATIVE_SHARED int
column_init_distinct(Column *c, int64_t length, int wide, size_t reserve);
NATIVE_SHARED void
column_free(Column *c);
/* Row i's value: bytes (n of them at p), or null when p is NULL.  0, or
   COLUMN_NO_MEMORY or COLUMN_TOO_LONG with no exception set (a column's
   rows may be written without the GIL): column_raise raises it. */
#define COLUMN_NO_MEMORY (-4)
#define COLUMN_TOO_LONG (-5)
NATIVE_SHARED int
column_put(Column *c, int64_t i, const unsigned char *p, size_t n);
/* -1 with the exception of what column_put gave set; with the GIL. */
NATIVE_SHARED int
column_raise(const Column *c, int failed);
/* The rows of c (a column of the same kind, built for rows first ..
   first + c->length of out) written into out, whose rows those are: 0,
   or a COLUMN_ failure.  first is a multiple of 8, so c's validity
   starts a byte of out's. */
NATIVE_SHARED int
column_append(Column *out, const Column *c, int64_t first);
/* Move the column into a string array, or for a distinct column an int32
   array of its indices whose dictionary holds the values (out, zeroed by
   new_array): 0, or -1 (out of memory). */
NATIVE_SHARED int
column_export(Column *c, struct ArrowArray *out);

/* ---- capsules ------------------------------------------------------------ */

/* The destructors of the capsules "arrow_schema", "arrow_array" and
   "arrow_array_stream": release what no consumer took. */
NATIVE_SHARED void
schema_capsule_free(PyObject *capsule);
NATIVE_SHARED void
array_capsule_free(PyObject *capsule);
NATIVE_SHARED void
stream_capsule_free(PyObject *capsule);

/* Release and free a schema, an array, a stream (malloc'ed). */
NATIVE_SHARED void
drop_schema(void *what);
NATIVE_SHARED void
drop_array(void *what);
NATIVE_SHARED void
drop_stream(void *what);

/* A capsule owning *what (malloc'ed, released by destroy), or NULL with
   an exception set, *what then released by drop. */
NATIVE_SHARED PyObject *
capsule_of(void *what, const char *name, PyCapsule_Destructor destroy, void (*drop)(void *));

/* The pair of capsules (schema, array) owning both (malloc'ed), or NULL
   with an exception set, both then released. */
NATIVE_SHARED PyObject *
capsule_pair(struct ArrowSchema *schema, struct ArrowArray *array);

/* The kind of a schema's strings ('u', 'U' or 'v'), or 0 with an
   exception set. */
NATIVE_SHARED int
input_kind(const struct ArrowSchema *schema);

/* array_stream(schema, array, /): an array's capsules (which it takes) as
   a stream capsule of one batch. */
NATIVE_SHARED PyObject *
array_stream(PyObject *module, PyObject *args);

#endif /* URIGRAMMAR_NATIVE_ARROW_H */
