/* SPDX-License-Identifier: Apache-2.0 */
/*
 * kb_load.c: the knowledge file's schema (kb_specs) and the loader that applies it.
 * Row tables are decoded generically (kb_decode.c); the mapping-shaped parts of the file
 * (sources, image flavors and OS tokens, cudart and forward-compat maps, NGC tag formats,
 * JAX extras, pip wheel families) have small decoders here.
 */
#include "knowledge/kb_schema.h"
#include "knowledge/gpu_arch.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "linter/core/ref/imageref.h"
#include "linter/core/limits.h"

#define FIELD(key, type, ctype, member, required) \
    {key, type, #member, offsetof(ctype, member), required}

/* ---- small text helpers ---- */

/* Split "a / b / c" into names: calls fn for each trimmed piece. */
static bool split_names(struct kb_loader *ld, struct yt_node *at, const char *text,
                        bool (*fn)(struct kb_loader *, struct yt_node *, const char *, void *),
                        void *ctx)
{
    const char *p = text;
    for (;;) {
        const char *sep = strstr(p, " / ");
        size_t n = sep ? (size_t)(sep - p) : strlen(p);
        if (!fn(ld, at, gl_arena_strndup(ld->arena, p, n), ctx))
            return false;
        if (!sep)
            return true;
        p = sep + 3;
    }
}

static size_t count_names(const char *text)
{
    size_t n = 1;
    for (const char *p = text; (p = strstr(p, " / ")) != NULL; p += 3)
        n++;
    return n;
}

/* Key of pair i of a mapping as a string (fails for non-scalar keys). */
static const char *pair_key(struct kb_loader *ld, struct yt_node *map, size_t i)
{
    bool ok;
    struct yt_node *key = kb_yaml_map_key(map, i);
    const char *s = kb_yaml_str(&ld->y, key, ld->arena, &ok);
    if (ok && !s)
        kb_yaml_fail(&ld->y, key, "empty key");
    return ok ? s : NULL;
}

static bool expect_mapping(struct kb_loader *ld, struct yt_node *node, const char *what)
{
    if (yt_is_map(node))
        return true;
    return kb_yaml_fail(&ld->y, node, "%s: expected a mapping", what);
}

/* Room for one row of `row_size` bytes per pair of the mapping `node` (`what` names it in
 * errors); *n gets the pair count. NULL after an error. */
static void *mapping_rows(struct kb_loader *ld, struct yt_node *node, const char *what,
                          size_t row_size, size_t *n)
{
    if (!expect_mapping(ld, node, what))
        return NULL;
    *n = kb_yaml_map_size(node);
    return kb_alloc_rows(ld, node, *n, row_size);
}

/* Where the names of a "name / name / ...: description" mapping go: `add` fills
 * rows[n] (and counts it) for each name. */
struct name_sink {
    void *rows;
    size_t n;
    const char *value; /* the description shared by the names of one key */
};

/* The rows of a "name / name / ...: description" mapping (image flavors, JAX extras):
 * room for a row of `row_size` bytes per name, and `add` called for each name. */
static bool decode_named_descriptions(struct kb_loader *ld, struct yt_node *node, const char *what,
                                      size_t row_size,
                                      bool (*add)(struct kb_loader *, struct yt_node *, const char *,
                                                  void *),
                                      void **rows, size_t *count)
{
    size_t n = 0, total = 0;
    const char **keys = mapping_rows(ld, node, what, sizeof *keys, &n);
    for (size_t i = 0; keys && i < n; i++) {
        if (!(keys[i] = pair_key(ld, node, i)))
            return false;
        total += count_names(keys[i]);
    }
    struct name_sink sink = {kb_alloc_rows(ld, node, total, row_size), 0, NULL};
    if (!keys || !sink.rows)
        return false;
    for (size_t i = 0; i < n; i++) {
        bool ok;
        struct yt_node *value = kb_yaml_map_value(node, i);
        sink.value = kb_yaml_str(&ld->y, value, ld->arena, &ok);
        if (!ok || !split_names(ld, value, keys[i], add, &sink))
            return false;
    }
    *rows = sink.rows;
    *count = sink.n;
    return true;
}

/* ---- sources ---- */

static const struct kb_field source_fields[] = {
    FIELD(NULL, KBF_STR, struct gl_kb_source, key, false),
    FIELD("url", KBF_STR, struct gl_kb_source, url, false),
    FIELD("repo", KBF_STR, struct gl_kb_source, repo, false),
    FIELD("path", KBF_STR, struct gl_kb_source, path, false),
    FIELD("ref", KBF_STR, struct gl_kb_source, ref, false),
    FIELD("note", KBF_STR, struct gl_kb_source, note, false),
    FIELD("third_party", KBF_FLAG, struct gl_kb_source, third_party, false),
};

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static bool decode_sources(struct kb_loader *ld, struct yt_node *node, void **rows, size_t *count)
{
    size_t n = 0;
    struct gl_kb_source *src = mapping_rows(ld, node, "sources", sizeof *src, &n);
    const char **keys = src ? kb_alloc_rows(ld, node, n, sizeof *keys) : NULL;
    if (!src || !keys)
        return false;
    for (size_t i = 0; i < n; i++) {
        src[i].key = keys[i] = pair_key(ld, node, i);
        if (!keys[i] || !kb_decode_row(ld, &kb_specs[0], kb_yaml_map_value(node, i), &src[i]))
            return false;
    }
    qsort(keys, n, sizeof *keys, cmp_str);
    for (size_t i = 1; i < n; i++) {
        if (strcmp(keys[i - 1], keys[i]) == 0)
            return kb_yaml_fail(&ld->y, node, "sources: key '%.80s' appears twice", keys[i]);
    }
    ld->source_keys = keys;
    ld->n_source_keys = n;
    *rows = src;
    *count = n;
    return true;
}

/* ---- meta ---- */

static const struct kb_field meta_fields[] = {
    FIELD("collected", KBF_STR, struct gl_kb_meta, date, true),
    FIELD("purpose", KBF_STR, struct gl_kb_meta, purpose, false),
};

static bool post_meta(struct kb_loader *ld, struct yt_node *node, void *row)
{
    const char *d = ((struct gl_kb_meta *)row)->date;
    static const char shape[] = "dddd-dd-dd";
    bool ok = strlen(d) == sizeof shape - 1;
    for (size_t i = 0; ok && shape[i]; i++)
        ok = shape[i] == 'd' ? (d[i] >= '0' && d[i] <= '9') : d[i] == shape[i];
    if (!ok)
        return kb_yaml_fail(&ld->y, kb_yaml_get(node, "collected"),
                            "collected: expected a date like 2026-11-22");
    return true;
}

/* ---- toolkits, MVC, branches ---- */

static const struct kb_field toolkit_fields[] = {
    FIELD("cuda", KBF_VERSION, struct gl_kb_toolkit, cuda, true),
    FIELD("label", KBF_STR, struct gl_kb_toolkit, label, false),
    FIELD("linux_min_driver", KBF_VERSION, struct gl_kb_toolkit, linux_min_driver, true),
    FIELD("windows_min_driver", KBF_VERSION, struct gl_kb_toolkit, windows_min_driver, false),
    FIELD("runfile_bundled_driver", KBF_VERSION, struct gl_kb_toolkit, runfile_driver, false),
    FIELD("driver_branch", KBF_BRANCH, struct gl_kb_toolkit, branch, false),
    FIELD("source", KBF_SOURCE, struct gl_kb_toolkit, source, false),
    FIELD("unverified", KBF_FLAG, struct gl_kb_toolkit, unverified, false),
};

static bool post_toolkit(struct kb_loader *ld, struct yt_node *node, void *row)
{
    struct gl_kb_toolkit *t = row;
    (void)ld;
    (void)node;
    if (t->branch == 0)
        t->branch = gl_driver_branch_of(t->linux_min_driver);
    return true;
}

static const struct kb_field mvc_fields[] = {
    FIELD("cuda_major", KBF_UINT, struct gl_kb_mvc, cuda_major, true),
    FIELD("minor_version_compat", KBF_BOOL, struct gl_kb_mvc, supported, false),
    FIELD("linux_min_driver", KBF_VERSION, struct gl_kb_mvc, linux_min_driver, false),
    FIELD("windows_min_driver", KBF_VERSION, struct gl_kb_mvc, windows_min_driver, false),
    FIELD("linux_min_driver_branch", KBF_BRANCH, struct gl_kb_mvc, min_branch, false),
    FIELD("max_driver_exclusive", KBF_BRANCH, struct gl_kb_mvc, max_branch_exclusive, false),
    FIELD("source", KBF_SOURCE, struct gl_kb_mvc, source, false),
    FIELD("linux_min_driver_exact_unverified", KBF_FLAG, struct gl_kb_mvc, unverified, false),
    FIELD("windows_min_driver_unverified", KBF_FLAG, struct gl_kb_mvc, windows_unverified, false),
};

static bool post_mvc(struct kb_loader *ld, struct yt_node *node, void *row)
{
    const struct gl_kb_mvc *m = row;
    if (m->supported && !m->linux_min_driver)
        return kb_yaml_fail(&ld->y, node, "minor_version_compat: missing linux_min_driver");
    return true;
}

static const struct kb_field branch_fields[] = {
    FIELD("branch", KBF_BRANCH, struct gl_kb_branch, number, true),
    FIELD(NULL, KBF_KIND, struct gl_kb_branch, kind, false),
    FIELD("designation", KBF_STR, struct gl_kb_branch, designation, false),
    FIELD("end_of_life", KBF_STR, struct gl_kb_branch, end_of_life, false),
    FIELD("first_toolkit_driver", KBF_VERSION_LEAD, struct gl_kb_branch, first_driver, false),
    FIELD("max_cuda_native", KBF_VERSION_LEAD, struct gl_kb_branch, max_cuda, false),
    FIELD("source", KBF_SOURCE, struct gl_kb_branch, source, false),
    FIELD("designation_unverified", KBF_FLAG, struct gl_kb_branch, unverified, false),
};

static const struct {
    const char *words;
    enum gl_kb_branch_kind kind;
} branch_kinds[] = {
    {"Long Term Support", GL_BRANCH_LONG_TERM},
    {"Production", GL_BRANCH_PRODUCTION},
    {"New Feature", GL_BRANCH_NEW_FEATURE},
    {"Evaluation", GL_BRANCH_EVALUATION},
};

static bool post_branch(struct kb_loader *ld, struct yt_node *node, void *row)
{
    struct gl_kb_branch *b = row;
    (void)ld;
    (void)node;
    for (size_t i = 0; b->designation && i < sizeof branch_kinds / sizeof *branch_kinds; i++) {
        if (strstr(b->designation, branch_kinds[i].words)) {
            b->kind = branch_kinds[i].kind;
            break;
        }
    }
    return true;
}

/* ---- nvidia/cuda images ---- */

static const struct kb_field image_fields[] = {
    FIELD("grammar", KBF_STR, struct gl_kb_image, grammar, false),
    FIELD("regex", KBF_STR, struct gl_kb_image, regex, false),
    FIELD("registries", KBF_LIST, struct gl_kb_image, registries, false),
    FIELD("examples", KBF_LIST, struct gl_kb_image, examples, false),
    FIELD("cuda_version_in_tag", KBF_STR, struct gl_kb_image, cuda_version_in_tag, false),
    FIELD("support_policy", KBF_STR, struct gl_kb_image, support_policy, false),
    FIELD("source", KBF_SOURCE, struct gl_kb_image, source, false),
};

static const struct kb_field flavor_fields[] = {
    FIELD(NULL, KBF_STR, struct gl_kb_image_flavor, name, false),
    FIELD(NULL, KBF_STR, struct gl_kb_image_flavor, description, false),
};

static bool add_flavor(struct kb_loader *ld, struct yt_node *at, const char *name, void *ctx)
{
    struct name_sink *s = ctx;
    struct gl_kb_image_flavor *f = (struct gl_kb_image_flavor *)s->rows + s->n++;
    (void)ld;
    (void)at;
    f->name = name;
    f->description = s->value;
    return true;
}

static bool decode_flavors(struct kb_loader *ld, struct yt_node *node, void **rows, size_t *count)
{
    return decode_named_descriptions(ld, node, "flavors", sizeof(struct gl_kb_image_flavor),
                                     add_flavor, rows, count);
}

static const struct kb_field os_fields[] = {
    FIELD(NULL, KBF_STR, struct gl_kb_image_os, family, false),
    FIELD(NULL, KBF_STR, struct gl_kb_image_os, token, false),
    FIELD(NULL, KBF_STR, struct gl_kb_image_os, note, false),
};

/* os_tokens: family -> list of "token" or "token (note)"; non-list entries are remarks. */
static bool decode_os_tokens(struct kb_loader *ld, struct yt_node *node, void **rows, size_t *count)
{
    if (!expect_mapping(ld, node, "os_tokens"))
        return false;
    size_t n = kb_yaml_map_size(node), total = 0;
    for (size_t i = 0; i < n; i++)
        total += kb_yaml_seq_size(kb_yaml_map_value(node, i));
    struct gl_kb_image_os *os = kb_alloc_rows(ld, node, total, sizeof *os);
    if (!os)
        return false;
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        struct yt_node *value = kb_yaml_map_value(node, i);
        if (!yt_is_seq(value))
            continue;
        const char *family = pair_key(ld, node, i);
        struct gl_kb_strlist list;
        if (!family || !kb_decode_list(ld, value, &list))
            return false;
        for (size_t j = 0; j < list.count; j++, k++) {
            const char *t = list.items[j];
            const char *paren = strstr(t, " (");
            size_t len = strlen(t);
            os[k].family = family;
            if (paren && len > 0 && t[len - 1] == ')') {
                os[k].token = gl_arena_strndup(ld->arena, t, (size_t)(paren - t));
                os[k].note = gl_arena_strndup(ld->arena, paren + 2, (size_t)(t + len - 1 - (paren + 2)));
            } else {
                os[k].token = t;
            }
        }
    }
    *rows = os;
    *count = k;
    return true;
}

