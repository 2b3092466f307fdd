/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_support.h: helpers shared by the unit tests (header only, so that every
 * tests/unit/test_*.c stays one program; include after cmocka.h).
 *
 *  - test_doc_init / test_doc_new / test_doc_free: a gl_doc over a text, with its own
 *    arena, ready for a parser (the text is not copied: it must outlive the doc).
 *  - assert_loc: a position is exactly line:col (1-based line, 1-based byte column);
 *    prints both on a mismatch.
 *  - test_each_yaml_file: every .yml / .yaml file of a directory, read whole, handed to a
 *    callback (the test is skipped when the directory is missing).
 *  - test_write_file: write a text to a file (inputs a parser reads beside the one parsed).
 *  - test_gl412: the verdict of rule GL412 (gpu-request-invalid) on the GPU requests a
 *    parser read: parsers record facts only, the rule decides.
 */
#ifndef GPULINT_TESTS_TEST_SUPPORT_H
#define GPULINT_TESTS_TEST_SUPPORT_H

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "linter/core/config.h"
#include "linter/core/model.h"
#include "linter/core/util.h"
#include "rules/check.h"

/* Write text to path (created or truncated). */
static inline void test_write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

/* Set *d up (zeroed, fresh arena) over text[0..len). */
static inline void test_doc_init(struct gl_doc *d, const char *path, enum gl_input_kind kind,
                                 const char *text, size_t len)
{
    gl_doc_init(d, path, kind, text, len);
}

/* A doc from the heap; free it with test_doc_free. */
static inline struct gl_doc *test_doc_new(const char *path, enum gl_input_kind kind,
                                          const char *text, size_t len)
{
    struct gl_doc *d = calloc(1, sizeof *d);
    assert_non_null(d);
    test_doc_init(d, path, kind, text, len);
    return d;
}

static inline void test_doc_free(struct gl_doc *d)
{
    gl_arena_free(&d->arena);
    free(d);
}

static inline void assert_loc(struct gl_loc l, uint32_t line, uint32_t col)
{
    if (l.line != line || l.col != col)
        print_message("loc %u:%u, want %u:%u\n", l.line, l.col, line, col);
    assert_int_equal(l.line, line);
    assert_int_equal(l.col, col);
}

/* Calls fn(name, path, text, len) for each .yml / .yaml file of `dir`, in directory order;
 * returns how many. The text is freed after the call. */
static inline size_t test_each_yaml_file(const char *dir,
                                         void (*fn)(const char *name, const char *path,
                                                    const char *text, size_t len))
{
    DIR *dp = opendir(dir);
    if (!dp)
        skip();
    struct dirent *e;
    size_t files = 0;
    while ((e = readdir(dp))) {
        if (!gl_has_suffix(e->d_name, ".yml") && !gl_has_suffix(e->d_name, ".yaml"))
            continue;
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        char *text;
        size_t len;
        assert_int_equal(gl_read_file(path, &text, &len), 0);
        fn(e->d_name, path, text, len);
        free(text);
        files++;
    }
    closedir(dp);
    return files;
}

/* Run rule GL412 over the doc with the default configuration: the message of its first
 * finding on `line` (any line when 0), its position in *at (when at is not NULL); NULL
 * when it finds nothing there. The message stays valid until the next call. */
static inline const char *test_gl412(const struct gl_doc *d, uint32_t line, struct gl_loc *at)
{
    static char msg[1024];
    struct gl_config cfg;
    struct gl_findings out = {0};
    const char *found = NULL;
    gl_config_init(&cfg);
    assert_int_equal(gl_config_finish(&cfg), 0);
    const struct gl_rule *r = gl_rule_find("GL412");
    assert_non_null(r);
    struct gl_check c = {.doc = d, .cfg = &cfg, .rule = r, .out = &out};
    r->check(&c);
    gl_check_end(&c); /* (the doc's shared launch facts) */
    for (size_t i = 0; i < out.n && !found; i++) {
        if (line && out.items[i].loc.line != line)
            continue;
        snprintf(msg, sizeof msg, "%s", out.items[i].message);
        found = msg;
        if (at)
            *at = out.items[i].loc;
    }
    gl_findings_free(&out);
    gl_config_free(&cfg);
    return found;
}

#endif
