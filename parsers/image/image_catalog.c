/* SPDX-License-Identifier: Apache-2.0 */
/* image_catalog.c: read an archive's entries once (see image_catalog.h). */
#include "parsers/image/image_catalog.h"

#include <archive.h>
#include <archive_entry.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "linter/core/limits.h"
#include "parsers/image/gz_isal.h"
#include "parsers/image/image_cache.h"
#include "parsers/image/image_filters.h"
#include "parsers/image/image_manifest.h"
#include "parsers/image/image_zstd.h"

#define MAX_LINK_HOPS 8   /* symlinks followed from one name (a loop stops there) */
#define NAME_PART_MAX 255 /* bytes of one path component (NAME_MAX) */

bool gl_image_head_is_archive(const unsigned char *p, size_t n)
{
    if (n >= 262 && !memcmp(p + 257, "ustar", 5))
        return true;
    if (n >= 2 && p[0] == 0x1f && p[1] == 0x8b)
        return true;
    return gl_zstd_head(p, n);
}

bool gl_image_dir_is_layout(const char *dir)
{
    char path[4096];
    struct stat st;
    int n = snprintf(path, sizeof path, "%s/oci-layout", dir);
    return n > 0 && (size_t)n < sizeof path && stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

static void fail(struct gl_catalog *c, const char *msg)
{
    if (!c->error)
        c->error = msg;
}

static struct gl_catalog_blob *new_blob(struct gl_catalog *c, const char *name)
{
    struct gl_catalog_blob *b = gl_arena_alloc(c->a, sizeof *b);
    b->name = name;
    *GL_APPEND(c->a, c->blobs, c->n, c->cap) = b;
    *gl_map_puts(&c->names, name, NULL) = b; /* the last entry of a name wins, as in tar */
    return b;
}

/* ---- OCI layout directories: blobs are files below the layout's descriptor ---- */

bool gl_image_layout_name_ok(const char *name)
{
    if (!strcmp(name, "index.json") || !strcmp(name, "manifest.json") ||
        !strcmp(name, "oci-layout"))
        return true;
    if (!gl_has_prefix(name, "blobs/") || strlen(name) > NAME_PART_MAX * 2)
        return false;
    const char *alg = name + 6, *slash = strchr(alg, '/');
    char digest[NAME_PART_MAX * 2 + 2];
    if (!slash)
        return false;
    snprintf(digest, sizeof digest, "%.*s:%s", (int)(slash - alg), alg, slash + 1);
    return gl_image_digest_valid(digest);
}

/* Open `name` below the directory dirfd one component at a time, following no symbolic
 * link: a regular file's descriptor, or -1. (O_NONBLOCK: a FIFO does not hang the open.) */
static int open_below(int dirfd, const char *name)
{
    int cur = dirfd;
    for (const char *p = name;;) {
        const char *slash = strchr(p, '/');
        size_t n = slash ? (size_t)(slash - p) : strlen(p);
        char part[NAME_PART_MAX + 1];
        int fd = -1;
        if (n > 0 && n <= NAME_PART_MAX) {
            memcpy(part, p, n);
            part[n] = 0;
            fd = openat(cur, part, O_RDONLY | O_NOFOLLOW | O_CLOEXEC |
                                       (slash ? O_DIRECTORY : O_NONBLOCK));
        }
        if (cur != dirfd)
            close(cur);
        cur = fd;
        if (fd < 0 || !slash)
            break;
        p = slash + 1;
    }
    struct stat st;
    if (cur >= 0 && (fstat(cur, &st) != 0 || !S_ISREG(st.st_mode))) {
        close(cur);
        cur = -1;
    }
    return cur;
}

static struct gl_catalog_blob *dir_blob(struct gl_catalog *c, const char *name)
{
    struct gl_catalog_blob *b = gl_map_gets(&c->names, name);
    if (b || !gl_image_layout_name_ok(name))
        return b;
    int fd = open_below(c->fd, name);
    struct stat st;
    if (fd < 0 || fstat(fd, &st) != 0) {
        if (fd >= 0)
            close(fd);
        return NULL;
    }
    close(fd);
    b = new_blob(c, gl_arena_strdup(c->a, name));
    b->size = (uint64_t)st.st_size;
    return b;
}

int gl_catalog_blob_open(struct gl_catalog *c, const struct gl_catalog_blob *b,
                         struct gl_blob_span *s, const char **why)
{
    *s = (struct gl_blob_span){c->fd, false, b->off, b->size};
    *why = b->sparse ? "a sparse archive entry (never read)" : "cannot be opened";
    if (c->mode != GL_CAT_DIR)
        return c->fd >= 0 && !b->sparse ? 0 : -1;
    struct stat st;
    s->fd = open_below(c->fd, b->name);
    if (s->fd < 0 || fstat(s->fd, &st) != 0) {
        gl_catalog_blob_close(s);
        return -1;
    }
    *s = (struct gl_blob_span){s->fd, true, 0, (uint64_t)st.st_size};
    return 0;
}

void gl_catalog_blob_close(struct gl_blob_span *s)
{
    if (s->owned && s->fd >= 0)
        close(s->fd);
    s->fd = -1;
    s->owned = false;
}

/* ---- looking blobs up, reading JSON documents ---- */

struct gl_catalog_blob *gl_catalog_find(struct gl_catalog *c, const char *name)
{
    const char *cur = name;
    for (int hop = 0; hop <= MAX_LINK_HOPS; hop++) {
        struct gl_catalog_blob *b = c->mode == GL_CAT_DIR ? dir_blob(c, cur)
                                                          : gl_map_gets(&c->names, cur);
        if (!b || !b->link)
            return b;
        cur = b->link;
    }
    return NULL; /* a symlink loop */
}

static bool digest_ok(const char *name, const char *data, size_t len)
{
    if (!gl_has_prefix(name, "blobs/sha256/"))
        return true;
    char hex[65];
    gl_sha256_hex_of(data, len, hex);
    return !strcmp(hex, name + 13);
}

/* A seekable archive's or a layout's document, read now (at most image-json-size). */
static char *read_json(struct gl_catalog *c, const struct gl_catalog_blob *b, size_t *len,
                       const char **why)
{
    struct gl_blob_span s;
    if (b->size > gl_limit(GL_LIMIT_IMAGE_JSON_SIZE)) {
        *why = gl_arena_printf(c->a, "%llu bytes: %s", (unsigned long long)b->size,
                               gl_image_limit_text(c->a, GL_LIMIT_IMAGE_JSON_SIZE));
        return NULL;
    }
    if (gl_catalog_blob_open(c, b, &s, why) != 0)
        return NULL;
    size_t size = (size_t)(s.size < b->size ? s.size : b->size), got = 0;
    char *text = xmalloc(size + 1);
    while (got < size) {
        ssize_t k = pread(s.fd, text + got, size - got, (off_t)(s.off + got));
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0)
            break;
        got += (size_t)k;
    }
    gl_catalog_blob_close(&s);
    text[got] = 0;
    *len = got;
    return text;
}

