/* SPDX-License-Identifier: Apache-2.0 */
/* test_knowledge.c: the CUDA knowledge base: compiled table vs the facts file, lookups,
 * version comparison, and rejection of bad knowledge files. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "knowledge/kb.h"
#include "knowledge/kb_schema.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define PROJECT_FACTS GPULINT_SOURCE_DIR "/knowledge/cuda_facts.yaml"

/* ---- compiled table vs the facts files ---- */

static void assert_same_tables(const struct gl_kb *a, const struct gl_kb *b)
{
    for (size_t i = 0; i < kb_n_specs; i++) {
        size_t na, nb;
        kb_spec_rows(&kb_specs[i], a, &na);
        kb_spec_rows(&kb_specs[i], b, &nb);
        if (na != nb)
            fail_msg("table %s: %zu rows built in, %zu in the file", kb_specs[i].name, na, nb);
    }
    assert_string_equal(gl_kb_date(a), gl_kb_date(b));
}

/* The table compiled in (tools/kb_gen) is the project's facts file, row for row. */
static void test_builtin_matches_project_facts(void **state)
{
    (void)state;
    struct gl_kb *kb;
    struct gl_kb_error err;
    if (gl_kb_load_file(PROJECT_FACTS, &kb, &err) != 0)
        fail_msg("%u:%u: %s", err.loc.line, err.loc.col, err.message);
    assert_same_tables(gl_kb_builtin(), kb);
    /* row by row: every toolkit row of the file is in the compiled table, same driver */
    for (size_t i = 0; i < kb->n_toolkits; i++) {
        enum gl_kb_match how;
        const struct gl_kb_toolkit *t = gl_kb_toolkit_lookup(gl_kb_builtin(), kb->toolkits[i].cuda, &how);
        assert_non_null(t);
        assert_int_equal(how, GL_KB_EXACT);
        assert_string_equal(t->linux_min_driver, kb->toolkits[i].linux_min_driver);
    }
    gl_kb_free(kb);
}

static void test_project_copy_loads(void **state)
{
    (void)state;
    struct gl_kb *kb;
    struct gl_kb_error err;
    if (gl_kb_load_file(PROJECT_FACTS, &kb, &err) != 0)
        fail_msg("%u:%u: %s", err.loc.line, err.loc.col, err.message);
    assert_same_tables(gl_kb_builtin(), kb);
    gl_kb_free(kb);
}

static void test_row_counts(void **state)
{
    (void)state;
    const struct gl_kb *kb = gl_kb_builtin();
    assert_string_equal(gl_kb_date(kb), "2026-11-24");
    assert_int_equal(kb->n_toolkits, 60);
    assert_int_equal(kb->n_mvc, 4);
    assert_int_equal(kb->n_branches, 26);
    assert_int_equal(kb->n_ngc_releases, 102);
    assert_int_equal(kb->n_ngc_containers, 3);
    assert_int_equal(kb->n_torch, 18);
    assert_int_equal(kb->n_tf, 26);
    assert_int_equal(kb->n_jax, 5);
    assert_int_equal(kb->n_pip, 3);
    assert_int_equal(kb->n_errors, 14);
    assert_int_equal(kb->n_cudart, 42);
    assert_int_equal(kb->n_flavors, 12);
    assert_int_equal(kb->n_os_tokens, 19);
    assert_int_equal(kb->n_fwdcompat, 24);
    assert_int_equal(kb->n_gpu_families, 16);
    assert_int_equal(kb->n_torch_archs, 43);
}

/* ---- sampled values, checked by hand against cuda_facts.yaml ---- */

static void expect_toolkit(const char *cuda, enum gl_kb_match how, const char *row, const char *driver)
{
    enum gl_kb_match got;
    const struct gl_kb_toolkit *t = gl_kb_toolkit_lookup(gl_kb_builtin(), cuda, &got);
    assert_int_equal(got, how);
    if (!row) {
        assert_null(t);
        return;
    }
    assert_non_null(t);
    assert_string_equal(t->cuda, row);
    assert_string_equal(t->linux_min_driver, driver);
}

static void test_toolkit_rows(void **state)
{
    (void)state;
    expect_toolkit("12.4.1", GL_KB_EXACT, "12.4.1", "550.54.15");
    expect_toolkit("10.0.130", GL_KB_EXACT, "10.0.130", "410.48");
    expect_toolkit("13.0.0", GL_KB_EXACT, "13.0.0", "580.65.06");
    expect_toolkit("13.0.1", GL_KB_EXACT, "13.0.1", "580.82.07");
    expect_toolkit("13.0.2", GL_KB_EXACT, "13.0.2", "580.95.05");
    expect_toolkit("13.2.2", GL_KB_EXACT, "13.2.2", "595.71.05");
    expect_toolkit("12.8.0", GL_KB_EXACT, "12.8.0", "570.26");
    expect_toolkit("12.8", GL_KB_EXACT, "12.8.0", "570.26");     /* 12.8 == 12.8.0 */
    expect_toolkit("12.2.1", GL_KB_EXACT, "12.2.1", "535.86.09");
    expect_toolkit("11.1.1", GL_KB_EXACT, "11.1.1", "455.32");
    expect_toolkit("10.1", GL_KB_EXACT, "10.1", "418.39");
    expect_toolkit("10.1.200", GL_KB_SAME_MINOR, "10.1.168", "418.39");
    expect_toolkit("12.4.9", GL_KB_SAME_MINOR, "12.4.1", "550.54.15");
    expect_toolkit("13.9", GL_KB_NEWER_THAN_TABLE, "13.2.2", "595.71.05");
    expect_toolkit("12.7", GL_KB_NONE, NULL, NULL); /* 12.7 does not exist */
    expect_toolkit("9.2", GL_KB_NONE, NULL, NULL);
    expect_toolkit("12.x", GL_KB_NONE, NULL, NULL);
    expect_toolkit("", GL_KB_NONE, NULL, NULL);

    enum gl_kb_match how;
    const struct gl_kb_toolkit *t = gl_kb_toolkit_lookup(gl_kb_builtin(), "12.3.2", &how);
    assert_true(t->unverified);
    assert_string_equal(t->source, "jimver_links");
    t = gl_kb_toolkit_lookup(gl_kb_builtin(), "12.4.1", &how);
    assert_false(t->unverified);
    assert_int_equal(t->branch, 550);
    assert_string_equal(t->windows_min_driver, "551.78");
    assert_string_equal(t->source, "cuda_rn_13_2_2");
    t = gl_kb_toolkit_lookup(gl_kb_builtin(), "13.1.0", &how);
    assert_null(t->windows_min_driver);
    assert_string_equal(gl_kb_toolkit_newest(gl_kb_builtin())->cuda, "13.2.2");
}

