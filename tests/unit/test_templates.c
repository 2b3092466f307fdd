/* SPDX-License-Identifier: Apache-2.0 */
/* test_templates.c: template expressions in YAML (parsers/yaml/yaml_template.h), the
 * template fact the YAML reader records instead of a parse error, and rendered Helm lines
 * put back on their template lines (parsers/manifest/helm_align.h, helm_stream.c). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "linter/core/inputs.h"
#include "parsers/manifest/helm_align.h"
#include "parsers/manifest/k8s.h"
#include "parsers/yaml/yaml_template.h"
#include "test_support.h"

static bool find_in(const char *text, size_t *s, size_t *e)
{
    return yt_template_find(text, strlen(text), strlen(text), s, e);
}

static void test_find(void **state)
{
    (void)state;
    size_t s, e;
    assert_true(find_in("image: {{ .Values.image }}\n", &s, &e));
    assert_int_equal(s, 7);
    assert_int_equal(e, 26);
    assert_true(find_in("{% if gpu %}\n", &s, &e));
    assert_int_equal(s, 0);
    assert_true(find_in("{# a Jinja comment #}\n", &s, &e));
    /* multi-line Go-template comments */
    assert_true(find_in("{{- /*\n  notes\n*/ -}}\nkind: Pod\n", &s, &e));
    assert_int_equal(e, 21);
    /* not expressions: GitHub Actions, YAML comments, an open brace, flow mappings */
    assert_false(find_in("runs-on: ${{ matrix.os }}\n", &s, &e));
    assert_false(find_in("  # set it with {{ .Values.x }}\n", &s, &e));
    assert_false(find_in("a: {{\n", &s, &e));
    assert_false(find_in("a: {b: {c: 1}}\n", &s, &e));
    /* `before`: only expressions that start before that byte */
    const char *t = "a: 1\nb: {{ x }}\n";
    assert_false(yt_template_find(t, strlen(t), 8, &s, &e));
    assert_true(yt_template_find(t, strlen(t), 9, &s, &e));
}

static void test_find_is_linear(void **state)
{
    (void)state;
    /* a megabyte of openings that never close: each byte is searched once per kind */
    size_t n = 1 << 20;
    char *t = malloc(n + 1);
    memset(t, '{', n);
    t[n] = '\0';
    size_t s, e;
    assert_false(yt_template_find(t, n, n, &s, &e));
    struct gl_arena a;
    gl_arena_init(&a);
    assert_null(yt_template_blank(&a, t, n));
    gl_arena_free(&a);
    free(t);
}

static void test_blank(void **state)
{
    (void)state;
    struct gl_arena a;
    gl_arena_init(&a);
    const char *t = "{{- if .Values.on }}\n"
                    "image: {{ .Values.image }}\n"
                    "  {{- include \"x\" . | nindent 2 }} {{ end }}\n"
                    "name: {{ .Release.Name }}-svc\n"
                    "{{- end }}\n";
    /* every byte kept in place: each line as long as it was */
    const char *want = "                    \n"
                       "image: _                  \n"
                       "                                            \n"
                       "name: _                  -svc\n"
                       "          \n";
    char *b = yt_template_blank(&a, t, strlen(t));
    assert_non_null(b);
    assert_string_equal(b, want);
    assert_null(yt_template_blank(&a, "a: 1\n", 5));
    gl_arena_free(&a);
}

/* Parse `text` as Kubernetes; the doc is the caller's to free. */
static void parse_k8s(struct gl_doc *d, const char *text)
{
    test_doc_init(d, "t.yaml", GL_IN_K8S, text, strlen(text));
    gl_parse_k8s_doc(d, NULL);
}

