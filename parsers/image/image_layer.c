/* SPDX-License-Identifier: Apache-2.0 */
/* image_layer.c: stream a layer into its file index (see image_layer.h). */
#include "parsers/image/image_layer.h"

#include <archive.h>
#include <archive_entry.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "linter/core/limits.h"
#include "parsers/image/image_budget.h"
#include "parsers/image/image_fatbin.h"
#include "parsers/image/gz_isal.h"
#include "parsers/image/image_filters.h"
#include "parsers/image/image_manifest.h"
#include "parsers/image/image_zstd.h"

enum layer_comp { COMP_UNKNOWN, COMP_NONE, COMP_GZIP, COMP_ZSTD };

void gl_layer_index_init(struct gl_layer_index *ix)
{
    memset(ix, 0, sizeof *ix);
    gl_arena_init(&ix->arena);
}

void gl_layer_index_free(struct gl_layer_index *ix)
{
    gl_image_budget_release(&ix->charged);
    if (ix->entries_on_heap)
        free(ix->entries);
    gl_arena_free(&ix->arena);
    memset(ix, 0, sizeof *ix);
}

char *gl_image_path_normalize(struct gl_arena *a, const char *raw)
{
    size_t n = strlen(raw);
    char *out = gl_arena_alloc(a, n + 1);
    size_t len = 0;
    const char *p = raw;
    while (*p) {
        while (*p == '/')
            p++;
        const char *s = p;
        while (*p && *p != '/')
            p++;
        size_t k = (size_t)(p - s);
        if (k == 0 || (k == 1 && s[0] == '.'))
            continue;
        if (k == 2 && s[0] == '.' && s[1] == '.') {
            while (len > 0 && out[len - 1] != '/')
                len--;              /* drop the last component ... */
            if (len > 0)
                len--;              /* ... and its slash; at the root it stays the root */
            continue;
        }
        if (len)
            out[len++] = '/';
        memcpy(out + len, s, k);
        len += k;
    }
    out[len] = 0;
    return out;
}

/* The distribution name of a "<name>-<version>.dist-info" directory starts with prefix
 * (case-insensitive; '-' and '_' alike). */
static bool dist_info_of(const char *dir, size_t len, const char *prefix)
{
    size_t k = strlen(prefix);
    if (len < k)
        return false;
    for (size_t i = 0; i < k; i++) {
        char c = dir[i] >= 'A' && dir[i] <= 'Z' ? (char)(dir[i] + 32) : dir[i];
        if (c == '-')
            c = '_';
        if (c != prefix[i])
            return false;
    }
    return true;
}

bool gl_image_wants_content(const char *path)
{
    const char *base = gl_base_name(path);
    if (!strcmp(path, "etc/os-release") || !strcmp(path, "usr/lib/os-release"))
        return true;
    if (!strcmp(base, "version.py"))
        return gl_has_suffix(path, "/torch/version.py") || !strcmp(path, "torch/version.py");
    if (!strcmp(base, "version.json") || !strcmp(base, "version.txt")) {
        /* usr/local/cuda*<one component>/version.* */
        if (!gl_has_prefix(path, "usr/local/cuda"))
            return false;
        const char *slash = strchr(path + strlen("usr/local/"), '/');
        return slash && slash + 1 == base;
    }
    if (!strcmp(base, "METADATA") && base - path > 1) {
        const char *end = base - 1; /* the '/' before METADATA */
        const char *dir = end;
        while (dir > path && dir[-1] != '/')
            dir--;
        size_t len = (size_t)(end - dir);
        if (len < 10 || memcmp(end - 10, ".dist-info", 10))
            return false;
        static const char *const cuda_dists[] = {
            "nvidia_", "torch_", "cupy_cuda", "tensorrt_cu",
            "jax_cuda", "onnxruntime_gpu_", "paddlepaddle_gpu_"};
        for (size_t i = 0; i < sizeof cuda_dists / sizeof cuda_dists[0]; i++)
            if (dist_info_of(dir, len, cuda_dists[i]))
                return true;
        return false;
    }
    return false;
}

static enum layer_comp comp_of_media_type(const char *mt)
{
    if (!mt)
        return COMP_UNKNOWN;
    if (strstr(mt, "gzip"))
        return COMP_GZIP;
    if (strstr(mt, "zstd"))
        return COMP_ZSTD;
    if (gl_has_suffix(mt, ".tar") || gl_has_suffix(mt, "diff.tar"))
        return COMP_NONE;
    return COMP_UNKNOWN;
}

