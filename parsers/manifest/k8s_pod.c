/* SPDX-License-Identifier: Apache-2.0 */
/* k8s_pod.c: the containers of one pod spec -> launches (see k8s.h). */
#include <string.h>

#include "linter/core/hashmap.h"
#include "parsers/manifest/compose_common.h"
#include "parsers/manifest/k8s.h"
#include "parsers/manifest/k8s_internal.h"
#include "parsers/yaml/yaml_template.h"

struct pod {
    struct k8s *k;
    struct yt_node *spec;
    int launch;
    struct yt_node *env; /* the container's env list */
    /* by `name`, made at their first look-up (see by_name): the container's env entries,
       the pod's volumes */
    struct gl_map env_names, vol_names, claim_names; /* (claim_names: resourceClaims) */
    bool env_indexed, vols_indexed, claims_indexed;
    /* the container's resource GPU requests by name: 1 + the index in its launch's gpus */
    struct gl_map gpu_names;
    bool gpus_indexed;
};

static const char *text(struct pod *p, struct yt_node *n)
{
    if (!yt_is_scalar(n))
        return NULL;
    return gl_arena_strndup(&p->k->doc->arena, n->value, n->len);
}

static struct yt_node *get(struct pod *p, struct yt_node *m, const char *key)
{
    return yt_get(p->k->s, m, key, NULL);
}

/* ---- argv with $(VAR) references ---- */

/* Lists shorter than this are scanned for a name: a map costs more than a few compares
 * (its table is allocated and cleared), and most lists are short. */
#define SCAN_MAX 16

/* The item of list `seq` whose `name` is name[0..len) (the first such), NULL when none:
 * a long list through the map `index` of its names, made at the first look-up (*made). A
 * scan for each look-up made n^2 compares when every argument names an env var, or every
 * mount a volume (10,000 of each: 1.6 s). */
static struct yt_node *by_name(struct pod *p, struct yt_node *seq, struct gl_map *index,
                               bool *made, const char *name, size_t len)
{
    if (!yt_is_seq(seq))
        return NULL;
    if (seq->nitems < SCAN_MAX) {
        for (size_t i = 0; i < seq->nitems; i++) {
            struct yt_node *e = yt_item(p->k->s, seq, i);
            struct yt_node *n = get(p, e, "name");
            if (yt_is_scalar(n) && n->len == len && !memcmp(n->value, name, len))
                return e;
        }
        return NULL;
    }
    if (!*made) {
        *made = true;
        gl_map_init(index);
        for (size_t i = 0; i < seq->nitems; i++) {
            struct yt_node *e = yt_item(p->k->s, seq, i);
            struct yt_node *n = get(p, e, "name");
            bool added;
            if (yt_is_scalar(n)) {
                void **slot = gl_map_put(index, n->value, n->len, &added);
                if (added)
                    *slot = e;
            }
        }
    }
    return gl_map_get(index, name, len);
}

static void drop_names(struct gl_map *index, bool *made)
{
    if (*made)
        gl_map_free(index);
    *made = false;
}

/* Value of env var name[0..len) of the container: *known false when set but unknown. */
static bool env_value(struct pod *p, const char *name, size_t len, const char **value)
{
    struct yt_node *e = by_name(p, p->env, &p->env_names, &p->env_indexed, name, len);
    if (!e)
        return false;
    struct yt_node *v = get(p, e, "value");
    *value = yt_is_scalar(v) ? v->value : NULL;
    return true;
}

