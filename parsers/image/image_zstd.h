/* SPDX-License-Identifier: Apache-2.0 */
/*
 * image_zstd.h: zstd decompression with libzstd's streaming API, feeding libarchive.
 *
 * gl_zstd_open() opens a libarchive reader (formats already chosen by the caller) whose
 * read callback decompresses the zstd stream of a blob reader with ZSTD_decompressStream
 * and hands libarchive the plain tar bytes, GL_ZSTD_OUT bytes at a time (several zstd
 * blocks per call, no filter layer in between). Concatenated and skippable frames are
 * followed. A truncated or corrupt stream is an archive error whose message says so and
 * where (compressed byte offset). The output is capped like gzip's (GL_GZ_BOMB_*, see
 * gz_isal.h): past GL_GZ_BOMB_MIN bytes, more than GL_GZ_BOMB_RATIO output bytes per
 * input byte is reported as a decompression bomb.
 * Memory: one output buffer of GL_ZSTD_OUT bytes plus libzstd's stream state (its window:
 * at most 2^GL_ZSTD_WINDOW_LOG_MAX bytes; larger frames are refused with a message).
 */
#ifndef GPULINT_IMAGE_ZSTD_H
#define GPULINT_IMAGE_ZSTD_H

#include <archive.h>
#include <stdbool.h>
#include <stdint.h>
#include <zstd.h>

#include "parsers/image/image_source.h"

#define GL_ZSTD_OUT (1024 * 1024)
#define GL_ZSTD_WINDOW_LOG_MAX 27 /* zstd's own default limit (--long=27) */

struct gl_zstd {
    struct gl_blob_reader *in;
    ZSTD_DStream *ds;
    ZSTD_inBuffer ib;
    unsigned char *out;
    uint64_t out_bytes;
    size_t hint;      /* last ZSTD_decompressStream result: 0 at a frame's end */
    bool at_eof;      /* the raw input is exhausted */
    bool bomb;        /* stopped at the cap */
    char error[200];  /* what went wrong ("" if nothing): libarchive may replace its own
                         error with a generic one on the way up */
};

/* Whether `p` (n bytes) begins a zstd stream: a frame's magic, or a skippable frame's
 * (0x184D2A50..5F, little-endian), which a stream may begin with (zstd -d and containerd
 * read it). */
bool gl_zstd_head(const unsigned char *p, size_t n);
/* Open `a` on the decompressed stream of `in` (archive_read_open2). ARCHIVE_OK or an
 * error (with the archive's error set). */
int gl_zstd_open(struct archive *a, struct gl_zstd *z, struct gl_blob_reader *in);
/* After libarchive reached the end of the tar stream: decompress the rest (padding, more
 * frames) so that a truncated or corrupt tail is still an error. 0, or -1 with the
 * archive's error set. */
int gl_zstd_drain(struct archive *a, struct gl_zstd *z);
/* Release the stream and the output buffer (after archive_read_free). */
void gl_zstd_free(struct gl_zstd *z);

#endif
