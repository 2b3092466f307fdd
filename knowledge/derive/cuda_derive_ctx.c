/* SPDX-License-Identifier: Apache-2.0 */
/* cuda_derive_ctx.c: the derivation's context and how facts are added: positions of
 * written values, cd_add, gl_cuda_add_fact, package specs (see cuda_derive_internal.h). The other
 * parts of the derivation build on this file and never the other way round. */
#include "knowledge/derive/cuda_derive_internal.h"

#include <string.h>

void cd_ctx_init(struct cd_ctx *c, struct gl_doc *doc, const struct gl_kb *kb,
                 const char *text, size_t len)
{
    *c = (struct cd_ctx){.doc = doc, .kb = kb, .text = text, .len = text ? len : 0};
    gl_lines_init(&c->lines, &doc->arena, text, c->len);
}

/* The line index of c->text: the doc's own when c reads the doc's text (the same index of
 * the same text, which gl_ref_add has mostly built already for the references), else the
 * context's (a requirements file). */
static struct gl_lines *ctx_lines(struct cd_ctx *c)
{
    struct gl_doc *d = c->doc;
    if (!c->text || c->text != d->text || c->len != d->len)
        return &c->lines;
    if (d->lines.text != d->text) /* as gl_doc_offset does */
        gl_lines_init(&d->lines, &d->arena, d->text, d->len);
    return &d->lines;
}

bool cd_find_written(struct cd_ctx *c, struct gl_loc at, size_t slack, const char *needle,
                     size_t n, struct gl_loc *out)
{
    struct gl_lines *lines = ctx_lines(c);
    size_t from = gl_lines_offset(lines, at), end = gl_lines_line_end(lines, at);
    if (from == SIZE_MAX || !n)
        return false;
    for (size_t i = from; i <= from + slack && i + n <= end; i++)
        if (!memcmp(c->text + i, needle, n)) {
            *out = (struct gl_loc){at.line, at.col + (uint32_t)(i - from)};
            return true;
        }
    return false;
}

struct gl_loc cd_written_loc(struct cd_ctx *c, struct gl_loc at, size_t word_len,
                             const char *needle, size_t n)
{
    struct gl_loc found;
    return cd_find_written(c, at, word_len + 8, needle, n, &found) ? found : at;
}

struct gl_cuda_fact *gl_cuda_add_fact(struct gl_doc *doc, enum gl_cuda_source kind,
                                      const char *version, const char *label,
                                      struct gl_loc loc)
{
    struct gl_cuda_fact *f = GL_APPEND(&doc->arena, doc->cuda, doc->ncuda, doc->capcuda);
    memset(f, 0, sizeof *f);
    f->kind = kind;
    f->version = version;
    f->label = label;
    f->loc = loc;
    f->stage = f->launch = f->ref = f->instr = -1;
    return f;
}

struct gl_cuda_fact *cd_add(struct cd_ctx *c, enum gl_cuda_source kind, const char *version,
                            const char *label, const char *framework, struct gl_loc loc,
                            int stage)
{
    struct gl_cuda_fact *f = gl_cuda_add_fact(c->doc, kind, version, label, loc);
    f->framework = framework;
    f->stage = stage;
    return f;
}

/* ---- package specs ---- */

bool cd_parse_spec(const char *s, struct cd_spec *out)
{
    memset(out, 0, sizeof *out);
    size_t i = 0, n = 0;
    while (s[i] == ' ' || s[i] == '\t')
        i++;
    /* the name's bytes by ASCII tests: what isalnum and tolower are in the C locale,
     * the one gpulint runs in (it never calls setlocale), without a call a byte */
    for (;; i++) {
        char ch = s[i];
        if ((ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9') || ch == '-' || ch == '.')
            ;
        else if (ch >= 'A' && ch <= 'Z')
            ch = (char)(ch - 'A' + 'a');
        else if (ch == '_')
            ch = '-';
        else
            break;
        if (n + 1 >= sizeof out->name)
            return false;
        out->name[n++] = ch;
    }
    if (!n)
        return false;
    while (s[i] == ' ')
        i++;
    if (s[i] == '[') {
        const char *close = strchr(s + i, ']');
        if (!close)
            return false;
        out->extras = s + i + 1;
        out->extras_len = (size_t)(close - s) - i - 1;
        i = (size_t)(close - s) + 1;
    }
    while (s[i] == ' ')
        i++;
    size_t o = 0;
    while (s[i] && strchr("=<>~!", s[i]) && o + 1 < sizeof out->op)
        out->op[o++] = s[i++];
    while (s[i] == ' ')
        i++;
    if (o) {
        out->version = s + i;
        while (s[i] && s[i] != ',' && s[i] != ';' && s[i] != ' ' && s[i] != '\t')
            i++;
        out->version_len = (size_t)(out->version - s) <= i ? i - (size_t)(out->version - s) : 0;
    }
    return true;
}

bool cd_op_is_pin(const char *op) { return !strcmp(op, "==") || !strcmp(op, "==="); }

const char *cd_join(struct gl_arena *a, const char *const *parts, size_t n)
{
    size_t len[8], total = 0;
    for (size_t i = 0; i < n && i < 8; i++)
        total += len[i] = strlen(parts[i]);
    char *out = gl_arena_take(a, total + 1), *q = out;
    for (size_t i = 0; i < n && i < 8; i++) {
        memcpy(q, parts[i], len[i]);
        q += len[i];
    }
    *q = 0;
    return out;
}

const char *cd_label_of(struct cd_ctx *c, const char *spec)
{
    size_t n = strcspn(spec, "; \t");
    return gl_arena_strndup(&c->doc->arena, spec, n);
}
