/*
 * The Arrow C data interface (arrow.h): reading a string column, building
 * arrays and schemas, their capsules, and a stream of one array.
 */

#include "arrow.h"

#include <errno.h>
#include <stdlib.h>

/* The kind of a string format ('u', 'U', 'v'), or 0. */
static char
string_kind(const char *format)
{
    if (format == NULL) {
        return 0;
    }
    if (strcmp(format, "u") == 0) {
        return 'u';
    }
    if (strcmp(format, "U") == 0) {
        return 'U';
    }
    if (strcmp(format, "vu") == 0) {
        return 'v';
    }
    return 0;
}

/* The strings of a schema: the schema itself, or the one child of a
   struct; NULL with TypeError set for anything else. */
const struct ArrowSchema *
string_schema(const struct ArrowSchema *schema, char *kind)
{
    if (schema == NULL || schema->release == NULL) {
        PyErr_SetString(PyExc_ValueError, "the Arrow schema was released");
        return NULL;
    }
    const struct ArrowSchema *found = schema;
    if (schema->format != NULL && strcmp(schema->format, "+s") == 0 &&
        schema->n_children == 1 && schema->children != NULL) {
        found = schema->children[0];
        if (found == NULL || found->release == NULL) {
            PyErr_SetString(PyExc_ValueError, "an Arrow struct schema without its one child");
            return NULL;
        }
    }
    *kind = string_kind(found->format);
    if (*kind == 0 || found->dictionary != NULL) {
        PyErr_Format(PyExc_TypeError,
                     "an Arrow column of strings (utf8, large_utf8 or utf8_view) was "
                     "expected, not one of format '%s'",
                     found->format == NULL ? "" : found->format);
        return NULL;
    }
    return found;
}

/* The rows of array (of schema): 0, or -1 with an exception set. */
int
read_strings(const struct ArrowSchema *schema, const struct ArrowArray *array, Strings *out)
{
    char kind;
    const struct ArrowSchema *strings = string_schema(schema, &kind);
    if (strings == NULL) {
        return -1;
    }
    if (array == NULL || array->release == NULL) {
        PyErr_SetString(PyExc_ValueError, "the Arrow array was released");
        return -1;
    }
    memset(out, 0, sizeof *out);
    out->kind = kind;
    out->length = array->length;
    const struct ArrowArray *column = array;
    int64_t offset = 0;
    if (strings != schema) {
        if (array->n_children != 1 || array->children == NULL || array->children[0] == NULL) {
            PyErr_SetString(PyExc_ValueError, "a struct array without its one child");
            return -1;
        }
        if (array->null_count != 0 && array->n_buffers >= 1 && array->buffers != NULL) {
            out->outer_valid = array->buffers[0];
        }
        out->outer_offset = array->offset;
        /* A struct's offset applies to its children (the C data
           interface): its row i is the child's row offset + i. */
        offset = array->offset;
        column = array->children[0];
    }
    /* Each sum is checked before it is made: a row's index must not
       overflow (an offset near 2**63 would wrap it below the buffers). */
    if (array->length < 0 || array->offset < 0 || column->offset < 0 ||
        offset > INT64_MAX - array->length || column->length < offset + array->length ||
        column->offset > INT64_MAX - 1 - (offset + array->length)) {
        PyErr_SetString(PyExc_ValueError, "an Arrow array with an invalid length or offset");
        return -1;
    }
    out->offset = column->offset + offset;
    /* utf8 and large_utf8: validity, offsets, data; utf8_view: validity,
       views, the data buffers, their sizes. */
    if (column->n_buffers < 3 || column->buffers == NULL) {
        PyErr_SetString(PyExc_ValueError, "an Arrow string array without its buffers");
        return -1;
    }
    if (column->null_count != 0) {
        out->valid = column->buffers[0];
    }
    out->offsets = column->buffers[1];
    if (kind == 'v') {
        /* The views, the variadic data buffers, then their sizes. */
        out->vbufs = (const unsigned char *const *)(column->buffers + 2);
        out->nvbufs = column->n_buffers - 3;
        /* The sizes are the only buffer lengths the interface carries:
           a view reaching past its buffer's is read as ill-formed. */
        out->vsizes = column->buffers[column->n_buffers - 1];
    }
    else {
        out->data = column->buffers[2];
    }
    if (out->length > 0 && out->offsets == NULL) {
        PyErr_SetString(PyExc_ValueError, "an Arrow string array without offsets");
        return -1;
    }
    return 0;
}

