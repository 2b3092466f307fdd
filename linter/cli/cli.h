/* SPDX-License-Identifier: Apache-2.0 */
/*
 * cli.h: the command line.
 *
 * gl_cli_parse() fills the config from argv and collects the paths; it prints usage
 * errors itself. The informational commands (--help, --version, --list-rules,
 * --explain) are carried out by gl_cli_run_command().
 */
#ifndef GPULINT_CLI_H
#define GPULINT_CLI_H

#include "linter/core/config.h"

enum gl_cli_command { GL_CMD_LINT, GL_CMD_HELP, GL_CMD_VERSION, GL_CMD_LIST_RULES, GL_CMD_EXPLAIN };

struct gl_cli {
    enum gl_cli_command command;
    const char *explain_id;
    const char **paths;
    size_t npaths;
};

/* 0 on success, 2 on a usage error (already printed to stderr). */
int gl_cli_parse(int argc, char **argv, struct gl_config *cfg, struct gl_cli *cli);
/* Run a non-lint command; returns the exit status. */
int gl_cli_run_command(const struct gl_cli *cli, const struct gl_config *cfg);

#endif
