/* SPDX-License-Identifier: Apache-2.0 */
/* test_mount_spec.c: one CSV record as encoding/csv reads it, and the keys of a docker /
 * BuildKit mount spec (parsers/shell/mount_spec.h). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "parsers/shell/mount_spec.h"

static struct gl_arena A; /* each test's (main frees the last) */

static void fresh(void)
{
    gl_arena_free(&A);
    gl_arena_init(&A);
}

static struct gl_csv_record csv(const char *s)
{
    struct gl_csv_record r;
    gl_csv_record_read(&A, s, strlen(s), &r);
    return r;
}

/* The fields of r joined with '|' (at most 256 bytes). */
static const char *joined(const struct gl_csv_record *r)
{
    static char buf[256];
    size_t n = 0;
    buf[0] = 0;
    for (size_t i = 0; i < r->n && n + r->f[i].len + 2 < sizeof buf; i++) {
        if (i)
            buf[n++] = '|';
        memcpy(buf + n, r->f[i].text, r->f[i].len);
        n += r->f[i].len;
        buf[n] = 0;
    }
    return buf;
}

static void t_plain_and_empty_fields(void **state)
{
    (void)state;
    fresh();
    struct gl_csv_record r = csv("type=bind,,src=/a,");
    assert_null(r.error);
    assert_string_equal(joined(&r), "type=bind||src=/a|");
    assert_int_equal(r.n, 4);
    assert_int_equal(r.f[2].at, 11);
    assert_int_equal(r.f[2].raw_len, 6);
    assert_int_equal(r.f[3].len, 0);
    r = csv(",");
    assert_int_equal(r.n, 2);
    r = csv("");
    assert_string_equal(r.error, "empty value");
    assert_int_equal(r.n, 0);
}

static void t_quoting(void **state)
{
    (void)state;
    fresh();
    /* a quoted field keeps its commas; "" is one quote; offsets are past the quote */
    struct gl_csv_record r = csv("type=bind,\"source=a,b\",\"x=\"\"q\"\"\"");
    assert_null(r.error);
    assert_string_equal(joined(&r), "type=bind|source=a,b|x=\"q\"");
    assert_true(r.f[1].quoted);
    assert_int_equal(r.f[1].at, 11);
    assert_int_equal(r.f[1].raw_len, 10);
    assert_int_equal(r.f[2].len, 5);
    assert_int_equal(r.f[2].raw_len, 7);
    r = csv("\"\",a");
    assert_string_equal(joined(&r), "|a");
    /* a quote inside an unquoted field; text after a closing quote; an unclosed quote */
    r = csv("a,b\"c");
    assert_string_equal(r.error, "bare \" in non-quoted-field");
    assert_int_equal(r.error_at, 3);
    assert_int_equal(r.n, 1);
    r = csv("a,\"b\"c,d");
    assert_string_equal(r.error, "extraneous or missing \" in quoted-field");
    assert_int_equal(r.error_at, 5);
    assert_int_equal(r.n, 1);
    r = csv("a,\"b,c");
    assert_string_equal(r.error, "extraneous or missing \" in quoted-field");
    assert_int_equal(r.error_at, 2);
    r = csv("\"a\"\"");
    assert_non_null(r.error); /* cut short after a doubled quote */
    assert_int_equal(r.error_at, 0);
}

static void t_lines(void **state)
{
    (void)state;
    fresh();
    /* a line end ends the record; blank lines before it are skipped; a quoted field keeps
     * its line ends (\r\n read as \n) */
    struct gl_csv_record r = csv("\n\r\na,b\nc,d");
    assert_null(r.error);
    assert_string_equal(joined(&r), "a|b");
    assert_int_equal(r.f[0].at, 3);
    r = csv("a,b\r\n");
    assert_string_equal(joined(&r), "a|b");
    r = csv("a\rb,c\r");
    assert_string_equal(joined(&r), "a\rb|c");
    r = csv("\"x\r\ny\",z");
    assert_string_equal(joined(&r), "x\ny|z");
    assert_int_equal(r.f[0].raw_len, 4);
    r = csv("\"x\"\n,z");
    assert_string_equal(joined(&r), "x");
    r = csv("\n\n");
    assert_string_equal(r.error, "empty value");
}

static void assert_value(const struct gl_mspec_field *f, const char *want)
{
    assert_int_equal(f->value_len, strlen(want));
    assert_memory_equal(f->value, want, f->value_len);
}

/* The fields of mount spec s (the first 32) and the reader after the last. */
struct spec {
    struct gl_mspec_field f[32];
    size_t n;
    struct gl_csv_reader r;
};

static struct spec spec(const char *s)
{
    struct spec m = {.n = 0};
    struct gl_mspec_field f;
    gl_csv_reader_init(&m.r, s, strlen(s));
    while (gl_mount_spec_next(&A, &m.r, &f))
        if (m.n < 32)
            m.f[m.n++] = f;
    return m;
}