static void test_mvc_and_branches(void **state)
{
    (void)state;
    const struct gl_kb *kb = gl_kb_builtin();
    assert_string_equal(gl_kb_mvc_for_major(kb, 11)->linux_min_driver, "450.80.02");
    assert_int_equal(gl_kb_mvc_for_major(kb, 11)->max_branch_exclusive, 525);
    assert_string_equal(gl_kb_mvc_for_major(kb, 12)->linux_min_driver, "525.60.13");
    assert_int_equal(gl_kb_mvc_for_major(kb, 12)->max_branch_exclusive, 580);
    assert_string_equal(gl_kb_mvc_for_major(kb, 13)->linux_min_driver, "580.65.06");
    assert_int_equal(gl_kb_mvc_for_major(kb, 13)->min_branch, 580);
    assert_true(gl_kb_mvc_for_major(kb, 13)->unverified);
    assert_true(gl_kb_mvc_for_major(kb, 12)->supported);
    assert_false(gl_kb_mvc_for_major(kb, 12)->unverified);
    assert_true(gl_kb_mvc_for_major(kb, 12)->windows_unverified);
    assert_false(gl_kb_mvc_for_major(kb, 10)->supported);
    assert_null(gl_kb_mvc_for_major(kb, 9));

    const struct gl_kb_branch *b = gl_kb_branch_for_driver(kb, "535.104.05");
    assert_non_null(b);
    assert_int_equal(b->number, 535);
    assert_int_equal(b->kind, GL_BRANCH_LONG_TERM);
    assert_string_equal(b->max_cuda, "12.2");
    assert_string_equal(b->end_of_life, "June 2026");
    assert_int_equal(gl_kb_branch_lookup(kb, 575)->kind, GL_BRANCH_NEW_FEATURE);
    assert_int_equal(gl_kb_branch_lookup(kb, 570)->kind, GL_BRANCH_PRODUCTION);
    assert_string_equal(gl_kb_branch_lookup(kb, 570)->first_driver, "570.26");
    assert_string_equal(gl_kb_branch_lookup(kb, 565)->max_cuda, "12.7");
    assert_true(gl_kb_branch_lookup(kb, 565)->unverified);
    assert_null(gl_kb_branch_lookup(kb, 610)->max_cuda);
    assert_null(gl_kb_branch_for_driver(kb, "999.1"));

    bool exact;
    assert_string_equal(gl_kb_driver_max_cuda(kb, "550.127.08", &exact), "12.4");
    assert_true(exact);
    assert_string_equal(gl_kb_driver_max_cuda(kb, "580.88", &exact), "13.0");
    assert_string_equal(gl_kb_driver_max_cuda(kb, "470.141.03", &exact), "11.4");
    assert_string_equal(gl_kb_driver_max_cuda(kb, "480.1", &exact), "11.4"); /* no R480 */
    assert_false(exact);
    assert_string_equal(gl_kb_driver_max_cuda(kb, "615.20", &exact), "13.2");
    assert_false(exact);
    assert_null(gl_kb_driver_max_cuda(kb, "390.1", &exact));
    assert_null(gl_kb_driver_max_cuda(kb, "abc", &exact));
}

static void test_images(void **state)
{
    (void)state;
    const struct gl_kb *kb = gl_kb_builtin();
    assert_non_null(gl_kb_image_flavor(kb, "runtime"));
    assert_non_null(gl_kb_image_flavor(kb, "cudnn8-devel"));
    assert_non_null(gl_kb_image_flavor(kb, "cudnn7-runtime")); /* cudnn7-* */
    assert_null(gl_kb_image_flavor(kb, "cudnn6-runtime"));
    assert_string_equal(gl_kb_image_os(kb, "ubuntu24.04")->note, "from 12.5.1");
    assert_string_equal(gl_kb_image_os(kb, "ubi8")->family, "rhel_family");
    assert_null(gl_kb_image_os(kb, "ubuntu24.04 (from 12.5.1)"));
    assert_string_equal(gl_kb_image_cudart(kb, "12.4.1"), "12.4.127-1");
    const struct gl_kb_fwdcompat *f = gl_kb_image_fwdcompat(kb, "12.2.2");
    assert_non_null(f);
    assert_string_equal(f->pattern, "12.2.x");
    assert_int_equal(f->branches.count, 2);
    assert_string_equal(f->branches.items[1], "525");
    assert_string_equal(gl_kb_image_fwdcompat(kb, "11.4.1")->pattern, "11.4.0-11.4.2");
    assert_int_equal(gl_kb_image_fwdcompat(kb, "11.4.3")->branches.count, 0);
    assert_null(gl_kb_image_fwdcompat(kb, "12.7.0"));
    assert_int_equal(kb->image.registries.count, 2);
}

