/* SPDX-License-Identifier: Apache-2.0 */
/* k8s.c: Kubernetes objects, the walk for pod specs, recognition (see k8s.h). */
#include "parsers/manifest/k8s.h"

#include <string.h>
#include <strings.h>

#include "linter/core/ref/imageref.h"
#include "linter/core/inputs.h"
#include "parsers/manifest/k8s_internal.h"

/* ---- annotations ---- */

/* gpulint.io/ignore on the metadata of `m`: a gl_ignore over m's lines. */
static void annotation_ignore(struct k8s *k, struct yt_node *m, const char ***ids, size_t *nids)
{
    struct yt_node *ann =
        yt_get(k->s, yt_get(k->s, m, "metadata", NULL), "annotations", NULL);
    struct yt_node *v = yt_get(k->s, ann, "gpulint.io/ignore", NULL);
    if (!yt_is_scalar(v))
        return;
    struct gl_doc *doc = k->doc;
    struct gl_ignore *ig = GL_APPEND(&doc->arena, doc->ignores, doc->nignores, doc->capignores);
    memset(ig, 0, sizeof *ig);
    ig->first = m->loc.line;
    ig->last = m->last_line;
    ig->loc = v->loc;
    size_t cap = 0, capl = 0, nl = 0;
    for (size_t i = 0; i < v->len;) {
        while (i < v->len && (v->value[i] == ',' || v->value[i] == ' '))
            i++;
        size_t j = i;
        while (j < v->len && v->value[j] != ',' && v->value[j] != ' ')
            j++;
        if (j > i) {
            *GL_APPEND(&doc->arena, ig->ids, ig->nids, cap) =
                gl_arena_strndup(&doc->arena, v->value + i, j - i);
            *GL_APPEND(&doc->arena, ig->id_locs, nl, capl) = yt_scalar_loc_at(k->s, v, i);
        }
        i = j;
    }
    /* the launches inside get the outer ids and these */
    const char **all = gl_arena_alloc(&doc->arena, (*nids + ig->nids + 1) * sizeof *all);
    for (size_t i = 0; i < *nids; i++)
        all[i] = (*ids)[i];
    for (size_t i = 0; i < ig->nids; i++)
        all[*nids + i] = ig->ids[i];
    *ids = all;
    *nids += ig->nids;
}

/* ---- the walk ---- */

struct found_pod {
    struct yt_node *spec;
    size_t first_launch, end_launch;
    bool gpu;
};

struct frame {
    struct yt_node *node;
    struct yt_node *parent; /* the mapping holding node, NULL at the top */
    bool via_alias;
    const char **ids;
    size_t nids;
};

static bool is_pod_spec(struct k8s *k, struct yt_node *m)
{
    struct yt_node *c = yt_get(k->s, m, "containers", NULL);
    if (!yt_is_seq(c) || !c->nitems)
        return k8s_runner(k->s, m) != NULL;
    for (size_t i = 0; i < c->nitems; i++)
        if (!yt_is_map(yt_item(k->s, c, i)))
            return false;
    return true;
}

/* The image `key` of mapping m, when it is a non-empty scalar, as a reference of a launch
 * the file does not show (GL_REF_LAUNCH, no launch). */
static void runtime_image(struct k8s *k, struct yt_node *m)
{
    struct yt_node *img = yt_get(k->s, m, "image", NULL);
    if (yt_is_scalar(img) && img->len)
        gl_ref_add(k->doc, gl_arena_strndup(&k->doc->arena, img->value, img->len),
                   yt_scalar_loc_at(k->s, img, 0), GL_REF_LAUNCH, false);
}

/* A Kubeflow TrainJob (trainer.kubeflow.org): `spec.trainer.image` and each
 * `spec.initializer.*.image` are the images the jobs of the runtime it names run
 * (`runtimeRef`, a TrainingRuntime or ClusterTrainingRuntime: usually not in the same
 * run). They are references judged as a launch's image (GL101, GL201, GL204...), with
 * no launch of their own: the runtime gives the pods, their GPUs, mounts and /dev/shm,
 * so no finding may rest on what the TrainJob lacks. */
