/* SPDX-License-Identifier: Apache-2.0 */
/* ci_build_action.c: docker/build-push-action steps (see ci_build_action.h). */
#include "parsers/launch/ci/ci_build_action.h"

#include <stdint.h>
#include <string.h>

#include "parsers/launch/ci/ci_expr.h"

#define MAX_ARGS 64

static bool blank(char c)
{
    return c == ' ' || c == '\t' || c == '\r';
}

/* [*from, *to) without its blanks on both sides. */
static void trim(const char *v, size_t *from, size_t *to)
{
    while (*from < *to && blank(v[*from]))
        (*from)++;
    while (*to > *from && blank(v[*to - 1]))
        (*to)--;
}

/* The end of the `${{ ... }}` expression starting at v[i] (just after its `}}`), 0 when
 * none starts there, SIZE_MAX when it is not closed before `to` (then no later one is:
 * the caller reads the rest as it is, rather than search the rest again at each `${{`). */
static size_t expr_end(const char *v, size_t i, size_t to)
{
    if (i + 3 > to || memcmp(v + i, "${{", 3))
        return 0;
    const char *close = memmem(v + i + 3, to - i - 3, "}}", 2);
    return close ? (size_t)(close - v) + 2 : SIZE_MAX;
}

static bool has_expr(const char *v, size_t from, size_t to)
{
    return memmem(v + from, to - from, "${{", 3) != NULL;
}

/* What a list input's items are read with: the doc and the step's expression scope. */
struct items {
    struct gl_doc *doc;
    const struct ci_scope *sc;
};

/* The tags one `tags:` item may stand for: each expression with literal values
 * (ci_expr.h) gives one tag per value (as written when it has none, '*' in the pattern);
 * at most CI_EXPR_MAX_VALUES in all, past which an expression stays unresolved. An item
 * longer than TAG_EXPAND_MAX is no image reference (docker's names and tags are shorter):
 * its expressions stay unresolved, so that its forms never take 32 times its size. */
#define TAG_EXPAND_MAX 4096
struct tag_forms {
    struct gl_buf text[CI_EXPR_MAX_VALUES], pat[CI_EXPR_MAX_VALUES];
    size_t n;
};

static void forms_add(struct tag_forms *f, const char *p, size_t len, bool pattern_too)
{
    for (size_t k = 0; k < f->n; k++) {
        gl_buf_add(&f->text[k], p, len);
        if (pattern_too)
            gl_buf_add(&f->pat[k], p, len);
    }
}

/* Each form times each of the n values (the forms are n times as many). */
static void forms_times(struct tag_forms *f, const char **vals, const size_t *lens, size_t n)
{
    for (size_t j = n; j-- > 1;)
        for (size_t k = 0; k < f->n; k++) {
            size_t d = j * f->n + k;
            gl_buf_init(&f->text[d]);
            gl_buf_init(&f->pat[d]);
            gl_buf_add(&f->text[d], f->text[k].data, f->text[k].len);
            gl_buf_add(&f->pat[d], f->pat[k].data, f->pat[k].len);
            gl_buf_add(&f->text[d], vals[j], lens[j]);
            gl_buf_add(&f->pat[d], vals[j], lens[j]);
        }
    for (size_t k = 0; k < f->n; k++) {
        gl_buf_add(&f->text[k], vals[0], lens[0]);
        gl_buf_add(&f->pat[k], vals[0], lens[0]);
    }
    f->n *= n;
}