static enum layer_comp comp_of_magic(const unsigned char *p, size_t n)
{
    if (n >= 2 && p[0] == 0x1f && p[1] == 0x8b)
        return COMP_GZIP;
    if (gl_zstd_head(p, n))
        return COMP_ZSTD;
    if (n >= 262 && !memcmp(p + 257, "ustar", 5))
        return COMP_NONE;
    return COMP_UNKNOWN;
}

static la_ssize_t raw_read(struct archive *a, void *ctx, const void **buf)
{
    struct gl_blob_reader *r = ctx;
    ssize_t n = gl_blob_reader_read(r, buf);
    if (n < 0)
        archive_set_error(a, EIO, "cannot read the layer (truncated archive?)");
    /* a bomb through libarchive's own filters: compare what it produced with what we fed */
    la_int64_t out = archive_filter_bytes(a, 0);
    if (out > (la_int64_t)GL_GZ_BOMB_MIN && (uint64_t)out / GL_GZ_BOMB_RATIO > r->consumed) {
        r->bomb = true;
        archive_set_error(a, EFBIG, "decompression bomb: %jd bytes from %ju compressed, "
                          "stopped", (intmax_t)out, (uintmax_t)r->consumed);
        return -1;
    }
    return n;
}

static la_int64_t raw_skip(struct archive *a, void *ctx, la_int64_t n)
{
    (void)a;
    return gl_blob_reader_skip(ctx, n);
}

static enum gl_file_type type_of(struct archive_entry *e)
{
    if (archive_entry_hardlink(e))
        return GL_FILE_HARDLINK;
    switch (archive_entry_filetype(e)) {
    case AE_IFREG: return GL_FILE_REG;
    case AE_IFDIR: return GL_FILE_DIR;
    case AE_IFLNK: return GL_FILE_SYMLINK;
    default: return GL_FILE_OTHER;
    }
}

static void set_error(struct gl_layer_index *ix, size_t entry, const char *path,
                      const char *what)
{
    if (path)
        ix->error = gl_arena_printf(&ix->arena, "entry %zu (`%s`): %s", entry,
                                    gl_image_quote(&ix->arena, path), what);
    else
        ix->error = gl_arena_printf(&ix->arena, "entry %zu: %s", entry, what);
}

static void set_limit_error(struct gl_layer_index *ix, size_t entry, const char *path,
                            const char *what, enum gl_limit_id id)
{
    set_error(ix, entry, path, gl_arena_printf(&ix->arena, "%s: %s", what,
                                               gl_image_limit_text(&ix->arena, id)));
}

bool gl_layer_index_charge(struct gl_layer_index *ix)
{
    size_t bytes = ix->arena.total + ix->cap * sizeof *ix->entries;
    if (gl_image_budget_charge(&ix->charged, bytes))
        return true;
    if (!ix->error)
        ix->error = gl_arena_printf(&ix->arena, "entry %zu: %s", ix->n + 1,
                                    gl_image_limit_text(&ix->arena, GL_LIMIT_IMAGE_MEMORY));
    return false;
}

/* Can this entry be recorded within the limits? (else ix->error says which) */
static bool entry_fits(struct gl_layer_index *ix, struct archive_entry *e, size_t entry,
                       const char *name)
{
    uint64_t max = gl_limit(GL_LIMIT_NAME_LENGTH);
    const char *hard = archive_entry_hardlink(e), *sym = archive_entry_symlink(e);
    const char *link = hard ? hard : sym;
    if (ix->n >= gl_limit(GL_LIMIT_LAYER_ENTRIES))
        set_limit_error(ix, entry, NULL, "one entry too many, stopped", GL_LIMIT_LAYER_ENTRIES);
    else if (ix->n % 256 == 0)
        gl_layer_index_charge(ix); /* the image budget: an error names image-memory */
    else if (strlen(name) > max)
        set_limit_error(ix, entry, name, gl_arena_printf(&ix->arena, "a name of %zu bytes",
                                                         strlen(name)), GL_LIMIT_NAME_LENGTH);
    else if (link && strlen(link) > max)
        set_limit_error(ix, entry, name, gl_arena_printf(&ix->arena, "a link target of %zu "
                                                         "bytes", strlen(link)),
                        GL_LIMIT_NAME_LENGTH);
    return !ix->error;
}

