/* SPDX-License-Identifier: Apache-2.0 */
/* test_glob.c: path globs (linter/core/glob.h) and `ignore-paths:` matching with its base
 * directory (linter/core/path_ignore.h). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "linter/core/glob.h"
#include "linter/core/path_ignore.h"

#define MATCH(g, p) assert_true(gl_glob_match((g), (p)))
#define NO_MATCH(g, p) assert_false(gl_glob_match((g), (p)))

static void test_literal_and_whole_path(void **state)
{
    (void)state;
    MATCH("Dockerfile", "Dockerfile");
    NO_MATCH("Dockerfile", "svc/Dockerfile"); /* the whole path, not its last part */
    NO_MATCH("Dockerfile", "Dockerfile.cuda");
    NO_MATCH("dockerfile", "Dockerfile");     /* case-sensitive */
    MATCH("svc/Dockerfile", "svc//Dockerfile"); /* empty parts are skipped */
    MATCH("svc/Dockerfile/", "svc/Dockerfile");
    NO_MATCH("svc", "");
}

static void test_star_and_question(void **state)
{
    (void)state;
    MATCH("*.yaml", "k8s.yaml");
    MATCH("*.yaml", ".yaml");
    NO_MATCH("*.yaml", "deploy/k8s.yaml"); /* `*` never crosses a `/` */
    MATCH("*/*.yaml", "deploy/k8s.yaml");
    MATCH("a*b*c", "aXXbYYbZZc");
    NO_MATCH("a*b*c", "aXXbYYbZZ");
    MATCH("a**b", "axyb");                 /* `**` inside a part is a `*` */
    NO_MATCH("a**b", "ax/yb");
    MATCH("?.txt", "a.txt");
    NO_MATCH("?.txt", "ab.txt");
    NO_MATCH("a?b", "a/b");
    MATCH("?", "\xC3\xA9");                 /* one UTF-8 character */
    MATCH("??", "\xff\xfe");                /* invalid UTF-8: one byte each */
    MATCH("*", "anything");
    NO_MATCH("*", "two/parts");
}

static void test_classes(void **state)
{
    (void)state;
    MATCH("[abc].txt", "b.txt");
    NO_MATCH("[abc].txt", "d.txt");
    MATCH("v[0-9][0-9]", "v42");
    NO_MATCH("v[0-9]", "vx");
    MATCH("[!a]x", "bx");
    NO_MATCH("[!a]x", "ax");
    MATCH("[^a]x", "bx");
    MATCH("[]]", "]");
    MATCH("[!]]", "a");
    NO_MATCH("[!]]", "]");
    MATCH("[a\\]]", "]");
    MATCH("[-a]", "-");
    MATCH("[a-]", "-");
    NO_MATCH("x[/]y", "x/y"); /* a class never matches `/`: the glob has two parts */
}

static void test_escapes(void **state)
{
    (void)state;
    MATCH("\\*.txt", "*.txt");
    NO_MATCH("\\*.txt", "a.txt");
    MATCH("a\\?", "a?");
    MATCH("\\[x]", "[x]");
}

static void test_globstar(void **state)
{
    (void)state;
    MATCH("**", "a");
    MATCH("**", "a/b/c");
    MATCH("**/Dockerfile", "Dockerfile");
    MATCH("**/Dockerfile", "a/b/Dockerfile");
    NO_MATCH("**/Dockerfile", "a/b/Dockerfile.x");
    MATCH("vendor/**", "vendor");
    MATCH("vendor/**", "vendor/x/y");
    NO_MATCH("vendor/**", "vendors/x");
    MATCH("a/**/b", "a/b");
    MATCH("a/**/b", "a/x/b");
    MATCH("a/**/b", "a/x/y/b");
    NO_MATCH("a/**/b", "a/x/y/c");
    MATCH("**/test/**/*.yaml", "x/test/a/b/c.yaml");
    MATCH("**/test/**/*.yaml", "test/c.yaml");
    NO_MATCH("**/test/**/*.yaml", "x/tests/c.yaml");
    MATCH("a/**/**/b", "a/b");
    MATCH("**/a/**/a/**", "x/a/y/a");
}

static void test_pathological_is_bounded(void **state)
{
    (void)state;
    /* many stars and globstars against a long path: backtracking is bounded (no
     * exponential blow-up) */
    size_t n = 4000;
    char *path = malloc(2 * n + 2);
    for (size_t i = 0; i < n; i++) {
        path[2 * i] = 'a';
        path[2 * i + 1] = '/';
    }
    path[2 * n] = 'b';
    path[2 * n + 1] = '\0';
    NO_MATCH("**/a/**/a/**/a/**/a/**/c", path);
    MATCH("**/a/**/a/**/b", path);
    char part[20001];
    memset(part, 'a', sizeof part - 1);
    part[sizeof part - 1] = '\0';
    NO_MATCH("*a*a*a*a*a*a*a*b", part);
    free(path);
}