static void test_ngc(void **state)
{
    (void)state;
    const struct gl_kb *kb = gl_kb_builtin();
    const struct gl_kb_ngc_release *r = gl_kb_ngc_release(kb, "24.05-py3");
    assert_non_null(r);
    assert_string_equal(r->cuda, "12.4.1");
    assert_int_equal(r->stated_min_branch, 545);
    assert_string_equal(r->table3_driver, "550.54.15");
    /* a patch of a month is that month (nemo:25.04.01) */
    assert_ptr_equal(gl_kb_ngc_release(kb, "24.05.01"), gl_kb_ngc_release(kb, "24.05"));
    assert_ptr_equal(gl_kb_ngc_release(kb, "24.05.01-py3"), gl_kb_ngc_release(kb, "24.05"));
    assert_null(gl_kb_ngc_release(kb, "24.05."));
    /* a release candidate of a month too (nemo:25.04.rc2) */
    assert_ptr_equal(gl_kb_ngc_release(kb, "24.05.rc1"), gl_kb_ngc_release(kb, "24.05"));
    assert_null(gl_kb_ngc_release(kb, "24.05.rc"));
    assert_null(gl_kb_ngc_release(kb, "24.05x"));
    r = gl_kb_ngc_release(kb, "25.01");
    assert_string_equal(r->cuda, "12.8.0");
    assert_string_equal(r->cuda_text, "12.8.0 (12.8.0.038)");
    r = gl_kb_ngc_release(kb, "22.06-tf2-py3");
    assert_string_equal(r->cuda, "11.7");
    assert_null(r->table3_driver);
    r = gl_kb_ngc_release(kb, "23.02");
    assert_true(r->unverified);
    assert_null(r->source);
    r = gl_kb_ngc_release(kb, "24.01");
    assert_string_equal(r->cuda, "12.3.2");
    assert_int_equal(r->fwd_compat_drivers.count, 4);
    assert_string_equal(r->fwd_compat_drivers.items[3], "545.23");
    assert_null(gl_kb_ngc_release(kb, "25.07"));
    assert_null(gl_kb_ngc_release(kb, "24.0"));
    assert_null(gl_kb_ngc_release(kb, "24.055"));
    assert_non_null(gl_kb_ngc_container(kb, "tritonserver"));
    assert_null(gl_kb_ngc_container(kb, "note"));
}

/* Product release images (image_releases): exact tags only; an unverified row is none. */
static void test_image_releases(void **state)
{
    (void)state;
    const struct gl_kb *kb = gl_kb_builtin();
    const char *trt = "nvcr.io/nvidia/tensorrt-llm/release";
    const struct gl_kb_image_release *r = gl_kb_image_release(kb, trt, "1.0.0", NULL, NULL);
    assert_non_null(r);
    assert_string_equal(r->cuda, "12.9.1");
    assert_string_equal(r->base, "nvcr.io/nvidia/pytorch:25.06-py3");
    assert_string_equal(gl_kb_image_release(kb, trt, "1.2.0", NULL, NULL)->cuda, "13.1.0");
    assert_null(gl_kb_image_release(kb, trt, "0.21.0",
                                    NULL, NULL)); /* its base month is unverified */
    assert_null(gl_kb_image_release(kb, trt, "1.1.0rc2", NULL, NULL));
    assert_null(gl_kb_image_release(kb, trt, "1.1.0rc2.post2", NULL, NULL));
    assert_null(gl_kb_image_release(kb, trt, "1.0", NULL, NULL));
    assert_null(gl_kb_image_release(kb, "nvcr.io/nvidia/tensorrt-llm/devel", "1.0.0", NULL, NULL));
    assert_null(gl_kb_image_release(kb, trt, NULL, NULL, NULL));
    /* JAX-Toolbox's nightlies: FLAVOR-YYYY-MM-DD inside a range of its base history */
    const char *jax = "ghcr.io/nvidia/jax";
    r = gl_kb_image_release(kb, jax, "maxtext-2025-07-03", NULL, NULL); /* the first day of 25.06 */
    assert_non_null(r);
    assert_string_equal(r->cuda, "12.9.1");
    assert_string_equal(gl_kb_image_release(kb, jax, "jax-2025-07-02", NULL, NULL)->cuda, "12.8.1");
    r = gl_kb_image_release(kb, jax, "jax-scale-training-2026-04-18", NULL, NULL);
    assert_string_equal(r->cuda, "13.1.1");
    assert_string_equal(gl_kb_image_release(kb, jax, "base-2025-12-10", NULL, NULL)->cuda, "13.0");
    /* before the history, after the snapshot */
    assert_null(gl_kb_image_release(kb, jax, "jax-2024-07-23", NULL, NULL));
    assert_null(gl_kb_image_release(kb, jax, "jax-2026-07-25", NULL, NULL));
    assert_null(gl_kb_image_release(kb, jax, "jax", NULL, NULL));
    assert_null(gl_kb_image_release(kb, jax, "2025-12-10", NULL, NULL));
    assert_null(gl_kb_image_release(kb, jax, "Jax-2025-12-10", NULL, NULL));
    assert_null(gl_kb_image_release(kb, jax, "jax-2025-12-10-amd64", NULL, NULL));
    assert_null(gl_kb_image_release(kb, jax, "jax-2025-1210", NULL, NULL));
    /* dates of no calendar, which compare inside a range as strings */
    assert_null(gl_kb_image_release(kb, jax, "maxtext-2025-13-99", NULL, NULL));
    assert_null(gl_kb_image_release(kb, jax, "maxtext-2025-12-32", NULL, NULL));
    assert_null(gl_kb_image_release(kb, jax, "maxtext-2025-11-31", NULL, NULL));
    assert_null(gl_kb_image_release(kb, jax, "maxtext-2025-02-29", NULL, NULL));
    assert_null(gl_kb_image_release(kb, jax, "maxtext-2025-00-10", NULL, NULL));
    assert_null(gl_kb_image_release(kb, jax, "maxtext-2025-10-00", NULL, NULL));
    assert_non_null(gl_kb_image_release(kb, jax, "maxtext-2025-12-31", NULL, NULL));
    assert_true(gl_kb_iso_date_at("2024-02-29") && gl_kb_iso_date_at("2000-02-29"));
    assert_false(gl_kb_iso_date_at("2100-02-29") || gl_kb_iso_date_at("2025-04-31"));
    /* vLLM's unsuffixed tags: CUDA 12.9 until v0.20.0 made CUDA 13.0 the default; a
       release with no row (v0.20.1), a suffixed variant: not rows */
    const char *vllm = "vllm/vllm-openai";
    assert_string_equal(gl_kb_image_release(kb, vllm, "v0.19.1", NULL, NULL)->cuda, "12.9");
    assert_string_equal(gl_kb_image_release(kb, vllm, "v0.20.0", NULL, NULL)->cuda, "13.0");
    assert_null(gl_kb_image_release(kb, vllm, "v0.20.1", NULL, NULL));
    assert_null(gl_kb_image_release(kb, vllm, "v0.20.0-cu129", NULL, NULL));
    /* Holoscan SDK's dGPU containers (the Dockerfile at each release tag); not -igpu */
    const char *holo = "nvcr.io/nvidia/clara-holoscan/holoscan";
    r = gl_kb_image_release(kb, holo, "v3.0.0-dgpu", NULL, NULL);
    assert_non_null(r);
    assert_string_equal(r->cuda, "12.6");
    assert_string_equal(r->base, "nvcr.io/nvidia/tensorrt:24.08-py3");
    assert_null(gl_kb_image_release(kb, holo, "v3.0.0-igpu", NULL, NULL));
    assert_null(gl_kb_image_release(kb, holo, "v3.6.1-dgpu", NULL, NULL));
    /* an alias tag at a release the table pins (rayproject/ray's -gpu), the alias word's
       place; a whole tag (vllm/vllm-openai), the whole tag's */
    size_t off = 99, len = 99;
    r = gl_kb_image_release(kb, "rayproject/ray", "2.9.0-py310-gpu-aarch64", &off, &len);
    assert_non_null(r);
    assert_string_equal(r->cuda, "11.8");
    assert_int_equal(off, 12);
    assert_int_equal(len, 3);
    assert_non_null(gl_kb_image_release(kb, "rayproject/ray", "2.47.1-gpu", NULL, NULL));
    assert_null(gl_kb_image_release(kb, "rayproject/ray", "2.9.1-gpu", NULL, NULL));
    assert_null(gl_kb_image_release(kb, "rayproject/ray", "2.9.0-gpu-x86_64", NULL, NULL));
    assert_null(gl_kb_image_release(kb, "rayproject/ray", "2.9.0-cpu", NULL, NULL));
    assert_null(gl_kb_image_release(kb, "rayproject/ray", "2.9.0", NULL, NULL));
    r = gl_kb_image_release(kb, "vllm/vllm-openai", "v0.9.0", &off, &len);
    assert_string_equal(r->cuda, "12.8");
    assert_int_equal(off, 0);
    assert_int_equal(len, 6);
    assert_null(gl_kb_image_release(kb, "ghcr.io/nvidia/jax-toolbox", "jax-2025-12-10",
                                    NULL, NULL));
    /* tensorflow/serving's -gpu images, one row a release tag its Dockerfile.gpu was read
       at: the first and last release of a CUDA line, the line's change; no other tag */
    const char *tfs = "tensorflow/serving";
    r = gl_kb_image_release(kb, tfs, "2.15.1-gpu", &off, &len);
    assert_non_null(r);
    assert_string_equal(r->cuda, "12.2");
    assert_string_equal(r->base, "nvidia/cuda:12.2.0-base-ubuntu20.04");
    assert_int_equal(off, 0);
    assert_int_equal(len, 10);
    assert_string_equal(gl_kb_image_release(kb, tfs, "2.19.1-gpu", NULL, NULL)->cuda, "12.2");
    assert_string_equal(gl_kb_image_release(kb, tfs, "2.20.0-gpu", NULL, NULL)->cuda, "12.5");
    assert_string_equal(gl_kb_image_release(kb, tfs, "2.14.1-gpu", NULL, NULL)->cuda, "11.8");
    assert_string_equal(gl_kb_image_release(kb, tfs, "2.4.0-gpu", NULL, NULL)->cuda, "11.0");
    assert_string_equal(gl_kb_image_release(kb, tfs, "1.12.3-gpu", NULL, NULL)->cuda, "9.0");
    assert_null(gl_kb_image_release(kb, tfs, "2.15.0-gpu", NULL, NULL)); /* no tag 2.15.0 */
    assert_null(gl_kb_image_release(kb, tfs, "2.21.0-gpu", NULL, NULL));
    assert_null(gl_kb_image_release(kb, tfs, "latest-gpu", NULL, NULL));
    assert_null(gl_kb_image_release(kb, tfs, "2.15.1-devel-gpu", NULL, NULL));
    assert_null(gl_kb_image_release(kb, tfs, "2.15.1", NULL, NULL));
    assert_null(gl_kb_image_release(kb, "tensorflow/tensorflow", "2.15.1-gpu", NULL, NULL));
}

