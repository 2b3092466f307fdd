/* SPDX-License-Identifier: Apache-2.0 */
/* project.c: the images a run makes, and the findings they make moot (see project.h). */
#include "linter/cli/project.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "linter/core/ref/imageref.h"

#define KUSTOMIZED (GL_PROJECT_RENAMED | GL_PROJECT_RETAGGED)

struct gl_project_pattern {
    char *pattern;
    unsigned what;                   /* GL_PROJECT_* bits of every fact with this pattern */
    char *built_key, *name_key;      /* its keys in `exact` (literal patterns), or NULL */
    struct gl_project_pattern *next; /* the next glob of its key (or of `wild`) */
};

/* The builds of one Dockerfile: each the ARGs it sets, as "\nA\nB\n" ("\n": none). */
struct gl_project_build {
    char *args;
    struct gl_project_build *next;
};
struct build_file {
    char *path;                   /* the key */
    struct gl_project_build *builds;
};

void gl_project_init(struct gl_project_set *s)
{
    memset(s, 0, sizeof *s);
    gl_map_init(&s->exact);
    gl_map_init(&s->by_key);
    gl_map_init(&s->seen);
    gl_map_init(&s->builds);
}

static void free_builds(struct gl_map *m)
{
    for (size_t i = 0; i < m->cap; i++) {
        struct build_file *bf = m->slots[i].key ? m->slots[i].value : NULL;
        if (!bf)
            continue;
        for (struct gl_project_build *b = bf->builds, *next; b; b = next) {
            next = b->next;
            free(b->args);
            free(b);
        }
        free(bf->path);
        free(bf);
    }
    gl_map_free(m);
}

void gl_project_free(struct gl_project_set *s)
{
    for (size_t i = 0; i < s->seen.cap; i++) {
        struct gl_project_pattern *e = s->seen.slots[i].key ? s->seen.slots[i].value : NULL;
        if (!e)
            continue;
        free(e->pattern);
        free(e->built_key);
        free(e->name_key);
        free(e);
    }
    gl_map_free(&s->exact);
    gl_map_free(&s->by_key);
    gl_map_free(&s->seen);
    free_builds(&s->builds);
    memset(s, 0, sizeof *s);
}

/* The key of a repository (and a tag, when `tag` is not NULL) in `exact`: "b" for a build
 * output, "k" for a kustomization's name. */
static char *exact_key(char kind, const struct gl_imageref *r, const char *tag)
{
    size_t n = strlen(r->path) + (r->domain ? strlen(r->domain) : 0) +
               (tag ? strlen(tag) : 0) + 4;
    char *k = xmalloc(n), *p = k; /* "%c%s/%s%s%s" without printf */
    *p++ = kind;
    if (r->domain)
        p = stpcpy(p, r->domain);
    *p++ = '/';
    p = stpcpy(p, r->path);
    if (tag) {
        *p++ = ':';
        stpcpy(p, tag);
    } else {
        *p = '\0';
    }
    return k;
}

/* File a literal pattern in `exact` under the keys its bits need (once each). */
static void file_exact(struct gl_project_set *s, struct gl_project_pattern *e)
{
    struct gl_arena a;
    gl_arena_init(&a);
    struct gl_imageref r;
    if (gl_imageref_parse(&a, e->pattern, strlen(e->pattern), (struct gl_loc){0, 0}, &r, NULL) ==
            0 &&
        !r.digest) {
        if ((e->what & GL_PROJECT_BUILT) && !e->built_key) {
            e->built_key = exact_key('b', &r, r.tag ? r.tag : "latest");
            *gl_map_puts(&s->exact, e->built_key, NULL) = e;
        }
        if ((e->what & KUSTOMIZED) && !e->name_key) {
            e->name_key = exact_key('k', &r, r.tag);
            *gl_map_puts(&s->exact, e->name_key, NULL) = e;
        }
    }
    gl_arena_free(&a);
}

/* File a pattern with unresolved parts in its list: under its key, or among the wild
 * ones; false when that list is full. */
static bool file_glob(struct gl_project_set *s, struct gl_project_pattern *e)
{
    const char *key;
    size_t n = gl_project_pattern_key(e->pattern, &key);
    struct gl_project_pattern **head =
        n ? (struct gl_project_pattern **)gl_map_put(&s->by_key, key, n, NULL) : &s->wild;
    size_t len = 0;
    for (const struct gl_project_pattern *p = *head; p; p = p->next)
        len++;
    if (len >= GL_PROJECT_GLOBS_PER_KEY)
        return false;
    e->next = *head;
    *head = e;
    return true;
}