/* ---- building arrays and schemas ----------------------------------------- */

void
release_array(struct ArrowArray *a)
{
    ArrayPrivate *pv = a->private_data;
    if (a->dictionary != NULL) {
        if (a->dictionary->release != NULL) {
            a->dictionary->release(a->dictionary);
        }
        free(a->dictionary);
    }
    for (int64_t k = 0; k < a->n_children; k++) {
        struct ArrowArray *child = pv->children[k];
        if (child != NULL) {
            if (child->release != NULL) {
                child->release(child);
            }
            free(child);
        }
    }
    for (int k = 0; k < 3; k++) {
        free(pv->buffers[k]);
    }
    free(pv);
    a->release = NULL;
}

/* An empty array of n_buffers (at most 3) and n_children zeroed children,
   released with release_array: 0, or -1 (out of memory, *a untouched). */
int
new_array(struct ArrowArray *a, int64_t length, int64_t n_buffers, int64_t n_children)
{
    ArrayPrivate *pv =
        calloc(1, sizeof(ArrayPrivate) + (size_t)n_children * sizeof(struct ArrowArray *));
    if (pv == NULL) {
        return -1;
    }
    memset(a, 0, sizeof *a);
    a->length = length;
    a->n_buffers = n_buffers;
    a->n_children = n_children;
    a->buffers = (const void **)pv->buffers;
    a->children = n_children > 0 ? pv->children : NULL;
    a->private_data = pv;
    a->release = release_array;
    for (int64_t k = 0; k < n_children; k++) {
        pv->children[k] = calloc(1, sizeof(struct ArrowArray));
        if (pv->children[k] == NULL) {
            release_array(a);
            return -1;
        }
    }
    return 0;
}

typedef struct {
    char *format;
    char *name;
    char *metadata;
    struct ArrowSchema *children[];
} SchemaPrivate;

void
release_schema(struct ArrowSchema *s)
{
    SchemaPrivate *pv = s->private_data;
    for (int64_t k = 0; k < s->n_children; k++) {
        struct ArrowSchema *child = pv->children[k];
        if (child != NULL) {
            if (child->release != NULL) {
                child->release(child);
            }
            free(child);
        }
    }
    if (s->dictionary != NULL) {
        if (s->dictionary->release != NULL) {
            s->dictionary->release(s->dictionary);
        }
        free(s->dictionary);
    }
    free(pv->format);
    free(pv->name);
    free(pv->metadata);
    free(pv);
    s->release = NULL;
}

char *
copy_string(const char *text)
{
    size_t n = strlen(text) + 1;
    char *copy = malloc(n);
    if (copy != NULL) {
        memcpy(copy, text, n);
    }
    return copy;
}

int
new_schema(struct ArrowSchema *s, const char *format, const char *name, int64_t n_children)
{
    SchemaPrivate *pv =
        calloc(1, sizeof(SchemaPrivate) + (size_t)n_children * sizeof(struct ArrowSchema *));
    if (pv == NULL) {
        return -1;
    }
    memset(s, 0, sizeof *s);
    s->n_children = n_children;
    s->children = n_children > 0 ? pv->children : NULL;
    s->flags = ARROW_FLAG_NULLABLE;
    s->private_data = pv;
    s->release = release_schema;
    pv->format = copy_string(format);
    pv->name = copy_string(name);
    s->format = pv->format;
    s->name = pv->name;
    if (pv->format == NULL || pv->name == NULL) {
        release_schema(s);
        return -1;
    }
    for (int64_t k = 0; k < n_children; k++) {
        pv->children[k] = calloc(1, sizeof(struct ArrowSchema));
        if (pv->children[k] == NULL) {
            release_schema(s);
            return -1;
        }
    }
    return 0;
}

/* The bytes of a schema's metadata (an int32 count, then each key and
   value as an int32 length and its bytes), or 0 for none. */
static size_t
metadata_size(const char *metadata)
{
    if (metadata == NULL) {
        return 0;
    }
    int32_t count, len;
    size_t at = 4;
    memcpy(&count, metadata, 4);
    for (int32_t i = 0; i < 2 * count; i++) {
        memcpy(&len, metadata + at, 4);
        at += 4 + (size_t)(len > 0 ? len : 0);
    }
    return at;
}

/* A deep copy of src into dst, released with release_schema: 0, or -1
   (out of memory, dst untouched). */
