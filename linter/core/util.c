/* SPDX-License-Identifier: Apache-2.0 */
/* util.c: allocation, arenas, buffers and string helpers (see util.h). */
#include "linter/core/util.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "linter/core/limits.h"
#include "linter/core/newline.h"

static void out_of_memory(size_t n)
{
    fprintf(stderr, "gpulint: out of memory (%zu bytes)\n", n);
    abort();
}

void *xmalloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (!p)
        out_of_memory(n);
    return p;
}

void *xcalloc(size_t n, size_t size)
{
    void *p = calloc(n ? n : 1, size ? size : 1);
    if (!p)
        out_of_memory(n * size);
    return p;
}

void *xrealloc(void *p, size_t n)
{
    void *q = realloc(p, n ? n : 1);
    if (!q)
        out_of_memory(n);
    return q;
}

char *xstrndup(const char *s, size_t n)
{
    char *p = xmalloc(n + 1);
    memcpy(p, s, n);
    p[n] = 0;
    return p;
}

char *xstrdup(const char *s) { return xstrndup(s, strlen(s)); }

/* ---- arena ---- */

struct gl_arena_block {
    struct gl_arena_block *next;
    size_t size; /* of data; the head block's free room is the arena's cur/room */
    _Alignas(16) unsigned char data[];
};

#define ARENA_BLOCK 65536

static atomic_size_t arena_held;              /* bytes of blocks, all arenas; heap held */
static _Thread_local void (*arena_gate)(size_t); /* gl_arena_set_gate */

size_t gl_arena_held(void) { return atomic_load_explicit(&arena_held, memory_order_relaxed); }
void gl_arena_set_gate(void (*gate)(size_t n)) { arena_gate = gate; }

void gl_heap_hold(size_t n)
{
    if (arena_gate)
        arena_gate(n);
    atomic_fetch_add_explicit(&arena_held, n, memory_order_relaxed);
}

void gl_heap_drop(size_t n) { atomic_fetch_sub_explicit(&arena_held, n, memory_order_relaxed); }

unsigned gl_threads_fit(unsigned want)
{
    /* the calling thread and its heap, then what a thread reserves: its stack (the
       default 8 MiB) and its malloc arena's heap (HEAP_MAX_SIZE, 64 MiB on 64-bit) */
    const unsigned long long base = 64ull << 20, per = 72ull << 20;
    struct rlimit rl;
    if (getrlimit(RLIMIT_AS, &rl) != 0 || rl.rlim_cur == RLIM_INFINITY)
        return want;
    unsigned long long fit = rl.rlim_cur > base ? (rl.rlim_cur - base) / per : 0;
    return fit < want ? (unsigned)fit : want;
}

void gl_arena_init(struct gl_arena *a) { *a = (struct gl_arena){0}; }

void gl_arena_free(struct gl_arena *a)
{
    struct gl_arena_block *b = a->head;
    size_t bytes = 0;
    while (b) {
        struct gl_arena_block *next = b->next;
        bytes += sizeof *b + b->size;
        free(b);
        b = next;
    }
    if (bytes)
        atomic_fetch_sub_explicit(&arena_held, bytes, memory_order_relaxed);
    a->head = NULL;
    a->cur = NULL;
    a->room = 0;
    a->total = 0;
    a->over = false; /* the limit stays */
}

/* n bytes (n rounded up to 16) that gl_arena_take's fast path did not take: from the head
 * block when it has exactly n left (or n is 0 and there is a head), else from a new block.
 * A large one-off block goes behind the head, which keeps its room. */