/* A stream's document, kept as it passed: a heap copy. */
static char *kept_json(const struct gl_catalog_blob *b, size_t *len, const char **why)
{
    if (!b->json) {
        *why = b->not_json ? b->not_json : "a layer, not a JSON document";
        return NULL;
    }
    char *text = xmalloc(b->json_len + 1);
    memcpy(text, b->json, b->json_len + 1);
    *len = b->json_len;
    return text;
}

char *gl_catalog_json(void *catalog, const char *name, size_t *len, const char **why)
{
    struct gl_catalog *c = catalog;
    struct gl_catalog_blob *b = gl_catalog_find(c, name);
    *why = NULL;
    if (!b)
        return NULL;
    char *text = c->mode == GL_CAT_STREAM ? kept_json(b, len, why) : read_json(c, b, len, why);
    if (text && !digest_ok(name, text, *len)) {
        free(text);
        *why = "its content does not match its sha256 digest";
        return NULL;
    }
    return text;
}

struct outer {
    struct archive *a;
    int fd;
    const unsigned char *head; size_t head_len; /* stdin bytes read while sniffing */
    char *buf;
    uint64_t consumed;       /* raw bytes handed to libarchive */
    bool bomb;               /* stopped at the decompression cap */
};

static la_ssize_t outer_fd_read(struct archive *a, void *ctx, const void **buf)
{
    struct outer *o = ctx;
    /* a compressed outer archive is capped like a layer (gz_isal.h): past
     * GL_GZ_BOMB_MIN bytes out, at most GL_GZ_BOMB_RATIO bytes out per byte in */
    la_int64_t out = archive_filter_bytes(a, 0);
    if (out > (la_int64_t)GL_GZ_BOMB_MIN && (uint64_t)out / GL_GZ_BOMB_RATIO > o->consumed) {
        o->bomb = true; /* libarchive's filters replace our error: gl_catalog_open says it */
        return -1;
    }
    if (o->head_len) {
        *buf = o->head;
        la_ssize_t n = (la_ssize_t)o->head_len;
        o->head_len = 0;
        o->consumed += (uint64_t)n;
        return n;
    }
    ssize_t n;
    do
        n = read(o->fd, o->buf, GL_SRC_BUF);
    while (n < 0 && errno == EINTR);
    *buf = o->buf;
    if (n > 0)
        o->consumed += (uint64_t)n;
    return n;
}

