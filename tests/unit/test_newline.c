/* SPDX-License-Identifier: Apache-2.0 */
/* test_newline.c: the line feeds newline.h finds (gl_nl_window, gl_nl_count) against a
 * byte-by-byte reading, at every length and offset around its 16- and 64-byte steps. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "linter/core/newline.h"

#define MAXLEN 600

/* A text of len bytes with line feeds where the generator says (seeded: reproducible),
 * and other bytes around them that compare close to '\n' (0x09, 0x0B, 0x8A). */
static void fill(char *t, size_t len, unsigned seed, unsigned every)
{
    static const char others[] = {'a', '\t', '\v', (char)0x8A, ' ', '\r'};
    for (size_t i = 0; i < len; i++) {
        seed = seed * 1103515245u + 12345u;
        unsigned r = (seed >> 16) & 0x7FFF;
        t[i] = r % every == 0 ? '\n' : others[r % sizeof others];
    }
}

/* Every line feed gl_nl_window gives, in order, is one, and none is left out. */
static void check_walk(const char *t, size_t len)
{
    size_t want = 0; /* the next line feed at or after it, read byte by byte */
    for (size_t base = 0; base < len; base += 64)
        for (uint64_t b = gl_nl_window(t, len, base); b; b &= b - 1) {
            size_t at = base + (size_t)__builtin_ctzll(b);
            while (want < len && t[want] != '\n')
                want++;
            assert_int_equal(at, want);
            want++;
        }
    while (want < len && t[want] != '\n')
        want++;
    assert_int_equal(want, len); /* no line feed after the last one given */
}

static size_t count_bytes(const char *t, size_t len)
{
    size_t n = 0;
    for (size_t i = 0; i < len; i++)
        n += t[i] == '\n';
    return n;
}

static void test_every_length(void **state)
{
    (void)state;
    char *buf = malloc(MAXLEN + 64);
    static const unsigned every[] = {1, 2, 3, 17, 40, 1000};
    for (size_t e = 0; e < sizeof every / sizeof every[0]; e++)
        for (size_t len = 0; len <= MAXLEN; len++)
            for (size_t off = 0; off < 3; off++) { /* unaligned starts */
                char *t = buf + off;
                fill(t, len, (unsigned)(len * 7 + off + e), every[e]);
                check_walk(t, len);
                assert_int_equal(gl_nl_count(t, len), count_bytes(t, len));
            }
    free(buf);
}

static void test_long_runs(void **state)
{
    (void)state;
    /* more than 255 steps of 64 line feeds: the byte counters are summed in time */
    size_t len = 64 * 300 + 5;
    char *t = malloc(len);
    memset(t, '\n', len);
    assert_int_equal(gl_nl_count(t, len), len);
    check_walk(t, len);
    memset(t, 'x', len);
    assert_int_equal(gl_nl_count(t, len), 0);
    check_walk(t, len);
    t[len - 1] = '\n';
    t[0] = '\n';
    assert_int_equal(gl_nl_count(t, len), 2);
    check_walk(t, len);
    free(t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_length),
        cmocka_unit_test(test_long_runs),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
