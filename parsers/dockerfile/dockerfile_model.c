/* SPDX-License-Identifier: Apache-2.0 */
/* dockerfile_model.c: Dockerfile syntax tree into the model (see dockerfile_model.h). */
#include "parsers/dockerfile/dockerfile_model.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "linter/core/escape.h"
#include "linter/core/hashmap.h"
#include "linter/core/ref/imageref.h"
#include "linter/core/lines.h"
#include "linter/core/suppress.h"
#include "linter/core/text.h"
#include "parsers/dockerfile/dockerfile.h"
#include "parsers/dockerfile/dockerfile_from.h"
#include "parsers/dockerfile/dockerfile_internal.h"
#include "parsers/dockerfile/dockerfile_run.h"
#include "parsers/shell/mount_spec.h"
#include "parsers/shell/shell_words.h"

/* A variable visible to expansion: global ARGs, or a stage's ARGs and ENVs. */
struct var {
    const char *name, *value; /* value NULL: declared, value unknown */
    size_t len;               /* strlen(name): a look-up compares lengths first */
    struct var *next;
};

struct scope {
    struct var *vars;     /* ARGs and ENVs, newest first */
    struct var *env;      /* ENVs only: what a stage built FROM this one inherits */
    const char *workdir;  /* the WORKDIR in effect (absolute), NULL when unknown */
    size_t *budget;       /* the builder's expansion budget */
};

/* Bytes of variable values that expansion may substitute in one Dockerfile, beyond its
 * own length: the limit expansion-size. ARGs that refer to each other several times grow
 * exponentially (eight of `ARG A1="${A0} ${A0} ..."` make 100 MB); once it is spent, a
 * value is unknown (opaque: never judged), not an error. */
#define DF_EXPAND_BUDGET ((size_t)gl_limit(GL_LIMIT_EXPANSION_SIZE))

#define FEW_NAMES 64

struct few_name {
    const char *name;
    size_t len;
    int stage;
};

struct builder {
    struct gl_doc *doc;
    const struct gl_config *cfg;
    struct gl_dockerfile_model *m;
    const struct df_file *f;
    struct scope meta;      /* global ARGs (before the first FROM) */
    struct scope *scopes;   /* one per stage */
    size_t nscopes, capscopes;
    size_t budget;          /* DF_EXPAND_BUDGET and the file's length, as it is spent */
    /* Stage names (lowercased), the first stage of a name keeping it: the first FEW_NAMES
     * in `few`, scanned (most files name one or two: no hashing, no table; a scan of a
     * few dozen, length first, costs less than the map's hashing and growth); past them
     * all in the map stage_names (name -> 1 + stage), which is empty until then. */
    struct few_name *few;   /* FEW_NAMES of them (build_model's room: not cleared) */
    size_t nfew;
    struct gl_map stage_names;
    size_t stats;           /* context files sized so far (COPY_STATS_MAX) */
    size_t dir_len;         /* the doc path's directory with its '/' (0: none), or SIZE_MAX
                               before context_size first needs it */
    struct gl_buf scratch;  /* expansion's result buffer, reused from word to word */
    /* `COPY --from=STAGE` of a Python environment (env_path), in file order: after the
     * final stage is chosen, the stages whose environment ships (gl_stage.env_shipped) */
    struct env_copy { int into, from; } *env_copies;
    size_t nenv_copies, capenv_copies;
};

static struct var *var_find(struct var *v, const char *name, size_t len)
{
    for (; v; v = v->next)
        if (v->len == len && memcmp(v->name, name, len) == 0)
            return v;
    return NULL;
}

/* The value of a variable found in scope s, charged to the expansion budget; NULL when
 * it is unknown or the budget is spent. */
static const char *charged_value(struct scope *s, const struct var *v)
{
    if (!v || !v->value)
        return NULL;
    size_t n = strnlen(v->value, *s->budget + 1);
    if (n > *s->budget) {
        *s->budget = 0;
        return NULL;
    }
    *s->budget -= n;
    return v->value;
}

static const char *scope_lookup(void *ctx, const char *name, size_t len)
{
    struct scope *s = ctx;
    return charged_value(s, var_find(s->vars, name, len));
}

/* For RUN lines: a declared variable of unknown value is opaque, not unset. */
static const char *run_lookup(void *ctx, const char *name, size_t len)
{
    struct scope *s = ctx;
    struct var *v = var_find(s->vars, name, len);
    const char *value = charged_value(s, v);
    return !v ? NULL : value ? value : sh_value_opaque;
}

/* A variable `name` (len bytes: its strlen, which the caller knows; a doc's text holds no
 * NUL, the engine refuses one before any parse) on top of list. */
