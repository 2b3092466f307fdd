/* SPDX-License-Identifier: Apache-2.0 */
/* compose.c: docker compose services -> launches (see compose.h). */
#include "parsers/manifest/compose.h"

#include <ctype.h>
#include <string.h>

#include "linter/core/inputs.h"
#include "parsers/manifest/compose_common.h"
#include "parsers/manifest/compose_env.h"
#include "parsers/manifest/compose_extends.h"
#include "parsers/shell/docker_run_flags.h"
#include "parsers/yaml/yaml_tree.h"

struct cz {
    struct gl_doc *doc;
    struct yt_stream *s;        /* the stream of the layer being read */
    const struct gl_loc *pin;   /* a base in another file: every position is this */
    int launch;
    struct cz_env *env;
    struct cz_layer *layers;    /* of the service being built */
    size_t nlayers, layer;
    struct gl_map seen;         /* env keys and volume targets -> layer + 1 */
    struct gl_map waited;       /* services another one waits for to complete */
    struct gl_map deps_read;    /* depends_on maps read (keyed by node address): an alias
                                   that many services share is read once */
};

/* An interpolated scalar value with the positions of its bytes. */
struct cz_val {
    const char *text;
    size_t len;
    bool opaque;
    struct gl_srcmap map;
    struct gl_loc loc; /* first byte */
};

/* Where node n is, as the linted file can say it. */
static struct gl_loc at(const struct cz *c, const struct yt_node *n)
{
    return c->pin ? *c->pin : n->loc;
}

/* The image name an interpolated `image:` stands for, with each variable (whatever .env
 * says of it) as one '*' and a `${VAR:-default}` as its default: a pattern of the build
 * outputs it may name (linter/core/model_ref.h). Wider than the value: it can only make
 * more references the project's own, never judge one. */
static const char *build_pattern(struct gl_arena *a, const struct yt_node *n)
{
    struct gl_buf pat;
    gl_buf_init(&pat);
    const char *in = n->value;
    size_t len = n->len;
    for (size_t i = 0; i < len;) {
        if (in[i] != '$' || i + 1 >= len || in[i + 1] == '$') {
            gl_buf_addc(&pat, in[i]);
            i += in[i] == '$' && i + 1 < len ? 2 : 1;
            continue;
        }
        size_t j = i + 1;
        const char *def = NULL;
        size_t deflen = 0;
        if (in[j] == '{') {
            const char *close = memchr(in + j, '}', len - j);
            const char *dash = memchr(in + j, '-', close ? (size_t)(close - in - j) : 0);
            if (close && dash && dash > in + j && dash[-1] == ':') {
                def = dash + 1;
                deflen = (size_t)(close - def);
            }
            j = close ? (size_t)(close - in) + 1 : len;
        } else {
            while (j < len && (isalnum((unsigned char)in[j]) || in[j] == '_'))
                j++;
        }
        if (def && !memchr(def, '$', deflen))
            gl_buf_add(&pat, def, deflen);
        else if (!pat.len || pat.data[pat.len - 1] != '*')
            gl_buf_addc(&pat, '*');
        i = j;
    }
    const char *out = gl_arena_strdup(a, gl_buf_str(&pat));
    gl_buf_free(&pat);
    return out;
}

static bool cz_value(struct cz *c, const struct yt_node *n, struct cz_val *v)
{
    struct gl_arena *a = &c->doc->arena;
    memset(v, 0, sizeof *v);
    gl_srcmap_init(&v->map, a);
    if (!yt_is_scalar(n))
        return false;
    struct gl_srcmap inmap;
    gl_srcmap_init(&inmap, a);
    yt_scalar_srcmap(c->s, n, &inmap);
    v->loc = gl_srcmap_loc(&inmap, 0);
    if (!memchr(n->value, '$', n->len)) {
        v->text = n->value;
        v->len = n->len;
        v->map = inmap;
    } else {
        struct gl_buf out;
        gl_buf_init(&out);
        cz_interpolate(c->doc, c->env, n->value, n->len, &inmap, &out, &v->map, &v->opaque);
        v->len = out.len;
        v->text = gl_arena_strndup(a, out.len ? out.data : "", out.len);
        gl_buf_free(&out);
    }
    if (c->pin) {
        gl_srcmap_init(&v->map, a);
        v->loc = *c->pin;
    }
    if (!v->map.n)
        gl_srcmap_add(&v->map, 0, v->loc.line, v->loc.col);
    return true;
}

static struct gl_loc val_loc(const struct cz_val *v, size_t off)
{
    return gl_srcmap_loc(&v->map, off);
}

