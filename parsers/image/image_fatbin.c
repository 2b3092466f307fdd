/* SPDX-License-Identifier: Apache-2.0 */
/* The fat-binary scanner of one streamed ELF file, and of a static library's members (and
 * of any file: a library, else one ELF file): see image_fatbin.h. */
#include "parsers/image/image_fatbin.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FATBIN_MAGIC 0xBA55ED50u
#define SHT_NOBITS 8u
#define SHT_STRTAB 3u
#define MAX_FAT_SECTIONS 8u

/* Flags of an entry header (offset 40). */
#define ENTRY_LZ4 0x2000u
#define ENTRY_ZSTD 0x8000u
#define ENTRY_ARCH_A 0x100000u
#define ENTRY_ARCH_F 0x200000u

/* Containers that follow each other (each starts within 16 bytes of the last's end). */
struct run {
    uint64_t start, end;
    bool bad;      /* a container of the run had a malformed entry */
    bool open;     /* its last container is being read */
    uint32_t entries, more, narchs;
    struct gl_fatbin_arch archs[GL_FATBIN_MAX_ARCHS];
};

enum want { W_ELF, W_MAGIC, W_CONTAINER, W_ENTRY, W_NONE };

struct gl_fatbin_scan {
    uint64_t size, pos;
    bool failed, done;
    bool not_elf;  /* too short for ELF, or no ELF magic: certainly no device code */
    bool is64;
    uint64_t shoff;
    uint32_t shentsize, shnum, shstrndx;
    /* the bytes kept: [win_start, win_end) around the section table, then the names when
     * they lie after the table */
    unsigned char *win;
    uint64_t win_start, win_end;
    unsigned char *names;
    uint64_t names_start, names_end;
    bool sht_read, resolved;
    uint64_t str_off, str_size; /* the section-name table */
    struct { uint64_t off, size; } fat[MAX_FAT_SECTIONS];
    size_t nfat;
    uint64_t needed; /* no byte past this matters once resolved */
    /* the walker: the header being collected at `at` */
    enum want want;
    uint64_t at, cend;
    unsigned char hb[64];
    size_t have;
    struct run *runs;
    size_t nruns;
};

static uint64_t le(const unsigned char *p, size_t n)
{
    uint64_t v = 0;
    for (size_t i = n; i-- > 0;)
        v = v << 8 | p[i];
    return v;
}

static void fail(struct gl_fatbin_scan *s)
{
    s->failed = s->done = true;
    s->want = W_NONE;
}

struct gl_fatbin_scan *gl_fatbin_scan_new(uint64_t size)
{
    struct gl_fatbin_scan *s = xcalloc(1, sizeof *s);
    s->size = size;
    s->want = W_ELF;
    if (size < 52) {
        s->not_elf = true;
        fail(s);
    }
    return s;
}

void gl_fatbin_scan_free(struct gl_fatbin_scan *s)
{
    if (!s)
        return;
    free(s->win);
    free(s->names);
    free(s->runs);
    free(s);
}

/* Copy what the chunk [base, base+n) holds of [start, end) into buf (which holds that range). */
static void keep(unsigned char *buf, uint64_t start, uint64_t end, const unsigned char *p,
                 uint64_t base, size_t n)
{
    if (!buf)
        return;
    uint64_t lo = start > base ? start : base, hi = end < base + n ? end : base + n;
    if (lo < hi)
        memcpy(buf + (lo - start), p + (lo - base), (size_t)(hi - lo));
}

/* Collect bytes [at, at+need) of the stream into hb; true when all are there. */
static bool collect(struct gl_fatbin_scan *s, size_t need, const unsigned char *p,
                    uint64_t base, size_t n)
{
    uint64_t from = s->at + s->have;
    if (s->have >= need)
        return true;
    if (from < base || from >= base + n)
        return false;
    size_t take = need - s->have;
    if (take > base + n - from)
        take = (size_t)(base + n - from);
    memcpy(s->hb + s->have, p + (from - base), take);
    s->have += take;
    return s->have >= need;
}

