/* SPDX-License-Identifier: Apache-2.0 */
/* Unit tests: parsers/image/image_json.h (the check, the cursors, unescaping) and
 * linter/core/hashmap.h (the string map). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "parsers/image/image_json.h"
#include "linter/core/hashmap.h"

static int check(const char *text, size_t depth, struct gl_json_error *e)
{
    return gl_json_check(text, strlen(text), depth, e);
}

/* The root of a document that must pass the check. */
static struct gl_json checked(const char *text)
{
    struct gl_json_error e;
    if (check(text, 64, &e) != 0)
        fail_msg("rejected %s: %s at %zu", text, e.what, e.offset);
    return gl_json_root(text);
}

static void accepts_json(void **state)
{
    (void)state;
    static const char *const ok[] = {
        "{}", "[]", " \n{ } \t", "0", "-0.5e+3", "\"\"", "true", "null",
        "{\"a\":[1,-2.5E-3,true,false,null,\"x\"],\"b\":{\"c\":{}}}",
        "[\"\\\"\\\\\\/\\b\\f\\n\\r\\t\\u00e9\"]",
        "[\"\xff\xfe bytes that are no UTF-8\"]", /* taken as they are, as Go does */
    };
    for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++)
        checked(ok[i]);
}

static void rejects_bad_json_at_the_bad_byte(void **state)
{
    (void)state;
    static const struct {
        const char *text;
        size_t offset;
    } bad[] = {
        {"", 0},          {"{", 1},         {"[1,]", 3},        {"[1 2]", 3},
        {"{\"a\" 1}", 5}, {"{\"a\":1,}", 7}, {"{1:2}", 1},       {"01", 1},
        {"1.", 2},        {"-", 1},          {"tru", 0},         {"\"a\x01\"", 2},
        {"\"\\q\"", 2},   {"\"\\u12\"", 2},  {"{} x", 3},        {"\"open", 5},
    };
    struct gl_json_error e;
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        if (check(bad[i].text, 64, &e) == 0)
            fail_msg("accepted %s", bad[i].text);
        if (e.offset != bad[i].offset || e.too_deep)
            fail_msg("%s: error at %zu (%s), want %zu", bad[i].text, e.offset, e.what,
                     bad[i].offset);
    }
}

static void nesting_is_bounded(void **state)
{
    (void)state;
    struct gl_json_error e;
    assert_int_equal(check("[[{\"a\":[]}]]", 4, &e), 0);
    assert_int_equal(check("[[{\"a\":[[]]}]]", 4, &e), -1);
    assert_true(e.too_deep);
    assert_int_equal(e.offset, 8);
    /* a million levels: no recursion, and the stack is bounded by the depth */
    size_t n = 1000000;
    char *deep = malloc(2 * n + 1);
    memset(deep, '[', n);
    memset(deep + n, ']', n);
    deep[2 * n] = 0;
    assert_int_equal(gl_json_check(deep, 2 * n, 10000, &e), -1);
    assert_true(e.too_deep);
    assert_int_equal(e.offset, 10000);
    assert_int_equal(gl_json_check(deep, 2 * n, 2 * n, &e), 0);
    free(deep);
}

static void cursors_walk_objects_and_arrays(void **state)
{
    (void)state;
    const char *doc = "{\"list\": [[1,[2]], {\"x\":[3]}, \"s\", -4e2 ],"
                      " \"a\": 1, \"\\u0061b\": \"esc\", \"a\": \"last\", \"o\": {}}";
    struct gl_arena a;
    gl_arena_init(&a);
    struct gl_json root = checked(doc), list = gl_json_get(root, "list");
    assert_int_equal(gl_json_kind(list), '[');
    assert_int_equal(gl_json_count(list), 4);
    struct gl_json el = gl_json_first(list);
    assert_int_equal(gl_json_kind(el), '[');
    el = gl_json_next(el);
    assert_int_equal(gl_json_kind(el), '{');
    assert_int_equal(gl_json_count(gl_json_get(el, "x")), 1);
    el = gl_json_next(el);
    assert_string_equal(gl_json_string(&a, el), "s");
    el = gl_json_next(el);
    assert_int_equal(gl_json_kind(el), '0');
    assert_null(gl_json_next(el).at);
    assert_string_equal(gl_json_get_string(&a, root, "a"), "last"); /* the last wins */
    assert_string_equal(gl_json_get_string(&a, root, "ab"), "esc");  /* keys unescaped */
    assert_null(gl_json_get(root, "missing").at);
    assert_null(gl_json_get(list, "a").at);                         /* not an object */
    assert_null(gl_json_get_kind(root, "list", '{').at);
    assert_null(gl_json_first(gl_json_get(root, "o")).at);
    assert_int_equal(gl_json_count(gl_json_get(root, "o")), 0);
    assert_null(gl_json_string(&a, gl_json_get(root, "o")));
    gl_arena_free(&a);
}

static void strings_are_unescaped(void **state)
{
    (void)state;
    const char *doc = "[\"a\\nb\\u00e9\\ud83d\\ude00\\/\\\"\", \"lone \\ud800!\", "
                      "\"cut\\u0000here\", \"\"]";
    struct gl_arena a;
    gl_arena_init(&a);
    struct gl_json s = gl_json_first(checked(doc));
    assert_string_equal(gl_json_string(&a, s), "a\nb\xc3\xa9\xf0\x9f\x98\x80/\"");
    s = gl_json_next(s);
    assert_string_equal(gl_json_string(&a, s), "lone \xef\xbf\xbd!"); /* U+FFFD, as Go */
    s = gl_json_next(s);
    /* a NUL is shown (U+2400), not an end: a C string would be cut there */
    assert_string_equal(gl_json_string(&a, s), "cut\xe2\x90\x80here");
    s = gl_json_next(s);
    assert_string_equal(gl_json_string(&a, s), "");
    gl_arena_free(&a);
}

static void map_finds_what_it_stored(void **state)
{
    (void)state;
    struct gl_arena a;
    gl_arena_init(&a);
    struct gl_map m;
    gl_map_init(&m);
    assert_null(gl_map_gets(&m, "absent"));
    for (int i = 0; i < 5000; i++) { /* across several growths */
        bool added;
        char *k = gl_arena_printf(&a, "key %d", i);
        *gl_map_puts(&m, k, &added) = k;
        assert_true(added);
    }
    bool added = true;
    void **again = gl_map_puts(&m, "key 42", &added);
    assert_false(added);
    assert_string_equal(*again, "key 42");
    for (int i = 0; i < 5000; i++) {
        char k[32];
        snprintf(k, sizeof k, "key %d", i);
        assert_string_equal(gl_map_gets(&m, k), k);
    }
    assert_null(gl_map_get(&m, "key 4", 4)); /* "key " is no key */
    assert_int_equal(m.n, 5000);
    gl_map_free(&m);
    gl_arena_free(&a);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(accepts_json),
        cmocka_unit_test(rejects_bad_json_at_the_bad_byte),
        cmocka_unit_test(nesting_is_bounded),
        cmocka_unit_test(cursors_walk_objects_and_arrays),
        cmocka_unit_test(strings_are_unescaped),
        cmocka_unit_test(map_finds_what_it_stored),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
