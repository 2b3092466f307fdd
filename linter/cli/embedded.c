/* SPDX-License-Identifier: Apache-2.0 */
/* embedded.c: Dockerfiles in a document's code blocks, linted (see embedded.h). */
#include "linter/cli/embedded.h"

#include <stdlib.h>
#include <string.h>

#include "knowledge/derive/arch_derive.h"
#include "knowledge/derive/cuda_derive.h"
#include "linter/core/inputs.h"

/* The block's text without the fence's indentation (at most e->indent spaces a line),
 * NUL-terminated, into text (of e->end - e->start + 1 bytes); lines[k] says where its line
 * k + 1 stands in the document. Returns the text's length; *nlines the lines. */
static size_t cut_block(const struct gl_doc *doc, const struct gl_embedded *e, char *text,
                        struct gl_render_line *lines, size_t *nlines)
{
    size_t len = 0, n = 0;
    for (size_t p = e->start; p < e->end;) {
        const char *nl = memchr(doc->text + p, '\n', e->end - p);
        size_t q = nl ? (size_t)(nl - doc->text) : e->end;
        uint32_t k = 0;
        while (k < e->indent && p < q && doc->text[p] == ' ')
            p++, k++;
        memcpy(text + len, doc->text + p, q - p);
        len += q - p;
        text[len++] = '\n';
        lines[n++] = (struct gl_render_line){.file = 0,
                                             .line = e->line + (uint32_t)n - 1,
                                             .exact_cols = (uint32_t)(q - p) + 1,
                                             .shift = (int32_t)k,
                                             .rest_col = k + 1};
        p = q + 1;
    }
    text[len] = '\0';
    *nlines = n;
    return len;
}

static void lint_block(struct gl_run *run, const struct gl_doc *md, const struct gl_embedded *e)
{
    size_t size = e->end - e->start + 1, nl = 1; /* the last line may gain a '\n' */
    for (const char *p = md->text + e->start, *end = md->text + e->end;
         (p = memchr(p, '\n', (size_t)(end - p))) != NULL; p++)
        nl++;
    size_t held = size + 1 + nl * sizeof(struct gl_render_line);
    gl_heap_hold(held); /* (the workers' memory gate sees it, as a parser's scratch) */
    char *text = malloc(size + 1);
    struct gl_render_line *lines = calloc(nl, sizeof *lines);
    if (!text || !lines) {
        free(text);
        free(lines);
        gl_heap_drop(held);
        return;
    }
    const char *files[1] = {md->path};
    struct gl_render render = {.files = files, .nfiles = 1, .capfiles = 1, .lines = lines};
    size_t len = cut_block(md, e, text, lines, &render.nlines);
    const struct gl_input_type *type = gl_input_type_of(GL_IN_DOCKERFILE);
    struct gl_doc doc;
    gl_doc_init(&doc, md->path, GL_IN_DOCKERFILE, text, len);
    type->parse(&doc, run->cfg);
    if (!doc.error.set && !gl_arena_over(&doc.arena) && doc.tmpl.kind == GL_TEMPLATE_NONE) {
        doc.render = &render; /* (set after the parse: the findings' positions only) */
        gl_cuda_derive(&doc, run->cfg);
        gl_arch_derive(&doc);
        size_t files_before = run->files;
        gl_lint_doc(run, &doc);
        run->files = files_before;
    }
    gl_arena_free(&doc.arena);
    free(text);
    free(lines);
    gl_heap_drop(held);
}

void gl_lint_embedded(struct gl_run *run, const struct gl_doc *doc)
{
    for (size_t i = 0; i < doc->nembedded && !doc->error.set; i++)
        lint_block(run, doc, &doc->embedded[i]);
}
