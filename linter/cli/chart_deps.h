/* SPDX-License-Identifier: Apache-2.0 */
/*
 * chart_deps.h: a chart whose dependencies are not vendored, rendered without them.
 *
 * `helm template` refuses a chart whose Chart.yaml lists `dependencies:` that are not in
 * its `charts/` directory (they come from `helm dependency build`, which needs the
 * network). Its own templates can still be rendered: gl_chart_copy_without_deps copies
 * the chart to a temporary directory (regular files and directories only, at most
 * CHART_COPY_MAX_FILES files and CHART_COPY_MAX_BYTES bytes; links are not followed)
 * with the `dependencies:` block taken out of its Chart.yaml and no Chart.lock. The
 * copy keeps the chart's name, so helm's `# Source:` paths are those of the original.
 */
#ifndef GPULINT_CHART_DEPS_H
#define GPULINT_CHART_DEPS_H

#include <stdbool.h>
#include <stddef.h>

#define CHART_COPY_MAX_FILES 4096
#define CHART_COPY_MAX_BYTES (16u << 20)

/* Does helm's error text say that the chart's dependencies are missing? */
bool gl_chart_deps_missing(const char *helm_err);

/* The copy (a heap path to remove with gl_chart_copy_remove), NULL when the chart has no
 * `dependencies:` block or the copy failed or went over its bounds. *names gets the
 * dependencies' names, comma-separated (heap). */
char *gl_chart_copy_without_deps(const char *dir, char **names);

/* Remove the copy (recursively) and free its path. */
void gl_chart_copy_remove(char *copy);

#endif
