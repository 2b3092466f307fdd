/* SPDX-License-Identifier: Apache-2.0 */
/*
 * shard.h: the inputs of one run when a registry is gated by many (issue 21, point 7).
 *
 * `--images-from FILE` adds one input per line of FILE (a reference such as
 * `docker://HOST/REPO:TAG`, or any path; blank lines and lines starting with `#` are
 * skipped; `-` reads standard input). `--shard K/N` keeps the named inputs whose name
 * hashes (FNV-1a, 64 bit, of the name as written) to K modulo N (K from 0 to N-1, as a
 * Kubernetes Indexed Job's JOB_COMPLETION_INDEX): a stable split, the same on every
 * machine and run, so N runs with K = 0..N-1 lint every input exactly once.
 */
#ifndef GPULINT_SHARD_H
#define GPULINT_SHARD_H

#include <stddef.h>

#include "linter/core/util.h"

/* Append FILE's lines to the list (*paths, *n) in the arena: 0, or an errno value. */
int gl_images_from(struct gl_arena *a, const char *file, const char ***paths, size_t *n);

/* Parse "K/N": 0, or -1 when it is no shard (N from 1 to 65536, K below N). */
int gl_shard_parse(const char *text, unsigned *k, unsigned *n);

/* Keep, in order, the paths of shard k of n; returns how many are kept. */
size_t gl_shard_keep(const char **paths, size_t count, unsigned k, unsigned n);

#endif
