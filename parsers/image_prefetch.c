/* image_prefetch.c: read-ahead and hashing in a second thread (see image_prefetch.h). */
#include "parsers/image_prefetch.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "linter/util.h"

static void *producer(void *arg)
{
    struct gl_prefetch *p = arg;
    uint64_t pos = 0;
    bool failed = false;
    for (size_t i = 0; pos < p->size; i = (i + 1) % GL_PREFETCH_SLOTS) {
        pthread_mutex_lock(&p->lock);
        while (p->filled[i] && !p->stop)
            pthread_cond_wait(&p->freed_cv, &p->lock);
        bool stop = p->stop;
        pthread_mutex_unlock(&p->lock);
        if (stop)
            break;
        uint64_t left = p->size - pos;
        size_t want = left < GL_PREFETCH_SLOT ? (size_t)left : GL_PREFETCH_SLOT;
        ssize_t n;
        do
            n = pread(p->fd, p->buf[i], want, (off_t)(p->off + pos));
        while (n < 0 && errno == EINTR);
        if (n <= 0) {
            failed = true; /* an error, or the file is shorter than the archive said */
            break;
        }
        gl_sha256_update(&p->hash, p->buf[i], (size_t)n);
        pos += (uint64_t)n;
        pthread_mutex_lock(&p->lock);
        p->len[i] = (size_t)n;
        p->filled[i] = true;
        pthread_cond_signal(&p->filled_cv);
        pthread_mutex_unlock(&p->lock);
    }
    pthread_mutex_lock(&p->lock);
    p->failed = failed;
    p->done = true;
    pthread_cond_signal(&p->filled_cv);
    pthread_mutex_unlock(&p->lock);
    return NULL;
}

static ssize_t prefetch_read(void *ctx, const void **buf)
{
    struct gl_prefetch *p = ctx;
    pthread_mutex_lock(&p->lock);
    if (p->held) { /* the caller is done with the previous run: give its slot back */
        p->filled[p->cur] = false;
        p->held = false;
        p->cur = (p->cur + 1) % GL_PREFETCH_SLOTS;
        pthread_cond_signal(&p->freed_cv);
    }
    while (!p->filled[p->cur] && !p->done)
        pthread_cond_wait(&p->filled_cv, &p->lock);
    ssize_t n;
    if (p->filled[p->cur]) {
        p->held = true;
        *buf = p->buf[p->cur];
        n = (ssize_t)p->len[p->cur];
    } else {
        n = p->failed ? -1 : 0;
    }
    pthread_mutex_unlock(&p->lock);
    return n;
}

static const struct gl_sha256 *prefetch_hash(void *ctx)
{
    struct gl_prefetch *p = ctx;
    pthread_mutex_lock(&p->lock);
    bool whole = p->done && !p->failed && !p->filled[p->cur];
    pthread_mutex_unlock(&p->lock);
    return whole ? &p->hash : NULL;
}

bool gl_prefetch_start(struct gl_prefetch *p, int fd, uint64_t off, uint64_t size)
{
    memset(p, 0, sizeof *p);
    p->fd = fd;
    p->off = off;
    p->size = size;
    gl_sha256_init(&p->hash);
    pthread_mutex_init(&p->lock, NULL);
    pthread_cond_init(&p->filled_cv, NULL);
    pthread_cond_init(&p->freed_cv, NULL);
    for (size_t i = 0; i < GL_PREFETCH_SLOTS; i++)
        p->buf[i] = xmalloc(GL_PREFETCH_SLOT);
    p->started = pthread_create(&p->thread, NULL, producer, p) == 0;
    if (!p->started)
        gl_prefetch_stop(p);
    return p->started;
}

struct gl_byte_src gl_prefetch_src(struct gl_prefetch *p)
{
    return (struct gl_byte_src){.ctx = p, .read = prefetch_read, .hash = prefetch_hash};
}

void gl_prefetch_stop(struct gl_prefetch *p)
{
    if (p->started) {
        pthread_mutex_lock(&p->lock);
        p->stop = true;
        pthread_cond_signal(&p->freed_cv);
        pthread_mutex_unlock(&p->lock);
        pthread_join(p->thread, NULL);
        p->started = false;
    }
    for (size_t i = 0; i < GL_PREFETCH_SLOTS; i++) {
        free(p->buf[i]);
        p->buf[i] = NULL;
    }
    pthread_cond_destroy(&p->filled_cv);
    pthread_cond_destroy(&p->freed_cv);
    pthread_mutex_destroy(&p->lock);
}
