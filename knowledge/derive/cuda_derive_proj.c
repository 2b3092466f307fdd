/* SPDX-License-Identifier: Apache-2.0 */
/* cuda_derive_proj.c: CUDA facts from the project files an install reads: a pyproject.toml
 * (`pip install .`, `uv sync`, `uv pip install -r pyproject.toml`), a uv.lock (`uv sync`)
 * and a conda environment file (`conda env create -f environment.yml`). See
 * cuda_derive.h; cuda_derive_reqs.c finds the files and calls these. */
#include "knowledge/derive/cuda_derive_internal.h"

#include <string.h>

#include "parsers/yaml/yaml_tree.h"

#define PROJ_INDEXES_MAX 32 /* package indexes read from one file */

/* ---- TOML, as far as these files need it: one `key = value` a line, strings in double
 * or single quotes, arrays that may run over several lines, table headers ---- */

struct toml_line {
    const char *s, *e;  /* the line without its break, leading blanks skipped */
    uint32_t line;
    const char *start;  /* the line's first byte, for columns */
};

/* The next quoted string at or after *p before e: its bytes into *str and *len, *p past it. */
static bool next_string(const char **p, const char *e, const char **str, size_t *len)
{
    const char *q = *p;
    while (q < e && *q != '"' && *q != '\'' && *q != '#')
        q++;
    if (q >= e || *q == '#')
        return false;
    char quote = *q++;
    const char *b = q;
    while (q < e && *q != quote)
        q += (*q == '\\' && quote == '"' && q + 1 < e) ? 2 : 1;
    if (q >= e)
        return false;
    *str = b;
    *len = (size_t)(q - b);
    *p = q + 1;
    return true;
}

/* Does [p, e) close an array: a ']' outside quoted strings and comments? */
static bool closes_array(const char *p, const char *e)
{
    for (char quote = 0; p < e; p++) {
        if (quote) {
            if (*p == '\\' && quote == '"')
                p++;
            else if (*p == quote)
                quote = 0;
        } else if (*p == '"' || *p == '\'') {
            quote = *p;
        } else if (*p == '#') {
            return false;
        } else if (*p == ']') {
            return true;
        }
    }
    return false;
}

/* `key = ...` on a line: the key (bare or quoted) and the value's first byte. */
static bool key_of(const struct toml_line *l, char *key, size_t cap, const char **value)
{
    const char *p = l->s;
    size_t n = 0;
    if (p < l->e && (*p == '"' || *p == '\'')) {
        const char *str;
        size_t len;
        if (!next_string(&p, l->e, &str, &len) || len >= cap)
            return false;
        memcpy(key, str, len);
        n = len;
    } else {
        while (p < l->e && *p != '=' && *p != ' ' && *p != '\t' && n + 1 < cap)
            key[n++] = *p++;
    }
    key[n] = '\0';
    while (p < l->e && (*p == ' ' || *p == '\t'))
        p++;
    if (!n || p >= l->e || *p != '=')
        return false;
    *value = p + 1;
    return true;
}

struct proj_index {
    const char *url, *name;
    struct gl_loc loc;  /* the URL's first byte */
    bool explicit_only; /* `explicit = true` / poetry `priority = "explicit"` */
};

struct proj {
    struct cd_ctx *c;
    const struct gl_pkg *p;
    struct proj_index idx[PROJ_INDEXES_MAX];
    size_t nidx;
    const char *torch_sources[PROJ_INDEXES_MAX]; /* index names [tool.uv.sources] gives torch */
    size_t nsources;
    bool torch;         /* the project depends on a torch package */
};

static struct gl_loc loc_at(const struct toml_line *l, const char *p)
{
    return (struct gl_loc){l->line, (uint32_t)(p - l->start) + 1};
}

