/* SPDX-License-Identifier: Apache-2.0 */
/* engine_pool.c: ordered worker threads with a shared arena budget (see engine_pool.h). */
#include "linter/cli/engine_pool.h"

#include <malloc.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>

#include "linter/core/util.h"

enum slot_state { SLOT_QUEUED, SLOT_RUNNING, SLOT_DONE };

struct slot {
    void *job;
    enum slot_state state;
};

struct gl_pool {
    pthread_mutex_t m;
    pthread_cond_t work_cv; /* a job was queued, or the pool stops */
    pthread_cond_t done_cv; /* a job is done */
    pthread_cond_t mem_cv;  /* the gate's owner finished, or a job (and its arenas) ended */
    struct slot *ring;
    size_t depth;
    size_t head, next, tail; /* oldest not taken; next to run; next free (counts, mod depth) */
    size_t wake_at;          /* the submitting thread waits for this many results in a row
                                from the oldest (0: it does not wait) */
    unsigned idle;           /* workers waiting for a job */
    unsigned mem_waiting;    /* threads waiting at the gate */
    bool stop;
    bool owned;              /* a thread goes past the budget (owner) */
    pthread_t owner;
    size_t budget;
    const struct gl_pool_ops *ops;
    void *ctx;
    pthread_t *threads;
    unsigned nthreads;
};

static _Thread_local struct gl_pool *gated; /* the pool whose gate this thread passes */

/* Is this thread the one allowed past the budget? (under p->m) */
static bool owns(const struct gl_pool *p) { return p->owned && pthread_equal(p->owner, pthread_self()); }

/* This thread goes past the budget from now on. (under p->m) */
static void own(struct gl_pool *p)
{
    p->owned = true;
    p->owner = pthread_self();
}

/* Wait until a job ends (the owner may be done). (under p->m) */
static void wait_mem(struct gl_pool *p)
{
    p->mem_waiting++;
    pthread_cond_wait(&p->mem_cv, &p->m);
    p->mem_waiting--;
}

/* The arena gate (gl_arena_set_gate): wait while the arenas hold more than the budget and
 * another thread is past it; the first thread to find the budget spent goes on alone. */
static void gate(size_t n)
{
    struct gl_pool *p = gated;
    if (gl_arena_held() + n <= p->budget)
        return;
    pthread_mutex_lock(&p->m);
    while (!owns(p) && gl_arena_held() + n > p->budget) {
        if (!p->owned) {
            own(p);
            break;
        }
        wait_mem(p);
    }
    pthread_mutex_unlock(&p->m);
}

/* This thread is done with its input: it is past the budget no longer. (under p->m) */
static void release(struct gl_pool *p)
{
    if (owns(p))
        p->owned = false;
    if (p->mem_waiting)
        pthread_cond_broadcast(&p->mem_cv);
}

/* Results ready in a row from the oldest, up to `want`. (under p->m) */
static size_t ready_in_row(const struct gl_pool *p, size_t want)
{
    size_t n = 0;
    while (n < want && p->head + n < p->tail && p->ring[(p->head + n) % p->depth].state == SLOT_DONE)
        n++;
    return n;
}

static void *worker(void *arg)
{
    struct gl_pool *p = arg;
    gated = p;
    gl_arena_set_gate(gate);
    pthread_mutex_lock(&p->m);
    for (;;) {
        while (!p->stop && p->next == p->tail) {
            p->idle++;
            pthread_cond_wait(&p->work_cv, &p->m);
            p->idle--;
        }
        if (p->next == p->tail)
            break; /* stopping, and nothing is left to run */
        struct slot *s = &p->ring[p->next++ % p->depth];
        s->state = SLOT_RUNNING;
        pthread_mutex_unlock(&p->m);
        p->ops->work(s->job);
        pthread_mutex_lock(&p->m);
        s->state = SLOT_DONE;
        bool was_owner = owns(p);
        release(p);
        if (was_owner) { /* its input went past the budget: give what it freed back now */
            pthread_mutex_unlock(&p->m);
            malloc_trim(0);
            pthread_mutex_lock(&p->m);
        }
        /* the submitting thread is woken once it can take what it waits for, or when
           nothing is left to run (one wake for many results, not one a result) */
        if (p->wake_at && (p->next == p->tail || ready_in_row(p, p->wake_at) == p->wake_at))
            pthread_cond_signal(&p->done_cv);
    }
    pthread_mutex_unlock(&p->m);
    if (p->ops->thread_end)
        p->ops->thread_end();
    gl_arena_set_gate(NULL);
    return NULL;
}

