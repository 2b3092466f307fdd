/* SPDX-License-Identifier: Apache-2.0 */
/*
 * image_input.c: image archives and OCI layout directories as a gpulint input.
 *
 * Recognised by magic bytes (tar, gzip, zstd: image_catalog.h) or, for a directory, by
 * its `oci-layout` file; never read into memory. Parsing: catalog the archive, resolve
 * its images (image_manifest.h), index the needed layers in parallel through the cache
 * (image_jobs.h), merge each platform's layers into its final view (image_view.h), and
 * fill the model: doc->image (platforms, layers with history, the history's RUN facts
 * (image_history.h), files, env), the archive's
 * tags as GL_REF_ARCHIVE references, the config env as GL_ENV_IMAGE_CONFIG, and CUDA
 * facts from files (image_cuda.h). Any failure becomes doc->error (GL900) with line 0
 * and a message naming the archive entry.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "linter/core/inputs.h"
#include "parsers/image/image_cache.h"
#include "parsers/image/image_cuda.h"
#include "parsers/image/image_budget.h"
#include "parsers/image/image_jobs.h"
#include "parsers/image/image_history.h"
#include "parsers/image/image_manifest.h"
#include "linter/core/hashmap.h"
#include "parsers/image/image_view.h"
#include "linter/core/ref/imageref.h"
#include "parsers/image/image_read.h"

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

/* What one image input is being read into, beside the doc: the dedup maps that keep the
 * filling linear however often a tag, an env setting or a config is named. */
struct reading {
    struct gl_doc *doc;
    const struct gl_image_docs *src;
    struct gl_catalog *cat;    /* the layers: NULL when only the configs are read */
    const struct gl_config *cfg;
    struct gl_image_plan plan;
    struct gl_map tags, env, configs;
    struct gl_map streamed; /* streams: a layer digest -> its job + 1 */
    size_t views_charged; /* the platforms' views, charged to the image budget */
    struct gl_layer_index no_files; /* each layer's index when no layer is read */
};

