/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ci_circleci.h: CircleCI configs (`.circleci/config.yml` and the like; ciyaml.c types
 * and parses them with the other CI files: their `jobs:` hold `steps:` as GitHub's do).
 *
 * A config is told by a `.circleci/` directory in its path (a YAML file directly in one
 * is typed as CI YAML by its name), or by a job with one of
 * CircleCI's executor keys (`docker`, `machine`, `macos`, `executor`, `resource_class`),
 * which no GitHub job has. Its shell texts are the `run:` steps of every job and of every
 * reusable command (`commands.NAME.steps`), a string or a mapping's `command:`, and those
 * of the steps of `when:`/`unless:` blocks (4 levels at most). CircleCI substitutes
 * `<< parameters.NAME >>`, `<< pipeline.NAME >>` and `<< matrix.NAME >>` before the
 * shell runs: each becomes an unset variable of the same length, so it is opaque (and no
 * heredoc) and every position stays exact.
 * A job on a `docker:` executor, or on a `machine:` whose `resource_class` is not one of
 * the `gpu.*` classes, runs on a host with no GPU: its launches are gpu_unseen and
 * no_gpu_host, as a GitHub job's on a CPU runner (a CUDA image there is built or
 * smoke-tested on the CPU on purpose). A job through a named `executor:` and the steps of
 * reusable commands keep the default (the host is not known here).
 */
#ifndef GPULINT_PARSERS_LAUNCH_CI_CIRCLECI_H
#define GPULINT_PARSERS_LAUNCH_CI_CIRCLECI_H

#include "linter/core/model.h"
#include "parsers/yaml/yaml_tree.h"

/* Is the file at `path` (`base`: gl_base_name(path)) directly in a `.circleci/` directory
 * (a YAML file there is a CircleCI config: typed by its name, before its content is read,
 * so that one past parse-memory is a GL900 there, not an input of no type)? */
bool ci_circleci_name(const char *path, const char *base);
/* Is `root` (of the file at `path`) a CircleCI config? */
bool ci_circleci_root(struct yt_stream *s, struct yt_node *root, const char *path);
/* Read the jobs and reusable commands of the config `root`. */
void ci_circleci(struct gl_doc *doc, struct yt_stream *s, struct yt_node *root);

#endif