static void add_word(struct pod *p, struct yl_argv *av, struct yt_node *n)
{
    struct gl_arena *a = &p->k->doc->arena;
    if (!yt_is_scalar(n))
        return;
    struct gl_srcmap *m = gl_arena_alloc(a, sizeof *m);
    gl_srcmap_init(m, a);
    yt_scalar_srcmap(p->k->s, n, m);
    struct gl_loc loc = gl_srcmap_loc(m, 0);
    if (!memchr(n->value, '$', n->len)) {
        yl_argv_word(a, av, n->value, n->len, loc, m, false);
        return;
    }
    struct gl_buf b;
    gl_buf_init(&b);
    bool opaque = false, changed = false;
    for (size_t i = 0; i < n->len;) {
        if (n->value[i] == '$' && i + 1 < n->len && n->value[i + 1] == '$') {
            gl_buf_addc(&b, '$'); /* $$ escapes a reference */
            i += 2;
            changed = true;
            continue;
        }
        if (n->value[i] == '$' && i + 1 < n->len && n->value[i + 1] == '(') {
            const char *close = memchr(n->value + i + 2, ')', n->len - i - 2);
            const char *value = NULL;
            if (close && env_value(p, n->value + i + 2, (size_t)(close - n->value) - i - 2,
                                   &value)) {
                if (value)
                    gl_buf_adds(&b, value);
                else
                    opaque = true;
                changed = true;
                i = (size_t)(close - n->value) + 1;
                continue;
            }
        }
        gl_buf_addc(&b, n->value[i++]);
    }
    if (!changed) {
        yl_argv_word(a, av, n->value, n->len, loc, m, false);
    } else {
        const char *t = gl_arena_strndup(a, gl_buf_str(&b), b.len);
        yl_argv_word(a, av, t, b.len, loc, NULL, opaque);
    }
    gl_buf_free(&b);
}

static void add_words(struct pod *p, struct yl_argv *av, struct yt_node *list)
{
    for (size_t i = 0; yt_is_seq(list) && i < list->nitems; i++)
        add_word(p, av, yt_item(p->k->s, list, i));
}

/* ---- env ---- */

static bool add_env(struct pod *p)
{
    bool mps = false;
    for (size_t i = 0; yt_is_seq(p->env) && i < p->env->nitems; i++) {
        struct yt_node *e = yt_item(p->k->s, p->env, i);
        struct yt_node *name = get(p, e, "name");
        if (!yt_is_scalar(name))
            continue;
        struct yt_node *vk = NULL;
        struct yt_node *v = yt_get(p->k->s, e, "value", &vk);
        const char *value = yt_is_scalar(v) ? text(p, v) : NULL;
        if (vk && yt_is_null(v))
            value = "";
        struct gl_loc vloc = yt_is_scalar(v) ? yt_scalar_loc_at(p->k->s, v, 0) : name->loc;
        yl_add_env(p->k->doc, p->launch, name->value, name->loc, value, vloc);
        if (!strcmp(name->value, "NVIDIA_VISIBLE_DEVICES"))
            yl_add_gpu(p->k->doc, p->launch, GL_GPU_ENV_VISIBLE, value, vloc);
        if (!strcmp(name->value, "CUDA_MPS_PINNED_DEVICE_MEM_LIMIT"))
            mps = true;
    }
    return mps;
}

/* ---- volumes ---- */

