/* SPDX-License-Identifier: Apache-2.0 */
/*
 * image_side_hash.h: a blob byte source read whole, whose sha256 a second thread
 * computes by reading the same bytes of the file on its own.
 *
 * gl_side_hash_start() opens bytes [off, off+size) of fd for the caller (the
 * decompressor), which reads them through gl_side_hash_src() in runs of
 * GL_WHOLE_READ bytes, and starts a thread that preads and hashes the same region
 * into a buffer of its own. The decoder never waits for the hasher before the end (for
 * the digest): the decoder's speed per compressed byte swings with the data (fast
 * through incompressible files, slow through highly compressed ones, in runs of hundreds
 * of MB) while hashing runs at a constant rate, so a ring shared by a hashing reader and
 * the decoder stalls one or the other most of the time (measured in BENCHMARKS.md). The
 * hasher only waits when it is GL_SIDE_HASH_LEAD bytes ahead of the decoder, so on a cold
 * page cache it is the read-ahead whose pages the decoder's reads then find in memory,
 * and each byte comes from the disk once.
 *
 * The source cannot skip. Its `hash` callback waits for the hasher and gives the sha256
 * state of the whole region once `read` returned 0 (NULL before that, or when either
 * side hit a read error), so gl_blob_reader does not hash again.
 * gl_side_hash_start() returns false (and starts nothing) when no thread can be made: the
 * caller then reads with gl_fd_region_src and the blob reader hashes inline.
 * gl_side_hash_stop() stops the thread (also midway) and frees the buffers.
 * Memory: two buffers of GL_WHOLE_READ bytes while running.
 */
#ifndef GPULINT_IMAGE_SIDE_HASH_H
#define GPULINT_IMAGE_SIDE_HASH_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include "parsers/image/image_source.h"

#define GL_SIDE_HASH_LEAD (64 * 1024 * 1024)

struct gl_side_hash {
    struct gl_fd_region region; /* the decoder's reads */
    struct gl_byte_src region_src;
    bool at_end, read_failed;   /* the decoder's read returned 0 / -1 */
    pthread_t thread;
    bool started, joined;
    pthread_mutex_t lock;
    pthread_cond_t moved_cv;    /* the decoder moved on, or stop was asked */
    uint64_t decoded;           /* bytes the decoder has read (under lock) */
    bool stop, hasher_waits;    /* (under lock) */
    bool hash_failed;           /* the hasher's read failed (valid once joined) */
    struct gl_sha256 hash;      /* the hasher's (valid once joined) */
};

bool gl_side_hash_start(struct gl_side_hash *s, int fd, uint64_t off, uint64_t size);
struct gl_byte_src gl_side_hash_src(struct gl_side_hash *s);
void gl_side_hash_stop(struct gl_side_hash *s);

#endif