static const struct kb_field cudart_fields[] = {
    FIELD(NULL, KBF_STR, struct gl_kb_cudart, cuda, false),
    FIELD(NULL, KBF_STR, struct gl_kb_cudart, cudart, false),
};

static bool decode_cudart(struct kb_loader *ld, struct yt_node *node, void **rows, size_t *count)
{
    size_t n = 0;
    struct gl_kb_cudart *c = mapping_rows(ld, node, "cudart_version_by_cuda", sizeof *c, &n);
    if (!c)
        return false;
    for (size_t i = 0; i < n; i++) {
        bool ok;
        c[i].cuda = pair_key(ld, node, i);
        if (!c[i].cuda)
            return false;
        if (!gl_version_valid(c[i].cuda))
            return kb_yaml_fail(&ld->y, kb_yaml_map_key(node, i), "expected a CUDA version");
        c[i].cudart = kb_yaml_str(&ld->y, kb_yaml_map_value(node, i), ld->arena, &ok);
        if (!ok)
            return false;
    }
    *rows = c;
    *count = n;
    return true;
}

static const struct kb_field fwdcompat_fields[] = {
    FIELD(NULL, KBF_STR, struct gl_kb_fwdcompat, pattern, false),
    FIELD(NULL, KBF_STR, struct gl_kb_fwdcompat, first, false),
    FIELD(NULL, KBF_STR, struct gl_kb_fwdcompat, last, false),
    FIELD(NULL, KBF_UINT, struct gl_kb_fwdcompat, fields, false),
    FIELD(NULL, KBF_LIST, struct gl_kb_fwdcompat, branches, false),
};