static void add_index(struct proj *pj, const struct toml_line *l, const char *str, size_t len,
                      const char *name)
{
    if (pj->nidx >= PROJ_INDEXES_MAX)
        return;
    struct proj_index *x = &pj->idx[pj->nidx++];
    x->url = gl_arena_strndup(&pj->c->doc->arena, str, len);
    x->name = name;
    x->loc = loc_at(l, str);
    x->explicit_only = false;
}

/* One dependency string of [project].dependencies. */
static void dependency(struct proj *pj, const struct toml_line *l, const char *str, size_t len)
{
    const char *spec = gl_arena_strndup(&pj->c->doc->arena, str, len);
    cd_pkg_spec(pj->c, GL_PKG_PIP, spec, loc_at(l, str), pj->p->stage);
    struct cd_spec sp;
    pj->torch = pj->torch || (cd_parse_spec(spec, &sp) && cd_is_torch_pkg(sp.name));
}

/* The string value of `key = "..."` in [p, e) (a word boundary before key), or false. */
static bool inline_value(const char *p, const char *e, const char *key, const char **str,
                         size_t *len)
{
    size_t kl = strlen(key);
    for (const char *k = p; (k = memchr(k, key[0], (size_t)(e - k))) != NULL; k++) {
        if ((size_t)(e - k) < kl || memcmp(k, key, kl) ||
            (k > p && k[-1] != ' ' && k[-1] != '{' && k[-1] != ','))
            continue;
        const char *q = k + kl;
        while (q < e && *q == ' ')
            q++;
        if (q < e && *q == '=' && (q++, next_string(&q, e, str, len)))
            return true;
    }
    return false;
}

/* Is extra[0, len) one the install chose (gl_pkg.extras; "*": any, not known which)? */
static bool extra_chosen(const char *extras, const char *extra, size_t len)
{
    if (extras && !strcmp(extras, "*"))
        return true;
    for (const char *x = extras; x && *x; x += strcspn(x, ",") + 1)
        if (strcspn(x, ",") == len && !memcmp(x, extra, len))
            return true;
    return false;
}

/* One source of a [tool.uv.sources] torch value: its `index = "NAME"`, unless an
 * `extra = "X"` limits it to an extra the install did not choose. */
static void torch_source_entry(struct proj *pj, const char *p, const char *e)
{
    const char *str, *extra;
    size_t len, elen;
    if (inline_value(p, e, "extra", &extra, &elen) && !extra_chosen(pj->p->extras, extra, elen))
        return;
    if (inline_value(p, e, "index", &str, &len) && pj->nsources < PROJ_INDEXES_MAX)
        pj->torch_sources[pj->nsources++] = gl_arena_strndup(&pj->c->doc->arena, str, len);
}

/* A [tool.uv.sources] value for a torch package (one line of it): each `{ ... }` source in
 * it, or the line as one when it has no braces. */
static void torch_source(struct proj *pj, const char *p, const char *e)
{
    const char *open = NULL;
    bool any = false;
    for (const char *q = p; q < e; q++) {
        if (*q == '"' || *q == '\'') {
            const char *str;
            size_t len;
            if (!next_string(&q, e, &str, &len))
                break;
            q--;
        } else if (*q == '#') {
            break;
        } else if (*q == '{') {
            open = q;
        } else if (*q == '}' && open) {
            torch_source_entry(pj, open, q);
            open = NULL;
            any = true;
        }
    }
    if (!any)
        torch_source_entry(pj, p, e);
}

/* The PyTorch indexes the project's torch packages come from: every index that is not
 * explicit, and the explicit ones [tool.uv.sources] names for torch. One fact each when
 * they all name one CUDA; none when they name several (alternatives chosen by markers or
 * extras at install time: opaque). */
