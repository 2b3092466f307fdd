/* SPDX-License-Identifier: Apache-2.0 */
/* gz_isal.c: ISA-L inflate behind libarchive's read callbacks (see gz_isal.h). */
#include "parsers/image/gz_isal.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "linter/core/util.h"

static void start_member(struct gl_gz_isal *z)
{
    const uint8_t *next_in = z->st.next_in;
    uint32_t avail_in = z->st.avail_in;
    isal_inflate_init(&z->st);
    z->st.crc_flag = ISAL_GZIP;
    z->st.next_in = (uint8_t *)next_in;
    z->st.avail_in = avail_in;
}

/* Refill the input when it is used up: 1 input available, 0 at the raw end, -1 on a
 * read error (with the archive's error set). */
static int refill(struct archive *a, struct gl_gz_isal *z)
{
    if (z->st.avail_in)
        return 1;
    if (z->at_eof)
        return 0;
    const void *b;
    ssize_t n = gl_blob_reader_read(z->in, &b);
    if (n < 0) {
        archive_set_error(a, EIO, "cannot read the compressed layer");
        return -1;
    }
    if (n == 0) {
        z->at_eof = true;
        return 0;
    }
    z->st.next_in = (uint8_t *)b;
    z->st.avail_in = (uint32_t)n;
    return 1;
}

static la_ssize_t inflate_read(struct archive *a, void *ctx, const void **buf)
{
    struct gl_gz_isal *z = ctx;
    for (;;) {
        if (z->st.block_state == ISAL_BLOCK_FINISH) {
            /* end of a member: another one may follow (gzip allows concatenation) */
            int more = refill(a, z);
            if (more <= 0)
                return more;
            start_member(z);
        }
        int have_input = refill(a, z);
        if (have_input < 0)
            return -1;
        z->st.next_out = z->out;
        z->st.avail_out = GL_GZ_OUT;
        int rc = isal_inflate(&z->st);
        if (rc < 0) {
            archive_set_error(a, EINVAL, "corrupt gzip stream (ISA-L error %d) at compressed "
                              "byte %ju", rc, (uintmax_t)z->in->consumed);
            return -1;
        }
        size_t produced = GL_GZ_OUT - z->st.avail_out;
        if (produced) {
            z->out_bytes += produced;
            if (z->out_bytes > GL_GZ_BOMB_MIN &&
                z->out_bytes / GL_GZ_BOMB_RATIO > z->in->consumed) {
                z->bomb = true;
                archive_set_error(a, EFBIG, "decompression bomb: %ju bytes from %ju "
                                  "compressed, stopped", (uintmax_t)z->out_bytes,
                                  (uintmax_t)z->in->consumed);
                return -1;
            }
            *buf = z->out;
            return (la_ssize_t)produced;
        }
        if (!have_input && z->st.block_state != ISAL_BLOCK_FINISH) {
            if (z->in->consumed == 0)
                return 0; /* an empty blob */
            archive_set_error(a, EINVAL, "truncated gzip stream: it ends at compressed byte "
                              "%ju, inside a deflate block", (uintmax_t)z->in->consumed);
            return -1;
        }
    }
}

int gl_gz_isal_open(struct archive *a, struct gl_gz_isal *z, struct gl_blob_reader *in)
{
    memset(z, 0, sizeof *z);
    z->in = in;
    z->out = xmalloc(GL_GZ_OUT);
    isal_inflate_init(&z->st);
    z->st.crc_flag = ISAL_GZIP;
    return archive_read_open2(a, z, NULL, inflate_read, NULL, NULL);
}

int gl_gz_isal_drain(struct archive *a, struct gl_gz_isal *z)
{
    const void *buf;
    la_ssize_t n;
    while ((n = inflate_read(a, z, &buf)) > 0)
        ;
    return n < 0 ? -1 : 0;
}

void gl_gz_isal_free(struct gl_gz_isal *z)
{
    free(z->out);
    z->out = NULL;
}