/* "12.2.x" (a minor series), "11.4.0-11.4.2" (a range), "10.2" (a minor), "13.0.0". */
static bool parse_cuda_pattern(struct kb_loader *ld, struct gl_kb_fwdcompat *f)
{
    const char *p = f->pattern;
    const char *dash = strchr(p, '-');
    size_t len = strlen(p);
    if (dash) {
        f->first = gl_arena_strndup(ld->arena, p, (size_t)(dash - p));
        f->last = dash + 1;
    } else if (len > 2 && strcmp(p + len - 2, ".x") == 0) {
        f->first = f->last = gl_arena_strndup(ld->arena, p, len - 2);
        f->fields = 2;
    } else {
        f->first = f->last = p;
        f->fields = strchr(p, '.') == strrchr(p, '.') ? 2 : 0;
    }
    return gl_version_valid(f->first) && gl_version_valid(f->last);
}

static bool decode_fwdcompat(struct kb_loader *ld, struct yt_node *node, void **rows, size_t *count)
{
    size_t n = 0;
    struct gl_kb_fwdcompat *f =
        mapping_rows(ld, node, "nvidia_cuda_image_fwdcompat_branches.table", sizeof *f, &n);
    if (!f)
        return false;
    for (size_t i = 0; i < n; i++) {
        f[i].pattern = pair_key(ld, node, i);
        if (!f[i].pattern)
            return false;
        if (!parse_cuda_pattern(ld, &f[i]))
            return kb_yaml_fail(&ld->y, kb_yaml_map_key(node, i),
                                "expected a CUDA version, X.Y.x or a range A-B");
        if (!kb_decode_list(ld, kb_yaml_map_value(node, i), &f[i].branches))
            return false;
    }
    *rows = f;
    *count = n;
    return true;
}

/* ---- NGC ---- */

static const struct kb_field ngc_container_fields[] = {
    FIELD(NULL, KBF_STR, struct gl_kb_ngc_container, name, false),
    FIELD(NULL, KBF_STR, struct gl_kb_ngc_container, tag_format, false),
};

/* tag_formats: container -> "nvcr.io/nvidia/<container>:..."; other keys are remarks. */
static bool decode_ngc_containers(struct kb_loader *ld, struct yt_node *node, void **rows,
                                  size_t *count)
{
    size_t n = 0, k = 0;
    struct gl_kb_ngc_container *c = mapping_rows(ld, node, "ngc_containers.tag_formats", sizeof *c, &n);
    if (!c)
        return false;
    for (size_t i = 0; i < n; i++) {
        struct yt_node *value = kb_yaml_map_value(node, i);
        if (!yt_is_scalar(value))
            continue;
        bool ok;
        const char *format = kb_yaml_str(&ld->y, value, ld->arena, &ok);
        if (!ok)
            return false;
        if (!format || !gl_has_prefix(format, "nvcr.io/"))
            continue;
        c[k].name = pair_key(ld, node, i);
        c[k].tag_format = format;
        if (!c[k++].name)
            return false;
    }
    *rows = c;
    *count = k;
    return true;
}

static const struct kb_field ngc_release_fields[] = {
    FIELD("tag", KBF_STR, struct gl_kb_ngc_release, tag, true),
    FIELD("cuda", KBF_VERSION_LEAD, struct gl_kb_ngc_release, cuda, true),
    FIELD("cuda", KBF_STR, struct gl_kb_ngc_release, cuda_text, false),
    FIELD("stated_min_driver_branch", KBF_BRANCH_LEAD, struct gl_kb_ngc_release, stated_min_branch, false),
    FIELD("table3_linux_driver_for_cuda", KBF_VERSION, struct gl_kb_ngc_release, table3_driver, false),
    FIELD("mvc_floor_linux_driver", KBF_VERSION, struct gl_kb_ngc_release, mvc_floor_driver, false),
    FIELD("datacenter_fwd_compat_drivers", KBF_LIST, struct gl_kb_ngc_release, fwd_compat_drivers, false),
    FIELD("not_forward_compatible_branches", KBF_LIST, struct gl_kb_ngc_release, not_fwd_compat_branches,
          false),
    FIELD("release_notes_framework", KBF_STR, struct gl_kb_ngc_release, notes_framework, false),
    FIELD("min_compute_capability", KBF_VERSION, struct gl_kb_ngc_release, min_cc, false),
    FIELD("source", KBF_SOURCE, struct gl_kb_ngc_release, source, false),
    FIELD("unverified", KBF_FLAG, struct gl_kb_ngc_release, unverified, false),
    FIELD("cuda_patch_unverified", KBF_FLAG, struct gl_kb_ngc_release, unverified, false),
};

static bool is_yy_mm(const char *t)
{
    unsigned mm;
    return strlen(t) == 5 && t[2] == '.' && gl_version_valid(t) && gl_version_field(t, 1, &mm) &&
           mm >= 1 && mm <= 12;
}

static bool post_ngc_release(struct kb_loader *ld, struct yt_node *node, void *row)
{
    struct gl_kb_ngc_release *r = row;
    if (!is_yy_mm(r->tag))
        return kb_yaml_fail(&ld->y, kb_yaml_get(node, "tag"), "tag: expected YY.MM like 24.05");
    if (r->cuda_text && strcmp(r->cuda_text, r->cuda) == 0)
        r->cuda_text = NULL; /* only kept when it says more than the version */
    return true;
}

