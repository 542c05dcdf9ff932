/*
 * The class map of urigrammar.engine.backend._native: the class of each
 * code point, which the Runner and the Tagger both read their text through
 * (built from a table's intervals by dfa.c), and what every file of the
 * extension reads a text with (a chunk at a time, from a str or from
 * UTF-8).
 *
 * A code point's class: the 128-entry table below 128; above, a two-level
 * table (the class of each code point of a 256-code-point page, pages
 * shared: only pages holding an interval boundary differ from a uniform
 * one), so no search per character.
 *
 * Built with the stable ABI (Py_LIMITED_API 3.10), so one wheel serves every
 * CPython from 3.10 on: the text is read with PyUnicode_AsUCS4 into a
 * bounded buffer, a chunk at a time, whatever its kind (1, 2 or 4 bytes a
 * character); a lone surrogate is a code point like any other.
 *
 * Every file of the extension includes this header first (through
 * native.h), so the stable ABI is asked for before Python.h, everywhere.
 * What a run calls per text (map_class, read_chunk, check_str) is static
 * inline here, so it inlines into each file's loops as it did when the
 * extension was one file.
 */

#ifndef URIGRAMMAR_NATIVE_CLASSMAP_H
#define URIGRAMMAR_NATIVE_CLASSMAP_H

#ifndef Py_LIMITED_API
#define Py_LIMITED_API 0x030A0000
#endif
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

/* What one file of the extension defines for another: hidden from the
   module's exported symbols (only PyInit__native is exported), so the
   calls between files are direct calls, as between static functions. */
#if defined(__GNUC__) && !defined(_WIN32) && !defined(__CYGWIN__)
#define NATIVE_SHARED __attribute__((visibility("hidden")))
#else
#define NATIVE_SHARED
#endif

/* Characters read per PyUnicode_AsUCS4 call: a stack buffer of 8 KiB. */
#define CHUNK 2048

#define MAX_CODE 0x10FFFF
#define NPAGES ((MAX_CODE >> 8) + 1)

/* The class of each code point: shared by the Runner and the Tagger. */
typedef struct {
    uint8_t ascii[128];
    uint16_t *page_of;   /* NPAGES entries: code >> 8 -> page */
    uint8_t *pages;      /* 256 classes per page */
} ClassMap;

static inline uint8_t
map_class(const ClassMap *m, Py_UCS4 code)
{
    if (code < 128) {
        return m->ascii[code];
    }
    if (code > MAX_CODE) { /* not from a str; never index past the table */
        code = MAX_CODE;
    }
    return m->pages[((size_t)m->page_of[code >> 8] << 8) | (code & 0xFF)];
}

/* Characters at..at+n of text (of length `length`) into buf, whatever the
   str's kind: 0, or -1 with an exception set. */
static inline int
read_chunk(PyObject *text, Py_ssize_t at, Py_ssize_t n, Py_ssize_t length, Py_UCS4 *buf)
{
    if (at == 0 && n == length) {
        return PyUnicode_AsUCS4(text, buf, CHUNK, 0) == NULL ? -1 : 0;
    }
    PyObject *part = PyUnicode_Substring(text, at, at + n);
    if (part == NULL) {
        return -1;
    }
    Py_UCS4 *got = PyUnicode_AsUCS4(part, buf, CHUNK, 0);
    Py_DECREF(part);
    return got == NULL ? -1 : 0;
}

/* Where a run reads its code points from: a str (a chunk at a time, with
   read_chunk), or a buffer of UTF-8 (an Arrow string column's row),
   decoded here a chunk at a time.  Ill-formed UTF-8 (RFC 3629: overlong
   forms, surrogates, code points past U+10FFFF, truncated sequences) ends
   the source where it starts, with ill_formed set: the caller treats the
   row as one that does not match, the text read so far as its prefix. */
