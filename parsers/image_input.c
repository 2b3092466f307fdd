/*
 * image_input.c: image archives and OCI layout directories as a gpulint input.
 *
 * Recognised by magic bytes (tar, gzip, zstd: image_catalog.h) or, for a directory, by
 * its `oci-layout` file; never read into memory. Parsing: catalog the archive, resolve
 * its images (image_manifest.h), index the needed layers in parallel through the cache
 * (image_jobs.h), merge each platform's layers into its final view (image_view.h), and
 * fill the model: doc->image (platforms, layers with history, files, env), the archive's
 * tags as GL_REF_ARCHIVE references, the config env as GL_ENV_IMAGE_CONFIG, and CUDA
 * facts from files (image_cuda.h). Any failure becomes doc->error (GL900) with line 0
 * and a message naming the archive entry.
 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "linter/inputs.h"
#include "parsers/image_cache.h"
#include "parsers/image_cuda.h"
#include "parsers/image_jobs.h"
#include "parsers/image_manifest.h"
#include "parsers/image_view.h"
#include "parsers/imageref.h"

static bool by_name(const char *path, const char *base)
{
    (void)path;
    (void)base;
    return false;
}

/* Archives found by the walk are opened (for their magic) when their name says so. */
static bool candidate(const char *path, const char *base)
{
    (void)path;
    return gl_has_suffix(base, ".tar") || gl_has_suffix(base, ".tar.gz") ||
           gl_has_suffix(base, ".tgz") || gl_has_suffix(base, ".tar.zst") ||
           gl_has_suffix(base, ".tzst");
}

static void set_error(struct gl_doc *doc, const char *msg)
{
    if (doc->error.set)
        return;
    doc->error.set = true;
    doc->error.loc = (struct gl_loc){0, 0};
    doc->error.message = msg;
}

static void add_tag_ref(struct gl_doc *doc, const char *tag)
{
    for (size_t i = 0; i < doc->nrefs; i++)
        if (!strcmp(doc->refs[i].text, tag))
            return;
    /* an OCI ref.name may be a bare tag ("latest", "v1"): read it as some image's tag */
    bool bare = !strchr(tag, '/') && !strchr(tag, ':') && !strchr(tag, '@');
    const char *parse = bare ? gl_arena_printf(&doc->arena, "image:%s", tag) : tag;
    struct gl_ref *r = GL_APPEND(&doc->arena, doc->refs, doc->nrefs, doc->caprefs);
    memset(r, 0, sizeof *r);
    r->text = tag;
    r->role = GL_REF_ARCHIVE;
    r->df_stage = -1;
    r->launch = -1;
    r->ok = gl_imageref_parse(&doc->arena, parse, strlen(parse), (struct gl_loc){0, 0},
                              &r->parsed, NULL) == 0;
    /* an image fact has no line nor column */
    r->parsed.tag_loc = r->parsed.digest_loc = r->parsed.loc = (struct gl_loc){0, 0};
}

static void add_env(struct gl_doc *doc, const char *kv)
{
    const char *eq = strchr(kv, '=');
    if (!eq || eq == kv)
        return;
    const char *key = gl_arena_strndup(&doc->arena, kv, (size_t)(eq - kv));
    for (size_t i = 0; i < doc->nenv; i++)
        if (doc->env[i].origin == GL_ENV_IMAGE_CONFIG && !strcmp(doc->env[i].key, key) &&
            !strcmp(doc->env[i].value, eq + 1))
            return; /* the same setting on another platform */
    struct gl_env *e = GL_APPEND(&doc->arena, doc->env, doc->nenv, doc->capenv);
    memset(e, 0, sizeof *e);
    e->key = key;
    e->value = eq + 1;
    e->origin = GL_ENV_IMAGE_CONFIG;
    e->stage = -1;
    e->launch = -1;
}

