/* SPDX-License-Identifier: Apache-2.0 */
/*
 * gz_isal.h: gzip inflation with Intel ISA-L, feeding libarchive.
 *
 * gl_gz_isal_open() opens a libarchive reader (formats already chosen by the caller)
 * whose read callback inflates the gzip stream of a blob reader with isal_inflate and
 * hands libarchive the plain tar bytes. Multi-member gzip streams are followed. A
 * truncated or corrupt stream is an archive error whose message says so. The output is
 * also capped (GL_GZ_BOMB_*): past GL_GZ_BOMB_MIN bytes, more than GL_GZ_BOMB_RATIO
 * output bytes per input byte is reported as a decompression bomb.
 * Memory: one output buffer of GL_GZ_OUT bytes plus ISA-L's state.
 */
#ifndef GPULINT_GZ_ISAL_H
#define GPULINT_GZ_ISAL_H

#include <archive.h>
#include <isa-l/igzip_lib.h>

#include "parsers/image/image_source.h"

#define GL_GZ_OUT (256 * 1024)
#define GL_GZ_BOMB_MIN (512ull << 20)
#define GL_GZ_BOMB_RATIO 500

struct gl_gz_isal {
    struct gl_blob_reader *in;
    struct inflate_state st;
    unsigned char *out;
    uint64_t out_bytes;
    bool at_eof;  /* the raw input is exhausted */
    bool bomb;    /* stopped at the cap */
};

/* Open `a` on the inflated stream of `in` (archive_read_open2). ARCHIVE_OK or an error. */
int gl_gz_isal_open(struct archive *a, struct gl_gz_isal *z, struct gl_blob_reader *in);
/* After libarchive reached the end of the tar stream: inflate the rest (padding, more
 * members, the trailer) so that a truncated or corrupt tail is still an error.
 * 0, or -1 with the archive's error set. */
int gl_gz_isal_drain(struct archive *a, struct gl_gz_isal *z);
/* Release the output buffer (after archive_read_free). */
void gl_gz_isal_free(struct gl_gz_isal *z);

#endif