static struct yt_node *get(struct cz *c, struct yt_node *map, const char *key)
{
    return yt_get(c->s, map, key, NULL);
}

/* ---- layers (compose_extends.h) ---- */

static void use_layer(struct cz *c, size_t i)
{
    c->layer = i;
    c->s = c->layers[i].s;
    c->pin = c->layers[i].foreign ? &c->layers[i].pin : NULL;
}

/* How many layers, from the first, give service key `key`: compose's merge tags cut the
 * layers below the one that writes `key: !reset ...` (the key is then unset: that layer
 * gives nothing either) or `key: !override ...` (that layer's value alone). */
static size_t layers_for(struct cz *c, const char *key)
{
    for (size_t i = 0; i < c->nlayers; i++) {
        struct yt_node *v = yt_get(c->layers[i].s, c->layers[i].svc, key, NULL);
        const char *tag = v ? v->tag : NULL;
        if (tag && !strcmp(tag, "!reset"))
            return i;
        if (tag && !strcmp(tag, "!override"))
            return i + 1;
    }
    return c->nlayers;
}

/* svc[key] (or svc[key][sub]) from the first layer that has it; that layer is used. */
static struct yt_node *lget(struct cz *c, const char *key, const char *sub)
{
    for (size_t i = 0, n = layers_for(c, key); i < n; i++) {
        struct yt_stream *s = c->layers[i].s;
        struct yt_node *v = yt_get(s, c->layers[i].svc, key, NULL);
        if (v && sub)
            v = yt_get(s, v, sub, NULL);
        if (v) {
            use_layer(c, i);
            return v;
        }
    }
    return NULL;
}

/* Is name[0..len) (an env key, a volume target) given by a layer before the current one?
 * If not, it is the current layer's. */
static bool overridden(struct cz *c, const char *name, size_t len)
{
    if (c->nlayers < 2)
        return false;
    void **slot = gl_map_put(&c->seen, name, len, NULL);
    if (*slot && (size_t)(uintptr_t)*slot != c->layer + 1)
        return true;
    *slot = (void *)(uintptr_t)(c->layer + 1);
    return false;
}

/* ---- command / entrypoint ---- */

static void add_command(struct cz *c, struct yl_argv *av, struct yt_node *n)
{
    struct gl_arena *a = &c->doc->arena;
    if (yt_is_scalar(n) && !yt_is_null(n)) {
        struct cz_val v;
        cz_value(c, n, &v);
        struct gl_srcmap *m = gl_arena_alloc(a, sizeof *m);
        *m = v.map;
        yl_argv_shell(a, av, v.text, v.len, m);
        return;
    }
    for (size_t i = 0; yt_is_seq(n) && i < n->nitems; i++) {
        struct yt_node *it = yt_item(c->s, n, i);
        struct cz_val v;
        if (!cz_value(c, it, &v))
            continue;
        struct gl_srcmap *m = gl_arena_alloc(a, sizeof *m);
        *m = v.map;
        yl_argv_word(a, av, v.text, v.len, v.loc, m, v.opaque);
    }
}

/* ---- volumes ---- */

static bool host_path(const char *s)
{
    return s[0] == '/' || s[0] == '.' || s[0] == '~' || s[0] == '$' ||
           (isalpha((unsigned char)s[0]) && s[1] == ':' && (s[2] == '\\' || s[2] == '/'));
}

static void short_volume(struct cz *c, struct yt_node *n)
{
    struct cz_val v;
    if (!cz_value(c, n, &v) || !v.len)
        return;
    struct gl_arena *a = &c->doc->arena;
    /* split at ':' (not the drive colon of C:\...) */
    size_t cut[3], ncut = 0;
    for (size_t i = 0; i < v.len && ncut < 3; i++)
        if (v.text[i] == ':' && !(i == 1 && isalpha((unsigned char)v.text[0]) &&
                                  i + 1 < v.len && (v.text[2] == '\\' || v.text[2] == '/')))
            cut[ncut++] = i;
    struct gl_mount *m = yl_add_mount(c->doc, c->launch);
    m->loc = v.loc;
    m->ro_loc = val_loc(&v, v.len);
    if (ncut == 0) { /* /ctr only: an anonymous volume */
        m->type = GL_MOUNT_VOLUME;
        m->target = gl_arena_strndup(a, v.text, v.len);
        return;
    }
    m->source = gl_arena_strndup(a, v.text, cut[0]);
    size_t tend = ncut > 1 ? cut[1] : v.len;
    m->target = gl_arena_strndup(a, v.text + cut[0] + 1, tend - cut[0] - 1);
    m->type = host_path(m->source) ? GL_MOUNT_BIND : GL_MOUNT_VOLUME;
    if (ncut > 1) {
        /* mode: comma-separated (ro, rw, z, Z, nocopy, ...) */
        size_t i = cut[1] + 1;
        while (i < v.len) {
            size_t j = i;
            while (j < v.len && v.text[j] != ',')
                j++;
            if (j - i == 2 && !memcmp(v.text + i, "ro", 2)) {
                m->readonly = true;
                m->ro_loc = val_loc(&v, i);
            }
            i = j + 1;
        }
    }
}