/* One platform's layers (history attached), env and files. */
static void fill_platform(struct gl_doc *doc, struct gl_image_platform *p,
                          const struct gl_image_target *t, const struct gl_image_config *cfg,
                          const struct gl_layer_index *const *ix)
{
    struct gl_arena *a = &doc->arena;
    p->name = t->platform ? t->platform : cfg->platform ? cfg->platform : "unknown";
    p->nlayers = t->nlayers;
    p->layers = gl_arena_alloc(a, (t->nlayers ? t->nlayers : 1) * sizeof *p->layers);
    size_t h = 0;
    for (size_t i = 0; i < t->nlayers; i++) {
        struct gl_image_layer *l = &p->layers[i];
        l->digest = t->layers[i].digest ? t->layers[i].digest : t->layers[i].name;
        l->media_type = t->layers[i].media_type;
        while (h < cfg->ncreated_by && cfg->empty_layer[h])
            h++;
        if (h < cfg->ncreated_by)
            l->created_by = cfg->created_by[h++];
    }
    p->env = cfg->env;
    p->nenv = cfg->nenv;
    p->history = cfg->created_by;
    p->nhistory = cfg->ncreated_by;
    p->nfiles = gl_image_view_build(a, ix, t->nlayers, &p->files);
    for (size_t i = 0; i < cfg->nenv; i++)
        add_env(doc, cfg->env[i]);
}

static int default_jobs(const struct gl_config *cfg)
{
    if (cfg->jobs > 0)
        return cfg->jobs;
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 && n < 256 ? (int)n : 1;
}

/* The jobs for every needed layer blob (one per distinct blob); NULL blob: missing. */
static struct gl_layer_job *plan_jobs(struct gl_doc *doc, struct gl_catalog *cat,
                                      const struct gl_image_target *t, size_t nt,
                                      const struct gl_image_config *cfgs, size_t *njobs)
{
    struct gl_arena *a = &doc->arena;
    size_t total = 0;
    for (size_t i = 0; i < nt; i++)
        total += t[i].nlayers;
    struct gl_layer_job *jobs = gl_arena_alloc(a, (total ? total : 1) * sizeof *jobs);
    size_t n = 0;
    for (size_t i = 0; i < nt; i++)
        for (size_t k = 0; k < t[i].nlayers; k++) {
            struct gl_image_layer_ref *l = &t[i].layers[k];
            if (!l->digest && k < cfgs[i].ndiff_ids)
                l->digest = cfgs[i].diff_ids[k]; /* docker save: the plain tar's digest */
            struct gl_catalog_blob *b = gl_catalog_find(cat, l->name);
            if (!b) {
                set_error(doc, gl_arena_printf(a, "the manifest names layer `%s`, which the "
                                               "archive lacks", l->name));
                return NULL;
            }
            bool seen = false;
            for (size_t j = 0; j < n && !seen; j++)
                seen = jobs[j].blob == b;
            if (!seen)
                jobs[n++] = (struct gl_layer_job){.blob = b, .digest = l->digest,
                                                  .media_type = l->media_type};
        }
    *njobs = n;
    return jobs;
}

static const struct gl_layer_index *index_of(struct gl_catalog_blob *b,
                                             struct gl_layer_job *jobs, size_t njobs)
{
    if (b->ix)
        return b->ix;
    for (size_t j = 0; j < njobs; j++)
        if (jobs[j].blob == b)
            return &jobs[j].ix;
    return NULL;
}

