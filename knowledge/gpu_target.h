/* SPDX-License-Identifier: Apache-2.0 */
/*
 * gpu_target.h: the target GPUs the architecture rules judge (--gpu, config `gpu:`).
 *
 * Accepted spellings of one name (anything else is a usage error):
 *   H100, h100-sxm, A100, L4, B200, "RTX 4090", "NVIDIA H100 80GB HBM3"
 *                  a product name of the knowledge table (gpu_architectures.families
 *                  `names`); case, spaces, '-' and '_' do not matter, and the words
 *                  NVIDIA, GeForce, Tesla, SXM*, PCIe, NVL, HBM*, NNGB are dropped
 *   Hopper, Ampere, Blackwell
 *                  a family name: every compute capability of the rows that list it
 *   sm_90, sm_90a, 9.0, 90
 *                  a compute capability the table knows (an `a`/`f` suffix is dropped)
 *   host           every GPU of this machine: `nvidia-smi --query-gpu=compute_cap
 *                  --format=csv,noheader` (see nvidia_smi.h); none found is an error
 *
 * Two steps, as for the driver: gl_gpu_targets_add() records a name when the option or
 * config is read (the knowledge table may not be loaded yet), gl_gpu_targets_resolve()
 * turns the names into SM numbers once the table is known. The SM numbers and the test of
 * an arch list against one of them are in gpu_arch.h.
 */
#ifndef GPULINT_GPU_TARGET_H
#define GPULINT_GPU_TARGET_H

#include "linter/core/config.h"
#include "knowledge/gpu_arch.h"
#include "knowledge/kb.h"

/* Record a name (copied into a; an empty name is refused: -1). */
int gl_gpu_targets_add(struct gl_gpu_targets *t, struct gl_arena *a, const char *name);
/* Forget the names recorded so far (the command line replaces the config's list). */
void gl_gpu_targets_clear(struct gl_gpu_targets *t);

/* Resolve every name against kb into t->sms. 0, or -1 with a message in note (an unknown
 * name, with the accepted forms; `host` without a GPU). Strings come from a. */
int gl_gpu_targets_resolve(struct gl_gpu_targets *t, const struct gl_kb *kb,
                           struct gl_arena *a, char *note, size_t note_size);

/* The SM numbers of one name (not `host`): up to max into sms, *n set. False when the
 * name is unknown. */
bool gl_gpu_name_lookup(const struct gl_kb *kb, const char *name, unsigned *sms, size_t max,
                        size_t *n);

/* nvidia-smi's compute_cap output ("9.0\n9.0\n8.6\n"): the distinct SM numbers, up to
 * max, in order. False when a line is not a compute capability or there is none. */
bool gl_gpu_parse_smi_output(const char *text, size_t len, unsigned *sms, size_t max, size_t *n);

/* The arch entries of a torch wheel's row (its sass and ptx lists), up to max into out;
 * returns how many. */
size_t gl_torch_arch_entries(const struct gl_kb_torch_arch *row, struct gl_arch *out, size_t max);

/* How messages name a target: "H100 (Hopper, sm_90)", "sm_86 (Ampere (GA10x))",
 * "this host's GPU (Ada Lovelace, sm_89)". Written into buf, which is returned. */
const char *gl_gpu_target_describe(const struct gl_gpu_target_sm *t, char *buf, size_t n);

#endif
