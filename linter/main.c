/* main.c: gpulint's entry point: options, lint every path, report, exit status. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "linter/cli.h"
#include "linter/engine.h"
#include "linter/report.h"

static bool fails(const struct gl_run *run, enum gl_severity threshold)
{
    if (threshold == GL_SEV_NONE)
        return false;
    for (size_t i = 0; i < run->findings.n; i++)
        if (run->findings.items[i].severity >= threshold)
            return true;
    return false;
}

int main(int argc, char **argv)
{
    struct gl_config cfg;
    struct gl_cli cli;
    gl_config_init(&cfg);
    int status = gl_cli_parse(argc, argv, &cfg, &cli);
    if (status == 0 && gl_config_finish(&cfg) != 0)
        status = 2;
    if (status == 0 && cli.command != GL_CMD_LINT)
        status = gl_cli_run_command(&cli, &cfg);
    if (status != 0 || cli.command != GL_CMD_LINT) {
        gl_config_free(&cfg);
        return status;
    }

    struct gl_run run;
    gl_run_init(&run, &cfg);
    if (cli.npaths == 0)
        gl_lint_path(&run, ".");
    for (size_t i = 0; i < cli.npaths; i++)
        gl_lint_path(&run, cli.paths[i]);
    gl_findings_sort(&run.findings);

    FILE *out = stdout;
    if (cfg.output && !(out = fopen(cfg.output, "w"))) {
        fprintf(stderr, "gpulint: --output %s: %s\n", cfg.output, strerror(errno));
        status = 2;
    } else {
        if (cfg.format == GL_FMT_JSON)
            gl_report_json(out, &run);
        else
            gl_report_tty(out, &run, cfg.color && !cfg.output);
        status = run.unreadable ? 2 : fails(&run, cfg.failure_threshold) ? 1 : 0;
        if (out != stdout && fclose(out) != 0) {
            fprintf(stderr, "gpulint: --output %s: %s\n", cfg.output, strerror(errno));
            status = 2;
        }
    }
    gl_run_free(&run);
    gl_config_free(&cfg);
    return status;
}
