/* SPDX-License-Identifier: Apache-2.0 */
/* launch_values.c: the values of launch options: --gpus, -v, --mount, --tmpfs, --device,
 * --ulimit, apptainer --bind, sizes (see launch_internal.h). */
#include <stdio.h>
#include <string.h>

#include "parsers/launch/launch_internal.h"
#include "parsers/shell/mount_spec.h"

/* Room for the items of a comma list s[0..n) (one more than its commas). */
static const char **list_alloc(struct gl_arena *a, const char *s, size_t n, size_t *count)
{
    size_t items = 1;
    for (size_t i = 0; i < n; i++)
        items += s[i] == ',';
    *count = 0;
    return gl_arena_alloc(a, items * sizeof(const char *));
}

static void push_one(struct gl_arena *a, const char ***arr, size_t *n, const char *s, size_t len)
{
    const char **one = gl_arena_alloc(a, sizeof *one);
    *one = gl_arena_strndup(a, s, len);
    *arr = one;
    *n = 1;
}

/* ---- --gpus ---- */

static void gpu_devices(struct launch_build *b, struct gl_gpu_request *g, const struct lv *v,
                        const struct gl_csv_field *f, size_t vstart)
{
    struct gl_arena *a = &b->doc->arena;
    size_t i = vstart;
    const char **ids = list_alloc(a, f->text + vstart, f->len - vstart, &g->ndevice_ids);
    g->device_ids = ids;
    while (i <= f->len && !lv_over(b->doc, v, f->at + (f->raw_len == f->len ? i : 0))) {
        size_t j = i;
        while (j < f->len && f->text[j] != ',')
            j++;
        const char *id = f->text + i;
        size_t idlen = j - i;
        const char *colon = memchr(id, ':', idlen);
        if (colon) { /* device=0:10gb: a memory qualifier docker does not enforce */
            size_t q = (size_t)(colon - f->text) + 1;
            g->memory = gl_arena_strndup(a, f->text + q, j - q);
            g->memory_loc = lv_loc(v, f->at + q);
            idlen = (size_t)(colon - id);
        }
        ids[g->ndevice_ids++] = gl_arena_strndup(a, id, idlen);
        if (idlen >= 4 && !memcmp(id, "MIG-", 4)) {
            g->mig = true;
            b->l->mig = true;
        }
        i = j + 1;
    }
}

/* capabilities=compute,utility: the list. */
static void gpu_capabilities(struct gl_arena *a, struct gl_gpu_request *g,
                             const struct gl_gpu_field *f)
{
    const char *val = f->value;
    size_t vlen = f->value_len;
    const char **caps = list_alloc(a, val, vlen, &g->ncapabilities);
    g->capabilities = caps;
    for (size_t s = 0, e; s <= vlen; s = e + 1) {
        for (e = s; e < vlen && val[e] != ','; e++)
            ;
        caps[g->ncapabilities++] = gl_arena_strndup(a, val + s, e - s);
    }
}

/* What the key of a field names (a bare field is a count). */
static enum gl_gpu_key gpu_key(const char *name, bool bare)
{
    static const struct {
        const char *name;
        enum gl_gpu_key key;
    } keys[] = {
        {"count", GL_GPU_KEY_COUNT},   {"device", GL_GPU_KEY_DEVICE},
        {"driver", GL_GPU_KEY_DRIVER}, {"capabilities", GL_GPU_KEY_CAPABILITIES},
        {"memory", GL_GPU_KEY_MEMORY}, {"options", GL_GPU_KEY_OPTIONS},
    };
    if (bare)
        return GL_GPU_KEY_COUNT;
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
        if (!strcmp(name, keys[i].name))
            return keys[i].key;
    return GL_GPU_KEY_OTHER;
}

/* The keys given so far (the first 8): a bare field gives its text and "count". */
struct gpu_keys_seen {
    const char *name[8];
    size_t n;
};

/* Was the key `name` given before? It is remembered either way (and "count" after a bare
 * field), while there is room. */
static bool gpu_key_repeated(struct gpu_keys_seen *seen, const char *name, bool bare)
{
    bool repeated = false;
    for (size_t k = 0; k < seen->n; k++)
        repeated |= !strcmp(seen->name[k], name);
    if (seen->n < 8)
        seen->name[seen->n++] = name;
    if (bare && seen->n < 8)
        seen->name[seen->n++] = "count";
    return repeated;
}

/* The fact of CSV field c of value v (but .repeated): its key, text, value and where they
 * are. Returns whether the field is bare (no '=': a count). */
