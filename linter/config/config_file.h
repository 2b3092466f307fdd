/* SPDX-License-Identifier: Apache-2.0 */
/*
 * config_file.h: `.gpulint.yaml`, read with the YAML reader (parsers/yaml/yaml_tree.h)
 * into the run configuration.
 *
 * The file is one YAML mapping; every key is optional:
 *
 *   driver: 535                      # or R535, 535.104.05 (as --driver)
 *   failure-threshold: warning       # error, warning, info, style, none
 *   ignore: [GL103, GL411]           # rules turned off
 *   enable: [GL103]                  # optional rules turned on
 *   severity: {GL401: error}         # error, warning, info or style per rule
 *   dataset-args: ['^--corpus$']     # PCRE2 patterns replacing the default names of
 *   checkpoint-args: [...]           #   dataset / checkpoint arguments and env vars
 *   dataset-env: [...]               #   (an empty list: none)
 *   checkpoint-env: [...]
 *   data-paths: '(^|/)data/'         # the GL303 path pattern (a string or a list)
 *   data-file-size: 100MiB           # GL303 on images: one data file this big, or
 *   data-total-size: 1GiB            #   data files this big in all (KiB/MiB/GiB/TiB,
 *                                    #   KB/MB/GB/TB, or bytes; at least 1)
 *   waste-size: 10MiB                # GL304: bytes a later layer removes or overwrites
 *   ignore-paths:                    # globs (glob.h), relative to this file's directory
 *     - vendor                       #   (path_ignore.h): not linted, not walked into
 *     - old.Dockerfile: [GL101]      #   these rules' findings dropped there
 *   knowledge: cuda_facts.yaml       # a CUDA knowledge file (relative to this file)
 *   build-args: {CUDA: "12.4.1"}     # as --build-arg
 *
 * `ignore-paths:` may also be a mapping `{glob: [rule ids], ...}`; a single rule id may
 * stand for its list.
 *
 * The file is read first and the command line applied over it, so options win; lists
 * (ignore, enable, build-args) add up. An unknown key, a value of the wrong shape, a bad
 * pattern, glob, size or severity, an alias, or YAML that does not parse is an error
 * naming the file, the 1-based line and byte column and what was expected. A rule id that
 * names no rule is not an error: it is kept in cfg->unknown_ids (reported as GL902). Each
 * key read records "FILE:LINE" in cfg->origin (for --print-config). Everything stored
 * lives in cfg->arena.
 */
#ifndef GPULINT_CONFIG_FILE_H
#define GPULINT_CONFIG_FILE_H

#include "linter/core/config.h"

/* The name looked for: ".gpulint.yaml". */
extern const char gl_config_file_name[];

/* Apply the config text (`file` names it in messages and resolves `knowledge:`).
 * 0, or -1 with "FILE:LINE:COL: message" in err. On error cfg may hold part of the file. */
int gl_config_file_parse(struct gl_config *cfg, const char *file, const char *text, size_t len,
                         char *err, size_t errlen);

/* Read and apply a config file. 0, or -1 with the message in err. */
int gl_config_file_load(struct gl_config *cfg, const char *file, char *err, size_t errlen);

/* The nearest `.gpulint.yaml` in `dir` or its parents up to /, as a heap string (free
 * it), or NULL when there is none. */
char *gl_config_file_find(const char *dir);

#endif
