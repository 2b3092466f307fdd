/* SPDX-License-Identifier: Apache-2.0 */
/*
 * nvidia_smi.h: ask the local nvidia-smi one question (`--driver host`, `--gpu host`).
 *
 * Runs only because the user asked for the host's driver or GPU: the program is started
 * through posix_spawnp with a fixed argv (no shell), stdin and stderr on /dev/null, a 5 s
 * timeout, and its output capped by the caller's buffer; nothing named by a linted input
 * is ever run. For tests, GPULINT_NVIDIA_SMI=PROG runs PROG instead ("" or "none": never).
 */
#ifndef GPULINT_NVIDIA_SMI_H
#define GPULINT_NVIDIA_SMI_H

#include <stdbool.h>
#include <stddef.h>

/* The program to run ("nvidia-smi" unless GPULINT_NVIDIA_SMI says otherwise), or NULL
 * when it must not be run. */
const char *gl_nvidia_smi_program(void);

/* Run `prog --query-gpu=FIELD --format=csv,noheader` and capture up to cap bytes of its
 * stdout into buf (*len set). False when it cannot be run, times out, or fails. */
bool gl_nvidia_smi_run(const char *prog, const char *field, char *buf, size_t cap, size_t *len);

#endif