static void test_check(void **state)
{
    (void)state;
    size_t bad;
    const char *why;
    assert_int_equal(gl_glob_check("vendor/**", &bad, &why), 0);
    assert_int_equal(gl_glob_check("[a-z]*.txt", &bad, &why), 0);
    assert_int_equal(gl_glob_check("x/[abc", &bad, &why), -1);
    assert_int_equal(bad, 2);
    assert_string_equal(why, "a `]` closing the `[` set");
    assert_int_equal(gl_glob_check("[a/b]", &bad, &why), -1); /* a class stays in its part */
    assert_int_equal(bad, 0);
    assert_int_equal(gl_glob_check("a\\", &bad, &why), -1);
    assert_int_equal(bad, 1);
    assert_int_equal(gl_glob_check("", &bad, &why), -1);
    assert_int_equal(gl_glob_check("//", &bad, &why), -1);
    assert_int_equal(bad, 2);
}

/* gl_path_ignore_rebase: the lexical absolute path and the part below base. */
static void assert_rebase(const char *base, const char *cwd, const char *path,
                          const char *want_abs, const char *want_rel)
{
    struct gl_buf b;
    gl_buf_init(&b);
    const char *abs, *rel;
    gl_path_ignore_rebase(base, cwd, path, &b, &abs, &rel);
    if (want_abs)
        assert_string_equal(abs, want_abs);
    else
        assert_null(abs);
    if (want_rel)
        assert_string_equal(rel, want_rel);
    else
        assert_null(rel);
    gl_buf_free(&b);
}

static void test_rebase(void **state)
{
    (void)state;
    assert_rebase("/r", "/r", "./svc/Dockerfile", "/r/svc/Dockerfile", "svc/Dockerfile");
    assert_rebase("/r", "/r/svc", "Dockerfile", "/r/svc/Dockerfile", "svc/Dockerfile");
    assert_rebase("/r", "/r/svc", "../vendor/x", "/r/vendor/x", "vendor/x");
    assert_rebase("/r", "/r", "a/./b/../c", "/r/a/c", "a/c");
    assert_rebase("/r", "/r", "/r/a", "/r/a", "a");
    assert_rebase("/r", "/r", ".", "/r", NULL);            /* base itself */
    assert_rebase("/r", "/r", "../x", "/x", NULL);         /* outside base */
    assert_rebase("/r", "/r", "/rx/a", "/rx/a", NULL);     /* a prefix, not a parent */
    assert_rebase("/", "/", "a/b", "/a/b", "a/b");
    assert_rebase("/r", "/r", "../../../../a", "/a", NULL); /* no climbing above / */
    assert_rebase(NULL, "/w", "a", "/w/a", "a");           /* base defaults to cwd */
    assert_rebase("/r", NULL, "././a/b", NULL, "a/b");     /* unknown cwd: as given */
    assert_rebase("/r", NULL, "/abs", "/abs", NULL);
}

static void test_ignores(void **state)
{
    (void)state;
    struct gl_arena a;
    gl_arena_init(&a);
    struct gl_path_ignores pi = {.base = "/repo", .cwd = "/repo/svc"};
    assert_false(gl_path_ignored(&pi, "anything")); /* no globs: nothing ignored */
    gl_path_ignores_add(&pi, &a, "vendor", true);
    gl_path_ignores_add(&pi, &a, "/abs/**/*.tar", true);
    struct gl_path_ignore *item = gl_path_ignores_add(&pi, &a, "**/legacy.Dockerfile", false);
    gl_path_ignore_add_rule(item, &a, "GL101");
    gl_path_ignores_add(&pi, &a, "svc/old", false); /* every id unknown: drops nothing */

    assert_true(gl_path_ignored(&pi, "../vendor"));
    assert_true(gl_path_ignored(&pi, "../vendor/x/Dockerfile")); /* below a matched dir */
    assert_false(gl_path_ignored(&pi, "vendor"));   /* /repo/svc/vendor: not /repo/vendor */
    assert_true(gl_path_ignored(&pi, "/abs/x/y/img.tar"));
    assert_false(gl_path_ignored(&pi, "-"));
    assert_false(gl_path_ignored(&pi, "legacy.Dockerfile")); /* rules only */
    assert_true(gl_path_rule_ignored(&pi, "legacy.Dockerfile", "gl101"));
    assert_true(gl_path_rule_ignored(&pi, "./sub/legacy.Dockerfile", "GL101"));
    assert_false(gl_path_rule_ignored(&pi, "legacy.Dockerfile", "GL103"));
    assert_false(gl_path_rule_ignored(&pi, "old", "GL101"));
    assert_false(gl_path_ignored(&pi, "old"));
    gl_arena_free(&a);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_literal_and_whole_path),
        cmocka_unit_test(test_star_and_question),
        cmocka_unit_test(test_classes),
        cmocka_unit_test(test_escapes),
        cmocka_unit_test(test_globstar),
        cmocka_unit_test(test_pathological_is_bounded),
        cmocka_unit_test(test_check),
        cmocka_unit_test(test_rebase),
        cmocka_unit_test(test_ignores),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
