/* model_doc.c: positions in a doc's text (see model.h). */
#include "linter/model.h"

#include <string.h>

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