/* ---- frameworks ---- */

static const struct kb_field torch_fields[] = {
    FIELD("torch", KBF_VERSION, struct gl_kb_torch, torch, true),
    FIELD("stable_cuda", KBF_LIST, struct gl_kb_torch, stable_cuda, false),
    FIELD("experimental_cuda", KBF_LIST, struct gl_kb_torch, experimental_cuda, false),
    FIELD("wheel_variants", KBF_LIST, struct gl_kb_torch, variants, false),
    FIELD("source", KBF_SOURCE, struct gl_kb_torch, source, false),
    FIELD("unverified", KBF_FLAG, struct gl_kb_torch, unverified, false),
};

static bool post_torch(struct kb_loader *ld, struct yt_node *node, void *row)
{
    const struct gl_kb_torch *t = row;
    char cuda[16];
    for (size_t i = 0; i < t->variants.count; i++) {
        if (!gl_torch_variant_cuda(t->variants.items[i], cuda, sizeof cuda))
            return kb_yaml_fail(&ld->y, kb_yaml_get(node, "wheel_variants"),
                                "wheel_variants: expected cuNNN, found '%.40s'", t->variants.items[i]);
    }
    return true;
}

static const struct kb_field tf_fields[] = {
    FIELD("tensorflow", KBF_STR, struct gl_kb_tf, name, true),
    FIELD(NULL, KBF_STR, struct gl_kb_tf, package, false),
    FIELD(NULL, KBF_STR, struct gl_kb_tf, first, false),
    FIELD(NULL, KBF_STR, struct gl_kb_tf, last, false),
    FIELD("cuda", KBF_VERSION, struct gl_kb_tf, cuda, true),
    FIELD("cudnn", KBF_STR, struct gl_kb_tf, cudnn, false),
    FIELD("python", KBF_STR, struct gl_kb_tf, python, false),
    FIELD("source", KBF_SOURCE, struct gl_kb_tf, source, false),
};

/* One version of a tensorflow name, after an optional package prefix. */
static const char *strip_tf_prefix(const char *s)
{
    static const char *const prefixes[] = {"tensorflow_gpu-", "gpu-"};
    for (size_t i = 0; i < sizeof prefixes / sizeof *prefixes; i++) {
        if (gl_has_prefix(s, prefixes[i]))
            return s + strlen(prefixes[i]);
    }
    return s;
}

/* "2.18.0", "tensorflow_gpu-1.15.0", "tensorflow_gpu-1.5.0 .. gpu-1.11.0". */
static bool post_tf(struct kb_loader *ld, struct yt_node *node, void *row)
{
    struct gl_kb_tf *t = row;
    t->package = gl_has_prefix(t->name, "tensorflow_gpu-") ? "tensorflow_gpu" : "tensorflow";
    const char *range = strstr(t->name, " .. ");
    const char *first = strip_tf_prefix(t->name);
    t->first = range ? gl_arena_strndup(ld->arena, first, (size_t)(range - first)) : first;
    t->last = range ? strip_tf_prefix(range + 4) : t->first;
    if (!gl_version_valid(t->first) || !gl_version_valid(t->last))
        return kb_yaml_fail(&ld->y, kb_yaml_get(node, "tensorflow"),
                            "tensorflow: expected a version or 'A .. B', found '%.80s'", t->name);
    return true;
}

static const struct kb_field jax_fields[] = {
    FIELD(NULL, KBF_STR, struct gl_kb_jax, extra, false),
    FIELD(NULL, KBF_UINT, struct gl_kb_jax, cuda_major, false),
    FIELD(NULL, KBF_STR, struct gl_kb_jax, description, false),
};

/* Number right after `prefix` at the start of s ("cuda12_local" -> 12); 0 if none. */
static unsigned number_after(struct kb_loader *ld, const char *s, const char *prefix)
{
    if (!gl_has_prefix(s, prefix))
        return 0;
    s += strlen(prefix);
    size_t n = 0;
    while (s[n] >= '0' && s[n] <= '9')
        n++;
    unsigned v = 0;
    if (n == 0 || !gl_version_field(gl_arena_strndup(ld->arena, s, n), 0, &v))
        return 0;
    return v;
}

static bool add_jax_extra(struct kb_loader *ld, struct yt_node *at, const char *name, void *ctx)
{
    struct name_sink *s = ctx;
    size_t len = strlen(name);
    (void)at;
    if (!gl_has_prefix(name, "jax[") || name[len - 1] != ']')
        return true; /* "jaxlib==..." spellings are not extras */
    struct gl_kb_jax *j = (struct gl_kb_jax *)s->rows + s->n;
    j->extra = gl_arena_strndup(ld->arena, name + 4, len - 5);
    j->cuda_major = number_after(ld, j->extra, "cuda");
    j->description = s->value;
    if (j->cuda_major)
        s->n++;
    return true;
}

static bool decode_jax(struct kb_loader *ld, struct yt_node *node, void **rows, size_t *count)
{
    return decode_named_descriptions(ld, node, "jax_cuda.extras", sizeof(struct gl_kb_jax),
                                     add_jax_extra, rows, count);
}

static const struct kb_field jax_info_fields[] = {
    FIELD("driver_requirement", KBF_STR, struct gl_kb_jax_info, driver_requirement, false),
    FIELD("skip_check_env", KBF_STR, struct gl_kb_jax_info, skip_check_env, false),
    FIELD("local_cuda_wheel_matrix", KBF_STR, struct gl_kb_jax_info, local_cuda_wheel_matrix, false),
    FIELD("gpu_arch", KBF_STR, struct gl_kb_jax_info, gpu_arch, false),
};

static const struct kb_field pip_fields[] = {
    FIELD(NULL, KBF_UINT, struct gl_kb_pip, cuda_major, false),
    FIELD(NULL, KBF_STR, struct gl_kb_pip, suffix, false),
    FIELD(NULL, KBF_FLAG, struct gl_kb_pip, unsuffixed, false),
    FIELD(NULL, KBF_STR, struct gl_kb_pip, description, false),
};

/* nvidia_pip_packages: "cudaNN" -> description of that major's wheels ("unsuffixed
 * names: ..." when the major dropped the -cuNN suffix); other keys are remarks. */
static bool decode_pip(struct kb_loader *ld, struct yt_node *node, void **rows, size_t *count)
{
    size_t n = 0, k = 0;
    struct gl_kb_pip *p = mapping_rows(ld, node, "nvidia_pip_packages", sizeof *p, &n);
    if (!p)
        return false;
    for (size_t i = 0; i < n; i++) {
        const char *key = pair_key(ld, node, i);
        if (!key)
            return false;
        unsigned major = number_after(ld, key, "cuda");
        if (!major || strlen(key) != strlen("cuda") + (major >= 10 ? 2 : 1))
            continue;
        bool ok;
        p[k].cuda_major = major;
        p[k].suffix = gl_arena_printf(ld->arena, "-cu%u", major);
        p[k].description = kb_yaml_str(&ld->y, kb_yaml_map_value(node, i), ld->arena, &ok);
        if (!ok)
            return false;
        p[k].unsuffixed = p[k].description && gl_has_prefix(p[k].description, "unsuffixed");
        k++;
    }
    *rows = p;
    *count = k;
    return true;
}

