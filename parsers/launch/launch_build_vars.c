/* SPDX-License-Identifier: Apache-2.0 */
/* launch_build_vars.c: the build options a script keeps in variables (see
 * launch_internal.h), as ai-dynamo/nixl's build scripts do:
 *
 *   CTX="--build-context nixl=$SRC"            (in a `case` branch: "--build-context nixl=$2")
 *   BUILD_CONTEXT_ARGS="$CTX $UCX_CTX"
 *   TAG="--tag nixlbench:${VERSION}"
 *   docker build -f Dockerfile $TAG $BUILD_CONTEXT_ARGS .
 *
 * A word of the build command that is exactly one unquoted variable stands for the words
 * of the values it was assigned on some path (literal ones, sh_vars_values, and those
 * with unresolved parts, sh_vars_raw_values); a word of those that is again exactly one
 * variable is followed (VAR_DEPTH levels, VAR_BUDGET values a build word). The variable
 * table pays for what is read back (sh_vars.read_back: each value its bytes plus
 * ENTRY_COST, each project image ENTRY_COST, READ_BACK_MAX in all), so one big value named
 * by many build commands is read a bounded number of times. Among those words,
 * the values of `-t`/`--tag` and the NAME of `--build-context NAME=VALUE` are project
 * images as if written on the command line, each unresolved part one '*' (`nixlbench:*`).
 * Project images only make findings moot (GL101, GL103, GL204 on the project's own
 * images), so any path's value counts; a value with no literal name (`--tag $2`) names
 * nothing (gl_project_pattern_names_some).
 * The same words give a build's ARGs (launch_build_var_alts, read by launch_build.c):
 * `OPTS="--build-arg BASE=x"` chosen in a `case`, or an array grown with
 * `args+=(--build-arg K=V)` and written `"${args[@]}"` (its parts joined, as recorded by
 * sh_vars_raw_values).
 */
#include <string.h>

#include "parsers/launch/launch_internal.h"

enum { VAR_DEPTH = 4, VAR_BUDGET = 64, WORD_MAX = 256, ENTRY_COST = 256 };
#define READ_BACK_MAX ((size_t)1 << 20)

/* Charge n to the table; false when that passes its budget (nothing more is read). */
static bool charge(struct sh_vars *vars, size_t n)
{
    if (!vars || vars->read_back > READ_BACK_MAX || n > READ_BACK_MAX - vars->read_back)
        return false;
    vars->read_back += n;
    return true;
}

struct var_walk {
    struct gl_launch_scan *scan;
    struct gl_loc loc; /* the variable's word in the build command */
    const char *tool;
    unsigned budget;
    int pending;       /* 1: the next word is a tag, 2: a build context, 0: neither */
};

static bool name_byte(char c, bool first)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' ||
           (!first && c >= '0' && c <= '9');
}

/* Is w[0..n) exactly one variable (`$NAME`, `${NAME}`)? Its name as [*name, +return). */
static size_t sole_var(const char *w, size_t n, const char **name)
{
    size_t braced = n > 3 && w[1] == '{' && w[n - 1] == '}';
    if (n < 2 || w[0] != '$')
        return 0;
    *name = w + 1 + braced;
    size_t len = n - 1 - 2 * braced;
    for (size_t i = 0; i < len; i++)
        if (!name_byte((*name)[i], i == 0))
            return 0;
    return len;
}

/* The end of the expansion at w[i] (a '$' or '`'), within n. */
static size_t expansion_end(const char *w, size_t i, size_t n)
{
    char open = w[i] == '`' ? '`' : i + 1 < n ? w[i + 1] : 0;
    if (open == '{' || open == '(') {
        char close = open == '{' ? '}' : ')';
        int depth = 0;
        for (size_t k = i + 1; k < n; k++) {
            depth += (w[k] == open) - (w[k] == close);
            if (!depth)
                return k + 1;
        }
        return n;
    }
    if (open == '`') {
        const char *e = memchr(w + i + 1, '`', n - i - 1);
        return e ? (size_t)(e - w) + 1 : n;
    }
    size_t k = i + 1;
    while (k < n && name_byte(w[k], k == i + 1))
        k++;
    return k > i + 1 ? k : i + 1 + (k < n); /* `$1`, `$@`: one byte */
}

/* Word w[0..n) as a pattern: each expansion one '*', quotes dropped; NULL when it holds
 * no literal byte. */
static const char *word_pattern(struct gl_arena *a, const char *w, size_t n)
{
    char buf[WORD_MAX + 1];
    size_t o = 0, lit = 0;
    for (size_t i = 0; i < n && o < WORD_MAX;) {
        if (w[i] == '$' || w[i] == '`') {
            i = expansion_end(w, i, n);
            if (!o || buf[o - 1] != '*')
                buf[o++] = '*';
        } else if (w[i] == '"' || w[i] == '\'') {
            i++;
        } else {
            buf[o++] = w[i++];
            lit++;
        }
    }
    buf[o] = 0;
    return lit ? gl_arena_strndup(a, buf, o) : NULL;
}

static void take(struct var_walk *vw, const char *w, size_t n, int what)
{
    struct gl_doc *doc = vw->scan->doc;
    if (what == 2) { /* NAME=VALUE: the NAME, when it is all literal */
        const char *eq = memchr(w, '=', n);
        if (!eq || eq == w || memchr(w, '$', (size_t)(eq - w)) || memchr(w, '`', (size_t)(eq - w)))
            return;
        n = (size_t)(eq - w);
    }
    const char *pattern = n <= WORD_MAX ? word_pattern(&doc->arena, w, n) : NULL;
    if (pattern && charge(vw->scan->text_vars, ENTRY_COST))
        gl_project_add(doc, GL_PROJECT_BUILT, gl_arena_strndup(&doc->arena, w, n), pattern,
                       vw->loc, vw->tool);
}

