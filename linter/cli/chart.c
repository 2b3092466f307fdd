/* SPDX-License-Identifier: Apache-2.0 */
/* chart.c: Helm charts, found and rendered (see chart.h). */
#include "linter/cli/chart.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "linter/cli/chart_deps.h"
#include "linter/cli/spawn.h"
#include "linter/core/limits.h"

/* The Kubernetes version charts are rendered for (helm template --kube-version). */
#define GL_HELM_KUBE_VERSION "1.34.0"

#define HELM_ERR_CAP 65536
#define WHY_MAX 300

static bool regular_file(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

bool gl_chart_dir(const char *dir)
{
    char *p = xmalloc(strlen(dir) + sizeof "/Chart.yaml");
    sprintf(p, "%s/Chart.yaml", dir);
    bool yes = regular_file(p);
    free(p);
    return yes;
}

/* path[0..n) (heap), "." when n is 0. */
static char *prefix(const char *path, size_t n)
{
    if (!n)
        return xstrdup(".");
    char *d = xmalloc(n + 1);
    memcpy(d, path, n);
    d[n] = '\0';
    return d;
}

/* Is path[0..n) a chart directory? */
static bool chart_prefix(const char *path, size_t n)
{
    char *d = prefix(path, n);
    bool yes = gl_chart_dir(d);
    free(d);
    return yes;
}

/* Does path[i..] start a part named `name` ("templates", "charts")? */
static bool part_at(const char *path, size_t i, const char *name)
{
    size_t n = strlen(name);
    return (i == 0 || path[i - 1] == '/') && !strncmp(path + i, name, n) &&
           (path[i + n] == '/' || path[i + n] == '\0');
}

char *gl_chart_of(const char *path)
{
    /* the innermost chart whose templates/ holds the path: path[0..chart) */
    size_t chart = SIZE_MAX;
    for (size_t i = 0; path[i]; i++)
        if (part_at(path, i, "templates") && chart_prefix(path, i ? i - 1 : 0))
            chart = i ? i - 1 : 0;
    /* else its Chart.yaml or values.yaml: a change there changes what it renders */
    const char *base = strrchr(path, '/');
    size_t dir = base ? (size_t)(base - path) : 0;
    base = base ? base + 1 : path;
    if (chart == SIZE_MAX && (!strcmp(base, "Chart.yaml") || !strcmp(base, "values.yaml")) &&
        chart_prefix(path, dir))
        chart = dir;
    if (chart == SIZE_MAX)
        return NULL;
    /* then up through .../charts/NAME as long as the directory above is a chart too */
    const size_t charts_len = sizeof "charts/" - 1;
    while (chart > 0) {
        size_t name = chart;
        while (name > 0 && path[name - 1] != '/')
            name--;
        if (name < charts_len || !part_at(path, name - charts_len, "charts"))
            break;
        size_t above = name - charts_len, end = above ? above - 1 : 0;
        if (!chart_prefix(path, end))
            break;
        chart = end;
    }
    return prefix(path, chart);
}

/* ---- helm ---- */

/* Can `path` be run (a regular file with an execute bit for us)? */
static bool runnable(const char *path)
{
    return regular_file(path) && access(path, X_OK) == 0;
}

/* `name` looked up in PATH (heap), or NULL. */
static char *on_path(const char *name)
{
    const char *path = getenv("PATH");
    if (!path || !*path)
        return NULL;
    struct gl_buf b;
    gl_buf_init(&b);
    for (const char *p = path;; p++) {
        const char *colon = strchr(p, ':');
        size_t n = colon ? (size_t)(colon - p) : strlen(p);
        b.len = 0;
        if (n)
            gl_buf_printf(&b, "%.*s/%s", (int)n, p, name);
        else
            gl_buf_printf(&b, "./%s", name); /* an empty entry is the working directory */
        if (runnable(gl_buf_str(&b))) {
            char *found = xstrdup(gl_buf_str(&b));
            gl_buf_free(&b);
            return found;
        }
        if (!colon)
            break;
        p = colon;
    }
    gl_buf_free(&b);
    return NULL;
}

char *gl_helm_find(const struct gl_config *cfg, const char **why)
{
    if (!cfg->helm) {
        char *found = on_path("helm");
        *why = found ? NULL : "no `helm` on PATH";
        return found;
    }
    char *found = strchr(cfg->helm, '/') ? (runnable(cfg->helm) ? xstrdup(cfg->helm) : NULL)
                                         : on_path(cfg->helm);
    *why = found ? NULL : "the helm given with --helm (or config `helm:`) cannot be run";
    return found;
}

/* The line of helm's errors to show: the first `Error: ...` line, else the first one. */
static char *first_error_line(const char *err)
{
    const char *pick = NULL;
    size_t n = 0;
    for (const char *p = err; *p;) {
        const char *nl = strchr(p, '\n');
        size_t len = nl ? (size_t)(nl - p) : strlen(p);
        while (len && (p[len - 1] == '\r' || p[len - 1] == ' '))
            len--;
        if (len && (!pick || !strncmp(p, "Error:", 6))) {
            bool error = !strncmp(p, "Error:", 6);
            if (!pick || error) {
                pick = p;
                n = len;
            }
            if (error)
                break;
        }
        if (!nl)
            break;
        p = nl + 1;
    }
    if (!pick)
        return NULL;
    return xasprintf("%.*s%s", (int)(n > WHY_MAX ? WHY_MAX : n), pick, n > WHY_MAX ? "..." : "");
}

/* One `helm template` of dir into *out; *deps_missing: helm said the chart's dependencies
 * are not in its charts/ directory. */
static void render(const char *helm, const struct gl_config *cfg, const char *dir,
                   struct gl_rendered *out, bool *deps_missing)
{
    memset(out, 0, sizeof *out);
    size_t argc = 0;
    char **argv = xmalloc((7 + 2 * cfg->nhelm_values) * sizeof *argv);
    argv[argc++] = (char *)"helm";
    argv[argc++] = (char *)"template";
    argv[argc++] = (char *)"gpulint-lint";
    argv[argc++] = (char *)dir;
    /* helm's own default (1.20 for helm 3.8) fails charts that require a current cluster
     * (`kubeVersion: >=1.32.0-0`) and picks old API versions in those that ask */
    argv[argc++] = (char *)"--kube-version";
    argv[argc++] = (char *)GL_HELM_KUBE_VERSION;
    for (size_t i = 0; i < cfg->nhelm_values; i++) {
        argv[argc++] = (char *)"-f";
        argv[argc++] = (char *)cfg->helm_values[i];
    }
    argv[argc] = NULL;
    struct gl_spawn_result r;
    size_t cap = (size_t)gl_limit(GL_LIMIT_INPUT_SIZE);
    gl_spawn_capture(helm, argv, cap, HELM_ERR_CAP, RENDER_TIMEOUT_S * 1000, &r);
    free(argv);
    if (r.spawn_errno) {
        out->why = xasprintf("`%s` could not be started: %s", helm, strerror(r.spawn_errno));
    } else if (r.timed_out) {
        out->why = xasprintf("`helm template` did not finish in %d s", RENDER_TIMEOUT_S);
    } else if (r.out_over) {
        char msg[256];
        out->why = xasprintf("what it renders is too large: %s",
                               gl_limit_message(GL_LIMIT_INPUT_SIZE, msg, sizeof msg));
    } else if (r.exit_code != 0) {
        *deps_missing = gl_chart_deps_missing(r.err);
        char *line = first_error_line(r.err);
        out->why = line ? xasprintf("`helm template` failed: %s", line)
                        : xasprintf("`helm template` failed with exit status %d", r.exit_code);
        free(line);
    } else {
        out->text = r.out;
        out->len = r.out_len;
        r.out = NULL;
    }
    gl_spawn_result_free(&r);
}

void gl_chart_render(const char *helm, const struct gl_config *cfg, const char *dir,
                     struct gl_rendered *out)
{
    bool deps_missing = false;
    render(helm, cfg, dir, out, &deps_missing);
    char *names = NULL, *copy = deps_missing ? gl_chart_copy_without_deps(dir, &names) : NULL;
    if (!copy)
        return;
    /* its own templates, without the dependencies that are not vendored */
    struct gl_rendered again;
    bool still = false;
    render(helm, cfg, copy, &again, &still);
    gl_chart_copy_remove(copy);
    if (!again.text) {
        gl_rendered_free(&again);
        free(names);
        return;
    }
    free(out->why);
    *out = again;
    out->without = xasprintf("rendered without its dependencies %s, which are not in its "
                             "charts/ directory (`helm dependency build` fetches them)",
                             names);
    free(names);
}

void gl_rendered_free(struct gl_rendered *r)
{
    free(r->text);
    free(r->why);
    free(r->without);
    memset(r, 0, sizeof *r);
}