static const struct kb_field ort_fields[] = {
    FIELD("onnxruntime", KBF_STR, struct gl_kb_ort, onnxruntime, true),
    FIELD(NULL, KBF_STR, struct gl_kb_ort, first, false),
    FIELD(NULL, KBF_STR, struct gl_kb_ort, last, false),
    FIELD("cuda", KBF_VERSION, struct gl_kb_ort, cuda, true),
    FIELD("source", KBF_SOURCE, struct gl_kb_ort, source, false),
};

/* "1.15 .. 1.18" or "1.8": the first and last major.minor of the row. */
static bool post_ort(struct kb_loader *ld, struct yt_node *node, void *row)
{
    struct gl_kb_ort *o = row;
    const char *range = strstr(o->onnxruntime, " .. ");
    o->first = range ? gl_arena_strndup(ld->arena, o->onnxruntime,
                                        (size_t)(range - o->onnxruntime))
                     : o->onnxruntime;
    o->last = range ? range + 4 : o->first;
    if (!gl_version_valid(o->first) || !gl_version_valid(o->last))
        return kb_yaml_fail(&ld->y, kb_yaml_get(node, "onnxruntime"),
                            "onnxruntime: expected a version or 'A .. B', found '%.80s'",
                            o->onnxruntime);
    return true;
}

static const struct kb_field image_release_fields[] = {
    FIELD("image", KBF_STR, struct gl_kb_image_release, image, true),
    FIELD("tag", KBF_STR, struct gl_kb_image_release, tag, false),
    FIELD("dated_from", KBF_STR, struct gl_kb_image_release, dated_from, false),
    FIELD("dated_until", KBF_STR, struct gl_kb_image_release, dated_until, false),
    FIELD("release", KBF_VERSION, struct gl_kb_image_release, release, false),
    FIELD("alias", KBF_STR, struct gl_kb_image_release, alias, false),
    FIELD("cuda", KBF_VERSION, struct gl_kb_image_release, cuda, true),
    FIELD("base", KBF_STR, struct gl_kb_image_release, base, false),
    FIELD("source", KBF_SOURCE, struct gl_kb_image_release, source, true),
    FIELD("unverified", KBF_FLAG, struct gl_kb_image_release, unverified, false),
};

static bool iso_date(const char *s)
{
    return strlen(s) == 10 && gl_kb_iso_date_at(s);
}

/* The tag of a row's base (NULL: no base, or a base without a tag), read as image
 * references are: `host:5000/x` has no tag, `x:1@sha256:...` has the tag 1. False (the load
 * fails) when the base is not an image reference. */
static bool base_tag(struct kb_loader *ld, struct yt_node *node, const char *base,
                     const char **tag)
{
    struct gl_imageref ref;
    *tag = NULL;
    if (!base)
        return true;
    if (gl_imageref_parse(ld->arena, base, strlen(base), (struct gl_loc){0, 0}, &ref, NULL))
        return kb_yaml_fail(&ld->y, kb_yaml_get(node, "base"),
                            "base: expected an image reference, found '%.80s'", base);
    *tag = ref.tag;
    return true;
}

/* A row names its image as references are normalised (registry/path, no tag) and either a
 * tag of its own or a range of nightly dates; a base that is an NGC month of the table
 * agrees with that month's CUDA, in as many fields as the row gives, and a base tag's
 * `cuda13.0` token with the row's major.minor. At the last row, the rows of one image
 * across the table (kb_image_releases_check). */
static bool post_image_release(struct kb_loader *ld, struct yt_node *node, void *row)
{
    struct gl_kb_image_release *r = row;
    if (!strchr(r->image, '/') || strpbrk(r->image, ":@ "))
        return kb_yaml_fail(&ld->y, kb_yaml_get(node, "image"),
                            "image: expected a repository without a tag, found '%.80s'",
                            r->image);
    unsigned forms = !!r->tag + !!(r->dated_from || r->dated_until) + !!(r->release || r->alias);
    if (forms != 1 || (r->tag && (!*r->tag || strpbrk(r->tag, ":@ "))) ||
        (!r->tag && !r->alias && (!r->dated_from || !r->dated_until)) ||
        (r->alias && (!r->release || !*r->alias || strpbrk(r->alias, ":@ -"))) ||
        (r->release && !r->alias))
        return kb_yaml_fail(&ld->y, node,
                            "expected one tag, or dated_from and dated_until, or a release "
                            "and its alias (one of the three)");
    if (r->dated_from && (!iso_date(r->dated_from) || !iso_date(r->dated_until) ||
                    strcmp(r->dated_from, r->dated_until) > 0))
        return kb_yaml_fail(&ld->y, kb_yaml_get(node, "dated_from"),
                            "dated_from/dated_until: expected YYYY-MM-DD, from <= until");
    const char *tag = NULL;
    if (!base_tag(ld, node, r->base, &tag))
        return false;
    const struct gl_kb_ngc_release *ngc = NULL;
    for (size_t i = 0; tag && i < ld->kb->n_ngc_releases; i++)
        if (!strncmp(ld->kb->ngc_releases[i].tag, tag, 5) && tag[5] == '-')
            ngc = &ld->kb->ngc_releases[i];
    unsigned fields = 1;
    for (const char *c = r->cuda; c && *c; c++)
        fields += *c == '.';
    int cmp = 0;
    if (ngc && ngc->cuda && r->cuda &&
        (!gl_version_compare(ngc->cuda, r->cuda, fields, &cmp) || cmp))
        return kb_yaml_fail(&ld->y, kb_yaml_get(node, "cuda"),
                            "cuda: %s, but its base %s is CUDA %s in ngc_containers",
                            r->cuda, r->base, ngc->cuda);
    char token[16];
    size_t tok_len = 0, digits = 0;
    long tok = r->cuda ? gl_imageref_cuda_token(tag, &tok_len) : -1;
    bool tagged = tok >= 0 && gl_cuda_token_version(tag + tok, tok_len, token, sizeof token,
                                                    &digits);
    /* in as many fields as both give, at most two (`cuda12`: one) */
    unsigned both = !tagged || !strchr(token, '.') ? 1 : fields < 2 ? fields : 2;
    if (tagged && (!gl_version_compare(token, r->cuda, both, &cmp) || cmp))
        return kb_yaml_fail(&ld->y, kb_yaml_get(node, "cuda"),
                            "cuda: %s, but its base %.120s is tagged CUDA %s", r->cuda,
                            r->base, token);
    if (ld->row + 1 == ld->nrows) /* the last row: the table across its rows */
        return kb_image_releases_check(ld, ld->table, ld->rows, ld->nrows);
    return true;
}