static void test_frameworks(void **state)
{
    (void)state;
    const struct gl_kb *kb = gl_kb_builtin();
    char cuda[16];
    const struct gl_kb_torch *row;
    assert_int_equal(gl_kb_torch_lookup(kb, "2.1.0", "cu121", cuda, sizeof cuda, &row), GL_TORCH_VARIANT_BUILT);
    assert_string_equal(cuda, "12.1");
    assert_string_equal(row->torch, "2.1");
    assert_int_equal(gl_kb_torch_lookup(kb, "2.7.1+cu128", NULL, cuda, sizeof cuda, NULL), GL_TORCH_VARIANT_BUILT);
    assert_string_equal(cuda, "12.8");
    assert_int_equal(gl_kb_torch_lookup(kb, "2.1.0", "cu124", cuda, sizeof cuda, NULL),
                     GL_TORCH_VARIANT_NOT_BUILT);
    assert_int_equal(gl_kb_torch_lookup(kb, "3.0.0", "cu130", cuda, sizeof cuda, NULL),
                     GL_TORCH_UNKNOWN_RELEASE);
    assert_int_equal(gl_kb_torch_lookup(kb, "2.1.0", "cpu", cuda, sizeof cuda, NULL), GL_TORCH_BAD_INPUT);
    assert_int_equal(gl_kb_torch_lookup(kb, "2.x", "cu121", cuda, sizeof cuda, NULL), GL_TORCH_BAD_INPUT);
    assert_true(gl_torch_variant_cuda("cu92", cuda, sizeof cuda));
    assert_string_equal(cuda, "9.2");
    assert_false(gl_torch_variant_cuda("cu1", cuda, sizeof cuda));
    assert_false(gl_torch_variant_cuda("rocm6.1", cuda, sizeof cuda));

    enum gl_kb_match how;
    const struct gl_kb_tf *tf = gl_kb_tf_lookup(kb, "2.15.1", &how);
    assert_int_equal(how, GL_KB_EXACT);
    assert_string_equal(tf->cuda, "12.2");
    assert_string_equal(gl_kb_tf_lookup(kb, "2.14", &how)->cuda, "11.8");
    tf = gl_kb_tf_lookup(kb, "1.9.0", &how);
    assert_string_equal(tf->cuda, "9");
    assert_string_equal(tf->package, "tensorflow_gpu");
    assert_string_equal(tf->first, "1.5.0");
    assert_string_equal(tf->last, "1.11.0");
    tf = gl_kb_tf_lookup(kb, "2.21.0", &how);
    assert_int_equal(how, GL_KB_NEWER_THAN_TABLE);
    assert_string_equal(tf->first, "2.18.0");

    assert_int_equal(gl_kb_jax_extra(kb, "jax[cuda12]")->cuda_major, 12);
    assert_int_equal(gl_kb_jax_extra(kb, "cuda13")->cuda_major, 13);
    assert_int_equal(gl_kb_jax_extra(kb, "cuda12_local")->cuda_major, 12);
    assert_int_equal(gl_kb_jax_extra(kb, "cuda11_cudnn82")->cuda_major, 11);
    assert_null(gl_kb_jax_extra(kb, "jax[tpu]"));

    assert_int_equal(gl_kb_pip_cuda_major(kb, "nvidia-cublas-cu12", NULL), 12);
    assert_int_equal(gl_kb_pip_cuda_major(kb, "NVIDIA_CUDNN_CU11", NULL), 11);
    assert_int_equal(gl_kb_pip_cuda_major(kb, "nvidia-cudnn-cu13", "9.13.0"), 13);
    assert_int_equal(gl_kb_pip_cuda_major(kb, "nvidia-cuda-runtime", "13.0.96"), 13);
    assert_int_equal(gl_kb_pip_cuda_major(kb, "nvidia-cuda-runtime", "12.1.105"), 0);
    assert_int_equal(gl_kb_pip_cuda_major(kb, "nvidia-cuda-runtime", NULL), 0);
    assert_int_equal(gl_kb_pip_cuda_major(kb, "nvidia-cublas-cu116", NULL), 0);
    assert_int_equal(gl_kb_pip_cuda_major(kb, "torch", NULL), 0);
}