int
copy_schema(const struct ArrowSchema *src, struct ArrowSchema *dst)
{
    if (new_schema(dst, src->format != NULL ? src->format : "", src->name != NULL ? src->name : "",
                   src->n_children) < 0) {
        return -1;
    }
    dst->flags = src->flags;
    SchemaPrivate *pv = dst->private_data;
    size_t size = metadata_size(src->metadata);
    if (size > 0) {
        pv->metadata = malloc(size);
        if (pv->metadata == NULL) {
            release_schema(dst);
            return -1;
        }
        memcpy(pv->metadata, src->metadata, size);
        dst->metadata = pv->metadata;
    }
    for (int64_t k = 0; k < src->n_children; k++) {
        if (copy_schema(src->children[k], dst->children[k]) < 0) {
            release_schema(dst);
            return -1;
        }
    }
    if (src->dictionary != NULL) {
        dst->dictionary = calloc(1, sizeof(struct ArrowSchema));
        if (dst->dictionary == NULL || copy_schema(src->dictionary, dst->dictionary) < 0) {
            release_schema(dst);
            return -1;
        }
    }
    return 0;
}

/* The output's schema: bool for validate; for parse, the struct of the
   reference's fields (utf8, or large_utf8 when wide) and the offset. */

/* ---- capsules ------------------------------------------------------------ */

void
schema_capsule_free(PyObject *capsule)
{
    struct ArrowSchema *s = PyCapsule_GetPointer(capsule, "arrow_schema");
    if (s != NULL) {
        if (s->release != NULL) {
            s->release(s);
        }
        free(s);
    }
}

void
array_capsule_free(PyObject *capsule)
{
    struct ArrowArray *a = PyCapsule_GetPointer(capsule, "arrow_array");
    if (a != NULL) {
        if (a->release != NULL) {
            a->release(a);
        }
        free(a);
    }
}

void
stream_capsule_free(PyObject *capsule)
{
    struct ArrowArrayStream *s = PyCapsule_GetPointer(capsule, "arrow_array_stream");
    if (s != NULL) {
        if (s->release != NULL) {
            s->release(s);
        }
        free(s);
    }
}

/* A capsule owning *what (malloc'ed, released by destroy), or NULL with
   an exception set, *what then released by drop. */
PyObject *
capsule_of(void *what, const char *name, PyCapsule_Destructor destroy, void (*drop)(void *))
{
    PyObject *capsule = PyCapsule_New(what, name, destroy);
    if (capsule == NULL) {
        drop(what);
    }
    return capsule;
}

PyObject *
capsule_pair(struct ArrowSchema *schema, struct ArrowArray *array)
{
    PyObject *s = capsule_of(schema, "arrow_schema", schema_capsule_free, drop_schema);
    PyObject *a = capsule_of(array, "arrow_array", array_capsule_free, drop_array);
    PyObject *pair = s == NULL || a == NULL ? NULL : PyTuple_Pack(2, s, a);
    Py_XDECREF(s);
    Py_XDECREF(a);
    return pair;
}

void
drop_schema(void *what)
{
    struct ArrowSchema *s = what;
    if (s->release != NULL) {
        s->release(s);
    }
    free(s);
}

void
drop_array(void *what)
{
    struct ArrowArray *a = what;
    if (a->release != NULL) {
        a->release(a);
    }
    free(a);
}

void
drop_stream(void *what)
{
    struct ArrowArrayStream *s = what;
    if (s->release != NULL) {
        s->release(s);
    }
    free(s);
}

int
input_kind(const struct ArrowSchema *schema)
{
    char kind;
    return string_schema(schema, &kind) == NULL ? 0 : kind;
}

/* ---- one array as a stream ------------------------------------------------ */

/* One array as a stream of one batch: for a producer that offers only
   __arrow_c_array__, and for an array made here, which a consumer of
   streams (DuckDB) reads so.  Each get_schema gives a copy. */
typedef struct {
    struct ArrowSchema schema;
    struct ArrowArray array;
} OnePrivate;

static int
one_get_schema(struct ArrowArrayStream *stream, struct ArrowSchema *out)
{
    OnePrivate *pv = stream->private_data;
    return copy_schema(&pv->schema, out) < 0 ? ENOMEM : 0;
}

static int
one_get_next(struct ArrowArrayStream *stream, struct ArrowArray *out)
{
    OnePrivate *pv = stream->private_data;
    *out = pv->array; /* after the first call: released, the end */
    pv->array.release = NULL;
    return 0;
}

static const char *
one_get_last_error(struct ArrowArrayStream *stream)
{
    (void)stream;
    return "out of memory";
}