/* Add x to the index's entries (an index being built keeps them on the heap). */
static void append(struct gl_layer_index *ix, const struct gl_layer_entry *x)
{
    if (ix->n == ix->cap) {
        if (!ix->entries_on_heap && ix->n) { /* (an index of arena entries: not built here) */
            *GL_APPEND(&ix->arena, ix->entries, ix->n, ix->cap) = *x;
            return;
        }
        ix->cap = ix->cap ? ix->cap * 2 : 256;
        ix->entries = xrealloc(ix->entries, ix->cap * sizeof *ix->entries);
        ix->entries_on_heap = true;
    }
    ix->entries[ix->n++] = *x;
}

/* Stream a file through the fat-binary scanner (image_fatbin.h), up to where it wants no
 * more bytes; a read error ends the scan (the caller reports it at the next header). */
static const struct gl_fatbin_facts *read_fatbin(struct archive *a, struct gl_arena *arena,
                                                 uint64_t size)
{
    enum { CHUNK = 64 * 1024 };
    unsigned char *buf = xmalloc(CHUNK);
    struct gl_fatbin_file *s = gl_fatbin_file_new(size); /* ELF, or a static library */
    for (;;) {
        la_ssize_t got = archive_read_data(a, buf, CHUNK);
        if (got <= 0 || !gl_fatbin_file_feed(s, buf, (size_t)got))
            break;
    }
    const struct gl_fatbin_facts *f = gl_fatbin_file_end(s, arena);
    gl_fatbin_file_free(s);
    free(buf);
    return f;
}

/* Record one tar entry; whiteouts become deletions of the path they name. */
static void add_entry(struct gl_layer_index *ix, struct archive *a, struct archive_entry *e,
                      const char *raw_path, bool *read_data)
{
    char *path = gl_image_path_normalize(&ix->arena, raw_path);
    *read_data = false;
    if (!*path)
        return; /* the root itself */
    struct gl_layer_entry x = {.path = path, .type = (uint8_t)type_of(e)};
    const char *base = gl_base_name(path);
    if (gl_has_prefix(base, ".wh.")) {
        size_t dirlen = (size_t)(base - path);
        if (!strcmp(base, ".wh..wh..opq")) {
            x.whiteout = GL_WH_OPAQUE;
            x.path = dirlen ? gl_arena_strndup(&ix->arena, path, dirlen - 1) : "";
        } else {
            const char *name = base + 4;
            if (!*name || !strcmp(name, ".") || !strcmp(name, ".."))
                return;
            x.whiteout = GL_WH_FILE;
            x.path = gl_arena_printf(&ix->arena, "%.*s%s", (int)dirlen, path, name);
        }
        x.type = GL_FILE_OTHER;
    } else {
        int64_t size = archive_entry_size(e);
        x.size = size > 0 ? (uint64_t)size : 0;
        if (x.type == GL_FILE_SYMLINK) {
            const char *t = archive_entry_symlink(e);
            x.link = gl_arena_strdup(&ix->arena, t ? t : "");
        } else if (x.type == GL_FILE_HARDLINK) {
            x.link = gl_image_path_normalize(&ix->arena, archive_entry_hardlink(e));
        } else if (x.type == GL_FILE_REG && gl_image_wants_content(path) &&
                   (x.size <= gl_limit(GL_LIMIT_CAPTURE_SIZE) || !strcmp(base, "METADATA"))) {
            /* a wheel's METADATA: its headers come first, so a large one (a long
               description) is read up to the capture limit */
            size_t want = x.size <= gl_limit(GL_LIMIT_CAPTURE_SIZE)
                              ? (size_t)x.size
                              : (size_t)gl_limit(GL_LIMIT_CAPTURE_SIZE);
            char *buf = gl_arena_alloc(&ix->arena, want + 1);
            la_ssize_t got = archive_read_data(a, buf, want);
            if (got >= 0) {
                buf[got] = 0;
                x.content = buf;
                x.content_len = (uint32_t)got;
            }
            *read_data = true;
        } else if (x.type == GL_FILE_REG && ix->fatbin_files < GL_FATBIN_MAX_FILES &&
                   gl_fatbin_candidate(path, (unsigned)archive_entry_perm(e), x.size)) {
            ix->fatbin_files++;
            x.fatbin = read_fatbin(a, &ix->arena, x.size);
            *read_data = true;
        }
    }
    append(ix, &x);
}