static void torch_index_facts(struct proj *pj)
{
    char first[24] = "";
    bool several = false;
    struct gl_arena *a = &pj->c->doc->arena;
    for (int pass = 0; pass < 2 && pj->torch && !several; pass++) {
        for (size_t i = 0; i < pj->nidx; i++) {
            const struct proj_index *x = &pj->idx[i];
            bool used = !x->explicit_only;
            for (size_t k = 0; k < pj->nsources && !used; k++)
                used = x->name && !strcmp(x->name, pj->torch_sources[k]);
            char cuda[24];
            size_t off, ulen;
            if (!used || !cd_torch_index_cuda(x->url, cuda, sizeof cuda, &off, &ulen))
                continue;
            if (pass == 0) {
                several = several || (first[0] && strcmp(first, cuda));
                memcpy(first, cuda, sizeof first);
                continue;
            }
            struct gl_loc at = {x->loc.line, x->loc.col + (uint32_t)off};
            cd_add(pj->c, GL_CUDA_FRAMEWORK, gl_arena_strdup(a, cuda),
                   gl_arena_printf(a, "PyTorch wheel index %s", x->url), "torch", at,
                   pj->p->stage);
        }
    }
}

/* Iterate the lines of c->text: fills *l, false at the end. */
static bool next_line(const struct cd_ctx *c, size_t *off, struct toml_line *l)
{
    if (*off >= c->len)
        return false;
    const char *t = c->text, *b = t + *off, *e = memchr(b, '\n', c->len - *off);
    e = e ? e : t + c->len;
    l->start = b;
    l->line++;
    *off = (size_t)(e - t) + 1;
    while (e > b && e[-1] == '\r')
        e--;
    while (b < e && (*b == ' ' || *b == '\t'))
        b++;
    l->s = b;
    l->e = e;
    return true;
}

void cd_scan_pyproject(struct cd_ctx *c, const struct gl_pkg *p)
{
    struct proj pj = {.c = c, .p = p};
    char table[64] = "", key[64];
    struct toml_line l = {0};
    size_t off = 0;
    bool deps = false, sources = false; /* inside a multi-line dependencies / sources array */
    bool explicit_first = false;        /* `explicit = true` before the entry's url */
    const char *index_name = NULL;
    struct proj_index *cur = NULL;      /* the [[tool.uv.index]] / poetry source being read */
    while (next_line(c, &off, &l)) {
        if (deps || sources) {
            const char *q = l.s, *str;
            size_t len;
            if (sources)
                torch_source(&pj, l.s, l.e);
            while (deps && next_string(&q, l.e, &str, &len))
                dependency(&pj, &l, str, len);
            if (closes_array(l.s, l.e) && !(sources && l.s < l.e && *l.s == '{'))
                deps = sources = false;
            continue;
        }
        if (l.s < l.e && *l.s == '[') {
            const char *b = l.s + 1 + (l.s + 1 < l.e && l.s[1] == '[');
            size_t n = strcspn(b, "]\n");
            snprintf(table, sizeof table, "%.*s", (int)(n < 63 ? n : 63), b);
            bool entry = !strcmp(table, "tool.uv.index") || !strcmp(table, "tool.poetry.source");
            cur = NULL;
            index_name = NULL;
            explicit_first = false;
            if (entry && pj.nidx < PROJ_INDEXES_MAX)
                cur = &pj.idx[pj.nidx]; /* filled when its url comes */
            continue;
        }
        const char *v;
        if (!key_of(&l, key, sizeof key, &v))
            continue;
        const char *q = v, *str;
        size_t len;
        bool extra = !strcmp(table, "project.optional-dependencies") && p->extras &&
                     strcmp(p->extras, "*") && extra_chosen(p->extras, key, strlen(key));
        if ((!strcmp(table, "project") && !strcmp(key, "dependencies")) || extra) {
            while (next_string(&q, l.e, &str, &len))
                dependency(&pj, &l, str, len);
            deps = !closes_array(v, l.e);
        } else if (!strcmp(table, "tool.uv.sources") && cd_is_torch_pkg(key)) {
            torch_source(&pj, v, l.e);
            sources = memchr(v, '[', (size_t)(l.e - v)) && !closes_array(v, l.e);
        } else if (!strcmp(table, "tool.uv") &&
                   (!strcmp(key, "index-url") || !strcmp(key, "extra-index-url"))) {
            while (next_string(&q, l.e, &str, &len))
                add_index(&pj, &l, str, len, NULL);
        } else if (cur && !strcmp(key, "name") && next_string(&q, l.e, &str, &len)) {
            index_name = gl_arena_strndup(&c->doc->arena, str, len);
            if (cur < pj.idx + pj.nidx)
                cur->name = index_name;
        } else if (cur && !strcmp(key, "url") && cur == pj.idx + pj.nidx &&
                   next_string(&q, l.e, &str, &len)) {
            add_index(&pj, &l, str, len, index_name);
            cur->explicit_only = explicit_first;
        } else if (cur && ((!strcmp(key, "explicit") && strstr(v, "true")) ||
                           (!strcmp(key, "priority") && strstr(v, "explicit")))) {
            if (cur < pj.idx + pj.nidx)
                cur->explicit_only = true;
            else
                explicit_first = true;
        }
    }
    torch_index_facts(&pj);
}