static void trainjob(struct k8s *k, struct yt_node *obj)
{
    struct yt_node *api = yt_get(k->s, obj, "apiVersion", NULL);
    if (!yt_scalar_is(yt_get(k->s, obj, "kind", NULL), "TrainJob") || !yt_is_scalar(api) ||
        !gl_has_prefix(api->value, "trainer.kubeflow.org/"))
        return;
    struct yt_node *spec = yt_get(k->s, obj, "spec", NULL);
    struct yt_node *init = yt_get(k->s, spec, "initializer", NULL);
    runtime_image(k, yt_get(k->s, spec, "trainer", NULL));
    struct yt_pair *pairs;
    size_t n = yt_pairs(k->s, init, &pairs);
    for (size_t i = 0; i < n; i++) {
        if (gl_arena_over(&k->doc->arena)) { /* (at the initializer that found it so) */
            gl_doc_fail_limit(k->doc, GL_LIMIT_PARSE_MEMORY, pairs[i].key->loc);
            return;
        }
        runtime_image(k, yt_deref(k->s, pairs[i].value));
    }
}

/* Is the object a Pod or one of the core workloads whose pod template is its own (apps/v1,
 * batch/v1)? Custom resources may compose a pod from a template of the same object and a
 * patch of it (RoleBasedGroup's templateRef.patch): their containers are read as written. */
static bool core_kind(struct yt_stream *s, struct yt_node *obj)
{
    static const char *const kinds[] = {"Pod", "Deployment", "StatefulSet", "DaemonSet",
                                        "ReplicaSet", "ReplicationController", "Job",
                                        "CronJob", "PodTemplate", NULL};
    struct yt_node *kind = yt_get(s, obj, "kind", NULL);
    for (size_t i = 0; yt_is_scalar(kind) && kinds[i]; i++)
        if (yt_scalar_is(kind, kinds[i]))
            return true;
    return false;
}

/* The artifacts of one skaffold `build:` section: each `image` is built (and tagged) by
 * skaffold, which then writes the tag it gave into every manifest that names the image. */
static void skaffold_build(struct k8s *k, struct yt_node *build)
{
    struct yt_node *arts = yt_deref(k->s, yt_get(k->s, build, "artifacts", NULL));
    for (size_t i = 0; yt_is_seq(arts) && i < arts->nitems; i++) {
        struct yt_node *img = yt_deref(k->s, yt_get(k->s, yt_item(k->s, arts, i), "image", NULL));
        if (yt_is_scalar(img) && img->len && !yt_is_null(img) && !memchr(img->value, '{', img->len))
            gl_project_add(k->doc, GL_PROJECT_BUILT | GL_PROJECT_RETAGGED,
                           gl_arena_strndup(&k->doc->arena, img->value, img->len), NULL,
                           yt_scalar_loc_at(k->s, img, 0), "skaffold");
    }
}

/* A skaffold config (apiVersion skaffold/...): the images of `build.artifacts` and of each
 * profile's are images the project builds (RULES.md third round, Images built by the
 * project): GL101, GL103 and GL204 never fire on references that name them, in any file of
 * the run. */
static void skaffold(struct k8s *k, struct yt_node *obj)
{
    struct yt_node *api = yt_get(k->s, obj, "apiVersion", NULL);
    if (!yt_is_scalar(api) || !gl_has_prefix(api->value, "skaffold/"))
        return;
    skaffold_build(k, yt_get(k->s, obj, "build", NULL));
    struct yt_node *profiles = yt_deref(k->s, yt_get(k->s, obj, "profiles", NULL));
    for (size_t i = 0; yt_is_seq(profiles) && i < profiles->nitems; i++)
        skaffold_build(k, yt_get(k->s, yt_item(k->s, profiles, i), "build", NULL));
}

