/* SPDX-License-Identifier: Apache-2.0 */
/*
 * kb_gen: build-time generator of the compiled-in CUDA knowledge base.
 *
 * Usage: kb_gen FACTS.yaml OUT.c
 * Loads FACTS.yaml with the run-time loader (knowledge/kb_load.c) and writes OUT.c:
 * static const initializers of every table of struct gl_kb, driven by the same schema
 * tables (kb_specs), and gl_kb_builtin() returning them. A file the loader rejects fails
 * the build with file:line:col: message.
 */
#include "knowledge/kb_schema.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A C string literal for s (or NULL). Non-printable and non-ASCII bytes as octal. */
static void add_literal(struct gl_buf *b, const char *s)
{
    if (!s) {
        gl_buf_adds(b, "NULL");
        return;
    }
    gl_buf_addc(b, '"');
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p == '"' || *p == '\\')
            gl_buf_printf(b, "\\%c", *p);
        else if (*p < 0x20 || *p >= 0x7f || *p == '?')
            gl_buf_printf(b, "\\%03o", *p);
        else
            gl_buf_addc(b, (char)*p);
    }
    gl_buf_addc(b, '"');
}

struct gen {
    FILE *out;
    char **lists; /* initializer text of each list written so far, to share equal lists */
    size_t n_lists, cap_lists;
};

/* The number of an array holding list l, writing the array if no equal one exists. */
static size_t emit_list(struct gen *g, const struct gl_kb_strlist *l)
{
    struct gl_buf b;
    gl_buf_init(&b);
    for (size_t i = 0; i < l->count; i++) {
        gl_buf_adds(&b, i ? ", " : "");
        add_literal(&b, l->items[i]);
    }
    for (size_t i = 0; i < g->n_lists; i++) {
        if (strcmp(g->lists[i], gl_buf_str(&b)) == 0) {
            gl_buf_free(&b);
            return i;
        }
    }
    if (g->n_lists == g->cap_lists) {
        g->cap_lists = g->cap_lists ? 2 * g->cap_lists : 64;
        g->lists = xrealloc(g->lists, g->cap_lists * sizeof *g->lists);
    }
    fprintf(g->out, "static const char *const kb_list%zu[] = {%s};\n", g->n_lists, gl_buf_str(&b));
    g->lists[g->n_lists] = xstrdup(gl_buf_str(&b));
    gl_buf_free(&b);
    return g->n_lists++;
}

static bool emitted_before(const struct kb_spec *spec, size_t k)
{
    for (size_t j = 0; j < k; j++) {
        if (spec->fields[j].offset == spec->fields[k].offset)
            return true;
    }
    return false;
}

/* "{.a = ..., .b = ...}" for one row; members that are NULL, 0 or false are left out. */
static void emit_row(struct gen *g, const struct kb_spec *spec, const void *row, struct gl_buf *b)
{
    const char *sep = "";
    gl_buf_addc(b, '{');
    for (size_t k = 0; k < spec->n_fields; k++) {
        const struct kb_field *f = &spec->fields[k];
        const char *p = (const char *)row + f->offset;
        if (emitted_before(spec, k))
            continue;
        size_t start = b->len;
        gl_buf_printf(b, "%s.%s = ", sep, f->cname);
        switch (f->type) {
        case KBF_LIST: {
            const struct gl_kb_strlist *l = (const void *)p;
            if (l->count)
                gl_buf_printf(b, "{kb_list%zu, %zu}", emit_list(g, l), l->count);
            else
                b->len = start;
            break;
        }
        case KBF_BRANCH:
        case KBF_BRANCH_LEAD:
        case KBF_UINT:
            if (*(const unsigned *)p)
                gl_buf_printf(b, "%u", *(const unsigned *)p);
            else
                b->len = start;
            break;
        case KBF_KIND:
            if (*(const enum gl_kb_branch_kind *)p)
                gl_buf_printf(b, "%d", (int)*(const enum gl_kb_branch_kind *)p);
            else
                b->len = start;
            break;
        case KBF_BOOL:
        case KBF_FLAG:
            if (*(const bool *)p)
                gl_buf_adds(b, "true");
            else
                b->len = start;
            break;
        default: /* the string types */
            if (*(const char *const *)p)
                add_literal(b, *(const char *const *)p);
            else
                b->len = start;
            break;
        }
        if (b->len != start)
            sep = ", ";
    }
    gl_buf_addc(b, '}');
}

static void emit_table(struct gen *g, const struct kb_spec *spec, const struct gl_kb *kb)
{
    size_t count;
    const char *rows = kb_spec_rows(spec, kb, &count);
    if (count == 0)
        return;
    struct gl_buf b;
    gl_buf_init(&b);
    gl_buf_printf(&b, "static const %s kb_%s[] = {\n", spec->c_type, spec->name);
    for (size_t i = 0; i < count; i++) {
        gl_buf_adds(&b, "    ");
        emit_row(g, spec, rows + i * spec->row_size, &b);
        gl_buf_adds(&b, ",\n");
    }
    gl_buf_adds(&b, "};\n");
    fputs(gl_buf_str(&b), g->out);
    gl_buf_free(&b);
}

/* The table's members in struct gl_kb are named spec->name and n_<spec->name>. */
static void add_table_ref(struct gl_buf *init, const struct kb_spec *spec, const struct gl_kb *kb)
{
    size_t count;
    kb_spec_rows(spec, kb, &count);
    if (count)
        gl_buf_printf(init, "    .%s = kb_%s, .n_%s = %zu,\n", spec->name, spec->name, spec->name, count);
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: kb_gen FACTS.yaml OUT.c\n");
        return 2;
    }
    struct gl_kb *kb;
    struct gl_kb_error err;
    if (gl_kb_load_file(argv[1], &kb, &err) != 0) {
        fprintf(stderr, "%s:%u:%u: %s\n", argv[1], err.loc.line, err.loc.col, err.message);
        return 1;
    }
    struct gen g = {fopen(argv[2], "w"), NULL, 0, 0};
    if (!g.out) {
        perror(argv[2]);
        return 1;
    }
    fprintf(g.out, "/* Generated by tools/kb_gen from %s: do not edit. */\n", "knowledge/cuda_facts.yaml");
    fputs("#include \"knowledge/kb.h\"\n\n", g.out);
    struct gl_buf init;
    gl_buf_init(&init);
    for (size_t i = 0; i < kb_n_specs; i++) {
        const struct kb_spec *spec = &kb_specs[i];
        if (spec->shape == KB_OBJECT) {
            size_t one;
            gl_buf_printf(&init, "    .%s = ", spec->name);
            emit_row(&g, spec, kb_spec_rows(spec, kb, &one), &init);
            gl_buf_adds(&init, ",\n");
        } else {
            emit_table(&g, spec, kb);
            add_table_ref(&init, spec, kb);
        }
    }
    fprintf(g.out, "\nstatic const struct gl_kb kb_builtin = {\n%s};\n\n", gl_buf_str(&init));
    fputs("const struct gl_kb *gl_kb_builtin(void)\n{\n    return &kb_builtin;\n}\n", g.out);
    gl_buf_free(&init);
    for (size_t i = 0; i < g.n_lists; i++)
        free(g.lists[i]);
    free(g.lists);
    gl_kb_free(kb);
    if (fclose(g.out) != 0) {
        perror(argv[2]);
        return 1;
    }
    return 0;
}
