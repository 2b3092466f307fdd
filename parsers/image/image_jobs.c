/* SPDX-License-Identifier: Apache-2.0 */
/* image_jobs.c: parallel, cached layer indexing (see image_jobs.h). */
#include "parsers/image/image_jobs.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "parsers/image/image_cache.h"
#include "parsers/image/image_side_hash.h"

struct pool {
    struct gl_catalog *c;
    const struct gl_layer_streams *st; /* (instead of c) */
    struct gl_layer_job *list;
    size_t n, next;
    pthread_mutex_t lock;
};

/* A layer that failed to parse, read again whole: when its blob does not have the digest
 * it is named by, the damaged blob is the cause to report, not the parse error it led to
 * (which of the two a reading meets first depends on where the damage is). */
static void blame_digest(struct gl_layer_index *ix, int fd, uint64_t off, uint64_t size,
                         const char *want)
{
    struct gl_fd_region region;
    struct gl_byte_src src = gl_fd_region_src(&region, fd, off, size);
    src.skip = NULL;
    region.chunk = GL_WHOLE_READ;
    struct gl_blob_reader r;
    gl_blob_reader_init(&r, src);
    char got[72];
    if (gl_blob_reader_drain(&r) == 0 && gl_blob_reader_digest(&r, got) && strcmp(got, want))
        ix->error = gl_arena_printf(&ix->arena, "its content has digest %s, not %s", got, want);
    gl_fd_region_free(&region);
}

static void run_one(struct gl_catalog *c, struct gl_layer_job *j)
{
    struct gl_layer_index *ix = &j->ix;
    if (c->cache_dir && j->digest && gl_layer_cache_load(c->cache_dir, j->digest, ix)) {
        gl_layer_index_charge(ix); /* (over the image budget: ix->error says so) */
        return;
    }
    struct gl_blob_span span;
    const char *why;
    if (gl_catalog_blob_open(c, j->blob, &span, &why) != 0) {
        ix->error = gl_arena_printf(&ix->arena, "the blob: %s", why);
        return;
    }
    int fd = span.fd;
    uint64_t off = span.off, size = span.size;
    /* A plain (uncompressed) tar layer is indexed by seeking past file data, whatever its
     * name (a docker save layer.tar, or an OCI blob named by its digest, as Docker >= 25
     * saves them): hashing it only to check its digest costs as much as reading it all,
     * and the seek is as fast as loading a cached index, so its digest is not checked and
     * its index is not cached (an unchecked index must never be cached: a hostile archive
     * could plant one under a well-known base layer's digest). With --verify-digests a
     * plain blob named by its digest is read whole, checked and cached like the others.
     * Any other layer (compressed) is read whole (a compressed stream cannot be
     * skipped), its digest checked, and only then cached. A second thread hashes what is
     * read whole (image_side_hash.h), so hashing overlaps decompression. With
     * --trust-digests nothing is hashed or cached. */
    unsigned char head[512];
    ssize_t nhead = size >= sizeof head ? pread(fd, head, sizeof head, (off_t)off) : 0;
    bool named = j->media_type || gl_has_prefix(j->blob->name, "blobs/");
    bool plain = nhead == (ssize_t)sizeof head && !memcmp(head + 257, "ustar", 5) &&
                 (!named || c->trust_digests || !c->verify_digests);
    bool verify = !plain && !c->trust_digests;
    bool cacheable = c->cache_dir && j->digest && verify;
    struct gl_fd_region region;
    struct gl_side_hash side;
    struct gl_blob_reader r;
    struct gl_byte_src src = gl_fd_region_src(&region, fd, off, size);
    bool side_hashed =
        verify && size > GL_WHOLE_READ && gl_side_hash_start(&side, fd, off, size);
    if (side_hashed)
        src = gl_side_hash_src(&side);
    else if (!plain) {
        src.skip = NULL;
        region.chunk = GL_WHOLE_READ;
    }
    gl_blob_reader_init(&r, src);
    r.no_hash = !verify; /* (a plain layer is skipped through: never hashed anyway) */
    gl_layer_index_build(ix, &r, j->media_type);
    if (side_hashed)
        gl_side_hash_stop(&side);
    gl_fd_region_free(&region);
    if (ix->error && verify && named && j->digest)
        blame_digest(ix, fd, off, size, j->digest);
    gl_catalog_blob_close(&span);
    if (!ix->error && j->digest && ix->digest[0] && strcmp(ix->digest, j->digest) && named)
        ix->error = gl_arena_printf(&ix->arena, "its content has digest %s, not %s",
                                    ix->digest, j->digest);
    if (!ix->error && cacheable && !strcmp(ix->digest, j->digest))
        gl_layer_cache_store(c->cache_dir, j->digest, ix);
}

