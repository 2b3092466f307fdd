/* compose.c: docker compose services -> launches (see compose.h). */
#include "parsers/launch/compose.h"

#include <ctype.h>
#include <string.h>

#include "linter/core/inputs.h"
#include "parsers/launch/compose_common.h"
#include "parsers/yaml/yaml_tree.h"

struct cz {
    struct gl_doc *doc;
    struct yt_stream *s;
    int launch;
};

/* An interpolated scalar value with the positions of its bytes. */
struct cz_val {
    const char *text;
    size_t len;
    bool opaque;
    const char *pattern; /* the text with each unresolved part as one '*' (model_ref.h) */
    struct gl_srcmap map;
    struct gl_loc loc; /* first byte */
};

/* ---- interpolation ---- */

/* Copy in[a, b) to out, mapping it through inmap (a segment per inmap segment). */
static void emit_run(struct gl_buf *out, struct gl_srcmap *outmap, const struct gl_srcmap *inmap,
                     const char *in, size_t a, size_t b)
{
    if (a >= b)
        return;
    size_t o = out->len;
    struct gl_loc at = gl_srcmap_loc(inmap, a);
    gl_srcmap_add(outmap, o, at.line, at.col);
    size_t lo = 0, hi = inmap->n; /* first segment starting after a */
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (inmap->segs[mid].off <= a)
            lo = mid + 1;
        else
            hi = mid;
    }
    for (size_t k = lo; k < inmap->n && inmap->segs[k].off < b; k++) {
        size_t so = inmap->segs[k].off;
        gl_srcmap_add(outmap, o + (so - a), inmap->segs[k].at.line, inmap->segs[k].at.col);
    }
    gl_buf_add(out, in + a, b - a);
}

static bool name_start(char c) { return isalpha((unsigned char)c) || c == '_'; }
static bool name_char(char c) { return isalnum((unsigned char)c) || c == '_'; }

/* emit_run, and the same bytes into the pattern (pat), or one '*' for an `opaque` part. */
static void emit(struct gl_buf *out, struct gl_buf *pat, struct gl_srcmap *outmap,
                 const struct gl_srcmap *inmap, const char *in, size_t a, size_t b, bool opaque)
{
    emit_run(out, outmap, inmap, in, a, b);
    if (!opaque)
        gl_buf_add(pat, in + a, b > a ? b - a : 0);
    else if (!pat->len || pat->data[pat->len - 1] != '*')
        gl_buf_addc(pat, '*');
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
    const char *in = n->value;
    size_t len = n->len;
    if (!memchr(in, '$', len)) {
        v->text = v->pattern = in;
        v->len = len;
        v->map = inmap;
        return true;
    }
    struct gl_buf out, pat;
    gl_buf_init(&out);
    gl_buf_init(&pat);
    size_t i = 0, run = 0;
    while (i < len) {
        if (in[i] != '$' || i + 1 >= len) {
            i++;
            continue;
        }
        emit(&out, &pat, &v->map, &inmap, in, run, i, false);
        if (in[i + 1] == '$') { /* $$ -> $ */
            emit(&out, &pat, &v->map, &inmap, in, i, i + 1, false);
            i += 2;
        } else if (in[i + 1] == '{') {
            size_t j = i + 2, depth = 1;
            while (j < len && depth) {
                if (in[j] == '{')
                    depth++;
                else if (in[j] == '}')
                    depth--;
                j++;
            }
            if (depth) { /* unterminated: literal */
                emit(&out, &pat, &v->map, &inmap, in, i, len, false);
                i = len;
                run = len;
                break;
            }
            size_t k = i + 2;
            if (k < len && name_start(in[k]))
                while (k < j - 1 && name_char(in[k]))
                    k++;
            size_t close = j - 1;
            const char *op = in + k;
            size_t oplen = close - k;
            if (oplen >= 2 && op[0] == ':' && op[1] == '-')
                emit(&out, &pat, &v->map, &inmap, in, k + 2, close, false);
            else if (oplen >= 1 && op[0] == '-')
                emit(&out, &pat, &v->map, &inmap, in, k + 1, close, false);
            else if ((oplen >= 2 && op[0] == ':' && op[1] == '+') || (oplen >= 1 && op[0] == '+'))
                ; /* unset: no alternative value */
            else {
                emit(&out, &pat, &v->map, &inmap, in, i, j, true);
                v->opaque = true;
            }
            i = j;
        } else if (name_start(in[i + 1])) {
            size_t j = i + 1;
            while (j < len && name_char(in[j]))
                j++;
            emit(&out, &pat, &v->map, &inmap, in, i, j, true);
            v->opaque = true;
            i = j;
        } else {
            emit(&out, &pat, &v->map, &inmap, in, i, i + 1, false);
            i++;
        }
        run = i;
    }
    emit(&out, &pat, &v->map, &inmap, in, run, len, false);
    v->len = out.len;
    char *t = gl_arena_alloc(a, out.len + 1);
    if (out.len)
        memcpy(t, out.data, out.len);
    v->text = t;
    v->pattern = gl_arena_strdup(a, gl_buf_str(&pat));
    gl_buf_free(&out);
    gl_buf_free(&pat);
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
    m->loc = n->loc;
    m->ro_loc = n->loc;
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
        m->ro_loc = k->loc;
    }
}

