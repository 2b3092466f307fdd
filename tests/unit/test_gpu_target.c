/* SPDX-License-Identifier: Apache-2.0 */
/* test_gpu_target.c: SM numbers and where code runs (gpu_arch.h), --gpu names and `host`
 * with a fake nvidia-smi (gpu_target.h), and arch-list syntax (arch_list.h). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "knowledge/arch_list.h"
#include "knowledge/gpu_target.h"

static struct gl_arena arena;

static struct gl_arch A(const char *s)
{
    struct gl_arch a;
    if (!gl_arch_parse(s, strlen(s), &a))
        fail_msg("not an arch: %s", s);
    return a;
}

static bool runs(const char *arch, unsigned target)
{
    struct gl_arch a = A(arch);
    return gl_arch_runs_on(&a, target);
}

/* NVIDIA's rules: SASS on the same major at an equal or higher minor; 'a' only on its own
 * CC; PTX at or below the target JITs. */
static void test_runs_on(void **state)
{
    (void)state;
    assert_true(runs("sm_80", 80));
    assert_true(runs("sm_80", 86));
    assert_true(runs("sm_80", 89));
    assert_false(runs("sm_80", 90));
    assert_false(runs("sm_86", 80));
    assert_false(runs("sm_90", 100));
    assert_true(runs("sm_100", 103));
    assert_true(runs("sm_120", 121));
    assert_false(runs("sm_120", 100));
    assert_true(runs("sm_90a", 90));
    assert_false(runs("sm_90a", 100));
    assert_false(runs("sm_100a", 103));
    assert_true(runs("sm_100f", 103));
    assert_true(runs("compute_80", 90));
    assert_true(runs("compute_80", 120));
    assert_true(runs("compute_90", 90));
    assert_false(runs("compute_90", 89));
    assert_false(runs("compute_90a", 100));
    assert_true(runs("compute_100f", 103));
    assert_false(runs("compute_100f", 120));
    struct gl_arch list[] = {A("sm_80"), A("sm_86")};
    assert_true(gl_arch_list_covers(list, 2, 89));
    assert_false(gl_arch_list_covers(list, 2, 90));
    assert_false(gl_arch_list_covers(list, 0, 90));
}

static void test_parse(void **state)
{
    (void)state;
    struct gl_arch a;
    unsigned sm;
    assert_true(gl_arch_parse("sm_90a", 6, &a));
    assert_int_equal(a.sm, 90);
    assert_int_equal(a.suffix, 'a');
    assert_int_equal(a.code, GL_ARCH_SASS);
    assert_true(gl_arch_parse("compute_120", 11, &a));
    assert_int_equal(a.code, GL_ARCH_PTX);
    assert_int_equal(a.sm, 120);
    assert_false(gl_arch_parse("sm_", 3, &a));
    assert_false(gl_arch_parse("sm_9", 4, &a));
    assert_false(gl_arch_parse("sm_0900", 7, &a));
    assert_false(gl_arch_parse("sm_90b", 6, &a));
    assert_false(gl_arch_parse("compute", 7, &a));
    assert_true(gl_sm_parse("9.0", 3, &sm));
    assert_int_equal(sm, 90);
    assert_true(gl_sm_parse("10.3", 4, &sm));
    assert_int_equal(sm, 103);
    assert_true(gl_sm_parse("120", 3, &sm));
    assert_int_equal(sm, 120);
    assert_false(gl_sm_parse("9.10", 4, &sm));
    assert_false(gl_sm_parse(".9", 2, &sm));
    assert_false(gl_sm_parse("9.", 2, &sm));
    assert_false(gl_sm_parse("9", 1, &sm));
    char buf[32];
    assert_string_equal(gl_arch_name(&a, buf, sizeof buf), "compute_120");
    assert_string_equal(gl_sm_cc(103, buf, sizeof buf), "10.3");
}

/* The SMs a name means (0 terminated list), or NULL for an unknown name. */
static void expect_name(const char *name, const unsigned *want)
{
    unsigned sms[GL_GPU_TARGETS_MAX];
    size_t n;
    bool ok = gl_gpu_name_lookup(gl_kb_builtin(), name, sms, GL_GPU_TARGETS_MAX, &n);
    if (!want) {
        if (ok)
            fail_msg("`%s` should be unknown", name);
        return;
    }
    if (!ok)
        fail_msg("`%s` should be known", name);
    size_t k = 0;
    for (; want[k]; k++) {
        if (k >= n || sms[k] != want[k])
            fail_msg("`%s`: SM %zu is %u, expected %u", name, k, k < n ? sms[k] : 0, want[k]);
    }
    assert_int_equal(n, k);
}