/* ---- versions ---- */

static int cmp(const char *a, const char *b)
{
    int r = 99;
    assert_true(gl_version_compare(a, b, 0, &r));
    return r;
}

static void test_version_compare(void **state)
{
    (void)state;
    assert_int_equal(cmp("12.4", "12.4.0"), 0);
    assert_int_equal(cmp("12.4.0.0", "12.4"), 0);
    assert_int_equal(cmp("535.104.05", "535.104.5"), 0);
    assert_int_equal(cmp("10", "9"), 1);
    assert_int_equal(cmp("9.2", "10.0"), -1);
    assert_int_equal(cmp("12.10", "12.9"), 1);
    assert_int_equal(cmp("12.4.1", "12.4"), 1);
    assert_int_equal(cmp("99999999999999999999999.1", "99999999999999999999998.7"), 1);
    assert_int_equal(cmp("000000000000000000000000012", "12"), 0);
    int r;
    assert_true(gl_version_compare("12.4.1", "12.4.9", 2, &r));
    assert_int_equal(r, 0);
    assert_true(gl_version_compare("12", "12.4", 2, &r));
    assert_int_equal(r, -1);
    static const char *const bad[] = {"12.x", "", "1..2", ".1", "1.", "v12", "12 ", "-1", "1.2a", "12,4"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        assert_false(gl_version_valid(bad[i]));
        assert_false(gl_version_compare(bad[i], "1", 0, &r));
        assert_int_equal(gl_version_cmp(bad[i], "1"), -1); /* malformed sorts first */
    }
    assert_false(gl_version_valid(NULL));
    assert_int_equal(gl_version_cmp("12.x", "12.x"), 0);
    assert_int_equal(gl_version_prefix_len("12.8.0 (12.8.0.038)"), 6);
    assert_int_equal(gl_version_prefix_len("12.x"), 0);
    assert_int_equal(gl_version_prefix_len("11.7 Update 1"), 4);
    unsigned v;
    assert_true(gl_version_field("535.104.05", 2, &v));
    assert_int_equal(v, 5);
    assert_false(gl_version_field("535.104.05", 3, &v));
    assert_false(gl_version_field("99999999999", 0, &v));
    assert_int_equal(gl_driver_branch_of("535.104.05"), 535);
    assert_int_equal(gl_driver_branch_of("R535"), 0);
}

/* ---- bad files ---- */

static const char good_head[] = "meta:\n  collected: '2026-01-01'\nsources:\n  s1:\n    url: http://x\n";
static const char good_tables[] = "cuda_toolkit_drivers:\n- cuda: 12.4.1\n  linux_min_driver: 550.54.15\n"
                                  "  source: s1\n"
                                  "minor_version_compat:\n- cuda_major: 12\n  linux_min_driver: 525.60.13\n"
                                  "driver_branches:\n- branch: R550\n  max_cuda_native: '12.4'\n";

static void expect_error(const char *text, uint32_t line, const char *words)
{
    struct gl_kb *kb = (struct gl_kb *)0x1;
    struct gl_kb_error err;
    int r = gl_kb_load_text(text, strlen(text), &kb, &err);
    if (r == 0)
        fail_msg("loaded a bad file:\n%s", text);
    assert_null(kb);
    if (err.loc.line != line || !strstr(err.message, words))
        fail_msg("expected line %u '%s', got %u:%u: %s", line, words, err.loc.line, err.loc.col, err.message);
    assert_true(err.loc.col >= 1);
}

static char *concat(const char *a, const char *b)
{
    size_t na = strlen(a), nb = strlen(b);
    char *s = malloc(na + nb + 1);
    memcpy(s, a, na);
    memcpy(s + na, b, nb + 1);
    return s;
}

static void test_minimal_file_loads(void **state)
{
    (void)state;
    char *text = concat(good_head, good_tables);
    struct gl_kb *kb;
    struct gl_kb_error err;
    if (gl_kb_load_text(text, strlen(text), &kb, &err) != 0)
        fail_msg("%u:%u: %s", err.loc.line, err.loc.col, err.message);
    assert_string_equal(gl_kb_date(kb), "2026-01-01");
    assert_int_equal(kb->n_toolkits, 1);
    assert_int_equal(kb->toolkits[0].branch, 550);
    assert_int_equal(kb->n_ngc_releases, 0);
    assert_null(gl_kb_ngc_release(kb, "24.05"));
    FILE *out = fopen("/dev/null", "w");
    gl_kb_print(kb, out);
    gl_kb_print(gl_kb_builtin(), out);
    fclose(out);
    gl_kb_free(kb);
    gl_kb_free((struct gl_kb *)gl_kb_builtin()); /* no-op */
    free(text);
}