static bool gpu_field(struct gl_arena *a, const struct lv *v, const struct gl_csv_field *c,
                      struct gl_gpu_field *f)
{
    const char *text = gl_arena_strndup(a, c->text, c->len); /* (the model's, NUL-ended) */
    const char *eq = memchr(text, '=', c->len);
    size_t klen = eq ? (size_t)(eq - text) : c->len;
    f->name = gl_arena_strndup(a, text, klen);
    f->key = gpu_key(f->name, !eq);
    f->text = text;
    f->len = c->len;
    f->value = eq ? eq + 1 : text;
    f->value_len = eq ? c->len - klen - 1 : c->len;
    f->loc = lv_loc(v, c->at);
    f->value_loc = eq ? lv_loc(v, c->at + klen + 1) : f->loc;
    return !eq;
}

/* What field f (CSV field c) sets on the request. */
static void gpu_apply(struct launch_build *b, struct gl_gpu_request *g, const struct lv *v,
                      const struct gl_csv_field *c, const struct gl_gpu_field *f)
{
    struct gl_arena *a = &b->doc->arena;
    switch (f->key) {
    case GL_GPU_KEY_COUNT:
        g->count = gl_arena_strndup(a, f->value, f->value_len);
        break;
    case GL_GPU_KEY_DEVICE:
        gpu_devices(b, g, v, c, (size_t)(f->value - f->text));
        break;
    case GL_GPU_KEY_CAPABILITIES:
        gpu_capabilities(a, g, f);
        break;
    case GL_GPU_KEY_OPTIONS: /* a memory option */
    case GL_GPU_KEY_MEMORY:  /* not a docker key (the CLI rejects it): GL406's case */
        if (f->key == GL_GPU_KEY_MEMORY || memmem(f->value, f->value_len, "mem", 3)) {
            g->memory = gl_arena_strndup(a, f->value, f->value_len);
            g->memory_loc = f->value_loc;
        }
        break;
    case GL_GPU_KEY_DRIVER: /* the device driver ("nvidia"): nothing to record */
    case GL_GPU_KEY_OTHER:
        break;
    }
}

struct gl_gpu_request *value_gpus(struct launch_build *b, const struct lv *v)
{
    struct gl_arena *a = &b->doc->arena;
    struct gl_gpu_request *g = launch_add_gpu(b, GL_GPU_FLAG, v);
    if (v->opaque)
        return g;
    struct gl_csv_record c;
    gl_csv_record_read(a, v->text, v->len, &c);
    if (c.error) {
        g->csv.error = c.error;
        g->csv.error_loc = lv_loc(v, c.error_at);
        return g;
    }
    struct gpu_keys_seen seen = {0};
    /* the fields grow as they are read, which stops where parse-memory is reached (class:
     * `--gpus device=0,1,2,...` of 500,000 bare fields took one table of 36 MB at once and
     * 89 MB of RSS in all, over the 64 MiB bound) */
    struct gl_gpu_field *fields = NULL;
    size_t nfields = 0, cap = 0;
    for (size_t i = 0; i < c.n && !lv_over(b->doc, v, c.f[i].at); i++) {
        struct gl_gpu_field *f = GL_APPEND(a, fields, nfields, cap);
        bool bare = gpu_field(a, v, &c.f[i], f);
        f->repeated = gpu_key_repeated(&seen, f->name, bare);
        gpu_apply(b, g, v, &c.f[i], f);
    }
    g->csv.fields = fields ? fields : gl_arena_alloc(a, sizeof *fields);
    g->csv.nfields = nfields;
    return g;
}

/* ---- sizes ---- */

int64_t value_size_bytes(const char *s, size_t n)
{
    size_t i = 0;
    double v = 0;
    if (i >= n || s[i] < '0' || s[i] > '9')
        return -1;
    while (i < n && s[i] >= '0' && s[i] <= '9' && v < 1e30)
        v = v * 10 + (s[i++] - '0');
    if (i < n && s[i] == '.') {
        i++;
        double scale = 0.1;
        if (i >= n || s[i] < '0' || s[i] > '9')
            return -1;
        while (i < n && s[i] >= '0' && s[i] <= '9') {
            v += (s[i++] - '0') * scale;
            scale /= 10;
        }
    }
    if (i < n && s[i] == ' ')
        i++;
    double mult = 1;
    if (i < n) {
        static const char units[] = "kmgtp";
        const char *u = strchr(units, s[i] | 0x20);
        if (u && s[i] != 0) {
            for (const char *p = units; p <= u; p++)
                mult *= 1024;
            i++;
        }
    }
    if (i < n && (s[i] == 'i' || s[i] == 'I') && mult > 1)
        i++;
    if (i < n && (s[i] == 'b' || s[i] == 'B'))
        i++;
    if (i != n)
        return -1;
    v *= mult;
    return v >= 9.2e18 ? INT64_MAX : (int64_t)v;
}