static struct var *var_push(struct gl_arena *a, struct var *list, const char *name, size_t len,
                            const char *value)
{
    struct var *v = gl_arena_take(a, sizeof *v); /* written whole */
    *v = (struct var){name, value, len, list};
    return v;
}

static const struct gl_kv *build_arg(const struct gl_config *cfg, const char *name)
{
    for (size_t i = cfg->nbuild_args; i-- > 0;)
        if (!strcmp(cfg->build_args[i].key, name))
            return &cfg->build_args[i];
    return NULL;
}

/* Expand a word through a scope. Returns the text (best effort when *unresolved). */
static const char *expand(struct builder *b, struct scope *s, const char *word, size_t len,
                          bool *unresolved)
{
    const char *out;
    size_t out_len;
    struct df_error err;
    *unresolved = false;
    if (df_expand_literal(&b->doc->arena, word, len, b->f->escape))
        return word; /* (df_expand_text's first case, without the call: most words) */
    if (!df_expand_text(&b->doc->arena, word, len, b->f->escape, scope_lookup, s, &b->scratch,
                        &out, &out_len, unresolved, &err)) {
        *unresolved = true;
        return gl_arena_strndup(&b->doc->arena, word, len);
    }
    return out;
}

/* A default that only says "give me a value" (`ARG CUDA_VER=notset`, as rapidsai/docker
 * writes every ARG its bake file sets): the build always passes the real value, so the
 * default is a placeholder and the value unknown (RULES.md, "Opaque values"). */
static bool sentinel_default(const char *v)
{
    static const char *const words[] = {"notset", "not-set", "not_set", "unset",
                                        "undefined", "changeme", "change-me"};
    /* (each word starts with "no", "un" or "ch", in any case; most values with none) */
    char c = (char)(v[0] | 0x20), c2 = v[0] ? (char)(v[1] | 0x20) : 0;
    if (!(c == 'n' && c2 == 'o') && !(c == 'u' && c2 == 'n') && !(c == 'c' && c2 == 'h'))
        return false;
    for (size_t i = 0; i < sizeof words / sizeof *words; i++)
        if (!strcasecmp(v, words[i]))
            return true;
    return false;
}

/* `ARG a=1 b`: a --build-arg wins, then the default, then (in a stage) the value of the
 * global ARG of the same name. Unknown values stay NULL. */
/* Record a stage ARG in the model's build variables (the value as resolved; its position
 * is the default's, or the name's when the value came from elsewhere). */
static void record_arg(struct builder *b, int stage, int instr, const struct df_arg *a,
                       size_t nlen, const char *name, const char *value, bool from_default)
{
    struct gl_dockerfile_model *m = b->m;
    /* (not cleared: each of its fields is written here; so for env and copies below) */
    struct gl_build_var *v = DF_APPEND(&b->doc->arena, m->vars, m->nvars, m->capvars);
    v->name = name;
    v->value = value;
    v->loc = a->loc;
    v->value_loc = from_default ? gl_srcmap_loc(&a->map, nlen + 1) : a->loc;
    v->stage = stage;
    v->instr = instr;
    v->arg = true;
}

static void declare_args(struct builder *b, struct scope *s, const struct df_instr *in,
                         bool global, int stage, int instr)
{
    for (size_t i = 0; i < in->nargs; i++) {
        const char *w = in->args[i].value;
        const char *eq = memchr(w, '=', in->args[i].len);
        size_t nlen = eq ? (size_t)(eq - w) : in->args[i].len;
        /* the name: the word itself when it has no '=' (NUL-terminated there: no copy,
         * charged as one), else its part before the '=' */
        const char *name = eq ? gl_arena_strndup(&b->doc->arena, w, nlen) : w;
        if (!eq)
            gl_arena_charge(&b->doc->arena, nlen + 1);
        const char *value = NULL;
        const struct gl_kv *ba = build_arg(b->cfg, name);
        bool unresolved = false;
        if (ba && ba->value) {
            value = ba->value;
        } else if (eq) {
            value = expand(b, s, eq + 1, in->args[i].len - nlen - 1, &unresolved);
            if (unresolved || sentinel_default(value))
                value = NULL;
        } else if (!global) {
            struct var *g = var_find(b->meta.vars, name, nlen);
            value = g ? g->value : NULL;
        }
        s->vars = var_push(&b->doc->arena, s->vars, name, nlen, value);
        if (!global)
            record_arg(b, stage, instr, &in->args[i], nlen, name, value,
                       eq && !(ba && ba->value));
    }
}

