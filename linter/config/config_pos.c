/* SPDX-License-Identifier: Apache-2.0 */
/* config_pos.c: the positions the `.gpulint.yaml` reader reports (see config_pos.h). */
#include "linter/config/config_pos.h"

#include <string.h>

static bool starts_with_bom(const struct yt_stream *s)
{
    return s->len >= 3 && !memcmp(s->text, "\xEF\xBB\xBF", 3);
}

/* Only LF and CR LF breaks the lines? */
static bool plain_breaks(const char *t, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        size_t b = yt_break_len(t + i, n - i);
        if (b && t[i] != '\n' && !(t[i] == '\r' && b == 2))
            return false;
    }
    return true;
}

void gl_config_pos_init(struct gl_config_pos *p, const struct yt_stream *s)
{
    *p = (struct gl_config_pos){.s = s};
    p->plain = !starts_with_bom(s) && plain_breaks(s->text, s->len);
}

/* Move libyaml's mark to byte `off` (a character boundary outside any CR LF). */
static void mark_to(struct gl_config_pos *p, size_t off)
{
    const char *t = p->s->text;
    size_t len = p->s->len;
    if (off < p->mark_off)
        p->mark_off = p->mark_line = p->mark_col = 0;
    while (p->mark_off < off && p->mark_off < len) {
        size_t b = yt_break_len(t + p->mark_off, len - p->mark_off);
        if (b) {
            p->mark_off += b;
            p->mark_line++;
            p->mark_col = 0;
            continue;
        }
        p->mark_off++;
        while (p->mark_off < len && ((unsigned char)t[p->mark_off] & 0xC0) == 0x80)
            p->mark_off++;
        p->mark_col++;
    }
}

/* The byte offset where 0-based line `line` starts, counting lines at LF and lone CR. */
static size_t line_offset(struct gl_config_pos *p, size_t line)
{
    const char *t = p->s->text;
    size_t len = p->s->len;
    if (line < p->line_no) {
        p->line_no = 0;
        p->line_start = 0;
    }
    size_t off = p->line_start;
    while (p->line_no < line && off < len) {
        char c = t[off++];
        if (c == '\n' || (c == '\r' && (off >= len || t[off] != '\n'))) {
            p->line_no++;
            p->line_start = off;
        }
    }
    return p->line_start;
}

/* The line and byte column of libyaml's mark (0-based line, character column), the old
 * way. */
static struct gl_loc mark_loc(struct gl_config_pos *p, size_t line, size_t col)
{
    const char *t = p->s->text;
    size_t len = p->s->len;
    size_t off = line_offset(p, line);
    if (line == 0 && starts_with_bom(p->s))
        off = 3; /* libyaml counted the byte-order mark; this skipped it as well */
    size_t start = p->line_start;
    for (size_t chars = 0; chars < col && off < len; chars++) {
        off++;
        while (off < len && ((unsigned char)t[off] & 0xC0) == 0x80)
            off++;
    }
    return (struct gl_loc){(uint32_t)(p->line_no + 1), (uint32_t)(off - start + 1)};
}

struct gl_loc gl_config_pos_at(struct gl_config_pos *p, size_t off)
{
    if (p->plain)
        return yt_loc_of(p->s, off);
    mark_to(p, off);
    return mark_loc(p, p->mark_line, p->mark_col);
}

struct gl_loc gl_config_pos_past_end(struct gl_config_pos *p)
{
    if (p->plain) /* the last line, column 1 */
        return (struct gl_loc){yt_loc_of(p->s, p->s->len).line, 1};
    mark_to(p, p->s->len);
    return mark_loc(p, p->mark_line + 1, 0);
}