/* ---- mounts ---- */

bool value_is_host_path(const char *s, size_t len)
{
    return len && (s[0] == '/' || s[0] == '.' || s[0] == '~' || s[0] == '$');
}

/* Offsets of the ':' of a -v value that are not inside ${...} or $(...). */
static size_t colons(const char *s, size_t n, size_t *at, size_t max)
{
    size_t k = 0;
    int depth = 0;
    for (size_t i = 0; i < n; i++) {
        if (s[i] == '$' && i + 1 < n && (s[i + 1] == '{' || s[i + 1] == '(')) {
            depth++;
            i++;
        } else if ((s[i] == '}' || s[i] == ')') && depth > 0) {
            depth--;
        } else if (s[i] == ':' && !depth && k < max) {
            at[k++] = i;
        }
    }
    return k;
}

/* Is s[0..n) a docker -v mode list ("ro", "rw,z", "ro,rslave")? *ro_at gets the offset of
 * "ro" in it (or n when none). */
static bool mode_list(const char *s, size_t n, size_t *ro_at)
{
    static const char *const modes[] = {"ro", "rw", "z", "Z", "shared", "rshared", "slave",
                                        "rslave", "private", "rprivate", "nocopy", "consistent",
                                        "cached", "delegated", "U", "O", "exec", "noexec",
                                        "suid", "nosuid", "dev", "nodev", "idmap"};
    *ro_at = n;
    if (!n)
        return false;
    for (size_t i = 0, j; i <= n; i = j + 1) {
        for (j = i; j < n && s[j] != ','; j++)
            ;
        bool ok = false;
        for (size_t k = 0; k < sizeof modes / sizeof modes[0]; k++)
            if (strlen(modes[k]) == j - i && !memcmp(modes[k], s + i, j - i))
                ok = true;
        if (!ok)
            return false;
        if (j - i == 2 && !memcmp(s + i, "ro", 2))
            *ro_at = i;
    }
    return true;
}

static void mount_mode(struct gl_mount *m, const struct lv *v, size_t mode_off, size_t mode_len)
{
    size_t ro_at;
    if (mode_list(v->text + mode_off, mode_len, &ro_at) && ro_at < mode_len) {
        m->readonly = true;
        m->ro_loc = lv_loc(v, mode_off + ro_at);
    }
}

void value_volume(struct launch_build *b, const struct lv *v)
{
    struct gl_arena *a = &b->doc->arena;
    const char *s = v->text;
    size_t at[4], n = colons(s, v->len, at, 4);
    struct gl_mount *m = launch_add_mount(b);
    m->loc = lv_loc(v, 0);
    m->ro_loc = lv_end_loc(v);
    size_t ro_at;
    if (n == 0 || (n == 1 && mode_list(s + at[0] + 1, v->len - at[0] - 1, &ro_at))) {
        /* -v /ctr (anonymous volume), -v /ctr:ro */
        m->type = GL_MOUNT_VOLUME;
        m->target = gl_arena_strndup(a, s, n ? at[0] : v->len);
        if (n)
            mount_mode(m, v, at[0] + 1, v->len - at[0] - 1);
        return;
    }
    m->source = gl_arena_strndup(a, s, at[0]);
    m->type = value_is_host_path(s, at[0]) ? GL_MOUNT_BIND : GL_MOUNT_VOLUME;
    size_t tend = n >= 2 ? at[1] : v->len;
    m->target = gl_arena_strndup(a, s + at[0] + 1, tend - at[0] - 1);
    if (n >= 2)
        mount_mode(m, v, at[n - 1] + 1, v->len - at[n - 1] - 1);
}

/* `--mount type=bind,source=S,target=T,readonly` (mount_spec.h): the last of each key
 * counts, as docker takes it; the fields before a CSV error are taken. */