static void add_mounts(struct pod *p, struct yt_node *ctr)
{
    struct gl_doc *doc = p->k->doc;
    struct yt_node *vols = get(p, p->spec, "volumes");
    struct yt_node *mounts = get(p, ctr, "volumeMounts");
    for (size_t i = 0; yt_is_seq(mounts) && i < mounts->nitems; i++) {
        struct yt_node *vm = yt_item(p->k->s, mounts, i);
        if (!yt_is_map(vm))
            continue;
        struct gl_mount *m = yl_add_mount(doc, p->launch);
        m->loc = m->ro_loc = vm->loc;
        m->type = GL_MOUNT_OTHER;
        m->target = text(p, get(p, vm, "mountPath"));
        struct yt_node *rk = NULL;
        struct yt_node *ro = yt_get(p->k->s, vm, "readOnly", &rk);
        if (rk) {
            m->readonly = yt_is_true(ro);
            m->ro_loc = rk->loc;
        }
        struct yt_node *name = get(p, vm, "name");
        struct yt_node *v = yt_is_scalar(name) ? by_name(p, vols, &p->vol_names,
                                                         &p->vols_indexed, name->value,
                                                         name->len)
                                               : NULL;
        if (v) {
            struct yt_node *x;
            if ((x = get(p, v, "hostPath"))) {
                m->type = GL_MOUNT_BIND;
                m->source = text(p, get(p, x, "path"));
            } else if ((x = get(p, v, "emptyDir"))) {
                struct yt_node *medium = get(p, x, "medium");
                m->type = yt_scalar_is(medium, "Memory") ? GL_MOUNT_EMPTYDIR_MEMORY
                                                         : GL_MOUNT_EMPTYDIR;
            } else if ((x = get(p, v, "persistentVolumeClaim"))) {
                m->type = GL_MOUNT_VOLUME;
                m->source = text(p, get(p, x, "claimName"));
                if (yt_is_true(get(p, x, "readOnly")))
                    m->readonly = true;
            } else if (get(p, v, "configMap") || get(p, v, "secret") || get(p, v, "projected") ||
                       get(p, v, "downwardAPI")) {
                m->type = GL_MOUNT_CONFIG;
            } else {
                /* nfs, csi, ephemeral, iscsi, cephfs, ...: persistent or external storage */
                static const char *const persistent[] = {
                    "nfs", "csi", "ephemeral", "iscsi", "cephfs", "rbd", "glusterfs",
                    "azureDisk", "azureFile", "gcePersistentDisk", "awsElasticBlockStore",
                    "fc", "flexVolume", "cinder", "portworxVolume", "vsphereVolume", "image"};
                for (size_t q = 0; q < sizeof persistent / sizeof persistent[0]; q++)
                    if (yt_get(p->k->s, v, persistent[q], NULL))
                        m->type = GL_MOUNT_VOLUME;
            }
        }
    }
}

/* ---- resources ---- */

/* A model-specific passthrough name of NVIDIA's Kata sandbox device plugin: the GPU's chip
 * (two capitals and three digits: GA100, GH100, AD102, TU104), then what the PCI ids
 * name (`GH100_H100_SXM5_80GB`). */
static bool passthrough_model(const char *m)
{
    return m[0] >= 'A' && m[0] <= 'Z' && m[1] >= 'A' && m[1] <= 'Z' && m[2] >= '0' &&
           m[2] <= '9' && m[3] >= '0' && m[3] <= '9' && m[4] >= '0' && m[4] <= '9';
}

enum gl_k8s_res gl_k8s_resource_kind(const char *k)
{
    if (!strcmp(k, "nvidia.com/gpu") || !strcmp(k, "nvidia.com/gpu.shared") ||
        !strcmp(k, "nvidia.com/pgpu") ||
        (gl_has_prefix(k, "nvidia.com/") && passthrough_model(k + 11)))
        return GL_K8S_RES_GPU;
    if (gl_has_prefix(k, "nvidia.com/mig-"))
        return GL_K8S_RES_MIG;
    if (!strcmp(k, "nvidia.com/gpumem") || !strcmp(k, "nvidia.com/gpumem-percentage"))
        return GL_K8S_RES_VENDOR_MEM;
    if (!strcmp(k, "nvidia.com/gpucores"))
        return GL_K8S_RES_VENDOR;
    return GL_K8S_RES_NONE;
}

/* Is request g one of the container's resource requests (not a DRA claim, nor the GPUs
 * its NVIDIA_VISIBLE_DEVICES names)? */
static bool resource_request(const struct gl_gpu_request *g)
{
    return g->kind != GL_GPU_K8S_DRA && g->kind != GL_GPU_ENV_VISIBLE;
}

/* Put request i (0-based) of the launch into the container's map (first of a name wins). */
static void map_gpu(struct pod *p, size_t i)
{
    const struct gl_gpu_request *g = &p->k->doc->launches[p->launch].gpus[i];
    bool added;
    void **slot = gl_map_put(&p->gpu_names, g->value, strlen(g->value), &added);
    if (added)
        *slot = (void *)(uintptr_t)(i + 1);
}

