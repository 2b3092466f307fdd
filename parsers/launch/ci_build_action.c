/* SPDX-License-Identifier: Apache-2.0 */
/* ci_build_action.c: docker/build-push-action steps (see ci_build_action.h). */
#include "parsers/launch/ci_build_action.h"

#include <string.h>

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

/* The end of the `${{ ... }}` expression starting at v[i] (just after its `}}`), or 0
 * when none starts there (or it is not closed before `to`). */
static size_t expr_end(const char *v, size_t i, size_t to)
{
    if (i + 3 > to || memcmp(v + i, "${{", 3))
        return 0;
    const char *close = memmem(v + i + 3, to - i - 3, "}}", 2);
    return close ? (size_t)(close - v) + 2 : 0;
}

static bool has_expr(const char *v, size_t from, size_t to)
{
    return memmem(v + from, to - from, "${{", 3) != NULL;
}

/* The literal value of `${{ env.NAME }}`, the expression v[i, end): NAME's scalar in the
 * first of the `env:` maps (step, job, workflow) that sets it, when it holds no expression
 * itself; NULL for any other expression or value. */
static const char *env_value(struct yt_stream *s, const struct ci_envs *envs, const char *v,
                             size_t i, size_t end)
{
    size_t k = i + 3, stop = end - 2;
    while (k < stop && blank(v[k]))
        k++;
    while (stop > k && blank(v[stop - 1]))
        stop--;
    if (!envs || stop - k < 5 || memcmp(v + k, "env.", 4))
        return NULL;
    k += 4;
    for (size_t c = k; c < stop; c++)
        if (!(v[c] == '_' || v[c] == '-' || (v[c] >= '0' && v[c] <= '9') ||
              ((v[c] | 0x20) >= 'a' && (v[c] | 0x20) <= 'z')))
            return NULL;
    char name[128];
    if (stop - k >= sizeof name)
        return NULL;
    memcpy(name, v + k, stop - k);
    name[stop - k] = '\0';
    for (size_t e = 0; e < CI_ENVS; e++) {
        struct yt_node *val = envs->maps[e] ? yt_get(s, envs->maps[e], name, NULL) : NULL;
        if (val)
            return yt_is_scalar(val) && !has_expr(val->value, 0, val->len) ? val->value
                                                                            : NULL;
    }
    return NULL;
}

/* One tag of a build-push-action's `tags:`, value bytes [from, to). */
static void action_tag(struct gl_doc *doc, struct yt_stream *s, struct yt_node *tags,
                       size_t from, size_t to, const struct ci_envs *envs)
{
    const char *v = tags->value;
    trim(v, &from, &to);
    if (from == to)
        return;
    struct gl_buf pat, text;
    gl_buf_init(&pat);
    gl_buf_init(&text);
    for (size_t i = from; i < to; i++) {
        size_t end = expr_end(v, i, to);
        const char *lit = end ? env_value(s, envs, v, i, end) : NULL;
        if (lit) { /* `${{ env.IMAGE }}`: the value the workflow gives it */
            gl_buf_adds(&pat, lit);
            gl_buf_adds(&text, lit);
            i = end - 1;
            continue;
        }
        if (!end) {
            gl_buf_addc(&pat, v[i]);
            gl_buf_addc(&text, v[i]);
            continue;
        }
        gl_buf_add(&text, v + i, end - i);
        if (!pat.len || pat.data[pat.len - 1] != '*')
            gl_buf_addc(&pat, '*');
        i = end - 1;
    }
    gl_project_add(doc, GL_PROJECT_BUILT, gl_arena_strdup(&doc->arena, gl_buf_str(&text)),
                   gl_buf_str(&pat), yt_scalar_loc_at(s, tags, from),
                   "docker/build-push-action");
    gl_buf_free(&pat);
    gl_buf_free(&text);
}

typedef void list_item_fn(struct gl_doc *doc, struct yt_stream *s, struct yt_node *n,
                          size_t from, size_t to, const struct ci_envs *envs);

/* Each item, value bytes [from, to), of a list input `n` (the action's form: a scalar whose
 * items are split at newlines and commas); nothing for another node. */
static void list_items(struct gl_doc *doc, struct yt_stream *s, struct yt_node *n,
                       list_item_fn *item, const struct ci_envs *envs)
{
    if (!yt_is_scalar(n))
        return;
    for (size_t i = 0, start = 0; i <= n->len; i++)
        if (i == n->len || n->value[i] == '\n' || n->value[i] == ',') {
            item(doc, s, n, start, i, envs);
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
static void context_name(struct gl_doc *doc, struct yt_stream *s, struct yt_node *ctx,
                         size_t from, size_t to, const struct ci_envs *envs)
{
    (void)envs;
    const char *v = ctx->value;
    trim(v, &from, &to);
    const char *eq = memchr(v + from, '=', to - from);
    if (!eq || eq == v + from || has_expr(v, from, (size_t)(eq - v)))
        return; /* (no name, or one an expression stands for) */
    size_t end = (size_t)(eq - v);
    trim(v, &from, &end);
    gl_project_add(doc, GL_PROJECT_BUILT, gl_arena_strndup(&doc->arena, v + from, end - from),
                   NULL, yt_scalar_loc_at(s, ctx, from), "build-contexts");
}

void ci_build_contexts(struct gl_doc *doc, struct yt_stream *s, struct yt_node *with)
{
    list_items(doc, s, yt_get(s, with, "build-contexts", NULL), context_name, NULL);
}

void ci_build_push_action(struct gl_doc *doc, struct yt_stream *s, struct yt_node *step,
                          const char *root, const struct ci_envs *envs)
{
    struct yt_node *uses = yt_get(s, step, "uses", NULL);
    if (!yt_is_scalar(uses) || !gl_has_prefix(uses->value, "docker/build-push-action@"))
        return;
    struct yt_node *with = yt_get(s, step, "with", NULL);
    struct ci_envs all = {{yt_get(s, step, "env", NULL), envs ? envs->maps[1] : NULL,
                           envs ? envs->maps[2] : NULL}};
    list_items(doc, s, yt_get(s, with, "tags", NULL), action_tag, &all);
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
