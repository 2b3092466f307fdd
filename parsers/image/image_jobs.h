/* SPDX-License-Identifier: Apache-2.0 */
/*
 * image_jobs.h: index the layers an image needs, in parallel, through the cache.
 *
 * For a seekable archive or an OCI layout directory, each needed layer blob is one job:
 * load its index from the cache (by digest) or stream the blob (pread on the archive's
 * region, or the blob file) into a gl_layer_index, verify its digest when the whole
 * compressed stream was read, and store the index in the cache. `jobs` threads work
 * through the list (pthreads); each holds at most one decompression buffer and one layer
 * index under construction, so memory is bounded by file counts, never by layer sizes.
 * Layers read from streams (a registry) run the same way, through the same cache.
 */
#ifndef GPULINT_IMAGE_JOBS_H
#define GPULINT_IMAGE_JOBS_H

#include "parsers/image/image_catalog.h"

struct gl_layer_job {
    struct gl_catalog_blob *blob;   /* the layer's entry (symlinks resolved) */
    const char *digest;             /* expected digest / cache key, or NULL */
    const char *media_type;
    struct gl_layer_index ix;       /* the result (ix.error on failure) */
};

/* Run every job (at most `jobs` at once; jobs < 1: one). */
void gl_layer_jobs_run(struct gl_catalog *c, struct gl_layer_job *list, size_t n, int jobs);

/* Layers that come as streams that cannot seek (a registry's blob GETs, --layers): `open`
 * starts the stream of layer `digest` (0, or -1 with *why), `close` ends it and writes
 * why it failed into why[n] ("" when it did not); both may be called from several
 * threads at once. Each job (job->blob NULL, job->digest set): its index from the cache
 * when the digest is there; else the stream read whole through the same layer reader
 * (hashed as it passes), its digest checked, and only then cached. */
struct gl_layer_streams {
    int (*open)(void *ctx, const char *digest, struct gl_byte_src *src, void **handle,
                const char **why);
    void (*close)(void *ctx, void *handle, char *why, size_t n);
    void *ctx;
    const char *cache_dir;     /* NULL: no cache */
};
void gl_layer_jobs_stream(const struct gl_layer_streams *st, struct gl_layer_job *list,
                          size_t n, int jobs);

#endif
