/* SPDX-License-Identifier: Apache-2.0 */
/*
 * gpu_arch.h: GPU architectures as numbers, and which compiled code runs on which GPU.
 *
 * An SM number is a compute capability written major*10 + minor, as nvcc spells it:
 * 90 = 9.0 (sm_90), 86 = 8.6, 103 = 10.3, 120 = 12.0, 121 = 12.1 (every minor is one digit).
 *
 * An arch entry (struct gl_arch) is one piece of device code in a binary, or one target of
 * a build's arch list: SASS (a cubin, `sm_XY`: machine code for one architecture) or PTX
 * (`compute_XY`: the virtual ISA the driver JIT-compiles), plain, arch-specific (`a`:
 * sm_90a) or family-specific (`f`: sm_100f, CUDA 12.9+). Where it runs (NVIDIA's
 * Blackwell compatibility guide, knowledge table `gpu_architectures.rules`):
 *
 *   SASS sm_Xy, sm_Xyf   a GPU of the same major X with minor >= y (sm_80 runs on 8.6 and
 *                        8.9, never on 9.0; sm_100 runs on 10.3; sm_120 on 12.1)
 *   SASS sm_Xya          exactly X.y (sm_90a only on 9.0)
 *   PTX compute_Xy       any GPU at or above X.y (the driver JIT-compiles it)
 *   PTX compute_Xyf      the same major X with minor >= y
 *   PTX compute_Xya      exactly X.y
 *
 * An arch list covers a GPU when one of its entries runs on it. Nothing here allocates.
 */
#ifndef GPULINT_GPU_ARCH_H
#define GPULINT_GPU_ARCH_H

#include "linter/core/model.h"

#include <stdbool.h>
#include <stddef.h>

/* struct gl_arch and enum gl_arch_code are part of the model (linter/core/model_cuda.h). */

/* Does code `a` run on a GPU of SM number `target` (its compute capability)? */
bool gl_arch_runs_on(const struct gl_arch *a, unsigned target);
/* Does any of the n entries run on `target`? */
bool gl_arch_list_covers(const struct gl_arch *list, size_t n, unsigned target);

/* "sm_90", "sm_90a", "sm_100f", "compute_90", "compute_120a" (exactly len bytes; case as
 * nvcc writes it) into *out. False for anything else. */
bool gl_arch_parse(const char *s, size_t len, struct gl_arch *out);
/* An SM number written as digits "90", "103", or a compute capability "9.0", "10.3"
 * (exactly len bytes): major 1-99, minor 0-9. False for anything else. */
bool gl_sm_parse(const char *s, size_t len, unsigned *sm);

/* "sm_90a" / "compute_120" into buf (returned). */
const char *gl_arch_name(const struct gl_arch *a, char *buf, size_t n);
/* The compute capability of an SM number: 90 -> "9.0", 103 -> "10.3" (buf returned). */
const char *gl_sm_cc(unsigned sm, char *buf, size_t n);

#endif