/* The ELF header: where the section table is. */
static void read_elf_header(struct gl_fatbin_scan *s)
{
    const unsigned char *h = s->hb;
    if (memcmp(h, "\177ELF", 4) || (h[4] != 1 && h[4] != 2) || h[5] != 1 || h[6] != 1) {
        s->not_elf = memcmp(h, "\177ELF", 4) != 0;
        fail(s); /* not ELF, or big-endian (no CUDA host is), or an unknown version */
        return;
    }
    s->is64 = h[4] == 2;
    if (s->is64 && s->have < 64) {
        fail(s);
        return;
    }
    if (s->is64) {
        s->shoff = le(h + 0x28, 8);
        s->shentsize = (uint32_t)le(h + 0x3a, 2);
        s->shnum = (uint32_t)le(h + 0x3c, 2);
        s->shstrndx = (uint32_t)le(h + 0x3e, 2);
    } else {
        s->shoff = le(h + 0x20, 4);
        s->shentsize = (uint32_t)le(h + 0x2e, 2);
        s->shnum = (uint32_t)le(h + 0x30, 2);
        s->shstrndx = (uint32_t)le(h + 0x32, 2);
    }
    uint64_t bytes = (uint64_t)s->shnum * s->shentsize;
    if (s->shentsize != (s->is64 ? 64u : 40u) || s->shnum == 0 || s->shoff == 0 ||
        s->shstrndx >= s->shnum || bytes > GL_FATBIN_MAX_SHT || s->shoff > s->size ||
        bytes > s->size - s->shoff) {
        fail(s); /* no table, extended numbering, or sizes out of the file */
        return;
    }
    s->win_start = s->shoff > GL_FATBIN_NAME_WINDOW ? s->shoff - GL_FATBIN_NAME_WINDOW : 0;
    s->win_end = s->shoff + bytes;
    s->win = xmalloc((size_t)(s->win_end - s->win_start));
    keep(s->win, s->win_start, s->win_end, h, 0, s->have); /* the header's own bytes */
    s->want = W_MAGIC;
    s->at = s->have; /* the header's end */
    s->have = 0;
}

static bool is_fat_name(const unsigned char *names, uint64_t len, uint64_t at)
{
    static const char *const fat[] = {".nv_fatbin", "__nv_relfatbin"};
    for (size_t i = 0; i < 2; i++) {
        size_t k = strlen(fat[i]) + 1; /* with its NUL */
        if (at <= len && len - at >= k && !memcmp(names + at, fat[i], k))
            return true;
    }
    return false;
}

/* Both the table and the names are here: find the fat-binary sections. */
static void resolve(struct gl_fatbin_scan *s)
{
    const unsigned char *names = s->names ? s->names : s->win + (s->str_off - s->win_start);
    uint64_t len = s->names ? s->names_end - s->names_start : s->str_size;
    const unsigned char *t = s->win + (s->shoff - s->win_start);
    s->resolved = true;
    s->needed = 0;
    for (uint32_t i = 0; i < s->shnum; i++) {
        const unsigned char *sh = t + (size_t)i * s->shentsize;
        uint64_t name = le(sh, 4), type = le(sh + 4, 4);
        uint64_t off = s->is64 ? le(sh + 24, 8) : le(sh + 16, 4);
        uint64_t size = s->is64 ? le(sh + 32, 8) : le(sh + 20, 4);
        if (i == 0 || type == SHT_NOBITS || size == 0)
            continue;
        if (name >= len) {
            fail(s); /* a name out of reach: this might be a fat-binary section */
            return;
        }
        if (!is_fat_name(names, len, name))
            continue;
        if (s->nfat == MAX_FAT_SECTIONS || off > s->size || size > s->size - off) {
            fail(s);
            return;
        }
        s->fat[s->nfat].off = off;
        s->fat[s->nfat++].size = size;
        if (off + size > s->needed)
            s->needed = off + size;
    }
    if (s->nfat == 0)
        s->done = true; /* no device code: the rest does not matter */
}