/* The container's request of resource `name` (limits and requests name it twice), or
 * NULL: its resource requests are the only ones of their kinds while its resources are
 * read (DRA claims, env and KAI's come apart). A scan while they are few; past SCAN_MAX a
 * map of them by name (a scan for each was n^2: 20,000 MIG profiles, 2.9 s). */
static struct gl_gpu_request *find_gpu(struct pod *p, const char *name)
{
    struct gl_launch *l = &p->k->doc->launches[p->launch];
    if (!p->gpus_indexed && l->ngpus < SCAN_MAX) {
        for (size_t i = 0; i < l->ngpus; i++)
            if (resource_request(&l->gpus[i]) && !strcmp(l->gpus[i].value, name))
                return &l->gpus[i];
        return NULL;
    }
    if (!p->gpus_indexed) { /* (from here on the map, kept up by add_gpu) */
        p->gpus_indexed = true;
        gl_map_init(&p->gpu_names);
        for (size_t i = 0; i < l->ngpus; i++)
            if (resource_request(&l->gpus[i]))
                map_gpu(p, i);
    }
    size_t i = (size_t)(uintptr_t)gl_map_get(&p->gpu_names, name, strlen(name));
    return i ? &l->gpus[i - 1] : NULL;
}

/* Add the request `name` of `kind` to the container and to its map (find_gpu). */
static struct gl_gpu_request *add_gpu(struct pod *p, enum gl_gpu_kind kind, const char *name,
                                      struct gl_loc loc)
{
    struct gl_gpu_request *g = yl_add_gpu(p->k->doc, p->launch, kind, name, loc);
    if (p->gpus_indexed)
        map_gpu(p, p->k->doc->launches[p->launch].ngpus - 1);
    return g;
}

/* cpu and memory of a requests/limits list: what the pod's QoS class rests on. */
static void add_quantity(struct pod *p, struct yt_node *k, struct yt_node *v, bool limits)
{
    struct gl_pod_facts *pf = &p->k->doc->launches[p->launch].pod;
    bool cpu = !strcmp(k->value, "cpu");
    if (!cpu && strcmp(k->value, "memory"))
        return;
    struct gl_quantity *q = cpu ? (limits ? &pf->cpu_limit : &pf->cpu_request)
                                : (limits ? &pf->memory_limit : &pf->memory_request);
    q->loc = yt_is_scalar(v) ? yt_scalar_loc_at(p->k->s, v, 0) : k->loc;
    q->value = yt_is_scalar(v) ? text(p, v) : "";
    size_t ts, te;
    q->opaque = !yt_is_scalar(v) ||
                yt_template_find(q->value, strlen(q->value), strlen(q->value), &ts, &te) ||
                strchr(q->value, '$');
}

/* A value written to be replaced: `<number of gpus>`, or an upper-case name with an
 * underscore (`PLACEHOLDER_NUM_GPU_PER_NODE`, `NUM_GPUS`), never a quantity. */
static bool placeholder(const char *v)
{
    size_t n = strlen(v);
    if (n >= 3 && v[0] == '<' && v[n - 1] == '>')
        return true;
    bool letter = false, underscore = false;
    for (size_t i = 0; i < n; i++) {
        if (v[i] >= 'A' && v[i] <= 'Z')
            letter = true;
        else if (v[i] == '_')
            underscore = true;
        else if (!(v[i] >= '0' && v[i] <= '9'))
            return false;
    }
    return letter && underscore && !(v[0] >= '0' && v[0] <= '9');
}