static const struct kb_field error_fields[] = {
    FIELD("text", KBF_STR, struct gl_kb_error_string, text, true),
    FIELD("code", KBF_STR, struct gl_kb_error_string, code, false),
    FIELD("layer", KBF_STR, struct gl_kb_error_string, layer, false),
    FIELD("meaning", KBF_STR, struct gl_kb_error_string, meaning, false),
    FIELD("source", KBF_SOURCE, struct gl_kb_error_string, source, false),
    FIELD("unverified", KBF_FLAG, struct gl_kb_error_string, unverified, false),
};

/* ---- GPU architectures ---- */

static const struct kb_field gpu_family_fields[] = {
    FIELD("family", KBF_STR, struct gl_kb_gpu_family, family, true),
    FIELD("sm", KBF_LIST, struct gl_kb_gpu_family, sm, false),
    FIELD("compute_capability", KBF_LIST, struct gl_kb_gpu_family, cc, true),
    FIELD("products_example", KBF_LIST, struct gl_kb_gpu_family, products, false),
    FIELD("names", KBF_LIST, struct gl_kb_gpu_family, names, false),
    FIELD("names_source", KBF_SOURCE, struct gl_kb_gpu_family, names_source, false),
    FIELD("first_cuda", KBF_VERSION_LEAD, struct gl_kb_gpu_family, first_cuda, false),
    FIELD("last_cuda", KBF_STR, struct gl_kb_gpu_family, last_cuda, false),
    FIELD("removed_in_cuda", KBF_VERSION_LEAD, struct gl_kb_gpu_family, removed_in_cuda, false),
    FIELD("last_driver_branch", KBF_BRANCH, struct gl_kb_gpu_family, last_driver_branch, false),
    FIELD("min_driver_branch", KBF_BRANCH, struct gl_kb_gpu_family, min_driver_branch, false),
    FIELD("source", KBF_SOURCE, struct gl_kb_gpu_family, source, false),
    FIELD("unverified", KBF_FLAG, struct gl_kb_gpu_family, unverified, false),
    FIELD("products_unverified", KBF_FLAG, struct gl_kb_gpu_family, unverified, false),
    FIELD("device_cc_unverified", KBF_FLAG, struct gl_kb_gpu_family, unverified, false),
    FIELD("first_cuda_unverified", KBF_FLAG, struct gl_kb_gpu_family, first_cuda_unverified, false),
    FIELD("last_driver_branch_unverified", KBF_FLAG, struct gl_kb_gpu_family, unverified, false),
};

/* Is the compute capability text cc ("9.0", len bytes) one of the row's? */
static bool family_has_cc(const struct gl_kb_gpu_family *f, const char *cc, size_t len)
{
    for (size_t i = 0; i < f->cc.count; i++) {
        if (strlen(f->cc.items[i]) == len && !memcmp(f->cc.items[i], cc, len))
            return true;
    }
    return false;
}

/* Compute capabilities are X.Y; a name is "NAME" (every CC of the row) or "NAME=X.Y" (one
 * of the row's CCs). */
static bool post_gpu_family(struct kb_loader *ld, struct yt_node *node, void *row)
{
    const struct gl_kb_gpu_family *f = row;
    unsigned sm;
    for (size_t i = 0; i < f->cc.count; i++) {
        const char *cc = f->cc.items[i];
        if (!strchr(cc, '.') || !gl_sm_parse(cc, strlen(cc), &sm))
            return kb_yaml_fail(&ld->y, kb_yaml_get(node, "compute_capability"),
                                "compute_capability: expected X.Y, found '%.80s'", cc);
    }
    for (size_t i = 0; i < f->names.count; i++) {
        const char *name = f->names.items[i], *eq = strchr(name, '=');
        if (eq == name || (eq && !family_has_cc(f, eq + 1, strlen(eq + 1))))
            return kb_yaml_fail(&ld->y, kb_yaml_get(node, "names"),
                                "names: '%.80s' is not NAME or NAME=CC with a CC of the row", name);
    }
    return true;
}

/* torch_cuda_arch_lists.releases: one row per (release, variant); the release's torch,
 * source and unverified flag are the defaults of its variants' rows. */
static const struct kb_field torch_arch_fields[] = {
    FIELD("torch", KBF_VERSION, struct gl_kb_torch_arch, torch, false),
    FIELD("variant", KBF_STR, struct gl_kb_torch_arch, variant, false),
    FIELD("torch_cuda_arch_list", KBF_STR, struct gl_kb_torch_arch, arch_list, false),
    FIELD("sass", KBF_LIST, struct gl_kb_torch_arch, sass, false),
    FIELD("ptx", KBF_LIST, struct gl_kb_torch_arch, ptx, false),
    FIELD("source", KBF_SOURCE, struct gl_kb_torch_arch, source, false),
    FIELD("unverified", KBF_FLAG, struct gl_kb_torch_arch, unverified, false),
};
static const struct kb_field torch_release_fields[] = {
    FIELD("torch", KBF_VERSION, struct gl_kb_torch_arch, torch, true),
    FIELD("source", KBF_SOURCE, struct gl_kb_torch_arch, source, false),
    FIELD("unverified", KBF_FLAG, struct gl_kb_torch_arch, unverified, false),
};
static const struct kb_field torch_variant_fields[] = {
    FIELD("variant", KBF_STR, struct gl_kb_torch_arch, variant, true),
    FIELD("torch_cuda_arch_list", KBF_STR, struct gl_kb_torch_arch, arch_list, false),
    FIELD("sass", KBF_LIST, struct gl_kb_torch_arch, sass, true),
    FIELD("ptx", KBF_LIST, struct gl_kb_torch_arch, ptx, false),
    FIELD("unverified", KBF_FLAG, struct gl_kb_torch_arch, unverified, false),
};

/* Every sass entry is sm_XY and every ptx entry compute_XY; the variant is a CUDA one. */
static bool post_torch_arch(struct kb_loader *ld, struct yt_node *node, void *row)
{
    const struct gl_kb_torch_arch *t = row;
    char cuda[16];
    if (!gl_torch_variant_cuda(t->variant, cuda, sizeof cuda))
        return kb_yaml_fail(&ld->y, kb_yaml_get(node, "variant"),
                            "variant: expected cuNNN, found '%.80s'", t->variant);
    const struct gl_kb_strlist *lists[] = {&t->sass, &t->ptx};
    for (size_t l = 0; l < 2; l++) {
        for (size_t i = 0; i < lists[l]->count; i++) {
            const char *s = lists[l]->items[i];
            struct gl_arch a;
            if (!gl_arch_parse(s, strlen(s), &a) || a.code != (l ? GL_ARCH_PTX : GL_ARCH_SASS))
                return kb_yaml_fail(&ld->y, kb_yaml_get(node, l ? "ptx" : "sass"),
                                    "%s: expected %s, found '%.80s'", l ? "ptx" : "sass",
                                    l ? "compute_XY" : "sm_XY", s);
        }
    }
    return true;
}

static const struct kb_spec torch_release_spec = {
    "torch_archs", {NULL}, KB_ROWS, false, "struct gl_kb_torch_arch", sizeof(struct gl_kb_torch_arch),
    torch_release_fields, sizeof torch_release_fields / sizeof *torch_release_fields, 0, 0,
    offsetof(struct gl_kb_torch_arch, unverified), NULL, NULL};
