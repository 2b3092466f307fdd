/* SPDX-License-Identifier: Apache-2.0 */
/* test_escape.c: escape.h, the one escaping function every report and stderr line goes
 * through: each class of dangerous bytes (C0 with ESC/CSI, OSC, CR, BS; DEL; C1; bidi and
 * the other format characters; invalid, truncated and overlong UTF-8) in each target
 * (TEXT, QUOTED, JSON, XML), valid UTF-8 kept as it is, the streamed writer and the
 * stderr helper. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "linter/core/escape.h"

#define FFFD "\xEF\xBF\xBD"

struct esc_case {
    const char *in, *want;
};

/* gl_escape of each case for `to`, compared with its want. */
static void expect_all(const struct esc_case *c, size_t n, enum gl_escape_target to)
{
    for (size_t i = 0; i < n; i++) {
        struct gl_buf b;
        gl_buf_init(&b);
        gl_escape(&b, c[i].in, strlen(c[i].in), to);
        if (strcmp(gl_buf_str(&b), c[i].want) != 0)
            fail_msg("target %d, case %zu: got \"%s\", want \"%s\"", (int)to, i,
                     gl_buf_str(&b), c[i].want);
        gl_buf_free(&b);
    }
}
#define EXPECT_ALL(cases, to) expect_all(cases, sizeof cases / sizeof *cases, to)

static void test_text_c0_and_del(void **state)
{
    (void)state;
    static const struct esc_case cases[] = {
        {"lat\x1b[31mest", "lat\\x1b[31mest"},                   /* ESC / CSI */
        {"util\x1b]0;pwn\x07ity", "util\\x1b]0;pwn\\x07ity"},    /* OSC title, BEL */
        {"\x1b]8;;http://x\x1b\\y", "\\x1b]8;;http://x\\x1b\\y"}, /* OSC 8 link, ST */
        {"ok\rEVIL", "ok\\x0dEVIL"},                              /* CR */
        {"abc\b\b\bxyz", "abc\\x08\\x08\\x08xyz"},               /* BS */
        {"a\tb\nc", "a\\x09b\\x0ac"},
        {"del\x7f", "del\\x7f"},
        {"", ""},
    };
    EXPECT_ALL(cases, GL_ESCAPE_TEXT);
    struct gl_buf b; /* a NUL inside the bytes */
    gl_buf_init(&b);
    gl_escape(&b, "a\0b", 3, GL_ESCAPE_TEXT);
    assert_string_equal(gl_buf_str(&b), "a\\x00b");
    gl_buf_free(&b);
}

static void test_text_c1(void **state)
{
    (void)state;
    static const struct esc_case cases[] = {
        {"\xC2\x80", "\\u0080"},
        {"x\xC2\x9B" "31m", "x\\u009b31m"},                   /* CSI */
        {"\xC2\x9D" "0;t\xC2\x9C", "\\u009d0;t\\u009c"},      /* OSC ... ST */
        {"\xC2\x85", "\\u0085"},                              /* NEL */
        {"\xC2\x9F", "\\u009f"},
        {"\xC2\xA0", "\xC2\xA0"}, /* U+00A0, the first after C1, is kept */
    };
    EXPECT_ALL(cases, GL_ESCAPE_TEXT);
}

static void test_text_bidi_and_format(void **state)
{
    (void)state;
    static const struct esc_case cases[] = {
        {"nvidia/cuda:12\xE2\x80\xAE" "abc", "nvidia/cuda:12\\u202eabc"}, /* RLO */
        {"\xE2\x81\xA6x\xE2\x81\xA9", "\\u2066x\\u2069"},                 /* LRI ... PDI */
        {"\xE2\x80\xAA\xE2\x80\xAB\xE2\x80\xAC\xE2\x80\xAD", "\\u202a\\u202b\\u202c\\u202d"},
        {"\xE2\x81\xA7\xE2\x81\xA8", "\\u2067\\u2068"},
        {"\xE2\x80\x8E\xE2\x80\x8F\xD8\x9C", "\\u200e\\u200f\\u061c"}, /* LRM RLM ALM */
        {"\xE2\x80\xA8\xE2\x80\xA9", "\\u2028\\u2029"},               /* LS PS */
        /* neighbours that are not controls: ZWJ (emoji), U+202F, U+2065 */
        {"\xE2\x80\x8D\xE2\x80\xAF\xE2\x81\xA5", "\xE2\x80\x8D\xE2\x80\xAF\xE2\x81\xA5"},
    };
    EXPECT_ALL(cases, GL_ESCAPE_TEXT);
}