static void add_resource_list(struct pod *p, struct yt_node *list, bool limits)
{
    struct yt_pair *pairs;
    size_t n = yt_pairs(p->k->s, list, &pairs);
    for (size_t i = 0; i < n; i++) {
        struct yt_node *k = yt_deref(p->k->s, pairs[i].key);
        if (!yt_is_scalar(k))
            continue;
        add_quantity(p, k, pairs[i].value, limits);
        enum gl_k8s_res rk = gl_k8s_resource_kind(k->value);
        if (rk == GL_K8S_RES_NONE)
            continue;
        struct gl_gpu_request *g = find_gpu(p, k->value);
        if (!g) {
            enum gl_gpu_kind kind = rk == GL_K8S_RES_GPU   ? GL_GPU_K8S_RESOURCE
                                    : rk == GL_K8S_RES_MIG ? GL_GPU_K8S_MIG
                                                    : GL_GPU_K8S_VENDOR;
            g = add_gpu(p, kind, k->value, k->loc);
            g->mig = rk == GL_K8S_RES_MIG;
            g->mem_capped = rk == GL_K8S_RES_VENDOR_MEM;
            if (g->mig)
                p->k->doc->launches[p->launch].mig = true;
        }
        struct yt_node *v = pairs[i].value;
        /* a null quantity (`nvidia.com/gpu:`) is read by the API server as 0 */
        const char *val = yt_is_null(v) ? "0" : text(p, v);
        struct gl_loc vloc = yt_is_scalar(v) ? yt_scalar_loc_at(p->k->s, v, 0) : k->loc;
        size_t ts, te;
        /* a template expression, an envsubst `$VAR` / `${VAR}` or a placeholder that a
         * script replaces (`PLACEHOLDER_NUM_GPU`, `<gpus>`): the value is unknown */
        if (val && (yt_template_find(val, strlen(val), strlen(val), &ts, &te) ||
                    strchr(val, '$') || placeholder(val)))
            g->count_opaque = true;
        if (limits) {
            g->limit = val;
            g->limit_loc = vloc;
            g->loc = k->loc;
        } else {
            g->request = val;
            g->request_loc = vloc;
        }
        g->count = g->limit ? g->limit : g->request;
    }
}

/* What the file says of the pod's claim `name` (its template or claim), or NULL. *device
 * gets the devices it stands for, as a device id GL406 compares (NULL when the pod does not
 * say): "claim `NS/NAME`" (or "claim `NAME`" with no namespace) for a ResourceClaim by
 * name (every pod of that namespace that names it shares its devices), "claim `NAME` of pod #N" for one made from a template (the pod's containers
 * share it, other pods get their own; N counts the file's pod specs). */
static const struct k8s_claim *claim_of(struct pod *p, const char *name, const char **device)
{
    *device = NULL;
    struct yt_node *c = by_name(p, get(p, p->spec, "resourceClaims"), &p->claim_names,
                                &p->claims_indexed, name, strlen(name));
    if (c) { /* (the first of its name: the API server refuses a pod naming two alike) */
        struct yt_node *t = get(p, c, "resourceClaimTemplateName"), *src = c;
        if (!t)
            t = get(p, c, "resourceClaimName");
        if (!t) { /* older source: {resourceClaimTemplateName} */
            src = get(p, c, "source");
            t = get(p, src, "resourceClaimTemplateName");
            if (!t)
                t = get(p, src, "resourceClaimName");
        }
        bool by_name = t && t == get(p, src, "resourceClaimName");
        const char *ns = p->k->ns ? p->k->ns : "", *slash = p->k->ns ? "/" : "";
        if (yt_is_scalar(t) && !strchr(t->value, '$') && !strstr(t->value, "{{"))
            *device = by_name ? gl_arena_printf(&p->k->doc->arena, "claim `%s%s%s`", ns, slash,
                                                t->value)
                              : gl_arena_printf(&p->k->doc->arena, "claim `%s` of pod #%u",
                                                t->value, p->k->npods);
        if (yt_is_scalar(t))
            return k8s_claim_named(p->k, p->k->ns, t->value);
    }
    return NULL;
}

