/* SPDX-License-Identifier: Apache-2.0 */
/* k8s_claims.c: the DRA claims of a file (ResourceClaim, ResourceClaimTemplate, a
 * ComputeDomain's channel template): which share GPUs through MPS, which name no GPU, and
 * the look-up of a claim by namespace and name the pods use (see k8s_internal.h). */
#include <string.h>

#include "parsers/manifest/k8s_internal.h"

/* Call fn(ctx, key, value) for each pair of the mappings under root (aliases followed,
 * charging the budget; at most 256 collections pending); stops when fn returns false, and
 * returns false then. */
static bool each_pair(struct yt_stream *s, struct yt_node *root,
                      bool (*fn)(void *ctx, struct yt_node *k, struct yt_node *v), void *ctx)
{
    struct yt_node *stack[256];
    size_t n = 0;
    stack[n++] = root;
    while (n) {
        struct yt_node *m = yt_deref(s, stack[--n]);
        if (!m)
            break;
        if (m->kind == YT_MAP) {
            for (size_t i = 0; i < m->npairs; i++) {
                struct yt_node *v = yt_deref(s, m->pairs[i].value);
                if (!fn(ctx, m->pairs[i].key, v))
                    return false;
                if (v && v->kind != YT_SCALAR && n < 256)
                    stack[n++] = v;
            }
        } else if (m->kind == YT_SEQ) {
            for (size_t i = 0; i < m->nitems && n < 256; i++)
                stack[n++] = m->items[i];
        }
    }
    return true;
}

struct mps_seen {
    bool mps, pinned;
};

static bool mps_pair(void *ctx, struct yt_node *k, struct yt_node *v)
{
    struct mps_seen *m = ctx;
    /* (SpacePartitioning: dra-example-driver's partitioned share, its stand-in for MPS) */
    if (yt_scalar_is(k, "strategy") && yt_is_scalar(v) &&
        (!strcasecmp(v->value, "MPS") || !strcasecmp(v->value, "SpacePartitioning")))
        m->mps = true;
    if (yt_scalar_is(k, "defaultPinnedDeviceMemoryLimit") ||
        yt_scalar_is(k, "defaultPerDevicePinnedMemoryLimit"))
        m->pinned = true;
    return true;
}

/* Does the subtree hold `strategy: MPS`? (*pinned: a defaultPinnedDeviceMemoryLimit) */
static bool says_mps(struct yt_stream *s, struct yt_node *root, bool *pinned)
{
    struct mps_seen m = {false, false};
    each_pair(s, root, mps_pair, &m);
    *pinned |= m.pinned;
    return m.mps;
}

/* A deviceClassName that is no GPU's: counted; false (stop) at a GPU's or an unknown one. */
static bool class_pair(void *ctx, struct yt_node *k, struct yt_node *v)
{
    if (!yt_scalar_is(k, "deviceClassName"))
        return true;
    if (!yt_is_scalar(v) || strstr(v->value, "gpu") || strstr(v->value, "mig.") ||
        strchr(v->value, '{') || strchr(v->value, '$'))
        return false;
    ++*(size_t *)ctx;
    return true;
}

/* Does every device request under root name a device class, none of them a GPU's
 * (`gpu.nvidia.com`, `mig.nvidia.com`, any class with `gpu` or `mig.` in its name)? An
 * IMEX channel (`compute-domain-default-channel.nvidia.com`), a NIC. */
static bool classes_not_gpu(struct yt_stream *s, struct yt_node *root)
{
    size_t classes = 0;
    return each_pair(s, root, class_pair, &classes) && classes > 0;
}

static struct k8s_claim *add_claim(struct k8s *k, struct yt_node *obj, const char *name)
{
    struct yt_node *ns = yt_get(k->s, yt_get(k->s, obj, "metadata", NULL), "namespace", NULL);
    struct k8s_claim *c = GL_APPEND(&k->doc->arena, k->claims, k->nclaims, k->capclaims);
    memset(c, 0, sizeof *c);
    c->name = name;
    c->ns = yt_is_scalar(ns) ? ns->value : "";
    return c;
}

/* What the claims of one name say, for a pod that may be in the namespace of any of them
 * (any: it names none) or of those that name none (bare): the first such claim when all of
 * them say the same of their devices, else NULL (the file does not tell which it is). */