/* The section table has been read: find the name table. */
static void read_section_table(struct gl_fatbin_scan *s)
{
    const unsigned char *sh = s->win + (s->shoff - s->win_start) +
                              (size_t)s->shstrndx * s->shentsize;
    uint64_t type = le(sh + 4, 4);
    s->str_off = s->is64 ? le(sh + 24, 8) : le(sh + 16, 4);
    s->str_size = s->is64 ? le(sh + 32, 8) : le(sh + 20, 4);
    s->sht_read = true;
    if (type != SHT_STRTAB || s->str_off > s->size || s->str_size > s->size - s->str_off) {
        fail(s);
        return;
    }
    if (s->str_off >= s->win_start && s->str_off + s->str_size <= s->shoff) {
        resolve(s); /* the names are in the window before the table */
    } else if (s->str_off >= s->win_end) {
        uint64_t len = s->str_size < GL_FATBIN_NAME_WINDOW ? s->str_size : GL_FATBIN_NAME_WINDOW;
        s->names_start = s->str_off;
        s->names_end = s->str_off + len;
        s->names = xmalloc((size_t)len + 1);
    } else {
        fail(s); /* names before the window, or overlapping the table */
    }
}

/* The run a container at s->at belongs to (a new one unless it follows the last). */
static struct run *run_for(struct gl_fatbin_scan *s)
{
    struct run *r = s->nruns ? &s->runs[s->nruns - 1] : NULL;
    if (r && !r->open && s->at >= r->end && s->at - r->end < 16)
        return r;
    if (s->nruns == GL_FATBIN_MAX_RUNS)
        return NULL;
    if (!s->runs)
        s->runs = xcalloc(GL_FATBIN_MAX_RUNS, sizeof *s->runs);
    r = &s->runs[s->nruns++];
    r->start = s->at;
    return r;
}

static void add_arch(struct run *r, struct gl_fatbin_arch a)
{
    r->entries++;
    for (uint32_t i = 0; i < r->narchs; i++)
        if (r->archs[i].sm == a.sm && r->archs[i].code == a.code && r->archs[i].flags == a.flags)
            return;
    if (r->narchs == GL_FATBIN_MAX_ARCHS)
        r->more++;
    else
        r->archs[r->narchs++] = a;
}

static const unsigned char magic_bytes[4] = {0x50, 0xed, 0x55, 0xba};

/* Look for the next container header (at any offset) in the chunk, from s->at. */
static void scan_magic(struct gl_fatbin_scan *s, const unsigned char *p, uint64_t base, size_t n)
{
    uint64_t end = base + n;
    if (s->at < base)
        s->at = base; /* (never: the walk only moves forward through what it was given) */
    const unsigned char *q = p + (s->at - base);
    size_t left = (size_t)(end - s->at);
    const unsigned char *hit = memmem(q, left, magic_bytes, 4);
    if (hit) {
        s->at += (uint64_t)(hit - q);
        s->want = W_CONTAINER;
        return;
    }
    /* a magic that may straddle the chunk's end: collect it, then check */
    for (size_t k = left < 3 ? left : 3; k > 0; k--) {
        if (!memcmp(q + left - k, magic_bytes, k)) {
            s->at = end - k;
            s->want = W_CONTAINER;
            return;
        }
    }
    s->at = end;
}

/* hb[0..have) starts no container: go on from the next offset in it that may start one. */
static void resync(struct gl_fatbin_scan *s)
{
    for (size_t j = 1; j < s->have; j++) {
        size_t k = s->have - j < 4 ? s->have - j : 4;
        if (!memcmp(s->hb + j, magic_bytes, k)) {
            memmove(s->hb, s->hb + j, s->have - j);
            s->have -= j;
            s->at += j;
            return; /* still W_CONTAINER */
        }
    }
    s->at += s->have;
    s->have = 0;
    s->want = W_MAGIC;
}

