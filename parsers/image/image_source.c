/* SPDX-License-Identifier: Apache-2.0 */
/* image_source.c: blob byte streams (see image_source.h). */
#include "parsers/image/image_source.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "linter/core/util.h"

static ssize_t region_read(void *ctx, const void **buf)
{
    struct gl_fd_region *r = ctx;
    if (r->pos >= r->size)
        return 0;
    if (!r->buf)
        r->buf = xmalloc(r->chunk);
    size_t want = r->size - r->pos < r->chunk ? (size_t)(r->size - r->pos) : r->chunk;
    ssize_t n;
    do
        n = pread(r->fd, r->buf, want, (off_t)(r->off + r->pos));
    while (n < 0 && errno == EINTR);
    if (n <= 0)
        return -1; /* an error, or the file is shorter than the archive said */
    r->pos += (uint64_t)n;
    *buf = r->buf;
    return n;
}

static int64_t region_skip(void *ctx, int64_t n)
{
    struct gl_fd_region *r = ctx;
    if (n <= 0)
        return 0;
    uint64_t left = r->size - r->pos;
    if ((uint64_t)n > left)
        n = (int64_t)left;
    r->pos += (uint64_t)n;
    return n;
}

struct gl_byte_src gl_fd_region_src(struct gl_fd_region *r, int fd, uint64_t off,
                                    uint64_t size)
{
    memset(r, 0, sizeof *r);
    r->fd = fd;
    r->off = off;
    r->size = size;
    r->chunk = GL_REGION_READ;
    return (struct gl_byte_src){.ctx = r, .read = region_read, .skip = region_skip};
}

void gl_fd_region_free(struct gl_fd_region *r)
{
    free(r->buf);
    r->buf = NULL;
}

void gl_blob_reader_init(struct gl_blob_reader *r, struct gl_byte_src src)
{
    memset(r, 0, sizeof *r);
    r->src = src;
    gl_sha256_init(&r->hash);
}

size_t gl_blob_reader_peek(struct gl_blob_reader *r, const unsigned char **p, size_t want)
{
    if (!r->npending && !r->failed) {
        const void *b;
        ssize_t n = r->src.read(r->src.ctx, &b);
        if (n < 0)
            r->failed = true;
        if (n > 0) {
            r->pending = b;
            r->npending = (size_t)n;
        }
    }
    *p = r->pending;
    return r->npending < want ? r->npending : want;
}

ssize_t gl_blob_reader_read(struct gl_blob_reader *r, const void **buf)
{
    ssize_t n;
    if (r->npending) {
        *buf = r->pending;
        n = (ssize_t)r->npending;
        r->npending = 0;
    } else {
        if (r->failed)
            return -1;
        n = r->src.read(r->src.ctx, buf);
        if (n < 0) {
            r->failed = true;
            return -1;
        }
    }
    if (n > 0) {
        if (!r->src.hash && !r->src.skip && !r->no_hash)
            gl_sha256_update(&r->hash, *buf, (size_t)n);
        r->consumed += (uint64_t)n;
    }
    return n;
}

int64_t gl_blob_reader_skip(struct gl_blob_reader *r, int64_t n)
{
    if (!r->src.skip || r->npending || n <= 0)
        return 0;
    int64_t k = r->src.skip(r->src.ctx, n);
    if (k > 0) {
        r->skipped = true;
        r->consumed += (uint64_t)k;
    }
    return k < 0 ? 0 : k;
}

int gl_blob_reader_drain(struct gl_blob_reader *r)
{
    const void *b;
    ssize_t n;
    while ((n = gl_blob_reader_read(r, &b)) > 0)
        ;
    return n < 0 ? -1 : 0;
}

bool gl_blob_reader_digest(struct gl_blob_reader *r, char out[72])
{
    if (r->skipped || r->src.skip || r->no_hash)
        return false;
    unsigned char d[32];
    char hex[65];
    const struct gl_sha256 *whole = r->src.hash ? r->src.hash(r->src.ctx) : &r->hash;
    if (!whole)
        return false;
    struct gl_sha256 copy = *whole;
    gl_sha256_final(&copy, d);
    gl_sha256_hex(d, hex);
    snprintf(out, 72, "sha256:%s", hex);
    return true;
}