/* ---- uv.lock: [[package]] tables with name, version and source ---- */

struct lock_pkg {
    const char *name, *version, *registry;
    struct gl_loc name_loc, version_loc, registry_loc;
};

#define LOCK_PKGS_MAX 4096

/* Does another package of the lock have this name with another version (a fork of the
 * resolution by markers or extras: the image gets one of them, which is not known)? */
static bool forked(const struct lock_pkg *pk, size_t n, const struct lock_pkg *x)
{
    for (size_t i = 0; i < n; i++)
        if (pk[i].name && !strcmp(pk[i].name, x->name) && strcmp(pk[i].version, x->version))
            return true;
    return false;
}

static void lock_fact(struct cd_ctx *c, const struct gl_pkg *p, const struct lock_pkg *x)
{
    struct gl_arena *a = &c->doc->arena;
    const char *spec = gl_arena_printf(a, "%s==%s", x->name, x->version);
    bool local = strchr(x->version, '+') != NULL;
    struct gl_cuda_fact *f = cd_pkg_spec(c, GL_PKG_PIP, spec, local ? x->version_loc : x->name_loc,
                                         p->stage);
    char cuda[24];
    size_t off, ulen;
    if (f || local || !x->registry || !cd_is_torch_pkg(x->name) ||
        !cd_torch_index_cuda(x->registry, cuda, sizeof cuda, &off, &ulen))
        return;
    /* a torch wheel of a PyTorch index whose version has no local part */
    struct gl_loc at = {x->registry_loc.line, x->registry_loc.col + (uint32_t)off};
    f = cd_add(c, GL_CUDA_FRAMEWORK, gl_arena_strdup(a, cuda),
               gl_arena_printf(a, "PyTorch wheel index %s", x->registry), "torch", at, p->stage);
    if (!strcmp(x->name, "torch"))
        f->torch = x->version;
}

void cd_scan_uv_lock(struct cd_ctx *c, const struct gl_pkg *p)
{
    struct gl_arena *a = &c->doc->arena;
    struct lock_pkg *pk = NULL;
    size_t n = 0, cap = 0;
    struct toml_line l = {0};
    size_t off = 0;
    bool in_pkg = false;
    char key[64];
    while (next_line(c, &off, &l)) {
        if (l.s < l.e && *l.s == '[') {
            in_pkg = (size_t)(l.e - l.s) >= 11 && !memcmp(l.s, "[[package]]", 11);
            if (in_pkg && n < LOCK_PKGS_MAX)
                memset(GL_APPEND(a, pk, n, cap), 0, sizeof *pk);
            else
                in_pkg = false;
            continue;
        }
        const char *v, *str;
        size_t len;
        if (!in_pkg || !key_of(&l, key, sizeof key, &v))
            continue;
        struct lock_pkg *x = &pk[n - 1];
        if (!strcmp(key, "name") && next_string(&v, l.e, &str, &len)) {
            x->name = gl_arena_strndup(a, str, len);
            x->name_loc = loc_at(&l, str);
        } else if (!strcmp(key, "version") && next_string(&v, l.e, &str, &len)) {
            x->version = gl_arena_strndup(a, str, len);
            x->version_loc = loc_at(&l, str);
        } else if (!strcmp(key, "source")) {
            const char *r = strstr(v, "registry");
            if (r && r < l.e && (v = r + 8, next_string(&v, l.e, &str, &len))) {
                x->registry = gl_arena_strndup(a, str, len);
                x->registry_loc = loc_at(&l, str);
            }
        }
    }
    for (size_t i = 0; i < n; i++) {
        if (pk[i].name && pk[i].version && !forked(pk, n, &pk[i]))
            lock_fact(c, p, &pk[i]);
    }
}

