/*
 * image_prefetch.h: a blob byte source that reads ahead and hashes in a second thread.
 *
 * gl_prefetch_start() starts a thread that preads bytes [off, off+size) of fd into a
 * ring of GL_PREFETCH_SLOTS buffers of GL_PREFETCH_SLOT bytes and feeds each to sha256
 * before handing it over; the caller's thread (the decompressor) takes them through the
 * gl_byte_src from gl_prefetch_src(). Reading, hashing and decompressing so overlap on
 * two cores. The source cannot skip (it is for blobs read whole). Its `hash` callback
 * gives the sha256 state of the whole region once `read` returned 0 (NULL before, or
 * after a read error), so gl_blob_reader does not hash again.
 * gl_prefetch_start() returns false (and starts nothing) when no thread can be made: the
 * caller then reads with gl_fd_region_src. gl_prefetch_stop() stops the thread (also
 * midway) and frees the buffers.
 * Memory: GL_PREFETCH_SLOTS * GL_PREFETCH_SLOT bytes while running.
 */
#ifndef GPULINT_IMAGE_PREFETCH_H
#define GPULINT_IMAGE_PREFETCH_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include "parsers/image_source.h"

#define GL_PREFETCH_SLOTS 4
#define GL_PREFETCH_SLOT (1024 * 1024)

struct gl_prefetch {
    int fd;
    uint64_t off, size;
    pthread_t thread;
    pthread_mutex_t lock;
    pthread_cond_t filled_cv, freed_cv;
    unsigned char *buf[GL_PREFETCH_SLOTS];
    size_t len[GL_PREFETCH_SLOTS];
    bool filled[GL_PREFETCH_SLOTS];
    size_t cur;          /* the slot the reader takes next (or holds) */
    bool held;           /* the reader holds slot `cur` */
    bool done, failed, stop;
    bool started;        /* the thread runs (to be joined) */
    struct gl_sha256 hash;  /* of every byte read so far (the producer's) */
};

bool gl_prefetch_start(struct gl_prefetch *p, int fd, uint64_t off, uint64_t size);
struct gl_byte_src gl_prefetch_src(struct gl_prefetch *p);
void gl_prefetch_stop(struct gl_prefetch *p);

#endif
