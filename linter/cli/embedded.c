/* SPDX-License-Identifier: Apache-2.0 */
/* embedded.c: Dockerfiles in a document's code blocks, linted (see embedded.h). */
#include "linter/cli/embedded.h"

#include <stdlib.h>
#include <string.h>

#include "knowledge/derive/arch_derive.h"
#include "knowledge/derive/cuda_derive.h"
#include "linter/core/inputs.h"
#include "linter/core/rule.h"

/* Each line of the block, without the fence's indentation (at most e->indent spaces):
 * [*p, *q) of doc->text, k the spaces dropped. Returns false past the block's end. */
static bool next_line(const struct gl_doc *doc, const struct gl_embedded *e, size_t *p,
                      size_t *q, uint32_t *k)
{
    if (*p >= e->end)
        return false;
    const char *nl = memchr(doc->text + *p, '\n', e->end - *p);
    *q = nl ? (size_t)(nl - doc->text) : e->end;
    for (*k = 0; *k < e->indent && *p < *q && doc->text[*p] == ' ';)
        (*p)++, (*k)++;
    return true;
}

/* The block's text, NUL-terminated, into text (of e->end - e->start + 2 bytes); returns
 * its length and *nlines its lines. */
static size_t cut_text(const struct gl_doc *doc, const struct gl_embedded *e, char *text,
                       size_t *nlines)
{
    size_t len = 0, n = 0, q;
    uint32_t k;
    for (size_t p = e->start; next_line(doc, e, &p, &q, &k); p = q + 1, n++) {
        memcpy(text + len, doc->text + p, q - p);
        len += q - p;
        text[len++] = '\n';
    }
    text[len] = '\0';
    *nlines = n;
    return len;
}

/* Where each of the block's lines stands in the document: line k + 1 of the text is the
 * document's line e->line + k, its columns shifted by the spaces dropped. */
static void map_lines(const struct gl_doc *doc, const struct gl_embedded *e,
                      struct gl_render_line *lines)
{
    size_t n = 0, q;
    uint32_t k;
    for (size_t p = e->start; next_line(doc, e, &p, &q, &k); p = q + 1, n++)
        lines[n] = (struct gl_render_line){.file = 0,
                                           .line = e->line + (uint32_t)n,
                                           .exact_cols = (uint32_t)(q - p) + 1,
                                           .shift = (int32_t)k,
                                           .rest_col = k + 1};
}

/* The document's global ignores (`# gpulint global ignore=GL101` anywhere in it) hold for
 * the Dockerfiles of its blocks too; ids no rule has were reported (GL902) in the
 * document already. */
static void global_ignores(const struct gl_doc *md, struct gl_doc *doc)
{
    for (size_t i = 0; i < md->nignores; i++) {
        const struct gl_ignore *ig = &md->ignores[i];
        if (ig->first != 0 || ig->last != UINT32_MAX)
            continue;
        struct gl_ignore *copy = GL_APPEND(&doc->arena, doc->ignores, doc->nignores,
                                           doc->capignores);
        *copy = *ig;
        copy->nids = 0;
        copy->ids = gl_arena_alloc(&doc->arena, (ig->nids ? ig->nids : 1) * sizeof *copy->ids);
        for (size_t k = 0; copy->ids && k < ig->nids; k++)
            if (gl_rule_find(ig->ids[k]))
                copy->ids[copy->nids++] = ig->ids[k];
    }
}

/* The block linted as a Dockerfile; a block that does not parse whole gives nothing. The
 * map of its lines is made only for one that parses (a block that fills parse-memory
 * holds no more than its text beside the arena). */
static void lint_block(struct gl_run *run, const struct gl_doc *md, const struct gl_embedded *e,
                       gl_lint_fn lint)
{
    size_t size = e->end - e->start + 2, nlines = 0, mapped = 0;
    gl_heap_hold(size); /* (the workers' memory gate sees it, as a parser's scratch) */
    char *text = malloc(size);
    if (!text) {
        gl_heap_drop(size);
        return;
    }
    size_t len = cut_text(md, e, text, &nlines);
    struct gl_doc doc;
    gl_doc_init(&doc, md->path, GL_IN_DOCKERFILE, text, len);
    gl_input_type_of(GL_IN_DOCKERFILE)->parse(&doc, run->cfg);
    if (!doc.error.set && !gl_arena_over(&doc.arena) && doc.tmpl.kind == GL_TEMPLATE_NONE) {
        mapped = nlines * sizeof(struct gl_render_line);
        gl_heap_hold(mapped);
        const char *files[1] = {md->path};
        struct gl_render render = {.files = files, .nfiles = 1, .capfiles = 1,
                                   .lines = calloc(nlines ? nlines : 1, sizeof *render.lines),
                                   .nlines = nlines};
        if (render.lines) {
            map_lines(md, e, render.lines);
            global_ignores(md, &doc);
            doc.render = &render; /* the findings' positions: the document's */
            gl_cuda_derive(&doc, run->cfg);
            gl_arch_derive(&doc);
            size_t files_before = run->files;
            lint(run, &doc);
            run->files = files_before;
        }
        free(render.lines);
    }
    gl_arena_free(&doc.arena);
    free(text);
    gl_heap_drop(size + mapped);
}

void gl_lint_embedded(struct gl_run *run, const struct gl_doc *doc, gl_lint_fn lint)
{
    for (size_t i = 0; i < doc->nembedded && !doc->error.set; i++)
        lint_block(run, doc, &doc->embedded[i], lint);
}
