/* SPDX-License-Identifier: Apache-2.0 */
/* test_finding_spill.c: findings written to sorted runs and merged back
 * (linter/report/finding_spill.h) come out as the in-memory sort leaves them: the report
 * order, ties in the order found, a repeat of the finding kept before it dropped (and only
 * that: a tie with another fix in between keeps both), the moot filter applied; and
 * fingerprints kept per file equal those kept for the whole run. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "linter/core/limits.h"
#include "linter/core/rule.h"
#include "linter/report/fingerprint.h"
#include "linter/report/finding_spill.h"

static void add(struct gl_findings *f, const char *id, const char *file, uint32_t line,
                const char *message, const char *fix)
{
    struct gl_finding *x = gl_findings_add(f);
    x->rule = gl_rule_find(id);
    assert_non_null(x->rule);
    x->severity = x->rule->severity;
    x->file = xstrdup(file);
    x->loc = (struct gl_loc){line, 1};
    x->message = xstrdup(message);
    x->fix = xstrdup(fix);
}

/* The findings, in the order found: ties (same file, place, rule, message) with the fixes
 * x, y, x, x; repeats across files; an image-like finding with a platform. */
static void sample(struct gl_findings *f, size_t k)
{
    switch (k % 7) {
    case 0: add(f, "GL101", "b/Dockerfile", 3, "tag `latest`", "x"); break;
    case 1: add(f, "GL101", "b/Dockerfile", 3, "tag `latest`", "y"); break;
    case 2: add(f, "GL411", "a/run.sh", 9, "memlock", "raise it"); break;
    case 3: add(f, "GL101", "b/Dockerfile", 3, "tag `latest`", "x"); break;
    case 4: add(f, "GL101", "b/Dockerfile", 3, "tag `latest`", "x"); break;
    case 5: add(f, "GL303", "a/run.sh", 2, "moot me", "drop"); break;
    default: add(f, "GL410", "a/run.sh", 9, "shm", "ipc"); break;
    }
}

static bool not_gl303(const struct gl_finding *f, void *ctx)
{
    (void)ctx;
    return strcmp(f->rule->id, "GL303") != 0;
}

/* The report as "file:line rule fix" lines. */
static void line_of(struct gl_buf *b, const struct gl_finding *f)
{
    gl_buf_printf(b, "%s:%u %s %s\n", f->file, f->loc.line, f->rule->id, f->fix);
}

static void test_written_equals_in_memory(void **state)
{
    (void)state;
    enum { N = 100 };
    struct gl_findings mem = {0};
    struct gl_spill ms;
    gl_spill_init(&ms);
    for (size_t k = 0; k < N; k++)
        sample(&mem, k);
    gl_spill_note(&ms, &mem);
    gl_spill_finish(&ms, &mem, not_gl303, NULL);
    assert_int_equal(ms.nruns, 0); /* under the limit: nothing written */
    struct gl_buf want;
    gl_buf_init(&want);
    for (size_t i = 0; i < mem.n; i++)
        line_of(&want, &mem.items[i]);

    assert_int_equal(gl_limit_set(GL_LIMIT_FINDINGS_MEMORY, "1", "test"), 0);
    struct gl_findings list = {0};
    struct gl_spill s;
    gl_spill_init(&s);
    for (size_t k = 0; k < N; k++) { /* one run per finding but the last few */
        sample(&list, k);
        if (k < N - 3)
            gl_spill_note(&s, &list);
    }
    assert_true(s.nruns > GL_SPILL_FAN_IN); /* merged in stages */
    gl_spill_finish(&s, &list, not_gl303, NULL);
    assert_true(s.nruns <= GL_SPILL_FAN_IN);
    assert_int_equal(s.n, ms.n);
    assert_int_equal(s.by_severity[GL_SEV_WARNING], ms.by_severity[GL_SEV_WARNING]);
    struct gl_buf got;
    gl_buf_init(&got);
    struct gl_finding_cursor c;
    gl_cursor_init(&c, &list, &s);
    for (const struct gl_finding *f; (f = gl_cursor_next(&c));)
        line_of(&got, f);
    gl_cursor_free(&c);
    assert_string_equal(gl_buf_str(&got), gl_buf_str(&want));
    /* the ties kept both fixes where they alternate: x y x, then the x repeat dropped */
    assert_non_null(strstr(gl_buf_str(&want), "GL101 x\nb/Dockerfile:3 GL101 y\n"
                                              "b/Dockerfile:3 GL101 x\nb/Dockerfile:3 GL101 y"));
    assert_null(strstr(gl_buf_str(&want), "GL303"));
    gl_limits_reset();
    gl_buf_free(&got);
    gl_buf_free(&want);
    gl_spill_free(&s);
    gl_spill_free(&ms);
    gl_findings_free(&list);
    gl_findings_free(&mem);
}

static void test_fingerprints_per_file(void **state)
{
    (void)state;
    struct gl_findings f = {0};
    for (size_t k = 0; k < 40; k++)
        sample(&f, k);
    gl_findings_sort(&f);
    struct gl_spill s;
    gl_spill_init(&s);
    assert_true(gl_spill_one_prefix(&s, &f));
    struct gl_fingerprints all;
    gl_fingerprints_compute(&f, &all);
    struct gl_fingerprinter fp;
    gl_fingerprinter_init(&fp, true);
    for (size_t i = 0; i < f.n; i++) {
        char hex[GL_FINGERPRINT_HEX + 1];
        gl_fingerprint_next(&fp, &f.items[i], hex);
        assert_string_equal(hex, all.hex[i]);
    }
    gl_fingerprinter_free(&fp);
    gl_fingerprints_free(&all);
    add(&f, "GL101", "./b/Dockerfile", 3, "tag `latest`", "x"); /* another spelling */
    assert_false(gl_spill_one_prefix(&s, &f));
    gl_spill_free(&s);
    gl_findings_free(&f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_written_equals_in_memory),
        cmocka_unit_test(test_fingerprints_per_file),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