/* A container header is in hb. */
static void on_container(struct gl_fatbin_scan *s)
{
    uint64_t version = le(s->hb + 4, 2), hsize = le(s->hb + 6, 2), fat = le(s->hb + 8, 8);
    if (version != 1 || hsize < 16 || hsize > 256 || s->at > s->size ||
        hsize > s->size - s->at || fat > s->size - s->at - hsize) {
        resync(s); /* not a container after all */
        return;
    }
    s->have = 0;
    struct run *r = run_for(s);
    if (!r) {
        fail(s); /* too many separate runs: no facts rather than partial ones */
        return;
    }
    r->open = true;
    s->cend = s->at + hsize + fat;
    s->at += hsize;
    s->want = W_ENTRY;
    if (fat == 0) {
        r->open = false;
        r->end = s->cend;
        s->at = s->cend;
        s->want = W_MAGIC;
    }
}

/* An entry header is in hb (64 bytes). */
static void on_entry(struct gl_fatbin_scan *s)
{
    struct run *r = &s->runs[s->nruns - 1];
    const unsigned char *h = s->hb;
    uint64_t kind = le(h, 2), hsize = le(h + 4, 4), payload = le(h + 8, 8);
    uint64_t zsize = le(h + 16, 4), sm = le(h + 28, 4), flags = le(h + 40, 8);
    uint64_t left = s->cend - s->at;
    if ((kind != 1 && kind != 2) || hsize < 64 || hsize > 4096 || hsize > left ||
        payload > left - hsize || sm < 10 || sm > 999) {
        r->bad = true; /* an entry gpulint cannot read: the run gives no facts */
        r->open = false;
        s->at += 64; /* the scan goes on after the header */
        s->want = W_MAGIC;
        return;
    }
    struct gl_fatbin_arch a = {.sm = (uint16_t)sm,
                               .code = kind == 2 ? GL_FATBIN_SASS : GL_FATBIN_PTX};
    if ((flags & (ENTRY_LZ4 | ENTRY_ZSTD)) || zsize)
        a.flags |= GL_FATBIN_COMPRESSED;
    if (flags & ENTRY_ARCH_A)
        a.flags |= GL_FATBIN_ARCH_A;
    if (flags & ENTRY_ARCH_F)
        a.flags |= GL_FATBIN_ARCH_F;
    add_arch(r, a);
    s->at += hsize + payload;
    if (s->at == s->cend) {
        r->open = false;
        r->end = s->cend;
        s->at = s->cend;
        s->want = W_MAGIC;
    } else if (s->cend - s->at < 64) {
        r->bad = true; /* bytes left over that are no entry */
        r->open = false;
        s->want = W_MAGIC;
    }
}

/* Walk the chunk [base, base+n). */
static void walk(struct gl_fatbin_scan *s, const unsigned char *p, uint64_t base, size_t n)
{
    for (;;) {
        if (s->want == W_NONE || s->done)
            return;
        if (s->want != W_ELF && s->at >= base + n)
            return;
        if (s->want == W_ELF) {
            if (!collect(s, 52, p, base, n)) /* an ELF32 header; ELF64's is 64 bytes */
                return;
            if (s->hb[4] == 2 && s->size >= 64 && !collect(s, 64, p, base, n))
                return;
            read_elf_header(s);
        } else if (s->want == W_MAGIC) {
            s->have = 0;
            scan_magic(s, p, base, n);
            if (s->want == W_MAGIC)
                return;
        } else if (s->want == W_CONTAINER) {
            if (!collect(s, 4, p, base, n))
                return;
            if (le(s->hb, 4) != FATBIN_MAGIC) {
                resync(s);
                continue;
            }
            if (!collect(s, 16, p, base, n))
                return;
            on_container(s);
        } else {
            if (!collect(s, 64, p, base, n))
                return;
            s->have = 0;
            on_entry(s);
        }
    }
}

