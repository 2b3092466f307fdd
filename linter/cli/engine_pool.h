/* SPDX-License-Identifier: Apache-2.0 */
/*
 * engine_pool.h: worker threads that lint text inputs while the walk goes on, their
 * results taken in the order the inputs were met.
 *
 * The engine submits jobs (one input each) in walk order; `work` runs each on one of the
 * workers, and `done` takes each result on the submitting thread, strictly in the order
 * of submission, so that a run's findings, messages and decisions (a compose file linted
 * once, its includes) come out exactly as when one thread reads the inputs one by one.
 * At most `depth` jobs are in flight: submitting the next one first takes the results
 * that are ready, and waits for the oldest when the ring is full.
 *
 * Wake-ups: the submitting thread, when the ring is full, sleeps until half of it can be
 * taken (one wake for many results); a worker is signalled only when one is idle.
 *
 * Memory: each worker's arenas pass a gate (gl_arena_set_gate), and so do the heap scratch
 * a parser counts against parse-memory and the bytes of the input being linted
 * (gl_heap_hold): while all of it holds less than the budget, a worker takes freely; past
 * it, one thread
 * at a time (the first to get there) goes on to its input's own limit (parse-memory)
 * and the others wait until it has finished its job, or until the arenas hold less
 * again. So the workers together hold at most the budget, plus one input's parse memory,
 * as one thread does on its own. The submitting thread, when it lints an input itself
 * while workers may run (gl_pool_enter .. gl_pool_leave: an include, an image), is that
 * one thread (once the one before it has finished), so the workers keep to the budget
 * meanwhile. What threads free stays in their malloc arenas (one a thread: one shared
 * arena made the workers wait on its lock, 1.3x instead of 1.8x on two cores), up to
 * the trim threshold each: the pool sets it to 16 MiB shared between the workers (at
 * least 1 MiB each), and a worker that went past the budget gives its freed memory back
 * (malloc_trim) when its job ends.
 */
#ifndef GPULINT_ENGINE_POOL_H
#define GPULINT_ENGINE_POOL_H

#include <stddef.h>

struct gl_pool;

struct gl_pool_ops {
    void (*work)(void *job);            /* on a worker */
    void (*done)(void *job, void *ctx); /* on the submitting thread, in submission order */
    void (*thread_end)(void);           /* on each worker, before it ends (may be NULL) */
};

/* `workers` threads (>= 1), at most `depth` jobs in flight, arenas gated at `budget`
 * bytes; NULL when no thread could be started (the caller lints on its own). */
struct gl_pool *gl_pool_new(unsigned workers, size_t depth, size_t budget,
                            const struct gl_pool_ops *ops, void *ctx);
/* Queue a job (results ready by now are taken first). */
void gl_pool_submit(struct gl_pool *p, void *job);
/* Wait for every job submitted and take their results. */
void gl_pool_drain(struct gl_pool *p);
/* Drain, stop the workers and free the pool (NULL: nothing). */
void gl_pool_free(struct gl_pool *p);
/* The submitting thread lints an input itself from here to gl_pool_leave: it goes past
 * the budget, the workers keep to it. (NULL: nothing.) */
void gl_pool_enter(struct gl_pool *p);
void gl_pool_leave(struct gl_pool *p);

#endif
