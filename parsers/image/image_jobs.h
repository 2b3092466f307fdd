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

#endif