void *gl_arena_take_slow(struct gl_arena *a, size_t n)
{
    if (a->head && n <= a->room) {
        void *p = a->cur;
        a->cur += n;
        a->room -= n;
        gl_arena_charge(a, n);
        return p;
    }
    size_t size = n > ARENA_BLOCK / 4 ? n : ARENA_BLOCK;
    if (arena_gate)
        arena_gate(sizeof(struct gl_arena_block) + size);
    atomic_fetch_add_explicit(&arena_held, sizeof(struct gl_arena_block) + size,
                              memory_order_relaxed);
    struct gl_arena_block *b = xmalloc(sizeof *b + size);
    b->size = size;
    if (size == ARENA_BLOCK || !a->head) {
        b->next = a->head;
        a->head = b;
        a->cur = b->data + n;
        a->room = size - n;
    } else {
        b->next = a->head->next;
        a->head->next = b;
    }
    gl_arena_charge(a, n);
    return b->data;
}

void *gl_arena_memdup(struct gl_arena *a, const void *p, size_t n)
{
    void *q = gl_arena_take(a, n);
    if (n)
        memcpy(q, p, n);
    return q;
}

void *gl_arena_take_within(struct gl_arena *a, size_t n)
{
    if (a->limit && (a->total > a->limit || n > a->limit - a->total)) {
        gl_arena_charge(a, n);
        return NULL;
    }
    return gl_arena_take(a, n);
}

void *gl_arena_take_table(struct gl_arena *a, size_t n, size_t size, size_t *fit)
{
    *fit = n;
    if (a->limit && (a->total > a->limit || n * size > a->limit - a->total))
        *fit = a->total > a->limit ? 0 : (a->limit - a->total) / size;
    return gl_arena_take_within(a, n * size);
}

size_t gl_line_start_of(const char *text, size_t len, size_t k)
{
    const char *p = text, *end = text + len;
    for (; k && p < end && (p = memchr(p, '\n', (size_t)(end - p))); k--)
        p++;
    return p && k == 0 ? (size_t)(p - text) : len;
}

size_t gl_count_lines(const char *text, size_t len)
{
    return 1 + gl_nl_count(text, len); /* (sixteen bytes a step: newline.h) */
}

void gl_arena_adopt(struct gl_arena *a, struct gl_arena *from, size_t charge)
{
    if (from->head) {
        struct gl_arena_block *tail = from->head;
        while (tail->next)
            tail = tail->next;
        if (a->head) { /* behind a's current block, which keeps its room */
            tail->next = a->head->next;
            a->head->next = from->head;
        } else { /* from's head, and its room, become a's */
            a->head = from->head;
            a->cur = from->cur;
            a->room = from->room;
        }
    }
    from->head = NULL;
    from->cur = NULL;
    from->room = 0;
    from->total = 0;
    from->over = false;
    a->total += charge;
    if (a->limit && a->total > a->limit)
        a->over = true;
}

void *gl_arena_alloc(struct gl_arena *a, size_t n)
{
    void *p = gl_arena_take(a, n);
    memset(p, 0, n);
    return p;
}

char *gl_arena_strndup(struct gl_arena *a, const char *s, size_t n)
{
    char *p = gl_arena_take(a, n + 1);
    memcpy(p, s, n);
    p[n] = 0;
    return p;
}

char *gl_arena_cat3(struct gl_arena *a, const char *s1, size_t n1, const char *s2, size_t n2,
                    const char *s3, size_t n3)
{
    char *p = gl_arena_take(a, n1 + n2 + n3 + 1);
    memcpy(p, s1, n1);
    memcpy(p + n1, s2, n2);
    memcpy(p + n1 + n2, s3, n3);
    p[n1 + n2 + n3] = 0;
    return p;
}

char *gl_arena_strdup(struct gl_arena *a, const char *s)
{
    return gl_arena_strndup(a, s, strlen(s));
}

char *xvasprintf(const char *fmt, va_list ap)
{
    /* formatted once into a small buffer, which nearly always holds it, then copied */
    char small[256];
    va_list again;
    va_copy(again, ap);
    int n = vsnprintf(small, sizeof small, fmt, ap);
    char *p = xmalloc(n > 0 ? (size_t)n + 1 : 1);
    if (n >= 0 && (size_t)n < sizeof small)
        memcpy(p, small, (size_t)n + 1);
    else
        vsnprintf(p, n > 0 ? (size_t)n + 1 : 1, fmt, again);
    va_end(again);
    return p;
}