/* One tag of a build-push-action's `tags:`, value bytes [from, to). */
static void action_tag(const struct items *it, struct yt_node *tags, size_t from, size_t to)
{
    const char *v = tags->value;
    trim(v, &from, &to);
    if (from == to)
        return;
    struct tag_forms f = {.n = 1};
    gl_buf_init(&f.text[0]);
    gl_buf_init(&f.pat[0]);
    for (size_t i = from; i < to; i++) {
        size_t end = expr_end(v, i, to);
        if (!end || end == SIZE_MAX) {
            forms_add(&f, v + i, end ? to - i : 1, true);
            if (end)
                break;
            continue;
        }
        const char *vals[CI_EXPR_MAX_VALUES];
        size_t lens[CI_EXPR_MAX_VALUES];
        size_t n = to - from > TAG_EXPAND_MAX
                       ? 0
                       : ci_expr_values(it->sc, v + i + 3, end - 2 - (i + 3), vals, lens);
        if (n && f.n * n <= CI_EXPR_MAX_VALUES) {
            forms_times(&f, vals, lens, n);
        } else {
            forms_add(&f, v + i, end - i, false);
            for (size_t k = 0; k < f.n; k++)
                if (!f.pat[k].len || f.pat[k].data[f.pat[k].len - 1] != '*')
                    gl_buf_addc(&f.pat[k], '*');
        }
        i = end - 1;
    }
    struct gl_loc loc = yt_scalar_loc_at(it->sc->s, tags, from);
    for (size_t k = 0; k < f.n; k++) {
        gl_project_add(it->doc, GL_PROJECT_BUILT, gl_buf_str(&f.text[k]), gl_buf_str(&f.pat[k]),
                       loc, "docker/build-push-action");
        gl_buf_free(&f.text[k]);
        gl_buf_free(&f.pat[k]);
    }
}

typedef void list_item_fn(const struct items *it, struct yt_node *n, size_t from, size_t to);

/* Each item, value bytes [from, to), of a list input `n` (the action's form: a scalar whose
 * items are split at newlines and commas); nothing for another node. The items stop where
 * the doc's arena reaches parse-memory (a GL900 at the item that found it so): each may
 * add up to CI_EXPR_MAX_VALUES images the project makes. */
static void list_items(const struct items *it, struct yt_node *n, list_item_fn *item)
{
    if (!yt_is_scalar(n))
        return;
    for (size_t i = 0, start = 0; i <= n->len; i++)
        if (i == n->len || n->value[i] == '\n' || n->value[i] == ',') {
            if (gl_arena_over(&it->doc->arena)) {
                gl_doc_fail_limit(it->doc, GL_LIMIT_PARSE_MEMORY,
                                  yt_scalar_loc_at(it->sc->s, n, start));
                return;
            }
            item(it, n, start, i);
            start = i + 1;
        }
}

/* The length of a leading `${{ github.workspace }}` of v (blanks inside allowed), else 0. */
static size_t workspace_prefix(const char *v)
{
    if (strncmp(v, "${{", 3))
        return 0;
    size_t i = 3 + strspn(v + 3, " \t");
    if (strncmp(v + i, "github.workspace", 16))
        return 0;
    i += 16;
    i += strspn(v + i, " \t");
    return strncmp(v + i, "}}", 2) ? 0 : i + 2;
}

/* A `context:` or `file:` value as a literal path ("" for an absent node), or NULL when it
 * is not one (an expression, a URL, a Git context). */
static const char *path_value(struct gl_doc *doc, struct yt_node *n)
{
    if (!n)
        return "";
    if (!yt_is_scalar(n))
        return NULL;
    size_t from = 0, to = n->len;
    trim(n->value, &from, &to);
    const char *v = gl_arena_strndup(&doc->arena, n->value + from, to - from);
    size_t ws = workspace_prefix(v);
    if (ws && v[ws] != '/' && v[ws])
        return NULL;
    v += ws + (ws && v[ws] == '/');
    if (ws && !*v)
        return ".";
    if (!strcmp(v, "{{defaultContext}}"))
        return ""; /* (the default: the repository's Git context) */
    if (has_expr(v, 0, strlen(v)) || strstr(v, "{{") || strstr(v, "://") ||
        gl_has_prefix(v, "git@"))
        return NULL;
    return v;
}

/* The names of one `build-args:` text's `K=V` lines into names[*n..]; false when a line's
 * name is not literal (the build is then not known). */