static void add_volumes(struct cz *c, struct yt_node *svc)
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
    struct gl_gpu_request *g = yl_add_gpu(c->doc, c->launch, kind, value, d->loc);
    g->count = count_text;
    g->device_ids = idv;
    g->ndevice_ids = nid;
    g->capabilities = capv;
    g->ncapabilities = ncap;
    if (count_key)
        g->count_key_loc = count_key->loc;
    if (ids_key)
        g->device_ids_key_loc = ids_key->loc;
    if (caps_key)
        g->capabilities_key_loc = caps_key->loc;
    struct yt_pair *opts;
    size_t nopts = yt_pairs(c->s, get(c, d, "options"), &opts);
    for (size_t i = 0; i < nopts; i++) {
        struct yt_node *k = yt_deref(c->s, opts[i].key);
        if (!yt_is_scalar(k) || !strstr(k->value, "mem"))
            continue;
        g->memory = text_of(c, opts[i].value, NULL);
        if (!g->memory)
            g->memory = k->value;
        g->memory_loc = k->loc;
        break;
    }
}

static void add_gpus(struct cz *c, struct yt_node *svc)
{
    struct yt_node *deploy = get(c, svc, "deploy");
    struct yt_node *res = get(c, deploy, "resources");
    struct yt_node *resv = get(c, res, "reservations");
    struct yt_node *devs = get(c, resv, "devices");
    for (size_t i = 0; yt_is_seq(devs) && i < devs->nitems; i++) {
        struct yt_node *d = yt_item(c->s, devs, i);
        if (yt_is_map(d))
            gpu_device(c, d, GL_GPU_COMPOSE_DEVICE);
    }
    struct yt_node *gpus = get(c, svc, "gpus");
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
    struct yt_node *devices = get(c, svc, "devices");
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
    struct yt_node *runtime = get(c, svc, "runtime");
    if (yt_scalar_is(runtime, "nvidia"))
        yl_add_gpu(c->doc, c->launch, GL_GPU_RUNTIME, "nvidia", runtime->loc);
}

/* ---- environment and the rest ---- */

static void env_entry(struct cz *c, const char *key, struct gl_loc kloc, const char *value,
                      struct gl_loc vloc)
{
    yl_add_env(c->doc, c->launch, key, kloc, value, vloc);
    if (!strcmp(key, "NVIDIA_VISIBLE_DEVICES")) {
        struct gl_gpu_request *g =
            yl_add_gpu(c->doc, c->launch, GL_GPU_ENV_VISIBLE, value, value ? vloc : kloc);
        (void)g;
    }
}

static void add_env(struct cz *c, struct yt_node *svc)
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
        struct gl_loc vloc = k->loc;
        if (!yt_is_null(pairs[i].value) && cz_value(c, pairs[i].value, &v)) {
            vloc = v.loc;
            if (!v.opaque)
                value = gl_arena_strndup(a, v.text, v.len);
        }
        env_entry(c, k->value, k->loc, value, vloc);
    }
}

