/* SPDX-License-Identifier: Apache-2.0 */
/* ci_expr.c: literal values of `${{ env.NAME }}` and `${{ matrix.KEY }}` (see ci_expr.h). */
#include "parsers/launch/ci/ci_expr.h"

#include <string.h>

/* A scalar whose value is literal text (no expression of its own), else NULL. */
static struct yt_node *literal(struct yt_stream *s, struct yt_node *n)
{
    n = yt_deref(s, n);
    return yt_is_scalar(n) && !memmem(n->value, n->len, "${{", 3) ? n : NULL;
}

/* `name` (name_len bytes) of the innermost `env:` of the step, the job, the workflow. */
static size_t env_value(const struct ci_scope *sc, const char *name, size_t len,
                        const char **vals, size_t *lens)
{
    struct yt_node *scopes[] = {sc->step, sc->job, sc->workflow};
    for (size_t i = 0; i < 3; i++) {
        struct yt_node *env = yt_get(sc->s, scopes[i], "env", NULL);
        struct yt_node *v = yt_is_map(env) ? yt_get_n(sc->s, env, name, len, NULL) : NULL;
        if (!v)
            continue; /* (an inner env that does not set it: the outer one may) */
        if (!(v = literal(sc->s, v)))
            return 0;
        vals[0] = v->value;
        lens[0] = v->len;
        return 1;
    }
    return 0;
}

/* Add the literal value of `key` in mapping m (an include entry) to vals[*n..]; false
 * when it is there but not literal, or there is no room. */
static bool add_entry_value(struct yt_stream *s, struct yt_node *m, const char *key,
                            size_t len, const char **vals, size_t *lens, size_t *n)
{
    struct yt_node *v = yt_is_map(m) ? yt_get_n(s, m, key, len, NULL) : NULL;
    if (!v)
        return true;
    if (!(v = literal(s, v)) || *n >= CI_EXPR_MAX_VALUES)
        return false;
    vals[*n] = v->value;
    lens[(*n)++] = v->len;
    return true;
}

/* `key` of the job's strategy.matrix: its list, then the include entries that set it. */
static size_t matrix_values(const struct ci_scope *sc, const char *key, size_t len,
                            const char **vals, size_t *lens)
{
    struct yt_stream *s = sc->s;
    struct yt_node *m = yt_deref(s, yt_get(s, yt_get(s, sc->job, "strategy", NULL), "matrix",
                                           NULL));
    if (!yt_is_map(m) || yt_get(s, m, "exclude", NULL))
        return 0; /* (a matrix given by an expression, or values left out: not followed) */
    size_t n = 0;
    struct yt_node *list = yt_deref(s, yt_get_n(s, m, key, len, NULL));
    if (list && !yt_is_seq(list))
        return 0;
    for (size_t i = 0; list && i < list->nitems; i++) {
        struct yt_node *v = literal(s, yt_item(s, list, i));
        if (!v || n >= CI_EXPR_MAX_VALUES)
            return 0;
        vals[n] = v->value;
        lens[n++] = v->len;
    }
    struct yt_node *inc = yt_deref(s, yt_get(s, m, "include", NULL));
    if (inc && (!yt_is_seq(inc) || inc->nitems > CI_MATRIX_MAX_JOBS))
        return 0; /* (more entries than jobs GitHub runs: not a matrix it accepts) */
    for (size_t i = 0; inc && i < inc->nitems; i++)
        if (!add_entry_value(s, yt_deref(s, yt_item(s, inc, i)), key, len, vals, lens, &n))
            return 0;
    return n;
}

size_t ci_expr_values(const struct ci_scope *sc, const char *text, size_t n, const char **vals,
                      size_t *lens)
{
    while (n && (*text == ' ' || *text == '\t'))
        text++, n--;
    while (n && (text[n - 1] == ' ' || text[n - 1] == '\t'))
        n--;
    size_t k = 0; /* the name after the context's dot: letters, digits, '_' and '-' */
    const char *name;
    bool env = n > 4 && !memcmp(text, "env.", 4), matrix = n > 7 && !memcmp(text, "matrix.", 7);
    if (!env && !matrix)
        return 0;
    name = text + (env ? 4 : 7);
    size_t len = n - (size_t)(name - text);
    for (k = 0; k < len; k++)
        if (!((name[k] >= 'a' && name[k] <= 'z') || (name[k] >= 'A' && name[k] <= 'Z') ||
              (name[k] >= '0' && name[k] <= '9') || name[k] == '_' || name[k] == '-'))
            return 0; /* (an operator, a property of the value, a call) */
    return env ? env_value(sc, name, len, vals, lens) : matrix_values(sc, name, len, vals, lens);
}