static const char *text_of(struct cz *c, struct yt_node *n, bool *opaque)
{
    struct cz_val v;
    if (!cz_value(c, n, &v))
        return NULL;
    if (opaque)
        *opaque = v.opaque;
    return gl_arena_strndup(&c->doc->arena, v.text, v.len);
}

static void long_volume(struct cz *c, struct yt_node *n)
{
    struct gl_mount *m = yl_add_mount(c->doc, c->launch);
    m->loc = m->ro_loc = at(c, n);
    const char *type = text_of(c, get(c, n, "type"), NULL);
    m->source = text_of(c, get(c, n, "source"), NULL);
    m->target = text_of(c, get(c, n, "target"), NULL);
    if (!type)
        type = m->source && host_path(m->source) ? "bind" : "volume";
    m->type = !strcmp(type, "bind")     ? GL_MOUNT_BIND
              : !strcmp(type, "volume") ? GL_MOUNT_VOLUME
              : !strcmp(type, "tmpfs")  ? GL_MOUNT_TMPFS
                                        : GL_MOUNT_OTHER;
    struct yt_node *k = NULL;
    struct yt_node *ro = yt_get(c->s, n, "read_only", &k);
    if (k) {
        m->readonly = yt_is_true(ro);
        m->ro_loc = at(c, k);
    }
}

static void layer_volumes(struct cz *c, struct yt_node *svc)
{
    struct yt_node *vols = get(c, svc, "volumes");
    for (size_t i = 0; yt_is_seq(vols) && i < vols->nitems; i++) {
        struct yt_node *it = yt_item(c->s, vols, i);
        if (yt_is_scalar(it))
            short_volume(c, it);
        else if (yt_is_map(it))
            long_volume(c, it);
    }
    struct yt_node *tmpfs = get(c, svc, "tmpfs");
    size_t n = yt_is_seq(tmpfs) ? tmpfs->nitems : yt_is_scalar(tmpfs) ? 1 : 0;
    for (size_t i = 0; i < n; i++) {
        struct yt_node *it = yt_is_seq(tmpfs) ? yt_item(c->s, tmpfs, i) : tmpfs;
        struct cz_val v;
        if (!cz_value(c, it, &v) || !v.len)
            continue;
        const char *colon = memchr(v.text, ':', v.len);
        struct gl_mount *m = yl_add_mount(c->doc, c->launch);
        m->type = GL_MOUNT_TMPFS;
        m->target = gl_arena_strndup(&c->doc->arena, v.text,
                                     colon ? (size_t)(colon - v.text) : v.len);
        m->loc = m->ro_loc = v.loc;
    }
}

/* Volumes of every layer, merged by target: the first layer's mount of a target wins. */
static void add_volumes(struct cz *c)
{
    for (size_t i = 0, n = layers_for(c, "volumes"); i < n; i++) {
        use_layer(c, i);
        struct gl_launch *l = &c->doc->launches[c->launch];
        size_t before = l->nmounts, keep = before;
        layer_volumes(c, c->layers[i].svc);
        for (size_t k = before; k < l->nmounts; k++) {
            const char *t = l->mounts[k].target;
            if (!t || !overridden(c, t, strlen(t)))
                l->mounts[keep++] = l->mounts[k];
        }
        l->nmounts = keep;
    }
}

/* ---- GPUs ---- */

static bool gpu_capability(const char *s)
{
    static const char *const caps[] = {"gpu", "compute", "utility", "graphics", "video",
                                       "display", "compat32"};
    for (size_t i = 0; i < sizeof caps / sizeof caps[0]; i++)
        if (!strcmp(s, caps[i]))
            return true;
    return false;
}