/* The build of one Dockerfile at `path` that sets `args` ("\nA\nB\n"). */
static void keep_build_at(struct gl_project_set *s, const char *path, const char *args)
{
    if (s->nbuilds >= gl_limit(GL_LIMIT_PROJECT_IMAGES))
        return;
    struct build_file *bf = gl_map_gets(&s->builds, path);
    if (!bf) {
        bf = xcalloc(1, sizeof *bf);
        bf->path = xstrdup(path); /* (the key the map keeps) */
        *gl_map_puts(&s->builds, bf->path, NULL) = bf;
    }
    for (const struct gl_project_build *b = bf->builds; b; b = b->next)
        if (!strcmp(b->args, args))
            return; /* (the same build again: it counts once) */
    struct gl_project_build *b = xcalloc(1, sizeof *b);
    b->args = xstrdup(args);
    b->next = bf->builds;
    bf->builds = b;
    s->n++;
    s->nbuilds++;
}

/* A build of a Dockerfile (model_ref.h): one at each path the Dockerfile may have. */
static void keep_build(struct gl_project_set *s, const char *pattern)
{
    struct gl_arena a;
    gl_arena_init(&a);
    const char *paths[GL_BUILD_ROOTS_MAX], *args;
    size_t n = gl_build_paths(&a, pattern, paths, &args);
    for (size_t i = 0; i < n; i++)
        keep_build_at(s, paths[i], args);
    gl_arena_free(&a);
}

static void keep(struct gl_project_set *s, const char *pattern, unsigned what)
{
    if (what & GL_PROJECT_ARG_SET) {
        keep_build(s, pattern);
        return;
    }
    struct gl_project_pattern *e = gl_map_gets(&s->seen, pattern);
    bool glob = strchr(pattern, '*') != NULL;
    if (e) {
        e->what |= what;
        if (!glob)
            file_exact(s, e);
        return;
    }
    if (s->n - s->nbuilds >= gl_limit(GL_LIMIT_PROJECT_IMAGES) ||
        strlen(pattern) > GL_PROJECT_PATTERN_MAX ||
        !gl_project_pattern_names_some(pattern))
        return; /* (`-t $IMAGE` names nothing: it takes no place) */
    e = xcalloc(1, sizeof *e);
    e->pattern = xstrdup(pattern);
    e->what = what;
    if (glob && !file_glob(s, e)) {
        free(e->pattern);
        free(e);
        return;
    }
    *gl_map_puts(&s->seen, e->pattern, NULL) = e;
    s->n++;
    if (!glob)
        file_exact(s, e);
}

/* The facts of doc that a set keeps: NULL after the last (an input that cannot be parsed
 * does not run: it builds nothing). */
static const struct gl_project_image *next_fact(const struct gl_doc *doc, size_t *i)
{
    while (!doc->error.set && *i < doc->nproject) {
        const struct gl_project_image *img = &doc->project[(*i)++];
        if (img->pattern && img->what)
            return img;
    }
    return NULL;
}

void gl_project_gather(struct gl_project_set *s, const struct gl_doc *doc)
{
    size_t i = 0;
    for (const struct gl_project_image *img; (img = next_fact(doc, &i));)
        keep(s, img->pattern, img->what);
}

void gl_project_facts_gather(struct gl_project_facts *f, const struct gl_doc *doc)
{
    size_t i = 0;
    for (const struct gl_project_image *img; (img = next_fact(doc, &i));) {
        if (f->n == f->cap) {
            f->cap = f->cap ? 2 * f->cap : 8;
            f->items = xrealloc(f->items, f->cap * sizeof *f->items);
        }
        f->items[f->n++] = (struct gl_project_fact){xstrdup(img->pattern), img->what};
    }
}

void gl_project_facts_keep(struct gl_project_set *s, struct gl_project_facts *f)
{
    for (size_t i = 0; i < f->n; i++) {
        if (s)
            keep(s, f->items[i].pattern, f->items[i].what);
        free(f->items[i].pattern);
    }
    free(f->items);
    memset(f, 0, sizeof *f);
}

/* Does some glob of the list make a finding with moot_when moot for ref? */
static bool list_moots(const struct gl_project_pattern *p, unsigned moot_when,
                       const struct gl_imageref *ref, struct gl_arena *a)
{
    for (; p; p = p->next) {
        unsigned what = p->what & moot_when;
        if (((what & GL_PROJECT_BUILT) && gl_project_pattern_names(p->pattern, true, ref, a)) ||
            ((what & KUSTOMIZED) && gl_project_pattern_names(p->pattern, false, ref, a)))
            return true;
    }
    return false;
}

