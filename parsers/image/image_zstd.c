/* SPDX-License-Identifier: Apache-2.0 */
/* image_zstd.c: libzstd streaming decompression behind libarchive (see image_zstd.h). */
#include "parsers/image/image_zstd.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "linter/core/util.h"
#include "parsers/image/gz_isal.h"

bool gl_zstd_head(const unsigned char *p, size_t n)
{
    if (n < 4)
        return false;
    uint32_t m = (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
    return m == ZSTD_MAGICNUMBER || (m & ZSTD_MAGIC_SKIPPABLE_MASK) == ZSTD_MAGIC_SKIPPABLE_START;
}

/* Set the archive's error and keep a copy for gl_layer_index_build. */
static void fail(struct archive *a, struct gl_zstd *z, int err, const char *msg)
{
    snprintf(z->error, sizeof z->error, "%s", msg);
    archive_set_error(a, err, "%s", msg);
}

/* Refill the input when it is used up: 1 input available, 0 at the raw end, -1 on a
 * read error (with the archive's error set). */
static int refill(struct archive *a, struct gl_zstd *z)
{
    if (z->ib.pos < z->ib.size)
        return 1;
    if (z->at_eof)
        return 0;
    const void *b;
    ssize_t n = gl_blob_reader_read(z->in, &b);
    if (n < 0) {
        fail(a, z, EIO, "cannot read the compressed layer");
        return -1;
    }
    if (n == 0) {
        z->at_eof = true;
        return 0;
    }
    z->ib = (ZSTD_inBuffer){.src = b, .size = (size_t)n, .pos = 0};
    return 1;
}

static la_ssize_t zstd_read(struct archive *a, void *ctx, const void **buf)
{
    struct gl_zstd *z = ctx;
    ZSTD_outBuffer ob = {.dst = z->out, .size = GL_ZSTD_OUT, .pos = 0};
    for (;;) {
        int have_input = refill(a, z);
        if (have_input < 0)
            return -1;
        size_t before = ob.pos, in_before = z->ib.pos;
        size_t rc = ZSTD_decompressStream(z->ds, &ob, &z->ib);
        if (ZSTD_isError(rc)) {
            char msg[200];
            snprintf(msg, sizeof msg, "corrupt zstd stream (%s) near compressed byte %ju",
                     ZSTD_getErrorName(rc),
                     (uintmax_t)(z->in->consumed - (z->ib.size - z->ib.pos)));
            fail(a, z, EINVAL, msg);
            return -1;
        }
        if (ob.pos != before || z->ib.pos != in_before)
            z->hint = rc; /* an idle call between frames asks for the next header */
        z->out_bytes += ob.pos - before;
        if (z->out_bytes > GL_GZ_BOMB_MIN && z->out_bytes / GL_GZ_BOMB_RATIO > z->in->consumed) {
            z->bomb = true;
            char msg[200];
            snprintf(msg, sizeof msg, "decompression bomb: %ju bytes from %ju compressed, "
                     "stopped", (uintmax_t)z->out_bytes, (uintmax_t)z->in->consumed);
            fail(a, z, EFBIG, msg);
            return -1;
        }
        if (ob.pos == ob.size)
            break; /* full: libzstd may hold more, the next call flushes it */
        if (!have_input && ob.pos == before) {
            /* the raw end, and nothing more came out */
            if (z->hint != 0 && z->in->consumed > 0) {
                char msg[200];
                snprintf(msg, sizeof msg, "truncated zstd stream: it ends at compressed byte "
                         "%ju, inside a frame", (uintmax_t)z->in->consumed);
                fail(a, z, EINVAL, msg);
                return -1;
            }
            break;
        }
        if (ob.pos > 0 && z->ib.pos == z->ib.size)
            break; /* hand over what there is before blocking on the next read */
    }
    *buf = z->out;
    return (la_ssize_t)ob.pos;
}

int gl_zstd_open(struct archive *a, struct gl_zstd *z, struct gl_blob_reader *in)
{
    memset(z, 0, sizeof *z);
    z->in = in;
    z->ds = ZSTD_createDStream();
    z->out = xmalloc(GL_ZSTD_OUT);
    if (!z->ds) {
        fail(a, z, ENOMEM, "cannot create a zstd stream");
        return ARCHIVE_FATAL;
    }
    ZSTD_DCtx_setParameter(z->ds, ZSTD_d_windowLogMax, GL_ZSTD_WINDOW_LOG_MAX);
    return archive_read_open2(a, z, NULL, zstd_read, NULL, NULL);
}

int gl_zstd_drain(struct archive *a, struct gl_zstd *z)
{
    const void *buf;
    la_ssize_t n;
    while ((n = zstd_read(a, z, &buf)) > 0)
        ;
    return n < 0 ? -1 : 0;
}

void gl_zstd_free(struct gl_zstd *z)
{
    ZSTD_freeDStream(z->ds);
    z->ds = NULL;
    free(z->out);
    z->out = NULL;
}