bool gl_fatbin_scan_feed(struct gl_fatbin_scan *s, const void *data, size_t n)
{
    const unsigned char *p = data;
    uint64_t base = s->pos;
    if (s->done || n == 0)
        return !s->done;
    if (n > s->size - base)
        n = (size_t)(s->size - base); /* never past the size the entry announced */
    s->pos += n;
    if (s->want == W_ELF) {
        walk(s, p, base, n);
        if (s->failed)
            return false;
    }
    keep(s->win, s->win_start, s->win_end, p, base, n);
    keep(s->names, s->names_start, s->names_end, p, base, n);
    walk(s, p, base, n);
    if (!s->failed && !s->sht_read && s->win && s->pos >= s->win_end)
        read_section_table(s);
    if (!s->failed && s->names && !s->resolved && s->pos >= s->names_end)
        resolve(s);
    if (s->resolved && s->pos >= s->needed && (!s->nruns || !s->runs[s->nruns - 1].open))
        s->done = true;
    if (s->pos >= s->size)
        s->done = true;
    return !s->done;
}

static int arch_cmp(const void *a, const void *b)
{
    const struct gl_fatbin_arch *x = a, *y = b;
    if (x->sm != y->sm)
        return x->sm < y->sm ? -1 : 1;
    if (x->code != y->code)
        return x->code < y->code ? -1 : 1;
    return (int)x->flags - (int)y->flags;
}

/* The run covering a fat-binary section whole, or NULL. */
static const struct run *covering(const struct gl_fatbin_scan *s, uint64_t off, uint64_t size)
{
    for (size_t i = 0; i < s->nruns; i++) {
        const struct run *r = &s->runs[i];
        if (r->start == off)
            return r->bad || r->open || r->end > off + size || off + size - r->end >= 16
                       ? NULL : r;
    }
    return NULL;
}

const struct gl_fatbin_facts *gl_fatbin_facts_make(struct gl_arena *a,
                                                  const struct gl_fatbin_arch *archs,
                                                  uint32_t narchs, uint32_t more,
                                                  uint32_t entries)
{
    if (narchs == 0)
        return NULL;
    struct gl_fatbin_facts *f = gl_arena_alloc(a, sizeof *f);
    struct gl_fatbin_arch *v = gl_arena_alloc(a, narchs * sizeof *v);
    memcpy(v, archs, narchs * sizeof *v);
    qsort(v, narchs, sizeof *v, arch_cmp);
    f->archs = v;
    f->narchs = narchs;
    f->more = more;
    f->entries = entries;
    return f;
}

const struct gl_fatbin_facts *gl_fatbin_scan_end(struct gl_fatbin_scan *s, struct gl_arena *a)
{
    if (s->failed || !s->resolved || s->nfat == 0 || s->pos < s->needed)
        return NULL;
    struct run all = {0};
    for (size_t i = 0; i < s->nfat; i++) {
        const struct run *r = covering(s, s->fat[i].off, s->fat[i].size);
        if (!r)
            return NULL;
        for (uint32_t k = 0; k < r->narchs; k++)
            add_arch(&all, r->archs[k]);
        all.entries += r->entries - r->narchs;
        all.more += r->more;
    }
    return gl_fatbin_facts_make(a, all.archs, all.narchs, all.more, all.entries);
}

bool gl_fatbin_scan_no_device_code(const struct gl_fatbin_scan *s)
{
    return s->not_elf || (s->resolved && !s->failed && s->nfat == 0);
}

const struct gl_fatbin_facts *gl_fatbin_read(struct gl_arena *a, const void *p, size_t n)
{
    struct gl_fatbin_scan *s = gl_fatbin_scan_new(n);
    gl_fatbin_scan_feed(s, p, n);
    const struct gl_fatbin_facts *f = gl_fatbin_scan_end(s, a);
    gl_fatbin_scan_free(s);
    return f;
}