void value_mount(struct launch_build *b, const struct lv *v)
{
    struct gl_arena *a = &b->doc->arena;
    struct gl_mount *m = launch_add_mount(b);
    m->type = GL_MOUNT_VOLUME; /* docker's default type */
    m->loc = lv_loc(v, 0);
    m->ro_loc = lv_end_loc(v);
    struct gl_csv_reader r;
    struct gl_mspec_field f;
    gl_csv_reader_init(&r, v->text, v->len);
    while (gl_mount_spec_next(a, &r, &f)) {
        switch (f.key) {
        case GL_MSPEC_TYPE:
            if (!f.bare)
                m->type = gl_mount_spec_type(f.value, f.value_len);
            break;
        case GL_MSPEC_SOURCE:
            if (!f.bare)
                m->source = gl_arena_strndup(a, f.value, f.value_len);
            break;
        case GL_MSPEC_TARGET:
            if (!f.bare)
                m->target = gl_arena_strndup(a, f.value, f.value_len);
            break;
        case GL_MSPEC_READONLY: /* `ro`, `readonly=1` */
            m->readonly = f.bare || value_true(gl_arena_strndup(a, f.value, f.value_len));
            m->ro_loc = lv_loc(v, f.csv.at);
            break;
        case GL_MSPEC_READWRITE: /* (BuildKit's: docker rejects them) */
        case GL_MSPEC_FROM:
        case GL_MSPEC_OTHER:
            break;
        }
    }
}

void value_tmpfs(struct launch_build *b, const struct lv *v)
{
    struct gl_mount *m = launch_add_mount(b);
    const char *colon = memchr(v->text, ':', v->len);
    size_t tl = colon ? (size_t)(colon - v->text) : v->len;
    m->type = GL_MOUNT_TMPFS;
    m->target = gl_arena_strndup(&b->doc->arena, v->text, tl);
    m->loc = lv_loc(v, 0);
    m->ro_loc = lv_end_loc(v);
    if (colon) {
        const char *o = colon + 1;
        size_t ol = v->len - tl - 1;
        for (size_t i = 0, j; i <= ol; i = j + 1) {
            for (j = i; j < ol && o[j] != ','; j++)
                ;
            if (j - i == 2 && !memcmp(o + i, "ro", 2)) {
                m->readonly = true;
                m->ro_loc = lv_loc(v, tl + 1 + i);
            }
        }
    }
}

void value_apptainer_bind(struct launch_build *b, const struct lv *v)
{
    struct gl_arena *a = &b->doc->arena;
    for (size_t i = 0, j; i < v->len && !lv_over(b->doc, v, i); i = j + 1) { /* (memory) */
        for (j = i; j < v->len && v->text[j] != ','; j++)
            ;
        if (j == i)
            continue;
        struct lv spec = lv_sub(a, v, i, j - i);
        size_t at[4], n = colons(spec.text, spec.len, at, 4);
        struct gl_mount *m = launch_add_mount(b);
        m->type = GL_MOUNT_BIND;
        m->loc = lv_loc(&spec, 0);
        m->ro_loc = lv_end_loc(&spec);
        size_t send = n ? at[0] : spec.len;
        m->source = gl_arena_strndup(a, spec.text, send);
        if (n == 0) {
            m->target = m->source;
            continue;
        }
        size_t tend = n >= 2 ? at[1] : spec.len;
        m->target = gl_arena_strndup(a, spec.text + at[0] + 1, tend - at[0] - 1);
        if (n >= 2)
            mount_mode(m, &spec, at[1] + 1, spec.len - at[1] - 1);
    }
}

/* ---- --device, --ulimit ---- */

void value_device(struct launch_build *b, const struct lv *v)
{
    struct gl_arena *a = &b->doc->arena;
    const char *s = v->text;
    if (v->opaque)
        return;
    const char *eq = memchr(s, '=', v->len);
    if (gl_has_prefix(s, "nvidia.com/") && eq) {
        struct gl_gpu_request *g = launch_add_gpu(b, GL_GPU_CDI, v);
        size_t vs = (size_t)(eq - s) + 1;
        if (!strcmp(s + vs, "all"))
            g->count = "all";
        else
            push_one(a, &g->device_ids, &g->ndevice_ids, s + vs, v->len - vs);
        if (memmem(s, vs, "mig", 3) || gl_has_prefix(s + vs, "MIG-")) {
            g->mig = true;
            b->l->mig = true;
        }
        return;
    }
    if (gl_has_prefix(s, "/dev/nvidia")) {
        size_t i = 11, d = i;
        while (d < v->len && s[d] >= '0' && s[d] <= '9')
            d++;
        if (d > i && (d == v->len || s[d] == ':')) {
            struct gl_gpu_request *g = launch_add_gpu(b, GL_GPU_DEVICE_NODE, v);
            push_one(a, &g->device_ids, &g->ndevice_ids, s + i, d - i);
        }
    }
}

void value_ulimit(struct launch_build *b, const struct lv *v)
{
    if (gl_has_prefix(v->text, "memlock=")) {
        b->l->memlock = v->text + 8;
        b->l->memlock_loc = lv_loc(v, 8);
    }
}