static void test_text_invalid_utf8(void **state)
{
    (void)state;
    static const struct esc_case cases[] = {
        {"a\xFF" "b", "a\\xffb"},
        {"\x80x", "\\x80x"},                         /* stray continuation */
        {"ab\xE2\x82", "ab\\xe2\\x82"},              /* truncated at the end */
        {"\xE2\x82x", "\\xe2\\x82x"},                /* truncated in the middle */
        {"\xF0\x9F\x9A", "\\xf0\\x9f\\x9a"},          /* 4-byte form cut short */
        {"\xC0\xAF", "\\xc0\\xaf"},                  /* overlong '/' */
        {"\xC1\xBF", "\\xc1\\xbf"},
        {"\xE0\x80\xAF", "\\xe0\\x80\\xaf"},          /* overlong, 3 bytes */
        {"\xF0\x80\x80\xAF", "\\xf0\\x80\\x80\\xaf"}, /* overlong, 4 bytes */
        {"\xED\xA0\x80", "\\xed\\xa0\\x80"},          /* a surrogate */
        {"\xF4\x90\x80\x80", "\\xf4\\x90\\x80\\x80"}, /* past U+10FFFF */
        {"\xF5\x80", "\\xf5\\x80"},
        {"\xC0\x80", "\\xc0\\x80"},                  /* overlong NUL */
        /* a cut-off sequence does not swallow what follows it */
        {"\xE2\x80\x1b[2J", "\\xe2\\x80\\x1b[2J"},
    };
    EXPECT_ALL(cases, GL_ESCAPE_TEXT);
}

static void test_valid_utf8_kept(void **state)
{
    (void)state;
    static const char *const kept[] = {
        "driver \xE2\x89\xA5 550.54.15", "caf\xC3\xA9", "\xE6\x97\xA5\xE6\x9C\xAC\xE8\xAA\x9E",
        "\xF0\x9F\x9A\x80", "\xF4\x8F\xBF\xBF", "\xEF\xBF\xBD",
        "C:\\path\\x1b", /* a backslash is kept in TEXT */
    };
    for (size_t i = 0; i < sizeof kept / sizeof *kept; i++) {
        const struct esc_case same = {kept[i], kept[i]};
        expect_all(&same, 1, GL_ESCAPE_TEXT);
        expect_all(&same, 1, GL_ESCAPE_JSON);
        assert_true(gl_escape_plain(kept[i]));
    }
    static const char *const escaped[] = {"a\x1b", "a\x7f", "\xC2\x9B", "\xE2\x80\xAE",
                                          "\xE2\x82", "\xC0\xAF"};
    for (size_t i = 0; i < sizeof escaped / sizeof *escaped; i++)
        assert_false(gl_escape_plain(escaped[i]));
}

static void test_quoted(void **state)
{
    (void)state;
    static const struct esc_case cases[] = {
        {"a\"b\\c", "a\\\"b\\\\c"},
        {"t\x1b]0;x\x07", "t\\x1b]0;x\\x07"},
        {"tab\there", "tab\\x09here"},
        {"\xC2\x9B\xE2\x80\xAE", "\\u009b\\u202e"},
        {"a\xFF\xE2\x82", "a" FFFD FFFD FFFD},
        {"\xC3\xA9", "\xC3\xA9"},
    };
    EXPECT_ALL(cases, GL_ESCAPE_QUOTED);
}

static void test_json(void **state)
{
    (void)state;
    static const struct esc_case cases[] = {
        /* a serialised document: C0 is whitespace between tokens (json-c escaped the rest) */
        {"{\n  \"m\": \"x\\u001b]0;t\\u0007\"\n}", "{\n  \"m\": \"x\\u001b]0;t\\u0007\"\n}"},
        {"\"a\x7f\"", "\"a\\u007f\""},
        {"\"\xC2\x9B\xC2\x85\"", "\"\\u009b\\u0085\""},
        {"\"\xE2\x80\xAE\xE2\x81\xA6\"", "\"\\u202e\\u2066\""},
        {"\"a\xFF\xE2\x82\"", "\"a" FFFD FFFD FFFD "\""},
        {"\"\xC0\xAF\"", "\"" FFFD FFFD "\""},
    };
    EXPECT_ALL(cases, GL_ESCAPE_JSON);
}

static void test_xml(void **state)
{
    (void)state;
    static const struct esc_case cases[] = {
        {"<a href=\"x\">&'</a>", "&lt;a href=&quot;x&quot;&gt;&amp;&apos;&lt;/a&gt;"},
        {"a\tb\nc\rd", "a&#9;b&#10;c&#13;d"},
        {"x\x1b[31m\x01\x1f", "x\\x1b[31m\\x01\\x1f"}, /* no XML 1.0 form */
        {"\x7f\xC2\x9B", "&#x7F;&#x9B;"},
        {"\xE2\x80\xAE\xE2\x81\xA6", "&#x202E;&#x2066;"},
        {"\xEF\xBF\xBE\xEF\xBF\xBF", "\\ufffe\\uffff"},
        {"\xFF\xE2\x82", FFFD FFFD FFFD},
        {"caf\xC3\xA9 \xE2\x89\xA5", "caf\xC3\xA9 \xE2\x89\xA5"},
    };
    EXPECT_ALL(cases, GL_ESCAPE_XML);
}

