/* SPDX-License-Identifier: Apache-2.0 */
/*
 * arch_check.h: what the GPU architecture rules (GL208 cuda-lacks-gpu-arch, GL209
 * framework-lacks-gpu-arch, GL210 arch-list-misses-target) share: the target GPUs of the
 * run (--gpu, config `gpu:`; without one the rules are inactive), which of them an arch
 * list leaves out, and how messages name them.
 */
#ifndef GPULINT_RULES_ARCH_CHECK_H
#define GPULINT_RULES_ARCH_CHECK_H

#include "rules/check.h"
#include "knowledge/gpu_target.h"

#define GL_ARCH_TARGETS_MAX GL_GPU_TARGETS_MAX

struct gl_cuda_fact;
struct gl_kb_ngc_release;

/* An NGC month's framework builds (a fact from an nvcr.io/nvidia/<name>:YY.MM tag of a month
 * the table knows): the lowest SM they can carry code for (gl_kb_ngc_lowest_sm), with the
 * release into *rel. 0 for any other fact, or when the table cannot tell. GL209 judges a
 * target below it; GL208 leaves that case (its "dropped" error) to GL209. */
unsigned gl_arch_ngc_lowest(const struct gl_check *c, const struct gl_cuda_fact *f,
                            const struct gl_kb_ngc_release **rel);

/* The target GPUs (NULL when there is none), *n set. */
const struct gl_gpu_target_sm *gl_arch_targets(const struct gl_check *c, size_t *n);

/* The targets none of the n arch entries runs on, into out (room for GL_ARCH_TARGETS_MAX);
 * returns how many. */
size_t gl_arch_uncovered(const struct gl_check *c, const struct gl_arch *archs, size_t n,
                         const struct gl_gpu_target_sm **out);

/* "H100 (Hopper, sm_90)" or "H100 (Hopper, sm_90) and B200 (...)", into buf (returned). */
const char *gl_arch_targets_text(const struct gl_gpu_target_sm *const *t, size_t n, char *buf,
                                 size_t cap);

/* "sm_80, sm_86, compute_86" (at most the first 16), into buf (returned). */
const char *gl_arch_entries_text(const struct gl_arch *archs, size_t n, char *buf, size_t cap);

#endif