static const struct kb_spec torch_variant_spec = {
    "torch_archs", {NULL}, KB_ROWS, false, "struct gl_kb_torch_arch", sizeof(struct gl_kb_torch_arch),
    torch_variant_fields, sizeof torch_variant_fields / sizeof *torch_variant_fields, 0, 0,
    offsetof(struct gl_kb_torch_arch, unverified), NULL, post_torch_arch};

static bool decode_torch_archs(struct kb_loader *ld, struct yt_node *node, void **rows, size_t *count)
{
    if (!yt_is_seq(node))
        return kb_yaml_fail(&ld->y, node, "torch_cuda_arch_lists.releases: expected a list of rows");
    size_t nrel = kb_yaml_seq_size(node), total = 0;
    for (size_t i = 0; i < nrel; i++) {
        struct yt_node *v = yt_is_map(kb_yaml_seq_item(node, i))
                                ? kb_yaml_get(kb_yaml_seq_item(node, i), "variants") : NULL;
        if (!v || !yt_is_seq(v))
            return kb_yaml_fail(&ld->y, kb_yaml_seq_item(node, i),
                                "torch_cuda_arch_lists: a release needs a list of variants");
        total += kb_yaml_seq_size(v);
    }
    struct gl_kb_torch_arch *out = kb_alloc_rows(ld, node, total, sizeof *out);
    if (!out)
        return false;
    size_t n = 0;
    for (size_t i = 0; i < nrel; i++) {
        struct yt_node *rel = kb_yaml_seq_item(node, i), *vars = kb_yaml_get(rel, "variants");
        struct gl_kb_torch_arch base = {0};
        if (!kb_decode_row(ld, &torch_release_spec, rel, &base))
            return false;
        for (size_t k = 0; k < kb_yaml_seq_size(vars); k++) {
            out[n] = base;
            if (!kb_decode_row(ld, &torch_variant_spec, kb_yaml_seq_item(vars, k), &out[n]))
                return false;
            n++;
        }
    }
    *rows = out;
    *count = n;
    return true;
}

/* ---- the schema ---- */

#define N(a) (sizeof a / sizeof *a)
#define TABLE(member, count) offsetof(struct gl_kb, member), offsetof(struct gl_kb, count)
#define OBJECT(member) offsetof(struct gl_kb, member), 0

/* Order matters: sources first, so that every later row's source can be checked. */
const struct kb_spec kb_specs[] = {
    {"sources", {"sources"}, KB_CUSTOM, true, "struct gl_kb_source", sizeof(struct gl_kb_source),
     source_fields, N(source_fields), TABLE(sources, n_sources), KB_NO_FIELD, decode_sources, NULL},
    {"meta", {"meta"}, KB_OBJECT, true, "struct gl_kb_meta", sizeof(struct gl_kb_meta), meta_fields,
     N(meta_fields), OBJECT(meta), KB_NO_FIELD, NULL, post_meta},
    {"toolkits", {"cuda_toolkit_drivers"}, KB_ROWS, true, "struct gl_kb_toolkit",
     sizeof(struct gl_kb_toolkit), toolkit_fields, N(toolkit_fields), TABLE(toolkits, n_toolkits),
     offsetof(struct gl_kb_toolkit, unverified), NULL, post_toolkit},
    {"mvc", {"minor_version_compat"}, KB_ROWS, true, "struct gl_kb_mvc", sizeof(struct gl_kb_mvc),
     mvc_fields, N(mvc_fields), TABLE(mvc, n_mvc), offsetof(struct gl_kb_mvc, unverified), NULL, post_mvc},
    {"branches", {"driver_branches"}, KB_ROWS, true, "struct gl_kb_branch", sizeof(struct gl_kb_branch),
     branch_fields, N(branch_fields), TABLE(branches, n_branches), offsetof(struct gl_kb_branch, unverified),
     NULL, post_branch},
    {"image", {"nvidia_cuda_image_tags"}, KB_OBJECT, false, "struct gl_kb_image", sizeof(struct gl_kb_image),
     image_fields, N(image_fields), OBJECT(image), KB_NO_FIELD, NULL, NULL},
    {"flavors", {"nvidia_cuda_image_tags", "flavors"}, KB_CUSTOM, false, "struct gl_kb_image_flavor",
     sizeof(struct gl_kb_image_flavor), flavor_fields, N(flavor_fields), TABLE(flavors, n_flavors),
     KB_NO_FIELD, decode_flavors, NULL},
    {"os_tokens", {"nvidia_cuda_image_tags", "os_tokens"}, KB_CUSTOM, false, "struct gl_kb_image_os",
     sizeof(struct gl_kb_image_os), os_fields, N(os_fields), TABLE(os_tokens, n_os_tokens), KB_NO_FIELD,
     decode_os_tokens, NULL},
    {"cudart", {"nvidia_cuda_image_env", "cudart_version_by_cuda"}, KB_CUSTOM, false, "struct gl_kb_cudart",
     sizeof(struct gl_kb_cudart), cudart_fields, N(cudart_fields), TABLE(cudart, n_cudart), KB_NO_FIELD,
     decode_cudart, NULL},
    {"fwdcompat", {"forward_compat", "nvidia_cuda_image_fwdcompat_branches", "table"}, KB_CUSTOM, false,
     "struct gl_kb_fwdcompat", sizeof(struct gl_kb_fwdcompat), fwdcompat_fields, N(fwdcompat_fields),
     TABLE(fwdcompat, n_fwdcompat), KB_NO_FIELD, decode_fwdcompat, NULL},
    {"ngc_containers", {"ngc_containers", "tag_formats"}, KB_CUSTOM, false, "struct gl_kb_ngc_container",
     sizeof(struct gl_kb_ngc_container), ngc_container_fields, N(ngc_container_fields),
     TABLE(ngc_containers, n_ngc_containers), KB_NO_FIELD, decode_ngc_containers, NULL},
    {"ngc_releases", {"ngc_containers", "releases"}, KB_ROWS, false, "struct gl_kb_ngc_release",
     sizeof(struct gl_kb_ngc_release), ngc_release_fields, N(ngc_release_fields),
     TABLE(ngc_releases, n_ngc_releases), offsetof(struct gl_kb_ngc_release, unverified), NULL,
     post_ngc_release},
    {"image_releases", {"image_releases", "releases"}, KB_ROWS, false,
     "struct gl_kb_image_release", sizeof(struct gl_kb_image_release), image_release_fields,
     N(image_release_fields), TABLE(image_releases, n_image_releases),
     offsetof(struct gl_kb_image_release, unverified), NULL, post_image_release},
    {"torch", {"torch_cuda_variants", "releases"}, KB_ROWS, false, "struct gl_kb_torch",
     sizeof(struct gl_kb_torch), torch_fields, N(torch_fields), TABLE(torch, n_torch),
     offsetof(struct gl_kb_torch, unverified), NULL, post_torch},
    {"tf", {"tensorflow_cuda", "tested_builds_linux_gpu"}, KB_ROWS, false, "struct gl_kb_tf",
     sizeof(struct gl_kb_tf), tf_fields, N(tf_fields), TABLE(tf, n_tf), KB_NO_FIELD, NULL, post_tf},
    {"jax", {"jax_cuda", "extras"}, KB_CUSTOM, false, "struct gl_kb_jax", sizeof(struct gl_kb_jax), jax_fields,
     N(jax_fields), TABLE(jax, n_jax), KB_NO_FIELD, decode_jax, NULL},
    {"jax_info", {"jax_cuda"}, KB_OBJECT, false, "struct gl_kb_jax_info", sizeof(struct gl_kb_jax_info),
     jax_info_fields, N(jax_info_fields), OBJECT(jax_info), KB_NO_FIELD, NULL, NULL},
    {"pip", {"nvidia_pip_packages"}, KB_CUSTOM, false, "struct gl_kb_pip", sizeof(struct gl_kb_pip),
     pip_fields, N(pip_fields), TABLE(pip, n_pip), KB_NO_FIELD, decode_pip, NULL},
    {"ort", {"onnxruntime_gpu_cuda", "pypi"}, KB_ROWS, false, "struct gl_kb_ort",
     sizeof(struct gl_kb_ort), ort_fields, N(ort_fields), TABLE(ort, n_ort), KB_NO_FIELD, NULL,
     post_ort},
    {"errors", {"error_strings"}, KB_ROWS, false, "struct gl_kb_error_string",
     sizeof(struct gl_kb_error_string), error_fields, N(error_fields), TABLE(errors, n_errors),
     offsetof(struct gl_kb_error_string, unverified), NULL, NULL},
    {"gpu_families", {"gpu_architectures", "families"}, KB_ROWS, false, "struct gl_kb_gpu_family",
     sizeof(struct gl_kb_gpu_family), gpu_family_fields, N(gpu_family_fields),
     TABLE(gpu_families, n_gpu_families), offsetof(struct gl_kb_gpu_family, unverified), NULL,
     post_gpu_family},
    {"torch_archs", {"torch_cuda_arch_lists", "releases"}, KB_CUSTOM, false, "struct gl_kb_torch_arch",
     sizeof(struct gl_kb_torch_arch), torch_arch_fields, N(torch_arch_fields),
     TABLE(torch_archs, n_torch_archs), offsetof(struct gl_kb_torch_arch, unverified),
     decode_torch_archs, NULL},
};
const size_t kb_n_specs = N(kb_specs);