static void declare_env(struct builder *b, struct scope *s, int stage, const struct df_instr *in)
{
    for (size_t i = 0; i < in->nkvs; i++) {
        const struct df_arg *k = &in->args[in->kvs[i].key], *v = &in->args[in->kvs[i].value];
        bool unresolved;
        const char *value = expand(b, s, v->value, v->len, &unresolved);
        const char *key = k->value; /* NUL-terminated at k->len: no copy (charged as one) */
        gl_arena_charge(&b->doc->arena, k->len + 1);
        struct gl_env *e = DF_APPEND(&b->doc->arena, b->doc->env, b->doc->nenv, b->doc->capenv);
        e->key = key;
        e->value = unresolved ? NULL : value;
        e->key_loc = k->loc;
        e->value_loc = v->loc;
        e->origin = GL_ENV_DOCKERFILE;
        e->stage = stage;
        e->launch = -1;
        s->vars = var_push(&b->doc->arena, s->vars, key, k->len, e->value);
        s->env = var_push(&b->doc->arena, s->env, key, k->len, e->value);
    }
}

/* The stage a name refers to (`FROM build`, `COPY --from=build`, `--from=0`), or -1. */
/* Does name[0, len) lowercased equal `lower` (a lowercased name of that length)? */
static bool same_lowered(const char *lower, const char *name, size_t len)
{
    for (size_t i = 0; i < len; i++)
        if (lower[i] != (char)tolower((unsigned char)name[i]))
            return false;
    return true;
}

static int stage_named(const struct builder *b, const char *name, bool allow_index)
{
    size_t len = strlen(name);
    if (b->stage_names.n) { /* (more names than `few` holds) */
        char small[256], *lower = len < sizeof small ? small : xmalloc(len + 1);
        for (size_t i = 0; i <= len; i++)
            lower[i] = (char)tolower((unsigned char)name[i]);
        uintptr_t found = (uintptr_t)gl_map_get(&b->stage_names, lower, len);
        if (lower != small)
            free(lower);
        if (found)
            return (int)(found - 1);
    } else {
        for (size_t i = 0; i < b->nfew; i++)
            if (b->few[i].len == len && same_lowered(b->few[i].name, name, len))
                return b->few[i].stage;
    }
    size_t digits = 0; /* (strspn of the digits: all of the name's bytes?) */
    while (allow_index && digits < len && name[digits] >= '0' && name[digits] <= '9')
        digits++;
    if (allow_index && len && digits == len) {
        long n = strtol(name, NULL, 10);
        if (n >= 0 && (size_t)n < b->m->nstages)
            return (int)n;
    }
    return -1;
}

static void map_name(struct builder *b, const char *name, int stage)
{
    *gl_map_puts(&b->stage_names, name, NULL) = (void *)(uintptr_t)(stage + 1);
}

/* Stage `stage` is named `name` (lowercased): it takes the name, from an earlier stage
 * too (BuildKit's dispatchStates.addState: a name given twice is the later stage's, for
 * the FROM and COPY --from that follow; its linter only warns, DuplicateStageName). */
static void add_stage_name(struct builder *b, const char *name, int stage)
{
    if (b->stage_names.n) {
        map_name(b, name, stage);
        return;
    }
    size_t len = strlen(name);
    for (size_t i = 0; i < b->nfew; i++)
        if (b->few[i].len == len && !memcmp(b->few[i].name, name, len)) {
            b->few[i].stage = stage;
            return;
        }
    if (b->nfew < FEW_NAMES) {
        b->few[b->nfew++] = (struct few_name){name, len, stage};
        return;
    }
    for (size_t i = 0; i < b->nfew; i++) /* (distinct names, in the order they came) */
        map_name(b, b->few[i].name, b->few[i].stage);
    map_name(b, name, stage);
}

static void lowercase(char *s)
{
    for (; *s; s++)
        *s = (char)tolower((unsigned char)*s);
}

/* The global ARG whose default a FROM word w[0, n) ends in the expansion of (`${NAME}`,
 * `$NAME`, before a closing quote): its name, when it has a value from its default (no
 * --build-arg gave it one); else NULL (gl_ref.arg). */
static const char *default_arg(struct builder *b, const char *w, size_t n)
{
    if (n && (w[n - 1] == '"' || w[n - 1] == '\''))
        n--;
    bool braced = n && w[n - 1] == '}';
    size_t end = n - braced, from = end;
    while (from > 0 && gl_name_class[(unsigned char)w[from - 1]])
        from--;
    while (from < end && gl_name_class[(unsigned char)w[from]] != 1)
        from++; /* (a name starts with a letter or '_') */
    if (from == end || from < 1u + braced || (braced && w[from - 1] != '{') ||
        w[from - 1 - braced] != '$')
        return NULL;
    const struct var *v = var_find(b->meta.vars, w + from, end - from);
    const struct gl_kv *ba = v ? build_arg(b->cfg, v->name) : NULL;
    return v && v->value && !(ba && ba->value) ? v->name : NULL;
}

