/* SPDX-License-Identifier: Apache-2.0 */
/* bake_targets.c: the builds of a bake file's targets (see bake_targets.h). */
#include "parsers/bake/bake_targets.h"

#include <string.h>

#include "parsers/bake/bake_scan.h"

#define INHERIT_DEPTH_MAX 8
#define RESOLVE_STEPS_MAX 256 /* targets visited to resolve one (inherits may branch) */
#define TARGET_LIST_MAX 64     /* inherits of one target (more: opaque) */
#define TARGET_ARGS_MAX 256    /* args of one target (more are not counted: not set) */
/* Args that the targets of one resolve set in all, and the names one build may set: past
 * them the build is opaque. Each setting looks for its name among the build's (a template
 * with 256 args inherited by hundreds of targets through 64 others each was 10^10 name
 * comparisons: minutes for a 1 MB file); a real build sets a few dozen. */
#define BUILD_SETTINGS_MAX 1024
#define BUILD_ARGS_MAX 256

struct target_arg {
    const char *name;
    bool null; /* `X = null`: not set */
};

struct target {
    const char *name;
    struct gl_loc loc;
    const char *context, *dockerfile; /* literal values; NULL when not given */
    bool opaque;                      /* a context, Dockerfile or inherits not literal */
    bool inherited;                   /* another target inherits it: a template */
    const char **inherits;
    size_t ninherits, capinherits;
    struct target_arg *args;
    size_t nargs, capargs;
};

struct walk {
    struct bake_scan c;
    struct target *t;
    size_t n, cap;
};

static bool at(const struct bake_scan *c, char ch)
{
    return c->i < c->n && c->s[c->i] == ch;
}

/* The target of this name, or NULL. */
static struct target *find(struct walk *w, const char *name)
{
    for (size_t i = 0; i < w->n; i++)
        if (!strcmp(w->t[i].name, name))
            return &w->t[i];
    return NULL;
}

/* The target of this name (a second block of one name adds to the first); NULL past
 * BAKE_TARGETS_MAX. */
static struct target *target_named(struct walk *w, const char *name, struct gl_loc loc)
{
    struct target *known = find(w, name);
    if (known)
        return known;
    if (w->n >= BAKE_TARGETS_MAX)
        return NULL;
    struct target *t = GL_APPEND(&w->c.doc->arena, w->t, w->n, w->cap);
    memset(t, 0, sizeof *t);
    t->name = name;
    t->loc = loc;
    return t;
}

/* A literal string value (NULL, and the value skipped, for anything else). */
static const char *literal(struct bake_scan *c)
{
    if (!at(c, '"')) {
        bake_skip_value(c);
        return NULL;
    }
    const char *pattern;
    struct gl_loc loc;
    const char *s = bake_string(c, &pattern, &loc);
    return pattern ? NULL : s;
}

static void inherits(struct walk *w, struct target *t)
{
    struct bake_scan *c = &w->c;
    if (!at(c, '[')) {
        t->opaque = true;
        bake_skip_value(c);
        return;
    }
    bake_step(c);
    for (bake_skip_space(c); c->i < c->n && !at(c, ']'); bake_skip_space(c)) {
        size_t before = c->i;
        const char *name = literal(c);
        if (name && t->ninherits < TARGET_LIST_MAX)
            *GL_APPEND(&c->doc->arena, t->inherits, t->ninherits, t->capinherits) = name;
        else
            t->opaque = true; /* (`[for ...]`, `"${x}"`: which is not known) */
        if (c->i == before)
            bake_step(c);
    }
    if (at(c, ']'))
        bake_step(c);
}