static void
one_release(struct ArrowArrayStream *stream)
{
    OnePrivate *pv = stream->private_data;
    if (pv->schema.release != NULL) {
        pv->schema.release(&pv->schema);
    }
    if (pv->array.release != NULL) {
        pv->array.release(&pv->array);
    }
    free(pv);
    stream->release = NULL;
}

PyObject *
array_stream(PyObject *module, PyObject *args)
{
    PyObject *schema_capsule, *array_capsule;
    if (!PyArg_ParseTuple(args, "OO", &schema_capsule, &array_capsule)) {
        return NULL;
    }
    struct ArrowSchema *schema = PyCapsule_GetPointer(schema_capsule, "arrow_schema");
    struct ArrowArray *array = PyCapsule_GetPointer(array_capsule, "arrow_array");
    if (schema == NULL || array == NULL) {
        return NULL;
    }
    if (schema->release == NULL || array->release == NULL) {
        PyErr_SetString(PyExc_ValueError, "the Arrow array was released or taken");
        return NULL;
    }
    OnePrivate *pv = calloc(1, sizeof *pv);
    struct ArrowArrayStream *out = calloc(1, sizeof *out);
    if (pv == NULL || out == NULL) {
        free(pv);
        free(out);
        return PyErr_NoMemory();
    }
    pv->schema = *schema;
    schema->release = NULL;
    pv->array = *array;
    array->release = NULL;
    out->get_schema = one_get_schema;
    out->get_next = one_get_next;
    out->get_last_error = one_get_last_error;
    out->release = one_release;
    out->private_data = pv;
    return capsule_of(out, "arrow_array_stream", stream_capsule_free, drop_stream);
}

/* ---- a string column, built row by row ---------------------------------- */

/* reserve: the bytes the column may need (a component is part of its
   row, so at most the input's bytes): reserved, not touched, so memory
   holds the pages written; column_export gives the rest back. */
int
column_init(Column *c, int64_t length, int wide, size_t reserve)
{
    memset(c, 0, sizeof *c);
    c->wide = wide;
    c->length = length;
    c->offsets = calloc((size_t)length + 1, wide ? 8 : 4);
    c->valid = calloc(bitmap_size(length), 1);
    c->cap = reserve > 64 ? reserve : 64;
    c->data = malloc(c->cap);
    return c->offsets == NULL || c->valid == NULL || c->data == NULL ? -1 : 0;
}

/* A distinct column's table starts with this many entries, and doubles
   when half full. */
#define TABLE_FIRST 1024
/* The entries a lookup probes at most: a value whose probe runs longer
   (a table crowded by values whose hashes collide, as an adversary's
   column could make them) is added to the dictionary again rather than
   found, so each row costs a bounded time whatever the column holds.  A
   dictionary may repeat a value; each row still reads its own. */
#define TABLE_PROBES 32

int
column_init_distinct(Column *c, int64_t length, int wide, size_t reserve)
{
    if (column_init(c, length, wide, reserve) < 0) {
        return -1;
    }
    c->indices = calloc((size_t)length + 1, sizeof(int32_t));
    c->table = calloc(TABLE_FIRST, sizeof(uint64_t));
    c->table_mask = TABLE_FIRST - 1;
    return c->indices == NULL || c->table == NULL ? -1 : 0;
}

void
column_free(Column *c)
{
    free(c->offsets);
    free(c->data);
    free(c->valid);
    free(c->indices);
    free(c->table);
}

/* The bytes p[0..n) appended to the data, ending entry `at` of the
   offsets (a row's, or a distinct value's): 0, or a COLUMN_ failure. */
static int
column_append_bytes(Column *c, int64_t at, const unsigned char *p, size_t n)
{
    if (n > 0) {
        if (c->size + n > c->cap) {
            size_t cap = c->cap;
            while (cap < c->size + n) {
                if (cap > SIZE_MAX / 2) {
                    return COLUMN_NO_MEMORY;
                }
                cap *= 2;
            }
            unsigned char *grown = realloc(c->data, cap);
            if (grown == NULL) {
                return COLUMN_NO_MEMORY;
            }
            c->data = grown;
            c->cap = cap;
        }
        memcpy(c->data + c->size, p, n);
        c->size += n;
    }
    if (c->wide) {
        if (c->size > (size_t)INT64_MAX) {
            return COLUMN_TOO_LONG;
        }
        ((int64_t *)c->offsets)[at + 1] = (int64_t)c->size;
    }
    else {
        if (c->size > (size_t)INT32_MAX) {
            return COLUMN_TOO_LONG;
        }
        ((int32_t *)c->offsets)[at + 1] = (int32_t)c->size;
    }
    return 0;
}

