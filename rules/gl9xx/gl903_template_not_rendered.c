/* SPDX-License-Identifier: Apache-2.0 */
/* GL903 template-not-rendered: a Helm chart, a templated YAML file or a templated Dockerfile
 * whose resources were not linted (the fact is doc->tmpl, model_template.h). */
#include "rules/check.h"

#include <stdlib.h>
#include <string.h>

static void check(struct gl_check *c)
{
    const struct gl_template *t = &c->doc->tmpl;
    if (t->kind == GL_TEMPLATE_CHART) {
        struct gl_buf fix;
        gl_buf_init(&fix);
        gl_buf_printf(&fix, "lint what it renders: `helm template NAME %s | gpulint -`%s",
                      t->chart, strstr(t->why, "helm` on PATH")
                                    ? " (or put helm on PATH, or name it with --helm PATH)"
                                    : " (give it values with --helm-values FILE)");
        gl_report(c, t->loc, gl_buf_str(&fix),
                  "Helm chart `%s` was not rendered (%s): its resources were not linted",
                  t->chart, t->why);
        gl_buf_free(&fix);
    } else if (t->kind == GL_TEMPLATE_CHART_PART) {
        char *fix = xasprintf("`helm dependency build %s`, then lint again", t->chart);
        gl_report(c, t->loc, fix,
                  "Helm chart `%s` was %s: their resources were not linted", t->chart,
                  t->why);
        free(fix);
    } else if (t->kind == GL_TEMPLATE_FILE) {
        bool df = c->doc->kind == GL_IN_DOCKERFILE;
        gl_report(c, t->loc, NULL,
                  "this file is a template: `%s` makes it %s until it is rendered, so %s "
                  "not linted",
                  t->expr, df ? "an invalid Dockerfile" : "invalid YAML",
                  df ? "it was" : "its resources were");
    }
}

const struct gl_rule gl_rule_GL903 = {
    .id = "GL903",
    .name = "template-not-rendered",
    .severity = GL_SEV_INFO,
    .summary = "a Helm chart or a Go-/Jinja-templated YAML file or Dockerfile could not be "
               "rendered: its resources were not linted",
    .explanation =
        "A template is not a parse error: `{{ .Values.image }}` or `{% if gpu %}` make a "
        "file invalid YAML only until it is rendered. gpulint renders every Helm chart it "
        "finds (a directory with a Chart.yaml) with `helm template` when helm is on PATH "
        "or named with --helm, and lints the Kubernetes objects it renders, each finding "
        "at the line of the template it came from. This finding says where that did not "
        "happen, once per chart (at its Chart.yaml) or per templated YAML file outside a "
        "chart (at its first template expression): helm was not found, `helm template` "
        "failed (the message gives helm's first error line: a value the chart requires, a "
        "template helm cannot parse), or the file is filled in by another tool (Jinja, "
        "envsubst with Go templates; a Dockerfile with a `{% if %}` line where an "
        "instruction should stand, as cookiecutter templates have); or a chart was rendered "
        "without its dependencies because they are not vendored in its charts/ directory "
        "(its own templates were linted; the "
        "dependencies' were not). Nothing in it was checked, so a GPU request, an image tag or "
        "a shared-memory mount there may still be wrong. Render it and lint the output: "
        "`helm template NAME CHART | gpulint -` keeps helm's `# Source:` comments, so the "
        "findings still name the template files.",
    .bad = "# charts/trainer/templates/job.yaml, with no helm on PATH\n"
           "image: {{ .Values.image }}",
    .good = "helm template trainer charts/trainer -f values-gpu.yaml | gpulint -",
    .fix = "lint what it renders: `helm template NAME CHART | gpulint -`, or the file the "
           "tool that fills it in writes",
    .check = check,
};
