/* main.c: gpulint's entry point: options, lint every path, report, exit status. */
#include <errno.h>
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "linter/cli.h"
#include "linter/config_file.h"
#include "linter/config_print.h"
#include "linter/driver_target.h"
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

/* The config file is applied first and the command line over it, so options win: a
 * first pass over argv only learns --config / --no-config and the command. */
static int configure(int argc, char **argv, struct gl_config *cfg, struct gl_cli *cli)
{
    struct gl_config probe;
    gl_config_init(&probe);
    int status = gl_cli_parse(argc, argv, &probe, cli);
    const char *named = probe.config_file;
    bool none = probe.no_config;
    gl_config_free(&probe);
    if (status != 0)
        return status;
    if (cli->command == GL_CMD_LINT && !none) {
        char cwd[4096];
        char *found = named ? NULL : gl_config_file_find(getcwd(cwd, sizeof cwd));
        const char *file = named ? named : found;
        char err[1024];
        if (file && gl_config_file_load(cfg, file, err, sizeof err) != 0) {
            fprintf(stderr, "gpulint: config: %s\n", err);
            status = 2;
        }
        free(found);
        if (status != 0)
            return status;
    }
    return gl_cli_parse(argc, argv, cfg, cli);
}

/* The CUDA knowledge base (--knowledge / config `knowledge:`, else the built-in table)
 * and the target driver resolved against it. 0, or 2 with the error printed. */
static int setup_cuda(struct gl_config *cfg, struct gl_kb **loaded)
{
    cfg->kb = gl_kb_builtin();
    if (cfg->knowledge_path) {
        struct gl_kb_error err;
        if (gl_kb_load_file(cfg->knowledge_path, loaded, &err) != 0) {
            fprintf(stderr, "gpulint: %s:%u:%u: %s\n", cfg->knowledge_path,
                    (unsigned)err.loc.line, (unsigned)err.loc.col, err.message);
            return 2;
        }
        cfg->kb = *loaded;
    }
    char note[512];
    bool host = cfg->driver.set && cfg->driver.text && !strcmp(cfg->driver.text, "host");
    if (gl_driver_target_resolve(&cfg->driver, cfg->kb, &cfg->arena, note, sizeof note) != 0) {
        fprintf(stderr, "gpulint: --driver: %s\n", note);
        return 2;
    }
    if (host && !cfg->driver.set)
        fprintf(stderr, "gpulint: --driver host: no NVIDIA driver found (%s): "
                        "driver checks skipped\n", note);
    return 0;
}

/* Rule ids in the config file that name no rule (GL902, as for inline ignores). */
static void report_unknown_config_ids(struct gl_run *run, const struct gl_config *cfg)
{
    for (size_t i = 0; i < cfg->nunknown_ids; i++)
        gl_run_engine_finding(run, "GL902", cfg->config_file, cfg->unknown_ids[i].loc,
                              "name a rule listed by `gpulint --list-rules`",
                              "config names `%s`, which is no gpulint rule",
                              cfg->unknown_ids[i].id);
}

int main(int argc, char **argv)
{
    /* Each input's arena is freed after it: keep the freed heap for the next input
     * instead of returning it to the kernel and faulting it in again (a third of the
     * time of linting many small files went to that). */
    mallopt(M_TRIM_THRESHOLD, 32 << 20);
    mallopt(M_MMAP_THRESHOLD, 4 << 20);
    struct gl_config cfg;
    struct gl_cli cli;
    gl_config_init(&cfg);
    int status = configure(argc, argv, &cfg, &cli);
    if (status == 0 && gl_config_finish(&cfg) != 0)
        status = 2;
    if (status == 0 && cli.command == GL_CMD_LINT && cfg.print_config) {
        gl_config_print(stdout, &cfg); /* before the knowledge base: nothing is resolved */
        gl_config_free(&cfg);
        return 0;
    }
    struct gl_kb *loaded_kb = NULL;
    if (status == 0 && cli.command == GL_CMD_LINT)
        status = setup_cuda(&cfg, &loaded_kb);
    if (status == 0 && cli.command == GL_CMD_LINT && cfg.print_knowledge) {
        gl_kb_print(cfg.kb, stdout);
        gl_kb_free(loaded_kb);
        gl_config_free(&cfg);
        return 0;
    }
    if (status == 0 && cli.command != GL_CMD_LINT)
        status = gl_cli_run_command(&cli, &cfg);
    if (status != 0 || cli.command != GL_CMD_LINT) {
        gl_kb_free(loaded_kb);
        gl_config_free(&cfg);
        return status;
    }

    struct gl_run run;
    gl_run_init(&run, &cfg);
    report_unknown_config_ids(&run, &cfg);
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
        switch (cfg.format) {
        case GL_FMT_JSON: gl_report_json(out, &run); break;
        case GL_FMT_SARIF: gl_report_sarif(out, &run); break;
        case GL_FMT_CHECKSTYLE: gl_report_checkstyle(out, &run); break;
        case GL_FMT_GITLAB: gl_report_gitlab(out, &run); break;
        case GL_FMT_TTY: gl_report_tty(out, &run, cfg.color && !cfg.output); break;
        }
        status = run.unreadable ? 2 : fails(&run, cfg.failure_threshold) ? 1 : 0;
        if (out != stdout && fclose(out) != 0) {
            fprintf(stderr, "gpulint: --output %s: %s\n", cfg.output, strerror(errno));
            status = 2;
        }
    }
    gl_run_free(&run);
    gl_kb_free(loaded_kb);
    gl_config_free(&cfg);
    return status;
}
