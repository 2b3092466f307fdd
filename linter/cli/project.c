/* project.c: the images a run makes, and the findings they make moot (see project.h). */
#include "linter/cli/project.h"

#include <stdlib.h>
#include <string.h>

#include "linter/core/imageref.h"

#define KUSTOMIZED (GL_PROJECT_RENAMED | GL_PROJECT_RETAGGED)

struct gl_project_pattern {
    char *pattern;
    unsigned what;                    /* GL_PROJECT_* bits of every fact with this pattern */
    struct gl_project_pattern *next;  /* the next one of its key (or of the globs) */
};

void gl_project_init(struct gl_project_set *s)
{
    memset(s, 0, sizeof *s);
    gl_map_init(&s->by_key);
    gl_map_init(&s->seen);
}

static void free_list(struct gl_project_pattern *p)
{
    while (p) {
        struct gl_project_pattern *next = p->next;
        free(p->pattern);
        free(p);
        p = next;
    }
}

void gl_project_free(struct gl_project_set *s)
{
    for (size_t i = 0; i < s->by_key.cap; i++)
        if (s->by_key.slots[i].key)
            free_list(s->by_key.slots[i].value);
    free_list(s->globs);
    gl_map_free(&s->by_key);
    gl_map_free(&s->seen);
    memset(s, 0, sizeof *s);
}

static void keep(struct gl_project_set *s, const struct gl_project_image *img)
{
    struct gl_project_pattern *e = gl_map_gets(&s->seen, img->pattern);
    if (e) {
        e->what |= img->what;
        return;
    }
    if (s->n >= gl_limit(GL_LIMIT_PROJECT_IMAGES))
        return;
    e = xcalloc(1, sizeof *e);
    e->pattern = xstrdup(img->pattern);
    e->what = img->what;
    *gl_map_puts(&s->seen, e->pattern, NULL) = e;
    s->n++;
    const char *key;
    size_t n = gl_project_pattern_key(e->pattern, &key);
    struct gl_project_pattern **head =
        n ? (struct gl_project_pattern **)gl_map_put(&s->by_key, key, n, NULL) : &s->globs;
    e->next = *head;
    *head = e;
}

void gl_project_gather(struct gl_project_set *s, const struct gl_doc *doc)
{
    if (doc->error.set)
        return; /* an input that cannot be parsed does not run: it builds nothing */
    for (size_t i = 0; i < doc->nproject; i++)
        if (doc->project[i].pattern && doc->project[i].what)
            keep(s, &doc->project[i]);
}

/* Does some pattern of the list make a finding with moot_when moot for ref? */
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

static bool moot(const struct gl_project_set *s, const struct gl_finding *f)
{
    if (!f->image || !f->moot_when || !s->n)
        return false;
    struct gl_arena a;
    gl_arena_init(&a);
    struct gl_imageref ref;
    bool is = false;
    if (gl_imageref_parse(&a, f->image, strlen(f->image), (struct gl_loc){0, 0}, &ref, NULL) ==
        0) {
        const char *slash = strrchr(ref.path, '/');
        const char *last = slash ? slash + 1 : ref.path;
        is = list_moots(gl_map_gets(&s->by_key, last), f->moot_when, &ref, &a) ||
             list_moots(s->globs, f->moot_when, &ref, &a);
    }
    gl_arena_free(&a);
    return is;
}

static bool not_moot(const struct gl_finding *f, void *set)
{
    return !moot(set, f);
}

void gl_project_apply(const struct gl_project_set *s, struct gl_findings *findings, size_t from)
{
    if (s->n)
        gl_findings_filter(findings, from, not_moot, (void *)s);
}