/* Does word w[0, n) name a variable of scope s whose value is empty (`ARG TAG=`, a value
 * the build always passes: the reference is not judged on it)? */
static bool empty_var_used(struct scope *s, const char *w, size_t n)
{
    for (const char *d = memchr(w, '$', n); d; d = memchr(d + 1, '$', n - (size_t)(d + 1 - w))) {
        const char *name = d + 1 + (d + 1 < w + n && d[1] == '{');
        size_t len = 0;
        while (name + len < w + n && (isalnum((unsigned char)name[len]) || name[len] == '_'))
            len++;
        struct var *v = len ? var_find(s->vars, name, len) : NULL;
        if (v && v->value && !v->value[0])
            return true;
        if (d + 1 >= w + n)
            break;
    }
    return false;
}

static void begin_stage(struct builder *b, const struct df_instr *in)
{
    int idx = (int)b->m->nstages;
    struct gl_stage *st = GL_APPEND(&b->doc->arena, b->m->stages, b->m->nstages, b->m->capstages);
    st->index = idx;
    st->base_stage = -1;
    st->first_line = st->last_line = in->start_line;
    if (in->nargs >= 3 && in->args[1].len == 2 && gl_streq_nocase(in->args[1].value, "as")) {
        char *name = gl_arena_strndup(&b->doc->arena, in->args[2].value, in->args[2].len);
        lowercase(name);
        st->name = name;
        st->name_loc = in->args[2].loc;
    }
    /* (not cleared: its four fields are written below, workdir in each case) */
    struct scope *s = DF_APPEND(&b->doc->arena, b->scopes, b->nscopes, b->capscopes);
    s->vars = s->env = NULL;
    s->budget = &b->budget;

    if (df_from_shape(b->doc, in) && in->nflags)
        df_from_flags(b->doc, in);
    bool unresolved = true;
    const char *text = "";
    struct gl_loc loc = in->loc;
    if (in->nargs >= 1) {
        text = expand(b, &b->meta, in->args[0].value, in->args[0].len, &unresolved);
        loc = in->args[0].loc;
    }
    /* the name of this stage is not yet visible to its own FROM */
    int base = unresolved ? -1 : stage_named(b, text, false);
    if (st->name)
        add_stage_name(b, st->name, idx);
    st->ref = b->doc->nrefs;
    struct gl_ref *r;
    if (base >= 0) {
        r = gl_ref_add(b->doc, text, loc, GL_REF_FROM, true);
        r->unresolved = false;
        r->stage = true;
        st->base_stage = base;
        s->workdir = b->scopes[base].workdir;
        /* ENV is inherited through FROM <stage> */
        for (struct var *v = b->scopes[base].env; v; v = v->next) {
            s->vars = var_push(&b->doc->arena, s->vars, v->name, v->len, v->value);
            s->env = var_push(&b->doc->arena, s->env, v->name, v->len, v->value);
        }
    } else if (!unresolved && (text[0] == 's' || text[0] == 'S') &&
               gl_streq_nocase(text, "scratch")) { /* (the first byte first: no call) */
        r = gl_ref_add(b->doc, text, loc, GL_REF_FROM, true);
        r->unresolved = false;
        r->scratch = true;
        s->workdir = "/";
    } else {
        r = gl_ref_add(b->doc, text, loc, GL_REF_FROM, unresolved);
        if (!unresolved && !r->ok && !empty_var_used(&b->meta, in->args[0].value,
                                                     in->args[0].len))
            df_from_reference(b->doc, in, text);
        s->workdir = ""; /* the base image's: unknown, but the same for what follows */
    }
    r->df_stage = idx;
    if (base < 0 && !unresolved && in->nargs >= 1)
        r->arg = default_arg(b, in->args[0].value, in->args[0].len);
    for (size_t i = 0; i < in->nflags; i++)
        if (gl_has_prefix(in->flags[i].text, "--platform="))
            r->platform = in->flags[i].text + strlen("--platform=");
}

static const char *flag_value(const struct df_instr *in, const char *name, size_t *which)
{
    size_t n = strlen(name);
    for (size_t i = 0; i < in->nflags; i++)
        if (in->flags[i].len > n + 3 && !memcmp(in->flags[i].text, "--", 2) &&
            !memcmp(in->flags[i].text + 2, name, n) && in->flags[i].text[n + 2] == '=') {
            *which = i;
            return in->flags[i].text + n + 3;
        }
    return NULL;
}

static bool is_url(const char *s)
{
    if (s[0] != 'h' && s[0] != 'g') /* (most paths: no prefix to test) */
        return false;
    return gl_has_prefix(s, "http://") || gl_has_prefix(s, "https://") ||
           gl_has_prefix(s, "git@") || gl_has_prefix(s, "git://");
}

