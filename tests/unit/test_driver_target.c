/* SPDX-License-Identifier: Apache-2.0 */
/* test_driver_target.c: --driver spellings, branch resolution, `host` with fake files and
 * a fake nvidia-smi. */
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

#include "knowledge/driver_target.h"

static struct gl_arena arena;

static void test_spellings(void **state)
{
    (void)state;
    struct gl_driver_target d = {0};
    assert_int_equal(gl_driver_target_parse(&d, "535.104.05", "--driver"), 0);
    assert_false(d.branch_only);
    assert_string_equal(d.version, "535.104.05");
    assert_int_equal(gl_driver_target_parse(&d, "570.26", "--driver"), 0);
    assert_int_equal(gl_driver_target_parse(&d, "R535", "--driver"), 0);
    assert_true(d.branch_only);
    assert_string_equal(d.version, "535");
    assert_int_equal(gl_driver_target_parse(&d, "535", "--driver"), 0);
    assert_true(d.branch_only);
    assert_int_equal(gl_driver_target_parse(&d, "host", "--driver"), 0);
    assert_null(d.version);
    static const char *const bad[] = {"", "R", "R535.104.05", "535.", ".535", "535..1",
                                      "v535", "535.104.05.1", "hosts", "5", "0535",
                                      "535.1234567", "535 ", "r-535"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        struct gl_driver_target keep = {.set = true, .text = "x", .version = "1.2"};
        assert_int_equal(gl_driver_target_parse(&keep, bad[i], "--driver"), -1);
        assert_string_equal(keep.version, "1.2");
    }
}

static void test_branch_resolution(void **state)
{
    (void)state;
    struct gl_driver_target d = {0};
    char note[256], buf[160];
    gl_driver_target_parse(&d, "R535", "--driver");
    assert_int_equal(gl_driver_target_resolve(&d, gl_kb_builtin(), &arena, note, sizeof note), 0);
    assert_string_equal(gl_driver_target_version(&d), "535.54.03");
    assert_string_equal(gl_driver_target_describe(&d, buf, sizeof buf),
                        "R535 (taken as 535.54.03, its first release)");
    gl_driver_target_parse(&d, "999", "--driver"); /* a branch the table does not list */
    gl_driver_target_resolve(&d, gl_kb_builtin(), &arena, note, sizeof note);
    assert_string_equal(gl_driver_target_version(&d), "999");
}

static void test_proc_and_smi_text(void **state)
{
    (void)state;
    char v[64];
    const char *proc = "NVRM version: NVIDIA UNIX x86_64 Kernel Module  535.104.05  Sat Aug 19 "
                       "01:15:15 UTC 2023\nGCC version:  gcc version 12.2.0\n";
    assert_true(gl_driver_parse_proc_version(proc, strlen(proc), v, sizeof v));
    assert_string_equal(v, "535.104.05");
    const char *open_km = "NVRM version: NVIDIA UNIX Open Kernel Module for x86_64  570.86.15  "
                          "Release Build\n";
    assert_true(gl_driver_parse_proc_version(open_km, strlen(open_km), v, sizeof v));
    assert_string_equal(v, "570.86.15");
    const char *garbage = "\x01\x02 hello 12 world\n535.104.05\n";
    assert_false(gl_driver_parse_proc_version(garbage, strlen(garbage), v, sizeof v));
    assert_false(gl_driver_parse_proc_version("", 0, v, sizeof v));
    assert_true(gl_driver_parse_smi_output("550.54.15\n550.54.15\n", 20, v, sizeof v));
    assert_string_equal(v, "550.54.15");
    assert_false(gl_driver_parse_smi_output("N/A\n", 4, v, sizeof v));
    assert_false(gl_driver_parse_smi_output("NVIDIA-SMI has failed\n", 22, v, sizeof v));
}

static int resolve_host(struct gl_driver_target *d, char *note, size_t n)
{
    gl_driver_target_parse(d, "host", "--driver");
    return gl_driver_target_resolve(d, gl_kb_builtin(), &arena, note, n);
}

static void test_host_fake_files(void **state)
{
    (void)state;
    char dir[] = "/tmp/gpulint-host-XXXXXX";
    assert_non_null(mkdtemp(dir));
    char file[256], smi[256], note[512];
    snprintf(file, sizeof file, "%s/version", dir);
    snprintf(smi, sizeof smi, "%s/nvidia-smi", dir);
    struct gl_driver_target d;

    /* present */
    FILE *f = fopen(file, "w");
    fputs("NVRM version: NVIDIA UNIX x86_64 Kernel Module  535.104.05  Sat Aug 19\n", f);
    fclose(f);
    setenv("GPULINT_DRIVER_VERSION_FILE", file, 1);
    setenv("GPULINT_NVIDIA_SMI", "none", 1);
    assert_int_equal(resolve_host(&d, note, sizeof note), 0);
    assert_true(d.set);
    assert_string_equal(gl_driver_target_version(&d), "535.104.05");

    /* garbage, no nvidia-smi: no target */
    f = fopen(file, "w");
    fputs("\xff\xfe garbage \0 535\n", f);
    fclose(f);
    assert_int_equal(resolve_host(&d, note, sizeof note), 0);
    assert_false(d.set);
    assert_null(gl_driver_target_version(&d));
    assert_non_null(strstr(note, "no driver version"));

    /* absent file, fake nvidia-smi answers */
    unlink(file);
    f = fopen(smi, "w");
    fputs("#!/bin/sh\necho 550.54.15\n", f);
    fclose(f);
    chmod(smi, 0755);
    setenv("GPULINT_NVIDIA_SMI", smi, 1);
    assert_int_equal(resolve_host(&d, note, sizeof note), 0);
    assert_true(d.set);
    assert_string_equal(gl_driver_target_version(&d), "550.54.15");

    /* a failing nvidia-smi */
    f = fopen(smi, "w");
    fputs("#!/bin/sh\necho 'NVIDIA-SMI has failed'\nexit 9\n", f);
    fclose(f);
    assert_int_equal(resolve_host(&d, note, sizeof note), 0);
    assert_false(d.set);

    /* a missing nvidia-smi */
    unlink(smi);
    assert_int_equal(resolve_host(&d, note, sizeof note), 0);
    assert_false(d.set);
    rmdir(dir);
    unsetenv("GPULINT_DRIVER_VERSION_FILE");
    unsetenv("GPULINT_NVIDIA_SMI");
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
        cmocka_unit_test(test_spellings),
        cmocka_unit_test(test_branch_resolution),
        cmocka_unit_test(test_proc_and_smi_text),
        cmocka_unit_test(test_host_fake_files),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