static la_int64_t outer_fd_skip(struct archive *a, void *ctx, la_int64_t n)
{
    (void)a;
    struct outer *o = ctx;
    if (o->head_len)
        return 0;
    off_t cur = lseek(o->fd, 0, SEEK_CUR);
    if (cur < 0 || lseek(o->fd, n, SEEK_CUR) < 0)
        return 0; /* a pipe: libarchive reads and discards */
    o->consumed += (uint64_t)n; /* skipped input counts as consumed (bomb check) */
    return n;
}

/* The data of the outer archive's current entry, as a byte source. */
static ssize_t entry_read(void *ctx, const void **buf)
{
    struct archive *a = ctx;
    size_t size;
    la_int64_t off;
    int r = archive_read_data_block(a, buf, &size, &off);
    if (r == ARCHIVE_EOF)
        return 0;
    if (r < ARCHIVE_WARN)
        return -1;
    return (ssize_t)size;
}

static bool looks_json(const unsigned char *p, size_t n)
{
    size_t i = 0;
    while (i < n && strchr(" \t\r\n", p[i]))
        i++;
    return i < n && (p[i] == '{' || p[i] == '[');
}

/* Read the rest of a streamed JSON document into the arena (size: its length). */
static bool slurp_json(struct gl_catalog *c, struct gl_blob_reader *r, uint64_t size,
                       struct gl_catalog_blob *b)
{
    char *buf = gl_arena_alloc(c->a, (size_t)size + 1);
    size_t got = 0;
    const void *p;
    ssize_t n;
    while ((n = gl_blob_reader_read(r, &p)) > 0) {
        if (got + (size_t)n > size)
            return false;
        memcpy(buf + got, p, (size_t)n);
        got += (size_t)n;
    }
    if (n < 0)
        return false;
    b->json = buf;
    b->json_len = got;
    return true;
}

/* The digest a blob's name says ("blobs/sha256/<hex>" -> "sha256:<hex>"), or NULL. */
static const char *digest_of_name(struct gl_arena *a, const char *name)
{
    const char *slash = gl_has_prefix(name, "blobs/") ? strchr(name + 6, '/') : NULL;
    if (!slash)
        return NULL;
    const char *d = gl_arena_printf(a, "%.*s:%s", (int)(slash - name - 6), name + 6, slash + 1);
    return gl_image_digest_valid(d) ? d : NULL;
}

/* Index a layer that streams by (GL_CAT_STREAM), through the cache when its name says
 * its digest. */
static void stream_layer(struct gl_catalog *c, struct gl_blob_reader *r,
                         struct gl_catalog_blob *b)
{
    const char *digest = digest_of_name(c->a, b->name);
    struct gl_layer_index *ix = gl_arena_alloc(c->a, sizeof *ix);
    gl_layer_index_init(ix);
    b->ix = ix;
    if (c->cache_dir && digest && gl_layer_cache_load(c->cache_dir, digest, ix))
        return;
    /* (nothing was read yet, only peeked) a layer not named by its digest (docker save's
     * <id>.tar) has nothing to be checked against: hashing it would be wasted */
    r->no_hash = c->trust_digests || !digest;
    gl_layer_index_build(ix, r, NULL);
    if (!ix->error && digest && ix->digest[0] && strcmp(ix->digest, digest))
        ix->error = gl_arena_printf(&ix->arena, "its content has digest %s", ix->digest);
    if (!ix->error && c->cache_dir && digest && !strcmp(ix->digest, digest)) /* checked */
        gl_layer_cache_store(c->cache_dir, digest, ix);
}