/* A device mapping of deploy.resources.reservations.devices (or of gpus:). */
static void gpu_device(struct cz *c, struct yt_node *d, enum gl_gpu_kind kind)
{
    struct gl_arena *a = &c->doc->arena;
    const char *driver = text_of(c, get(c, d, "driver"), NULL);
    struct yt_node *caps_key = NULL;
    struct yt_node *caps = yt_get(c->s, d, "capabilities", &caps_key);
    const char **capv = NULL;
    size_t ncap = 0, capcap = 0;
    bool gpuish = driver && !strcmp(driver, "nvidia");
    /* capabilities: a list of strings (the spec also allows a list of lists) */
    for (size_t i = 0; yt_is_seq(caps) && i < caps->nitems; i++) {
        struct yt_node *it = yt_item(c->s, caps, i);
        size_t nsub = yt_is_seq(it) ? it->nitems : 1;
        for (size_t j = 0; j < nsub; j++) {
            struct yt_node *cap = yt_is_seq(it) ? yt_item(c->s, it, j) : it;
            const char *t = text_of(c, cap, NULL);
            if (!t)
                continue;
            *GL_APPEND(a, capv, ncap, capcap) = t;
            gpuish |= gpu_capability(t);
        }
    }
    if (kind == GL_GPU_COMPOSE_DEVICE && ncap && !gpuish)
        return; /* some other device (a TPU, an FPGA) */
    struct yt_node *count_key = NULL, *ids_key = NULL;
    struct yt_node *count = yt_get(c->s, d, "count", &count_key);
    struct yt_node *ids = yt_get(c->s, d, "device_ids", &ids_key);
    const char *count_text = text_of(c, count, NULL);
    const char **idv = NULL;
    size_t nid = 0, capid = 0;
    for (size_t i = 0; yt_is_seq(ids) && i < ids->nitems; i++) {
        const char *t = text_of(c, yt_item(c->s, ids, i), NULL);
        if (t)
            *GL_APPEND(a, idv, nid, capid) = t;
    }
    const char *value = count_text ? count_text : nid ? idv[0] : driver ? driver : "";
    struct gl_gpu_request *g = yl_add_gpu(c->doc, c->launch, kind, value, at(c, d));
    g->count = count_text;
    g->device_ids = idv;
    g->ndevice_ids = nid;
    g->capabilities = capv;
    g->ncapabilities = ncap;
    if (count_key)
        g->count_key_loc = at(c, count_key);
    if (ids_key)
        g->device_ids_key_loc = at(c, ids_key);
    if (caps_key)
        g->capabilities_key_loc = at(c, caps_key);
    struct yt_pair *opts;
    size_t nopts = yt_pairs(c->s, get(c, d, "options"), &opts);
    for (size_t i = 0; i < nopts; i++) {
        struct yt_node *k = yt_deref(c->s, opts[i].key);
        if (!yt_is_scalar(k) || !strstr(k->value, "mem"))
            continue;
        g->memory = text_of(c, opts[i].value, NULL);
        if (!g->memory)
            g->memory = k->value;
        g->memory_loc = at(c, k);
        break;
    }
}

/* Docker Swarm's generic resources (`generic_resources: [{discrete_resource_spec: {kind:
 * NVIDIA-GPU, value: 1}}]`): the engine advertises its GPUs under a kind the operator names
 * (`NVIDIA-GPU`, `NVIDIA_GPU`, `gpu`), and a task that reserves one gets it. */
static void swarm_gpus(struct cz *c, struct yt_node *resv)
{
    struct yt_node *generic = get(c, resv, "generic_resources");
    for (size_t i = 0; yt_is_seq(generic) && i < generic->nitems; i++) {
        struct yt_node *spec = get(c, yt_item(c->s, generic, i), "discrete_resource_spec");
        const char *kind = text_of(c, get(c, spec, "kind"), NULL);
        if (!kind || !strcasestr(kind, "gpu"))
            continue;
        const char *value = text_of(c, get(c, spec, "value"), NULL);
        struct gl_gpu_request *g =
            yl_add_gpu(c->doc, c->launch, GL_GPU_SWARM_GENERIC, kind, at(c, spec));
        g->count = value;
    }
}

/* The device lists of one layer (compose appends them): its deploy reservations and its
 * `devices`, each when `deploy` / `devices` is not cut there (layers_for). */
