/* SPDX-License-Identifier: Apache-2.0 */
/* Unit tests: path normalization, small-file selection, whiteouts and opaque directories
 * in the final view, sha256. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "parsers/image/image_budget.h"
#include "parsers/image/image_sha256.h"
#include "parsers/image/image_view.h"

static void normalize(void **state)
{
    (void)state;
    struct gl_arena a;
    gl_arena_init(&a);
    assert_string_equal(gl_image_path_normalize(&a, "./usr/bin/"), "usr/bin");
    assert_string_equal(gl_image_path_normalize(&a, "/etc//passwd"), "etc/passwd");
    assert_string_equal(gl_image_path_normalize(&a, "../../etc/shadow"), "etc/shadow");
    assert_string_equal(gl_image_path_normalize(&a, "a/b/../../../c"), "c");
    assert_string_equal(gl_image_path_normalize(&a, "a/./b/.."), "a");
    assert_string_equal(gl_image_path_normalize(&a, "./"), "");
    gl_arena_free(&a);
}

static void wanted_files(void **state)
{
    (void)state;
    assert_true(gl_image_wants_content("usr/local/cuda-12.4/version.json"));
    assert_true(gl_image_wants_content("usr/local/cuda/version.txt"));
    assert_false(gl_image_wants_content("usr/local/cuda/x/version.json"));
    assert_true(gl_image_wants_content("usr/lib/python3/dist-packages/torch/version.py"));
    assert_false(gl_image_wants_content("usr/lib/python3/site-packages/foo/version.py"));
    assert_true(gl_image_wants_content("etc/os-release"));
    assert_true(gl_image_wants_content("x/site-packages/nvidia_cublas_cu12-12.1.3.1.dist-info/METADATA"));
    assert_true(gl_image_wants_content("x/site-packages/torch-2.3.0.dist-info/METADATA"));
    assert_false(gl_image_wants_content("x/site-packages/torchvision-0.18.dist-info/METADATA"));
    assert_false(gl_image_wants_content("x/site-packages/numpy-1.26.dist-info/METADATA"));
}

static void add(struct gl_layer_index *ix, const char *path, enum gl_file_type t, int wh)
{
    struct gl_layer_entry *e = GL_APPEND(&ix->arena, ix->entries, ix->n, ix->cap);
    memset(e, 0, sizeof *e);
    e->path = gl_arena_strdup(&ix->arena, path);
    e->type = (uint8_t)t;
    e->whiteout = (uint8_t)wh;
    e->size = strlen(path);
}

static const struct gl_image_file *lookup(struct gl_image_file *f, size_t n, const char *p)
{
    for (size_t i = 0; i < n; i++)
        if (!strcmp(f[i].path, p))
            return &f[i];
    return NULL;
}

static void whiteouts(void **state)
{
    (void)state;
    struct gl_layer_index l0, l1, l2;
    gl_layer_index_init(&l0);
    gl_layer_index_init(&l1);
    gl_layer_index_init(&l2);
    add(&l0, "a", GL_FILE_DIR, 0);
    add(&l0, "a/keep", GL_FILE_REG, 0);
    add(&l0, "a/gone", GL_FILE_REG, 0);
    add(&l0, "d", GL_FILE_DIR, 0);
    add(&l0, "d/x/y", GL_FILE_REG, 0);
    add(&l0, "o/old", GL_FILE_REG, 0);
    add(&l0, "f/inside", GL_FILE_REG, 0);
    add(&l0, "dup", GL_FILE_REG, 0);
    /* layer 1: whiteouts; the opaque marker after the new file in its own layer */
    add(&l1, "a/gone", GL_FILE_OTHER, GL_WH_FILE);
    add(&l1, "d", GL_FILE_OTHER, GL_WH_FILE);
    add(&l1, "o/new", GL_FILE_REG, 0);
    add(&l1, "o", GL_FILE_OTHER, GL_WH_OPAQUE);
    add(&l1, "f", GL_FILE_SYMLINK, 0);   /* a non-directory hides f/inside */
    add(&l1, "dup", GL_FILE_REG, 0);
    add(&l1, "dup", GL_FILE_HARDLINK, 0); /* a later duplicate wins */
    /* layer 2: re-creates a deleted path */
    add(&l2, "d/new", GL_FILE_REG, 0);
    const struct gl_layer_index *layers[] = {&l0, &l1, &l2};
    struct gl_arena a;
    gl_arena_init(&a);
    struct gl_image_file *f;
    enum gl_limit_id stopped;
    size_t charged = 0;
    struct gl_image_waste w;
    size_t n = gl_image_view_build(&a, layers, 3, SIZE_MAX, &f, &stopped, &charged, &w);
    assert_int_equal(stopped, GL_LIMIT_COUNT);
    /* waste (sizes are path lengths): a/gone, d/x/y, o/old, f/inside hidden, dup of layer 0
     * replaced; the same-layer duplicate of layer 1 is not waste */
    assert_int_equal(w.bytes, 6 + 5 + 5 + 8 + 3);
    assert_int_equal(w.files, 5);
    assert_int_equal(w.ntop, 3);
    assert_string_equal(w.top[0].path, "f/inside");
    assert_false(w.top[0].overwritten);
    assert_string_equal(w.top[1].path, "a/gone");
    assert_string_equal(w.top[2].path, "o/old");
    assert_int_equal(w.top[2].layer, 0);
    assert_true(charged > 0 && gl_image_budget_used() >= charged);
    gl_image_budget_release(&charged);
    assert_non_null(lookup(f, n, "a/keep"));
    assert_null(lookup(f, n, "a/gone"));
    assert_null(lookup(f, n, "d/x/y"));
    assert_non_null(lookup(f, n, "d/new"));
    assert_int_equal(lookup(f, n, "d/new")->layer, 2);
    assert_null(lookup(f, n, "o/old"));
    assert_non_null(lookup(f, n, "o/new"));
    assert_null(lookup(f, n, "f/inside"));
    assert_int_equal(lookup(f, n, "dup")->type, GL_FILE_HARDLINK);
    assert_int_equal(lookup(f, n, "dup")->layer, 1);
    for (size_t i = 1; i < n; i++)
        assert_true(strcmp(f[i - 1].path, f[i].path) < 0);
    gl_arena_free(&a);
    gl_layer_index_free(&l0);
    gl_layer_index_free(&l1);
    gl_layer_index_free(&l2);
}

