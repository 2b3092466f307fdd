/* SPDX-License-Identifier: Apache-2.0 */
/* test_finding_order.c: gl_findings_order_from (linter/core/finding.h) puts one input's
 * findings in the report order, stable (ties keep the order they were made in), leaves the
 * findings before `from` alone, and takes time n log n for findings made rule after rule
 * (each rule's in the order of the text: as many sorted runs as rules), which an insertion
 * sort took quadratic time for (3 x 40,000 findings: some 20 s; a doc of 32,000 lines of
 * `nvidia-docker run ubuntu` took 14 s where the sort before took 0.4 s). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "linter/core/finding.h"
#include "linter/core/rule.h"
#include "linter/core/util.h"

/* A finding of rule id at file:line:col, its fix telling the order it was made in. */
static void add(struct gl_findings *f, const char *id, const char *file, uint32_t line,
                uint32_t col, size_t made)
{
    struct gl_finding *x = gl_findings_add(f);
    x->rule = gl_rule_find(id);
    assert_non_null(x->rule);
    x->severity = x->rule->severity;
    x->file = xstrdup(file);
    x->loc = (struct gl_loc){line, col};
    x->message = xstrdup("m");
    char fix[32];
    snprintf(fix, sizeof fix, "%zu", made);
    x->fix = xstrdup(fix);
}

/* Items [from, n) are in the report order, and ties in the order made (their fixes). */
static void assert_ordered(const struct gl_findings *f, size_t from)
{
    for (size_t i = from + 1; i < f->n; i++) {
        int c = gl_finding_cmp(&f->items[i - 1], &f->items[i]);
        assert_true(c <= 0);
        if (!c)
            assert_true(strtoul(f->items[i - 1].fix, NULL, 10) <
                        strtoul(f->items[i].fix, NULL, 10));
    }
}

/* Random findings with many ties, of every count around the sort's run sizes, after a
 * prefix that must stay as it is. */
static void test_stable_and_from(void **state)
{
    (void)state;
    static const char *const ids[] = {"GL101", "GL411", "GL413"};
    unsigned seed = 7;
    for (size_t n = 0; n < 140; n++) {
        struct gl_findings f = {0};
        add(&f, "GL413", "z", 9, 9, 1000); /* the prefix: after all the others */
        add(&f, "GL101", "a", 1, 1, 1001);
        for (size_t k = 0; k < n; k++) {
            seed = seed * 1103515245u + 12345u;
            unsigned r = (seed >> 16) & 0x7FFF;
            add(&f, ids[r % 3], r & 8 ? "b" : "a", 1 + (r >> 4) % 5, 1 + (r >> 7) % 2, k);
        }
        gl_findings_order_from(&f, 2);
        assert_string_equal(f.items[0].fix, "1000");
        assert_string_equal(f.items[1].fix, "1001");
        assert_int_equal(f.n, n + 2);
        assert_ordered(&f, 2);
        gl_findings_free(&f);
    }
}

/* Three rules' findings, each rule's in line order, one after the other: in order in well
 * under the alarm's time (an insertion sort took some 20 s). */
static void test_rule_runs_not_quadratic(void **state)
{
    (void)state;
    enum { LINES = 40000 };
    static const char *const ids[] = {"GL411", "GL413", "GL101"};
    struct gl_findings f = {0};
    size_t made = 0;
    for (size_t r = 0; r < 3; r++)
        for (uint32_t line = 1; line <= LINES; line++)
            add(&f, ids[r], "run.sh", line, 1, made++);
    alarm(10); /* (the default action ends the test: a failure) */
    gl_findings_order_from(&f, 0);
    alarm(0);
    assert_ordered(&f, 0);
    for (size_t i = 0; i < f.n; i++)
        assert_int_equal(f.items[i].loc.line, 1 + i / 3);
    gl_findings_free(&f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_stable_and_from),
        cmocka_unit_test(test_rule_runs_not_quadratic),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
