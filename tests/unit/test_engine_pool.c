/* SPDX-License-Identifier: Apache-2.0 */
/* test_engine_pool.c: the engine's worker threads (linter/cli/engine_pool.h).
 *
 * - Order: thousands of jobs of uneven length (some spin, some return at once) on more
 *   workers than cores, with a small ring; `done` must see them exactly in submission
 *   order, each once, each after its `work`, and drain/free must wait for the last.
 * - The memory gate: jobs whose arenas take many blocks; at no time may more than one
 *   thread hold arenas past the budget (the arenas of all workers stay under the budget
 *   plus one job's own), and every job still ends (no thread waits for ever).
 * - The submitting thread inside gl_pool_enter/leave is the one past the budget.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>

#include "linter/cli/engine_pool.h"
#include "linter/core/util.h"

struct job {
    size_t index;
    unsigned spin;   /* work to do */
    size_t blocks;   /* arena blocks of 64 KiB to take */
    atomic_bool worked;
};

static size_t next_done;
static atomic_uint sink; /* what the spinning computes (kept, so that it is done) */
static atomic_size_t peak_held;
static size_t budget;

static void note_held(void)
{
    size_t h = gl_arena_held(), p = atomic_load(&peak_held);
    while (h > p && !atomic_compare_exchange_weak(&peak_held, &p, h)) {
    }
}

static void work(void *arg)
{
    struct job *j = arg;
    unsigned x = 0;
    for (unsigned i = 0; i < j->spin; i++)
        x = x * 31 + i;
    atomic_fetch_add(&sink, x);
    struct gl_arena a;
    gl_arena_init(&a);
    for (size_t i = 0; i < j->blocks; i++) {
        gl_arena_alloc(&a, 60000);
        note_held();
    }
    gl_arena_free(&a);
    atomic_store(&j->worked, true);
}

static void done(void *arg, void *ctx)
{
    struct job *j = arg;
    (void)ctx;
    assert_true(atomic_load(&j->worked));
    assert_int_equal(j->index, next_done);
    next_done++;
}

static const struct gl_pool_ops ops = {work, done, NULL};

static void run_jobs(size_t n, unsigned workers, size_t depth, size_t big_every,
                     size_t big_blocks)
{
    struct job *jobs = calloc(n, sizeof *jobs);
    next_done = 0;
    atomic_store(&peak_held, 0);
    struct gl_pool *p = gl_pool_new(workers, depth, budget, &ops, NULL);
    assert_non_null(p);
    for (size_t i = 0; i < n; i++) {
        jobs[i].index = i;
        jobs[i].spin = (unsigned)((i * 7919) % 5 == 0 ? 20000 : (i % 3) * 100);
        jobs[i].blocks = big_every && i % big_every == 0 ? big_blocks : 1;
        gl_pool_submit(p, &jobs[i]);
        if (i % 997 == 0)
            gl_pool_drain(p);
    }
    gl_pool_free(p);
    assert_int_equal(next_done, n);
    free(jobs);
}

static void test_order(void **state)
{
    (void)state;
    budget = (size_t)64 << 20;
    run_jobs(5000, 4, 8, 0, 0);
    run_jobs(3000, 1, 1, 0, 0);
    run_jobs(3000, 7, 3, 0, 0);
}

static void test_gate(void **state)
{
    (void)state;
    size_t block = 65536 + 64;
    budget = 8 * block;
    /* every third job takes 40 blocks (five times the budget): one at a time goes past */
    run_jobs(600, 4, 16, 3, 40);
    size_t one_job = 40 * block;
    assert_true(atomic_load(&peak_held) <= budget + one_job + 4 * block);
    assert_int_equal(gl_arena_held(), 0);
}

/* The submitting thread lints something itself while the workers run. */
static struct gl_pool *entering;
static void done_entering(void *arg, void *ctx)
{
    (void)ctx;
    done(arg, NULL);
    gl_pool_enter(entering);
    struct gl_arena a;
    gl_arena_init(&a);
    for (int i = 0; i < 20; i++) {
        gl_arena_alloc(&a, 60000);
        note_held();
    }
    gl_arena_free(&a);
    gl_pool_leave(entering);
}

static void test_enter(void **state)
{
    (void)state;
    static const struct gl_pool_ops ops2 = {work, done_entering, NULL};
    size_t block = 65536 + 64;
    budget = 4 * block;
    next_done = 0;
    atomic_store(&peak_held, 0);
    struct job jobs[200] = {0};
    entering = gl_pool_new(3, 6, budget, &ops2, NULL);
    assert_non_null(entering);
    for (size_t i = 0; i < 200; i++) {
        jobs[i].index = i;
        jobs[i].blocks = i % 4 == 0 ? 12 : 1;
        gl_pool_submit(entering, &jobs[i]);
    }
    gl_pool_free(entering);
    assert_int_equal(next_done, 200);
    assert_true(atomic_load(&peak_held) <= budget + 20 * block + 3 * block);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_order),
        cmocka_unit_test(test_gate),
        cmocka_unit_test(test_enter),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