struct gl_pool *gl_pool_new(unsigned workers, size_t depth, size_t budget,
                            const struct gl_pool_ops *ops, void *ctx)
{
    struct gl_pool *p = xcalloc(1, sizeof *p);
    pthread_mutex_init(&p->m, NULL);
    pthread_cond_init(&p->work_cv, NULL);
    pthread_cond_init(&p->done_cv, NULL);
    pthread_cond_init(&p->mem_cv, NULL);
    p->depth = depth ? depth : 1;
    p->ring = xcalloc(p->depth, sizeof *p->ring);
    p->budget = budget;
    p->ops = ops;
    p->ctx = ctx;
    /* each worker frees into a malloc arena of its own, which keeps up to the trim
       threshold of what it freed: share the one-thread run's 32 MiB between them */
    size_t trim = ((size_t)16 << 20) / workers;
    mallopt(M_TRIM_THRESHOLD, (int)(trim > (1u << 20) ? trim : (1u << 20)));
    /* and what the run's own thread kept under the one-thread threshold (a large input
       it linted before the workers started: up to 32 MiB) is given back now, or it stays
       beside what the workers take from their own arenas */
    malloc_trim(0);
    p->threads = xcalloc(workers, sizeof *p->threads);
    for (unsigned i = 0; i < workers; i++)
        if (pthread_create(&p->threads[p->nthreads], NULL, worker, p) == 0)
            p->nthreads++;
    if (!p->nthreads) {
        gl_pool_free(p);
        return NULL;
    }
    return p;
}

/* Wait until `want` results in a row from the oldest are ready, or all that are in
 * flight when nothing is left to run. (under p->m) */
static void wait_ready(struct gl_pool *p, size_t want)
{
    while (ready_in_row(p, want) < want && !(p->next == p->tail && ready_in_row(p, 1))) {
        p->wake_at = want;
        pthread_cond_wait(&p->done_cv, &p->m);
        p->wake_at = 0;
    }
}

/* Take the oldest result when it is ready (wait for it when `wait`): false when there is
 * none to take. Called and returns with p->m held; `done` runs without it. */
static bool take_one(struct gl_pool *p, bool wait)
{
    if (p->head == p->tail)
        return false;
    struct slot *s = &p->ring[p->head % p->depth];
    if (wait && s->state != SLOT_DONE)
        wait_ready(p, 1);
    if (s->state != SLOT_DONE)
        return false;
    void *job = s->job;
    p->head++;
    pthread_mutex_unlock(&p->m);
    p->ops->done(job, p->ctx);
    pthread_mutex_lock(&p->m);
    return true;
}

void gl_pool_submit(struct gl_pool *p, void *job)
{
    pthread_mutex_lock(&p->m);
    if (p->tail - p->head == p->depth) /* full: wait until half of it can be taken */
        wait_ready(p, p->depth / 2 ? p->depth / 2 : 1);
    while (take_one(p, false)) {
    }
    p->ring[p->tail % p->depth] = (struct slot){job, SLOT_QUEUED};
    p->tail++;
    if (p->idle)
        pthread_cond_signal(&p->work_cv);
    pthread_mutex_unlock(&p->m);
}

void gl_pool_drain(struct gl_pool *p)
{
    pthread_mutex_lock(&p->m);
    while (take_one(p, true)) {
    }
    pthread_mutex_unlock(&p->m);
}

void gl_pool_free(struct gl_pool *p)
{
    if (!p)
        return;
    gl_pool_drain(p);
    pthread_mutex_lock(&p->m);
    p->stop = true;
    pthread_cond_broadcast(&p->work_cv);
    pthread_mutex_unlock(&p->m);
    for (unsigned i = 0; i < p->nthreads; i++)
        pthread_join(p->threads[i], NULL);
    pthread_mutex_destroy(&p->m);
    pthread_cond_destroy(&p->work_cv);
    pthread_cond_destroy(&p->done_cv);
    pthread_cond_destroy(&p->mem_cv);
    free(p->threads);
    free(p->ring);
    free(p);
}

void gl_pool_enter(struct gl_pool *p)
{
    if (!p)
        return;
    pthread_mutex_lock(&p->m);
    while (p->owned && !owns(p))
        wait_mem(p);
    own(p); /* the workers keep to the budget while this thread lints */
    pthread_mutex_unlock(&p->m);
}

void gl_pool_leave(struct gl_pool *p)
{
    if (!p)
        return;
    pthread_mutex_lock(&p->m);
    release(p);
    pthread_mutex_unlock(&p->m);
}