/* 0, or -1 with the archive's error set */
static int set_formats(struct archive *a, enum layer_comp comp)
{
    archive_read_support_format_tar(a);
    archive_read_support_format_empty(a);
    if (comp == COMP_UNKNOWN)
        return gl_archive_support_image_filters(a);
    archive_read_support_filter_none(a);
    return 0;
}

int gl_layer_index_build(struct gl_layer_index *ix, struct gl_blob_reader *in,
                         const char *media_type)
{
    const unsigned char *head;
    size_t nhead = gl_blob_reader_peek(in, &head, 512);
    enum layer_comp comp = comp_of_media_type(media_type);
    enum layer_comp magic = comp_of_magic(head, nhead);
    if (magic != COMP_UNKNOWN && magic != comp)
        comp = magic; /* the bytes win over a wrong or missing media type */
    if (nhead == 0) {
        if (in->failed)
            set_error(ix, 0, NULL, "cannot read the layer");
        else
            gl_blob_reader_digest(in, ix->digest); /* an empty layer: no files */
        return ix->error ? -1 : 0;
    }

    struct archive *a = archive_read_new();
    struct gl_gz_isal gz;
    struct gl_zstd zs;
    bool use_isal = comp == COMP_GZIP, use_zstd = comp == COMP_ZSTD;
    int rc;
    if (set_formats(a, use_isal || use_zstd ? COMP_NONE : comp) != 0) {
        rc = ARCHIVE_FATAL;
    } else if (use_isal) {
        rc = gl_gz_isal_open(a, &gz, in);
    } else if (use_zstd) {
        rc = gl_zstd_open(a, &zs, in);
    } else {
        archive_read_set_read_callback(a, raw_read);
        if (comp == COMP_NONE)
            archive_read_set_skip_callback(a, raw_skip);
        archive_read_set_callback_data(a, in);
        rc = archive_read_open1(a);
    }
    size_t entry = 0;
    char cur[1024] = ""; /* the current entry's name, for messages (libarchive's copy
                            does not outlive a failed next_header) */
    if (rc != ARCHIVE_OK) {
        set_error(ix, 0, NULL, archive_error_string(a) ? archive_error_string(a)
                                                        : "not a tar stream");
    } else {
        struct archive_entry *e;
        while ((rc = archive_read_next_header(a, &e)) == ARCHIVE_OK || rc == ARCHIVE_WARN) {
            entry++;
            const char *name = archive_entry_pathname(e);
            snprintf(cur, sizeof cur, "%s", name ? name : "");
            if (!entry_fits(ix, e, entry, name ? name : ""))
                break;
            bool read_data;
            add_entry(ix, a, e, name ? name : "", &read_data);
            if (archive_read_data_skip(a) != ARCHIVE_OK) {
                rc = ARCHIVE_FATAL;
                break;
            }
        }
        if (rc != ARCHIVE_EOF && !ix->error) {
            const char *msg = archive_error_string(a);
            if (use_zstd && zs.error[0])
                msg = zs.error;
            if ((use_isal && gz.bomb) || (use_zstd && zs.bomb) || in->bomb)
                msg = gl_arena_printf(&ix->arena, "decompression bomb: more than %d bytes out "
                                      "per compressed byte past %llu MiB, stopped",
                                      GL_GZ_BOMB_RATIO, GL_GZ_BOMB_MIN >> 20);
            char *p = entry ? gl_image_path_normalize(&ix->arena, cur) : NULL;
            set_error(ix, entry ? entry : 1, p, msg ? msg : "corrupt tar stream");
        }
    }
    if (!ix->error && use_isal && gl_gz_isal_drain(a, &gz) != 0)
        set_error(ix, entry + 1, NULL, archive_error_string(a) ? archive_error_string(a)
                                                               : "corrupt gzip stream");
    if (!ix->error && use_zstd && gl_zstd_drain(a, &zs) != 0)
        set_error(ix, entry + 1, NULL, archive_error_string(a) ? archive_error_string(a)
                                                               : "corrupt zstd stream");
    if (!ix->error && gl_blob_reader_drain(in) == 0)
        gl_blob_reader_digest(in, ix->digest);
    archive_read_free(a);
    if (use_isal)
        gl_gz_isal_free(&gz);
    if (use_zstd)
        gl_zstd_free(&zs);
    if (!ix->error)
        gl_layer_index_charge(ix); /* its final size (over the image budget: an error) */
    return ix->error ? -1 : 0;
}
