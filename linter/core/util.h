/* SPDX-License-Identifier: Apache-2.0 */
/*
 * util.h: the small pieces every module shares.
 *
 *  - gl_arena: a bump allocator. Everything a parser builds for one input (tokens, model
 *    structs, strings) comes from that input's arena and is freed at once with it, so a
 *    parser that gives up half-way on bad input leaks nothing and needs no cleanup paths.
 *    The bytes of all arenas' blocks, on every thread, are counted (gl_arena_held), and a
 *    thread may set a gate (gl_arena_set_gate) that is called before its arenas take a
 *    new block (or a parser holds heap scratch: gl_heap_hold): the engine's workers wait
 *    there while others hold too much (engine_pool.h).
 *  - gl_buf: a growable byte buffer (for building strings and output).
 *  - gl_loc: a 1-based line and byte column in an input file (line 0 = no line, as for a
 *    file inside an image archive).
 *  - xmalloc and friends: allocation that never returns NULL (out of memory ends the
 *    process with a message; gpulint bounds its memory so this is a bug, not input).
 */
#ifndef GPULINT_UTIL_H
#define GPULINT_UTIL_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

struct gl_loc {
    uint32_t line; /* 1-based; 0 for "no line" (image findings) */
    uint32_t col;  /* 1-based byte column */
};

void *xmalloc(size_t n);
void *xcalloc(size_t n, size_t size);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);
/* A formatted string on the heap (the caller frees it). */
char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
char *xvasprintf(const char *fmt, va_list ap);
char *xstrndup(const char *s, size_t n);

/* ---- arena ---- */
struct gl_arena_block;
struct gl_arena {
    struct gl_arena_block *head;
    unsigned char *cur; /* the free room of the head block: cur[0, room) (NULL, 0: none) */
    size_t room;
    size_t total; /* bytes handed out, for memory caps */
    size_t limit; /* 0, or a cap on total: past it `over` is set (allocations still succeed;
                     the parser's loops check gl_arena_over and stop) */
    bool over;
};

void gl_arena_init(struct gl_arena *a);
void gl_arena_free(struct gl_arena *a);
void *gl_arena_alloc(struct gl_arena *a, size_t n);   /* zeroed, 16-byte aligned */
/* Count n bytes against the limit as an allocation of n would, without taking them: for
 * what a parser now keeps elsewhere (a static string) but the arena used to hold, so that
 * the limit still trips at the same token. */
static inline void gl_arena_charge(struct gl_arena *a, size_t n)
{
    a->total += (n + 15) & ~(size_t)15;
    if (a->limit && a->total > a->limit)
        a->over = true;
}
/* The slow path of gl_arena_take (a new block, or a take that empties the head block):
 * n already rounded up to 16. Not for callers: gl_arena_take decides. */
void *gl_arena_take_slow(struct gl_arena *a, size_t n);
/* n bytes, 16-byte aligned, NOT zeroed: for memory the caller writes whole. Inline: the
 * parsers take a few hundred thousand small pieces a megabyte of text, and the fast path
 * (room left in the head block) is a compare and two adds. A take of exactly the room
 * left, or any take from an empty arena, goes the slow way, which handles both. */
static inline void *gl_arena_take(struct gl_arena *a, size_t n)
{
    n = (n + 15) & ~(size_t)15;
    if (__builtin_expect(n >= a->room, 0))
        return gl_arena_take_slow(a, n);
    void *p = a->cur;
    a->cur += n;
    a->room -= n;
    gl_arena_charge(a, n);
    return p;
}
/* A copy of the n bytes at p (16-byte aligned; n may be 0). */
void *gl_arena_memdup(struct gl_arena *a, const void *p, size_t n);
/* n bytes as gl_arena_take gives them, or NULL when they would take the arena past its
 * limit: they are then only charged (the arena is over). For a table built whole before
 * any loop looks at the limit (a line index: 4 bytes a line of a text of millions of
 * empty lines), which must not be taken first. */