/* A hash of n bytes: eight at a time, each word mixed in by one
   multiply and a shift, the last word read to the end (overlapping the
   one before), a short value read in two or three overlapping pieces;
   then the whole mixed once more.  A column's values are short (a host
   is some twenty bytes), so the few multiplies in a row are its cost. */
static inline uint64_t
bytes_hash(const unsigned char *p, size_t n)
{
    const uint64_t k = UINT64_C(0x9E3779B97F4A7C15);
    uint64_t h = ((uint64_t)n + 1) * k, word;
    if (n >= 8) {
        for (size_t i = 0; i + 8 < n; i += 8) {
            memcpy(&word, p + i, 8);
            h = (h ^ word) * k;
            h ^= h >> 29;
        }
        memcpy(&word, p + n - 8, 8);
    }
    else if (n >= 4) {
        uint32_t first, last;
        memcpy(&first, p, 4);
        memcpy(&last, p + n - 4, 4);
        word = ((uint64_t)first << 32) | last;
    }
    else {
        word = n == 0 ? 0 : (uint64_t)p[0] | ((uint64_t)p[n / 2] << 8) | ((uint64_t)p[n - 1] << 16);
    }
    h = (h ^ word) * k;
    h ^= h >> 32;
    h *= UINT64_C(0xBF58476D1CE4E5B9);
    return h ^ (h >> 29);
}

/* The value of index k of a distinct column: its bytes and size. */
static inline const unsigned char *
distinct_value(const Column *c, int64_t k, size_t *n)
{
    int64_t start, end;
    if (c->wide) {
        start = ((const int64_t *)c->offsets)[k];
        end = ((const int64_t *)c->offsets)[k + 1];
    }
    else {
        start = ((const int32_t *)c->offsets)[k];
        end = ((const int32_t *)c->offsets)[k + 1];
    }
    *n = (size_t)(end - start);
    return c->data + start;
}

/* The table doubled, every entry placed again by its hash: 0, or
   COLUMN_NO_MEMORY. */
static int
table_grow(Column *c)
{
    size_t size = (c->table_mask + 1) * 2;
    if (size > SIZE_MAX / sizeof(uint64_t)) {
        return COLUMN_NO_MEMORY;
    }
    uint64_t *table = calloc(size, sizeof(uint64_t));
    if (table == NULL) {
        return COLUMN_NO_MEMORY;
    }
    size_t mask = size - 1;
    for (size_t e = 0; e <= c->table_mask; e++) {
        uint64_t entry = c->table[e];
        if (entry == 0) {
            continue;
        }
        size_t at = (size_t)(entry >> 32) & mask;
        while (table[at] != 0) {
            at = (at + 1) & mask;
        }
        table[at] = entry;
    }
    free(c->table);
    c->table = table;
    c->table_mask = mask;
    return 0;
}

/* The index of the value p[0..n) in a distinct column, added when new:
   0 with it in *index, or a COLUMN_ failure. */
static int
distinct_index(Column *c, const unsigned char *p, size_t n, int32_t *index)
{
    uint32_t hash = (uint32_t)(bytes_hash(p, n) >> 32);
    size_t at = hash & c->table_mask;
    int placed = 0;
    for (int probe = 0; probe < TABLE_PROBES; probe++) {
        uint64_t entry = c->table[at];
        if (entry == 0) {
            placed = 1;
            break;
        }
        if ((uint32_t)(entry >> 32) == hash) {
            int64_t k = (int64_t)(entry & 0xFFFFFFFF) - 1;
            size_t size;
            const unsigned char *value = distinct_value(c, k, &size);
            if (size == n && (n == 0 || memcmp(value, p, n) == 0)) {
                *index = (int32_t)k;
                return 0;
            }
        }
        at = (at + 1) & c->table_mask;
    }
    if (c->ndistinct >= INT32_MAX - 1) {
        return COLUMN_TOO_LONG;
    }
    int64_t k = c->ndistinct;
    int appended = column_append_bytes(c, k, p, n);
    if (appended < 0) {
        return appended;
    }
    c->ndistinct++;
    *index = (int32_t)k;
    if (placed) {
        c->table[at] = ((uint64_t)hash << 32) | (uint64_t)(k + 1);
        c->in_table++;
        if (2 * (size_t)c->in_table > c->table_mask + 1) {
            return table_grow(c);
        }
    }
    return 0;
}