static void test_bad_files(void **state)
{
    (void)state;
    expect_error("", 1, "empty");
    expect_error("- a\n- b\n", 1, "mapping");
    expect_error("meta: [unclosed\n", 2, "syntax");
    expect_error("a: 1\n  b: 2\n", 2, "syntax");
    expect_error("meta:\n  collected: x\x01y\n", 2, "invalid text");
    expect_error("meta: &a\n  collected: '2026-01-01'\nother: *a\n", 3, "aliases");
    expect_error("a: 1\n---\nb: 2\n", 3, "single YAML document");

    struct {
        const char *tables;
        uint32_t line;
        const char *words;
    } cases[] = {
        /* lines count from the start of good_head (5 lines) */
        {"cuda_toolkit_drivers:\n- cuda: 12.x\n  linux_min_driver: 1.2\n", 7, "expected a version"},
        {"cuda_toolkit_drivers:\n- cuda: 12.4\n", 7, "missing required field 'linux_min_driver'"},
        {"cuda_toolkit_drivers:\n- cuda: 12.4\n  cuda: 12.5\n  linux_min_driver: 1\n", 8, "duplicate key"},
        {"cuda_toolkit_drivers:\n- cuda: 12.4\n  linux_min_driver: 1\n  source: nowhere\n", 9, "sources table"},
        {"cuda_toolkit_drivers:\n- cuda: 12.4\n  linux_min_driver: 1\n  unverified: maybe\n", 9, "true or false"},
        {"cuda_toolkit_drivers:\n- cuda: [12]\n  linux_min_driver: 1\n", 7, "single value"},
        {"cuda_toolkit_drivers: 5\n", 6, "list of rows"},
        {"cuda_toolkit_drivers:\n- 5\n", 7, "mapping of fields"},
        {"cuda_toolkit_drivers:\n- cuda: 12.4\n  linux_min_driver: 1\n  driver_branch: Rx\n", 9, "driver branch"},
        {"cuda_toolkit_drivers:\n- cuda: \"12.4\\0\"\n  linux_min_driver: 1\n", 7, "NUL"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        char *text = concat(good_head, cases[i].tables);
        expect_error(text, cases[i].line, cases[i].words);
        free(text);
    }
    /* deep flow nesting is refused up front (libyaml is quadratic on it) */
    char *deep = malloc(100001);
    memset(deep, '[', 100000);
    deep[100000] = 0;
    expect_error(deep, 1, "nested deeper");
    free(deep);
    /* a whole file missing a required section */
    expect_error(good_head, 1, "missing required section 'cuda_toolkit_drivers'");
    /* NUL bytes in the raw text */
    struct gl_kb *kb;
    struct gl_kb_error err;
    static const char nul[] = "meta:\n  collected: a\0b\n";
    assert_int_equal(gl_kb_load_text(nul, sizeof nul - 1, &kb, &err), -1);
    assert_int_equal(err.loc.line, 2);
}

/* 64 hex digits: a sha256 digest */
#define DIGEST "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"

static void test_bad_tables_after_good_ones(void **state)
{
    (void)state;
    char *base = concat(good_head, good_tables);
    static const struct {
        const char *extra;
        const char *words;
    } cases[] = {
        {"ngc_containers:\n  releases:\n  - tag: '24.13'\n    cuda: 12.4.1\n", "YY.MM"},
        {"ngc_containers:\n  releases:\n  - tag: '24.05'\n    cuda: about twelve\n", "starting with a version"},
        {"torch_cuda_variants:\n  releases:\n  - torch: '2.1'\n    wheel_variants: [cu12x]\n", "cuNNN"},
        {"tensorflow_cuda:\n  tested_builds_linux_gpu:\n  - tensorflow: two\n    cuda: '12.2'\n", "tensorflow"},
        {"forward_compat:\n  nvidia_cuda_image_fwdcompat_branches:\n    table:\n      12.y: ['470']\n", "range"},
        {"nvidia_cuda_image_env:\n  cudart_version_by_cuda:\n    abc: 1-1\n", "CUDA version"},
        {"forward_compat: [1]\n", "expected a mapping"},
        {"gpu_architectures:\n  families:\n  - family: X\n    compute_capability: ['9']\n",
         "expected X.Y"},
        {"gpu_architectures:\n  families:\n  - family: X\n    compute_capability: ['9.0']\n"
         "    names: [H1=8.0]\n", "NAME=CC"},
        {"gpu_architectures:\n  families:\n  - family: X\n    names: [H1]\n",
         "compute_capability"},
        {"torch_cuda_arch_lists:\n  releases:\n  - torch: '2.1'\n    variants:\n    - variant: cu121\n"
         "      sass: [sm_8x]\n", "sm_XY"},
        {"torch_cuda_arch_lists:\n  releases:\n  - torch: '2.1'\n    variants:\n    - variant: cu121\n"
         "      sass: [sm_80]\n      ptx: [sm_80]\n", "compute_XY"},
        {"torch_cuda_arch_lists:\n  releases:\n  - torch: '2.1'\n    variants:\n    - variant: cpu\n"
         "      sass: [sm_80]\n", "cuNNN"},
        {"torch_cuda_arch_lists:\n  releases:\n  - torch: '2.1'\n", "list of variants"},
        {"image_releases:\n  releases:\n  - image: nvcr.io/a/b:1\n    tag: '1'\n    cuda: 12.4\n"
         "    source: s1\n", "without a tag"},
        {"image_releases:\n  releases:\n  - image: nvcr.io/a/b\n    tag: 1 2\n    cuda: 12.4\n"
         "    source: s1\n", "one tag"},
        {"ngc_containers:\n  releases:\n  - tag: '25.06'\n    cuda: 12.9.1\n"
         "image_releases:\n  releases:\n  - image: nvcr.io/a/b\n    tag: '1'\n    cuda: 12.8.0\n"
         "    base: nvcr.io/nvidia/pytorch:25.06-py3\n    source: s1\n", "is CUDA 12.9.1"},
        {"image_releases:\n  releases:\n  - image: ghcr.io/a/b\n    dated_from: '2025-01-01'\n"
         "    cuda: 12.4\n    source: s1\n", "dated_until"},
        {"image_releases:\n  releases:\n  - image: ghcr.io/a/b\n    tag: x\n"
         "    dated_from: '2025-01-01'\n    dated_until: '2025-02-01'\n    cuda: 12.4\n"
         "    source: s1\n", "one of the three"},
        {"image_releases:\n  releases:\n  - image: ghcr.io/a/b\n    release: 2.9.0\n"
         "    cuda: 12.4\n    source: s1\n", "its alias"},
        {"image_releases:\n  releases:\n  - image: ghcr.io/a/b\n    alias: gpu\n"
         "    cuda: 12.4\n    source: s1\n", "its alias"},
        {"image_releases:\n  releases:\n  - image: ghcr.io/a/b\n    release: 2.9.0\n"
         "    alias: gpu\n    tag: x\n    cuda: 12.4\n    source: s1\n", "one of the three"},
        {"image_releases:\n  releases:\n  - image: ghcr.io/a/b\n    release: 2.9.0\n"
         "    alias: gpu-x\n    cuda: 12.4\n    source: s1\n", "its alias"},
        {"image_releases:\n  releases:\n  - image: ghcr.io/a/b\n    dated_from: '2025-02-01'\n"
         "    dated_until: '2025-01-01'\n    cuda: 12.4\n    source: s1\n", "from <= until"},
        /* a base tag's cudaX.Y token names the row's CUDA (major.minor) */
        {"image_releases:\n  releases:\n  - image: ghcr.io/a/b\n    tag: x\n    cuda: 12.8.1\n"
         "    base: nvcr.io/nvidia/cuda-dl-base:25.06-cuda12.9-devel-ubuntu24.04\n"
         "    source: s1\n", "is tagged CUDA 12.9"},
        {"image_releases:\n  releases:\n  - image: ghcr.io/a/b\n    tag: x\n    cuda: '13'\n"
         "    base: ghcr.io/a/base:cuda12.4\n    source: s1\n", "is tagged CUDA 12.4"},
        /* ... and beside a digest: the tag is still the tag */
        {"image_releases:\n  releases:\n  - image: ghcr.io/a/b\n    tag: x\n    cuda: 12.8.1\n"
         "    base: x/y:25.06-cuda12.9-devel@sha256:" DIGEST "\n    source: s1\n",
         "is tagged CUDA 12.9"},
        {"ngc_containers:\n  releases:\n  - tag: '25.06'\n    cuda: 12.9.1\n"
         "image_releases:\n  releases:\n  - image: nvcr.io/a/b\n    tag: '1'\n    cuda: 12.8.0\n"
         "    base: nvcr.io/nvidia/pytorch:25.06-py3@sha256:" DIGEST "\n    source: s1\n",
         "is CUDA 12.9.1"},
        /* ... read as the rules read tag tokens: cuXYZ too */
        {"image_releases:\n  releases:\n  - image: ghcr.io/a/b\n    tag: x\n    cuda: 12.4\n"
         "    base: ghcr.io/a/base:2.1-cu121-py3\n    source: s1\n", "is tagged CUDA 12.1"},
        {"image_releases:\n  releases:\n  - image: ghcr.io/a/b\n    tag: x\n    cuda: 12.4\n"
         "    base: ghcr.io/a/Base:1\n    source: s1\n", "base: expected an image reference"},
        /* no two rows of one image read one tag, nor overlapping dates */
        {"image_releases:\n  releases:\n  - image: ghcr.io/a/b\n    tag: v1\n    cuda: 12.4\n"
         "    source: s1\n  - image: ghcr.io/a/c\n    tag: v1\n    cuda: 12.4\n    source: s1\n"
         "  - image: ghcr.io/a/b\n    tag: v1\n    cuda: 12.6\n    source: s1\n",
         "ghcr.io/a/b:v1: another row"},
        {"image_releases:\n  releases:\n  - image: ghcr.io/a/b\n    release: 2.9.0\n"
         "    alias: gpu\n    cuda: 12.4\n    source: s1\n  - image: ghcr.io/a/b\n"
         "    release: 2.9.0\n    alias: gpu\n    cuda: 11.8\n    source: s1\n",
         "ghcr.io/a/b:2.9.0-gpu: another row"},
        {"image_releases:\n  releases:\n  - image: ghcr.io/a/b\n    release: 2.9.0\n"
         "    alias: gpu\n    cuda: 12.4\n    source: s1\n  - image: ghcr.io/a/b\n"
         "    tag: 2.9.0-gpu\n    cuda: 11.8\n    source: s1\n", "2.9.0-gpu: another row"},
        /* an alias row agrees with the tag rows of its release */
        {"image_releases:\n  releases:\n  - image: ghcr.io/a/b\n    release: 2.9.0\n"
         "    alias: gpu\n    cuda: 11.8\n    source: s1\n  - image: ghcr.io/a/b\n"
         "    tag: 2.9.0-py310-gpu\n    cuda: 12.1.1\n    source: s1\n",
         "cuda: 12.1.1, but the alias row 2.9.0-gpu of ghcr.io/a/b reads this tag with CUDA 11.8"},
        {"image_releases:\n  releases:\n  - image: ghcr.io/a/b\n    tag: 2.9.0-cu121\n"
         "    cuda: 12.1\n    source: s1\n  - image: ghcr.io/a/b\n    release: 2.9.0\n"
         "    alias: gpu\n    cuda: 11.8\n    source: s1\n",
         "cuda: 11.8, but no tag row of ghcr.io/a/b 2.9.0 gives it (one gives 12.1)"},
        {"image_releases:\n  releases:\n  - image: ghcr.io/a/b\n    dated_from: '2025-03-01'\n"
         "    dated_until: '2025-04-01'\n    cuda: 12.4\n    source: s1\n"
         "  - image: ghcr.io/a/b\n    dated_from: '2025-01-01'\n    dated_until: '2025-01-31'\n"
         "    cuda: 12.4\n    source: s1\n  - image: ghcr.io/a/b\n"
         "    dated_from: '2025-02-01'\n    dated_until: '2025-03-01'\n    cuda: 12.6\n"
         "    source: s1\n", "2025-02-01..2025-03-01 overlap another row's 2025-03-01"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        char *text = concat(base, cases[i].extra);
        struct gl_kb *kb;
        struct gl_kb_error err;
        assert_int_equal(gl_kb_load_text(text, strlen(text), &kb, &err), -1);
        if (!strstr(err.message, cases[i].words) || err.loc.line < 13)
            fail_msg("case %zu: %u:%u: %s", i, err.loc.line, err.loc.col, err.message);
        free(text);
    }
    /* ... and what those checks let through: one tag in two images, dates that touch, a
       token that agrees (beside a digest too), `cuda` inside a word, a product's `cuda-1.9`,
       a registry's port */
    char *text = concat(base, "image_releases:\n  releases:\n  - image: ghcr.io/a/b\n"
                        "    tag: v1\n    cuda: 12.9.1\n    base: x/y:25.06-cuda12.9-devel\n"
                        "    source: s1\n  - image: ghcr.io/a/c\n    tag: v1\n    cuda: 12.4\n"
                        "    base: x/nocuda12.9:mycuda12.9\n    source: s1\n"
                        "  - image: ghcr.io/a/d\n    tag: v1\n    cuda: 12.4\n"
                        "    base: x/y:2.1-cuda12-runtime\n    source: s1\n"
                        "  - image: ghcr.io/a/e\n    tag: v1\n    cuda: 12.4\n"
                        "    base: x/y:cuda-1.9-cpu\n    source: s1\n"
                        "  - image: ghcr.io/a/f\n    tag: v1\n    cuda: 12.9.1\n"
                        "    base: x/y:25.06-cuda12.9-devel@sha256:" DIGEST "\n    source: s1\n"
                        "  - image: ghcr.io/a/b\n    dated_from: '2025-02-01'\n"
                        "    dated_until: '2025-03-01'\n    cuda: 12.4\n"
                        "    base: host:5000/cuda12.9\n    source: s1\n"
                        "  - image: ghcr.io/a/b\n    dated_from: '2025-01-01'\n"
                        "    dated_until: '2025-01-31'\n    cuda: 12.4\n    source: s1\n");
    struct gl_kb *kb;
    struct gl_kb_error err;
    if (gl_kb_load_text(text, strlen(text), &kb, &err))
        fail_msg("%u:%u: %s", err.loc.line, err.loc.col, err.message);
    assert_int_equal(kb->n_image_releases, 7);
    gl_kb_free(kb);
    free(text);
    /* an alias row whose release has tag rows of several CUDA versions (one its own), a tag
       it reads that agrees, another release's rows, another image's */
    text = concat(base, "image_releases:\n  releases:\n  - image: ghcr.io/a/b\n"
                  "    release: 2.9.0\n    alias: gpu\n    cuda: 11.8\n    source: s1\n"
                  "  - image: ghcr.io/a/b\n    tag: 2.9.0-cu121\n    cuda: 12.1\n    source: s1\n"
                  "  - image: ghcr.io/a/b\n    tag: 2.9.0-cu118\n    cuda: 11.8.0\n"
                  "    source: s1\n  - image: ghcr.io/a/b\n    tag: 2.9.0-gpu-aarch64\n"
                  "    cuda: 11.8.0\n    source: s1\n  - image: ghcr.io/a/b\n"
                  "    tag: 2.9.0.post1-gpu\n    cuda: 12.1\n    source: s1\n"
                  "  - image: ghcr.io/a/b\n    release: 2.10.0\n    alias: gpu\n"
                  "    cuda: 12.1\n    source: s1\n  - image: ghcr.io/a/b\n"
                  "    tag: 2.10.0.post1-cu118\n    cuda: 11.8\n    source: s1\n"
                  "  - image: ghcr.io/a/c\n    tag: 2.9.0-py310-gpu\n    cuda: 12.1\n"
                  "    source: s1\n");
    if (gl_kb_load_text(text, strlen(text), &kb, &err))
        fail_msg("%u:%u: %s", err.loc.line, err.loc.col, err.message);
    assert_int_equal(kb->n_image_releases, 8);
    gl_kb_free(kb);
    free(text);
    free(base);
}

static void test_byte_columns(void **state)
{
    (void)state;
    /* the error is on line 7 after a 2-byte character on the same line: byte column */
    char *text = concat(good_head, "cuda_toolkit_drivers:\n- {l: \xc3\xa9, cuda: bad, linux_min_driver: 1}\n");
    struct gl_kb *kb;
    struct gl_kb_error err;
    int r = gl_kb_load_text(text, strlen(text), &kb, &err);
    free(text);
    assert_int_equal(r, -1);
    assert_int_equal(err.loc.line, 7);
    assert_int_equal(err.loc.col, 17); /* "- {l: é, cuda: " is 16 bytes */
}

static void test_files_that_are_not_facts(void **state)
{
    (void)state;
    struct gl_kb *kb;
    struct gl_kb_error err;
    assert_int_equal(gl_kb_load_file(GPULINT_SOURCE_DIR "/rules", &kb, &err), -1);
    assert_non_null(strstr(err.message, "directory"));
    assert_null(kb);
    assert_int_equal(gl_kb_load_file("/nonexistent/kb.yaml", &kb, &err), -1);
    assert_non_null(strstr(err.message, "cannot open"));
    assert_int_equal(gl_kb_load_file("/dev/null", &kb, &err), -1);
    assert_int_equal(gl_kb_load_file(GPULINT_SOURCE_DIR "/CMakeLists.txt", &kb, &err), -1);
    assert_true(err.loc.line >= 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_builtin_matches_project_facts),
        cmocka_unit_test(test_project_copy_loads),
        cmocka_unit_test(test_row_counts),
        cmocka_unit_test(test_toolkit_rows),
        cmocka_unit_test(test_mvc_and_branches),
        cmocka_unit_test(test_images),
        cmocka_unit_test(test_ngc),
        cmocka_unit_test(test_image_releases),
        cmocka_unit_test(test_frameworks),
        cmocka_unit_test(test_version_compare),
        cmocka_unit_test(test_minimal_file_loads),
        cmocka_unit_test(test_bad_files),
        cmocka_unit_test(test_bad_tables_after_good_ones),
        cmocka_unit_test(test_byte_columns),
        cmocka_unit_test(test_files_that_are_not_facts),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
