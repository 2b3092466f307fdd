/* SPDX-License-Identifier: Apache-2.0 */
/*
 * config_print.h: `gpulint --print-config`: the merged configuration as YAML.
 *
 * Every setting a config file can give is printed in gl_setting order, with its value
 * (the defaults and built-in patterns included) and, as a trailing comment, where the
 * value came from: `default`, `FILE:LINE` (the key in the config file), or
 * `command line (--driver)`. A setting without a value (no target driver, the built-in
 * knowledge table) is printed as a comment. The output is a config file that `--config`
 * reads back into the same settings: strings are quoted (single quotes, or double quotes
 * with escapes when they hold control or bidi characters or invalid UTF-8: escape.h,
 * GL_ESCAPE_QUOTED), `knowledge:` is printed as an absolute path. Text in comments (file
 * names, --output, ...) is escaped as GL_ESCAPE_TEXT. `ignore-paths:` globs are printed
 * as written and stay relative to the directory of the file that gave them (a comment
 * names it): save the output there to keep their meaning. Options that only the command
 * line sets (--format, --jobs, ...) follow as comments.
 */
#ifndef GPULINT_CONFIG_PRINT_H
#define GPULINT_CONFIG_PRINT_H

#include <stdio.h>

#include "linter/core/config.h"

/* Print cfg (after gl_config_finish) to out. */
void gl_config_print(FILE *out, const struct gl_config *cfg);

/* Write `s` as one YAML scalar that libyaml reads back as exactly `s` (invalid UTF-8,
 * which YAML cannot hold, reads back as U+FFFD). */
void gl_config_print_scalar(struct gl_buf *b, const char *s);

/* Write a byte count as the config reads it: "100MiB", "1GiB", else bytes. */
void gl_config_print_size(struct gl_buf *b, uint64_t bytes);

#endif
