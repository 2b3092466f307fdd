/* SPDX-License-Identifier: Apache-2.0 */
/* mount_spec.c: one record of Go encoding/csv, and the fields of a docker / BuildKit mount
 * spec (see mount_spec.h). */
#include "linter/core/mount_spec.h"

#include <string.h>

/* ---- one CSV record ---- */

static const char bad_quote[] = "extraneous or missing \" in quoted-field";

/* Does a line end ("\n", "\r\n", or a last "\r", which encoding/csv drops) start at s[j]? */
static bool line_end(const char *s, size_t n, size_t j)
{
    return s[j] == '\n' || (s[j] == '\r' && (j + 1 == n || s[j + 1] == '\n'));
}

/* The quoted field whose opening quote is s[i]: *f, and the offset past its closing quote;
 * 0 with out->error set when it is not closed, or something but a comma or a line end
 * follows it. */
static size_t quoted(struct gl_arena *a, const char *s, size_t n, size_t i,
                     struct gl_csv_field *f, struct gl_csv_record *out)
{
    size_t j = i + 1, len = 0;
    while (j < n && !(s[j] == '"' && (j + 1 == n || s[j + 1] != '"'))) {
        bool pair = j + 1 < n && (s[j] == '"' || (s[j] == '\r' && s[j + 1] == '\n'));
        j += pair ? 2 : 1;
        len++;
    }
    if (j >= n || (j + 1 < n && s[j + 1] != ',' && !line_end(s, n, j + 1))) {
        out->error = bad_quote;
        out->error_at = j >= n ? i : j + 1;
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

void gl_csv_record_read(struct gl_arena *a, const char *s, size_t n, struct gl_csv_record *out)
{
    memset(out, 0, sizeof *out);
    size_t i = 0;
    while (i < n && line_end(s, n, i)) /* empty lines before the record */
        i += s[i] == '\r' && i + 1 < n ? 2 : 1;
    if (i >= n) {
        out->error = "empty value";
        return;
    }
    for (;;) {
        struct gl_csv_field f;
        size_t j;
        if (i < n && s[i] == '"') {
            j = quoted(a, s, n, i, &f, out);
            if (!j)
                return;
        } else {
            for (j = i; j < n && s[j] != ',' && !line_end(s, n, j); j++)
                if (s[j] == '"') {
                    out->error = "bare \" in non-quoted-field";
                    out->error_at = j;
                    return;
                }
            f = (struct gl_csv_field){.at = i, .raw_len = j - i,
                                      .text = gl_arena_strndup(a, s + i, j - i), .len = j - i};
        }
        *GL_APPEND(a, out->f, out->n, out->cap) = f;
        if (j >= n || s[j] != ',')
            return; /* the end of the input or of the line */
        i = j + 1;
    }
}

/* ---- a mount spec ---- */

/* Is [k, k + n) `name` (lower case) in any case? */
static bool key_is(const char *k, size_t n, const char *name)
{
    return gl_strn_eq_nocase(k, n, name);
}

static enum gl_mspec_key key_of(const char *k, size_t n)
{
    static const struct {
        const char *name;
        enum gl_mspec_key key;
    } keys[] = {
        {"type", GL_MSPEC_TYPE},        {"source", GL_MSPEC_SOURCE},
        {"src", GL_MSPEC_SOURCE},       {"target", GL_MSPEC_TARGET},
        {"dst", GL_MSPEC_TARGET},       {"destination", GL_MSPEC_TARGET},
        {"readonly", GL_MSPEC_READONLY}, {"ro", GL_MSPEC_READONLY},
        {"readwrite", GL_MSPEC_READWRITE}, {"rw", GL_MSPEC_READWRITE},
        {"from", GL_MSPEC_FROM},
    };
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
        if (key_is(k, n, keys[i].name))
            return keys[i].key;
    return GL_MSPEC_OTHER;
}

void gl_mount_spec_read(struct gl_arena *a, const char *s, size_t n, struct gl_mount_spec *out)
{
    struct gl_csv_record rec;
    gl_csv_record_read(a, s, n, &rec);
    memset(out, 0, sizeof *out);
    out->error = rec.error;
    out->error_at = rec.error_at;
    out->f = gl_arena_alloc(a, (rec.n ? rec.n : 1) * sizeof *out->f);
    out->n = rec.n;
    for (size_t i = 0; i < rec.n; i++) {
        const struct gl_csv_field *c = &rec.f[i];
        const char *eq = memchr(c->text, '=', c->len);
        size_t klen = eq ? (size_t)(eq - c->text) : c->len;
        out->f[i] = (struct gl_mspec_field){
            .key = key_of(c->text, klen), .bare = !eq, .value = eq ? eq + 1 : "",
            .value_len = eq ? c->len - klen - 1 : 0, .csv = c};
    }
}

enum gl_mount_type gl_mount_spec_type(const char *value, size_t len)
{
    return key_is(value, len, "bind")     ? GL_MOUNT_BIND
           : key_is(value, len, "volume") ? GL_MOUNT_VOLUME
           : key_is(value, len, "tmpfs")  ? GL_MOUNT_TMPFS
                                          : GL_MOUNT_OTHER;
}