static void add_claims(struct pod *p, struct yt_node *res)
{
    struct yt_node *claims = get(p, res, "claims");
    for (size_t i = 0; yt_is_seq(claims) && i < claims->nitems; i++) {
        struct yt_node *c = yt_item(p->k->s, claims, i);
        struct yt_node *name = get(p, c, "name");
        if (!yt_is_scalar(name))
            continue;
        const char *device;
        const struct k8s_claim *claim = claim_of(p, name->value, &device);
        if (claim && claim->not_gpu)
            continue; /* an IMEX channel, a NIC: no GPU */
        struct gl_doc *doc = p->k->doc;
        struct gl_gpu_request *g =
            yl_add_gpu(doc, p->launch, GL_GPU_K8S_DRA, name->value, name->loc);
        struct gl_launch *l = &doc->launches[p->launch];
        if (claim && claim->mps) {
            g->mps = true;
            g->mem_capped = claim->mem_capped;
            l->mig = true;
        } else if (device && !l->pod.init) {
            /* the claim's devices, which the file's pods (running together) may share;
             * an init container runs before the others. `request: R` takes the devices
             * of the claim's request R only: another request's are others. */
            struct yt_node *req = get(p, c, "request");
            g->device_ids = gl_arena_alloc(&doc->arena, sizeof *g->device_ids);
            g->device_ids[0] = !req ? device
                               : yt_is_scalar(req)
                                   ? gl_arena_printf(&doc->arena, "%s (request `%s`)", device,
                                                     req->value)
                                   : NULL;
            g->ndevice_ids = g->device_ids[0] != NULL;
            l->group = doc->path;
        }
    }
}

/* ---- a container ---- */

static bool add_container(struct pod *p, struct yt_node *ctr, bool init, const char **ids,
                          size_t nids)
{
    struct gl_doc *doc = p->k->doc;
    struct yt_node *name = get(p, ctr, "name");
    struct gl_loc loc = yt_is_scalar(name) ? name->loc : ctr->loc;
    p->launch = yl_begin(doc, GL_LAUNCH_K8S, "kubernetes", loc, text(p, name));
    doc->launches[p->launch].ignore_ids = ids;
    doc->launches[p->launch].nignore_ids = nids;
    struct yt_node *image = get(p, ctr, "image");
    if (yt_is_scalar(image) && image->len && !yt_is_null(image))
        yl_set_image(doc, p->launch, text(p, image), yt_scalar_loc_at(p->k->s, image, 0),
                     GL_REF_LAUNCH, false);
    else if (p->k->core_kind && (!image || yt_is_null(image) || yt_is_scalar(image)))
        /* a patch (kustomize, kubectl patch) names the container it changes: no pod runs
           without an image, so what it lacks its base gives. An image that is a
           collection (an unquoted template's `{{ .Values.image }}` reads as a flow
           mapping) is there, only unknown: the container is judged as written */
        doc->launches[p->launch].fragment = true;
    p->env = get(p, ctr, "env");
    drop_names(&p->env_names, &p->env_indexed); /* (the last container's) */
    drop_names(&p->gpu_names, &p->gpus_indexed);
    struct yl_argv av = {0};
    add_words(p, &av, get(p, ctr, "command"));
    add_words(p, &av, get(p, ctr, "args"));
    yl_argv_finish(doc, p->launch, &av);
    bool mps = add_env(p);
    add_mounts(p, ctr);
    struct yt_node *res_key = NULL;
    struct yt_node *res = yt_get(p->k->s, ctr, "resources", &res_key);
    struct gl_pod_facts *pf = &doc->launches[p->launch].pod;
    pf->pod = p->k->npods;
    pf->init = init;
    pf->resources_loc = res_key ? res_key->loc : loc;
    pf->pod_resources = get(p, p->spec, "resources") != NULL;
    add_resource_list(p, get(p, res, "limits"), true);
    add_resource_list(p, get(p, res, "requests"), false);
    add_claims(p, res);
    struct gl_launch *l = &doc->launches[p->launch];
    l->workdir = text(p, get(p, ctr, "workingDir"));
    struct yt_node *ipc_key = NULL;
    struct yt_node *ipc = yt_get(p->k->s, p->spec, "hostIPC", &ipc_key);
    if (yt_is_true(ipc)) {
        l->ipc = "host";
        l->ipc_loc = ipc_key->loc;
    }
    bool gpu = false;
    for (size_t i = 0; i < l->ngpus; i++) {
        if (mps) {
            l->gpus[i].mps = true;
            l->gpus[i].mem_capped = true;
            l->mig = true;
        }
        if (l->gpus[i].kind != GL_GPU_ENV_VISIBLE)
            gpu = true;
    }
    return gpu;
}

