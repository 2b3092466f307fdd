/* SPDX-License-Identifier: Apache-2.0 */
/* test_text_scan.c: the scanning helpers the text inputs' fast paths use, each against the
 * plain way it replaced, on random texts: gl_mem_has against memmem (needles at both ends,
 * the rare byte at each position), the line index (lines.h) against a byte-by-byte count,
 * gl_buf_printf / xasprintf on outputs shorter and longer than their first buffer, and the
 * `docker run` option table's hashed look-up against a scan of the table. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "linter/core/lines.h"
#include "linter/core/util.h"
#include "parsers/shell/docker_run_flags.h"

/* A random text of n bytes over a small alphabet (so that needles occur). */
static void random_text(char *t, size_t n, unsigned *seed)
{
    static const char abc[] = "ab\nc d";
    for (size_t i = 0; i < n; i++)
        t[i] = abc[rand_r(seed) % (sizeof abc - 1)];
}

static void test_mem_has_is_memmem(void **state)
{
    (void)state;
    unsigned seed = 18;
    char text[300], needle[6];
    for (int round = 0; round < 20000; round++) {
        size_t n = (size_t)rand_r(&seed) % sizeof text;
        size_t k = 1 + (size_t)rand_r(&seed) % sizeof needle;
        random_text(text, n, &seed);
        random_text(needle, k, &seed);
        if (n >= k && rand_r(&seed) % 3 == 0) { /* plant it, often at an end */
            size_t at = rand_r(&seed) % 2 ? (rand_r(&seed) % 2 ? 0 : n - k)
                                          : (size_t)rand_r(&seed) % (n - k + 1);
            memcpy(text + at, needle, k);
        }
        bool want = n >= k && memmem(text, n, needle, k) != NULL;
        for (size_t rare = 0; rare < k; rare++)
            assert_int_equal(gl_mem_has(text, n, needle, k, rare), want);
    }
    assert_true(gl_mem_has("kind: Pod", 9, "kind", 4, 0));
    assert_true(gl_mem_has("x: services", 11, "services", 8, 4));
    assert_false(gl_mem_has("service", 7, "services", 8, 4));
    assert_false(gl_mem_has("", 0, "jobs", 4, 0));
}

static void test_line_index(void **state)
{
    (void)state;
    unsigned seed = 7;
    static char text[5000];
    for (int round = 0; round < 200; round++) {
        size_t n = (size_t)rand_r(&seed) % sizeof text;
        random_text(text, n, &seed);
        struct gl_arena a;
        gl_arena_init(&a);
        struct gl_lines l;
        gl_lines_init(&l, &a, text, n);
        uint32_t line = 1, col = 1;
        for (size_t i = 0; i <= n; i++) {
            size_t want_end = i;
            while (want_end < n && text[want_end] != '\n')
                want_end++;
            struct gl_loc at = {line, col};
            assert_int_equal(gl_lines_line_end(&l, at), want_end);
            assert_int_equal(gl_lines_offset(&l, at), i < want_end ? i : SIZE_MAX);
            if (i < n && text[i] == '\n')
                line++, col = 1;
            else
                col++;
        }
        assert_int_equal(gl_lines_line_end(&l, (struct gl_loc){line + 1, 1}), SIZE_MAX);
        gl_arena_free(&a);
    }
}

static void test_printf_once_or_twice(void **state)
{
    (void)state;
    char big[1000];
    memset(big, 'x', sizeof big - 1);
    big[sizeof big - 1] = 0;
    struct gl_buf b;
    gl_buf_init(&b);
    gl_buf_printf(&b, "%s=%d;", "a", 1); /* no room yet: formatted, reserved, again */
    gl_buf_printf(&b, "%s", "bc");       /* in the room left */
    gl_buf_printf(&b, "<%s>", big);      /* longer than the room */
    gl_buf_printf(&b, "%d", 42);
    char want[1100];
    snprintf(want, sizeof want, "a=1;bc<%s>42", big);
    assert_int_equal(b.len, strlen(want));
    assert_string_equal(gl_buf_str(&b), want);
    gl_buf_free(&b);
    char *s = xasprintf("%s-%u", "short", 7u), *l = xasprintf("[%s]", big);
    assert_string_equal(s, "short-7");
    assert_int_equal(strlen(l), strlen(big) + 2);
    assert_int_equal(l[0], '[');
    assert_int_equal(l[strlen(big) + 1], ']');
    free(s);
    free(l);
}