static bool arg_lines(struct gl_doc *doc, const struct yt_node *t, const char **names,
                      size_t *n)
{
    for (size_t i = 0, start = 0; i <= t->len; i++) {
        if (i < t->len && t->value[i] != '\n')
            continue;
        size_t from = start, to = i;
        start = i + 1;
        trim(t->value, &from, &to);
        if (to - from >= 2 && t->value[from] == '"' && t->value[to - 1] == '"') {
            from++; /* (the action reads each line as a CSV field: "K=V" is K=V) */
            to--;
        }
        if (from == to || t->value[from] == '#')
            continue;
        const char *eq = memchr(t->value + from, '=', to - from);
        size_t end = eq ? (size_t)(eq - t->value) : to;
        if (has_expr(t->value, from, end))
            return false;
        if (eq && end > from && *n < MAX_ARGS)
            names[(*n)++] = gl_arena_strndup(&doc->arena, t->value + from, end - from);
    }
    return true;
}

/* The ARGs `build-args:` sets into names[0, *n); false when they are not known. */
static bool args_of(struct gl_doc *doc, struct yt_stream *s, struct yt_node *args,
                    const char **names, size_t *n)
{
    *n = 0;
    if (!args)
        return true;
    if (yt_is_scalar(args))
        return arg_lines(doc, args, names, n);
    for (size_t i = 0; yt_is_seq(args) && i < args->nitems; i++) {
        struct yt_node *it = yt_item(s, args, i);
        if (!yt_is_scalar(it) || !arg_lines(doc, it, names, n))
            return false;
    }
    return yt_is_seq(args);
}

/* One `NAME=VALUE` of `build-contexts:`, value bytes [from, to): NAME, when literal, is a
 * context the build is handed, not a registry image. */
static void context_name(const struct items *it, struct yt_node *ctx, size_t from, size_t to)
{
    struct gl_doc *doc = it->doc;
    const char *v = ctx->value;
    trim(v, &from, &to);
    const char *eq = memchr(v + from, '=', to - from);
    if (!eq || eq == v + from || has_expr(v, from, (size_t)(eq - v)))
        return; /* (no name, or one an expression stands for) */
    size_t end = (size_t)(eq - v);
    trim(v, &from, &end);
    gl_project_add(doc, GL_PROJECT_BUILT, gl_arena_strndup(&doc->arena, v + from, end - from),
                   NULL, yt_scalar_loc_at(it->sc->s, ctx, from), "build-contexts");
}

void ci_build_contexts(struct gl_doc *doc, struct yt_stream *s, struct yt_node *with)
{
    struct ci_scope sc = {.s = s};
    list_items(&(struct items){doc, &sc}, yt_get(s, with, "build-contexts", NULL),
               context_name);
}

void ci_build_push_action(struct gl_doc *doc, const struct ci_scope *sc, const char *root)
{
    struct yt_stream *s = sc->s;
    struct yt_node *step = sc->step;
    struct yt_node *uses = yt_get(s, step, "uses", NULL);
    if (!yt_is_scalar(uses) || !gl_has_prefix(uses->value, "docker/build-push-action@"))
        return;
    struct yt_node *with = yt_get(s, step, "with", NULL);
    list_items(&(struct items){doc, sc}, yt_get(s, with, "tags", NULL), action_tag);
    ci_build_contexts(doc, s, with);
    const char *ctx = path_value(doc, yt_get(s, with, "context", NULL));
    const char *file = path_value(doc, yt_get(s, with, "file", NULL));
    const char *names[MAX_ARGS];
    size_t n;
    if (!ctx || !file || (with && !yt_is_map(with)) ||
        !args_of(doc, s, yt_get(s, with, "build-args", NULL), names, &n))
        return;
    if (!*ctx)
        ctx = ".";
    const char *path = *file ? file : gl_arena_printf(&doc->arena, "%s/Dockerfile", ctx);
    if (root && path[0] != '/')
        path = gl_arena_printf(&doc->arena, "%s/%s", root, path);
    gl_project_add_build(doc, path, !root, names, n, yt_scalar_loc_at(s, uses, 0),
                         "docker/build-push-action");
}