bool gl_fatbin_candidate(const char *path, unsigned mode, uint64_t size)
{
    if (size < 64)
        return false;
    if (mode & 0111)
        return true;
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    size_t len = strlen(base);
    if (len > 2 && (!strcmp(base + len - 2, ".o") || !strcmp(base + len - 2, ".a")))
        return true; /* objects, static libraries */
    const char *so = strstr(base, ".so");
    while (so) {
        const char *t = so + 3;
        while (*t == '.' || (*t >= '0' && *t <= '9'))
            t++;
        if (!*t)
            return true; /* x.so, x.so.1, x.so.12.4.1 */
        so = strstr(so + 1, ".so");
    }
    return false;
}

const char *gl_fatbin_format(const struct gl_fatbin_facts *f, char *buf, size_t cap)
{
    size_t len = 0;
    buf[0] = 0;
    for (uint32_t i = 0; f && i < f->narchs; i++) {
        const struct gl_fatbin_arch *x = &f->archs[i];
        if (i && x->sm == x[-1].sm && x->code == x[-1].code &&
            (x->flags & ~GL_FATBIN_COMPRESSED) == (x[-1].flags & ~GL_FATBIN_COMPRESSED))
            continue; /* compressed and plain copies of one target: named once */
        int k = snprintf(buf + len, cap - len, "%s%s_%u%s", len ? " " : "",
                         x->code == GL_FATBIN_SASS ? "sm" : "compute", x->sm,
                         x->flags & GL_FATBIN_ARCH_A ? "a" : x->flags & GL_FATBIN_ARCH_F ? "f" : "");
        if (k < 0 || (size_t)k >= cap - len) {
            buf[len] = 0; /* whole names only */
            return buf;
        }
        len += (size_t)k;
    }
    if (f && f->more)
        snprintf(buf + len, cap - len, " (+%u more)", f->more);
    return buf;
}

const struct gl_fatbin_facts *gl_fatbin_copy(struct gl_arena *a, const struct gl_fatbin_facts *f)
{
    struct gl_fatbin_facts *c = gl_arena_alloc(a, sizeof *c);
    struct gl_fatbin_arch *v = gl_arena_alloc(a, (f->narchs ? f->narchs : 1) * sizeof *v);
    memcpy(v, f->archs, f->narchs * sizeof *v);
    *c = *f;
    c->archs = v;
    return c;
}

void gl_fatbin_encode(const struct gl_fatbin_facts *f, struct gl_buf *out)
{
    if (!f)
        return;
    uint32_t head[3] = {f->narchs, f->more, f->entries};
    for (size_t i = 0; i < 3; i++)
        for (int b = 0; b < 32; b += 8)
            gl_buf_addc(out, (char)(head[i] >> b));
    for (uint32_t i = 0; i < f->narchs; i++) {
        gl_buf_addc(out, (char)f->archs[i].sm);
        gl_buf_addc(out, (char)(f->archs[i].sm >> 8));
        gl_buf_addc(out, (char)f->archs[i].code);
        gl_buf_addc(out, (char)f->archs[i].flags);
    }
}

const struct gl_fatbin_facts *gl_fatbin_decode(struct gl_arena *a, const void *data, size_t n,
                                               bool *bad)
{
    const unsigned char *p = data;
    if (n == 0)
        return NULL;
    uint64_t narchs = n >= 12 ? le(p, 4) : 0;
    if (n < 12 || narchs == 0 || narchs > GL_FATBIN_MAX_ARCHS || n != 12 + narchs * 4) {
        *bad = true;
        return NULL;
    }
    struct gl_fatbin_facts *f = gl_arena_alloc(a, sizeof *f);
    struct gl_fatbin_arch *v = gl_arena_alloc(a, (size_t)narchs * sizeof *v);
    for (size_t i = 0; i < narchs; i++) {
        const unsigned char *q = p + 12 + 4 * i;
        v[i].sm = (uint16_t)le(q, 2);
        v[i].code = q[2];
        v[i].flags = q[3];
        if (v[i].code < GL_FATBIN_SASS || v[i].code > GL_FATBIN_PTX)
            *bad = true;
    }
    f->archs = v;
    f->narchs = (uint32_t)narchs;
    f->more = (uint32_t)le(p + 4, 4);
    f->entries = (uint32_t)le(p + 8, 4);
    return *bad ? NULL : f;
}

