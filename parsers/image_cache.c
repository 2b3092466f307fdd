/* image_cache.c: the zstd-compressed layer-index cache (see image_cache.h). */
#include "parsers/image_cache.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zstd.h>

#include "parsers/image_sha256.h"

#define HEADER_LEN (4 + 4 + 8 + 8 + 32)
#define MAX_PAYLOAD (1ull << 32)

bool gl_layer_cache_dir(const struct gl_config *cfg, char *out, size_t outlen)
{
    if (cfg->no_cache)
        return false;
    int n;
    const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
    if (cfg->cache_dir && *cfg->cache_dir)
        n = snprintf(out, outlen, "%s", cfg->cache_dir);
    else if (xdg && *xdg == '/')
        n = snprintf(out, outlen, "%s/gpulint", xdg);
    else if (home && *home == '/')
        n = snprintf(out, outlen, "%s/.cache/gpulint", home);
    else
        return false;
    return n > 0 && (size_t)n < outlen;
}

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
    int n = snprintf(out, outlen, "%.*s-%s.idx", (int)(colon - digest), digest, colon + 1);
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
        gl_buf_addc(out, (char)e->type);
        gl_buf_addc(out, (char)e->whiteout);
        put_u64(out, e->size);
        put_str(out, e->path, strlen(e->path));
        put_str(out, e->link, e->link ? strlen(e->link) : 0);
        put_str(out, e->content, e->content_len);
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
        struct gl_layer_entry e = {0};
        e.type = (uint8_t)get_uint(&c, 1);
        e.whiteout = (uint8_t)get_uint(&c, 1);
        e.size = get_uint(&c, 8);
        e.path = get_str(&c, &ix->arena, NULL);
        e.link = get_str(&c, &ix->arena, NULL);
        e.content = get_str(&c, &ix->arena, &e.content_len);
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

static bool load_file(int fd, struct gl_layer_index *ix)
{
    unsigned char h[HEADER_LEN];
    struct stat st;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || !read_all(fd, h, sizeof h) ||
        memcmp(h, "GLIX", 4))
        return false;
    struct cursor c = {h + 4, sizeof h - 4, false};
    uint64_t version = get_uint(&c, 4), raw_len = get_uint(&c, 8), comp_len = get_uint(&c, 8);
    if (version != GL_CACHE_VERSION || raw_len > MAX_PAYLOAD || comp_len > MAX_PAYLOAD ||
        (uint64_t)st.st_size != HEADER_LEN + comp_len)
        return false;
    unsigned char *comp = xmalloc(comp_len + 1), *raw = xmalloc(raw_len + 1);
    bool ok = read_all(fd, comp, (size_t)comp_len);
    if (ok) {
        unsigned char sum[32];
        struct gl_sha256 s;
        gl_sha256_init(&s);
        gl_sha256_update(&s, comp, (size_t)comp_len);
        gl_sha256_final(&s, sum);
        ok = !memcmp(sum, h + 24, 32);
    }
    if (ok) {
        size_t got = ZSTD_decompress(raw, (size_t)raw_len, comp, (size_t)comp_len);
        ok = !ZSTD_isError(got) && got == raw_len && gl_layer_index_parse(ix, raw, got);
    }
    free(comp);
    free(raw);
    return ok;
}

bool gl_layer_cache_load(const char *dir, const char *digest, struct gl_layer_index *ix)
{
    char name[200], path[4096];
    if (!digest || !entry_name(digest, name, sizeof name))
        return false;
    int n = snprintf(path, sizeof path, "%s/layers/%s", dir, name);
    if (n <= 0 || (size_t)n >= sizeof path)
        return false;
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
    if (fd < 0)
        return false;
    bool ok = load_file(fd, ix);
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

/* mkdir -p for the cache dir and its layers/ subdirectory (mode 0700). */
static bool make_dirs(const char *path)
{
    char buf[4096];
    size_t n = strlen(path);
    if (n >= sizeof buf)
        return false;
    memcpy(buf, path, n + 1);
    for (size_t i = 1; i <= n; i++) {
        if (buf[i] != '/' && buf[i] != 0)
            continue;
        char keep = buf[i];
        buf[i] = 0;
        if (mkdir(buf, 0700) != 0 && errno != EEXIST)
            return false;
        buf[i] = keep;
    }
    return true;
}

void gl_layer_cache_store(const char *dir, const char *digest, const struct gl_layer_index *ix)
{
    char name[200], layers[3800], path[4096], tmp[4096];
    if (ix->error || !digest || !entry_name(digest, name, sizeof name))
        return;
    int n = snprintf(layers, sizeof layers, "%s/layers", dir);
    if (n <= 0 || (size_t)n >= sizeof layers || !make_dirs(layers))
        return;
    if (snprintf(path, sizeof path, "%s/%s", layers, name) >= (int)sizeof path ||
        snprintf(tmp, sizeof tmp, "%s/.tmp-%ld-%lx-%s", layers, (long)getpid(),
                 (unsigned long)pthread_self(), name) >= (int)sizeof tmp)
        return;

    struct gl_buf raw;
    gl_buf_init(&raw);
    gl_layer_index_serialize(ix, &raw);
    size_t bound = ZSTD_compressBound(raw.len);
    unsigned char *comp = xmalloc(bound + HEADER_LEN);
    size_t clen = ZSTD_compress(comp + HEADER_LEN, bound, raw.data ? raw.data : "", raw.len, 3);
    if (!ZSTD_isError(clen)) {
        struct gl_buf h;
        gl_buf_init(&h);
        gl_buf_add(&h, "GLIX", 4);
        put_u32(&h, GL_CACHE_VERSION);
        put_u64(&h, raw.len);
        put_u64(&h, clen);
        struct gl_sha256 s;
        gl_sha256_init(&s);
        gl_sha256_update(&s, comp + HEADER_LEN, clen);
        gl_sha256_final(&s, (unsigned char *)comp + 24);
        memcpy(comp, h.data, 24);
        gl_buf_free(&h);
        int fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0600);
        if (fd >= 0) {
            bool ok = write_all(fd, comp, HEADER_LEN + clen);
            ok = close(fd) == 0 && ok;
            if (!ok || rename(tmp, path) != 0)
                unlink(tmp);
        }
    }
    free(comp);
    gl_buf_free(&raw);
}
