/* SPDX-License-Identifier: Apache-2.0 */
/*
 * launch_writes.h: the paths a launch's own commands write into, read from the commands
 * that name a destination (a data-download job: `mkdir -p /fsx/set`, `unzip x.zip -d
 * /fsx/set`, `tar -xf x.tar -C /data`, `wget -P /data URL`, `curl -o /data/x URL`,
 * `curl --output-dir /data -O URL`, `cp`/`mv`/`install`/`rsync SRC... DEST`, `cp -t DEST
 * SRC...`, `install -d DIR...`, `git clone URL DEST`; tar only when it extracts), read by
 * the tools' option tables (launch_write_opts.h: an option's value is never an operand). A
 * mount that holds such a path is written by the launch, as one that holds an output path
 * is.
 *
 * Only known words count (an opaque word names nothing); only absolute paths, normalized
 * lexically. A light reading of each command's words, not a shell: no redirections, no
 * writes made by a program the launch runs (`python prepare.py`).
 */
#ifndef GPULINT_RULES_LAUNCH_WRITES_H
#define GPULINT_RULES_LAUNCH_WRITES_H

#include "rules/gl4xx/launch_paths.h"

/* Call `fn(path, ctx)` for each path the commands of launch i write into (normalized,
 * from f->arena). */
void gl_launch_each_written(struct gl_launch_facts *f, size_t launch,
                            void (*fn)(const char *path, void *ctx), void *ctx);

#endif