static void test_names(void **state)
{
    (void)state;
    static const unsigned h100[] = {90, 0}, a100[] = {80, 0}, l4[] = {89, 0}, b200[] = {100, 0},
                          ampere[] = {80, 86, 0}, k80[] = {37, 0}, rtx5090[] = {120, 0},
                          v100[] = {70, 0}, blackwell[] = {100, 103, 120, 121, 0};
    expect_name("H100", h100);
    expect_name("h100-sxm", h100);
    expect_name("NVIDIA H100 80GB HBM3", h100);
    expect_name("H100 PCIe", h100);
    expect_name("hopper", h100);
    expect_name("sm_90", h100);
    expect_name("sm_90a", h100);
    expect_name("9.0", h100);
    expect_name("90", h100);
    expect_name("A100", a100);
    expect_name("NVIDIA A100-SXM4-40GB", a100);
    expect_name("L4", l4);
    expect_name("RTX 4090", l4);
    expect_name("NVIDIA GeForce RTX 4090", l4);
    expect_name("B200", b200);
    expect_name("Ampere", ampere);
    expect_name("K80", k80);
    expect_name("Tesla V100-SXM2-32GB", v100);
    expect_name("rtx_5090", rtx5090);
    expect_name("Blackwell", blackwell);
    expect_name("H101", NULL);
    expect_name("95", NULL);
    expect_name("sm_99", NULL);
    expect_name("nvidia", NULL);
    expect_name("", NULL);
    expect_name("RTX 6000", NULL); /* Quadro RTX 6000 (Turing) or RTX 6000 Ada: ambiguous */
}

static void test_smi_output(void **state)
{
    (void)state;
    unsigned sms[8];
    size_t n;
    assert_true(gl_gpu_parse_smi_output("9.0\n9.0\n8.6\r\n", 13, sms, 8, &n));
    assert_int_equal(n, 2);
    assert_int_equal(sms[0], 90);
    assert_int_equal(sms[1], 86);
    assert_false(gl_gpu_parse_smi_output("", 0, sms, 8, &n));
    assert_false(gl_gpu_parse_smi_output("[N/A]\n", 6, sms, 8, &n));
    assert_false(gl_gpu_parse_smi_output("90\n", 3, sms, 8, &n));
}

static int resolve(const char *name, struct gl_gpu_targets *t, char *note, size_t n)
{
    memset(t, 0, sizeof *t);
    assert_int_equal(gl_gpu_targets_add(t, &arena, name), 0);
    return gl_gpu_targets_resolve(t, gl_kb_builtin(), &arena, note, n);
}

static void test_targets_and_host(void **state)
{
    (void)state;
    struct gl_gpu_targets t = {0};
    char note[1024], buf[256];
    assert_int_equal(gl_gpu_targets_add(&t, &arena, "H100"), 0);
    assert_int_equal(gl_gpu_targets_add(&t, &arena, "sm_90"), 0);
    assert_int_equal(gl_gpu_targets_add(&t, &arena, "A10"), 0);
    assert_int_equal(gl_gpu_targets_add(&t, &arena, ""), -1);
    assert_int_equal(gl_gpu_targets_resolve(&t, gl_kb_builtin(), &arena, note, sizeof note), 0);
    assert_int_equal(t.nsms, 2); /* H100 and sm_90 are one SM */
    assert_string_equal(gl_gpu_target_describe(&t.sms[0], buf, sizeof buf), "H100 (Hopper, sm_90)");
    assert_string_equal(gl_gpu_target_describe(&t.sms[1], buf, sizeof buf),
                        "A10 (Ampere (GA10x), sm_86)");
    assert_int_equal(resolve("Z9000", &t, note, sizeof note), -1);
    assert_non_null(strstr(note, "`Z9000` is no GPU"));
    assert_non_null(strstr(note, "Hopper"));

    char dir[] = "/tmp/gpulint-gpu-XXXXXX", smi[256];
    assert_non_null(mkdtemp(dir));
    snprintf(smi, sizeof smi, "%s/nvidia-smi", dir);
    FILE *f = fopen(smi, "w");
    fputs("#!/bin/sh\n[ \"$1\" = --query-gpu=compute_cap ] || exit 3\necho 8.9\necho 9.0\n", f);
    fclose(f);
    chmod(smi, 0755);
    setenv("GPULINT_NVIDIA_SMI", smi, 1);
    assert_int_equal(resolve("host", &t, note, sizeof note), 0);
    assert_int_equal(t.nsms, 2);
    assert_int_equal(t.sms[0].sm, 89);
    assert_string_equal(gl_gpu_target_describe(&t.sms[1], buf, sizeof buf),
                        "this host's GPU (Hopper, sm_90)");
    f = fopen(smi, "w");
    fputs("#!/bin/sh\necho 'NVIDIA-SMI has failed'\nexit 9\n", f);
    fclose(f);
    assert_int_equal(resolve("host", &t, note, sizeof note), -1);
    assert_non_null(strstr(note, "no GPU found"));
    unlink(smi);
    rmdir(dir);
    setenv("GPULINT_NVIDIA_SMI", "none", 1);
    assert_int_equal(resolve("host", &t, note, sizeof note), -1);
    unsetenv("GPULINT_NVIDIA_SMI");
}

