/* SPDX-License-Identifier: Apache-2.0 */
/*
 * model_template.h: templates gpulint did not lint, and rendered streams (part of the model).
 *
 * Two facts about inputs that are not plain manifests:
 *
 *  - gl_template: this input is a template that was not rendered, so its resources were
 *    not linted (GL903 reports it; a template is never a parse error). Either a YAML file
 *    whose Go-template or Jinja expressions (`{{ ... }}`, `{% ... %}`) make it invalid
 *    YAML (set by the YAML reader, parsers/yaml), or a Helm chart that could not be
 *    rendered (no helm, `helm template` failed; set by the engine, linter/cli/chart.c).
 *
 *  - gl_render: this input is the output of `helm template`, and each of its lines came
 *    from a template file named by helm's `# Source:` comments. Set by the rendered-stream
 *    parser (parsers/manifest/helm_stream.c); the engine moves every finding of the doc to
 *    the template line it came from (gl_doc_origin, after inline ignores are applied in
 *    the rendered text).
 */
#ifndef GPULINT_MODEL_TEMPLATE_H
#define GPULINT_MODEL_TEMPLATE_H

enum gl_template_kind {
    GL_TEMPLATE_NONE = 0,
    GL_TEMPLATE_FILE,  /* a templated YAML file that is not valid YAML as it stands */
    GL_TEMPLATE_CHART, /* a Helm chart that was not rendered */
    GL_TEMPLATE_CHART_PART, /* a Helm chart rendered without some of its parts (`why`
                               names them: dependencies that are not vendored) */
};

struct gl_template {
    enum gl_template_kind kind;
    struct gl_loc loc;  /* where GL903 points: the first template expression of a file;
                           line 1 column 1 of a chart's Chart.yaml */
    const char *expr;   /* GL_TEMPLATE_FILE: that expression as written (cut short) */
    const char *chart;  /* GL_TEMPLATE_CHART: the chart directory, as the walk found it */
    const char *why;    /* GL_TEMPLATE_CHART: why it was not rendered ("no `helm` on
                           PATH", "`helm template` failed: Error: ...") */
};

/* Where line i + 1 of a rendered stream came from. */
struct gl_render_line {
    uint32_t file;     /* index into gl_render.files; UINT32_MAX: no `# Source:` above */
    uint32_t line;     /* the line in that file */
    /* Rendered columns [1, exact_cols] stand in the template as written, shifted by
     * `shift` bytes (a template that indents with nindent); a column after them came
     * from a template expression and maps to column `rest_col`. exact_cols 0: the line
     * is not in the template as written (an include, toYaml, a values default): any
     * column maps to rest_col. */
    uint32_t exact_cols;
    int32_t shift;
    uint32_t rest_col;
};

struct gl_render {
    const char **files;          /* the templates, as findings name them */
    size_t nfiles, capfiles;
    struct gl_render_line *lines; /* one per line of the rendered text */
    size_t nlines;
};

#endif
