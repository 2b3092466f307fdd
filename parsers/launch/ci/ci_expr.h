/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ci_expr.h: the literal values a GitHub Actions expression of a workflow step can take,
 * where the workflow writes them down: `${{ env.NAME }}` from the step's, the job's, then
 * the workflow's `env:` (the innermost that sets NAME), and `${{ matrix.KEY }}` from the
 * job's `strategy.matrix`: KEY's list, and each `include:` entry that sets KEY. A value
 * that is not a plain scalar (an expression itself, a mapping), an `exclude:`d one, or a
 * name nobody sets leaves the expression unknown: no values. Other expressions (secrets,
 * inputs, steps.*.outputs, github.*) are unknown too.
 */
#ifndef GPULINT_PARSERS_LAUNCH_CI_EXPR_H
#define GPULINT_PARSERS_LAUNCH_CI_EXPR_H

#include <stddef.h>

#include "parsers/yaml/yaml_tree.h"

/* Where a step's expressions are read from (any node may be NULL: a composite action's
 * step has no job and no workflow env). */
struct ci_scope {
    struct yt_stream *s;
    struct yt_node *step, *job, *workflow;
};

#define CI_EXPR_MAX_VALUES 32
/* GitHub runs at most 256 jobs of one matrix: a longer `include:` list is not followed
 * (each expression of a step reads it again; its length bounds that work). */
#define CI_MATRIX_MAX_JOBS 256

/* The values the expression whose inside is text[0, n) (what stands between `${{` and
 * `}}`, blanks around allowed) can take, into vals/lens (at most CI_EXPR_MAX_VALUES); their
 * count, 0 when not known (or more than that many). */
size_t ci_expr_values(const struct ci_scope *sc, const char *text, size_t n, const char **vals,
                      size_t *lens);

#endif