/* An arch list as "sm_80 compute_86 ..." or "opaque", into buf (returned). */
static const char *list_text(const struct gl_arch_list *l, char *buf, size_t n)
{
    size_t o = 0;
    snprintf(buf, n, "opaque");
    for (size_t i = 0; i < l->narchs && !l->opaque; i++) {
        char one[32];
        o += (size_t)snprintf(buf + o, n - o, "%s%s", i ? " " : "", gl_arch_name(&l->archs[i], one, sizeof one));
    }
    return buf;
}

/* The arch list a value gives. */
static const char *read_list(enum gl_arch_syntax syntax, const char *value, char *buf, size_t n)
{
    struct gl_arch_list l = {0};
    gl_arch_list_read(&l, &arena, syntax, value);
    return list_text(&l, buf, n);
}

static void test_arch_lists(void **state)
{
    (void)state;
    static const struct {
        enum gl_arch_syntax syntax;
        const char *value, *want;
    } cases[] = {
        {GL_ARCHS_TORCH, "8.0;8.6+PTX", "sm_80 sm_86 compute_86"},
        {GL_ARCHS_TORCH, "8.0 8.6", "sm_80 sm_86"},
        {GL_ARCHS_TORCH, "Ampere", "sm_80 sm_86 compute_86"},
        {GL_ARCHS_TORCH, "9.0a;10.0", "sm_90a sm_100"},
        {GL_ARCHS_TORCH, "Kepler+Tesla;Turing", "sm_37 sm_75 compute_75"},
        {GL_ARCHS_TORCH, "8.0,8.6", "opaque"},
        {GL_ARCHS_TORCH, "sm_80", "opaque"},
        {GL_ARCHS_TORCH, "", "opaque"},
        {GL_ARCHS_TORCH, NULL, "opaque"},
        {GL_ARCHS_CMAKE, "80;90-real;90-virtual", "sm_80 compute_80 sm_90 compute_90"},
        {GL_ARCHS_CMAKE, "100a-real", "sm_100a"},
        {GL_ARCHS_CMAKE, "native", "opaque"},
        {GL_ARCHS_CMAKE, "all-major", "opaque"},
        {GL_ARCHS_CMAKE, "80;all", "opaque"},
        {GL_ARCHS_CMAKE, "OFF", "opaque"},
        {GL_ARCHS_CMAKE, "8.0", "opaque"},
        {GL_ARCHS_TCNN, "75,86", "sm_75 compute_75 sm_86 compute_86"},
        {GL_ARCHS_TCNN, "86-real", "opaque"},
        /* NCCL's make variable: nvcc flags separated by blanks */
        {GL_ARCHS_NVCC, "-gencode=arch=compute_80,code=sm_80 -gencode=arch=compute_90,code=sm_90",
         "sm_80 sm_90"},
        {GL_ARCHS_NVCC, "  -gencode arch=compute_70,code=compute_70\n", "compute_70"},
        {GL_ARCHS_NVCC, "-O3 -lineinfo", "opaque"},
        {GL_ARCHS_NVCC, "-gencode=arch=compute_80,code=sm_80 -gencode=$EXTRA", "opaque"},
        {GL_ARCHS_NVCC, "", "opaque"},
        {GL_ARCHS_NVCC, NULL, "opaque"},
    };
    char b[512];
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        if (strcmp(read_list(cases[i].syntax, cases[i].value, b, sizeof b), cases[i].want))
            fail_msg("`%s`: %s, expected %s", cases[i].value ? cases[i].value : "(null)", b,
                     cases[i].want);
    }
    enum gl_arch_syntax s;
    assert_true(gl_arch_syntax_of("CUDAARCHS", &s));
    assert_int_equal(s, GL_ARCHS_CMAKE);
    assert_false(gl_arch_syntax_of("CUDA_ARCHITECTURES", &s));
    assert_true(gl_arch_syntax_of("NVCC_GENCODE", &s));
    assert_int_equal(s, GL_ARCHS_NVCC);
    assert_false(gl_arch_syntax_of("NVCC_FLAGS", &s));
}