struct name_claims {
    const struct k8s_claim *any, *bare;
    bool any_differ, bare_differ;
};

static bool same_devices(const struct k8s_claim *a, const struct k8s_claim *b)
{
    return a->mps == b->mps && a->mem_capped == b->mem_capped && a->not_gpu == b->not_gpu;
}

static void agree(const struct k8s_claim **first, bool *differ, const struct k8s_claim *c)
{
    if (!*first)
        *first = c;
    else if (!same_devices(*first, c))
        *differ = true;
}

/* namespace NUL name, in the arena: claim_keys' key (a name holds no NUL: GL_NUL_SHOWN) */
static const char *claim_key(struct gl_arena *a, const char *ns, const char *name, size_t *len)
{
    size_t n = strlen(ns), m = strlen(name);
    char *key = gl_arena_alloc(a, n + m + 2);
    memcpy(key, ns, n);
    memcpy(key + n + 1, name, m); /* (the byte between: 0, as the arena gives it) */
    *len = n + 1 + m;
    return key;
}

static void map_claims(struct k8s *k)
{
    k->claims_mapped = true;
    gl_map_init(&k->claim_keys);
    gl_map_init(&k->claim_names);
    for (size_t i = 0; i < k->nclaims; i++) {
        const struct k8s_claim *c = &k->claims[i];
        size_t len;
        const char *key = claim_key(&k->doc->arena, c->ns, c->name, &len);
        bool added;
        void **slot = gl_map_put(&k->claim_keys, key, len, &added);
        if (added)
            *slot = (void *)c;
        slot = gl_map_puts(&k->claim_names, c->name, &added);
        if (added)
            *slot = gl_arena_alloc(&k->doc->arena, sizeof(struct name_claims));
        struct name_claims *nc = *slot;
        agree(&nc->any, &nc->any_differ, c);
        if (!*c->ns)
            agree(&nc->bare, &nc->bare_differ, c);
    }
}

const struct k8s_claim *k8s_claim_named(struct k8s *k, const char *ns, const char *name)
{
    if (!k->nclaims)
        return NULL;
    if (!k->claims_mapped)
        map_claims(k);
    if (!ns)
        ns = "";
    size_t len;
    const char *key = claim_key(&k->doc->arena, ns, name, &len);
    const struct k8s_claim *c = gl_map_get(&k->claim_keys, key, len);
    const struct name_claims *nc = c ? NULL : gl_map_gets(&k->claim_names, name);
    if (!nc)
        return c;
    return !*ns ? (nc->any_differ ? NULL : nc->any) : (nc->bare_differ ? NULL : nc->bare);
}

void k8s_claims_free(struct k8s *k)
{
    if (!k->claims_mapped)
        return;
    gl_map_free(&k->claim_keys);
    gl_map_free(&k->claim_names);
}

void k8s_note_claim(struct k8s *k, struct yt_node *obj)
{
    struct yt_node *kind = yt_get(k->s, obj, "kind", NULL);
    struct yt_node *spec = yt_get(k->s, obj, "spec", NULL);
    if (yt_scalar_is(kind, "ComputeDomain")) { /* the claim template of its IMEX channel */
        struct yt_node *t = yt_get(k->s, yt_get(k->s, spec, "channel", NULL),
                                   "resourceClaimTemplate", NULL);
        struct yt_node *tn = yt_get(k->s, t, "name", NULL);
        if (yt_is_scalar(tn))
            add_claim(k, obj, tn->value)->not_gpu = true;
        return;
    }
    if (!yt_scalar_is(kind, "ResourceClaimTemplate") && !yt_scalar_is(kind, "ResourceClaim"))
        return;
    struct yt_node *name = yt_get(k->s, yt_get(k->s, obj, "metadata", NULL), "name", NULL);
    if (!yt_is_scalar(name))
        return;
    bool pinned = false;
    struct k8s_claim *c = add_claim(k, obj, name->value);
    if (says_mps(k->s, spec, &pinned)) {
        c->mps = true;
        c->mem_capped = pinned;
    } else {
        c->not_gpu = classes_not_gpu(k->s, spec);
    }
}
