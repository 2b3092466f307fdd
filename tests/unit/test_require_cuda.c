/* SPDX-License-Identifier: Apache-2.0 */
/* test_require_cuda.c: NVIDIA_REQUIRE_CUDA evaluated as libnvidia-container does. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>

#include "rules/gl2xx/cuda_require.h"

static const struct gl_require_target r535 = {"535.104.05", "12.2", true};

static enum gl_require_result eval(const char *expr, const struct gl_require_target *t,
                                   struct gl_require_outcome *o)
{
    struct gl_require_outcome local;
    return gl_require_cuda_eval(expr, t, o ? o : &local);
}

static void test_cuda_only(void **state)
{
    (void)state;
    assert_int_equal(eval("cuda>=12.2", &r535, NULL), GL_REQUIRE_MET);
    assert_int_equal(eval("cuda>=12.2.0", &r535, NULL), GL_REQUIRE_MET);
    struct gl_require_outcome o;
    assert_int_equal(eval("cuda>=12.4", &r535, &o), GL_REQUIRE_UNMET);
    assert_int_equal(o.off, 0);
    assert_int_equal(o.len, 10);
    assert_int_equal(eval("CUDA>=12.4", &r535, NULL), GL_REQUIRE_UNMET); /* case-insensitive */
}

static void test_brand_alternatives(void **state)
{
    (void)state;
    /* the nvidia/cuda 12.4.1 images: brand alternatives for R535 may hold */
    assert_int_equal(eval("cuda>=12.4 brand=tesla,driver>=470,driver<471 "
                          "brand=tesla,driver>=535,driver<536",
                          &r535, NULL),
                     GL_REQUIRE_UNKNOWN);
    /* no alternative for R535: every brand clause is pinned to other branches */
    struct gl_require_outcome o;
    assert_int_equal(eval("cuda>=12.4 brand=tesla,driver>=470,driver<471 "
                          "brand=unknown,driver>=525,driver<526",
                          &r535, &o),
                     GL_REQUIRE_UNMET);
    assert_int_equal(o.len, strlen("cuda>=12.4"));
    /* AND of true predicates */
    assert_int_equal(eval("driver>=535,driver<536", &r535, NULL), GL_REQUIRE_MET);
    /* empty pieces are skipped */
    assert_int_equal(eval("  cuda>=12.0,,  ", &r535, NULL), GL_REQUIRE_MET);
    assert_int_equal(eval("", &r535, NULL), GL_REQUIRE_MET);
}

static void test_invalid(void **state)
{
    (void)state;
    struct gl_require_outcome o;
    assert_int_equal(eval("cuda>=12.x", &r535, &o), GL_REQUIRE_INVALID);
    assert_int_equal(eval("gpu>=1", &r535, &o), GL_REQUIRE_INVALID);
    assert_int_equal(eval("cuda=>12.0", &r535, &o), GL_REQUIRE_INVALID);
    assert_int_equal(eval("cuda>=", &r535, &o), GL_REQUIRE_INVALID);
    assert_int_equal(eval("brand>=tesla", &r535, &o), GL_REQUIRE_INVALID);
    assert_int_equal(eval("cuda>=12.0 gpu>=1", &r535, &o), GL_REQUIRE_MET); /* never reached */
    assert_int_equal(eval("cuda>=13.0,gpu>=1", &r535, &o), GL_REQUIRE_UNMET); /* not reached */
    assert_int_equal(eval("cuda>=13.0 gpu>=1", &r535, &o), GL_REQUIRE_INVALID);
    assert_int_equal(o.off, 11);
    assert_int_equal(o.len, 6);
}

static void test_inexact_driver_cuda(void **state)
{
    (void)state;
    const struct gl_require_target t = {"620.10", "13.2", false}; /* lower bound only */
    assert_int_equal(eval("cuda>=13.0", &t, NULL), GL_REQUIRE_MET);
    assert_int_equal(eval("cuda>=13.5", &t, NULL), GL_REQUIRE_UNKNOWN);
    const struct gl_require_target none = {"535.104.05", NULL, false};
    assert_int_equal(eval("cuda>=12.0", &none, NULL), GL_REQUIRE_UNKNOWN);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cuda_only),
        cmocka_unit_test(test_brand_alternatives),
        cmocka_unit_test(test_invalid),
        cmocka_unit_test(test_inexact_driver_cuda),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
