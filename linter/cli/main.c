/* SPDX-License-Identifier: Apache-2.0 */
/* main.c: gpulint's entry point: options, lint every path, report, exit status. */
#include <errno.h>
#include <fcntl.h>
#include <malloc.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "linter/cli/cli.h"
#include "linter/config/config_file.h"
#include "linter/config/config_print.h"
#include "knowledge/driver_target.h"
#include "knowledge/gpu_target.h"
#include "linter/cli/engine.h"
#include "linter/core/escape.h"
#include "linter/core/limits.h"
#include "linter/report/report.h"

static bool fails(const struct gl_run *run, enum gl_severity threshold)
{
    if (threshold == GL_SEV_NONE)
        return false;
    for (int s = (int)threshold; s <= GL_SEV_NONE; s++)
        if (run->spill.by_severity[s])
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
            gl_eprintf("config: %s", err);
            status = 2;
        }
        free(found);
        if (status != 0)
            return status;
    }
    status = gl_cli_parse(argc, argv, cfg, cli);
    return status ? status : gl_cli_named_inputs(cli, cfg);
}

/* The CUDA knowledge base (--knowledge / config `knowledge:`, else the built-in table)
 * and the target driver resolved against it. 0, or 2 with the error printed. */
static int setup_cuda(struct gl_config *cfg, struct gl_kb **loaded)
{
    cfg->kb = gl_kb_builtin();
    if (cfg->knowledge_path) {
        struct gl_kb_error err;
        if (gl_kb_load_file(cfg->knowledge_path, loaded, &err) != 0) {
            gl_eprintf("%s:%u:%u: %s", cfg->knowledge_path, (unsigned)err.loc.line,
                       (unsigned)err.loc.col, err.message);
            return 2;
        }
        cfg->kb = *loaded;
    }
    char note[512];
    bool host = cfg->driver.set && cfg->driver.text && !strcmp(cfg->driver.text, "host");
    if (gl_driver_target_resolve(&cfg->driver, cfg->kb, &cfg->arena, note, sizeof note) != 0) {
        gl_eprintf("--driver: %s", note);
        return 2;
    }
    if (host && !cfg->driver.set)
        gl_eprintf("--driver host: no NVIDIA driver found (%s): driver checks skipped",
                   note);
    if (gl_gpu_targets_resolve(&cfg->gpu, cfg->kb, &cfg->arena, note, sizeof note) != 0) {
        gl_eprintf("--gpu: %s", note);
        return 2;
    }
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

/* Standard output was closed when gpulint started (`>&-`). */
static bool stdout_was_closed;

/* A closed descriptor 1 or 2 is held with /dev/null, so that no file gpulint opens (the
 * -o report, an input) gets its number and receives what goes to stdout or stderr. That
 * stdout was closed is remembered: output meant for it then fails with EBADF. */
static void hold_closed_std_fds(void)
{
    for (int fd = STDOUT_FILENO; fd <= STDERR_FILENO; fd++) {
        if (fcntl(fd, F_GETFD) != -1 || errno != EBADF)
            continue;
        stdout_was_closed |= fd == STDOUT_FILENO;
        int null = open("/dev/null", O_WRONLY);
        if (null >= 0 && null != fd) {
            dup2(null, fd);
            close(null);
        }
    }
}

/* Output starts. A reader that goes away (`gpulint | head`) makes writes fail with
 * EPIPE, a write error like any other, instead of killing gpulint with SIGPIPE (not set
 * earlier, so nvidia-smi run for --driver host keeps the default). errno is cleared for
 * close_output. */
static void start_output(void)
{
    signal(SIGPIPE, SIG_IGN);
    errno = 0;
}

/* Flush and close a stream output went to: 0, or the errno of the first failure. glibc
 * drops the buffer after a failed write, so a later fflush succeeds: an earlier failure
 * shows in ferror(), its cause in errno (cleared by start_output; after a failed write
 * only frees and more writes to the same failing stream run). */
static int close_output(FILE *out)
{
    int err = ferror(out) ? (errno ? errno : EIO) : 0;
    if (fflush(out) != 0 && !err)
        err = errno;
    if (fclose(out) != 0 && !err)
        err = errno;
    if (out == stdout && stdout_was_closed && !err)
        err = EBADF;
    return err;
}

/* The exit status once the output to `out` is closed: `status`, or 2 with a message when
 * it could not be written. `report_to` names where a report went (NULL: the output of a
 * command, on stdout). */
static int finish_output(FILE *out, const char *report_to, int status)
{
    int err = close_output(out);
    if (!err)
        return status;
    if (report_to)
        gl_eprintf("cannot write the report to %s: %s", report_to, strerror(err));
    else
        gl_eprintf("cannot write to standard output: %s", strerror(err));
    return 2;
}

static void write_report(FILE *out, const struct gl_run *run, const struct gl_config *cfg)
{
    switch (cfg->format) {
    case GL_FMT_JSON: gl_report_json(out, run); break;
    case GL_FMT_SARIF: gl_report_sarif(out, run); break;
    case GL_FMT_CHECKSTYLE: gl_report_checkstyle(out, run); break;
    case GL_FMT_GITLAB: gl_report_gitlab(out, run); break;
    case GL_FMT_TTY: gl_report_tty(out, run, cfg->color && !cfg->output); break;
    }
}

/* Lint every path and write the report: the exit status. */
static int lint_and_report(const struct gl_config *cfg, const struct gl_cli *cli)
{
    struct gl_run run;
    gl_run_init(&run, cfg);
    report_unknown_config_ids(&run, cfg);
    if (!cli->named)
        gl_lint_path(&run, ".");
    for (size_t i = 0; i < cli->npaths; i++)
        gl_lint_path(&run, cli->paths[i]);
    gl_run_finish(&run);
    int status = run.unreadable ? 2 : fails(&run, cfg->failure_threshold) ? 1 : 0;

    start_output();
    FILE *out = cfg->output ? fopen(cfg->output, "w") : stdout;
    if (!out) {
        gl_eprintf("--output %s: %s", cfg->output, strerror(errno));
        status = 2;
    } else {
        write_report(out, &run, cfg);
        status = finish_output(out, cfg->output ? cfg->output : "standard output", status);
    }
    gl_run_free(&run);
    return status;
}

/* The knowledge base, then --print-knowledge or the lint run: the exit status. */
static int lint(struct gl_config *cfg, const struct gl_cli *cli)
{
    struct gl_kb *loaded_kb = NULL;
    int status = setup_cuda(cfg, &loaded_kb);
    if (status == 0 && cfg->print_knowledge) {
        start_output();
        gl_kb_print(cfg->kb, stdout);
        status = finish_output(stdout, NULL, 0);
    } else if (status == 0) {
        status = lint_and_report(cfg, cli);
    }
    gl_kb_free(loaded_kb);
    return status;
}

int main(int argc, char **argv)
{
    /* Each input's arena is freed after it: keep the freed heap for the next input
     * instead of returning it to the kernel and faulting it in again (a third of the
     * time of linting many small files went to that). */
    mallopt(M_TRIM_THRESHOLD, 32 << 20);
    mallopt(M_MMAP_THRESHOLD, 4 << 20);
    /* (the text inputs' workers lower the trim threshold: engine_pool.h) */
    hold_closed_std_fds();
    struct gl_config cfg;
    struct gl_cli cli;
    gl_config_init(&cfg);
    int status = configure(argc, argv, &cfg, &cli);
    if (status == 0 && gl_config_finish(&cfg) != 0)
        status = 2;
    gl_limits_fit_address_space();
    if (status == 0 && cli.command != GL_CMD_LINT) {
        start_output();
        status = finish_output(stdout, NULL, gl_cli_run_command(&cli, &cfg));
    } else if (status == 0 && cfg.print_config) {
        start_output();
        gl_config_print(stdout, &cfg); /* before the knowledge base: nothing is resolved */
        status = finish_output(stdout, NULL, 0);
    } else if (status == 0) {
        status = lint(&cfg, &cli);
    }
    gl_config_free(&cfg);
    return status;
}