/* The first entry of the table named name[0..len), by scanning it. */
static const struct gl_cli_flag *flag_scan(const struct gl_cli_flag *t, const char *name,
                                           size_t len)
{
    for (; t->name; t++)
        if (strlen(t->name) == len && memcmp(t->name, name, len) == 0)
            return t;
    return NULL;
}

static void test_flag_lookup(void **state)
{
    (void)state;
    static const struct gl_cli_flag small[] = {
        {"ab", 'a', GL_FLAG_VALUE, GL_FLAG_OTHER}, {"abc", 0, GL_FLAG_BOOL, GL_FLAG_OTHER},
        {"ab", 'b', GL_FLAG_BOOL, GL_FLAG_OTHER},  {NULL, 0, GL_FLAG_BOOL, GL_FLAG_OTHER},
    };
    const struct gl_cli_flag *tables[] = {gl_docker_run_flags, small};
    for (size_t t = 0; t < 2; t++) {
        size_t checked = 0;
        for (const struct gl_cli_flag *f = tables[t]; f->name; f++) {
            /* the name, each of its prefixes, and the name with a byte more or changed */
            char name[300];
            size_t n = strlen(f->name);
            assert_true(n + 2 < sizeof name);
            memcpy(name, f->name, n + 1);
            for (size_t len = 0; len <= n; len++) {
                assert_ptr_equal(gl_cli_flag_long(tables[t], name, len),
                                 flag_scan(tables[t], name, len));
                checked++;
            }
            name[n] = 'x';
            name[n + 1] = 0;
            assert_ptr_equal(gl_cli_flag_long(tables[t], name, n + 1),
                             flag_scan(tables[t], name, n + 1));
            name[n] = 0;
            name[n - 1] ^= 0x20;
            assert_ptr_equal(gl_cli_flag_long(tables[t], name, n), flag_scan(tables[t], name, n));
            name[n - 1] ^= 0x20;
            assert_non_null(gl_cli_flag_long(tables[t], name, n));
        }
        assert_true(checked > (t == 0 ? 1000u : 5u));
    }
    for (int c = 0; c < 256; c++) { /* shorthands: the first entry with the letter */
        const struct gl_cli_flag *want = NULL;
        for (const struct gl_cli_flag *f = gl_docker_run_flags; f->name && !want && c; f++)
            if ((unsigned char)f->shorthand == c)
                want = f;
        assert_ptr_equal(gl_cli_flag_short(gl_docker_run_flags, (char)c), want);
    }
    assert_string_equal(gl_cli_flag_short(gl_docker_run_flags, 'v')->name, "volume");
    assert_ptr_equal(gl_cli_flag_long(small, "ab", 2), &small[0]); /* the first of two */
    assert_string_equal(gl_cli_flag_long(gl_docker_run_flags, "gpus=all", 4)->name, "gpus");
    /* no prefix matches: `--gpu` is its own (misspelling) entry, `--volum` none */
    assert_int_equal(gl_cli_flag_long(gl_docker_run_flags, "gpu", 3)->origin, GL_FLAG_MISTAKE);
    assert_null(gl_cli_flag_long(gl_docker_run_flags, "volum", 5));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_mem_has_is_memmem),
        cmocka_unit_test(test_line_index),
        cmocka_unit_test(test_printf_once_or_twice),
        cmocka_unit_test(test_flag_lookup),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