void *gl_arena_take_within(struct gl_arena *a, size_t n);
/* gl_arena_take_within for a table of n entries of `size` bytes; *fit gets how many of
 * them the room under the limit held (n when the table is taken): the entry, and so the
 * line of a per-line table, where the limit was reached. */
void *gl_arena_take_table(struct gl_arena *a, size_t n, size_t size, size_t *fit);
/* The lines of text[0, len): one more than its '\n' bytes. */
size_t gl_count_lines(const char *text, size_t len);
/* The offset of the first byte of line k (0-based) of text[0, len); len past its end. */
size_t gl_line_start_of(const char *text, size_t len, size_t k);
/* Bytes of arena blocks held now, by every arena of every thread (and the heap scratch
 * of gl_heap_hold). */
size_t gl_arena_held(void);
/* On this thread, call gate(n) before an arena takes a new block of n bytes, or before
 * gl_heap_hold holds n (NULL: no gate). The gate may wait; it must not allocate from an
 * arena. */
void gl_arena_set_gate(void (*gate)(size_t n));
/* Heap memory a parser keeps outside its arenas while it reads a text, and counts against
 * its parse-memory (the shell split's scratch arrays past their first rooms): it passes
 * this thread's gate as an arena block does, and is counted in gl_arena_held until it is
 * dropped, so that workers that each amplify a text into their scratch keep to the
 * pool's budget together (engine_pool.h). Call hold before the memory is taken. */
void gl_heap_hold(size_t n);
void gl_heap_drop(size_t n);
/* How many of `want` worker threads the process's address space leaves room for: each
 * reserves its stack and a malloc arena of its own (some 72 MiB of addresses on 64-bit,
 * little of it resident); under an address-space limit (`ulimit -v`, RLIMIT_AS) fewer (0
 * or 1: the work stays on the calling thread), else `want`. (8 workers under a 64 MiB
 * limit ran out of memory on inputs one thread lints in 40 MB.) */
unsigned gl_threads_fit(unsigned want);
/* Has the arena handed out more than its limit? */
static inline bool gl_arena_over(const struct gl_arena *a) { return a->over; }
char *gl_arena_strndup(struct gl_arena *a, const char *s, size_t n);
char *gl_arena_strdup(struct gl_arena *a, const char *s);
/* s1[0,n1) s2[0,n2) s3[0,n3) joined, NUL-terminated (a path join without printf; the
 * parts must hold no NUL for it to equal printf's "%.*s%.*s%.*s"). */
char *gl_arena_cat3(struct gl_arena *a, const char *s1, size_t n1, const char *s2, size_t n2,
                    const char *s3, size_t n3);
