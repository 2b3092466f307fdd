/* SPDX-License-Identifier: Apache-2.0 */
/* test_yaml_heap.c: libyaml's allocations come from the loader's per-thread pool while a
 * bracket is open (parsers/yaml/yaml_heap.h): libyaml gives the same events and errors
 * with the pool as without it, on every YAML file of the repository and on texts whose
 * strings outgrow the pool's classes; the pool gives all its memory back when the
 * bracket closes; chunks keep their bytes as they grow from class to class and past the
 * largest. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <yaml.h>

#include "parsers/yaml/yaml_heap.h"
#include "parsers/yaml/yaml_tree.h"

/* libyaml's own allocation functions (its yaml_private.h), defined by yaml_heap.c */
void *yaml_malloc(size_t size);
void *yaml_realloc(void *ptr, size_t size);
void yaml_free(void *ptr);
yaml_char_t *yaml_strdup(const yaml_char_t *str);

#if defined(__SANITIZE_ADDRESS__)
#define POOLED 0
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define POOLED 0
#endif
#endif
#ifndef POOLED
#define POOLED 1
#endif

struct out {
    char *p;
    size_t n, cap;
};

static void put(struct out *o, const void *b, size_t n)
{
    if (o->n + n > o->cap) {
        o->cap = (o->n + n) * 2 + 64;
        o->p = realloc(o->p, o->cap);
        assert_non_null(o->p);
    }
    memcpy(o->p + o->n, b, n);
    o->n += n;
}

static void put_num(struct out *o, size_t v) { put(o, &v, sizeof v); }

static void put_str(struct out *o, const yaml_char_t *s)
{
    if (!s) {
        put(o, "-", 1);
        return;
    }
    put(o, s, strlen((const char *)s) + 1);
}

static void put_mark(struct out *o, yaml_mark_t m)
{
    put_num(o, m.index);
    put_num(o, m.line);
    put_num(o, m.column);
}

/* Every event of text (its kind, marks, strings and styles) and the error that ends it,
 * written to o; with the pool when `pooled`, and then nothing of it stays in use. */
static void events(const char *text, size_t len, bool pooled, struct out *o)
{
    if (pooled)
        yt_heap_begin();
    yaml_parser_t p;
    assert_true(yaml_parser_initialize(&p));
    if (pooled && POOLED) /* libyaml's allocations reach the pool */
        assert_true(yt_heap_live() > 0);
    yaml_parser_set_input_string(&p, (const unsigned char *)text, len);
    yaml_parser_set_encoding(&p, YAML_UTF8_ENCODING);
    for (int guard = 0; guard < 1000000; guard++) {
        yaml_event_t e;
        if (!yaml_parser_parse(&p, &e)) {
            put_num(o, p.error);
            put_str(o, (const yaml_char_t *)p.problem);
            put_mark(o, p.problem_mark);
            put_num(o, p.problem_offset);
            break;
        }
        put_num(o, e.type);
        put_mark(o, e.start_mark);
        put_mark(o, e.end_mark);
        switch (e.type) {
        case YAML_ALIAS_EVENT: put_str(o, e.data.alias.anchor); break;
        case YAML_SCALAR_EVENT:
            put_str(o, e.data.scalar.anchor);
            put_str(o, e.data.scalar.tag);
            put_num(o, e.data.scalar.length);
            put(o, e.data.scalar.value, e.data.scalar.length);
            put_num(o, e.data.scalar.style);
            break;
        case YAML_SEQUENCE_START_EVENT:
            put_str(o, e.data.sequence_start.anchor);
            put_str(o, e.data.sequence_start.tag);
            break;
        case YAML_MAPPING_START_EVENT:
            put_str(o, e.data.mapping_start.anchor);
            put_str(o, e.data.mapping_start.tag);
            break;
        default: break;
        }
        bool end = e.type == YAML_STREAM_END_EVENT;
        yaml_event_delete(&e);
        if (end)
            break;
    }
    yaml_parser_delete(&p);
    if (pooled)
        yt_heap_end();
    assert_int_equal(yt_heap_live(), 0);
    assert_int_equal(yt_heap_blocks(), 0);
}

static void same_with_pool(const char *text, size_t len)
{
    struct out a = {0}, b = {0};
    events(text, len, false, &a);
    events(text, len, true, &b);
    assert_int_equal(a.n, b.n);
    assert_memory_equal(a.p, b.p, a.n);
    free(a.p);
    free(b.p);
}

static size_t files;

