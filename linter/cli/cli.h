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
    const char **paths;      /* PATH arguments, --images-from lines, cut by --shard */
    size_t npaths;
    bool named;              /* inputs were named: none left (a shard) lints nothing */
    const char *images_from; /* --images-from FILE (read by gl_cli_named_inputs) */
    unsigned shard_k, shard_n; /* --shard K/N; shard_n 0: none */
};

/* 0 on success, 2 on a usage error (already printed to stderr). */
int gl_cli_parse(int argc, char **argv, struct gl_config *cfg, struct gl_cli *cli);
/* Add the lines of --images-from to the paths and keep those of --shard (linter/cli/
 * shard.h), once, after the last gl_cli_parse: 0, or 2 with the error printed. */
int gl_cli_named_inputs(struct gl_cli *cli, struct gl_config *cfg);
/* Run a non-lint command; returns the exit status. */
int gl_cli_run_command(const struct gl_cli *cli, const struct gl_config *cfg);

#endif