/* ---- conda environment files: dependencies (conda specs, and a pip: list) ---- */

static void env_pip(struct cd_ctx *c, const struct gl_pkg *p, struct yt_stream *s,
                    struct yt_node *list)
{
    bool torch = false;
    size_t nidx = 0;
    struct gl_loc idx_loc[PROJ_INDEXES_MAX];
    const char *idx_url[PROJ_INDEXES_MAX];
    for (size_t i = 0; yt_is_seq(list) && i < list->nitems; i++) {
        struct yt_node *it = yt_deref(s, list->items[i]);
        if (!yt_is_scalar(it) || !it->len)
            continue;
        struct gl_loc at = it->loc;
        at.col += it->style == YT_SINGLE || it->style == YT_DOUBLE;
        const char *v = it->value;
        if (v[0] == '-') { /* --extra-index-url URL, -f URL */
            size_t o = strcspn(v, " =");
            if (!v[o] || nidx >= PROJ_INDEXES_MAX)
                continue;
            size_t u = o + strspn(v + o, " =");
            idx_url[nidx] = v + u;
            idx_loc[nidx++] = (struct gl_loc){at.line, at.col + (uint32_t)u};
            continue;
        }
        cd_pkg_spec(c, GL_PKG_PIP, v, at, p->stage);
        struct cd_spec sp;
        torch = torch || (cd_parse_spec(v, &sp) && cd_is_torch_pkg(sp.name));
    }
    for (size_t k = 0; k < nidx && torch; k++) {
        char cuda[24];
        size_t off, ulen;
        if (!cd_torch_index_cuda(idx_url[k], cuda, sizeof cuda, &off, &ulen))
            continue;
        struct gl_loc at = {idx_loc[k].line, idx_loc[k].col + (uint32_t)off};
        cd_add(c, GL_CUDA_FRAMEWORK, gl_arena_strdup(&c->doc->arena, cuda),
               gl_arena_printf(&c->doc->arena, "PyTorch wheel index %s", idx_url[k]), "torch",
               at, p->stage);
    }
}

void cd_scan_conda_env(struct cd_ctx *c, const struct gl_pkg *p)
{
    struct yt_stream s;
    if (yt_load(&s, &c->doc->arena, c->text, c->len) != 0 || s.ndocs != 1)
        return; /* not an environment file gpulint can read: the install will say so */
    struct yt_node *deps = yt_get(&s, yt_deref(&s, s.docs[0]), "dependencies", NULL);
    for (size_t i = 0; yt_is_seq(deps) && i < deps->nitems; i++) {
        struct yt_node *it = yt_deref(&s, deps->items[i]);
        if (yt_is_map(it)) {
            env_pip(c, p, &s, yt_get(&s, it, "pip", NULL));
            continue;
        }
        if (!yt_is_scalar(it) || !it->len)
            continue;
        struct gl_loc at = it->loc;
        at.col += it->style == YT_SINGLE || it->style == YT_DOUBLE;
        const char *v = it->value, *chan = strstr(v, "::"); /* nvidia::cuda-toolkit=12.4 */
        if (chan) {
            at.col += (uint32_t)(chan + 2 - v);
            v = chan + 2;
        }
        cd_pkg_spec(c, GL_PKG_CONDA, v, at, p->stage);
    }
}
