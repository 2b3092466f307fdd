/* model_doc.c: a doc's set-up and positions in its text (see model.h). */
#include "linter/model.h"

#include <string.h>

void gl_doc_init(struct gl_doc *doc, const char *path, enum gl_input_kind kind,
                 const char *text, size_t len)
{
    memset(doc, 0, sizeof *doc);
    gl_arena_init(&doc->arena);
    doc->path = path;
    doc->kind = kind;
    doc->text = text;
    doc->len = len;
}

size_t gl_doc_offset(struct gl_doc *doc, struct gl_loc loc)
{
    if (doc->lines.text != doc->text)
        gl_lines_init(&doc->lines, &doc->arena, doc->text, doc->len);
    return gl_lines_offset(&doc->lines, loc);
}

bool gl_doc_text_at(struct gl_doc *doc, struct gl_loc loc, const char *text)
{
    size_t off = gl_doc_offset(doc, loc), n = strlen(text);
    if (off == SIZE_MAX || off + n > doc->len)
        return false;
    return memcmp(doc->text + off, text, n) == 0 && !memchr(text, '\n', n);
}
