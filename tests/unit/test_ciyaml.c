/* SPDX-License-Identifier: Apache-2.0 */
/* test_ciyaml.c: CI YAML scripts -> launches (parsers/launch/ciyaml.c), positions through the
 * block scalar's srcmap. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "linter/core/inputs.h"

static struct gl_doc *parse(const char *path, const char *text)
{
    const struct gl_input_type *t = gl_input_type_named("ciyaml");
    assert_non_null(t);
    struct gl_doc *d = calloc(1, sizeof *d);
    gl_arena_init(&d->arena);
    d->path = path;
    d->kind = GL_IN_CIYAML;
    d->text = text;
    d->len = strlen(text);
    t->parse(d, NULL);
    return d;
}

static void done(struct gl_doc *d)
{
    gl_arena_free(&d->arena);
    free(d);
}

static void test_github_run_block(void **st)
{
    (void)st;
    const char *wf = "on: push\njobs:\n  t:\n    steps:\n      - run: |\n          echo hi\n"
                     "          docker run --gpus all -v /d:/d img:1 python t.py\n";
    assert_int_equal(gl_sniff("repo/.github/workflows/ci.yml", wf, strlen(wf), false), GL_IN_CIYAML);
    struct gl_doc *d = parse("repo/.github/workflows/ci.yml", wf);
    assert_false(d->error.set);
    assert_int_equal(d->nlaunches, 1);
    assert_int_equal(d->launches[0].loc.line, 7);
    assert_int_equal(d->launches[0].loc.col, 11);
    assert_int_equal(d->refs[0].loc.line, 7);
    assert_int_equal(d->refs[0].loc.col, 42);
    done(d);
}

static void test_gitlab_scripts(void **st)
{
    (void)st;
    const char *ci = "stages: [t]\ntrain:\n  script:\n    - IMG=img:2\n"
                     "    - docker run -d --gpus all $IMG\n";
    assert_int_equal(gl_sniff("repo/.gitlab-ci.yml", ci, strlen(ci), false), GL_IN_CIYAML);
    struct gl_doc *d = parse("repo/.gitlab-ci.yml", ci);
    assert_int_equal(d->nlaunches, 1);
    assert_int_equal(d->launches[0].loc.line, 5);
    assert_int_equal(d->launches[0].loc.col, 7);
    assert_string_equal(d->refs[0].text, "img:2"); /* one shell per job */
    done(d);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_github_run_block),
        cmocka_unit_test(test_gitlab_scripts),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