static void object(struct k8s *k, struct yt_node *obj)
{
    trainjob(k, obj);
    skaffold(k, obj);
    k->core_kind = core_kind(k->s, obj);
    struct gl_arena *a = &k->doc->arena;
    struct found_pod *pods = NULL;
    size_t npods = 0, cappods = 0;
    struct frame *stack = NULL;
    size_t depth = 0, cap = 0;
    struct frame root = {obj, NULL, false, NULL, 0};
    annotation_ignore(k, obj, &root.ids, &root.nids);
    *GL_APPEND(a, stack, depth, cap) = root;
    while (depth && !gl_arena_over(a)) {
        struct frame f = stack[--depth];
        bool alias = f.via_alias || f.node->kind == YT_ALIAS;
        struct yt_node *n = yt_deref(k->s, f.node);
        if (!n || (alias && !yt_charge(k->s, 1, f.node->loc)))
            break;
        if (n->kind == YT_SEQ) {
            for (size_t i = n->nitems; i-- > 0;)
                *GL_APPEND(a, stack, depth, cap) = (struct frame){n->items[i], NULL, alias,
                                                                   f.ids, f.nids};
            continue;
        }
        if (n->kind != YT_MAP)
            continue;
        if (is_pod_spec(k, n)) {
            struct found_pod *p = GL_APPEND(a, pods, npods, cappods);
            p->spec = n;
            p->first_launch = k->doc->nlaunches;
            struct yt_node *owner = f.parent;
            if (owner && yt_get(k->s, owner, "spec", NULL) != n)
                owner = NULL; /* (a pod spec under another key has no metadata of its own) */
            p->gpu = k8s_pod(k, n, owner, f.ids, f.nids);
            p->end_launch = k->doc->nlaunches;
            continue;
        }
        const char **ids = f.ids;
        size_t nids = f.nids;
        if (n != obj && yt_is_map(yt_get(k->s, n, "spec", NULL)))
            annotation_ignore(k, n, &ids, &nids); /* a template's metadata */
        for (size_t i = n->npairs; i-- > 0;) {
            struct yt_node *v = n->pairs[i].value;
            if (v->kind == YT_SCALAR)
                continue;
            *GL_APPEND(a, stack, depth, cap) = (struct frame){v, n, alias, ids, nids};
        }
    }
    struct yt_node *kind = yt_get(k->s, obj, "kind", NULL);
    bool any_gpu = false;
    for (size_t i = 0; i < npods; i++) {
        any_gpu |= pods[i].gpu;
        for (size_t l = pods[i].first_launch; yt_is_scalar(kind) && l < pods[i].end_launch; l++)
            k->doc->launches[l].object_kind = kind->value;
    }
    for (size_t i = 0; any_gpu && i < npods; i++)
        for (size_t l = pods[i].first_launch; !pods[i].gpu && l < pods[i].end_launch; l++)
            k->doc->launches[l].secondary_role = true;
}

static bool is_object(struct yt_stream *s, struct yt_node *n)
{
    if (!yt_is_map(n) || !yt_is_scalar(yt_get(s, n, "kind", NULL)))
        return false;
    return yt_get(s, n, "apiVersion", NULL) || yt_get(s, n, "spec", NULL) ||
           yt_get(s, n, "items", NULL);
}

/* The objects of a document: itself, or the items of a List. */
static size_t objects_of(struct yt_stream *s, struct yt_node *root, struct yt_node ***out,
                         struct gl_arena *a)
{
    size_t n = 0, cap = 0;
    *out = NULL;
    if (!is_object(s, root))
        return 0;
    struct yt_node *kind = yt_get(s, root, "kind", NULL);
    struct yt_node *items = yt_get(s, root, "items", NULL);
    if (yt_is_scalar(kind) && yt_is_seq(items) && gl_has_suffix(kind->value, "List")) {
        for (size_t i = 0; i < items->nitems; i++) {
            struct yt_node *it = yt_item(s, items, i);
            if (is_object(s, it))
                *GL_APPEND(a, *out, n, cap) = it;
        }
        return n;
    }
    *GL_APPEND(a, *out, n, cap) = root;
    return n;
}

