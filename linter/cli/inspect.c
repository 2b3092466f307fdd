/* SPDX-License-Identifier: Apache-2.0 */
/* inspect.c: --inspect-images (see inspect.h). */
#include "linter/cli/inspect.h"

#include <stdlib.h>
#include <string.h>

#include "knowledge/derive/cuda_derive.h"
#include "linter/core/escape.h"
#include "parsers/registry/registry_input.h"

/* What one reference's config says (heap; kept for the run). */
struct looked {
    char *key;               /* the reference's text */
    bool failed;
    char *cuda_version;      /* its Env CUDA_VERSION, or NULL */
    char *require_cuda;      /* its Env NVIDIA_REQUIRE_CUDA, or NULL */
};

/* Does the reference name an image that runs, whose CUDA no fact of the doc tells? */
static bool wanted(const struct gl_doc *doc, size_t i)
{
    const struct gl_ref *r = &doc->refs[i];
    if (!r->ok || r->unresolved || r->scratch || r->stage || r->local || !r->parsed.domain)
        return false;
    if (r->role != GL_REF_FROM && r->role != GL_REF_LAUNCH && r->role != GL_REF_DEF_FROM)
        return false;
    if (r->role == GL_REF_FROM && !gl_df_stage_shipped(doc, r->df_stage))
        return false;
    for (size_t k = 0; k < doc->ncuda; k++)
        if (doc->cuda[k].ref == (int)i)
            return false;
    return true;
}

static char *dup_or_null(const char *s)
{
    return s ? xasprintf("%s", s) : NULL;
}

/* Fetch the config of `text` (the registry reader into a scratch doc). */
static struct looked *look_up(struct gl_run *run, const char *text)
{
    struct looked *l = xcalloc(1, sizeof *l);
    l->key = xasprintf("%s", text);
    struct gl_config cfg = *run->cfg;
    cfg.registry_layers = false; /* the config alone */
    const char *path = xasprintf("%s%s", GL_REGISTRY_TRANSPORT, text);
    struct gl_doc tmp;
    gl_doc_init(&tmp, path, GL_IN_IMAGE, NULL, 0);
    gl_registry_read(&tmp, path, &cfg);
    if (tmp.error.set || !tmp.image || !tmp.image->nplatforms) {
        l->failed = true;
        gl_eprintf("--inspect-images: %s: %s", path,
                   tmp.error.set ? tmp.error.message : "no platform could be read");
    } else {
        for (size_t i = 0; i < tmp.nenv; i++) {
            const struct gl_env *e = &tmp.env[i];
            if (!strcmp(e->key, "CUDA_VERSION") && !l->cuda_version)
                l->cuda_version = dup_or_null(e->value);
            else if (!strcmp(e->key, "NVIDIA_REQUIRE_CUDA") && !l->require_cuda)
                l->require_cuda = dup_or_null(e->value);
        }
    }
    gl_arena_free(&tmp.arena);
    free((char *)path);
    return l;
}

/* A config Env setting as a CUDA fact of reference i, labelled with where it came from. */
static void add_fact(struct gl_doc *doc, size_t i, const char *key, const char *value)
{
    const struct gl_ref *r = &doc->refs[i];
    struct gl_env e = {0};
    e.key = key;
    e.value = gl_arena_strdup(&doc->arena, value);
    e.origin = GL_ENV_IMAGE_CONFIG;
    e.value_loc = r->loc;
    e.stage = r->df_stage;
    e.launch = r->launch;
    size_t before = doc->ncuda;
    gl_cuda_derive_env(doc, &e);
    for (size_t k = before; k < doc->ncuda; k++) {
        struct gl_cuda_fact *f = &doc->cuda[k];
        f->ref = (int)i;
        f->label = gl_arena_printf(&doc->arena, "%s in the registry's config of %s", key,
                                   r->text);
    }
}

void gl_inspect_images(struct gl_run *run, struct gl_doc *doc)
{
    size_t nrefs = doc->nrefs;
    for (size_t i = 0; i < nrefs; i++) {
        if (!wanted(doc, i))
            continue;
        const char *text = doc->refs[i].text;
        struct looked *l = gl_map_gets(&run->inspected, text);
        if (!l) {
            l = look_up(run, text);
            *gl_map_puts(&run->inspected, l->key, NULL) = l;
        }
        if (l->failed)
            continue;
        if (l->cuda_version)
            add_fact(doc, i, "CUDA_VERSION", l->cuda_version);
        if (l->require_cuda)
            add_fact(doc, i, "NVIDIA_REQUIRE_CUDA", l->require_cuda);
    }
}

void gl_inspect_free(struct gl_run *run)
{
    struct gl_map *m = &run->inspected;
    for (size_t i = 0; i < m->cap; i++) {
        struct looked *l = m->slots[i].key ? m->slots[i].value : NULL;
        if (!l)
            continue;
        free(l->cuda_version);
        free(l->require_cuda);
        free(l->key);
        free(l);
    }
    gl_map_free(m);
}