/* ---- static libraries (`ar` archives), and any file ---- */

#define AR_MAGIC "!<arch>\n"
#define AR_MAGIC_LEN 8u
#define AR_HEADER 60u

enum part {
    P_MAGIC,  /* the first bytes, which decide what the file is */
    P_ELF,    /* not a library: everything goes to one ELF scan */
    P_HEADER, /* a member header */
    P_NAME,   /* a BSD member's name bytes */
    P_DATA,   /* a member's bytes */
    P_PAD,    /* the byte that pads an odd member */
};

struct gl_fatbin_file {
    uint64_t size, pos;
    enum part part;
    bool failed, done;
    unsigned char hb[AR_HEADER];
    size_t have;
    uint64_t left;                 /* bytes of the current part still to come */
    uint64_t data;                 /* the current member's own bytes (after a BSD name) */
    bool pad;                      /* an odd member: one byte pads it */
    struct gl_fatbin_scan *member; /* the current member's scan, or the whole file's */
    bool member_open;              /* it still wants bytes */
    uint32_t members;
    struct gl_arena arena;         /* facts of the members */
    struct gl_fatbin_arch archs[GL_FATBIN_MAX_ARCHS];
    uint32_t narchs, more, entries;
};

struct gl_fatbin_file *gl_fatbin_file_new(uint64_t size)
{
    struct gl_fatbin_file *f = xcalloc(1, sizeof *f);
    f->size = size;
    f->part = P_MAGIC;
    gl_arena_init(&f->arena);
    return f;
}

void gl_fatbin_file_free(struct gl_fatbin_file *f)
{
    if (!f)
        return;
    gl_fatbin_scan_free(f->member);
    gl_arena_free(&f->arena);
    free(f);
}

static void file_fail(struct gl_fatbin_file *f)
{
    f->failed = f->done = true;
}

/* A decimal field of an ar header (digits, then blanks). False for anything else. */
static bool decimal(const unsigned char *p, size_t n, uint64_t *out)
{
    uint64_t v = 0;
    size_t i = 0;
    for (; i < n && p[i] >= '0' && p[i] <= '9'; i++) {
        if (v > (UINT64_MAX - 9) / 10)
            return false;
        v = v * 10 + (uint64_t)(p[i] - '0');
    }
    if (i == 0)
        return false;
    for (; i < n; i++)
        if (p[i] != ' ')
            return false;
    *out = v;
    return true;
}

/* Add what the member gave to the library's facts; a member whose device code could not
 * be read makes the whole library unknown. */
static void end_member(struct gl_fatbin_file *f)
{
    const struct gl_fatbin_facts *m = gl_fatbin_scan_end(f->member, &f->arena);
    if (!m && !gl_fatbin_scan_no_device_code(f->member))
        file_fail(f);
    for (uint32_t i = 0; m && i < m->narchs; i++) {
        const struct gl_fatbin_arch *a = &m->archs[i];
        bool seen = false;
        for (uint32_t k = 0; k < f->narchs && !seen; k++)
            seen = f->archs[k].sm == a->sm && f->archs[k].code == a->code &&
                   f->archs[k].flags == a->flags;
        if (seen)
            continue;
        if (f->narchs == GL_FATBIN_MAX_ARCHS)
            f->more++;
        else
            f->archs[f->narchs++] = *a;
    }
    if (m) {
        f->more += m->more;
        f->entries += m->entries;
    }
    gl_fatbin_scan_free(f->member);
    f->member = NULL;
    f->member_open = false;
}