char *gl_arena_printf(struct gl_arena *a, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* Give a the blocks of `from` (left empty): what was allocated there stays valid, now a's;
 * a's total grows by `charge` (what a would have counted had it been allocated there). */
void gl_arena_adopt(struct gl_arena *a, struct gl_arena *from, size_t charge);
/* Grow an arena array: returns a copy of `old` (n elements of `size`) with room for cap,
 * which doubles; the doubling that would pass the arena's limit grows it by what the limit
 * has left (at least a sixteenth), so that a table that reaches the limit does not take as
 * much again past it. */
void *gl_arena_grow(struct gl_arena *a, void *old, size_t n, size_t size, size_t *cap);

/* Append one element to an arena-backed array `arr` of count `n` and capacity `cap`.
 * Usage: T *slot = GL_APPEND(arena, arr, n, cap); *slot = value; */
#define GL_APPEND(arena, arr, n, cap)                                                  \
    ((n) == (cap) ? (void)((arr) = gl_arena_grow((arena), (arr), (n), sizeof *(arr), &(cap))) \
                  : (void)0,                                                           \
     &(arr)[(n)++])

/* ---- growable buffer (heap) ---- */
struct gl_buf {
    char *data;
    size_t len, cap;
};

void gl_buf_init(struct gl_buf *b);
void gl_buf_free(struct gl_buf *b);
void gl_buf_reserve(struct gl_buf *b, size_t extra);
void gl_buf_add(struct gl_buf *b, const void *p, size_t n);
void gl_buf_addc(struct gl_buf *b, char c);
void gl_buf_adds(struct gl_buf *b, const char *s);
void gl_buf_printf(struct gl_buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void gl_buf_vprintf(struct gl_buf *b, const char *fmt, va_list ap);
/* NUL-terminated view of the contents (the buffer keeps a NUL past len). */
const char *gl_buf_str(struct gl_buf *b);

/* ---- small string helpers ---- */
/* strcmp(a, b) == 0, deciding on the first bytes inline: for the loops that compare every
 * word of a command with a list of names, where nearly every pair differs at once and the
 * call to strcmp was the cost. */
static inline bool gl_streq(const char *a, const char *b)
{
    if (a[0] != b[0] || !a[0])
        return a[0] == b[0];
    if (a[1] != b[1] || !a[1])
        return a[1] == b[1];
    return a[2] == b[2] && (!a[2] || !strcmp(a + 3, b + 3));
}
bool gl_streq_nocase(const char *a, const char *b);
bool gl_strn_eq_nocase(const char *a, size_t alen, const char *b); /* a[0..alen) vs b */
bool gl_has_prefix(const char *s, const char *prefix);
/* Does needle[0..n) occur in h[0..hl)? memchr for needle[rare], a byte of it that is rare in
 * the texts searched, then memcmp: a word that is mostly absent (an input type's content
 * test) costs a fraction of memmem's general search. */
static inline bool gl_mem_has(const char *h, size_t hl, const char *needle, size_t n,
                              size_t rare)
{
    if (!n)
        return true;
    if (hl < n || rare >= n)
        return hl >= n && memmem(h, hl, needle, n) != NULL;
    const char *p = h + rare, *end = h + hl - (n - 1 - rare);
    while (p < end && (p = memchr(p, needle[rare], (size_t)(end - p))) != NULL) {
        if (!memcmp(p - rare, needle, n))
            return true;
        p++;
    }
    return false;
}
/* (inline: every input type's name test calls it with a literal, whose length folds) */
static inline bool gl_has_suffix(const char *s, const char *suffix)
{
    size_t n = strlen(s), m = strlen(suffix);
    return n >= m && memcmp(s + n - m, suffix, m) == 0;
}
/* The last component of a path or word: what follows its last '/' (all of it without). */
const char *gl_base_name(const char *path);
/* A path in an image: `path` when absolute, else joined to `dir` ("" is a directory whose
 * name is unknown: the result stays relative to it), without "." parts and repeated
 * slashes; NULL when path is relative and dir is NULL. In the arena. */
char *gl_image_path(struct gl_arena *a, const char *dir, const char *path);

/* Read a whole file into a heap buffer (NUL-terminated): at most the limit input-size
 * (limits.h) bytes, EFBIG past it (a FIFO or a device never ends). Returns 0, or an errno
 * value. */
int gl_read_file(const char *path, char **data, size_t *len);
/* Read fd to its end, or to `cap` bytes and one more (then *over is set and reading stops
 * there: an endless stream costs cap bytes), into a heap buffer (NUL-terminated) that
 * starts with head[0..nhead) (bytes already read from fd). `size_hint`: a regular file's
 * size (0 when unknown, or not a regular file): the buffer is made for it and one byte
 * more, and a read that returns fewer bytes than asked is taken as the file's end (a read
 * of a regular file is short only there), so a file read whole costs one read. Returns 0,
 * or an errno value. */
int gl_read_fd(int fd, const void *head, size_t nhead, size_t size_hint, size_t cap,
               char **data, size_t *len, bool *over);
/* Read fd into buf until `cap` bytes or the end of fd (a read interrupted by a signal is
 * asked again; an error ends it): the bytes read. For small files of a known bound (a
 * requirements file, /proc/driver/nvidia/version); gl_read_fd for inputs. */
size_t gl_read_upto(int fd, char *buf, size_t cap);

#endif
