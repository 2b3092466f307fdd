/* SPDX-License-Identifier: Apache-2.0 */
/* mount_spec.c: one record of Go encoding/csv, and the fields of a docker / BuildKit mount
 * spec (see mount_spec.h). */
#include "parsers/shell/mount_spec.h"

#include <string.h>

/* ---- one CSV record ---- */

static const char bad_quote[] = "extraneous or missing \" in quoted-field";

/* Does a line end ("\n", "\r\n", or a last "\r", which encoding/csv drops) start at s[j]? */
static bool line_end(const char *s, size_t n, size_t j)
{
    return s[j] == '\n' || (s[j] == '\r' && (j + 1 == n || s[j + 1] == '\n'));
}

/* The quoted field whose opening quote is s[i]: *f, and the offset past its closing quote;
 * 0 with r->error set when it is not closed, or something but a comma or a line end
 * follows it. */
static size_t quoted(struct gl_arena *a, struct gl_csv_reader *r, size_t i,
                     struct gl_csv_field *f)
{
    const char *s = r->s;
    size_t n = r->n, j = i + 1, len = 0;
    while (j < n && !(s[j] == '"' && (j + 1 == n || s[j + 1] != '"'))) {
        bool pair = j + 1 < n && (s[j] == '"' || (s[j] == '\r' && s[j + 1] == '\n'));
        j += pair ? 2 : 1;
        len++;
    }
    if (j >= n || (j + 1 < n && s[j + 1] != ',' && !line_end(s, n, j + 1))) {
        r->error = bad_quote;
        r->error_at = j >= n ? i : j + 1;
        return 0;
    }
    char *text = gl_arena_alloc(a, len + 1);
    for (size_t r = i + 1, d = 0; r < j; d++) { /* ("" -> ", \r\n -> \n) */
        bool pair = r + 1 < j && ((s[r] == '"' && s[r + 1] == '"') ||
                                  (s[r] == '\r' && s[r + 1] == '\n'));
        text[d] = pair ? s[r + 1] : s[r];
        r += pair ? 2 : 1;
    }
    *f = (struct gl_csv_field){.at = i + 1, .raw_len = j - i - 1, .text = text, .len = len,
                               .quoted = true};
    return j + 1;
}

/* The bytes that may end an unquoted field, or make it an error ('\r' only before '\n'). */
static const bool stop[256] = {[','] = true, ['"'] = true, ['\n'] = true, ['\r'] = true};

void gl_csv_reader_init(struct gl_csv_reader *r, const char *s, size_t n)
{
    *r = (struct gl_csv_reader){.s = s, .n = n};
    while (r->i < n && line_end(s, n, r->i)) /* empty lines before the record */
        r->i += s[r->i] == '\r' && r->i + 1 < n ? 2 : 1;
    if (r->i >= n) {
        r->error = "empty value";
        r->done = true;
    }
}

bool gl_csv_next(struct gl_arena *a, struct gl_csv_reader *r, struct gl_csv_field *f)
{
    const char *s = r->s;
    size_t n = r->n, i = r->i, j;
    if (r->done)
        return false;
    if (i < n && s[i] == '"') {
        j = quoted(a, r, i, f);
        if (!j) {
            r->done = true;
            return false;
        }
    } else {
        for (j = i; j < n && !(stop[(unsigned char)s[j]] && (s[j] != '\r' || line_end(s, n, j)));
             j++)
            ;
        if (j < n && s[j] == '"') {
            r->error = "bare \" in non-quoted-field";
            r->error_at = j;
            r->done = true;
            return false;
        }
        *f = (struct gl_csv_field){.at = i, .raw_len = j - i, .text = s + i, .len = j - i};
    }
    r->done = j >= n || s[j] != ','; /* the end of the input or of the line */
    r->i = j + 1;
    return true;
}

void gl_csv_record_read(struct gl_arena *a, const char *s, size_t n, struct gl_csv_record *out)
{
    struct gl_csv_reader r;
    gl_csv_reader_init(&r, s, n);
    memset(out, 0, sizeof *out);
    /* room for one field more than the commas (quoted commas make it more than enough):
     * one table, no growing */
    size_t room = 1;
    for (const char *c = s; !r.done && (c = memchr(c, ',', (size_t)(s + n - c))); c++)
        room++;
    out->f = gl_arena_take(a, room * sizeof *out->f);
    out->cap = room;
    while (gl_csv_next(a, &r, &out->f[out->n]))
        out->n++;
    out->error = r.error;
    out->error_at = r.error_at;
}

/* ---- a mount spec ---- */

static enum gl_mspec_key key_of(const char *k, size_t n)
{
    /* the keys by their length (at most two of one length) */
    static const struct {
        const char *name;
        enum gl_mspec_key key;
    } keys[12][2] = {
        [2] = {{"ro", GL_MSPEC_READONLY}, {"rw", GL_MSPEC_READWRITE}},
        [3] = {{"src", GL_MSPEC_SOURCE}, {"dst", GL_MSPEC_TARGET}},
        [4] = {{"type", GL_MSPEC_TYPE}, {"from", GL_MSPEC_FROM}},
        [6] = {{"source", GL_MSPEC_SOURCE}, {"target", GL_MSPEC_TARGET}},
        [8] = {{"readonly", GL_MSPEC_READONLY}},
        [9] = {{"readwrite", GL_MSPEC_READWRITE}},
        [11] = {{"destination", GL_MSPEC_TARGET}},
    };
    for (size_t i = 0; n < 12 && i < 2 && keys[n][i].name; i++)
        if (gl_strn_eq_nocase(k, n, keys[n][i].name)) /* (in any case, as the tools) */
            return keys[n][i].key;
    return GL_MSPEC_OTHER;
}

bool gl_mount_spec_next(struct gl_arena *a, struct gl_csv_reader *r, struct gl_mspec_field *f)
{
    if (!gl_csv_next(a, r, &f->csv))
        return false;
    const struct gl_csv_field *c = &f->csv;
    const char *eq = memchr(c->text, '=', c->len);
    size_t klen = eq ? (size_t)(eq - c->text) : c->len;
    f->key = key_of(c->text, klen);
    f->bare = !eq;
    f->value = eq ? eq + 1 : "";
    f->value_len = eq ? c->len - klen - 1 : 0;
    return true;
}

enum gl_mount_type gl_mount_spec_type(const char *value, size_t len)
{
    return gl_strn_eq_nocase(value, len, "bind")     ? GL_MOUNT_BIND
           : gl_strn_eq_nocase(value, len, "volume") ? GL_MOUNT_VOLUME
           : gl_strn_eq_nocase(value, len, "tmpfs")  ? GL_MOUNT_TMPFS
                                                     : GL_MOUNT_OTHER;
}
