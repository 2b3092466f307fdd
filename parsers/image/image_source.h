/* SPDX-License-Identifier: Apache-2.0 */
/*
 * image_source.h: byte streams of image blobs (layers, configs), and a reader over them
 * that counts, hashes and peeks.
 *
 *  - gl_byte_src: any stream of raw blob bytes. `read` hands out the next run (valid
 *    until the next call): its length, 0 at the end, -1 on error. `skip` (may be NULL)
 *    moves forward without reading, for sources that can seek.
 *  - gl_fd_region_src: bytes [off, off+size) of an open file, read with pread (so many
 *    threads can read regions of one file through their own sources), skippable.
 *    Whole blobs read with their hash beside them: image_side_hash.h.
 *  - gl_blob_reader: wraps a source; computes the sha256 of every byte that passes (a
 *    source with a `hash` callback hashes for it; one that can skip is not hashed: a
 *    skipping reader has no digest, and hashing what it reads would be wasted), counts them, and lets the caller peek at the first
 *    bytes (to sniff the compression) without losing them.
 * Memory: a region source holds one buffer of `chunk` bytes; nothing else is kept.
 */
#ifndef GPULINT_IMAGE_SOURCE_H
#define GPULINT_IMAGE_SOURCE_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "parsers/image/image_sha256.h"

#define GL_SRC_BUF (256 * 1024)
/* A plain layer is read header by header, seeking past file data: a read much larger
 * than a run of small files copies bytes that are skipped anyway. */
#define GL_REGION_READ (64 * 1024)
/* A blob read whole (compressed, or hashed) is read in runs of this size. */
#define GL_WHOLE_READ (1024 * 1024)

struct gl_byte_src {
    void *ctx;
    ssize_t (*read)(void *ctx, const void **buf);
    int64_t (*skip)(void *ctx, int64_t n); /* bytes skipped, or -1; NULL: cannot skip */
    /* NULL, or: the source hashes its bytes itself (image_side_hash.h); the sha256 state
     * of the whole blob once `read` returned 0, else NULL */
    const struct gl_sha256 *(*hash)(void *ctx);
};

struct gl_fd_region {
    int fd;
    uint64_t off, size, pos;
    size_t chunk; /* bytes per read: GL_REGION_READ unless set before the first read */
    char *buf;
};

/* A source over [off, off+size) of fd (not owned). Free with gl_fd_region_free. */
struct gl_byte_src gl_fd_region_src(struct gl_fd_region *r, int fd, uint64_t off,
                                    uint64_t size);
void gl_fd_region_free(struct gl_fd_region *r);

struct gl_blob_reader {
    struct gl_byte_src src;
    struct gl_sha256 hash;
    bool skipped;          /* some bytes were skipped: the hash is not the blob's */
    bool failed;           /* the source reported an error */
    bool bomb;             /* the decompressor stopped at the output cap */
    bool no_hash;          /* set before the first read: nothing is hashed, no digest */
    uint64_t consumed;     /* raw bytes read or skipped */
    const unsigned char *pending; size_t npending; /* peeked, not yet handed out */
};

void gl_blob_reader_init(struct gl_blob_reader *r, struct gl_byte_src src);
/* Up to `want` first bytes without consuming them (fewer at the end of a short blob). */
size_t gl_blob_reader_peek(struct gl_blob_reader *r, const unsigned char **p, size_t want);
ssize_t gl_blob_reader_read(struct gl_blob_reader *r, const void **buf);
int64_t gl_blob_reader_skip(struct gl_blob_reader *r, int64_t n); /* 0 when it cannot */
/* Read the rest (hashing it); -1 on a source error. */
int gl_blob_reader_drain(struct gl_blob_reader *r);
/* "sha256:<hex>" of everything read, in out[72]; false for a source that can skip or a
 * reader told not to hash. */
bool gl_blob_reader_digest(struct gl_blob_reader *r, char out[72]);

#endif