/* KAI scheduler GPU sharing: the pod annotations `gpu-fraction` / `gpu-memory` give its
 * containers (or the one `gpu-fraction-container-name` names, an init container too) a share of one GPU that
 * the scheduler enforces: a vendor GPU request with an enforced cap. */
static bool kai_share(struct pod *p, struct yt_node *owner, size_t first)
{
    bool added = false;
    struct yt_node *ann = get(p, get(p, owner, "metadata"), "annotations");
    struct yt_node *key = NULL;
    struct yt_node *v = yt_get(p->k->s, ann, "gpu-fraction", &key);
    if (!key)
        v = yt_get(p->k->s, ann, "gpu-memory", &key);
    if (!key)
        return false;
    struct yt_node *only = get(p, ann, "gpu-fraction-container-name");
    struct gl_doc *doc = p->k->doc;
    for (size_t i = first; i < doc->nlaunches; i++) {
        struct gl_launch *l = &doc->launches[i];
        /* the named container, init containers too (KAI's gpu-sharing-init-container
         * example); without a name, the regular containers */
        if (yt_is_scalar(only) ? !l->name || strcmp(l->name, only->value) : l->pod.init)
            continue;
        struct gl_gpu_request *g =
            yl_add_gpu(doc, (int)i, GL_GPU_K8S_VENDOR, key->value, key->loc);
        g->mem_capped = true;
        g->count = g->limit = yt_is_scalar(v) ? text(p, v) : NULL;
        g->limit_loc = yt_is_scalar(v) ? yt_scalar_loc_at(p->k->s, v, 0) : key->loc;
        added = true;
    }
    return added;
}

struct yt_node *k8s_runner(struct yt_stream *s, struct yt_node *m)
{
    struct yt_node *c = yt_get(s, m, "runner", NULL);
    if (!yt_is_map(c) || !yt_is_scalar(yt_get(s, c, "image", NULL)))
        return NULL;
    static const char *const keys[] = {"name", "command", "args", "resources", NULL};
    for (size_t i = 0; keys[i]; i++)
        if (yt_get(s, c, keys[i], NULL))
            return c;
    return NULL;
}

bool k8s_pod(struct k8s *k, struct yt_node *spec, struct yt_node *owner, const char **ids,
             size_t nids)
{
    struct pod p = {.k = k, .spec = spec, .launch = -1};
    bool gpu = false;
    size_t first = k->doc->nlaunches;
    k->npods++;
    static const char *const lists[] = {"initContainers", "containers"};
    for (size_t li = 0; li < 2; li++) {
        struct yt_node *ctrs = get(&p, spec, lists[li]);
        for (size_t i = 0; yt_is_seq(ctrs) && i < ctrs->nitems; i++) {
            struct yt_node *c = yt_item(k->s, ctrs, i);
            if (yt_is_map(c))
                gpu |= add_container(&p, c, li == 0, ids, nids);
            if (gl_arena_over(&k->doc->arena)) { /* (the container that took the rest) */
                gl_doc_fail_limit(k->doc, GL_LIMIT_PARSE_MEMORY, c->loc);
                goto done;
            }
        }
    }
    struct yt_node *runner = k8s_runner(k->s, spec);
    if (runner)
        gpu |= add_container(&p, runner, false, ids, nids);
    if (owner && kai_share(&p, owner, first))
        gpu = true;
done:
    drop_names(&p.env_names, &p.env_indexed);
    drop_names(&p.gpu_names, &p.gpus_indexed);
    drop_names(&p.vol_names, &p.vols_indexed);
    drop_names(&p.claim_names, &p.claims_indexed);
    return gpu;
}