const void *kb_spec_rows(const struct kb_spec *spec, const struct gl_kb *kb, size_t *count)
{
    if (spec->shape == KB_OBJECT) {
        *count = 1;
        return (const char *)kb + spec->rows_offset;
    }
    const void *rows;
    memcpy(&rows, (const char *)kb + spec->rows_offset, sizeof rows);
    memcpy(count, (const char *)kb + spec->count_offset, sizeof *count);
    return rows;
}

/* ---- loading ---- */

/* The node at spec->path; NULL (no error) if some key is absent. */
static struct yt_node *resolve_path(struct kb_loader *ld, const struct kb_spec *spec,
                                    struct yt_node *root)
{
    struct yt_node *node = root;
    for (size_t i = 0; node && i < KB_PATH_MAX && spec->path[i]; i++) {
        if (!yt_is_map(node)) {
            kb_yaml_fail(&ld->y, node, "%s: expected a mapping", spec->path[i - (i > 0)]);
            return NULL;
        }
        node = kb_yaml_get(node, spec->path[i]);
    }
    return node;
}

static bool load_spec(struct kb_loader *ld, const struct kb_spec *spec, struct yt_node *root)
{
    struct yt_node *node = resolve_path(ld, spec, root);
    if (ld->y.failed)
        return false;
    if (!node || yt_is_null(node)) {
        if (spec->required)
            return kb_yaml_fail(&ld->y, root, "missing required section '%s'", spec->path[0]);
        return true;
    }
    if (spec->shape == KB_OBJECT)
        return kb_decode_row(ld, spec, node, (char *)ld->kb + spec->rows_offset);
    void *rows = NULL;
    size_t count = 0;
    bool ok = spec->shape == KB_ROWS ? kb_decode_rows(ld, spec, node, &rows, &count)
                                     : spec->custom(ld, node, &rows, &count);
    if (!ok)
        return false;
    if (spec->required && count == 0)
        return kb_yaml_fail(&ld->y, node, "section '%s' has no rows", spec->path[0]);
    memcpy((char *)ld->kb + spec->rows_offset, &rows, sizeof rows);
    memcpy((char *)ld->kb + spec->count_offset, &count, sizeof count);
    return true;
}

int gl_kb_load_text(const char *text, size_t len, struct gl_kb **out, struct gl_kb_error *err)
{
    memset(err, 0, sizeof *err);
    *out = NULL;
    struct gl_arena *arena = xmalloc(sizeof *arena);
    gl_arena_init(arena);
    struct kb_loader ld = {.arena = arena, .kb = gl_arena_alloc(arena, sizeof(struct gl_kb))};
    bool ok = kb_yaml_open(&ld.y, text, len, err);
    struct yt_node *root = ok ? kb_yaml_root(&ld.y) : NULL;
    if (ok && !yt_is_map(root))
        ok = kb_yaml_fail(&ld.y, root, "expected a mapping of knowledge tables at the top");
    for (size_t i = 0; ok && i < kb_n_specs; i++)
        ok = load_spec(&ld, &kb_specs[i], root);
    kb_yaml_close(&ld.y);
    if (!ok) {
        gl_arena_free(arena);
        free(arena);
        return -1;
    }
    ld.kb->arena = arena;
    *out = ld.kb;
    return 0;
}

int gl_kb_load_file(const char *path, struct gl_kb **out, struct gl_kb_error *err)
{
    memset(err, 0, sizeof *err);
    *out = NULL;
    struct stat st;
    if (stat(path, &st) != 0) {
        snprintf(err->message, sizeof err->message, "cannot open: %s", strerror(errno));
        return -1;
    }
    if (!S_ISREG(st.st_mode)) {
        snprintf(err->message, sizeof err->message, "not a regular file%s",
                 S_ISDIR(st.st_mode) ? " (a directory)" : "");
        return -1;
    }
    char *data;
    size_t len;
    int e = gl_read_file(path, &data, &len); /* (at most input-size: an input too) */
    if (e == EFBIG) {
        gl_limit_message(GL_LIMIT_INPUT_SIZE, err->message, sizeof err->message);
        return -1;
    }
    if (e) {
        snprintf(err->message, sizeof err->message, "cannot read: %s", strerror(e));
        return -1;
    }
    int r = gl_kb_load_text(data, len, out, err);
    free(data);
    return r;
}

void gl_kb_free(struct gl_kb *kb)
{
    if (!kb || !kb->arena)
        return;
    struct gl_arena *arena = kb->arena;
    gl_arena_free(arena);
    free(arena);
}

const char *gl_kb_date(const struct gl_kb *kb)
{
    return kb && kb->meta.date ? kb->meta.date : "unknown";
}