#define COPY_STATS_MAX 256 /* context files sized for one Dockerfile */

/* What the model knows of a COPY source `path`'s size: -1 when it cannot be a regular file
 * of the build context (the Dockerfile's directory): no doc path, outside it, a pattern,
 * the budget of stats spent, or a directory by its spelling ("." or a path ending in '/'
 * or "/.", which lstat follows); else GL_COPY_SIZE_ASK: asked of the file system only if
 * a rule wants it (gl_df_copy_size; most never do). The path it would join is charged to
 * the arena as when it was joined here, so the limit parse-memory trips where it did. */
static int64_t context_size(struct builder *b, const char *path)
{
    const char *doc_path = b->doc->path;
    if (!doc_path || !strcmp(doc_path, "-") || b->stats >= COPY_STATS_MAX || path[0] == '/' ||
        strstr(path, "..") || strpbrk(path, "*?[$"))
        return -1;
    b->stats++;
    if (b->dir_len == SIZE_MAX) { /* (the same for each COPY source of the doc) */
        const char *slash = strrchr(doc_path, '/');
        b->dir_len = slash ? (size_t)(slash - doc_path) + 1 : 0;
    }
    size_t n = strlen(path);
    gl_arena_charge(&b->doc->arena, b->dir_len + n + 1);
    if (!n || path[n - 1] == '/' || (path[n - 1] == '.' && (n == 1 || path[n - 2] == '/')))
        return -1;
    return GL_COPY_SIZE_ASK;
}

/* Is a COPY source a Python environment or a part of one: a conda install (/opt/conda,
 * miniconda3, miniforge, micromamba; not conda-build's conda-bld output), a virtual
 * environment (/opt/venv, .venv), site-packages or dist-packages, a lib/pythonX.Y tree, or
 * the user's ~/.local? */
static bool env_path(const char *p)
{
    static const char *const parts[] = {"conda", "venv", "site-packages", "dist-packages",
                                        "/lib/python", ".local", "miniforge", "mambaforge",
                                        "micromamba", NULL};
    if (strstr(p, "conda-bld"))
        return false; /* conda-build's output channel: packages built, not installed */
    for (size_t k = 0; parts[k]; k++)
        if (strstr(p, parts[k]))
            return true;
    return false;
}

/* COPY --from=stage `from`: when a source is a Python environment, remember it. */
static void copy_from_stage(struct builder *b, struct scope *s, int stage, int from,
                            const struct df_instr *in)
{
    for (size_t i = 0; i + 1 < in->nargs; i++) {
        bool unresolved;
        const char *path = expand(b, s, in->args[i].value, in->args[i].len, &unresolved);
        if (env_path(path)) {
            *DF_APPEND(&b->doc->arena, b->env_copies, b->nenv_copies, b->capenv_copies) =
                (struct env_copy){stage, from};
            return;
        }
    }
}

static void copy_or_add(struct builder *b, struct scope *s, int stage, int instr,
                        const struct df_instr *in)
{
    size_t fi;
    const char *from = flag_value(in, "from", &fi);
    if (from) {
        bool unresolved;
        const char *text = expand(b, s, from, strlen(from), &unresolved);
        int from_stage = unresolved ? -1 : stage_named(b, text, true);
        if (from_stage >= 0 && from_stage < stage)
            copy_from_stage(b, s, stage, from_stage, in);
        if (unresolved || from_stage >= 0)
            return;
        struct gl_loc loc = gl_srcmap_loc(&in->flags[fi].map, strlen("--from="));
        struct gl_ref *r = gl_ref_add(b->doc, text, loc, GL_REF_COPY_FROM, false);
        r->df_stage = stage;
        return; /* sources are in that image, not in the build context */
    }
    if (in->nargs < 2)
        return;
    bool dest_unresolved;
    const struct df_arg *last = &in->args[in->nargs - 1];
    const char *dest = expand(b, s, last->value, last->len, &dest_unresolved);
    if (dest_unresolved)
        dest = NULL;
    for (size_t i = 0; i + 1 < in->nargs; i++) {
        const struct df_arg *a = &in->args[i];
        if (a->len >= 2 && a->value[0] == '<' && a->value[1] == '<')
            continue; /* a heredoc is written inline, not copied from the context */
        bool unresolved;
        const char *path = expand(b, s, a->value, a->len, &unresolved);
        struct gl_copy_src *c =
            DF_APPEND(&b->doc->arena, b->m->copies, b->m->ncopies, b->m->capcopies);
        c->path = path;
        c->loc = a->loc;
        c->stage = stage;
        c->instr = instr;
        c->add = in->kw == DF_KW_ADD;
        c->url = is_url(path);
        c->dest = dest;
        c->workdir = s->workdir;
        c->size = unresolved || c->url ? -1 : context_size(b, path);
    }
}

