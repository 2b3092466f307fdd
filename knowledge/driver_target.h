/* SPDX-License-Identifier: Apache-2.0 */
/*
 * driver_target.h: the target NVIDIA driver the CUDA rules compare with (--driver, config
 * `driver:`).
 *
 * Accepted spellings (anything else is malformed and a usage error):
 *   535.104.05, 570.26    a driver version (2 or 3 dotted fields of 1-6 digits)
 *   535, R535, r535       a branch: its first release driver from the knowledge base is
 *                         assumed (the conservative choice), and messages say so:
 *                         "R535 (taken as 535.54.03, its first release)"
 *   host                  the driver of this machine: /proc/driver/nvidia/version, else
 *                         `nvidia-smi --query-gpu=driver_version --format=csv,noheader`
 *
 * Two steps: gl_driver_target_parse() checks the spelling when the option or config is
 * read (the knowledge base may not be loaded yet); gl_driver_target_resolve() runs once
 * before linting and fills `version` with the driver compared (branch -> first release,
 * host -> the local driver). When `host` finds no driver the target is unset (the CUDA
 * driver checks are skipped and the summary says so).
 *
 * Host detection runs only because the user asked for it (`--driver host`): gpulint reads
 * a fixed path and runs nvidia-smi with a fixed argv through posix_spawnp (no shell, a
 * 5 s timeout, output capped); nothing named by a linted input is ever run. For tests:
 *   GPULINT_DRIVER_VERSION_FILE=FILE   read FILE instead of /proc/driver/nvidia/version
 *   GPULINT_NVIDIA_SMI=PROG            run PROG instead of nvidia-smi ("" or "none": never)
 */
#ifndef GPULINT_DRIVER_TARGET_H
#define GPULINT_DRIVER_TARGET_H

#include "linter/core/config.h"
#include "knowledge/kb.h"

/* Check the spelling of `text` and record it (version is provisional: the digits given,
 * or NULL for host). 0, or -1 when malformed (d unchanged). */
int gl_driver_target_parse(struct gl_driver_target *d, const char *text, const char *origin);

/* Fill d->version with the driver to compare. 0 on success (d->set may have become
 * false for a host without a driver; `note` then says why); -1 on an error (message in
 * note). Strings come from `a`. */
int gl_driver_target_resolve(struct gl_driver_target *d, const struct gl_kb *kb,
                             struct gl_arena *a, char *note, size_t note_size);

/* The driver version in the text of /proc/driver/nvidia/version
 * ("NVRM version: NVIDIA UNIX x86_64 Kernel Module  535.104.05  Sat Aug ..."), written
 * into out; false when there is none. `text` need not be NUL-terminated. */
bool gl_driver_parse_proc_version(const char *text, size_t len, char *out, size_t out_size);

/* The first line of nvidia-smi's csv output ("535.104.05\n") as a version; false if it
 * is no driver version. */
bool gl_driver_parse_smi_output(const char *text, size_t len, char *out, size_t out_size);

/* How messages name the target: "535.104.05", "R535 (taken as 535.54.03, its first
 * release)", "535.104.05 (this host)". Written into buf, which is returned. */
const char *gl_driver_target_describe(const struct gl_driver_target *d, char *buf, size_t n);

/* The version the rules compare, or NULL when there is no usable target. */
const char *gl_driver_target_version(const struct gl_driver_target *d);

#endif