static void test_template_is_no_parse_error(void **state)
{
    (void)state;
    struct gl_doc d;
    /* a first document that parses, then a template: no error, no facts */
    parse_k8s(&d, "apiVersion: v1\nkind: Pod\nspec:\n  containers:\n  - name: a\n    image: x\n"
                  "---\n{{- if .Values.b }}\napiVersion: v1\n");
    assert_false(d.error.set);
    assert_int_equal(d.tmpl.kind, GL_TEMPLATE_FILE);
    assert_loc(d.tmpl.loc, 8, 1);
    assert_string_equal(d.tmpl.expr, "{{- if .Values.b }}");
    assert_int_equal(d.nlaunches, 0);
    assert_int_equal(d.nrefs, 0);
    gl_arena_free(&d.arena);
    /* a syntax error before any expression is still one */
    parse_k8s(&d, "a: b: c\nname: {{ x }}\n");
    assert_true(d.error.set);
    assert_int_equal(d.tmpl.kind, GL_TEMPLATE_NONE);
    gl_arena_free(&d.arena);
    /* recognised as Kubernetes by what it renders to */
    const char *t = "{{- if .Values.on }}\napiVersion: apps/v1\nkind: Deployment\n{{- end }}\n";
    assert_int_equal(gl_sniff("d.yaml", t, strlen(t), false), GL_IN_K8S);
}

/* Align rendered[first..end) with template `tmpl`; the lines in out. */
static void align(const char *tmpl, const char *rendered, struct gl_render_line *out, size_t nout)
{
    struct gl_arena a;
    gl_arena_init(&a);
    struct helm_tmpl t;
    helm_tmpl_init(&t, &a, tmpl, strlen(tmpl));
    uint32_t starts[64];
    size_t n = 0, len = strlen(rendered);
    starts[n++] = 0;
    for (size_t i = 0; i < len && n < 64; i++)
        if (rendered[i] == '\n' && i + 1 < len)
            starts[n++] = (uint32_t)(i + 1);
    assert_true(n <= nout);
    helm_align(&t, rendered, len, starts, n, 0, n, 0, out);
    helm_tmpl_free(&t);
    gl_arena_free(&a);
}

static void test_align(void **state)
{
    (void)state;
    const char *tmpl = "apiVersion: v1\n"                       /* 1 */
                       "kind: Pod\n"                            /* 2 */
                       "metadata:\n"                            /* 3 */
                       "  name: {{ .Release.Name }}\n"          /* 4 */
                       "  labels:\n"                            /* 5 */
                       "    {{- include \"l\" . | nindent 4 }}\n" /* 6 */
                       "spec:\n"                                /* 7 */
                       "  containers:\n"                        /* 8 */
                       "    - name: main\n";                    /* 9 */
    const char *rendered = "apiVersion: v1\n"
                           "kind: Pod\n"
                           "metadata:\n"
                           "  name: x\n"
                           "  labels:\n"
                           "    app: x\n"
                           "spec:\n"
                           "  containers:\n"
                           "  - name: main\n"; /* helm reindented */
    struct gl_render_line out[9];
    align(tmpl, rendered, out, 9);
    struct gl_doc d;
    memset(&d, 0, sizeof d);
    const char *files[] = {"t.yaml"};
    struct gl_render r = {.files = files, .nfiles = 1, .lines = out, .nlines = 9};
    d.render = &r;
    const char *file;
    struct gl_loc at;
    /* an exact line, with its indentation shifted */
    assert_true(gl_doc_origin(&d, (struct gl_loc){9, 5}, &file, &at));
    assert_string_equal(file, "t.yaml");
    assert_loc(at, 9, 7);
    /* a key before an expression: the key as written, the value at the expression */
    assert_true(gl_doc_origin(&d, (struct gl_loc){4, 3}, &file, &at));
    assert_loc(at, 4, 3);
    assert_true(gl_doc_origin(&d, (struct gl_loc){4, 9}, &file, &at));
    assert_loc(at, 4, 9);
    /* a line from an include: the resource's first line in the template */
    assert_true(gl_doc_origin(&d, (struct gl_loc){6, 5}, &file, &at));
    assert_loc(at, 1, 1);
    /* no render map, or a line past it: not moved */
    assert_false(gl_doc_origin(&d, (struct gl_loc){10, 1}, &file, &at));
    d.render = NULL;
    assert_false(gl_doc_origin(&d, (struct gl_loc){1, 1}, &file, &at));
}