/* A layer from a stream: read whole, hashed on the way, then checked and cached. */
static void run_stream_one(const struct gl_layer_streams *st, struct gl_layer_job *j)
{
    struct gl_layer_index *ix = &j->ix;
    if (st->cache_dir && gl_layer_cache_load(st->cache_dir, j->digest, ix)) {
        gl_layer_index_charge(ix);
        return;
    }
    struct gl_byte_src src;
    void *handle;
    const char *why = NULL;
    if (st->open(st->ctx, j->digest, &src, &handle, &why) != 0) {
        ix->error = gl_arena_printf(&ix->arena, "the blob: %s", why ? why : "unreadable");
        return;
    }
    struct gl_blob_reader r;
    gl_blob_reader_init(&r, src);
    gl_layer_index_build(ix, &r, j->media_type);
    if (!ix->error && gl_blob_reader_drain(&r) != 0)
        ix->error = "the blob ended early";
    char failed[320], got[72];
    st->close(st->ctx, handle, failed, sizeof failed);
    if (failed[0]) /* the transfer's failure is the cause of what the reader saw */
        ix->error = gl_arena_printf(&ix->arena, "the blob GET: %s", failed);
    else if (!ix->error && (!gl_blob_reader_digest(&r, got) || strcmp(got, j->digest)))
        ix->error = gl_arena_printf(&ix->arena, "its content has digest %s, not %s", got,
                                    j->digest);
    if (!ix->error && st->cache_dir)
        gl_layer_cache_store(st->cache_dir, j->digest, ix);
}

static void *worker(void *arg)
{
    struct pool *p = arg;
    for (;;) {
        pthread_mutex_lock(&p->lock);
        size_t i = p->next < p->n ? p->next++ : p->n;
        pthread_mutex_unlock(&p->lock);
        if (i >= p->n)
            return NULL;
        if (p->st)
            run_stream_one(p->st, &p->list[i]);
        else
            run_one(p->c, &p->list[i]);
    }
}

/* Run the pool's jobs on `jobs` threads (this one included). */
static void run_pool(struct pool p, int jobs)
{
    struct gl_layer_job *list = p.list;
    size_t n = p.n;
    for (size_t i = 0; i < n; i++)
        gl_layer_index_init(&list[i].ix);
    pthread_mutex_init(&p.lock, NULL);
    size_t threads = jobs < 1 ? 1 : (size_t)jobs;
    if (threads > n)
        threads = n;
    pthread_t *tid = xcalloc(threads ? threads : 1, sizeof *tid);
    size_t started = 0;
    for (size_t i = 1; i < threads; i++)
        if (pthread_create(&tid[started], NULL, worker, &p) == 0)
            started++;
    worker(&p); /* this thread works too */
    for (size_t i = 0; i < started; i++)
        pthread_join(tid[i], NULL);
    free(tid);
    pthread_mutex_destroy(&p.lock);
}

void gl_layer_jobs_run(struct gl_catalog *c, struct gl_layer_job *list, size_t n, int jobs)
{
    struct pool p = {.c = c, .list = list, .n = n};
    run_pool(p, jobs);
}

void gl_layer_jobs_stream(const struct gl_layer_streams *st, struct gl_layer_job *list,
                          size_t n, int jobs)
{
    struct pool p = {.st = st, .list = list, .n = n};
    run_pool(p, jobs);
}