/* Read the objects of k's stream into k's doc: claims and sharing configs first, then
 * each object's pods. */
static void read_objects(struct k8s *k)
{
    struct gl_doc *doc = k->doc;
    struct yt_stream *s = k->s;
    for (int pass = 0; pass < 2; pass++) {
        for (size_t d = 0; d < s->ndocs; d++) {
            struct yt_node *root = s->docs[d];
            if (!root || !root->complete)
                continue;
            if (gl_arena_over(&doc->arena)) { /* stop at the document it was reached in */
                if (!s->error) /* (else the load stopped at it: yt_report says where) */
                    gl_doc_fail_limit(doc, GL_LIMIT_PARSE_MEMORY, root->loc);
                break;
            }
            struct yt_node **objs;
            size_t n = objects_of(s, root, &objs, &doc->arena);
            for (size_t i = 0; i < n; i++) {
                if (gl_arena_over(&doc->arena)) { /* (an object took the rest: this one) */
                    gl_doc_fail_limit(doc, GL_LIMIT_PARSE_MEMORY, objs[i]->loc);
                    break;
                }
                if (pass == 0) {
                    k8s_note_claim(k, objs[i]);
                    k8s_sharing_object(k, objs[i]);
                } else {
                    struct yt_node *ns = yt_get(s, yt_get(s, objs[i], "metadata", NULL),
                                                "namespace", NULL);
                    k->ns = yt_is_scalar(ns) ? ns->value : NULL; /* (claims: per namespace) */
                    object(k, objs[i]);
                }
            }
        }
    }
    k8s_claims_free(k);
}

void gl_parse_k8s_doc(struct gl_doc *doc, const struct gl_config *cfg)
{
    (void)cfg;
    struct yt_stream s;
    yt_load_doc(&s, doc, doc->text, doc->len);
    gl_doc_lines_known(doc, s.lines, s.nlines);
    struct k8s k = {.doc = doc, .s = &s};
    read_objects(&k);
    yt_add_pragmas(doc, &s);
    yt_report(doc, &s);
}

void gl_k8s_from_text(struct gl_doc *doc, const char *text, size_t len, uint32_t line)
{
    struct yt_stream s;
    yt_load_at(&s, doc, text, len, line); /* (an error: the documents before it) */
    struct k8s k = {.doc = doc, .s = &s};
    read_objects(&k);
    yt_report_limit(doc, &s);
}

/* ---- recognition ---- */

/* A YAML name (or a YAML template's: `vllm.yaml.template`), or a name that says nothing
 * (RULES.md second round: its first bytes decide, as for `podspec`, `deploy-gpu`). */
static bool candidate(const char *path, const char *b)
{
    return yt_yaml_name(b) || yt_yaml_template_name(b) || gl_input_bare_candidate(path, b);
}

/* Some document is a Kubernetes object. */
static bool k8s_stream(struct yt_stream *s)
{
    for (size_t d = 0; d < s->ndocs; d++)
        if (s->docs[d] && is_object(s, s->docs[d]))
            return true;
    return false;
}

static bool by_content(const char *path, const char *data, size_t len)
{
    (void)path;
    return gl_mem_has(data, len, "kind", 4, 0) && yt_sniff(data, len, k8s_stream);
}

const struct gl_input_type gl_input_k8s = {
    .kind = GL_IN_K8S,
    .name = "kubernetes",
    .priority = 21,
    .by_name = NULL,
    .candidate = candidate,
    .by_content = by_content,
    .parse = gl_parse_k8s_doc,
};