static void layer_devices(struct cz *c, struct yt_node *svc, bool deploy_too, bool devices_too)
{
    struct yt_node *deploy = deploy_too ? get(c, svc, "deploy") : NULL;
    struct yt_node *res = get(c, deploy, "resources");
    struct yt_node *resv = get(c, res, "reservations");
    struct yt_node *devs = get(c, resv, "devices");
    swarm_gpus(c, resv);
    for (size_t i = 0; yt_is_seq(devs) && i < devs->nitems; i++) {
        struct yt_node *d = yt_item(c->s, devs, i);
        if (yt_is_map(d))
            gpu_device(c, d, GL_GPU_COMPOSE_DEVICE);
    }
    struct yt_node *devices = devices_too ? get(c, svc, "devices") : NULL;
    for (size_t i = 0; yt_is_seq(devices) && i < devices->nitems; i++) {
        struct cz_val v;
        if (!cz_value(c, yt_item(c->s, devices, i), &v) || v.opaque)
            continue;
        const char *t = gl_arena_strndup(&c->doc->arena, v.text, v.len);
        const char *eq = strchr(t, '='), *slash = strchr(t, '/');
        if (t[0] != '/' && eq && slash && slash < eq)
            yl_add_gpu(c->doc, c->launch, GL_GPU_CDI, t, v.loc);
        else if (yl_is_gpu_node(t))
            yl_add_gpu(c->doc, c->launch, GL_GPU_DEVICE_NODE, t, v.loc);
    }
}

static void add_gpus(struct cz *c)
{
    size_t deploy = layers_for(c, "deploy"), devices = layers_for(c, "devices");
    for (size_t i = 0; i < deploy || i < devices; i++) {
        use_layer(c, i);
        layer_devices(c, c->layers[i].svc, i < deploy, i < devices);
    }
    struct yt_node *gpus = lget(c, "gpus", NULL);
    if (yt_is_scalar(gpus) && !yt_is_null(gpus)) {
        struct cz_val v;
        cz_value(c, gpus, &v);
        const char *t = gl_arena_strndup(&c->doc->arena, v.text, v.len);
        struct gl_gpu_request *g = yl_add_gpu(c->doc, c->launch, GL_GPU_COMPOSE_GPUS, t, v.loc);
        g->count = t;
    }
    for (size_t i = 0; yt_is_seq(gpus) && i < gpus->nitems; i++) {
        struct yt_node *d = yt_item(c->s, gpus, i);
        if (yt_is_map(d))
            gpu_device(c, d, GL_GPU_COMPOSE_GPUS);
    }
    struct yt_node *runtime = lget(c, "runtime", NULL);
    if (yt_scalar_is(runtime, "nvidia"))
        yl_add_gpu(c->doc, c->launch, GL_GPU_RUNTIME, "nvidia", at(c, runtime));
}

/* ---- environment and the rest ---- */

static void env_entry(struct cz *c, const char *key, struct gl_loc kloc, const char *value,
                      struct gl_loc vloc)
{
    if (overridden(c, key, strlen(key)))
        return;
    yl_add_env(c->doc, c->launch, key, kloc, value, vloc);
    if (!strcmp(key, "NVIDIA_VISIBLE_DEVICES")) {
        struct gl_gpu_request *g =
            yl_add_gpu(c->doc, c->launch, GL_GPU_ENV_VISIBLE, value, value ? vloc : kloc);
        (void)g;
    }
}

static void layer_env(struct cz *c, struct yt_node *svc)
{
    struct gl_arena *a = &c->doc->arena;
    struct yt_node *env = get(c, svc, "environment");
    for (size_t i = 0; yt_is_seq(env) && i < env->nitems; i++) {
        struct cz_val v;
        if (!cz_value(c, yt_item(c->s, env, i), &v) || !v.len)
            continue;
        const char *eq = memchr(v.text, '=', v.len);
        size_t klen = eq ? (size_t)(eq - v.text) : v.len;
        const char *key = gl_arena_strndup(a, v.text, klen);
        const char *value = NULL;
        if (eq && !v.opaque)
            value = gl_arena_strndup(a, eq + 1, v.len - klen - 1);
        env_entry(c, key, v.loc, value, eq ? val_loc(&v, klen + 1) : v.loc);
    }
    struct yt_pair *pairs;
    size_t n = yt_is_map(env) ? yt_pairs(c->s, env, &pairs) : 0;
    for (size_t i = 0; i < n; i++) {
        struct yt_node *k = yt_deref(c->s, pairs[i].key);
        if (!yt_is_scalar(k))
            continue;
        struct cz_val v;
        const char *value = NULL;
        struct gl_loc vloc = at(c, k);
        if (!yt_is_null(pairs[i].value) && cz_value(c, pairs[i].value, &v)) {
            vloc = v.loc;
            if (!v.opaque)
                value = gl_arena_strndup(a, v.text, v.len);
        }
        env_entry(c, k->value, at(c, k), value, vloc);
    }
}

