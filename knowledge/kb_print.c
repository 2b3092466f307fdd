/* SPDX-License-Identifier: Apache-2.0 */
/* kb_print.c: gl_kb_print, the knowledge table in use as text (`--print-knowledge`).
 * Driven by the schema tables: one line per row, `name=value` for every member that is
 * set, in schema order; values with spaces are quoted. */
#include "knowledge/kb_schema.h"

#include <string.h>

#include "linter/core/escape.h"

static const char *const kind_names[] = {"unknown", "new-feature", "production", "long-term-support",
                                         "evaluation"};

/* A value as it is, or in double quotes when it holds a space, a quote, or what escape.h
 * escapes (no control or bidi character reaches a terminal). */
static void print_text(FILE *out, const char *s)
{
    if (*s && !strpbrk(s, " \"") && gl_escape_plain(s)) {
        fputs(s, out);
        return;
    }
    struct gl_buf b;
    gl_buf_init(&b);
    gl_buf_addc(&b, '"');
    gl_escape_str(&b, s, GL_ESCAPE_QUOTED);
    gl_buf_addc(&b, '"');
    fwrite(b.data, 1, b.len, out);
    gl_buf_free(&b);
}

static void print_row(FILE *out, const struct kb_spec *spec, const char *row)
{
    fputs("  ", out);
    const char *sep = "";
    for (size_t k = 0; k < spec->n_fields; k++) {
        const struct kb_field *f = &spec->fields[k];
        const char *p = row + f->offset;
        bool dup = false;
        for (size_t j = 0; j < k; j++)
            dup = dup || spec->fields[j].offset == f->offset;
        if (dup)
            continue;
        switch (f->type) {
        case KBF_LIST: {
            const struct gl_kb_strlist *l = (const void *)p;
            if (!l->count)
                break;
            fprintf(out, "%s%s=", sep, f->cname);
            for (size_t i = 0; i < l->count; i++) {
                fputs(i ? "," : "", out);
                print_text(out, l->items[i]);
            }
            sep = " ";
            break;
        }
        case KBF_BRANCH:
        case KBF_BRANCH_LEAD:
        case KBF_UINT:
            if (*(const unsigned *)p) {
                fprintf(out, "%s%s=%u", sep, f->cname, *(const unsigned *)p);
                sep = " ";
            }
            break;
        case KBF_KIND: {
            unsigned kind = (unsigned)*(const enum gl_kb_branch_kind *)p;
            if (kind && kind < sizeof kind_names / sizeof *kind_names) {
                fprintf(out, "%s%s=%s", sep, f->cname, kind_names[kind]);
                sep = " ";
            }
            break;
        }
        case KBF_BOOL:
        case KBF_FLAG:
            if (*(const bool *)p) {
                fprintf(out, "%s%s", sep, f->cname);
                sep = " ";
            }
            break;
        default:
            if (*(const char *const *)p) {
                fprintf(out, "%s%s=", sep, f->cname);
                print_text(out, *(const char *const *)p);
                sep = " ";
            }
            break;
        }
    }
    fputc('\n', out);
}

void gl_kb_print(const struct gl_kb *kb, FILE *out)
{
    fprintf(out, "CUDA knowledge base collected %s (%s)\n", gl_kb_date(kb),
            kb->arena ? "loaded with --knowledge" : "built in");
    for (size_t i = 0; i < kb_n_specs; i++) {
        const struct kb_spec *spec = &kb_specs[i];
        size_t count;
        const char *rows = kb_spec_rows(spec, kb, &count);
        fprintf(out, "\n%s", spec->path[0]);
        for (size_t k = 1; k < KB_PATH_MAX && spec->path[k]; k++)
            fprintf(out, ".%s", spec->path[k]);
        if (spec->shape == KB_OBJECT)
            fputs(":\n", out);
        else
            fprintf(out, " (%zu rows):\n", count);
        for (size_t r = 0; r < count; r++)
            print_row(out, spec, rows + r * spec->row_size);
    }
}
