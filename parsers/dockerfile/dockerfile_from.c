/* SPDX-License-Identifier: Apache-2.0 */
/* dockerfile_from.c: what BuildKit refuses in a FROM instruction (see dockerfile_from.h). */
#include "parsers/dockerfile/dockerfile_from.h"

#include <string.h>

#include "linter/core/ref/imageref.h"
#include "parsers/dockerfile/dockerfile_platform.h"

/* Longest part of an input quoted in a message (the rest is cut, "..." said). */
#define QUOTE_MAX 80

/* A template's mark in s[0, n): `{{ x }}`, `{% x %}`, `<image>`, `%VAR%`, `@VAR@` (a digest
 * is `@` and a lower-case algorithm). */
static bool placeholder(const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        char c = s[i];
        if (c == '{' || c == '}' || c == '<' || c == '>' || c == '%')
            return true;
        if (c == '@' && i + 1 < n && ((s[i + 1] >= 'A' && s[i + 1] <= 'Z') || s[i + 1] == '_'))
            return true;
    }
    return false;
}

static void fail(struct gl_doc *doc, struct gl_loc loc, const char *message, const char *fix)
{
    if (doc->error.set)
        return; /* (the first bad byte is the one said) */
    doc->error.set = true;
    doc->error.loc = loc;
    doc->error.message = message;
    doc->error.fix = fix;
}

/* BuildKit's validStageName, `^[a-z][a-z0-9-_.]*$`, on the name lowered. */
static bool stage_name_ok(const char *s, size_t n, size_t *bad)
{
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        bool letter = (unsigned)((c | 0x20) - 'a') < 26; /* (either case: lowered) */
        if (!letter && (!i || !((unsigned)(c - '0') < 10 || c == '-' || c == '_' || c == '.'))) {
            *bad = i;
            return false;
        }
    }
    *bad = 0;
    return n != 0;
}

/* Does an argument of `in` hold a template's mark? (asked only of a FROM BuildKit would
 * refuse: most are fine, and their bytes are not read again) */
static bool placeholder_arg(const struct df_instr *in)
{
    for (size_t i = 0; i < in->nargs; i++)
        if (placeholder(in->args[i].value, in->args[i].len))
            return true;
    return false;
}

bool df_from_shape(struct gl_doc *doc, const struct df_instr *in)
{
    if (in->nargs == 1)
        return true; /* (most: `FROM image`) */
    const char *w = in->nargs >= 2 ? in->args[1].value : "";
    bool as = in->nargs >= 2 && in->args[1].len == 2 && (w[0] | 0x20) == 'a' &&
              (w[1] | 0x20) == 's';
    if (in->nargs != 1 && !(in->nargs == 3 && as)) {
        if (placeholder_arg(in))
            return true;
        struct gl_loc loc; /* the first word too many, or where the missing one would be */
        if (!in->nargs) {
            loc = in->loc;
            loc.col += 4; /* after `FROM` */
        } else if (!as) {
            loc = in->args[1].loc;
        } else if (in->nargs > 3) {
            loc = in->args[3].loc;
        } else {
            loc = df_arg_loc(in, 1, in->args[1].len); /* `FROM a AS`: after `AS` */
        }
        fail(doc, loc, "FROM requires either one or three arguments (`FROM image [AS name]`; "
                       "a comment must stand on a line of its own)",
             NULL);
        return false;
    }
    size_t bad;
    const struct df_arg *name = in->nargs == 3 ? &in->args[2] : NULL;
    if (name && !stage_name_ok(name->value, name->len, &bad) &&
        !memchr(name->value, '$', name->len) && !placeholder_arg(in)) {
        size_t n = name->len < QUOTE_MAX ? name->len : QUOTE_MAX;
        fail(doc, df_arg_loc(in, 2, bad),
             gl_arena_printf(&doc->arena, "invalid name for build stage: `%.*s%s`, name can't "
                                          "start with a number or contain symbols",
                             (int)n, name->value, n < name->len ? "..." : ""),
             NULL);
        return false;
    }
    return true;
}