/* Environment of every layer, merged by key: the first layer's value wins. */
static void add_env(struct cz *c)
{
    for (size_t i = 0, n = layers_for(c, "environment"); i < n; i++) {
        use_layer(c, i);
        layer_env(c, c->layers[i].svc);
    }
}

/* `privileged: true`, or IPC_LOCK / ALL in `cap_add`: the service holds CAP_IPC_LOCK. */
static void add_ipc_lock(struct cz *c, struct gl_launch *l)
{
    bool opaque = true;
    const char *priv = text_of(c, lget(c, "privileged", NULL), &opaque);
    l->ipc_lock = priv && !opaque &&
                  (!strcmp(priv, "true") || !strcmp(priv, "True") || !strcmp(priv, "TRUE"));
    struct yt_node *caps = lget(c, "cap_add", NULL);
    struct cz_val v;
    for (size_t i = 0; !l->ipc_lock && yt_is_seq(caps) && i < caps->nitems; i++)
        l->ipc_lock = cz_value(c, caps->items[i], &v) && !v.opaque &&
                      gl_cap_locks_memory(v.text, v.len);
}

static void add_misc(struct cz *c)
{
    struct gl_launch *l = &c->doc->launches[c->launch];
    l->mounts_unseen = lget(c, "volumes_from", NULL) != NULL;
    struct cz_val v;
    struct yt_node *shm = lget(c, "shm_size", NULL);
    if (cz_value(c, shm, &v)) {
        l->shm_loc = v.loc;
        l->shm_bytes = v.opaque ? -1 : yl_size_bytes(v.text, v.len);
    }
    struct yt_node *ipc = lget(c, "ipc", NULL);
    if (cz_value(c, ipc, &v)) {
        l->ipc = gl_arena_strndup(&c->doc->arena, v.text, v.len);
        l->ipc_loc = v.loc;
    }
    struct yt_node *memlock = lget(c, "ulimits", "memlock");
    if (cz_value(c, memlock, &v)) {
        l->memlock = gl_arena_strndup(&c->doc->arena, v.text, v.len);
        l->memlock_loc = v.loc;
    } else if (yt_is_map(memlock)) {
        const char *soft = text_of(c, get(c, memlock, "soft"), NULL);
        const char *hard = text_of(c, get(c, memlock, "hard"), NULL);
        l->memlock = gl_arena_printf(&c->doc->arena, "%s:%s", soft ? soft : "",
                                     hard ? hard : "");
        l->memlock_loc = at(c, memlock);
    }
    add_ipc_lock(c, l);
    l->workdir = text_of(c, lget(c, "working_dir", NULL), NULL);
    struct yt_node *profiles = lget(c, "profiles", NULL);
    struct gl_buf b;
    gl_buf_init(&b);
    for (size_t i = 0; yt_is_seq(profiles) && i < profiles->nitems; i++) {
        const char *p = text_of(c, yt_item(c->s, profiles, i), NULL);
        if (!p)
            continue;
        if (b.len)
            gl_buf_addc(&b, ',');
        gl_buf_adds(&b, p);
    }
    if (b.len)
        l->profile = gl_arena_strdup(&c->doc->arena, gl_buf_str(&b));
    gl_buf_free(&b);
}

/* Does some layer have `build`? */
static bool has_build(struct cz *c)
{
    for (size_t i = 0, n = layers_for(c, "build"); i < n; i++)
        if (yt_get(c->layers[i].s, c->layers[i].svc, "build", NULL))
            return true;
    return false;
}

/* The services this one waits for to complete before it starts (`depends_on: {NAME:
 * {condition: service_completed_successfully}}`): they prepare it, as init containers
 * prepare a pod. */
static void note_waited(struct cz *c)
{
    struct yt_node *deps = lget(c, "depends_on", NULL); /* (sets c->s: its layer's) */
    deps = yt_deref(c->s, deps);
    bool added;
    if (!deps || gl_map_get(&c->deps_read, (const char *)&deps, sizeof deps))
        return;
    struct yt_node **key = gl_arena_take(&c->doc->arena, sizeof *key);
    *key = deps;
    *gl_map_put(&c->deps_read, (const char *)key, sizeof *key, &added) = deps;
    struct yt_pair *p;
    size_t n = yt_pairs(c->s, deps, &p);
    for (size_t i = 0; i < n; i++) {
        struct yt_node *k = yt_deref(c->s, p[i].key);
        struct yt_node *cond = get(c, yt_deref(c->s, p[i].value), "condition");
        if (yt_is_scalar(k) && yt_is_scalar(cond) &&
            !strcmp(cond->value, "service_completed_successfully"))
            *gl_map_put(&c->waited, k->value, k->len, &added) = k;
    }
}

