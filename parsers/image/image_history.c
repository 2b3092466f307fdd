/* SPDX-License-Identifier: Apache-2.0 */
/* image_history.c: an image config's history as facts (see image_history.h). */
#include "parsers/image/image_history.h"

#include <string.h>

#include "linter/core/hashmap.h"
#include "parsers/shell/run_commands.h"
#include "parsers/shell/shell_words.h"

/* The variables a RUN entry sees: its build arguments, then the config's Env. */
struct vars {
    struct gl_map args, env;
};

static const char *lookup(void *ctx, const char *name, size_t len)
{
    const struct vars *v = ctx;
    const char *s = gl_map_get(&v->args, name, len);
    return s ? s : gl_map_get(&v->env, name, len);
}

/* Put "K=V" (len bytes) into map. */
static void put_kv(struct gl_arena *a, struct gl_map *m, const char *kv, size_t len)
{
    const char *eq = memchr(kv, '=', len);
    if (eq && eq > kv)
        *gl_map_put(m, kv, (size_t)(eq - kv), NULL) =
            gl_arena_strndup(a, eq + 1, len - (size_t)(eq + 1 - kv));
}

static size_t blanks(const char *s, size_t i, size_t n)
{
    while (i < n && (s[i] == ' ' || s[i] == '\t'))
        i++;
    return i;
}

static size_t word_end(const char *s, size_t i, size_t n)
{
    while (i < n && s[i] != ' ' && s[i] != '\t' && s[i] != '\n')
        i++;
    return i;
}

/* A word of capitals: a Dockerfile instruction (ENV, COPY, ADD, LABEL, WORKDIR, ...). */
static bool instruction_word(const char *s, size_t len)
{
    if (len < 2)
        return false;
    for (size_t i = 0; i < len; i++)
        if (s[i] < 'A' || s[i] > 'Z')
            return false;
    return true;
}

static bool shell_word(const char *s, size_t len)
{
    static const char *const shells[] = {"sh", "bash", "dash", "ash", "zsh", "ksh"};
    const char *base = s;
    for (size_t i = 0; i < len; i++)
        if (s[i] == '/')
            base = s + i + 1;
    size_t blen = len - (size_t)(base - s);
    for (size_t k = 0; k < sizeof shells / sizeof shells[0]; k++)
        if (strlen(shells[k]) == blen && !memcmp(base, shells[k], blen))
            return true;
    return false;
}

/* The shell text of a RUN entry (NULL: not a RUN), its build arguments put into args. */
static const char *run_text(struct gl_arena *a, const char *cb, struct gl_map *args)
{
    size_t n = strlen(cb), i = blanks(cb, 0, n), e = word_end(cb, i, n);
    if (e - i == 3 && !memcmp(cb + i, "RUN", 3)) {
        i = blanks(cb, e, n);
        while (i + 2 < n && cb[i] == '-' && cb[i + 1] == '-') /* --mount=..., --network=... */
            i = blanks(cb, word_end(cb, i, n), n);
    } else if (instruction_word(cb + i, e - i)) {
        return NULL;
    }
    if (i < n && cb[i] == '|') { /* |N K=V ...: the build arguments */
        size_t count = 0;
        for (e = i + 1; e < n && cb[e] >= '0' && cb[e] <= '9' && count < 100000; e++)
            count = count * 10 + (size_t)(cb[e] - '0');
        i = blanks(cb, word_end(cb, i, n), n);
        for (size_t k = 0; k < count && i < n; k++) {
            e = word_end(cb, i, n);
            put_kv(a, args, cb + i, e - i);
            i = blanks(cb, e, n);
        }
    }
    e = word_end(cb, i, n);
    if (shell_word(cb + i, e - i)) { /* /bin/sh [-o pipefail ...] -c SCRIPT */
        size_t j = blanks(cb, e, n);
        while (j < n && cb[j] == '-') {
            size_t we = word_end(cb, j, n);
            bool dash_c = we - j >= 2 && cb[we - 1] == 'c' && cb[j + 1] != '-';
            bool valued = we - j == 2 && cb[j + 1] == 'o'; /* -o pipefail */
            j = blanks(cb, we, n);
            if (valued)
                j = blanks(cb, word_end(cb, j, n), n);
            if (dash_c) {
                i = j;
                break;
            }
        }
    }
    size_t end = n;
    static const char tag[] = "# buildkit";
    size_t tl = sizeof tag - 1;
    if (end - i >= tl && !memcmp(cb + end - tl, tag, tl))
        end -= tl;
    while (end > i && (cb[end - 1] == ' ' || cb[end - 1] == '\t'))
        end--;
    if (end <= i || cb[i] == '#') /* nothing, or `#(nop) ENV ...`: not a RUN */
        return NULL;
    return gl_arena_strndup(a, cb + i, end - i);
}

bool gl_image_history_read(struct gl_arena *a, const struct gl_image_config *c,
                           struct gl_image_history **out, size_t *nout,
                           struct gl_dockerfile_model **run)
{
    struct gl_dockerfile_model *m = gl_arena_alloc(a, sizeof *m);
    memset(m, 0, sizeof *m);
    m->final_stage = -1;
    struct gl_image_history *h = gl_arena_alloc(a, (c->ncreated_by ? c->ncreated_by : 1) *
                                                       sizeof *h);
    struct vars v;
    gl_map_init(&v.env);
    for (size_t i = 0; i < c->nenv; i++)
        put_kv(a, &v.env, c->env[i], strlen(c->env[i]));
    int layer = 0;
    size_t i = 0;
    for (; i < c->ncreated_by && !gl_arena_over(a); i++) {
        h[i] = (struct gl_image_history){c->created_by[i], NULL, -1};
        if (!c->empty_layer[i])
            h[i].layer = layer++;
        if (!c->created_by[i])
            continue;
        gl_map_init(&v.args);
        h[i].run = run_text(a, c->created_by[i], &v.args);
        if (h[i].run) {
            struct sh_vars vars;
            sh_vars_init(&vars, a);
            struct sh_opts opts = {.lookup = lookup, .ctx = &v, .track_assignments = true,
                                   .escape = '\\', .vars = &vars};
            struct sh_cmd *cmds;
            size_t ncmds;
            struct sh_error err;
            sh_split(a, h[i].run, strlen(h[i].run), NULL, &opts, &cmds, &ncmds, &err);
            (void)gl_run_commands(a, m, 0, (int)i, cmds, ncmds, &opts);
        }
        gl_map_free(&v.args);
    }
    gl_map_free(&v.env);
    *out = h;
    *nout = i;
    *run = m;
    return !gl_arena_over(a);
}