static void add_tag_ref(struct reading *rd, const char *tag)
{
    struct gl_doc *doc = rd->doc;
    bool added;
    gl_map_puts(&rd->tags, tag, &added);
    if (!added)
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

/* A config's "K=V", once per input (the same setting on another platform adds nothing). */
static void add_env(struct reading *rd, const char *kv)
{
    struct gl_doc *doc = rd->doc;
    const char *eq = strchr(kv, '=');
    bool added;
    if (!eq || eq == kv)
        return;
    gl_map_puts(&rd->env, kv, &added);
    if (!added)
        return;
    struct gl_env *e = GL_APPEND(&doc->arena, doc->env, doc->nenv, doc->capenv);
    memset(e, 0, sizeof *e);
    e->key = gl_arena_strndup(&doc->arena, kv, (size_t)(eq - kv));
    e->value = eq + 1;
    e->origin = GL_ENV_IMAGE_CONFIG;
    e->stage = -1;
    e->launch = -1;
}

/* A problem of one target: it is not linted; the others are. */
static void target_problem(struct reading *rd, const struct gl_image_target *t,
                           const char *msg)
{
    gl_image_plan_problem(&rd->doc->arena, &rd->plan, t->platform,
                          t->platform ? msg : gl_arena_printf(&rd->doc->arena, "%s: %s",
                                                              t->manifest, msg));
}

static void platform_problem(struct reading *rd, const struct gl_image_target *t,
                             const char *what, enum gl_limit_id id)
{
    struct gl_arena *a = &rd->doc->arena;
    target_problem(rd, t, gl_arena_printf(a, "%s: %s", what, gl_image_limit_text(a, id)));
}

/* One platform's layers (history attached), env and files: false when its view would
 * pass image-files (nothing is added then). */
static bool fill_platform(struct reading *rd, struct gl_image_platform *p,
                          const struct gl_image_target *t, const struct gl_image_config *cfg,
                          const struct gl_layer_index *const *ix)
{
    struct gl_arena *a = &rd->doc->arena;
    enum gl_limit_id stopped;
    p->nfiles = gl_image_view_build(a, ix, t->nlayers, gl_limit(GL_LIMIT_IMAGE_FILES),
                                    &p->files, &stopped, &rd->views_charged, &p->waste);
    if (stopped != GL_LIMIT_COUNT) {
        platform_problem(rd, t, gl_arena_printf(a, "its files (merged from %zu layers) %s, "
                                                "stopped", t->nlayers,
                                                stopped == GL_LIMIT_IMAGE_FILES
                                                    ? "are too many"
                                                    : "take too much memory"),
                         stopped);
        return false;
    }
    p->name = t->platform ? t->platform : "unknown";
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
    p->history = cfg->history;
    p->nhistory = cfg->nhistory;
    p->run = cfg->run;
    for (size_t i = 0; i < cfg->nenv; i++)
        add_env(rd, cfg->env[i]);
    return true;
}

static int default_jobs(const struct gl_config *cfg)
{
    long n = cfg->jobs > 0 ? cfg->jobs : sysconf(_SC_NPROCESSORS_ONLN);
    n = n > 0 && n < 256 ? n : 1;
    unsigned fit = gl_threads_fit((unsigned)n); /* (the layer threads under ulimit -v) */
    return fit ? (int)fit : 1;
}

/* The config of target t, read and parsed once however many targets share it; NULL
 * (and a problem of t) when it cannot be. */
static const struct gl_image_config *config_of(struct reading *rd,
                                               const struct gl_image_target *t)
{
    struct gl_arena *a = &rd->doc->arena;
    bool added;
    void **slot = gl_map_puts(&rd->configs, t->config_name, &added);
    if (!added && *slot)
        return *slot;
    size_t len;
    const char *why = NULL, *err = NULL;
    char *text = rd->src->blob_doc(rd->src->ctx, t->config_name, &len, &why);
    struct gl_image_config *c = gl_arena_alloc(a, sizeof *c);
    if (!text || gl_image_config_parse(a, text, len, c, &err) != 0) {
        c = NULL;
    } else if (!gl_image_history_read(a, c, &c->history, &c->nhistory, &c->run)) {
        err = gl_arena_printf(a, "its history: %s", gl_image_limit_text(a, GL_LIMIT_PARSE_MEMORY));
        c = NULL;
    } else {
        *gl_map_puts(&rd->configs, t->config_name, NULL) = c;
    }
    free(text);
    if (!c)
        target_problem(rd, t, gl_arena_printf(a, "config `%s`: %s", t->config_name,
                                              text ? err : why ? why : "the archive lacks it"));
    return c;
}

/* Does the config's platform pass --platform? (a docker save says it only there) */
static bool config_wanted(const struct gl_config *cfg, const char *p)
{
    size_t n = cfg->platform ? strlen(cfg->platform) : 0;
    return !cfg->platform || !p || (!strncmp(p, cfg->platform, n) && (!p[n] || p[n] == '/'));
}

/* Does target t carry the tag `oci:DIR:TAG` names (its ref.name, or a full name that
 * ends in :TAG)? Every target does when no tag is named. */
static bool tag_wanted(const struct gl_config *cfg, const struct gl_image_target *t)
{
    if (!cfg->only_tag)
        return true;
    size_t n = strlen(cfg->only_tag);
    for (size_t k = 0; k < t->ntags; k++) {
        size_t m = strlen(t->tags[k]);
        if (!strcmp(t->tags[k], cfg->only_tag) ||
            (m > n && t->tags[k][m - n - 1] == ':' && !strcmp(t->tags[k] + m - n, cfg->only_tag)))
            return true;
    }
    return false;
}

/* Keep the targets whose config reads (and, for those whose platform only the config
 * says, matches --platform); cfgs[i] is kept target i's. Returns how many. */
static size_t keep_configured(struct reading *rd, const struct gl_image_config **cfgs)
{
    size_t keep = 0;
    for (size_t i = 0; i < rd->plan.ntargets; i++) {
        struct gl_image_target t = rd->plan.targets[i];
        if (!tag_wanted(rd->cfg, &t))
            continue;
        const struct gl_image_config *c = config_of(rd, &t);
        if (!c)
            continue;
        if (!t.platform && !config_wanted(rd->cfg, c->platform))
            continue;
        if (!t.platform)
            t.platform = c->platform;
        rd->plan.targets[keep] = t;
        cfgs[keep++] = c;
    }
    return keep;
}

/* The layer blobs target t needs, one job per distinct blob (b->job: its job + 1);
 * false (a problem of t) when the archive lacks one. */
static bool plan_target_jobs(struct reading *rd, struct gl_image_target *t,
                             const struct gl_image_config *cfg, struct gl_layer_job *jobs,
                             size_t *njobs)
{
    for (size_t k = 0; k < t->nlayers; k++) {
        struct gl_image_layer_ref *l = &t->layers[k];
        if (!l->digest && k < cfg->ndiff_ids)
            l->digest = cfg->diff_ids[k]; /* docker save: the plain tar's digest */
        if (!rd->cat) { /* streams: one job per distinct digest */
            bool added;
            void **slot = l->digest ? gl_map_puts(&rd->streamed, l->digest, &added) : NULL;
            if (slot && added) {
                jobs[*njobs] = (struct gl_layer_job){.digest = l->digest,
                                                     .media_type = l->media_type};
                *slot = (void *)++*njobs;
            }
            continue;
        }
        struct gl_catalog_blob *b = gl_catalog_find(rd->cat, l->name);
        if (!b) {
            target_problem(rd, t, gl_arena_printf(&rd->doc->arena, "the manifest names layer "
                                                  "`%s`, which the archive lacks",
                                                  gl_image_quote(&rd->doc->arena, l->name)));
            return false;
        }
        if (!b->job && !b->ix && rd->cat->mode != GL_CAT_STREAM) { /* (a stream's layers
                                                                       were indexed) */
            jobs[*njobs] = (struct gl_layer_job){.blob = b, .digest = l->digest,
                                                 .media_type = l->media_type};
            b->job = ++*njobs;
        }
    }
    return true;
}

static const struct gl_layer_index *index_of(const struct gl_catalog_blob *b,
                                             const struct gl_layer_job *jobs)
{
    return b->ix ? b->ix : b->job ? &jobs[b->job - 1].ix : NULL;
}

/* The indexes of t's layers into ix; false (a problem of t) when one failed. */
static bool target_indexes(struct reading *rd, const struct gl_image_target *t,
                           const struct gl_layer_job *jobs, const struct gl_layer_index **ix)
{
    struct gl_arena *a = &rd->doc->arena;
    for (size_t k = 0; k < t->nlayers; k++) {
        if (!rd->cat) { /* streams */
            const char *d = t->layers[k].digest;
            size_t job = d ? (size_t)gl_map_gets(&rd->streamed, d) : 0;
            ix[k] = job ? &jobs[job - 1].ix : NULL;
            if (ix[k] && !ix[k]->error)
                continue;
            target_problem(rd, t, gl_arena_printf(a, "layer `%s`: %s",
                                                  gl_image_quote(a, t->layers[k].name),
                                                  ix[k] ? ix[k]->error : "no digest"));
            return false;
        }
        struct gl_catalog_blob *b = gl_catalog_find(rd->cat, t->layers[k].name);
        ix[k] = index_of(b, jobs);
        if (ix[k] && !ix[k]->error)
            continue;
        const char *why = ix[k] ? ix[k]->error : "not a tar stream";
        const char *name = gl_image_quote(a, t->layers[k].name);
        target_problem(rd, t, b->entry ? gl_arena_printf(a, "layer `%s` (archive entry %zu): "
                                                         "%s", name, b->entry, why)
                                       : gl_arena_printf(a, "layer `%s`: %s", name, why));
        return false;
    }
    return true;
}

/* Index every layer the kept targets need (those whose layers are all there). */
static struct gl_layer_job *run_jobs(struct reading *rd, size_t *keep,
                                     const struct gl_image_config **cfgs, size_t *njobs)
{
    struct gl_image_target *t = rd->plan.targets;
    size_t total = 0, n = 0, kept = 0;
    for (size_t i = 0; i < *keep; i++)
        total += t[i].nlayers;
    struct gl_layer_job *jobs = gl_arena_alloc(&rd->doc->arena, (total + 1) * sizeof *jobs);
    *njobs = 0;
    if (!rd->cat && !rd->src->streams)
        return jobs; /* the configs only: no layer is read */
    for (size_t i = 0; i < *keep; i++) {
        if (!plan_target_jobs(rd, &t[i], cfgs[i], jobs, &n))
            continue;
        t[kept] = t[i];
        cfgs[kept++] = cfgs[i];
    }
    *keep = kept;
    *njobs = n;
    if (rd->cat)
        gl_layer_jobs_run(rd->cat, jobs, n, default_jobs(rd->cfg));
    else
        gl_layer_jobs_stream(rd->src->streams, jobs, n, default_jobs(rd->cfg));
    return jobs;
}

/* Each kept target whose layers indexed becomes a platform of doc->image. */
static void fill_image(struct reading *rd, size_t keep, const struct gl_image_config **cfgs,
                       const struct gl_layer_job *jobs)
{
    struct gl_doc *doc = rd->doc;
    struct gl_arena *a = &doc->arena;
    for (size_t i = 0; i < keep; i++) {
        const struct gl_image_target *t = &rd->plan.targets[i];
        const struct gl_layer_index **ix = gl_arena_alloc(a, (t->nlayers + 1) * sizeof *ix);
        struct gl_image_platform *p = &doc->image->platforms[doc->image->nplatforms];
        if (!rd->cat && !rd->src->streams) {
            for (size_t k = 0; k < t->nlayers; k++)
                ix[k] = &rd->no_files;
        } else if (!target_indexes(rd, t, jobs, ix)) {
            continue;
        }
        if (!fill_platform(rd, p, t, cfgs[i], ix))
            continue;
        doc->image->nplatforms++;
        gl_image_cuda_facts(doc, p, rd->cfg->kb);
        for (size_t k = 0; k < t->ntags; k++)
            add_tag_ref(rd, t->tags[k]);
    }
}

static void read_image(struct reading *rd)
{
    struct gl_doc *doc = rd->doc;
    struct gl_arena *a = &doc->arena;
    struct gl_image_plan *plan = &rd->plan;
    const char *cat_error = rd->cat ? rd->cat->error : NULL;
    gl_image_plan_resolve(a, rd->src->index_doc, rd->src->ctx, rd->cfg->platform, plan);
    if (cat_error || plan->error) {
        set_error(doc, cat_error ? cat_error : plan->error);
        doc->error.not_kind = !cat_error && plan->not_image;
        return;
    }
    const struct gl_image_config **cfgs = gl_arena_alloc(a, (plan->ntargets + 1) * sizeof *cfgs);
    size_t keep = keep_configured(rd, cfgs), njobs = 0;
    if (!keep && !plan->nproblems) {
        set_error(doc, rd->cfg->only_tag ? gl_arena_printf(a, "the layout has no image tagged "
                                                           "`%s`", rd->cfg->only_tag)
                       : rd->cfg->platform ? gl_arena_printf(a, "the archive has no image for "
                                                             "platform %s", rd->cfg->platform)
                                           : "the archive names no image");
        return;
    }
    struct gl_layer_job *jobs = run_jobs(rd, &keep, cfgs, &njobs);
    doc->image = gl_arena_alloc(a, sizeof *doc->image);
    doc->image->platforms = gl_arena_alloc(a, (keep + 1) * sizeof *doc->image->platforms);
    fill_image(rd, keep, cfgs, jobs);
    doc->image->problems = plan->problems;
    doc->image->nproblems = plan->nproblems;
    for (size_t j = 0; j < njobs; j++)
        gl_layer_index_free(&jobs[j].ix);
}

void gl_image_read(struct gl_doc *doc, const struct gl_image_docs *src,
                   const struct gl_config *cfg)
{
    struct reading rd = {.doc = doc, .src = src, .cat = src->layers, .cfg = cfg};
    gl_layer_index_init(&rd.no_files);
    gl_map_init(&rd.tags);
    gl_map_init(&rd.env);
    gl_map_init(&rd.configs);
    gl_map_init(&rd.streamed);
    read_image(&rd);
    gl_image_budget_release(&rd.views_charged); /* no other image is read while rules run */
    gl_map_free(&rd.tags);
    gl_map_free(&rd.env);
    gl_map_free(&rd.configs);
    gl_map_free(&rd.streamed);
    gl_layer_index_free(&rd.no_files);
}

static void parse_path(struct gl_doc *doc, const char *path, int stream_fd, const void *head,
                       size_t head_len, const struct gl_config *cfg)
{
    char cache_dir[4096];
    bool cached = gl_layer_cache_dir(cfg, cache_dir, sizeof cache_dir);
    struct gl_catalog cat;
    gl_catalog_open(&cat, &doc->arena, path, stream_fd, head, head_len, cached ? cache_dir : NULL,
                    cfg->trust_digests);
    cat.verify_digests = cfg->verify_digests;
    struct gl_image_docs src = {gl_catalog_json, gl_catalog_json, &cat, &cat, NULL};
    gl_image_read(doc, &src, cfg);
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
