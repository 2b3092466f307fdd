/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_buildkit_conformance.c: the Dockerfile parser against BuildKit's own parser tests
 * (tests/corpus/files/buildkit-parser/, copied from moby/buildkit): dumps byte for byte, negative cases, line numbers,
 * heredocs, and every real-world Dockerfile of the corpus parsing without error.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "parsers/dockerfile/dockerfile.h"

#define BK GPULINT_CORPUS_DIR "/buildkit-parser"

/* The conformance files are part of the repository: their absence is a failure. */
#define NEED_CORPUS()                                                                 \
    do {                                                                              \
        struct stat st_;                                                              \
        if (stat(BK, &st_) != 0 || !S_ISDIR(st_.st_mode))                             \
            fail_msg("the BuildKit conformance files %s are missing", BK);            \
    } while (0)

static int cmp_names(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Sorted entry names of dir (not "." or ".."); free with free_names. */
static char **list_dir(const char *dir, size_t *n)
{
    DIR *d = opendir(dir);
    char **v = NULL;
    *n = 0;
    if (!d)
        return NULL;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.')
            continue;
        v = xrealloc(v, (*n + 1) * sizeof *v);
        v[(*n)++] = xstrdup(e->d_name);
    }
    closedir(d);
    qsort(v, *n, sizeof *v, cmp_names);
    return v;
}

static void free_names(char **v, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(v[i]);
    free(v);
}

static struct df_file *parse_path(struct gl_arena *a, const char *path, struct df_error *err)
{
    char *data;
    size_t len;
    if (gl_read_file(path, &data, &len) != 0) {
        /* the path is cut to fit the message (%.200s: no truncation warning) */
        snprintf(err->message, sizeof err->message, "cannot read %.200s", path);
        return NULL;
    }
    char *copy = gl_arena_strndup(a, data, len);
    free(data);
    return df_parse(a, copy, len, err);
}

static void test_testfiles(void **state)
{
    (void)state;
    NEED_CORPUS();
    size_t n, failures = 0;
    char **cases = list_dir(BK "/testfiles", &n);
    assert_true(n >= 33);
    for (size_t i = 0; i < n; i++) {
        char path[1024], rpath[1024];
        snprintf(path, sizeof path, "%s/testfiles/%s/Dockerfile", BK, cases[i]);
        snprintf(rpath, sizeof rpath, "%s/testfiles/%s/result", BK, cases[i]);
        struct gl_arena a;
        gl_arena_init(&a);
        struct df_error err;
        struct df_file *f = parse_path(&a, path, &err);
        char *want;
        size_t wlen;
        assert_int_equal(gl_read_file(rpath, &want, &wlen), 0);
        if (!f) {
            print_message("FAIL testfiles/%s: parse error %u:%u %s\n", cases[i], err.loc.line,
                          err.loc.col, err.message);
            failures++;
        } else {
            struct gl_buf out;
            gl_buf_init(&out);
            df_dump(f, &out);
            if (out.len != wlen || memcmp(out.data, want, wlen) != 0) {
                print_message("FAIL testfiles/%s:\n--- got\n%s--- want\n%s", cases[i],
                              gl_buf_str(&out), want);
                failures++;
            }
            gl_buf_free(&out);
        }
        free(want);
        gl_arena_free(&a);
    }
    free_names(cases, n);
    assert_int_equal(failures, 0);
}

static void test_negative(void **state)
{
    (void)state;
    NEED_CORPUS();
    size_t n, failures = 0;
    char **cases = list_dir(BK "/testfiles-negative", &n);
    assert_true(n >= 4);
    for (size_t i = 0; i < n; i++) {
        char path[1024];
        snprintf(path, sizeof path, "%s/testfiles-negative/%s/Dockerfile", BK, cases[i]);
        struct gl_arena a;
        gl_arena_init(&a);
        struct df_error err;
        struct df_file *f = parse_path(&a, path, &err);
        if (f || err.loc.line == 0 || err.loc.col == 0 || !err.message[0]) {
            print_message("FAIL testfiles-negative/%s: %s\n", cases[i],
                          f ? "parsed" : "error without location");
            failures++;
        }
        gl_arena_free(&a);
    }
    free_names(cases, n);
    assert_int_equal(failures, 0);
}

static void test_line_numbers(void **state)
{
    (void)state;
    NEED_CORPUS();
    struct gl_arena a;
    gl_arena_init(&a);
    struct df_error err;
    struct df_file *f = parse_path(&a, BK "/testfile-line/Dockerfile", &err);
    assert_non_null(f);
    assert_true(f->ninstrs >= 3);
    static const uint32_t want[3][2] = {{5, 5}, {11, 12}, {17, 31}};
    for (size_t i = 0; i < 3; i++) {
        assert_int_equal(f->instrs[i].start_line, want[i][0]);
        assert_int_equal(f->instrs[i].end_line, want[i][1]);
    }
    gl_arena_free(&a);
}