/* The view keeps at most max_files files (image-files), and says when it stopped; files
 * that replace, or are hidden by, others do not count. */
static void view_stops_at_max_files(void **state)
{
    (void)state;
    struct gl_layer_index l0, l1;
    gl_layer_index_init(&l0);
    gl_layer_index_init(&l1);
    add(&l0, "a", GL_FILE_REG, 0);
    add(&l0, "b", GL_FILE_REG, 0);
    add(&l1, "a", GL_FILE_REG, 0);   /* replaces l0's a */
    add(&l1, "b", GL_FILE_OTHER, GL_WH_FILE);
    add(&l1, "c", GL_FILE_REG, 0);
    const struct gl_layer_index *layers[] = {&l0, &l1};
    struct gl_arena a;
    gl_arena_init(&a);
    struct gl_image_file *f;
    enum gl_limit_id stopped;
    size_t charged = 0;
    assert_int_equal(gl_image_view_build(&a, layers, 2, 2, &f, &stopped, &charged, NULL), 2); /* a, c */
    assert_int_equal(stopped, GL_LIMIT_COUNT);
    assert_int_equal(gl_image_view_build(&a, layers, 2, 1, &f, &stopped, &charged, NULL), 1);
    assert_int_equal(stopped, GL_LIMIT_IMAGE_FILES);
    gl_image_budget_release(&charged);
    gl_arena_free(&a);
    gl_layer_index_free(&l0);
    gl_layer_index_free(&l1);
}

/* The view charges its memory to the image budget (image-memory) as it grows, and stops
 * when the budget is passed; released, the budget is whole again. */
static void view_stops_at_image_memory(void **state)
{
    (void)state;
    struct gl_layer_index l0;
    gl_layer_index_init(&l0);
    char name[32];
    for (int i = 0; i < 5000; i++) {
        snprintf(name, sizeof name, "dir/file%05d", i);
        add(&l0, name, GL_FILE_REG, 0);
    }
    const struct gl_layer_index *layers[] = {&l0};
    struct gl_arena a;
    gl_arena_init(&a);
    struct gl_image_file *f;
    enum gl_limit_id stopped;
    size_t charged = 0, before = gl_image_budget_used();
    assert_int_equal(gl_limit_set(GL_LIMIT_IMAGE_MEMORY, "64KiB", NULL), 0);
    size_t n = gl_image_view_build(&a, layers, 1, SIZE_MAX, &f, &stopped, &charged, NULL);
    assert_int_equal(stopped, GL_LIMIT_IMAGE_MEMORY);
    assert_true(n < 5000); /* (the arrays sized for every file may pass it at once) */
    gl_image_budget_release(&charged);
    assert_int_equal(gl_image_budget_used(), before);
    gl_limits_reset();
    n = gl_image_view_build(&a, layers, 1, SIZE_MAX, &f, &stopped, &charged, NULL);
    assert_int_equal(stopped, GL_LIMIT_COUNT);
    assert_int_equal(n, 5000);
    gl_image_budget_release(&charged);
    gl_arena_free(&a);
    gl_layer_index_free(&l0);
}

static void sha256_vectors(void **state)
{
    (void)state;
    struct gl_sha256 s;
    unsigned char d[32];
    char hex[65];
    gl_sha256_init(&s);
    gl_sha256_update(&s, "abc", 3);
    gl_sha256_final(&s, d);
    gl_sha256_hex(d, hex);
    assert_string_equal(hex, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    gl_sha256_init(&s);
    char block[1000];
    memset(block, 'a', sizeof block);
    for (int i = 0; i < 1000; i++) /* one million 'a' (FIPS 180-2 example) */
        gl_sha256_update(&s, block, sizeof block);
    gl_sha256_final(&s, d);
    gl_sha256_hex(d, hex);
    assert_string_equal(hex, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(normalize), cmocka_unit_test(wanted_files),
        cmocka_unit_test(whiteouts), cmocka_unit_test(view_stops_at_max_files),
        cmocka_unit_test(view_stops_at_image_memory),
        cmocka_unit_test(sha256_vectors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