/* A streamed entry's data: a JSON document kept, a layer indexed, or passed by. */
static void stream_entry(struct gl_catalog *c, struct archive *a, struct gl_catalog_blob *b)
{
    struct gl_blob_reader r;
    gl_blob_reader_init(&r, (struct gl_byte_src){.ctx = a, .read = entry_read});
    const unsigned char *head;
    size_t nhead = gl_blob_reader_peek(&r, &head, 512);
    if (looks_json(head, nhead) && b->size > gl_limit(GL_LIMIT_IMAGE_JSON_SIZE)) {
        b->not_json = gl_arena_printf(c->a, "%llu bytes: %s", (unsigned long long)b->size,
                                      gl_image_limit_text(c->a, GL_LIMIT_IMAGE_JSON_SIZE));
    } else if (looks_json(head, nhead)) {
        if (!slurp_json(c, &r, b->size, b))
            fail(c, gl_arena_printf(c->a, "entry %zu `%s`: truncated", b->entry,
                                    gl_image_quote(c->a, b->name)));
    } else if (gl_image_head_is_archive(head, nhead) || (nhead == 0 && !r.failed)) {
        stream_layer(c, &r, b);
    } else {
        b->not_json = "not a JSON document";
    }
}

/* Is a name of the archive within name-length? (else the catalog stops, naming it) */
static bool name_fits(struct gl_catalog *c, const char *name, size_t entry)
{
    size_t n = strlen(name);
    if (n <= gl_limit(GL_LIMIT_NAME_LENGTH))
        return true;
    fail(c, gl_arena_printf(c->a, "entry %zu `%s`: a name of %zu bytes: %s", entry,
                            gl_image_quote(c->a, name), n,
                            gl_image_limit_text(c->a, GL_LIMIT_NAME_LENGTH)));
    return false;
}

/* A symlink's target, resolved against the directory of the entry `name`. */
static const char *link_target(struct gl_arena *a, const char *name, const char *t)
{
    const char *slash = strrchr(name, '/');
    if (*t == '/' || !slash)
        return gl_image_path_normalize(a, t);
    return gl_image_path_normalize(a, gl_arena_printf(a, "%.*s/%s", (int)(slash - name),
                                                      name, t));
}

static void add_entry(struct gl_catalog *c, struct archive *a, struct archive_entry *e,
                      size_t entry, bool seekable)
{
    const char *raw = archive_entry_pathname(e), *hard = archive_entry_hardlink(e);
    const char *sym = archive_entry_symlink(e);
    unsigned type = archive_entry_filetype(e);
    if (!name_fits(c, raw ? raw : "", entry) || (hard && !name_fits(c, hard, entry)) ||
        (type == AE_IFLNK && sym && !name_fits(c, sym, entry)))
        return;
    char *name = gl_image_path_normalize(c->a, raw ? raw : "");
    if (!*name || (type != AE_IFREG && type != AE_IFLNK && !hard))
        return;
    struct gl_catalog_blob *b = new_blob(c, name);
    b->entry = entry;
    if (hard || type == AE_IFLNK) {
        b->link = hard ? gl_image_path_normalize(c->a, hard)
                       : link_target(c->a, name, sym ? sym : "");
        return;
    }
    int64_t size = archive_entry_size(e);
    b->size = size > 0 ? (uint64_t)size : 0;
    if (!seekable) {
        stream_entry(c, a, b);
        return;
    }
    b->off = (uint64_t)archive_filter_bytes(a, 0);
    b->sparse = archive_entry_sparse_count(e) > 0; /* (its size is not what it stores) */
    if (!b->sparse && (b->off > c->file_size || b->size > c->file_size - b->off))
        fail(c, gl_arena_printf(c->a, "entry %zu `%s`: truncated: the archive ends inside its "
                                "data", entry, gl_image_quote(c->a, name)));
}

