/* SPDX-License-Identifier: Apache-2.0 */
/* image_fatbin_ar.c: the fat binaries of a static library's members, and the scan of any
 * file (a static library, else one ELF file): see image_fatbin.h. */
#include "parsers/image/image_fatbin.h"

#include <stdlib.h>
#include <string.h>

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

static void fail(struct gl_fatbin_file *f)
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
        fail(f);
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
        fail(f); /* malformed, past the end, or too many */
        return;
    }
    if (!memcmp(f->hb, "#1/", 3) && (!decimal(f->hb + 3, 13, &name) || name > size)) {
        fail(f); /* a BSD name longer than its member */
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