static void test_align_range_wraps(void **state)
{
    (void)state;
    /* a range renders the template's lines twice: the second pass starts over */
    const char *tmpl = "{{- range .Values.gpus }}\n- name: gpu-{{ . }}\n  count: 1\n{{- end }}\n";
    const char *rendered = "- name: gpu-a\n  count: 1\n- name: gpu-b\n  count: 1\n";
    struct gl_render_line out[4];
    align(tmpl, rendered, out, 4);
    assert_int_equal(out[0].line, 2);
    assert_int_equal(out[1].line, 3);
    assert_int_equal(out[2].line, 2);
    assert_int_equal(out[3].line, 3);
    assert_int_equal(out[2].exact_cols, 12); /* `- name: gpu-` */
    assert_int_equal(out[2].rest_col, 13);   /* the `{{` */
}

static void test_stream_sources(void **state)
{
    (void)state;
    /* templates that cannot be read are numbered as `helm template --show-only` does */
    const char *stream = "---\n# Source: c/templates/a.yaml\napiVersion: v1\nkind: Pod\n"
                         "---\n# Source: c/templates/b.yaml\napiVersion: v1\n"
                         "---\n# Source: c/templates/a.yaml\napiVersion: v1\nkind: Pod\n";
    struct gl_doc d;
    test_doc_init(&d, "-", GL_IN_HELM, stream, strlen(stream));
    gl_input_type_of(GL_IN_HELM)->parse(&d, NULL);
    assert_false(d.error.set);
    assert_non_null(d.render);
    assert_int_equal(d.render->nfiles, 2);
    const char *file;
    struct gl_loc at;
    assert_true(gl_doc_origin(&d, (struct gl_loc){4, 1}, &file, &at));
    assert_string_equal(file, "c/templates/a.yaml");
    assert_loc(at, 4, 1);
    assert_true(gl_doc_origin(&d, (struct gl_loc){7, 3}, &file, &at));
    assert_string_equal(file, "c/templates/b.yaml");
    assert_loc(at, 3, 3);
    assert_true(gl_doc_origin(&d, (struct gl_loc){11, 1}, &file, &at));
    assert_string_equal(file, "c/templates/a.yaml");
    assert_loc(at, 8, 1); /* after a.yaml's first object: ---, # Source:, 2 lines */
    assert_false(gl_doc_origin(&d, (struct gl_loc){1, 1}, &file, &at)); /* before any */
    gl_arena_free(&d.arena);
    /* paths that leave the working directory are never read */
    const char *up = "# Source: ../../etc/passwd\napiVersion: v1\nkind: Pod\n";
    test_doc_init(&d, "-", GL_IN_HELM, up, strlen(up));
    gl_input_type_of(GL_IN_HELM)->parse(&d, NULL);
    assert_true(gl_doc_origin(&d, (struct gl_loc){2, 1}, &file, &at));
    assert_loc(at, 3, 1);
    gl_arena_free(&d.arena);
    /* standard input is helm's output when it starts with `# Source:` */
    const struct gl_input_type *h = gl_input_type_of(GL_IN_HELM);
    assert_true(h->by_content("-", stream, strlen(stream)));
    assert_false(h->by_content("-", "FROM x\n", 7));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_find),
        cmocka_unit_test(test_find_is_linear),
        cmocka_unit_test(test_blank),
        cmocka_unit_test(test_template_is_no_parse_error),
        cmocka_unit_test(test_align),
        cmocka_unit_test(test_align_range_wraps),
        cmocka_unit_test(test_stream_sources),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
