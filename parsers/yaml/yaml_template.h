/* SPDX-License-Identifier: Apache-2.0 */
/*
 * yaml_template.h: Go-template and Jinja expressions in YAML text.
 *
 * A YAML file may be a template: Helm and other Go-template tools write `{{ ... }}`,
 * Jinja (Ansible, cookiecutter, Salt) `{{ ... }}`, `{% ... %}` and `{# ... #}`. Such a
 * file is YAML only once rendered. When the YAML reader fails on one and a template
 * expression stands on or before the line it failed on, the file is a template, not a
 * parse error (RULES.md, "Templates are not parse errors"): yt_report() records it as
 * doc->tmpl (model_template.h) for GL903 and drops the facts read before the error.
 *
 * An expression opens with `{{`, `{%` or `{#` and closes with the matching `}}`, `%}`,
 * `#}` within TEMPLATE_SPAN_MAX bytes (it may span lines, as a Go-template comment may). Not
 * expressions: GitHub Actions' `${{ ... }}` (valid YAML inside a scalar, read by
 * ciyaml), and anything on a line that is a YAML comment (`# ...`).
 *
 * For recognition (yt_sniff), yt_template_blank() gives a copy of the text in which each
 * expression that is alone on its lines becomes blanks and every other one a `_`
 * followed by blanks, keeping every line and column: `image: {{ .Values.image }}` reads
 * as `image: _`, a `{{- if ... }}` line as an empty one. So a Helm template of a
 * Deployment is still recognised as Kubernetes, and then reported as a template.
 */
#ifndef GPULINT_PARSERS_YAML_TEMPLATE_H
#define GPULINT_PARSERS_YAML_TEMPLATE_H

#include "linter/core/util.h"

#define TEMPLATE_SPAN_MAX 4096

/* The first template expression of text[0..len) that starts before byte `before`:
 * true with [*start, *end) its bytes. */
bool yt_template_find(const char *text, size_t len, size_t before, size_t *start,
                      size_t *end);

/* text[0..len) with its template expressions blanked out (see above), in `a`; NULL
 * when it holds none. */
char *yt_template_blank(struct gl_arena *a, const char *text, size_t len);

#endif