/* Is the value at c->i the word `null`? (consumed when it is) */
static bool null_word(struct bake_scan *c)
{
    if (c->n - c->i < 4 || memcmp(c->s + c->i, "null", 4))
        return false;
    char next = c->i + 4 < c->n ? c->s[c->i + 4] : ' ';
    if ((next >= 'a' && next <= 'z') || (next >= 'A' && next <= 'Z') || next == '_' ||
        (next >= '0' && next <= '9') || next == '.' || next == '-')
        return false;
    for (int k = 0; k < 4; k++)
        bake_step(c);
    return true;
}

/* Each `KEY = VALUE` / `"KEY": VALUE` member of an object or body, after its '{', through
 * its '}': member() reads (or skips) the value; what is not a member is skipped. */
typedef void member_fn(struct walk *w, const char *key, struct gl_loc loc, void *ctx);

static void members(struct walk *w, member_fn *member, void *ctx)
{
    struct bake_scan *c = &w->c;
    for (bake_skip_space(c); c->i < c->n && !at(c, '}'); bake_skip_space(c)) {
        size_t before = c->i;
        struct gl_loc loc;
        const char *k = bake_key(c, &loc);
        if (k && bake_assign(c))
            member(w, k, loc, ctx);
        else
            bake_skip_value(c); /* (a nested block, or what is not a member) */
        if (c->i == before)
            bake_step(c);
    }
    if (at(c, '}'))
        bake_step(c);
}

/* `args = { NAME = VALUE, ... }`: each name (`null`: not set). */
static void arg_member(struct walk *w, const char *name, struct gl_loc loc, void *ctx)
{
    (void)loc;
    struct target *t = ctx;
    bool null = null_word(&w->c);
    if (!null)
        bake_skip_value(&w->c);
    if (t->nargs < TARGET_ARGS_MAX)
        *GL_APPEND(&w->c.doc->arena, t->args, t->nargs, t->capargs) =
            (struct target_arg){name, null};
}

/* An attribute of a target's body (ctx: the target, NULL for a block skipped whole). */
static void attribute(struct walk *w, const char *k, struct gl_loc loc, void *ctx)
{
    (void)loc;
    struct bake_scan *c = &w->c;
    struct target *t = ctx;
    if (!t) {
        bake_skip_value(c);
    } else if (!strcmp(k, "context") || !strcmp(k, "dockerfile")) {
        const char *v = literal(c);
        t->opaque = t->opaque || !v;
        *(k[0] == 'c' ? &t->context : &t->dockerfile) = v;
    } else if (!strcmp(k, "dockerfile-inline")) {
        t->opaque = true;
        bake_skip_value(c);
    } else if (!strcmp(k, "inherits")) {
        inherits(w, t);
    } else if (!strcmp(k, "args") && at(c, '{')) {
        bake_step(c);
        members(w, arg_member, t);
    } else {
        bake_skip_value(c); /* (also `args = merge(...)`: names not known, none counted) */
    }
}

/* A JSON file's `"target": { "NAME": { ... }, ... }`: one target. */
static void json_target(struct walk *w, const char *name, struct gl_loc loc, void *ctx)
{
    (void)ctx;
    if (!at(&w->c, '{')) {
        bake_skip_value(&w->c);
        return;
    }
    bake_step(&w->c);
    members(w, attribute, target_named(w, name, loc));
}

/* A member of a JSON file's root object: its `"target"` object. */
static void json_member(struct walk *w, const char *k, struct gl_loc loc, void *ctx)
{
    (void)loc;
    if (strcmp(k, "target") || !at(&w->c, '{')) {
        bake_skip_value(&w->c);
        return;
    }
    bake_step(&w->c);
    members(w, json_target, ctx);
}

/* An HCL block's labels (strings or words) up to its '{': the first one; false when no
 * '{' follows (not a block). */
static bool block_head(struct bake_scan *c, const char **label)
{
    *label = NULL;
    for (;;) {
        while (at(c, ' ') || at(c, '\t'))
            bake_step(c);
        if (at(c, '{')) {
            bake_step(c);
            return true;
        }
        struct gl_loc loc;
        const char *l = c->i < c->n && c->s[c->i] != '\n' ? bake_key(c, &loc) : NULL;
        if (!l)
            return false;
        *label = *label ? *label : l;
    }
}