/* Is flag f left alone: a template's mark, a variable, an escape or a quote in it? (one
 * pass over its bytes, a switch each: most flags are `--platform=$BUILDPLATFORM`) */
static bool flag_opaque(const struct df_flag *f)
{
    for (size_t i = 0; i < f->len; i++)
        switch (f->text[i]) {
        case '$': case '\\': case '`': case '\'': case '"':
            return true;
        default:
            break;
        }
    return placeholder(f->text, f->len);
}

/* Is f `--platform` or `--platform=VALUE`? *eq: the length of `--platform`. */
static bool is_platform(const struct df_flag *f, size_t *eq)
{
    *eq = strlen("--platform");
    return f->len >= *eq && !memcmp(f->text, "--platform", *eq) &&
           (f->len == *eq || f->text[*eq] == '=');
}

/* A literal platform value containerd refuses, at its bad byte. */
static bool platform_value(struct gl_doc *doc, const struct df_flag *f, size_t eq)
{
    size_t bad;
    const char *why, *v = f->text + eq + 1;
    size_t vlen = f->len - eq - 1;
    if (df_platform_ok(v, vlen, &bad, &why))
        return true;
    size_t n = vlen < QUOTE_MAX ? vlen : QUOTE_MAX;
    fail(doc, gl_srcmap_loc(&f->map, eq + 1 + bad),
         gl_arena_printf(&doc->arena, "FROM --platform `%.*s%s`: %s", (int)n, v,
                         n < vlen ? "..." : "", why),
         "name a platform as os/arch[/variant] (linux/amd64, linux/arm64/v8), or "
         "$BUILDPLATFORM / $TARGETPLATFORM");
    return false;
}

bool df_from_flags(struct gl_doc *doc, const struct df_instr *in)
{
    const struct df_flag *platform = NULL; /* (names first, as BuildKit parses them) */
    size_t eq;
    for (size_t i = 0; i < in->nflags; i++) {
        const struct df_flag *f = &in->flags[i];
        if (flag_opaque(f))
            continue;
        if (!is_platform(f, &eq)) {
            const char *e = memchr(f->text, '=', f->len);
            size_t name = e ? (size_t)(e - f->text) : f->len;
            size_t n = name < QUOTE_MAX ? name : QUOTE_MAX;
            fail(doc, f->loc,
                 gl_arena_printf(&doc->arena, "unknown flag: `%.*s%s` (FROM takes only "
                                              "--platform=VALUE)", (int)n, f->text,
                                 n < name ? "..." : ""),
                 NULL);
            return false;
        }
        if (platform) {
            fail(doc, f->loc, "duplicate flag specified: `--platform`", NULL);
            return false;
        }
        platform = f;
        if (f->len == eq) {
            fail(doc, gl_srcmap_loc(&f->map, eq), "missing a value on flag: `--platform` "
                                                  "(`--platform=os/arch`)", NULL);
            return false;
        }
    }
    return !platform || platform_value(doc, platform, eq);
}

bool df_from_reference(struct gl_doc *doc, const struct df_instr *in, const char *text)
{
    size_t len = strlen(text);
    if (!len || placeholder(text, len))
        return true; /* (an empty value: a --build-arg gives it) */
    struct gl_imageref parsed;
    struct gl_imageref_error err;
    struct gl_loc loc = in->args[0].loc;
    if (gl_imageref_parse(&doc->arena, text, len, loc, &parsed, &err) == 0)
        return true;
    bool literal = text == in->args[0].value ||
                   (in->args[0].len == len && !memcmp(in->args[0].value, text, len));
    size_t n = len < QUOTE_MAX ? len : QUOTE_MAX;
    if (literal)
        fail(doc, df_arg_loc(in, 0, err.offset),
             gl_arena_printf(&doc->arena, "FROM image `%.*s%s`: %s", (int)n, text,
                             n < len ? "..." : "", err.message),
             NULL);
    else
        fail(doc, loc,
             gl_arena_printf(&doc->arena, "FROM image `%.*s%s` (as expanded): %s", (int)n,
                             text, n < len ? "..." : "", err.message),
             "fix the reference, or the default of the ARG it takes");
    return false;
}