char *xasprintf(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *p = xvasprintf(fmt, ap);
    va_end(ap);
    return p;
}

char *gl_arena_printf(struct gl_arena *a, const char *fmt, ...)
{
    /* formatted once into a small buffer, which nearly always holds it (a second time
       only when it does not), then copied */
    char small[256];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(small, sizeof small, fmt, ap);
    va_end(ap);
    if (n < 0) { /* an encoding error: nothing was formatted */
        n = 0;
        small[0] = 0;
    }
    if ((size_t)n < sizeof small)
        return gl_arena_strndup(a, small, (size_t)n);
    char *p = gl_arena_take(a, (size_t)n + 1);
    va_start(ap, fmt);
    vsnprintf(p, (size_t)n + 1, fmt, ap);
    va_end(ap);
    return p;
}

void *gl_arena_grow(struct gl_arena *a, void *old, size_t n, size_t size, size_t *cap)
{
    size_t ncap = *cap ? *cap * 2 : 2;
    /* The doubling that would take an arena past its limit grows the array by what the
     * limit has left (at least a sixteenth) instead: a table of millions of entries that
     * reached the limit took as much again past it, though the parser stops at its next
     * check. Once over, doubling again (a loop that does not check stops elsewhere, and
     * small steps would leave many copies behind in the arena). */
    if (a->limit && *cap && !a->over && a->total + ncap * size > a->limit) {
        size_t left = a->total < a->limit ? (a->limit - a->total) / size : 0;
        size_t step = left > *cap / 16 + 1 ? left : *cap / 16 + 1;
        if (step < *cap)
            ncap = *cap + step;
    }
    char *p = gl_arena_take(a, ncap * size);
    if (n)
        memcpy(p, old, n * size);
    memset(p + n * size, 0, (ncap - n) * size);
    *cap = ncap;
    return p;
}

/* ---- buffer ---- */

void gl_buf_init(struct gl_buf *b)
{
    b->data = NULL;
    b->len = b->cap = 0;
}

void gl_buf_free(struct gl_buf *b)
{
    free(b->data);
    gl_buf_init(b);
}

void gl_buf_reserve(struct gl_buf *b, size_t extra)
{
    if (b->len + extra + 1 <= b->cap)
        return;
    size_t ncap = b->cap ? b->cap * 2 : 256;
    while (ncap < b->len + extra + 1)
        ncap *= 2;
    b->data = xrealloc(b->data, ncap);
    b->cap = ncap;
}

void gl_buf_add(struct gl_buf *b, const void *p, size_t n)
{
    gl_buf_reserve(b, n);
    memcpy(b->data + b->len, p, n);
    b->len += n;
    b->data[b->len] = 0;
}

void gl_buf_addc(struct gl_buf *b, char c) { gl_buf_add(b, &c, 1); }

void gl_buf_adds(struct gl_buf *b, const char *s) { gl_buf_add(b, s, strlen(s)); }

void gl_buf_vprintf(struct gl_buf *b, const char *fmt, va_list ap)
{
    /* formatted into the room the buffer has; a second time only when that was short */
    size_t room = b->cap > b->len ? b->cap - b->len : 0;
    va_list ap2;
    va_copy(ap2, ap);
    int n = vsnprintf(room ? b->data + b->len : NULL, room, fmt, ap2);
    va_end(ap2);
    if (n < 0) /* an encoding error: nothing is added */
        return;
    if ((size_t)n >= room) {
        gl_buf_reserve(b, (size_t)n);
        vsnprintf(b->data + b->len, (size_t)n + 1, fmt, ap);
    }
    b->len += (size_t)n;
}

void gl_buf_printf(struct gl_buf *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    gl_buf_vprintf(b, fmt, ap);
    va_end(ap);
}

const char *gl_buf_str(struct gl_buf *b)
{
    if (!b->data)
        gl_buf_reserve(b, 0), b->data[0] = 0;
    return b->data;
}

/* ---- strings ---- */

