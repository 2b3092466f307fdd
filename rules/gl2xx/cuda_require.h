/* SPDX-License-Identifier: Apache-2.0 */
/*
 * cuda_require.h: evaluate an NVIDIA_REQUIRE_CUDA expression against a target driver the
 * way libnvidia-container's prestart check does (src/cli/dsl.c), in three-valued logic.
 *
 * Grammar: alternatives separated by single spaces are OR-ed; each alternative is a
 * comma-separated list of predicates that are AND-ed; empty pieces are skipped. A
 * predicate is NAME OP VALUE with OP one of = != < <= > >= (the longest run of those
 * characters) and NAME compared case-insensitively:
 *   cuda    the driver's CUDA version (the newest CUDA it supports natively), numeric
 *   driver  the driver version, numeric (535 == 535.0.0 < 535.104.05)
 *   arch    the GPU architecture, numeric   -> unknown to a static check
 *   brand   the GPU brand (tesla, nvidia...), = and != only -> unknown
 * An unknown name, a bad operator, an empty or non-numeric value makes the whole
 * expression invalid when that predicate is reached (evaluation is left to right, an
 * alternative stops at its first false predicate and the first true alternative wins).
 * Before any predicate is evaluated an empty alternative counts as true, after one as false.
 *
 * Unknown predicates (brand, arch, and cuda when the driver's CUDA is only a lower bound)
 * count as possibly true: the result is UNMET only when no alternative can hold, INVALID
 * only when the bad predicate is certainly reached.
 */
#ifndef GPULINT_RULES_CUDA_REQUIRE_H
#define GPULINT_RULES_CUDA_REQUIRE_H

#include <stdbool.h>
#include <stddef.h>

enum gl_require_result {
    GL_REQUIRE_MET,      /* some alternative certainly holds */
    GL_REQUIRE_UNKNOWN,  /* depends on the GPU (brand, arch) or on unknown driver facts */
    GL_REQUIRE_UNMET,    /* no alternative can hold: the container toolkit refuses */
    GL_REQUIRE_INVALID,  /* the toolkit rejects the expression itself */
};

struct gl_require_target {
    const char *driver;       /* "535.104.05" */
    const char *driver_cuda;  /* "12.2"; NULL when unknown */
    bool driver_cuda_exact;   /* false: driver_cuda is only a lower bound */
};

struct gl_require_outcome {
    enum gl_require_result result;
    size_t off, len;          /* UNMET: the first alternative; INVALID: the bad predicate
                                 (byte offsets in the expression) */
};

enum gl_require_result gl_require_cuda_eval(const char *expr,
                                            const struct gl_require_target *target,
                                            struct gl_require_outcome *out);

#endif