static void walk_value(struct var_walk *vw, const char *v, size_t len, int depth);

static void walk_var(struct var_walk *vw, const char *name, size_t nlen, int depth)
{
    struct sh_vars *vars = vw->scan->text_vars;
    const char *vals[2 * SH_VAR_MAX_ALTS];
    size_t lens[2 * SH_VAR_MAX_ALTS];
    size_t n = sh_vars_values(vars, name, nlen, vals, lens, SH_VAR_MAX_ALTS);
    n += sh_vars_raw_values(vars, name, nlen, vals + n, lens + n, SH_VAR_MAX_ALTS);
    int pending = vw->pending;
    for (size_t i = 0; i < n && vw->budget && charge(vars, lens[i] + ENTRY_COST); i++) {
        vw->budget--;
        vw->pending = pending; /* each value starts where the word stood */
        walk_value(vw, vals[i], lens[i], depth + 1);
    }
    vw->pending = 0;
}

static void walk_word(struct var_walk *vw, const char *w, size_t n, int depth)
{
    const char *name;
    size_t nlen = sole_var(w, n, &name);
    if (nlen) {
        if (depth < VAR_DEPTH)
            walk_var(vw, name, nlen, depth);
        else
            vw->pending = 0;
        return;
    }
    if (vw->pending) {
        take(vw, w, n, vw->pending);
        vw->pending = 0;
        return;
    }
    static const struct {
        const char *opt;
        int what;
    } opts[] = {{"-t", 1}, {"--tag", 1}, {"--build-context", 2}};
    for (size_t k = 0; k < sizeof opts / sizeof opts[0]; k++) {
        size_t ol = strlen(opts[k].opt);
        if (n == ol && !memcmp(w, opts[k].opt, ol))
            vw->pending = opts[k].what;
        else if (n > ol + 1 && !memcmp(w, opts[k].opt, ol) && w[ol] == '=' && ol > 2)
            take(vw, w + ol + 1, n - ol - 1, opts[k].what);
    }
}

static void walk_value(struct var_walk *vw, const char *v, size_t len, int depth)
{
    size_t i = 0;
    while (i < len) {
        while (i < len && (v[i] == ' ' || v[i] == '\t' || v[i] == '\n'))
            i++;
        size_t s = i;
        while (i < len && v[i] != ' ' && v[i] != '\t' && v[i] != '\n')
            i++;
        if (i > s)
            walk_word(vw, v + s, i - s, depth);
    }
}

void launch_build_var_options(struct gl_launch_scan *scan, const struct sh_cmd *cmd,
                              size_t first, const char *tool)
{
    for (size_t i = first; i < cmd->nwords; i++) {
        const struct sh_word_info *in = &cmd->info[i];
        const char *name, *w = cmd->words[i].text;
        size_t nlen = in->may_split && in->nspans == 1 && in->spans[0].opaque
                          ? sole_var(w, strlen(w), &name)
                          : 0;
        if (!nlen)
            continue;
        struct var_walk vw = {scan, cmd->words[i].loc, tool, VAR_BUDGET, 0};
        walk_var(&vw, name, nlen, 0);
    }
}

size_t launch_build_var_alts(struct gl_launch_scan *scan, const struct sh_cmd *cmd, size_t i,
                             const char **vals, size_t *lens, size_t max)
{
    const struct sh_word_info *in = &cmd->info[i];
    const char *name, *w = cmd->words[i].text;
    size_t n = strlen(w), nlen = 0;
    if (in->nspans != 1 || !in->spans[0].opaque || max < SH_VAR_MAX_ALTS)
        return 0;
    if (n > 6 && !memcmp(w, "${", 2) && !memcmp(w + n - 4, "[@]}", 4)) { /* "${A[@]}" */
        name = w + 2;
        nlen = n - 6;
        for (size_t k = 0; k < nlen; k++)
            if (!name_byte(name[k], k == 0))
                return 0;
        const char *parts[SH_VAR_MAX_ALTS];
        size_t plens[SH_VAR_MAX_ALTS], total = 0;
        size_t np = sh_vars_raw_values(scan->text_vars, name, nlen, parts, plens,
                                       SH_VAR_MAX_ALTS);
        for (size_t k = 0; k < np; k++)
            total += plens[k] + 1;
        if (!np || !charge(scan->text_vars, total + ENTRY_COST))
            return 0;
        /* the array's parts (`(a b)` each), joined: the words it holds on some path */
        char *all = gl_arena_alloc(&scan->doc->arena, total + 1), *o = all;
        for (size_t k = 0; k < np; k++) {
            for (size_t c = 0; c < plens[k]; c++)
                *o++ = parts[k][c] == '(' || parts[k][c] == ')' ? ' ' : parts[k][c];
            *o++ = ' ';
        }
        *o = 0;
        vals[0] = all;
        lens[0] = total;
        return 1;
    }
    if (!in->may_split || !(nlen = sole_var(w, n, &name)))
        return 0;
    size_t k = sh_vars_values(scan->text_vars, name, nlen, vals, lens, SH_VAR_MAX_ALTS);
    if (max - k >= SH_VAR_MAX_ALTS)
        k += sh_vars_raw_values(scan->text_vars, name, nlen, vals + k, lens + k,
                                SH_VAR_MAX_ALTS);
    for (size_t a = 0; a < k; a++)
        if (!charge(scan->text_vars, lens[a] + ENTRY_COST))
            return 0;
    return k;
}