static long nvcc(const char *const *argv, size_t n, char *buf, size_t cap)
{
    struct gl_word w[16];
    for (size_t i = 0; i < n; i++)
        w[i] = gl_word_make(argv[i], (struct gl_loc){1, 1}, false);
    struct gl_arch_list l = {0};
    long at = gl_arch_list_read_nvcc(&l, &arena, w, n);
    if (at >= 0)
        list_text(&l, buf, cap);
    return at;
}

static void test_nvcc(void **state)
{
    (void)state;
    char b[256];
    const char *g1[] = {"nvcc", "-O3", "-gencode", "arch=compute_80,code=sm_80", "x.cu"};
    assert_int_equal(nvcc(g1, 5, b, sizeof b), 2);
    assert_string_equal(b, "sm_80");
    const char *g2[] = {"nvcc", "-gencode=arch=compute_90,code=[sm_90,compute_90]"};
    assert_int_equal(nvcc(g2, 2, b, sizeof b), 1);
    assert_string_equal(b, "sm_90 compute_90");
    const char *g3[] = {"nvcc", "-arch=sm_86", "x.cu"};
    nvcc(g3, 3, b, sizeof b);
    assert_string_equal(b, "sm_86 compute_86");
    const char *g4[] = {"nvcc", "--gpu-architecture", "compute_80", "--gpu-code=sm_80,sm_86"};
    nvcc(g4, 4, b, sizeof b);
    assert_string_equal(b, "sm_80 sm_86");
    const char *g5[] = {"nvcc", "-arch=native", "x.cu"};
    nvcc(g5, 3, b, sizeof b);
    assert_string_equal(b, "opaque");
    const char *g6[] = {"nvcc", "-c", "x.cu"};
    assert_int_equal(nvcc(g6, 3, b, sizeof b), -1);
    const char *g7[] = {"nvcc", "-gencode"};
    nvcc(g7, 2, b, sizeof b);
    assert_string_equal(b, "opaque");
}

static void test_knowledge_rows(void **state)
{
    (void)state;
    const struct gl_kb *kb = gl_kb_builtin();
    const struct gl_kb_gpu_family *f = gl_kb_gpu_family_of_sm(kb, 37);
    assert_non_null(f);
    assert_string_equal(f->removed_in_cuda, "12.0");
    assert_int_equal(f->last_driver_branch, 470);
    f = gl_kb_gpu_family_of_sm(kb, 86);
    assert_string_equal(f->first_cuda, "11.1");
    f = gl_kb_gpu_family_of_sm(kb, 70);
    assert_string_equal(f->removed_in_cuda, "13.0");
    assert_string_equal(gl_kb_gpu_family_of_sm(kb, 100)->first_cuda, "12.8");
    assert_null(gl_kb_gpu_family_of_sm(kb, 99));
    const struct gl_kb_torch_arch *t = gl_kb_torch_arch(kb, "2.7.1", "cu128");
    assert_non_null(t);
    struct gl_arch archs[32];
    size_t n = gl_torch_arch_entries(t, archs, 32);
    assert_int_equal(n, 6);
    assert_false(gl_arch_list_covers(archs, n, 70));
    assert_true(gl_arch_list_covers(archs, n, 100));
    t = gl_kb_torch_arch(kb, "2.9", "cu130");
    n = gl_torch_arch_entries(t, archs, 32);
    assert_int_equal(n, 7); /* 12.0+PTX */
    assert_int_equal(archs[6].code, GL_ARCH_PTX);
    assert_null(gl_kb_torch_arch(kb, "2.1", "cu128"));
    assert_true(gl_kb_torch_arch(kb, "2.6", "cu126")->unverified);
}

