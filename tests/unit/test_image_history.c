/* SPDX-License-Identifier: Apache-2.0 */
/* Unit tests: parsers/image/image_history.h (which history entries are RUNs in the forms
 * BuildKit, the classic builder and other tools write; their build arguments and the
 * config's Env as variables; the layer each entry made; the installs and removals read
 * as a Dockerfile's RUN lines are). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "parsers/image/image_history.h"

static struct gl_arena A;

static int setup(void **state)
{
    (void)state;
    gl_arena_init(&A);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    gl_arena_free(&A);
    return 0;
}

/* A config of these history entries (empty[i]: empty_layer) and Env. */
static void read_history(const char *const *cb, const bool *empty, size_t n,
                         const char *const *env, size_t nenv, struct gl_image_history **h,
                         struct gl_dockerfile_model **run)
{
    struct gl_image_config c;
    memset(&c, 0, sizeof c);
    c.created_by = (const char **)cb;
    c.empty_layer = (bool *)empty;
    c.ncreated_by = n;
    c.env = (const char **)env;
    c.nenv = nenv;
    size_t nh;
    gl_image_history_read(&A, &c, h, &nh, run);
    assert_int_equal(nh, n);
}

static void run_forms(void **state)
{
    (void)state;
    static const char *const cb[] = {
        "/bin/sh -c #(nop) ADD file:abc in / ",
        "/bin/sh -c #(nop)  ENV A=1",
        "RUN |2 BR=555 X=y /bin/sh -c apt-get install -y cuda-drivers-${BR} # buildkit",
        "ENV NVIDIA_DRIVER_CAPABILITIES=compute",
        "|1 P=gcc /bin/bash -o pipefail -c apt-get install -y $P",
        "RUN apt-get install -y cmake # buildkit",
        "COPY apt-get install -y nope /x # buildkit",
        NULL,
        "umoci raw add-layer --image oci:x l.tar",
        "RUN --mount=type=cache,target=/var/cache/apt /bin/sh -c apt-get install -y g++ # buildkit",
    };
    static const bool empty[] = {false, true, false, true, false, false, false, true, false,
                                 false};
    struct gl_image_history *h;
    struct gl_dockerfile_model *m;
    read_history(cb, empty, 10, NULL, 0, &h, &m);
    assert_null(h[0].run); /* a comment to the shell: nothing runs */
    assert_int_equal(h[0].layer, 0);
    assert_int_equal(h[1].layer, -1);
    assert_string_equal(h[2].run, "apt-get install -y cuda-drivers-${BR}");
    assert_int_equal(h[2].layer, 1);
    assert_null(h[3].run);
    assert_string_equal(h[4].run, "apt-get install -y $P");
    assert_string_equal(h[5].run, "apt-get install -y cmake");
    assert_null(h[6].run);
    assert_null(h[7].run);
    assert_int_equal(h[8].layer, 5);
    assert_string_equal(h[9].run, "apt-get install -y g++");
    assert_int_equal(m->npkgs, 4);
    assert_string_equal(m->pkgs[3].name, "g++");
    assert_string_equal(m->pkgs[0].name, "cuda-drivers-555");
    assert_int_equal(m->pkgs[0].instr, 2);
    assert_int_equal(m->pkgs[0].loc.line, 1);
    assert_int_equal(m->pkgs[0].loc.col, 20);
    assert_string_equal(m->pkgs[1].name, "gcc");
    assert_int_equal(m->pkgs[1].instr, 4);
    assert_string_equal(m->pkgs[2].name, "cmake");
    assert_int_equal(m->pkgs[2].instr, 5);
}

static void env_and_removals(void **state)
{
    (void)state;
    static const char *const cb[] = {
        "/bin/sh -c apt-get install -y cuda-libraries-dev-$CUDA_PKG_VERSION $UNKNOWN",
        "/bin/sh -c apt-get install -y gcc; apt-get purge -y --auto-remove",
        "/bin/sh -c apt-get purge -y nvidia-utils-535",
    };
    static const bool empty[] = {false, false, false};
    static const char *const env[] = {"CUDA_PKG_VERSION=12-4=12.4.1-1", "PATH=/bin"};
    struct gl_image_history *h;
    struct gl_dockerfile_model *m;
    read_history(cb, empty, 3, env, 2, &h, &m);
    assert_int_equal(m->npkgs, 2); /* $UNKNOWN is opaque: no package */
    assert_string_equal(m->pkgs[0].name, "cuda-libraries-dev-12-4");
    assert_string_equal(m->pkgs[1].name, "gcc");
    assert_int_equal(m->nremovals, 2);
    assert_true(m->removals[0].automatic);
    assert_string_equal(m->removals[0].name, "");
    assert_int_equal(m->removals[0].instr, 1);
    assert_string_equal(m->removals[1].name, "nvidia-utils-535");
    assert_int_equal(m->removals[1].instr, 2);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(run_forms, setup, teardown),
        cmocka_unit_test_setup_teardown(env_and_removals, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