/* `RUN --mount=type=bind,source=S,target=T`: S (a file of the build context) is at T for
 * this RUN (model_dockerfile.h `binds`). Not for another type, a `from=` (another stage
 * or image), a spec with a variable, or one BuildKit cannot read as CSV. The spec is read
 * as BuildKit reads it (mount_spec.h: quoting, aliases; the last of a key counts). */
static void run_binds(struct builder *b, struct scope *s, int stage, int instr,
                      const struct df_instr *in)
{
    struct gl_arena *a = &b->doc->arena;
    static const size_t skip = sizeof "--mount=" - 1;
    for (size_t i = 0; i < in->nflags; i++) {
        const char *flag = in->flags[i].text;
        if (!gl_has_prefix(flag, "--mount=") || strchr(flag, '$'))
            continue;
        struct gl_csv_reader r;
        struct gl_mspec_field f, src = {0}, dst = {0};
        gl_csv_reader_init(&r, flag + skip, in->flags[i].len - skip);
        bool bind = true; /* (type=bind is the default) */
        while (bind && gl_mount_spec_next(a, &r, &f)) {
            if (f.bare)
                continue;
            if (f.key == GL_MSPEC_TYPE)
                bind = gl_mount_spec_type(f.value, f.value_len) == GL_MOUNT_BIND;
            else if (f.key == GL_MSPEC_FROM)
                bind = false;
            else if (f.key == GL_MSPEC_SOURCE)
                src = f;
            else if (f.key == GL_MSPEC_TARGET)
                dst = f;
        }
        if (!bind || r.error || !src.value_len || !dst.value_len)
            continue;
        struct gl_copy_src *c = GL_APPEND(a, b->m->binds, b->m->nbinds, b->m->capbinds);
        *c = (struct gl_copy_src){.path = gl_arena_strndup(a, src.value, src.value_len),
                                  .loc = in->flags[i].loc, .stage = stage, .instr = instr,
                                  .dest = gl_arena_strndup(a, dst.value, dst.value_len),
                                  .workdir = s->workdir, .size = -1};
    }
}

/* `WORKDIR dir`: absolute, or relative to the one in effect ("" is the base image's
 * WORKDIR: a relative path stays relative to it); unknown (NULL) after an unresolved
 * variable. */
/* A relative WORKDIR `dir` after the directory `base`, a `/` between unless base is empty
 * or ends with one. */
static char *join_dir(struct gl_arena *a, const char *base, const char *dir)
{
    size_t n = strlen(base);
    bool sep = n && base[n - 1] != '/';
    return gl_arena_cat3(a, base, n, "/", sep, dir, strlen(dir));
}

static void workdir(struct builder *b, struct scope *s, const struct df_instr *in)
{
    if (in->nargs != 1)
        return;
    bool unresolved;
    const char *dir = expand(b, s, in->args[0].value, in->args[0].len, &unresolved);
    if (unresolved || !*dir)
        s->workdir = NULL;
    else if (dir[0] == '/')
        s->workdir = dir;
    else
        s->workdir = s->workdir ? join_dir(&b->doc->arena, s->workdir, dir) : NULL;
}

/* A pragma covers the instruction that follows it (all of its lines). */
static void collect_pragmas(struct builder *b)
{
    const struct df_file *f = b->f;
    size_t next = 0;
    for (size_t i = 0; i < f->ncomments; i++) {
        const struct df_comment *c = &f->comments[i];
        /* a pragma's first word, after blanks, is "gpulint" (gl_pragma_parse asks no more
         * of the others): most comments are not one, no call. (`next` only moves forward
         * with the comments' lines: skipping some leaves it where the next needs it.) */
        size_t k = 0;
        while (k < c->len && (c->text[k] == ' ' || c->text[k] == '\t'))
            k++;
        if (c->len - k < 7 || c->text[k] != 'g')
            continue;
        while (next < f->ninstrs && f->instrs[next].start_line <= c->loc.line)
            next++;
        uint32_t first = c->loc.line + 1, last = c->loc.line + 1;
        if (next < f->ninstrs) {
            first = f->instrs[next].start_line;
            last = f->instrs[next].end_line;
        }
        gl_pragma_parse(b->doc, c->text, c->len, (struct gl_loc){c->loc.line, c->loc.col + 1},
                        first, last);
    }
}