/* What an NGC month's builds can run on: the lowest SM its CUDA still targets, raised by
 * the compute capability its notes state. */
static void test_ngc_lowest(void **state)
{
    (void)state;
    const struct gl_kb *kb = gl_kb_builtin();
    assert_int_equal(gl_kb_cuda_lowest_sm(kb, "13.0.0"), 75);
    assert_int_equal(gl_kb_cuda_lowest_sm(kb, "12.4.1"), 50);
    assert_int_equal(gl_kb_cuda_lowest_sm(kb, "11.8.0"), 35);
    assert_int_equal(gl_kb_cuda_lowest_sm(kb, "10.2"), 30);
    assert_int_equal(gl_kb_cuda_lowest_sm(kb, "x"), 0);
    assert_int_equal(gl_kb_ngc_lowest_sm(kb, gl_kb_ngc_release(kb, "25.08-py3")), 75);
    assert_int_equal(gl_kb_ngc_lowest_sm(kb, gl_kb_ngc_release(kb, "25.06-py3")), 50);
    assert_int_equal(gl_kb_ngc_lowest_sm(kb, gl_kb_ngc_release(kb, "23.01-py3")), 50);
    assert_int_equal(gl_kb_ngc_lowest_sm(kb, gl_kb_ngc_release(kb, "22.12-py3")), 35);
    assert_string_equal(gl_kb_ngc_release(kb, "26.02")->min_cc, "7.5");
    assert_null(gl_kb_ngc_release(kb, "26.03")->min_cc);
    assert_int_equal(gl_kb_ngc_lowest_sm(kb, NULL), 0);
    /* a stated minimum above what the CUDA targets decides */
    static const char text[] =
        "meta:\n  collected: '2026-01-01'\nsources:\n  s1:\n    url: http://x\n"
        "cuda_toolkit_drivers:\n- cuda: 12.4.1\n  linux_min_driver: 550.54.15\n  source: s1\n"
        "minor_version_compat:\n- cuda_major: 12\n  linux_min_driver: 525.60.13\n"
        "driver_branches:\n- branch: R550\n  max_cuda_native: '12.4'\n"
        "ngc_containers:\n  releases:\n  - tag: '24.05'\n    cuda: 12.4.1\n"
        "    min_compute_capability: '8.0'\n  - tag: '24.06'\n    cuda: 12.5.0\n"
        "gpu_architectures:\n  families:\n  - family: Kepler\n    compute_capability: ['3.7']\n"
        "    removed_in_cuda: '12.0'\n  - family: Maxwell\n    compute_capability: ['5.0', '5.2']\n"
        "    first_cuda: '6.5'\n  - family: Ampere\n    compute_capability: ['8.0']\n"
        "    first_cuda: '11.0'\n";
    struct gl_kb *mine;
    struct gl_kb_error err;
    if (gl_kb_load_text(text, strlen(text), &mine, &err) != 0)
        fail_msg("%u:%u: %s", err.loc.line, err.loc.col, err.message);
    assert_int_equal(gl_kb_ngc_lowest_sm(mine, gl_kb_ngc_release(mine, "24.05")), 80);
    assert_int_equal(gl_kb_ngc_lowest_sm(mine, gl_kb_ngc_release(mine, "24.06")), 50);
    gl_kb_free(mine);
}

static int setup(void **state)
{
    (void)state;
    gl_arena_init(&arena);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    gl_arena_free(&arena);
    return 0;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_runs_on),          cmocka_unit_test(test_parse),
        cmocka_unit_test(test_names),            cmocka_unit_test(test_smi_output),
        cmocka_unit_test(test_targets_and_host), cmocka_unit_test(test_arch_lists),
        cmocka_unit_test(test_nvcc),             cmocka_unit_test(test_knowledge_rows),
        cmocka_unit_test(test_ngc_lowest),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
