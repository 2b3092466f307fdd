/* SPDX-License-Identifier: Apache-2.0 */
/*
 * chart.h: Helm charts in a run: where they are, and what `helm template` renders.
 *
 * A chart is a directory holding a Chart.yaml. Its `templates/` are not YAML until
 * rendered, and its `charts/` (subcharts) render with it, so the walk lints neither
 * directory file by file: the engine renders the chart once and lints the stream
 * (engine.c, parsers/manifest/helm_stream.c), or records why it could not (GL903).
 *
 * Rendering runs `HELM template gpulint-lint CHARTDIR [-f VALUES]...` (no shell; the
 * --helm-values files in order), keeps at most `input-size` bytes of its output and the
 * first 64 KiB of its errors, and gives up after RENDER_TIMEOUT_S seconds. HELM is
 * --helm (or config `helm:`), else the first `helm` on PATH that can be run.
 */
#ifndef GPULINT_CHART_H
#define GPULINT_CHART_H

#include "linter/core/config.h"

#define RENDER_TIMEOUT_S 60

/* Does `dir` hold a Chart.yaml (a regular file)? */
bool gl_chart_dir(const char *dir);
/* The chart that `path` (a file or directory) stands for: the outermost chart whose
 * templates/ or charts/ holds it, or whose Chart.yaml or values.yaml it is (heap), else
 * NULL. */
char *gl_chart_of(const char *path);

/* The helm program to run (heap), or NULL with *why saying why there is none. */
char *gl_helm_find(const struct gl_config *cfg, const char **why);

struct gl_rendered {
    char *text;        /* helm's output (heap), when it rendered */
    size_t len;
    char *why;         /* else why not (heap): "`helm template` failed: Error: ...", or
                          what it renders is over the limit input-size */
    char *without;     /* rendered, but without the dependencies that are not vendored:
                          what was left out (heap), else NULL (chart_deps.h) */
};

/* Render `dir` with `helm`; a chart whose dependencies are not vendored is rendered
 * without them (out->without says so). */
void gl_chart_render(const char *helm, const struct gl_config *cfg, const char *dir,
                     struct gl_rendered *out);
void gl_rendered_free(struct gl_rendered *r);

#endif