bool gl_streq_nocase(const char *a, const char *b)
{
    for (; *a && *b; a++, b++)
        if (tolower((unsigned char)*a) != tolower((unsigned char)*b))
            return false;
    return *a == *b;
}

bool gl_strn_eq_nocase(const char *a, size_t alen, const char *b)
{
    size_t i = 0;
    for (; i < alen && b[i]; i++)
        if (tolower((unsigned char)a[i]) != tolower((unsigned char)b[i]))
            return false;
    return i == alen && b[i] == 0;
}

bool gl_has_prefix(const char *s, const char *prefix)
{
    /* byte by byte: prefixes are short, and most words differ at once (a strlen and a
       strncmp call cost more than the compare) */
    while (*prefix)
        if (*s++ != *prefix++)
            return false;
    return true;
}

const char *gl_base_name(const char *path)
{
    const char *s = strrchr(path, '/');
    return s ? s + 1 : path;
}

char *gl_image_path(struct gl_arena *a, const char *dir, const char *path)
{
    if (path[0] != '/' && !dir)
        return NULL;
    const char *joined =
        path[0] == '/' || !*dir ? path
                                : gl_arena_cat3(a, dir, strlen(dir), "/", 1, path, strlen(path));
    char *out = gl_arena_alloc(a, strlen(joined) + 1);
    size_t n = 0;
    for (const char *p = joined; *p;) {
        const char *slash = strchr(p, '/');
        size_t len = slash ? (size_t)(slash - p) : strlen(p);
        if (len && !(len == 1 && p[0] == '.')) {
            if (n || joined[0] == '/')
                out[n++] = '/';
            memcpy(out + n, p, len);
            n += len;
        }
        p += len + (slash ? 1 : 0);
    }
    out[n] = '\0';
    return out;
}

int gl_read_fd(int fd, const void *head, size_t nhead, size_t size_hint, size_t cap,
               char **data, size_t *len, bool *over)
{
    size_t want = cap + 1, alloc = (size_hint && size_hint < want ? size_hint + 1 : 65536) + 1;
    if (alloc < nhead + 1)
        alloc = nhead + 1;
    char *buf = xmalloc(alloc);
    size_t n = nhead;
    if (nhead)
        memcpy(buf, head, nhead);
    *over = false;
    while (n < want) {
        if (n + 1 >= alloc) {
            alloc = alloc * 2 > want + 1 ? want + 1 : alloc * 2;
            buf = xrealloc(buf, alloc);
        }
        size_t room = alloc - n - 1, ask = room < want - n ? room : want - n;
        ssize_t r = read(fd, buf + n, ask);
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0) {
            int e = errno;
            free(buf);
            return e;
        }
        if (r == 0)
            break;
        n += (size_t)r;
        if (size_hint && (size_t)r < ask)
            break; /* short: a regular file's end (no read more to hear it say 0) */
    }
    if (n > cap) {
        *over = true;
        n = cap;
    }
    buf[n] = 0;
    *data = buf;
    *len = n;
    return 0;
}

size_t gl_read_upto(int fd, char *buf, size_t cap)
{
    size_t n = 0;
    while (n < cap) {
        ssize_t r = read(fd, buf + n, cap - n);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            break;
        n += (size_t)r;
    }
    return n;
}

int gl_read_file(const char *path, char **data, size_t *len)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return errno;
    struct stat st;
    if (fstat(fd, &st) != 0) {
        int e = errno;
        close(fd);
        return e;
    }
    if (S_ISDIR(st.st_mode)) {
        close(fd);
        return EISDIR;
    }
    /* bounded like every input (a FIFO or a device such as /dev/zero never ends) */
    bool over = false;
    int e = gl_read_fd(fd, NULL, 0, S_ISREG(st.st_mode) ? (size_t)st.st_size : 0,
                       (size_t)gl_limit(GL_LIMIT_INPUT_SIZE), data, len, &over);
    close(fd);
    if (!e && over) {
        free(*data);
        *data = NULL;
        *len = 0;
        return EFBIG;
    }
    return e;
}