/* A member header is whole in hb: where its bytes are. */
static void on_header(struct gl_fatbin_file *f)
{
    uint64_t size, name = 0;
    if (memcmp(f->hb + 58, "`\n", 2) || !decimal(f->hb + 48, 10, &size) ||
        size > f->size - f->pos || ++f->members > GL_FATBIN_MAX_MEMBERS) {
        file_fail(f); /* malformed, past the end, or too many */
        return;
    }
    if (!memcmp(f->hb, "#1/", 3) && (!decimal(f->hb + 3, 13, &name) || name > size)) {
        file_fail(f); /* a BSD name longer than its member */
        return;
    }
    f->data = size - name;
    f->pad = size % 2;
    f->member = gl_fatbin_scan_new(f->data);
    f->member_open = true;
    f->part = name ? P_NAME : P_DATA;
    f->left = name ? name : f->data;
}

/* The next n bytes of a library. */
static void library(struct gl_fatbin_file *f, const unsigned char *p, size_t n)
{
    while (!f->failed) {
        if (f->part == P_HEADER) {
            if (!n)
                return;
            size_t take = AR_HEADER - f->have < n ? AR_HEADER - f->have : n;
            memcpy(f->hb + f->have, p, take);
            f->have += take, p += take, n -= take, f->pos += take;
            if (f->have == AR_HEADER) {
                f->have = 0;
                on_header(f);
            }
            continue;
        }
        size_t take = f->left < n ? (size_t)f->left : n;
        if (f->part == P_DATA && f->member_open && take)
            f->member_open = gl_fatbin_scan_feed(f->member, p, take);
        p += take, n -= take, f->left -= take, f->pos += take;
        if (f->left)
            return; /* the chunk ended inside this part */
        if (f->part == P_NAME) {
            f->part = P_DATA;
            f->left = f->data;
        } else if (f->part == P_DATA) {
            end_member(f);
            f->part = P_PAD;
            f->left = f->pad;
        } else {
            f->part = P_HEADER;
        }
    }
}

bool gl_fatbin_file_feed(struct gl_fatbin_file *f, const void *data, size_t n)
{
    const unsigned char *p = data;
    if (f->done || n == 0)
        return !f->done;
    if (n > f->size - f->pos)
        n = (size_t)(f->size - f->pos);
    if (f->part == P_MAGIC) {
        size_t take = AR_MAGIC_LEN - f->have < n ? AR_MAGIC_LEN - f->have : n;
        memcpy(f->hb + f->have, p, take);
        f->have += take;
        if (f->have < AR_MAGIC_LEN && f->pos + take < f->size) {
            f->pos += take;
            return true;
        }
        if (f->have == AR_MAGIC_LEN && !memcmp(f->hb, AR_MAGIC, AR_MAGIC_LEN)) {
            f->part = P_HEADER;
            f->have = 0;
            f->pos += take;
            p += take, n -= take;
        } else { /* one ELF file: the bytes held so far first */
            f->part = P_ELF;
            f->member = gl_fatbin_scan_new(f->size);
            f->member_open = gl_fatbin_scan_feed(f->member, f->hb, f->have);
            f->pos += take;
            p += take, n -= take;
        }
    }
    if (f->part == P_ELF) {
        f->pos += n;
        if (f->member_open && n)
            f->member_open = gl_fatbin_scan_feed(f->member, p, n);
        f->done = !f->member_open;
    } else {
        library(f, p, n); /* moves f->pos as it goes */
    }
    if (f->pos >= f->size)
        f->done = true;
    return !f->done;
}

const struct gl_fatbin_facts *gl_fatbin_file_end(struct gl_fatbin_file *f, struct gl_arena *a)
{
    if (f->part == P_ELF)
        return gl_fatbin_scan_end(f->member, a);
    /* a library read to its end, between members */
    if (f->failed || f->part != P_HEADER || f->have || f->pos < f->size)
        return NULL;
    return gl_fatbin_facts_make(a, f->archs, f->narchs, f->more, f->entries);
}

const struct gl_fatbin_facts *gl_fatbin_file_read(struct gl_arena *a, const void *p, size_t n)
{
    struct gl_fatbin_file *f = gl_fatbin_file_new(n);
    gl_fatbin_file_feed(f, p, n);
    const struct gl_fatbin_facts *r = gl_fatbin_file_end(f, a);
    gl_fatbin_file_free(f);
    return r;
}
