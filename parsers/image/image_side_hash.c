/* SPDX-License-Identifier: Apache-2.0 */
/* image_side_hash.c: a whole-blob source hashed by a thread of its own (see
 * image_side_hash.h). */
#include "parsers/image/image_side_hash.h"

#include <string.h>

static void *hasher(void *arg)
{
    struct gl_side_hash *s = arg;
    struct gl_fd_region own;
    struct gl_byte_src src = gl_fd_region_src(&own, s->region.fd, s->region.off,
                                              s->region.size);
    own.chunk = GL_WHOLE_READ;
    bool failed = false;
    for (;;) {
        pthread_mutex_lock(&s->lock);
        while (!s->stop && own.pos >= s->decoded + GL_SIDE_HASH_LEAD) {
            s->hasher_waits = true;
            pthread_cond_wait(&s->moved_cv, &s->lock);
        }
        s->hasher_waits = false;
        bool stop = s->stop;
        pthread_mutex_unlock(&s->lock);
        if (stop) {
            failed = true; /* stopped midway: no digest */
            break;
        }
        const void *b;
        ssize_t n = src.read(src.ctx, &b);
        if (n <= 0) {
            failed = n < 0;
            break;
        }
        gl_sha256_update(&s->hash, b, (size_t)n);
    }
    gl_fd_region_free(&own);
    s->hash_failed = failed;
    return NULL;
}

static ssize_t side_read(void *ctx, const void **buf)
{
    struct gl_side_hash *s = ctx;
    ssize_t n = s->region_src.read(s->region_src.ctx, buf);
    if (n == 0)
        s->at_end = true;
    if (n < 0)
        s->read_failed = true;
    pthread_mutex_lock(&s->lock);
    s->decoded = n > 0 ? s->region.pos : s->region.size; /* at the end: let it finish */
    if (s->hasher_waits)
        pthread_cond_signal(&s->moved_cv);
    pthread_mutex_unlock(&s->lock);
    return n;
}

static void join(struct gl_side_hash *s)
{
    if (s->started && !s->joined) {
        pthread_join(s->thread, NULL);
        s->joined = true;
    }
}

static const struct gl_sha256 *side_hash(void *ctx)
{
    struct gl_side_hash *s = ctx;
    if (!s->at_end || s->read_failed)
        return NULL;
    join(s);
    return s->hash_failed ? NULL : &s->hash;
}

bool gl_side_hash_start(struct gl_side_hash *s, int fd, uint64_t off, uint64_t size)
{
    memset(s, 0, sizeof *s);
    s->region_src = gl_fd_region_src(&s->region, fd, off, size);
    s->region.chunk = GL_WHOLE_READ;
    gl_sha256_init(&s->hash);
    pthread_mutex_init(&s->lock, NULL);
    pthread_cond_init(&s->moved_cv, NULL);
    s->started = pthread_create(&s->thread, NULL, hasher, s) == 0;
    if (!s->started)
        gl_side_hash_stop(s);
    return s->started;
}

struct gl_byte_src gl_side_hash_src(struct gl_side_hash *s)
{
    return (struct gl_byte_src){.ctx = s, .read = side_read, .hash = side_hash};
}

void gl_side_hash_stop(struct gl_side_hash *s)
{
    pthread_mutex_lock(&s->lock);
    s->stop = true;
    pthread_cond_signal(&s->moved_cv);
    pthread_mutex_unlock(&s->lock);
    join(s);
    gl_fd_region_free(&s->region);
    pthread_cond_destroy(&s->moved_cv);
    pthread_mutex_destroy(&s->lock);
}