/* Row i's value (arrow.h): 0, or a COLUMN_ failure, no exception set. */
int
column_put(Column *c, int64_t i, const unsigned char *p, size_t n)
{
    if (p == NULL) {
        c->nulls++;
        return c->indices != NULL ? 0 : column_append_bytes(c, i, NULL, 0);
    }
    set_bit(c->valid, i);
    if (c->indices != NULL) {
        return distinct_index(c, p, n, &c->indices[i]);
    }
    return column_append_bytes(c, i, p, n);
}

int
column_append(Column *out, const Column *c, int64_t first)
{
    int64_t rows = c->length;
    if (out->indices != NULL) {
        /* Each of c's values by its index in out, then c's rows by it. */
        int32_t *index = malloc(((size_t)c->ndistinct + 1) * sizeof(int32_t));
        if (index == NULL) {
            return COLUMN_NO_MEMORY;
        }
        for (int64_t k = 0; k < c->ndistinct; k++) {
            size_t n;
            const unsigned char *value = distinct_value(c, k, &n);
            int found = distinct_index(out, value, n, &index[k]);
            if (found < 0) {
                free(index);
                return found;
            }
        }
        for (int64_t r = 0; r < rows; r++) {
            out->indices[first + r] = bit(c->valid, r) ? index[c->indices[r]] : 0;
        }
        free(index);
    }
    else {
        size_t size = out->size + c->size;
        if (!out->wide && size > (size_t)INT32_MAX) {
            return COLUMN_TOO_LONG;
        }
        if (size > out->cap) {
            unsigned char *grown = realloc(out->data, size);
            if (grown == NULL) {
                return COLUMN_NO_MEMORY;
            }
            out->data = grown;
            out->cap = size;
        }
        size_t base = out->size;
        memcpy(out->data + base, c->data, c->size);
        out->size += c->size;
        for (int64_t r = 1; r <= rows; r++) {
            if (out->wide) {
                ((int64_t *)out->offsets)[first + r] =
                    (int64_t)base + ((const int64_t *)c->offsets)[r];
            }
            else {
                ((int32_t *)out->offsets)[first + r] =
                    (int32_t)base + ((const int32_t *)c->offsets)[r];
            }
        }
    }
    for (int64_t b = 0; b < (rows + 7) / 8; b++) {
        out->valid[first / 8 + b] |= c->valid[b];
    }
    out->nulls += c->nulls;
    return 0;
}

int
column_raise(const Column *c, int failed)
{
    if (failed == COLUMN_TOO_LONG) {
        PyErr_SetString(PyExc_OverflowError,
                        c->wide ? "a column over 2**63 bytes"
                                : "a column of utf8 past its 2**31 bytes: pass large_utf8");
    }
    else {
        PyErr_NoMemory();
    }
    return -1;
}

/* Move the column into a string array (out, zeroed by new_array), or a
   distinct one into its indices with the values as their dictionary. */
int
column_export(Column *c, struct ArrowArray *out)
{
    struct ArrowArray *strings = out;
    if (c->indices != NULL) {
        struct ArrowArray *values = calloc(1, sizeof *values);
        if (values == NULL || new_array(out, c->length, 2, 0) < 0) {
            free(values);
            return -1;
        }
        if (new_array(values, c->ndistinct, 3, 0) < 0) {
            free(values);
            release_array(out);
            return -1;
        }
        out->dictionary = values;
        strings = values;
    }
    else if (new_array(out, c->length, 3, 0) < 0) {
        return -1;
    }
    ArrayPrivate *pv = out->private_data;
    pv->buffers[0] = c->nulls > 0 ? c->valid : NULL;
    if (c->nulls == 0) {
        free(c->valid);
    }
    out->null_count = c->nulls;
    if (c->indices != NULL) {
        pv->buffers[1] = c->indices;
        /* The values' offsets were made for as many values as rows. */
        size_t used = ((size_t)c->ndistinct + 1) * (c->wide ? 8 : 4);
        void *offsets = realloc(c->offsets, used);
        c->offsets = offsets != NULL ? offsets : c->offsets;
    }
    ArrayPrivate *spv = strings->private_data;
    spv->buffers[1] = c->offsets;
    unsigned char *fitted = c->size + 1 < c->cap ? realloc(c->data, c->size + 1) : NULL;
    spv->buffers[2] = fitted != NULL ? fitted : c->data;
    free(c->table);
    c->table = NULL;
    c->indices = NULL;
    c->valid = NULL;
    c->offsets = NULL;
    c->data = NULL;
    return 0;
}