static void t_keys_and_aliases(void **state)
{
    (void)state;
    fresh();
    struct spec m = spec("Type=BIND,src=/a,SOURCE=/b,dst=/c,destination=/d,"
                                  "target=/e,ro,readonly=false,RW=1,readwrite,from=x,id=y,z");
    static const enum gl_mspec_key want[] = {
        GL_MSPEC_TYPE,     GL_MSPEC_SOURCE,    GL_MSPEC_SOURCE,    GL_MSPEC_TARGET,
        GL_MSPEC_TARGET,   GL_MSPEC_TARGET,    GL_MSPEC_READONLY,  GL_MSPEC_READONLY,
        GL_MSPEC_READWRITE, GL_MSPEC_READWRITE, GL_MSPEC_FROM,     GL_MSPEC_OTHER,
        GL_MSPEC_OTHER};
    assert_null(m.r.error);
    assert_int_equal(m.n, sizeof want / sizeof want[0]);
    for (size_t i = 0; i < m.n; i++)
        assert_int_equal(m.f[i].key, want[i]);
    assert_int_equal(gl_mount_spec_type(m.f[0].value, m.f[0].value_len), GL_MOUNT_BIND);
    assert_value(&m.f[2], "/b");
    assert_true(m.f[6].bare);
    assert_value(&m.f[6], "");
    assert_false(m.f[7].bare);
    assert_value(&m.f[7], "false");
    assert_int_equal(m.f[7].csv.at, 62);
    assert_true(m.f[12].bare);
    /* `key=` has an empty value; a value keeps its later '='; a key is not a prefix */
    m = spec("type=,source=a=b,targets=/x,sr=/y");
    assert_false(m.f[0].bare);
    assert_int_equal(m.f[0].value_len, 0);
    assert_int_equal(gl_mount_spec_type("", 0), GL_MOUNT_OTHER);
    assert_value(&m.f[1], "a=b");
    assert_int_equal(m.f[2].key, GL_MSPEC_OTHER);
    assert_int_equal(m.f[3].key, GL_MSPEC_OTHER);
    assert_int_equal(gl_mount_spec_type("Volume", 6), GL_MOUNT_VOLUME);
    assert_int_equal(gl_mount_spec_type("tmpfs", 5), GL_MOUNT_TMPFS);
    assert_int_equal(gl_mount_spec_type("cache", 5), GL_MOUNT_OTHER);
    assert_int_equal(gl_mount_spec_type("bind2", 5), GL_MOUNT_OTHER);
}

static void t_quoted_key_and_cut_short(void **state)
{
    (void)state;
    fresh();
    /* the key and value of a quoted field are those of its text */
    struct spec m = spec("type=bind,\"source=a,b\",target=/t");
    assert_null(m.r.error);
    assert_int_equal(m.n, 3);
    assert_int_equal(m.f[1].key, GL_MSPEC_SOURCE);
    assert_value(&m.f[1], "a,b");
    /* cut short inside a quote: the fields before it, and the error */
    m = spec("type=bind,target=/t,\"source=a");
    assert_string_equal(m.r.error, "extraneous or missing \" in quoted-field");
    assert_int_equal(m.r.error_at, 20);
    assert_int_equal(m.n, 2);
    assert_int_equal(m.f[1].key, GL_MSPEC_TARGET);
    m = spec("");
    assert_non_null(m.r.error);
    assert_int_equal(m.n, 0);
}

/* How many fields spec s[0, n) has; *error gets the reader's error. */
static size_t count(const char *s, size_t n, const char **error)
{
    struct gl_csv_reader r;
    struct gl_mspec_field f;
    size_t k = 0;
    gl_csv_reader_init(&r, s, n);
    while (gl_mount_spec_next(&A, &r, &f))
        k++;
    *error = r.error;
    return k;
}

/* Hostile lengths: many quoted fields, one long quoted field of doubled quotes, many empty
 * fields. Memory stays linear in the input (a decode room per field of all the input left
 * would be quadratic: gigabytes here), and so does time. */
static void t_hostile_lengths(void **state)
{
    (void)state;
    fresh();
    size_t n = 1 << 20;
    const char *error;
    char *s = malloc(n + 1);
    assert_non_null(s);
    for (size_t i = 0; i < n; i++) /* "a","a",...,"a", */
        s[i] = i % 4 == 3 ? ',' : i % 4 == 1 ? 'a' : '"';
    s[n] = 0;
    assert_int_equal(count(s, n, &error), n / 4 + 1); /* (and the empty one after the last ,) */
    assert_null(error);
    assert_true(A.total < 8 * n); /* (a 16-byte copy of each 4-byte quoted field) */
    fresh();
    struct gl_csv_record rec;
    gl_csv_record_read(&A, s, n, &rec);
    assert_int_equal(rec.n, n / 4 + 1);
    assert_true(A.total < 24 * n); /* (and a table of 40 bytes a field) */
    fresh();
    s[0] = '"';
    for (size_t i = 1; i + 1 < n; i++) /* "" x many, then the closing quote */
        s[i] = '"';
    s[n - 1] = '"';
    gl_csv_record_read(&A, s, n, &rec);
    assert_null(rec.error);
    assert_int_equal(rec.n, 1);
    assert_int_equal(rec.f[0].len, (n - 2) / 2);
    assert_true(A.total < n);
    fresh();
    memset(s, ',', n);
    assert_int_equal(count(s, n, &error), n + 1);
    assert_true(A.total < 64); /* (unquoted: nothing copied) */
    free(s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(t_plain_and_empty_fields),
        cmocka_unit_test(t_quoting),
        cmocka_unit_test(t_lines),
        cmocka_unit_test(t_keys_and_aliases),
        cmocka_unit_test(t_quoted_key_and_cut_short),
        cmocka_unit_test(t_hostile_lengths),
    };
    gl_arena_init(&A);
    int failed = cmocka_run_group_tests(tests, NULL, NULL);
    gl_arena_free(&A);
    return failed;
}