/* Returns the number of the entry reached. */
static size_t read_archive(struct gl_catalog *c, struct archive *a, bool seekable)
{
    struct archive_entry *e;
    size_t entry = 0;
    int r;
    while ((r = archive_read_next_header(a, &e)) == ARCHIVE_OK || r == ARCHIVE_WARN) {
        if (++entry > gl_limit(GL_LIMIT_ARCHIVE_ENTRIES)) {
            fail(c, gl_arena_printf(c->a, "entry %zu of the archive: one entry too many, "
                                    "stopped: %s", entry,
                                    gl_image_limit_text(c->a, GL_LIMIT_ARCHIVE_ENTRIES)));
            return entry;
        }
        add_entry(c, a, e, entry, seekable);
        /* the names (and, in a stream, the JSON documents) kept so far are the doc's:
         * they stop at its limit, whatever the count of entries */
        if (!c->error && gl_arena_over(c->a))
            fail(c, gl_arena_printf(c->a, "entry %zu of the archive: the names and documents "
                                    "of its entries are too many, stopped: %s", entry,
                                    gl_image_limit_text(c->a, GL_LIMIT_PARSE_MEMORY)));
        if (c->error)
            return entry;
        if (archive_read_data_skip(a) != ARCHIVE_OK) {
            r = ARCHIVE_FATAL;
            break;
        }
    }
    if (r != ARCHIVE_EOF) {
        const char *msg = archive_error_string(a);
        fail(c, gl_arena_printf(c->a, "entry %zu of the archive: %s", entry + (r != ARCHIVE_OK),
                                msg ? msg : "not a tar archive"));
    }
    return entry;
}

void gl_catalog_open(struct gl_catalog *c, struct gl_arena *a, const char *path,
                     int stream_fd, const void *head, size_t head_len, const char *cache_dir,
                     bool trust_digests)
{
    memset(c, 0, sizeof *c);
    c->a = a;
    c->path = path;
    c->fd = -1;
    c->cache_dir = cache_dir;
    c->trust_digests = trust_digests;
    struct stat st;
    bool is_stdin = stream_fd >= 0; /* a stream: read once from stream_fd */
    gl_map_init(&c->names);
    if (!is_stdin && stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
        c->mode = GL_CAT_DIR;
        c->fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        if (c->fd < 0)
            fail(c, gl_arena_printf(a, "cannot open: %s", strerror(errno)));
        return;
    }
    struct outer o = {.fd = is_stdin ? stream_fd : -1, .head = head, .head_len = head_len};
    if (!is_stdin) {
        o.fd = open(path, O_RDONLY | O_CLOEXEC);
        if (o.fd < 0) {
            fail(c, gl_arena_printf(a, "cannot open: %s", strerror(errno)));
            return;
        }
    }
    unsigned char sniff[512];
    size_t nsniff = 0;
    bool seekable = false;
    if (!is_stdin && fstat(o.fd, &st) == 0 && S_ISREG(st.st_mode)) {
        ssize_t k = pread(o.fd, sniff, sizeof sniff, 0);
        nsniff = k > 0 ? (size_t)k : 0;
        seekable = nsniff >= 262 && !memcmp(sniff + 257, "ustar", 5);
        c->file_size = (uint64_t)st.st_size;
    }
    c->mode = seekable ? GL_CAT_SEEKABLE : GL_CAT_STREAM;
    o.buf = xmalloc(GL_SRC_BUF);
    struct archive *ar = archive_read_new();
    archive_read_support_format_tar(ar);
    int filters = 0;
    if (seekable)
        archive_read_support_filter_none(ar);
    else
        filters = gl_archive_support_image_filters(ar);
    archive_read_set_read_callback(ar, outer_fd_read);
    archive_read_set_skip_callback(ar, outer_fd_skip);
    archive_read_set_callback_data(ar, &o);
    if (filters != 0 || archive_read_open1(ar) != ARCHIVE_OK) {
        const char *msg = archive_error_string(ar);
        fail(c, gl_arena_printf(a, "entry 1 of the archive: %s", msg ? msg : "not a tar archive"));
    } else {
        size_t entry = read_archive(c, ar, seekable);
        if (o.bomb) {
            c->error = NULL;
            fail(c, gl_arena_printf(a, "entry %zu of the archive: decompression bomb: more "
                                    "than %d bytes out per compressed byte past %llu MiB, "
                                    "stopped", entry ? entry : 1, GL_GZ_BOMB_RATIO,
                                    GL_GZ_BOMB_MIN >> 20));
        }
    }
    archive_read_free(ar);
    free(o.buf);
    if (seekable)
        c->fd = o.fd;
    else if (!is_stdin)
        close(o.fd);
}

void gl_catalog_close(struct gl_catalog *c)
{
    for (size_t i = 0; i < c->n; i++)
        if (c->blobs[i]->ix)
            gl_layer_index_free(c->blobs[i]->ix);
    if (c->fd >= 0)
        close(c->fd);
    c->fd = -1;
    gl_map_free(&c->names);
}
