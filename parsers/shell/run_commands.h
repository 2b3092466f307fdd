/* SPDX-License-Identifier: Apache-2.0 */
/*
 * run_commands.h: the commands of a RUN line (split by shell_words.h) into a build model.
 *
 * Each simple command becomes a gl_cmd of `m` (stage, instr as given), and pkg_install.h
 * records what it installs and removes; the NAME=value assignments that prefix a command
 * become build variables; the script of a `sh -c '...'` (or bash -c) is split again and
 * read the same way, a few levels deep. Used for a Dockerfile's RUN instructions
 * (parsers/dockerfile/dockerfile_run.c) and for the RUN entries of an image config's
 * history (parsers/image/image_history.c), so that both give rules the same facts.
 */
#ifndef GPULINT_PARSERS_RUN_COMMANDS_H
#define GPULINT_PARSERS_RUN_COMMANDS_H

#include "linter/core/model.h"
#include "parsers/shell/shell_words.h"

/* One command given as its words (an exec-form RUN). */
void gl_run_command_words(struct gl_arena *a, struct gl_dockerfile_model *m, int stage,
                          int instr, struct gl_word *words, size_t n);
/* `opts`: those the commands were split with (for the `sh -c` scripts); when they hold
 * the text's sh_branches, a command inside an if nested in an arm ruled out is dropped
 * too (run_commands.c: decided ifs), else only those of a decided innermost if. The
 * reading stops at the command that took `a` past its limit (parse-memory): returned is
 * its position, for the caller's GL900 there ({0, 0} when the arena is not over). */
struct gl_loc gl_run_commands(struct gl_arena *a, struct gl_dockerfile_model *m, int stage,
                              int instr, struct sh_cmd *cmds, size_t n,
                              const struct sh_opts *opts);

#endif