static void add_misc(struct cz *c, struct yt_node *svc)
{
    struct gl_launch *l = &c->doc->launches[c->launch];
    struct cz_val v;
    struct yt_node *shm = get(c, svc, "shm_size");
    if (cz_value(c, shm, &v)) {
        l->shm_loc = v.loc;
        l->shm_bytes = v.opaque ? -1 : yl_size_bytes(v.text, v.len);
    }
    struct yt_node *ipc = get(c, svc, "ipc");
    if (cz_value(c, ipc, &v)) {
        l->ipc = gl_arena_strndup(&c->doc->arena, v.text, v.len);
        l->ipc_loc = v.loc;
    }
    struct yt_node *memlock = get(c, get(c, svc, "ulimits"), "memlock");
    if (cz_value(c, memlock, &v)) {
        l->memlock = gl_arena_strndup(&c->doc->arena, v.text, v.len);
        l->memlock_loc = v.loc;
    } else if (yt_is_map(memlock)) {
        const char *soft = text_of(c, get(c, memlock, "soft"), NULL);
        const char *hard = text_of(c, get(c, memlock, "hard"), NULL);
        l->memlock = gl_arena_printf(&c->doc->arena, "%s:%s", soft ? soft : "",
                                     hard ? hard : "");
        l->memlock_loc = memlock->loc;
    }
    l->workdir = text_of(c, get(c, svc, "working_dir"), NULL);
    struct yt_node *profiles = get(c, svc, "profiles");
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

static void add_service(struct cz *c, struct yt_node *key, struct yt_node *svc)
{
    struct gl_doc *doc = c->doc;
    c->launch = yl_begin(doc, GL_LAUNCH_COMPOSE, "compose", key->loc, key->value);
    if (!yt_is_map(svc)) {
        doc->launches[c->launch].fragment = true;
        return;
    }
    struct yt_node *image = get(c, svc, "image");
    struct yt_node *build_key = NULL;
    yt_get(c->s, svc, "build", &build_key);
    struct cz_val v;
    if (cz_value(c, image, &v) && v.len) {
        const char *text = gl_arena_strndup(&doc->arena, v.text, v.len);
        yl_set_image(doc, c->launch, text, v.loc,
                     build_key ? GL_REF_BUILD_OUTPUT : GL_REF_LAUNCH, v.opaque);
        if (build_key) /* the image compose builds: a build output of the project */
            gl_project_add(doc, GL_PROJECT_BUILT, text, v.pattern, v.loc, "compose build");
    }
    if (!image && !build_key)
        doc->launches[c->launch].fragment = true;
    struct yl_argv av = {0};
    add_command(c, &av, get(c, svc, "entrypoint"));
    add_command(c, &av, get(c, svc, "command"));
    yl_argv_finish(doc, c->launch, &av);
    add_volumes(c, svc);
    add_env(c, svc);
    add_gpus(c, svc);
    add_misc(c, svc);
}

void gl_parse_compose_doc(struct gl_doc *doc, const struct gl_config *cfg)
{
    (void)cfg;
    struct yt_stream s;
    yt_load(&s, &doc->arena, doc->text, doc->len);
    struct cz c = {doc, &s, -1};
    struct yt_node *root = s.ndocs && s.docs[0] && s.docs[0]->complete ? s.docs[0] : NULL;
    struct yt_pair *svcs;
    size_t n = yt_pairs(&s, get(&c, root, "services"), &svcs);
    for (size_t i = 0; i < n; i++) {
        struct yt_node *k = yt_deref(&s, svcs[i].key);
        if (!yt_is_scalar(k) || gl_has_prefix(k->value, "x-"))
            continue;
        add_service(&c, k, svcs[i].value);
    }
    yt_add_pragmas(doc, &s);
    yt_report(doc, &s);
}

/* ---- recognition ---- */

static bool yaml_ext(const char *b)
{
    return gl_has_suffix(b, ".yml") || gl_has_suffix(b, ".yaml");
}

static bool by_name(const char *path, const char *b)
{
    (void)path;
    if (!yaml_ext(b))
        return false;
    return gl_has_prefix(b, "docker-compose") || gl_has_prefix(b, "compose.") ||
           gl_has_prefix(b, "compose-") || gl_has_prefix(b, "compose_") ||
           gl_has_suffix(b, ".compose.yml") || gl_has_suffix(b, ".compose.yaml");
}

static bool candidate(const char *path, const char *b)
{
    (void)path;
    return yaml_ext(b);
}

static bool looks_like_service(struct yt_stream *s, struct yt_node *svc)
{
    static const char *const keys[] = {"image", "build", "command", "entrypoint", "deploy",
                                       "volumes", "environment", "gpus", "runtime", "devices"};
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
        if (yt_get(s, svc, keys[i], NULL))
            return true;
    return false;
}

/* A first document that is a compose file: no Kubernetes or CI keys, a service. */
static bool compose_stream(struct yt_stream *s)
{
    struct yt_node *root = s->ndocs ? s->docs[0] : NULL;
    if (!yt_is_map(root) || yt_get(s, root, "apiVersion", NULL) ||
        yt_get(s, root, "kind", NULL) || yt_get(s, root, "jobs", NULL) ||
        yt_get(s, root, "on", NULL))
        return false;
    struct yt_pair *p;
    size_t n = yt_pairs(s, yt_get(s, root, "services", NULL), &p);
    for (size_t i = 0; i < n; i++)
        if (yt_is_map(p[i].value) && looks_like_service(s, p[i].value))
            return true;
    return false;
}

static bool by_content(const char *path, const char *data, size_t len)
{
    (void)path;
    return memmem(data, len, "services", 8) && yt_sniff(data, len, compose_stream);
}

const struct gl_input_type gl_input_compose = {
    .kind = GL_IN_COMPOSE,
    .name = "compose",
    .priority = 20,
    .by_name = by_name,
    .candidate = candidate,
    .by_content = by_content,
    .parse = gl_parse_compose_doc,
};
