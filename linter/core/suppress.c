/* SPDX-License-Identifier: Apache-2.0 */
/* suppress.c: inline ignore pragmas (see suppress.h). */
#include "linter/core/suppress.h"

#include <string.h>

#include "linter/core/rule.h"

static size_t skip_blanks(const char *s, size_t i, size_t n)
{
    while (i < n && (s[i] == ' ' || s[i] == '\t'))
        i++;
    return i;
}

static bool word_at(const char *s, size_t i, size_t n, const char *w)
{
    size_t m = strlen(w);
    return i + m <= n && memcmp(s + i, w, m) == 0;
}

bool gl_pragma_parse(struct gl_doc *doc, const char *text, size_t len, struct gl_loc loc,
                     uint32_t first, uint32_t last)
{
    size_t i = skip_blanks(text, 0, len);
    if (!word_at(text, i, len, "gpulint"))
        return false;
    i = skip_blanks(text, i + 7, len);
    bool global = false;
    if (word_at(text, i, len, "global")) {
        global = true;
        i = skip_blanks(text, i + 6, len);
    }
    if (!word_at(text, i, len, "ignore"))
        return false;
    i = skip_blanks(text, i + 6, len);
    if (i >= len || (text[i] != '=' && text[i] != ':'))
        return false;
    i = skip_blanks(text, i + 1, len);

    struct gl_ignore *ig = GL_APPEND(&doc->arena, doc->ignores, doc->nignores, doc->capignores);
    ig->first = global ? 0 : first;
    ig->last = global ? UINT32_MAX : last;
    ig->loc = loc;
    size_t cap = 0, capl = 0, nl = 0;
    while (i < len) {
        size_t s = i;
        while (i < len && text[i] != ',' && text[i] != ' ' && text[i] != '\t' &&
               text[i] != '\r' && text[i] != '\n')
            i++;
        if (i > s) {
            const char **id = GL_APPEND(&doc->arena, ig->ids, ig->nids, cap);
            *id = gl_arena_strndup(&doc->arena, text + s, i - s);
            struct gl_loc *l = GL_APPEND(&doc->arena, ig->id_locs, nl, capl);
            *l = (struct gl_loc){loc.line, loc.col + (uint32_t)s};
        }
        if (i < len && text[i] != ',')
            break; /* the list ends at the first blank: the rest is a comment */
        i++;
        i = skip_blanks(text, i, len);
    }
    return true;
}

bool gl_suppressed(const struct gl_doc *doc, const struct gl_finding *f)
{
    for (size_t i = 0; i < doc->nignores; i++) {
        const struct gl_ignore *ig = &doc->ignores[i];
        if (f->loc.line < ig->first || f->loc.line > ig->last)
            continue;
        if (f->loc.line == 0 && ig->first != 0)
            continue;
        for (size_t k = 0; k < ig->nids; k++)
            if (gl_streq_nocase(ig->ids[k], f->rule->id))
                return true;
    }
    return false;
}