static bool heredocs_match(const struct df_instr *in, json_object *exp, const char *where,
                           size_t idx)
{
    size_t want = exp && json_object_is_type(exp, json_type_array)
                      ? json_object_array_length(exp) : 0;
    if (in->nheredocs != want) {
        print_message("FAIL %s entry %zu (%s): %zu heredocs, want %zu\n", where, idx,
                      in->keyword, in->nheredocs, want);
        return false;
    }
    for (size_t k = 0; k < want; k++) {
        json_object *h = json_object_array_get_idx(exp, k), *v;
        const struct df_heredoc *got = &in->heredocs[k];
        json_object_object_get_ex(h, "name", &v);
        bool ok = strcmp(json_object_get_string(v), got->name) == 0;
        json_object_object_get_ex(h, "content", &v);
        ok = ok && (size_t)json_object_get_string_len(v) == got->content_len &&
             memcmp(json_object_get_string(v), got->content, got->content_len) == 0;
        json_object_object_get_ex(h, "expand", &v);
        ok = ok && json_object_get_boolean(v) == got->expand;
        json_object_object_get_ex(h, "chomp", &v);
        ok = ok && json_object_get_boolean(v) == got->chomp;
        json_object_object_get_ex(h, "fd", &v);
        ok = ok && (uint64_t)json_object_get_int64(v) == got->fd;
        if (!ok) {
            print_message("FAIL %s entry %zu heredoc %zu: got name=%s expand=%d chomp=%d "
                          "fd=%llu content=[%s]\n", where, idx, k, got->name, got->expand,
                          got->chomp, (unsigned long long)got->fd, got->content);
            return false;
        }
    }
    return true;
}

static void test_heredoc_cases(void **state)
{
    (void)state;
    NEED_CORPUS();
    static const char *const cases[] = {"test-parse-extracts-heredoc", "test-parse-json-heredoc"};
    size_t failures = 0;
    for (size_t c = 0; c < 2; c++) {
        char path[1024], jpath[1024];
        snprintf(path, sizeof path, "%s/heredoc-cases/%s/Dockerfile", BK, cases[c]);
        snprintf(jpath, sizeof jpath, "%s/heredoc-cases/%s/expected.json", BK, cases[c]);
        struct gl_arena a;
        gl_arena_init(&a);
        struct df_error err;
        struct df_file *f = parse_path(&a, path, &err);
        json_object *exp = json_object_from_file(jpath);
        assert_non_null(exp);
        if (!f) {
            print_message("FAIL %s: %u:%u %s\n", cases[c], err.loc.line, err.loc.col, err.message);
            failures++;
        } else {
            size_t want = json_object_array_length(exp);
            if (f->ninstrs != want + 1) {
                print_message("FAIL %s: %zu instructions, want %zu\n", cases[c], f->ninstrs,
                              want + 1);
                failures++;
            } else {
                for (size_t i = 0; i < want; i++)
                    failures += !heredocs_match(&f->instrs[i + 1],
                                                json_object_array_get_idx(exp, i), cases[c], i);
            }
        }
        json_object_put(exp);
        gl_arena_free(&a);
    }
    assert_int_equal(failures, 0);
}

/* Every regular file under dir (one level, or dir/<case>/Dockerfile) must parse. */
static size_t parse_all(const char *dir, bool nested)
{
    size_t n, failures = 0;
    char **names = list_dir(dir, &n);
    for (size_t i = 0; i < n; i++) {
        char path[2048];
        if (strcmp(names[i], "SOURCES.tsv") == 0 || strcmp(names[i], "README") == 0)
            continue;
        snprintf(path, sizeof path, nested ? "%s/%s/Dockerfile" : "%s/%s", dir, names[i]);
        struct gl_arena a;
        gl_arena_init(&a);
        struct df_error err;
        if (!parse_path(&a, path, &err)) {
            print_message("FAIL %s: %u:%u %s\n", path, err.loc.line, err.loc.col, err.message);
            failures++;
        }
        gl_arena_free(&a);
    }
    free_names(names, n);
    return failures;
}

static void test_extracted_from_go(void **state)
{
    (void)state;
    NEED_CORPUS();
    assert_int_equal(parse_all(BK "/extracted-from-go", true), 0);
}

static void test_corpus_dockerfiles(void **state)
{
    (void)state;
    NEED_CORPUS();
    assert_int_equal(parse_all(GPULINT_CORPUS_DIR "/dockerfiles", false), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_testfiles),      cmocka_unit_test(test_negative),
        cmocka_unit_test(test_line_numbers),   cmocka_unit_test(test_heredoc_cases),
        cmocka_unit_test(test_extracted_from_go), cmocka_unit_test(test_corpus_dockerfiles),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