static void hcl(struct walk *w)
{
    struct bake_scan *c = &w->c;
    for (bake_skip_space(c); c->i < c->n; bake_skip_space(c)) {
        size_t before = c->i;
        struct gl_loc loc = {c->line, c->col};
        const char *k = at(c, '{') ? NULL : bake_key(c, &loc), *label;
        if (at(c, '{') && !k) {
            bake_step(c);
            members(w, json_member, NULL);
        } else if (k && bake_assign(c)) {
            bake_skip_value(c); /* (a top-level attribute) */
        } else if (k && block_head(c, &label)) {
            members(w, attribute,
                    !strcmp(k, "target") && label ? target_named(w, label, loc) : NULL);
        } else {
            bake_skip_value(c);
        }
        if (c->i == before)
            bake_step(c);
    }
}

/* What a target builds, after its inherits chain. */
struct build {
    const char *context, *dockerfile;
    bool opaque;
    const char **args;
    size_t nargs, cap;
    size_t steps, settings;
};

static void set_arg(struct gl_arena *a, struct build *b, const struct target_arg *x)
{
    size_t i = 0;
    while (i < b->nargs && strcmp(b->args[i], x->name))
        i++;
    if (x->null && i < b->nargs)
        b->args[i] = b->args[--b->nargs];
    else if (!x->null && i == b->nargs && b->nargs >= BUILD_ARGS_MAX)
        b->opaque = true;
    else if (!x->null && i == b->nargs)
        *GL_APPEND(a, b->args, b->nargs, b->cap) = x->name;
}

static void resolve(struct walk *w, const struct target *t, int depth, struct build *b)
{
    b->settings += t->nargs;
    if (depth > INHERIT_DEPTH_MAX || t->opaque || ++b->steps > RESOLVE_STEPS_MAX ||
        b->settings > BUILD_SETTINGS_MAX || b->opaque) {
        b->opaque = true;
        return;
    }
    for (size_t i = 0; i < t->ninherits; i++) {
        const struct target *p = find(w, t->inherits[i]);
        if (!p)
            b->opaque = true; /* (a target of another file: not known) */
        else
            resolve(w, p, depth + 1, b);
    }
    b->context = t->context ? t->context : b->context;
    b->dockerfile = t->dockerfile ? t->dockerfile : b->dockerfile;
    for (size_t i = 0; i < t->nargs; i++)
        set_arg(&w->c.doc->arena, b, &t->args[i]);
}

static bool local_context(const char *ctx)
{
    return !strstr(ctx, "://") && !gl_has_prefix(ctx, "target:") && !gl_has_prefix(ctx, "git@");
}

void gl_bake_builds(struct gl_doc *doc)
{
    struct walk w = {{doc, doc->text, doc->len, 0, 1, 1}, NULL, 0, 0};
    hcl(&w);
    for (size_t i = 0; i < w.n; i++)
        for (size_t k = 0; k < w.t[i].ninherits; k++) {
            struct target *p = find(&w, w.t[i].inherits[k]);
            if (p && p != &w.t[i])
                p->inherited = true;
        }
    for (size_t i = 0; i < w.n; i++) {
        struct build b = {0};
        if (w.t[i].inherited)
            continue;
        resolve(&w, &w.t[i], 0, &b);
        const char *ctx = b.context ? b.context : ".";
        const char *df = b.dockerfile ? b.dockerfile : "Dockerfile";
        if (b.opaque || !local_context(ctx))
            continue;
        const char *path = df[0] == '/' ? df : gl_arena_printf(&doc->arena, "%s/%s", ctx, df);
        gl_project_add_build(doc, path, true, b.args, b.nargs, w.t[i].loc,
                             "docker buildx bake");
    }
}
