/* SPDX-License-Identifier: Apache-2.0 */
/*
 * dockerfile_run.h: a RUN instruction into commands and package installs.
 *
 * Exec form (`RUN ["apt-get", "install", "gcc"]`) is one command of those words. Shell
 * form is split as the shell would (shell_words.h), through the stage's ARG and ENV
 * values; a heredoc that is the script (`RUN <<EOF` ... `EOF`, or `RUN bash <<EOF`) is
 * split too, at its body's positions. Each command becomes a gl_cmd of the stage, and
 * pkg_install.h records what it installs.
 */
#ifndef GPULINT_PARSERS_DOCKERFILE_RUN_H
#define GPULINT_PARSERS_DOCKERFILE_RUN_H

#include "linter/core/model.h"
#include "parsers/dockerfile/dockerfile.h"

void gl_dockerfile_run(struct gl_doc *doc, int stage, int instr, const struct df_instr *in,
                       char escape,
                       df_lookup_fn lookup, void *ctx);

#endif