/* A scalar's literal text (no interpolation), or NULL. (A NUL an escape or the .env made
 * is GL_NUL_SHOWN by then: no value holds one.) */
static const char *literal(struct cz *c, struct yt_node *n)
{
    struct cz_val v;
    if (!cz_value(c, n, &v) || v.opaque || !v.len)
        return NULL;
    return gl_arena_strndup(&c->doc->arena, v.text, v.len);
}

/* `build:` (a context, or context / dockerfile): a build of the Dockerfile, relative to the
 * compose file. Its `args` are not followed (RULES.md, second round, Compose): the build
 * counts as one that sets no ARG, so a FROM's ARG default stays judged when compose
 * builds the Dockerfile. From the file's own layers only (a base in another file: its
 * paths are that file's); nothing for a URL context, an inline Dockerfile or values that
 * are not literal. */
static void add_build(struct cz *c)
{
    struct gl_doc *doc = c->doc;
    struct yt_node *b = lget(c, "build", NULL);
    if (!b || c->pin || lget(c, "build", "dockerfile_inline"))
        return;
    const char *ctx = yt_is_scalar(b) ? literal(c, b) : NULL, *df = "Dockerfile";
    if (yt_is_map(b)) {
        struct yt_node *x = get(c, b, "context"), *f = get(c, b, "dockerfile");
        ctx = x ? literal(c, x) : ".";
        df = f ? literal(c, f) : df;
    }
    if (!ctx || !df || strstr(ctx, "://") || gl_has_prefix(ctx, "git@"))
        return;
    const char *path = df[0] == '/' ? df : gl_arena_printf(&doc->arena, "%s/%s", ctx, df);
    gl_project_add_build(doc, path, false, NULL, 0, b->loc, "compose build");
}

/* One service (key as first written) from its layers (compose_extends.h). */
static void add_service(struct cz *c, struct yt_node *key, struct cz_layer *layers, size_t n,
                        bool partial)
{
    struct gl_doc *doc = c->doc;
    c->launch = yl_begin(doc, GL_LAUNCH_COMPOSE, "compose", key->loc, key->value);
    c->layers = layers;
    c->nlayers = n;
    if (!n) {
        doc->launches[c->launch].fragment = true;
        return;
    }
    gl_map_init(&c->seen);
    bool build = has_build(c);
    struct yt_node *image = lget(c, "image", NULL);
    struct cz_val v;
    if (cz_value(c, image, &v) && v.len) {
        const char *text = gl_arena_strndup(&doc->arena, v.text, v.len);
        yl_set_image(doc, c->launch, text, v.loc, build ? GL_REF_BUILD_OUTPUT : GL_REF_LAUNCH,
                     v.opaque);
        if (build) /* the image compose builds: a build output of the project */
            gl_project_add(doc, GL_PROJECT_BUILT, text,
                           v.opaque ? build_pattern(&doc->arena, image) : NULL, v.loc,
                           "compose build");
    }
    add_build(c);
    if ((!image && !build) || partial)
        doc->launches[c->launch].fragment = true;
    struct yl_argv av = {0};
    add_command(c, &av, lget(c, "entrypoint", NULL));
    add_command(c, &av, lget(c, "command", NULL));
    yl_argv_finish(doc, c->launch, &av);
    add_volumes(c);
    add_env(c);
    add_gpus(c);
    add_misc(c);
    note_waited(c);
    gl_map_free(&c->seen);
}

/* Put in `bases` the service a service of this file `extends` without `file:`. */
static void note_extended(struct yt_stream *s, struct yt_node *svc, struct gl_map *bases)
{
    struct yt_node *e = yt_get(s, svc, "extends", NULL);
    struct yt_node *name = yt_is_map(e) ? yt_get(s, e, "service", NULL) : e;
    bool added;
    if (yt_is_scalar(name) && !(yt_is_map(e) && yt_get(s, e, "file", NULL)))
        *gl_map_put(bases, name->value, name->len, &added) = name;
}

/* Every service of every document, once by name (a later document overrides). A service
 * with neither image nor build that another service of the file extends is a template:
 * compose never starts it by itself (it would reject it), so it runs beside nothing (its
 * group is cleared: GL406 shares no GPU with it). */