/* (nftw's visitor) a YAML file of the repository, compared with and without the pool */
static int visit(const char *path, const struct stat *st, int type, struct FTW *at)
{
    (void)at;
    if (type != FTW_F || (!gl_has_suffix(path, ".yml") && !gl_has_suffix(path, ".yaml")))
        return 0;
    char *text;
    size_t len;
    assert_int_equal(gl_read_file(path, &text, &len), 0);
    assert_int_equal(len, (size_t)st->st_size);
    same_with_pool(text, len);
    free(text);
    files++;
    return 0;
}

static void test_repository_files(void **st)
{
    (void)st;
    files = 0;
    assert_int_equal(nftw(GPULINT_SOURCE_DIR "/fixtures", visit, 16, FTW_PHYS), 0);
    assert_int_equal(nftw(GPULINT_SOURCE_DIR "/tests", visit, 16, FTW_PHYS), 0);
    assert_true(files > 100);
}

/* Strings that grow through every class and past the largest (libyaml doubles a string
 * as it reads), anchors and tags (its strdup), errors part way. */
static void test_growing_strings(void **st)
{
    (void)st;
    static const char *const small[] = {
        "", "a", "a: b\n", "&x a: *x\n", "!!str a: !t b\n", "[a, {b: c}]", "a: 'x", "{a: [",
        "a: \x01\n", "k: \"\\u00e9\\t\"\n", "---\n...\n---\nx\n", "? a\n: b\n"};
    for (size_t i = 0; i < sizeof small / sizeof small[0]; i++)
        same_with_pool(small[i], strlen(small[i]));
    size_t n = 70000;
    char *t = malloc(n + 64);
    const char *const forms[] = {"k: ", "k: '", "k: \"", "k: |\n  ", "k: >\n  ", "&a", "!"};
    for (size_t f = 0; f < sizeof forms / sizeof forms[0]; f++) {
        for (size_t len = 1; len < n; len = len * 3 + 1) {
            size_t h = strlen(forms[f]);
            memcpy(t, forms[f], h);
            for (size_t i = 0; i < len; i++)
                t[h + i] = (char)('a' + i % 26);
            size_t end = h + len;
            if (f == 1 || f == 2)
                t[end++] = forms[f][3];
            if (f >= 5)
                memcpy(t + end, " x: y", 5), end += 5;
            t[end++] = '\n';
            same_with_pool(t, end);
        }
    }
    free(t);
}

/* The loader's whole load (the bracket in parse_stream) leaves nothing in use. */
static void test_load_gives_back(void **st)
{
    (void)st;
    const char *t = "a: &x [1, 'two', \"three\"]\nb: *x\nc: >\n  folded\n  text\n";
    struct gl_arena a;
    gl_arena_init(&a);
    struct yt_stream s;
    assert_int_equal(yt_load(&s, &a, t, strlen(t)), 0);
    assert_int_equal(s.ndocs, 1);
    assert_int_equal(yt_heap_live(), 0);
    assert_int_equal(yt_heap_blocks(), 0);
    assert_int_equal(yt_load(&s, &a, "a: [", 4), -1);
    assert_int_equal(yt_heap_live(), 0);
    assert_int_equal(yt_heap_blocks(), 0);
    gl_arena_free(&a);
}

/* Chunks keep their bytes through yaml_realloc, from the smallest class past the largest
 * and back out; one freed after its bracket closed gives the blocks back. */
static void test_chunks(void **st)
{
    (void)st;
    yt_heap_begin();
    unsigned char *p = yaml_malloc(1);
    p[0] = 7;
    size_t have = 1;
    for (size_t size = 2; size <= 8 * YT_HEAP_SMALL; size = size * 2 + 1) {
        p = yaml_realloc(p, size);
        assert_non_null(p);
        for (size_t i = 1; i < have; i++)
            assert_int_equal(p[i], (unsigned char)i);
        assert_int_equal(p[0], 7);
        for (size_t i = 1; i < size; i++)
            p[i] = (unsigned char)i;
        have = size;
    }
    yaml_char_t *d = yaml_strdup((const yaml_char_t *)"tag:yaml.org,2002:str");
    assert_string_equal((const char *)d, "tag:yaml.org,2002:str");
    assert_null(yaml_strdup(NULL));
    void *q = yaml_malloc(0), *r = yaml_realloc(NULL, 40);
    assert_non_null(q);
    assert_non_null(r);
    yaml_free(NULL);
    yaml_free(p);
    yaml_free(q);
    yaml_free(r);
    if (POOLED)
        assert_int_equal(yt_heap_live(), 1); /* d */
    yt_heap_end();
    if (POOLED)
        assert_true(yt_heap_blocks() > 0); /* d still in use */
    yaml_free(d);
    assert_int_equal(yt_heap_live(), 0);
    assert_int_equal(yt_heap_blocks(), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_chunks),
        cmocka_unit_test(test_load_gives_back),
        cmocka_unit_test(test_growing_strings),
        cmocka_unit_test(test_repository_files),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