static void choose_final(struct builder *b)
{
    struct gl_dockerfile_model *m = b->m;
    m->final_stage = m->nstages ? (int)m->nstages - 1 : -1;
    if (b->cfg->target) {
        int t = stage_named(b, b->cfg->target, false);
        if (t >= 0)
            m->final_stage = t;
        else
            gl_eprintf("%s: --target %s: no such stage; the last stage is "
                       "taken as the final one", b->doc->path, b->cfg->target);
    }
    for (int s = m->final_stage; s >= 0; s = m->stages[s].base_stage) {
        if (m->stages[s].shipped)
            break; /* a cycle cannot happen (bases are earlier stages), but be safe */
        m->stages[s].shipped = true;
    }
    if (m->final_stage >= 0)
        m->stages[m->final_stage].final = true;
    /* (a copy's source is an earlier stage: from the last copy back, a stage is marked
       before the copies out of it are looked at) */
    for (size_t k = b->nenv_copies; k-- > 0;) {
        const struct env_copy *e = &b->env_copies[k];
        if (!m->stages[e->into].shipped && !m->stages[e->into].env_shipped)
            continue;
        for (int st = e->from; st >= 0 && !m->stages[st].env_shipped;
             st = m->stages[st].base_stage)
            m->stages[st].env_shipped = true;
    }
}

/* The first instruction BuildKit does not know (`SUDO`, a stray shell line), or NULL:
 * `docker build` stops there with "unknown instruction". */
static const struct df_instr *unknown_instruction(const struct df_file *f)
{
    for (size_t i = 0; i < f->ninstrs; i++)
        if (f->instrs[i].kw == DF_KW_UNKNOWN)
            return &f->instrs[i];
    return NULL;
}

/* A file Dockerfile syntax rejects whose `# syntax=` directive names another frontend
 * (dalec's YAML spec, ...) is written in that frontend's language: not a Dockerfile that
 * fails, but an input gpulint does not read (a walk passes it by, a named one is GL901).
 * True (with doc->error set so) when that is the case. */
static bool other_frontend(struct gl_doc *doc)
{
    size_t vs, ve;
    if (!df_syntax_directive(doc->text, doc->len, &vs, &ve) ||
        !df_foreign_frontend(doc->text + vs, ve - vs))
        return false;
    doc->error.set = true;
    doc->error.not_kind = true;
    doc->error.loc = gl_text_loc(doc->text, doc->len, vs);
    doc->error.message = gl_arena_printf(&doc->arena,
                                         "its `# syntax=` directive names the frontend `%.*s`, "
                                         "whose language is not Dockerfile syntax",
                                         (int)(ve - vs), doc->text + vs);
    doc->error.fix = "gpulint reads Dockerfile syntax only (the docker/dockerfile frontends); "
                     "lint what that frontend builds, or pass the file by";
    return true;
}

static void build_model(struct gl_doc *doc, const struct gl_config *cfg,
                        const struct df_file *f);

/* The most of a template directive's line GL903 shows. */
#define DF_TEMPLATE_SHOWN 60

/* A template directive where an instruction should stand (`{% if cookiecutter.gpu %}`,
 * `{{- include "base" }}`, `{# note #}`: Jinja, cookiecutter, Go templates) makes the file
 * a template that another tool renders into a Dockerfile, not a Dockerfile that fails
 * (RULES.md, "Templates are not parse errors"): recorded as doc->tmpl for GL903, nothing
 * of it linted. True when that is the case. (A file whose name is a template's,
 * `Dockerfile.j2`, reaches the Dockerfile reader only when its content says so.) */
static bool template_file(struct gl_doc *doc, const struct df_instr *in)
{
    const char *k = in->keyword;
    if (k[0] != '{' || (k[1] != '%' && k[1] != '{' && k[1] != '#'))
        return false;
    size_t at = gl_lines_offset(&doc->lines, in->loc);
    size_t end = gl_lines_line_end(&doc->lines, in->loc);
    if (at == SIZE_MAX || end == SIZE_MAX)
        return false;
    while (end > at && (doc->text[end - 1] == '\n' || doc->text[end - 1] == '\r'))
        end--;
    size_t shown = end - at > DF_TEMPLATE_SHOWN ? DF_TEMPLATE_SHOWN : end - at;
    doc->tmpl.kind = GL_TEMPLATE_FILE;
    doc->tmpl.loc = in->loc;
    doc->tmpl.expr = gl_arena_printf(&doc->arena, "%.*s%s", (int)shown, doc->text + at,
                                     shown < end - at ? "..." : "");
    return true;
}

/* ENTRYPOINT: the program it runs (the first JSON string, else the shell form's first
 * word), as written; an empty one clears the stage's. */
static void entrypoint(struct builder *b, int stage, const struct df_instr *in)
{
    const char *v = in->nargs ? in->args[0].value : "";
    size_t n = in->nargs ? in->args[0].len : 0;
    if (!in->json) {
        while (n && df_is_byte_space((unsigned char)*v))
            v++, n--;
        size_t w = 0;
        while (w < n && !df_is_byte_space((unsigned char)v[w]))
            w++;
        n = w;
    }
    b->m->stages[stage].entrypoint = n ? gl_arena_strndup(&b->doc->arena, v, n) : NULL;
}

