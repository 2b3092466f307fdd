/* SPDX-License-Identifier: Apache-2.0 */
/*
 * image_cache.c: the layer-index cache's entries: their format, load and store (see
 * image_cache.h; the directory checks are in image_cache_dir.c, the size bound in
 * image_cache_evict.c).
 */
#include "parsers/image/image_cache.h"
#include "parsers/image/image_cache_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zstd.h>

#include "linter/core/limits.h"
#include "parsers/image/image_fatbin.h"
#include "parsers/image/image_sha256.h"

#define FIXED_LEN (4 + 4 + 8 + 8) /* magic, version, payload and frame lengths */
#define SUM_LEN 32
#define MAX_PAYLOAD (1ull << 32)

/* "<algo>-<hex>.idx" for a well-formed digest, else false. */
static bool entry_name(const char *digest, char *out, size_t outlen)
{
    const char *colon = strchr(digest, ':');
    if (!colon || colon == digest || colon - digest > 16)
        return false;
    for (const char *p = digest; p < colon; p++)
        if (!((*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9')))
            return false;
    size_t hexlen = strlen(colon + 1);
    if (hexlen < 32 || hexlen > 128 || strspn(colon + 1, "0123456789abcdef") != hexlen)
        return false;
    int n = snprintf(out, outlen, "%.*s-%s" GL_CACHE_ENTRY_SUFFIX, (int)(colon - digest), digest,
                     colon + 1);
    return n > 0 && (size_t)n < outlen;
}

static void put_u32(struct gl_buf *b, uint32_t v)
{
    unsigned char x[4] = {(unsigned char)v, (unsigned char)(v >> 8), (unsigned char)(v >> 16),
                          (unsigned char)(v >> 24)};
    gl_buf_add(b, x, 4);
}

static void put_u64(struct gl_buf *b, uint64_t v)
{
    put_u32(b, (uint32_t)v);
    put_u32(b, (uint32_t)(v >> 32));
}

/* A string: length+1 (0 for NULL), then the bytes. */
static void put_str(struct gl_buf *b, const char *s, size_t len)
{
    put_u32(b, s ? (uint32_t)len + 1 : 0);
    if (s)
        gl_buf_add(b, s, len);
}

void gl_layer_index_serialize(const struct gl_layer_index *ix, struct gl_buf *out)
{
    put_u64(out, ix->n);
    for (size_t i = 0; i < ix->n; i++) {
        const struct gl_layer_entry *e = &ix->entries[i];
        gl_buf_addc(out, (char)(e->type | (e->fatbin ? 0x80 : 0))); /* 0x80: facts follow */
        gl_buf_addc(out, (char)e->whiteout);
        put_u64(out, e->size);
        put_str(out, e->path, strlen(e->path));
        put_str(out, e->link, e->link ? strlen(e->link) : 0);
        put_str(out, e->content, e->content_len);
        if (e->fatbin) {
            struct gl_buf fb;
            gl_buf_init(&fb);
            gl_fatbin_encode(e->fatbin, &fb);
            put_str(out, fb.data, fb.len);
            gl_buf_free(&fb);
        }
    }
}

struct cursor {
    const unsigned char *p;
    size_t left;
    bool bad;
};

static uint64_t get_uint(struct cursor *c, size_t width)
{
    if (c->bad || c->left < width) {
        c->bad = true;
        return 0;
    }
    uint64_t v = 0;
    for (size_t i = 0; i < width; i++)
        v |= (uint64_t)c->p[i] << (8 * i);
    c->p += width;
    c->left -= width;
    return v;
}

static const char *get_str(struct cursor *c, struct gl_arena *a, uint32_t *len)
{
    uint64_t n = get_uint(c, 4);
    if (c->bad || n == 0)
        return NULL;
    if (n - 1 > c->left || n - 1 > GL_CAPTURE_MAX + 65536u * 4) {
        c->bad = true;
        return NULL;
    }
    const char *s = gl_arena_strndup(a, (const char *)c->p, (size_t)(n - 1));
    c->p += n - 1;
    c->left -= (size_t)(n - 1);
    if (len)
        *len = (uint32_t)(n - 1);
    return s;
}

bool gl_layer_index_parse(struct gl_layer_index *ix, const unsigned char *p, size_t n)
{
    struct cursor c = {p, n, false};
    uint64_t count = get_uint(&c, 8);
    if (c.bad || count > GL_LAYER_MAX_ENTRIES || count > n / 18)
        return false;
    for (uint64_t i = 0; i < count && !c.bad; i++) {
        /* charged as it grows, as a streamed index is: a cached index of a huge layer stops
         * at the image budget (ix->error says so) instead of being loaded whole first */
        if (i % 256 == 0 && !gl_layer_index_charge(ix))
            return true;
        struct gl_layer_entry e = {0};
        uint8_t type = (uint8_t)get_uint(&c, 1);
        e.type = type & 0x7f;
        e.whiteout = (uint8_t)get_uint(&c, 1);
        e.size = get_uint(&c, 8);
        e.path = get_str(&c, &ix->arena, NULL);
        e.link = get_str(&c, &ix->arena, NULL);
        e.content = get_str(&c, &ix->arena, &e.content_len);
        if (type & 0x80) {
            uint32_t fblen = 0;
            const char *fb = get_str(&c, &ix->arena, &fblen);
            bool bad = false;
            e.fatbin = fb ? gl_fatbin_decode(&ix->arena, fb, fblen, &bad) : NULL;
            if (!e.fatbin)
                c.bad = true;
        }
        if (!e.path || e.type > GL_FILE_OTHER || e.whiteout > GL_WH_OPAQUE)
            c.bad = true;
        if (!c.bad)
            *GL_APPEND(&ix->arena, ix->entries, ix->n, ix->cap) = e;
    }
    return !c.bad && c.left == 0;
}

static bool read_all(int fd, void *buf, size_t n)
{
    char *p = buf;
    while (n) {
        ssize_t k = read(fd, p, n);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0)
            return false;
        p += k;
        n -= (size_t)k;
    }
    return true;
}

static bool write_all(int fd, const void *buf, size_t n)
{
    const char *p = buf;
    while (n) {
        ssize_t k = write(fd, p, n);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0)
            return false;
        p += k;
        n -= (size_t)k;
    }
    return true;
}

/* What precedes the zstd frame: magic, format version, payload and frame lengths, and
 * the digest the entry is stored under. The checksum covers it, so an entry copied or
 * renamed under another digest's name is a miss. */
static void put_header(struct gl_buf *h, const char *digest, uint64_t raw_len,
                       uint64_t comp_len)
{
    gl_buf_add(h, "GLIX", 4);
    put_u32(h, GL_CACHE_VERSION);
    put_u64(h, raw_len);
    put_u64(h, comp_len);
    put_str(h, digest, strlen(digest));
}

static void checksum(const void *p, size_t n, unsigned char sum[SUM_LEN])
{
    struct gl_sha256 s;
    gl_sha256_init(&s);
    gl_sha256_update(&s, p, n);
    gl_sha256_final(&s, sum);
}

/* The payload of a whole entry file f[n] if it is one for `digest`: its header is the
 * one put_header() writes for that digest and its lengths, its checksum matches, the
 * frame decompresses to the payload length. Into raw (malloc'd); false otherwise. */
static bool unpack(const unsigned char *f, size_t n, const char *digest, unsigned char **raw,
                   size_t *raw_len)
{
    if (n < FIXED_LEN + SUM_LEN)
        return false;
    struct cursor c = {f + 8, FIXED_LEN - 8, false};
    uint64_t rlen = get_uint(&c, 8), clen = get_uint(&c, 8);
    if (rlen > MAX_PAYLOAD || clen > MAX_PAYLOAD)
        return false;
    struct gl_buf h;
    gl_buf_init(&h);
    put_header(&h, digest, rlen, clen);
    unsigned char sum[SUM_LEN];
    bool ok = n == h.len + clen + SUM_LEN && !memcmp(f, h.data, h.len);
    if (ok) {
        checksum(f, n - SUM_LEN, sum);
        ok = !memcmp(sum, f + n - SUM_LEN, SUM_LEN);
    }
    if (ok) {
        *raw = xmalloc(rlen + 1);
        size_t got = ZSTD_decompress(*raw, (size_t)rlen, f + h.len, (size_t)clen);
        ok = !ZSTD_isError(got) && got == rlen;
        *raw_len = got;
    }
    gl_buf_free(&h);
    return ok;
}

/* Parse the entry open at fd; false on anything wrong. An entry larger than the cache
 * bound is never stored, so one is not read either. */
static bool load_file(int fd, const char *digest, struct gl_layer_index *ix)
{
    struct stat st;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) ||
        (uint64_t)st.st_size > gl_limit(GL_LIMIT_CACHE_SIZE))
        return false;
    size_t n = (size_t)st.st_size, raw_len = 0;
    unsigned char *f = xmalloc(n + 1), *raw = NULL;
    bool ok = read_all(fd, f, n) && unpack(f, n, digest, &raw, &raw_len) &&
              gl_layer_index_parse(ix, raw, raw_len);
    free(raw);
    free(f);
    return ok;
}

