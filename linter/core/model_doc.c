/* SPDX-License-Identifier: Apache-2.0 */
/* model_doc.c: a doc's set-up and positions in its text (see model.h). */
#include "linter/core/model.h"
#include "linter/core/stat_memo.h"

#include <stddef.h>
#include <string.h>
#include <sys/stat.h>

void gl_doc_init(struct gl_doc *doc, const char *path, enum gl_input_kind kind,
                 const char *text, size_t len)
{
    memset(doc, 0, offsetof(struct gl_doc, probes)); /* (slots past nprobes: never read) */
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
    doc->nprobes = doc->probe_dir = 0; /* (asked again for whatever is parsed next) */
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

bool gl_doc_text_is(const struct gl_doc *doc, size_t off, const char *text, size_t n)
{
    if (off == SIZE_MAX || off > doc->len || n > doc->len - off)
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

uint32_t gl_doc_line(const struct gl_doc *doc, struct gl_loc at)
{
    const char *file;
    struct gl_loc out;
    return gl_doc_origin(doc, at, &file, &out) ? out.line : at.line;
}

/* ---- build-context paths, asked once (gl_doc_probe) ---- */

/* The form under which the same entry is remembered once. Its first byte: 'D' for a path
 * in the doc's own directory (it begins with the doc's path up to its last '/': the
 * callers join the context directory and a relative name; with no '/' in the doc's path
 * the directory is the working one, any relative path), else 'A' (absolute) or 'R'. Then
 * the rest's components joined by '/' without the empty ones and ".", and a last '/' when
 * the path ends in '/' or "/." (the entry must then be a directory, a link to one
 * followed). A "." or an empty component inside names the same directory as the path
 * without it; ".." is kept (through a link it leads elsewhere). 0 when longer than cap. */
static size_t probe_norm(struct gl_doc *doc, const char *path, char *out, size_t cap)
{
    if (!doc->probe_dir) {
        const char *slash = doc->path ? strrchr(doc->path, '/') : NULL;
        doc->probe_dir = slash ? (size_t)(slash - doc->path) + 2 : 1;
    }
    size_t dl = doc->probe_dir - 1, n = 0;
    if (dl ? !strncmp(path, doc->path, dl) : path[0] != '/') {
        out[n++] = 'D';
        path += dl;
    } else {
        out[n++] = path[0] == '/' ? 'A' : 'R';
    }
    bool dir = false;
    size_t first = n;
    for (const char *p = path; *p;) {
        if (*p == '/') { /* (an empty component) */
            dir = true;
            p++;
            continue;
        }
        size_t len = (size_t)(strchrnul(p, '/') - p);
        dir = len == 1 && p[0] == '.';
        if (!dir) {
            if (n + len + 2 > cap)
                return 0;
            if (n > first)
                out[n++] = '/';
            memcpy(out + n, p, len);
            n += len;
        }
        p += len;
    }
    if (dir)
        out[n++] = '/';
    return n;
}

static bool ask(const char *path, bool follow, struct gl_probe *out)
{
    return gl_stat_memo(path, follow, &out->mode, &out->size);
}

bool gl_doc_probe(struct gl_doc *doc, const char *path, bool follow, struct gl_probe *out)
{
    char key[sizeof doc->probes[0].key];
    size_t n = probe_norm(doc, path, key, sizeof key);
    if (!n) /* (too long to remember) */
        return ask(path, follow, out);
    struct gl_probe_slot *s = NULL;
    for (size_t i = 0; i < doc->nprobes && !s; i++)
        if (doc->probes[i].len == n && !memcmp(doc->probes[i].key, key, n))
            s = &doc->probes[i];
    if (!s) {
        if (doc->nprobes == GL_DOC_PROBES)
            return ask(path, follow, out);
        s = &doc->probes[doc->nprobes++];
        s->len = (uint32_t)n;
        memcpy(s->key, key, n);
        s->followed = 0;
        s->found = ask(path, false, &s->l);
    }
    /* a missing entry is missing through any call; stat of what is not a link is lstat */
    if (!s->found || !follow || !S_ISLNK(s->l.mode)) {
        if (s->found)
            *out = s->l;
        return s->found;
    }
    if (!s->followed)
        s->followed = ask(path, true, &s->s) ? 1 : -1;
    if (s->followed > 0)
        *out = s->s;
    return s->followed > 0;
}