void gl_parse_dockerfile_doc(struct gl_doc *doc, const struct gl_config *cfg)
{
    struct df_error err;
    uint32_t *starts, room[512]; /* (most files have fewer lines: no heap array) */
    size_t nstarts;
    const struct df_file *f = df_parse_lines(&doc->arena, doc->text, doc->len,
                                             DF_PARSE_STOP_AT_UNKNOWN, &err,
                                             &starts, &nstarts, room, 512);
    if (!f) {
        doc->error.set = true;
        doc->error.loc = err.loc;
        doc->error.message = gl_arena_strdup(&doc->arena, err.message);
        other_frontend(doc);
        return;
    }
    /* the parser's line starts serve the doc's line index (image references' positions)
     * while they live: built from them on its first use, else from the text later */
    if (doc->lines.text != doc->text)
        gl_lines_init(&doc->lines, &doc->arena, doc->text, doc->len);
    gl_lines_known32(&doc->lines, starts, nstarts);
    build_model(doc, cfg, f);
    gl_lines_unknown(&doc->lines);
    if (starts != room)
        free(starts);
}

static void build_model(struct gl_doc *doc, const struct gl_config *cfg,
                        const struct df_file *f)
{
    const struct df_instr *unknown = unknown_instruction(f);
    if (unknown && (other_frontend(doc) || template_file(doc, unknown)))
        return;
    if (unknown) {
        char *word = gl_arena_strdup(&doc->arena, unknown->keyword);
        for (char *p = word; *p; p++)
            if (*p >= 'a' && *p <= 'z')
                *p = (char)(*p - 'a' + 'A');
        doc->error.set = true;
        doc->error.other_kind = unknown == &f->instrs[0];
        doc->error.loc = unknown->loc;
        doc->error.message = gl_arena_printf(&doc->arena, "unknown instruction: %s (docker "
                                             "build stops here; expected FROM, RUN, COPY, "
                                             "ENV, ARG, ...)", word);
        return;
    }
    struct few_name few[FEW_NAMES];
    struct builder b = {.doc = doc, .cfg = cfg, .f = f, .budget = doc->len + DF_EXPAND_BUDGET,
                        .few = few, .dir_len = SIZE_MAX};
    b.meta.budget = &b.budget;
    gl_map_init(&b.stage_names);
    gl_buf_init(&b.scratch);
    b.m = doc->df = gl_arena_alloc(&doc->arena, sizeof *doc->df);
    b.m->final_stage = -1;
    collect_pragmas(&b);

    for (size_t i = 0; i < f->ninstrs; i++) {
        const struct df_instr *in = &f->instrs[i];
        if (gl_arena_over(&doc->arena)) { /* the limit parse-memory: stop at this one */
            gl_doc_fail_limit(doc, GL_LIMIT_PARSE_MEMORY, in->loc);
            break;
        }
        if (in->kw == DF_KW_FROM) {
            begin_stage(&b, in);
            continue;
        }
        if (!b.m->nstages) {
            if (in->kw == DF_KW_ARG)
                declare_args(&b, &b.meta, in, true, -1, (int)i);
            continue;
        }
        int stage = (int)b.m->nstages - 1;
        struct scope *s = &b.scopes[stage];
        b.m->stages[stage].last_line = in->end_line;
        if (in->kw == DF_KW_ARG)
            declare_args(&b, s, in, false, stage, (int)i);
        else if (in->kw == DF_KW_ENV)
            declare_env(&b, s, stage, in);
        else if (in->kw == DF_KW_COPY || in->kw == DF_KW_ADD)
            copy_or_add(&b, s, stage, (int)i, in);
        else if (in->kw == DF_KW_WORKDIR)
            workdir(&b, s, in);
        else if (in->kw == DF_KW_ENTRYPOINT)
            entrypoint(&b, stage, in);
        else if (in->kw == DF_KW_RUN) {
            size_t first = b.m->npkgs, first_removal = b.m->nremovals;
            run_binds(&b, s, stage, (int)i, in);
            gl_dockerfile_run(doc, stage, (int)i, in, f->escape, run_lookup, s);
            for (size_t k = first; k < b.m->npkgs; k++)
                b.m->pkgs[k].workdir = s->workdir;
            for (size_t k = first_removal; k < b.m->nremovals; k++)
                b.m->removals[k].workdir = s->workdir;
        }
    }
    choose_final(&b);
    gl_map_free(&b.stage_names);
    gl_buf_free(&b.scratch);
}