bool gl_layer_cache_load(const char *dir, const char *digest, struct gl_layer_index *ix)
{
    char name[200];
    if (!digest || !entry_name(digest, name, sizeof name))
        return false;
    int layers = gl_cache_open_layers(dir, false, NULL);
    if (layers < 0)
        return false;
    /* O_NONBLOCK: a FIFO planted under the name must not hang the open */
    int fd = openat(layers, name, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
    close(layers);
    if (fd < 0) /* (absent, evicted, or a symbolic link: a miss) */
        return false;
    bool ok = load_file(fd, digest, ix);
    if (ok)
        futimens(fd, NULL); /* recency, for eviction */
    close(fd);
    if (!ok) {
        gl_layer_index_free(ix);
        gl_layer_index_init(ix);
        return false;
    }
    snprintf(ix->digest, sizeof ix->digest, "%s", digest);
    ix->from_cache = true;
    return true;
}

/* The whole entry file for ix under `digest` into out: header, zstd frame, checksum. */
static bool pack(const struct gl_layer_index *ix, const char *digest, struct gl_buf *out)
{
    struct gl_buf raw;
    gl_buf_init(&raw);
    gl_layer_index_serialize(ix, &raw);
    size_t bound = ZSTD_compressBound(raw.len);
    unsigned char *comp = xmalloc(bound);
    size_t clen = ZSTD_compress(comp, bound, raw.data ? raw.data : "", raw.len, 3);
    bool ok = !ZSTD_isError(clen);
    if (ok) {
        unsigned char sum[SUM_LEN];
        put_header(out, digest, raw.len, clen);
        gl_buf_add(out, comp, clen);
        checksum(out->data, out->len, sum);
        gl_buf_add(out, sum, SUM_LEN);
    }
    free(comp);
    gl_buf_free(&raw);
    return ok;
}

/* Write data to a new temporary file in layers/, then rename it to `name`: a reader
 * sees the old entry or the new one, never half of one. rename() replaces a symbolic
 * link planted under the name, it never writes through it. No fsync: after a crash a
 * short or empty entry fails its checksum and is a miss. */
static void write_entry(int layers, const char *name, const struct gl_buf *data)
{
    static atomic_uint seq;
    char tmp[300];
    int n = snprintf(tmp, sizeof tmp, GL_CACHE_TEMP_PREFIX "%ld-%u-%s", (long)getpid(),
                     atomic_fetch_add(&seq, 1), name);
    if (n <= 0 || (size_t)n >= sizeof tmp)
        return;
    int fd = openat(layers, tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0600);
    if (fd < 0)
        return;
    bool ok = write_all(fd, data->data, data->len);
    ok = close(fd) == 0 && ok;
    if (!ok || renameat(layers, tmp, layers, name) != 0)
        unlinkat(layers, tmp, 0);
}

void gl_layer_cache_store(const char *dir, const char *digest, const struct gl_layer_index *ix)
{
    char name[200];
    if (ix->error || !digest || !entry_name(digest, name, sizeof name))
        return;
    uint64_t bound = gl_limit(GL_LIMIT_CACHE_SIZE);
    struct gl_buf data;
    gl_buf_init(&data);
    if (pack(ix, digest, &data) && data.len <= bound) { /* larger than the bound: not kept */
        int layers = gl_cache_open_layers(dir, true, NULL);
        if (layers >= 0) {
            write_entry(layers, name, &data);
            gl_cache_evict(layers, bound);
            close(layers);
        }
    }
    gl_buf_free(&data);
}