static void parse_image(struct gl_doc *doc, struct gl_catalog *cat, const struct gl_config *cfg)
{
    struct gl_arena *a = &doc->arena;
    struct gl_image_plan plan;
    gl_image_plan_resolve(a, gl_catalog_json, cat, cfg->platform, &plan);
    if (cat->error || plan.error) {
        set_error(doc, cat->error ? cat->error : plan.error);
        doc->error.not_kind = !cat->error && plan.not_image;
        return;
    }
    struct gl_image_config *cfgs = gl_arena_alloc(a, (plan.ntargets + 1) * sizeof *cfgs);
    for (size_t i = 0; i < plan.ntargets; i++) {
        size_t len;
        const char *text = gl_catalog_json(cat, plan.targets[i].config_name, &len);
        const char *err = NULL;
        if (!text || gl_image_config_parse(a, text, len, &cfgs[i], &err) != 0) {
            set_error(doc, cat->error ? cat->error
                           : gl_arena_printf(a, "config `%s`: %s", plan.targets[i].config_name,
                                             text ? err : "the archive lacks it"));
            return;
        }
        if (!plan.targets[i].platform)
            plan.targets[i].platform = cfgs[i].platform;
    }
    /* --platform for archives whose platforms only their configs say (docker save) */
    size_t keep = 0;
    for (size_t i = 0; i < plan.ntargets; i++) {
        const char *p = plan.targets[i].platform;
        size_t n = cfg->platform ? strlen(cfg->platform) : 0;
        if (cfg->platform && p && (strncmp(p, cfg->platform, n) || (p[n] && p[n] != '/')))
            continue;
        plan.targets[keep] = plan.targets[i];
        cfgs[keep++] = cfgs[i];
    }
    if (!keep) {
        set_error(doc, cfg->platform ? gl_arena_printf(a, "the archive has no image for "
                                                       "platform %s", cfg->platform)
                                     : "the archive names no image");
        return;
    }
    size_t njobs = 0;
    struct gl_layer_job *jobs = plan_jobs(doc, cat, plan.targets, keep, cfgs, &njobs);
    if (!jobs)
        return;
    if (cat->mode == GL_CAT_STREAM)
        njobs = 0; /* the layers were indexed as they streamed by */
    gl_layer_jobs_run(cat, jobs, njobs, default_jobs(cfg));

    doc->image = gl_arena_alloc(a, sizeof *doc->image);
    doc->image->platforms = gl_arena_alloc(a, keep * sizeof *doc->image->platforms);
    for (size_t i = 0; i < keep && !doc->error.set; i++) {
        const struct gl_image_target *t = &plan.targets[i];
        const struct gl_layer_index **ix = gl_arena_alloc(a, (t->nlayers + 1) * sizeof *ix);
        for (size_t k = 0; k < t->nlayers; k++) {
            struct gl_catalog_blob *b = gl_catalog_find(cat, t->layers[k].name);
            ix[k] = index_of(b, jobs, njobs);
            if (!ix[k] || ix[k]->error)
                set_error(doc, b->entry
                    ? gl_arena_printf(a, "layer `%s` (archive entry %zu): %s", t->layers[k].name,
                                      b->entry, ix[k] ? ix[k]->error : "not a tar stream")
                    : gl_arena_printf(a, "layer `%s`: %s", t->layers[k].name,
                                      ix[k] ? ix[k]->error : "not a tar stream"));
        }
        if (doc->error.set)
            break;
        struct gl_image_platform *p = &doc->image->platforms[doc->image->nplatforms++];
        fill_platform(doc, p, t, &cfgs[i], ix);
        gl_image_cuda_facts(doc, p);
        for (size_t k = 0; k < t->ntags; k++)
            add_tag_ref(doc, t->tags[k]);
    }
    for (size_t j = 0; j < njobs; j++)
        gl_layer_index_free(&jobs[j].ix);
}

static void parse_path(struct gl_doc *doc, const char *path, const void *head, size_t head_len,
                       const struct gl_config *cfg)
{
    char cache_dir[4096];
    bool cached = gl_layer_cache_dir(cfg, cache_dir, sizeof cache_dir);
    struct gl_catalog cat;
    gl_catalog_open(&cat, &doc->arena, path, head, head_len, cached ? cache_dir : NULL,
                    cfg->trust_digests);
    parse_image(doc, &cat, cfg);
    gl_catalog_close(&cat);
}

static void parse_text(struct gl_doc *doc, const struct gl_config *cfg)
{
    (void)cfg;
    set_error(doc, "an image archive must be read from its path");
}

const struct gl_input_type gl_input_image = {
    .kind = GL_IN_IMAGE,
    .name = "image",
    .priority = 90,
    .by_name = by_name,
    .candidate = candidate,
    .by_content = NULL,
    .parse = parse_text,
    .by_magic = gl_image_head_is_archive,
    .dir_input = gl_image_dir_is_layout,
    .parse_path = parse_path,
};
