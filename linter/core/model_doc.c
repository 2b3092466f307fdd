/* SPDX-License-Identifier: Apache-2.0 */
/* model_doc.c: a doc's set-up and positions in its text (see model.h). */
#include "linter/core/model.h"

#include <string.h>

void gl_doc_init(struct gl_doc *doc, const char *path, enum gl_input_kind kind,
                 const char *text, size_t len)
{
    memset(doc, 0, sizeof *doc);
    gl_arena_init(&doc->arena);
    doc->arena.limit = (size_t)gl_limit(GL_LIMIT_PARSE_MEMORY);
    doc->path = path;
    doc->kind = kind;
    doc->text = text;
    doc->len = len;
}

void gl_doc_drop_facts(struct gl_doc *doc)
{
    doc->nrefs = doc->nenv = doc->ncuda = doc->narchlists = doc->nlaunches = doc->nsharing = 0;
    doc->df = NULL;
    doc->image = NULL;
}

void gl_doc_fail_limit(struct gl_doc *doc, enum gl_limit_id id, struct gl_loc loc)
{
    if (doc->error.set)
        return;
    char msg[256];
    doc->error.set = true;
    doc->error.loc = loc;
    doc->error.message = gl_arena_strdup(&doc->arena, gl_limit_message(id, msg, sizeof msg));
    doc->error.fix = GL_LIMIT_FIX;
}

struct gl_loc gl_text_loc(const char *text, size_t len, size_t off)
{
    if (off > len)
        off = len;
    uint32_t line = 1;
    size_t start = 0;
    for (const char *p = text, *end = text + off; (p = memchr(p, '\n', (size_t)(end - p)));
         p++) {
        line++;
        start = (size_t)(p - text) + 1;
    }
    return (struct gl_loc){line, (uint32_t)(off - start + 1)};
}

size_t gl_doc_offset(struct gl_doc *doc, struct gl_loc loc)
{
    if (doc->lines.text != doc->text)
        gl_lines_init(&doc->lines, &doc->arena, doc->text, doc->len);
    return gl_lines_offset(&doc->lines, loc);
}

void gl_doc_lines_known(struct gl_doc *doc, const size_t *starts, size_t n)
{
    if (doc->lines.text != doc->text)
        gl_lines_init(&doc->lines, &doc->arena, doc->text, doc->len);
    gl_lines_known(&doc->lines, starts, n);
}

bool gl_doc_text_at(struct gl_doc *doc, struct gl_loc loc, const char *text)
{
    size_t off = gl_doc_offset(doc, loc), n = strlen(text);
    if (off == SIZE_MAX || off + n > doc->len)
        return false;
    return memcmp(doc->text + off, text, n) == 0 && !memchr(text, '\n', n);
}

bool gl_doc_origin(const struct gl_doc *doc, struct gl_loc at, const char **file,
                   struct gl_loc *out)
{
    const struct gl_render *r = doc->render;
    if (!r || at.line == 0 || at.line > r->nlines)
        return false;
    const struct gl_render_line *l = &r->lines[at.line - 1];
    if (l->file >= r->nfiles)
        return false;
    *file = r->files[l->file];
    out->line = l->line;
    if (at.col >= 1 && at.col <= l->exact_cols && (int64_t)at.col + l->shift >= 1)
        out->col = (uint32_t)((int64_t)at.col + l->shift);
    else
        out->col = l->rest_col;
    return true;
}