static void add_services(struct cz *c, struct cz_project *p)
{
    struct yt_stream *s = c->s;
    struct gl_map names;
    gl_map_init(&names);
    gl_map_init(&c->waited);
    gl_map_init(&c->deps_read);
    struct gl_map bases;
    gl_map_init(&bases);
    size_t first = c->doc->nlaunches;
    struct cz_layer layers[CZ_MAX_LAYERS];
    for (size_t d = 0; d < s->ndocs; d++) {
        struct yt_node *root = s->docs[d] && s->docs[d]->complete ? s->docs[d] : NULL;
        struct yt_pair *svcs;
        size_t n = yt_pairs(s, yt_get(s, root, "services", NULL), &svcs);
        for (size_t i = 0; i < n; i++) {
            struct yt_node *k = yt_deref(s, svcs[i].key);
            bool added = false;
            if (!yt_is_scalar(k) || gl_has_prefix(k->value, "x-"))
                continue;
            note_extended(s, yt_deref(s, svcs[i].value), &bases);
            gl_map_put(&names, k->value, k->len, &added);
            if (!added)
                continue;
            bool partial = false;
            size_t nl = cz_service_layers(s, k->value, k->len, layers, CZ_MAX_LAYERS);
            nl = cz_extends(p, layers, nl, &partial);
            add_service(c, k, layers, nl, partial);
            c->s = s;
            c->pin = NULL;
            if (gl_arena_over(&c->doc->arena)) { /* (the service that took the rest) */
                gl_doc_fail_limit(c->doc, GL_LIMIT_PARSE_MEMORY, k->loc);
                break;
            }
        }
    }
    for (size_t i = first; i < c->doc->nlaunches; i++) {
        struct gl_launch *l = &c->doc->launches[i];
        if (l->name && gl_map_get(&c->waited, l->name, strlen(l->name)))
            l->pod.init = true;
        if (l->name && l->fragment && l->ref < 0 && gl_map_get(&bases, l->name, strlen(l->name)))
            l->group = NULL;
    }
    gl_map_free(&bases);
    gl_map_free(&c->waited);
    gl_map_free(&c->deps_read);
    gl_map_free(&names);
}

/* The files of the top-level `include:` of every document (`- a.yaml`, `- path: a.yaml`,
 * `- path: [a.yaml, b.yaml]`): the run lints them as compose files of their own. A path
 * with an unresolved `${VAR}` is not followed. */
static void add_includes(struct gl_doc *doc, struct yt_stream *s)
{
    for (size_t d = 0; d < s->ndocs; d++) {
        struct yt_node *root = s->docs[d] && s->docs[d]->complete ? s->docs[d] : NULL;
        struct yt_node *inc = yt_deref(s, yt_get(s, root, "include", NULL));
        for (size_t i = 0; yt_is_seq(inc) && i < inc->nitems; i++) {
            struct yt_node *it = yt_item(s, inc, i);
            struct yt_node *path = yt_is_map(it) ? yt_deref(s, yt_get(s, it, "path", NULL)) : it;
            size_t n = yt_is_seq(path) ? path->nitems : 1;
            for (size_t k = 0; k < n; k++) {
                struct yt_node *one = yt_is_seq(path) ? yt_item(s, path, k) : path;
                if (yt_is_scalar(one) && one->len && !memchr(one->value, '$', one->len))
                    *GL_APPEND(&doc->arena, doc->includes, doc->nincludes, doc->capincludes) =
                        one->value;
            }
        }
    }
}

void gl_parse_compose_doc(struct gl_doc *doc, const struct gl_config *cfg)
{
    (void)cfg;
    struct yt_stream s;
    yt_load_doc(&s, doc, doc->text, doc->len);
    gl_doc_lines_known(doc, s.lines, s.nlines);
    struct cz_env env;
    cz_env_load(&env, doc);
    struct cz_project p;
    cz_project_init(&p, doc, &s);
    struct cz c = {.doc = doc, .s = &s, .launch = -1, .env = &env};
    add_services(&c, &p);
    add_includes(doc, &s);
    cz_project_free(&p);
    cz_env_free(&env);
    yt_fail_duplicate_key(doc, &s, "compose rejects the file");
    yt_add_pragmas(doc, &s);
    yt_report(doc, &s);
}

bool gl_compose_named(const char *b)
{
    if (!yt_yaml_name(b))
        return false;
    return gl_has_prefix(b, "docker-compose") || gl_has_prefix(b, "compose.") ||
           gl_has_prefix(b, "compose-") || gl_has_prefix(b, "compose_") ||
           gl_has_suffix(b, ".compose.yml") || gl_has_suffix(b, ".compose.yaml");
}