/* Is the literal pattern filed under ref's key of this kind one of moot_when's bits? */
static bool exact_moots(const struct gl_project_set *s, char kind, const struct gl_imageref *ref,
                        const char *tag, unsigned bits)
{
    char *k = exact_key(kind, ref, tag);
    const struct gl_project_pattern *e = gl_map_gets(&s->exact, k);
    free(k);
    return e && (e->what & bits);
}

/* Does every build of `file` the run sees set the ARG `arg` (and is there one)? */
static bool arg_always_set(const struct gl_project_set *s, const char *file, const char *arg,
                           struct gl_arena *a)
{
    const char *path = gl_path_lexical(a, file);
    const struct build_file *bf = gl_map_gets(&s->builds, path);
    if (!bf || strchr(arg, '\n'))
        return false;
    const char *needle = gl_arena_printf(a, "\n%s\n", arg);
    for (const struct gl_project_build *b = bf->builds; b; b = b->next)
        if (!strstr(b->args, needle))
            return false;
    return bf->builds != NULL;
}

/* Does a kustomization of the run give images of ref's name another name? */
static bool renamed(const struct gl_project_set *s, const struct gl_imageref *ref,
                    const char *tag, const char *last, struct gl_arena *a)
{
    return exact_moots(s, 'k', ref, NULL, GL_PROJECT_RENAMED) ||
           exact_moots(s, 'k', ref, tag, GL_PROJECT_RENAMED) ||
           list_moots(gl_map_gets(&s->by_key, last), GL_PROJECT_RENAMED, ref, a) ||
           list_moots(s->wild, GL_PROJECT_RENAMED, ref, a);
}

/* A name no registry serves (gl_imageref_local_only) was built or loaded where it runs,
 * whether or not this run sees the build: a finding that a build output makes moot is
 * moot on it. Not in a Kubernetes manifest (its findings can be undone by a
 * kustomization's renaming or retagging) whose name a kustomization of the run gives a
 * registry's name instead: `controller:latest` renamed to `ghcr.io/acme/controller`
 * keeps the tag `latest` of a registry image. */
static bool local_moots(const struct gl_project_set *s, unsigned m, const struct gl_imageref *ref,
                        const char *tag, const char *last, struct gl_arena *a)
{
    if (!(m & GL_PROJECT_BUILT) || !gl_imageref_local_only(ref))
        return false;
    bool manifest = m & (GL_PROJECT_RENAMED | GL_PROJECT_RETAGGED);
    return !manifest || !s->n || !renamed(s, ref, tag, last, a);
}

static bool moot(const struct gl_project_set *s, const struct gl_finding *f)
{
    if (!f->moot_when || (!s->n && !(f->moot_when & GL_PROJECT_BUILT)))
        return false;
    if (!s->n) /* no fact of the run: only a name no registry serves, asked of the scan */
        return f->image && gl_imageref_text_local_only(f->image, strlen(f->image));
    struct gl_arena a;
    gl_arena_init(&a);
    if ((f->moot_when & GL_PROJECT_ARG_SET) && f->arg && f->file && s->n &&
        arg_always_set(s, f->file, f->arg, &a)) {
        gl_arena_free(&a);
        return true;
    }
    if (!f->image) { /* (a finding on no image: only the builds of its file decide) */
        gl_arena_free(&a);
        return false;
    }
    struct gl_imageref ref;
    bool is = false;
    unsigned m = f->moot_when;
    if (gl_imageref_parse(&a, f->image, strlen(f->image), (struct gl_loc){0, 0}, &ref, NULL) ==
        0) {
        const char *tag = ref.tag ? ref.tag : "latest";
        const char *slash = strrchr(ref.path, '/');
        const char *last = slash ? slash + 1 : ref.path;
        is = local_moots(s, m, &ref, tag, last, &a) ||
             (s->n &&
              (((m & GL_PROJECT_BUILT) && exact_moots(s, 'b', &ref, tag, GL_PROJECT_BUILT)) ||
               ((m & KUSTOMIZED) && (exact_moots(s, 'k', &ref, NULL, m & KUSTOMIZED) ||
                                     exact_moots(s, 'k', &ref, tag, m & KUSTOMIZED))) ||
               list_moots(gl_map_gets(&s->by_key, last), m, &ref, &a) ||
               list_moots(s->wild, m, &ref, &a)));
    }
    gl_arena_free(&a);
    return is;
}

bool gl_project_keeps(const struct gl_finding *f, void *set)
{
    return !moot(set, f);
}