/* gl_escape_write escapes in pieces: a character across a piece boundary stays whole. */
static void test_write_in_pieces(void **state)
{
    (void)state;
    struct gl_buf in, want;
    gl_buf_init(&in);
    gl_buf_init(&want);
    for (int i = 0; i < 30000; i++)
        gl_buf_adds(&in, "ab\xE2\x80\xAE\xC3\xA9\x1b");
    gl_escape(&want, in.data, in.len, GL_ESCAPE_TEXT);
    char *got = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&got, &len);
    assert_true(gl_escape_write(out, in.data, in.len, GL_ESCAPE_TEXT));
    fclose(out);
    assert_int_equal(len, want.len);
    assert_memory_equal(got, want.data, len);
    free(got);

    FILE *full = fopen("/dev/full", "w");
    if (full) {
        setvbuf(full, NULL, _IONBF, 0);
        errno = 0;
        assert_false(gl_escape_write(full, in.data, in.len, GL_ESCAPE_TEXT));
        assert_int_equal(errno, ENOSPC);
        fclose(full);
    }
    gl_buf_free(&in);
    gl_buf_free(&want);
}

/* The kept-ASCII runs are scanned eight bytes a step: every byte value, at every place of
 * a run of plain letters longer than two steps (and beside a second such byte), must come
 * out exactly as it does alone, where the byte-by-byte path escapes it. */
static void test_runs_word_at_a_time(void **state)
{
    (void)state;
    static const enum gl_escape_target targets[] = {GL_ESCAPE_TEXT, GL_ESCAPE_JSON};
    for (size_t t = 0; t < sizeof targets / sizeof *targets; t++) {
        for (int v = 1; v < 256; v++) {
            struct gl_buf one;
            gl_buf_init(&one);
            char c = (char)v;
            gl_escape(&one, &c, 1, targets[t]);
            for (size_t at = 0; at < 23; at++) {
                for (size_t second = 0; second < 2; second++) {
                    char in[24];
                    memset(in, 'a', sizeof in);
                    in[at] = c;
                    size_t other = (at + 9) % sizeof in; /* a second one, a step further */
                    if (second)
                        in[other] = c;
                    struct gl_buf got, want;
                    gl_buf_init(&got);
                    gl_buf_init(&want);
                    gl_escape(&got, in, sizeof in, targets[t]);
                    for (size_t i = 0; i < sizeof in; i++) {
                        if (i == at || (second && i == other))
                            gl_buf_add(&want, one.data, one.len);
                        else
                            gl_buf_addc(&want, 'a');
                    }
                    if (got.len != want.len || memcmp(got.data, want.data, got.len))
                        fail_msg("target %d, byte 0x%02x at %zu (second %zu): got \"%s\"",
                                 (int)targets[t], v, at, second, gl_buf_str(&got));
                    gl_buf_free(&got);
                    gl_buf_free(&want);
                }
            }
            gl_buf_free(&one);
        }
    }
}

/* gl_eprintf: `gpulint: `, the message escaped as TEXT, one newline. */
static void test_eprintf(void **state)
{
    (void)state;
    FILE *tmp = tmpfile();
    assert_non_null(tmp);
    fflush(stderr);
    int saved = dup(STDERR_FILENO);
    assert_true(saved >= 0);
    dup2(fileno(tmp), STDERR_FILENO);
    gl_eprintf("%s: %s", "we\x1b]0;pwn\x07ird\rname\xE2\x80\xAE\xFF", "No such file");
    fflush(stderr);
    dup2(saved, STDERR_FILENO);
    close(saved);
    char got[256] = {0};
    rewind(tmp);
    size_t n = fread(got, 1, sizeof got - 1, tmp);
    fclose(tmp);
    got[n] = 0;
    assert_string_equal(got, "gpulint: we\\x1b]0;pwn\\x07ird\\x0dname\\u202e\\xff: No such file\n");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_text_c0_and_del),
        cmocka_unit_test(test_text_c1),
        cmocka_unit_test(test_text_bidi_and_format),
        cmocka_unit_test(test_text_invalid_utf8),
        cmocka_unit_test(test_valid_utf8_kept),
        cmocka_unit_test(test_quoted),
        cmocka_unit_test(test_json),
        cmocka_unit_test(test_xml),
        cmocka_unit_test(test_write_in_pieces),
        cmocka_unit_test(test_runs_word_at_a_time),
        cmocka_unit_test(test_eprintf),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