typedef struct {
    PyObject *text;              /* the str, or NULL for UTF-8 */
    Py_ssize_t length;           /* the str's length in code points */
    const unsigned char *p;      /* UTF-8: the next byte to decode */
    const unsigned char *stop;   /* UTF-8: the end of the bytes */
    Py_ssize_t at;               /* code points delivered so far */
    int ill_formed;
} Source;

static inline void
source_str(Source *s, PyObject *text, Py_ssize_t length)
{
    s->text = text;
    s->length = length;
    s->p = s->stop = NULL;
    s->at = 0;
    s->ill_formed = 0;
}

static inline void
source_utf8(Source *s, const unsigned char *bytes, size_t nbytes)
{
    s->text = NULL;
    s->length = -1;
    s->p = bytes;
    s->stop = bytes + nbytes;
    s->at = 0;
    s->ill_formed = 0;
}

/* Whether every code point has been delivered. */
static inline int
source_done(const Source *s)
{
    return s->text != NULL ? s->at == s->length : s->p == s->stop;
}

/* The next code points, up to CHUNK, into buf: how many (0 at the end),
   or -1 with an exception set. */
static inline Py_ssize_t
source_next(Source *s, Py_UCS4 *buf)
{
    if (s->text != NULL) {
        Py_ssize_t n = s->length - s->at < CHUNK ? s->length - s->at : CHUNK;
        if (n > 0 && read_chunk(s->text, s->at, n, s->length, buf) < 0) {
            return -1;
        }
        s->at += n;
        return n;
    }
    const unsigned char *p = s->p, *stop = s->stop;
    Py_ssize_t n = 0;
    while (n < CHUNK && p < stop) {
        /* Eight bytes at a time while they are ASCII (a URL's usually
           all are): one test of their high bits, then a widening copy
           the compiler vectorizes. */
        while (CHUNK - n >= 8 && stop - p >= 8) {
            uint64_t word;
            memcpy(&word, p, 8);
            if (word & UINT64_C(0x8080808080808080)) {
                break;
            }
            for (int k = 0; k < 8; k++) {
                buf[n + k] = p[k];
            }
            n += 8;
            p += 8;
        }
        if (n == CHUNK || p == stop) {
            break;
        }
        unsigned c = *p;
        if (c < 0x80) {
            buf[n++] = c;
            p++;
            continue;
        }
        /* RFC 3629 section 4's table: the lead byte says the length and
           the range the code point must fall in (no overlong forms, no
           surrogates, nothing past U+10FFFF). */
        Py_UCS4 code, least;
        int len;
        if (c >= 0xC2 && c <= 0xDF) {
            len = 2, code = c & 0x1F, least = 0x80;
        }
        else if (c >= 0xE0 && c <= 0xEF) {
            len = 3, code = c & 0x0F, least = 0x800;
        }
        else if (c >= 0xF0 && c <= 0xF4) {
            len = 4, code = c & 0x07, least = 0x10000;
        }
        else {
            goto ill_formed;
        }
        if (stop - p < len) {
            goto ill_formed;
        }
        for (int k = 1; k < len; k++) {
            if ((p[k] & 0xC0) != 0x80) {
                goto ill_formed;
            }
            code = (code << 6) | (p[k] & 0x3F);
        }
        if (code < least || code > MAX_CODE || (code >= 0xD800 && code <= 0xDFFF)) {
            goto ill_formed;
        }
        buf[n++] = code;
        p += len;
    }
    s->p = p;
    s->at += n;
    return n;
ill_formed:
    s->ill_formed = 1;
    s->p = s->stop = p;
    s->at += n;
    return n;
}

/* arg when it is a str, else NULL with TypeError set. */
static inline PyObject *
check_str(PyObject *arg)
{
    if (!PyUnicode_Check(arg)) {
        PyObject *name = PyObject_GetAttrString((PyObject *)Py_TYPE(arg), "__name__");
        if (name != NULL) {
            PyErr_Format(PyExc_TypeError, "text must be str, not %U", name);
            Py_DECREF(name);
        }
        return NULL;
    }
    return arg;
}

#endif /* URIGRAMMAR_NATIVE_CLASSMAP_H */
