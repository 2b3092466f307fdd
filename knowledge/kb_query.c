/* SPDX-License-Identifier: Apache-2.0 */
/* kb_query.c: lookups over the knowledge tables (see kb.h). All are linear scans. */
#include "knowledge/kb.h"
#include "knowledge/gpu_arch.h"

#include <stdio.h>
#include <string.h>

static void set_how(enum gl_kb_match *how, enum gl_kb_match value)
{
    if (how)
        *how = value;
}

/* a <=> b over `fields` fields; malformed sorts low (the tables hold valid versions). */
static int vcmp(const char *a, const char *b, unsigned fields)
{
    int r;
    return gl_version_compare(a, b, fields, &r) ? r : -2;
}

const struct gl_kb_toolkit *gl_kb_toolkit_lookup(const struct gl_kb *kb, const char *cuda,
                                                 enum gl_kb_match *how)
{
    set_how(how, GL_KB_NONE);
    if (!kb || !gl_version_valid(cuda))
        return NULL;
    const struct gl_kb_toolkit *same_minor = NULL;
    for (size_t i = 0; i < kb->n_toolkits; i++) {
        const struct gl_kb_toolkit *t = &kb->toolkits[i];
        int c = vcmp(t->cuda, cuda, 0);
        if (c == 0) {
            set_how(how, GL_KB_EXACT);
            return t;
        }
        if (c < 0 && vcmp(t->cuda, cuda, 2) == 0 && (!same_minor || vcmp(t->cuda, same_minor->cuda, 0) > 0))
            same_minor = t;
    }
    if (same_minor) {
        set_how(how, GL_KB_SAME_MINOR);
        return same_minor;
    }
    const struct gl_kb_toolkit *newest = gl_kb_toolkit_newest(kb);
    if (newest && vcmp(cuda, newest->cuda, 0) > 0) {
        set_how(how, GL_KB_NEWER_THAN_TABLE);
        return newest;
    }
    return NULL;
}

const struct gl_kb_toolkit *gl_kb_toolkit_newest(const struct gl_kb *kb)
{
    const struct gl_kb_toolkit *newest = NULL;
    for (size_t i = 0; kb && i < kb->n_toolkits; i++) {
        if (!newest || vcmp(kb->toolkits[i].cuda, newest->cuda, 0) > 0)
            newest = &kb->toolkits[i];
    }
    return newest;
}

const struct gl_kb_mvc *gl_kb_mvc_for_major(const struct gl_kb *kb, unsigned cuda_major)
{
    for (size_t i = 0; kb && i < kb->n_mvc; i++) {
        if (kb->mvc[i].cuda_major == cuda_major)
            return &kb->mvc[i];
    }
    return NULL;
}

const struct gl_kb_branch *gl_kb_branch_lookup(const struct gl_kb *kb, unsigned number)
{
    for (size_t i = 0; kb && number && i < kb->n_branches; i++) {
        if (kb->branches[i].number == number)
            return &kb->branches[i];
    }
    return NULL;
}

const struct gl_kb_branch *gl_kb_branch_for_driver(const struct gl_kb *kb, const char *driver)
{
    return gl_kb_branch_lookup(kb, gl_driver_branch_of(driver));
}

const char *gl_kb_driver_max_cuda(const struct gl_kb *kb, const char *driver, bool *exact)
{
    unsigned branch = gl_driver_branch_of(driver);
    const struct gl_kb_branch *below = NULL;
    if (exact)
        *exact = false;
    for (size_t i = 0; kb && branch && i < kb->n_branches; i++) {
        const struct gl_kb_branch *b = &kb->branches[i];
        if (!b->max_cuda || b->number > branch)
            continue;
        if (b->number == branch) {
            if (exact)
                *exact = true;
            return b->max_cuda;
        }
        if (!below || b->number > below->number)
            below = b;
    }
    return below ? below->max_cuda : NULL;
}

const struct gl_kb_fwdcompat *gl_kb_image_fwdcompat(const struct gl_kb *kb, const char *cuda)
{
    for (size_t i = 0; kb && i < kb->n_fwdcompat; i++) {
        const struct gl_kb_fwdcompat *f = &kb->fwdcompat[i];
        int lo = vcmp(cuda, f->first, f->fields), hi = vcmp(cuda, f->last, f->fields);
        if (lo >= 0 && lo != -2 && hi <= 0 && hi != -2)
            return f;
    }
    return NULL;
}

const struct gl_kb_image_flavor *gl_kb_image_flavor(const struct gl_kb *kb, const char *flavor)
{
    for (size_t i = 0; kb && flavor && i < kb->n_flavors; i++) {
        const char *name = kb->flavors[i].name;
        size_t n = strlen(name);
        if (strcmp(name, flavor) == 0 ||
            (n > 0 && name[n - 1] == '*' && strncmp(name, flavor, n - 1) == 0))
            return &kb->flavors[i];
    }
    return NULL;
}

const struct gl_kb_image_os *gl_kb_image_os(const struct gl_kb *kb, const char *token)
{
    for (size_t i = 0; kb && token && i < kb->n_os_tokens; i++) {
        if (strcmp(kb->os_tokens[i].token, token) == 0)
            return &kb->os_tokens[i];
    }
    return NULL;
}

const char *gl_kb_image_cudart(const struct gl_kb *kb, const char *cuda)
{
    for (size_t i = 0; kb && i < kb->n_cudart; i++) {
        if (vcmp(kb->cudart[i].cuda, cuda, 0) == 0)
            return kb->cudart[i].cudart;
    }
    return NULL;
}

const struct gl_kb_ngc_container *gl_kb_ngc_container(const struct gl_kb *kb, const char *name)
{
    for (size_t i = 0; kb && name && i < kb->n_ngc_containers; i++) {
        if (strcmp(kb->ngc_containers[i].name, name) == 0)
            return &kb->ngc_containers[i];
    }
    return NULL;
}

/* Does the tag start with YY.MM? */
static bool yy_mm(const char *tag)
{
    if (!tag || strnlen(tag, 6) < 5)
        return false;
    for (size_t i = 0; i < 5; i++)
        if (i == 2 ? tag[i] != '.' : !(tag[i] >= '0' && tag[i] <= '9'))
            return false;
    return true;
}

bool gl_ngc_month_tag(const char *tag)
{
    if (!yy_mm(tag))
        return false;
    if (tag[5] == 0 || tag[5] == '-')
        return true;
    /* a patch of the month (25.04.01, 24.01.01-py3) or a release candidate of it
     * (NeMo's 25.04.rc2: the month's stack, before its release) */
    if (tag[5] != '.')
        return false;
    size_t d = tag[6] == 'r' && tag[7] == 'c' ? 8 : 6, k = d;
    while (tag[k] >= '0' && tag[k] <= '9')
        k++;
    return k > d && (tag[k] == 0 || tag[k] == '-');
}

bool gl_ngc_post_release(const char *tag)
{
    if (!yy_mm(tag) || tag[5] != '.' || strncmp(tag + 6, "post", 4))
        return false;
    size_t k = 10;
    while (tag[k] >= '0' && tag[k] <= '9')
        k++;
    return k > 10 && (tag[k] == 0 || tag[k] == '-');
}

const struct gl_kb_ngc_release *gl_kb_ngc_release(const struct gl_kb *kb, const char *tag)
{
    if (!kb || !gl_ngc_month_tag(tag))
        return NULL;
    /* tag is YY.MM...: its first bytes tell most rows apart without strncmp */
    for (size_t i = 0; i < kb->n_ngc_releases; i++) {
        const char *t = kb->ngc_releases[i].tag;
        if (t[0] == tag[0] && t[1] == tag[1] && strncmp(t, tag, 5) == 0 && t[5] == 0)
            return &kb->ngc_releases[i];
    }
    return NULL;
}

const struct gl_kb_ngc_release *gl_kb_ngc_newest(const struct gl_kb *kb)
{
    const struct gl_kb_ngc_release *newest = NULL;
    for (size_t i = 0; kb && i < kb->n_ngc_releases; i++)
        if (!newest || strcmp(kb->ngc_releases[i].tag, newest->tag) > 0)
            newest = &kb->ngc_releases[i];
    return newest;
}

bool gl_kb_iso_date_at(const char *s)
{
    for (size_t k = 0; k < 10; k++)
        if (k == 4 || k == 7 ? s[k] != '-' : s[k] < '0' || s[k] > '9')
            return false;
    /* a day of the calendar: dates compare as strings, so `2025-13-99` lay inside a range
       from 2025-07-24 to 2026-07-24, a tag no nightly was ever given */
    unsigned y = (unsigned)((s[0] - '0') * 1000 + (s[1] - '0') * 100 + (s[2] - '0') * 10 +
                            (s[3] - '0'));
    unsigned m = (unsigned)((s[5] - '0') * 10 + (s[6] - '0'));
    unsigned d = (unsigned)((s[8] - '0') * 10 + (s[9] - '0'));
    static const unsigned char days[12] = {31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    bool leap = y % 4 == 0 && (y % 100 != 0 || y % 400 == 0);
    return m >= 1 && m <= 12 && d >= 1 && d <= days[m - 1] && (m != 2 || d <= 28 || leap);
}

/* The date of a nightly tag FLAVOR-YYYY-MM-DD (its last 10 bytes), or NULL. */
static const char *nightly_date(const char *tag)
{
    size_t n = strlen(tag);
    if (n < 12 || tag[n - 11] != '-' || !gl_kb_iso_date_at(tag + n - 10))
        return NULL;
    const char *d = tag + n - 10;
    for (const char *f = tag; f < tag + n - 11; f++)
        if (!((*f >= 'a' && *f <= 'z') || (*f >= '0' && *f <= '9') || *f == '-'))
            return NULL;
    return d;
}

bool gl_kb_alias_tag(const char *t, size_t *rel_len, size_t *at, size_t *len)
{
    size_t n = gl_version_prefix_len(t);
    if (!n || t[n] != '-')
        return false;
    size_t k = n + 1;
    if (t[k] == 'p' && t[k + 1] == 'y') { /* the Python version: py39, py310 */
        size_t d = strspn(t + k + 2, "0123456789");
        if (!d || t[k + 2 + d] != '-')
            return false;
        k += 3 + d;
    }
    size_t w = strcspn(t + k, "-");
    if (!w || (t[k + w] && strcmp(t + k + w, "-aarch64")))
        return false;
    *rel_len = n;
    *at = k;
    *len = w;
    return true;
}

/* Is row r the tag's (the alias word at [at, at + len) when the tag is an alias tag)? */
static bool release_row_is(const struct gl_kb_image_release *r, const char *tag,
                           const char *date, bool aliased, size_t rel_len, size_t at,
                           size_t len)
{
    if (r->tag)
        return r->tag[0] == tag[0] && !strcmp(r->tag, tag);
    if (r->alias)
        return aliased && strlen(r->release) == rel_len && !memcmp(r->release, tag, rel_len) &&
               strlen(r->alias) == len && !memcmp(r->alias, tag + at, len);
    /* ISO dates compare as strings */
    return date && strncmp(date, r->dated_from, 10) >= 0 && strncmp(date, r->dated_until, 10) <= 0;
}

const struct gl_kb_image_release *gl_kb_image_release(const struct gl_kb *kb, const char *image,
                                                      const char *tag, size_t *off,
                                                      size_t *len)
{
    if (!kb || !image || !tag || !kb->n_image_releases)
        return NULL;
    const char *date = nightly_date(tag);
    size_t rel_len = 0, at = 0, alen = 0;
    bool aliased = gl_kb_alias_tag(tag, &rel_len, &at, &alen);
    for (size_t i = 0; i < kb->n_image_releases; i++) {
        const struct gl_kb_image_release *r = &kb->image_releases[i];
        if (!release_row_is(r, tag, date, aliased, rel_len, at, alen) || strcmp(r->image, image))
            continue;
        /* the first row that reads the tag answers, and an unverified one means unknown:
           the loader lets no two rows of one image read one tag in one form (equal tags,
           equal RELEASE-ALIAS, overlapping dates: kb_image_rows.c), so in the table as
           shipped there is no later row to look for. (A tag row that an alias row reads in
           its -pyNNN or -aarch64 form gives the alias row's CUDA: kb_image_rows.c checks
           that too. A tag row that a dated range holds is not checked: the first row in the
           file answers.) */
        if (r->unverified || !r->cuda)
            return NULL;
        bool word = r->alias != NULL;
        if (off)
            *off = word ? at : 0;
        if (len)
            *len = word ? alen : strlen(tag);
        return r;
    }
    return NULL;
}

bool gl_torch_variant_cuda(const char *variant, char *out, size_t out_size)
{
    if (!variant || strncmp(variant, "cu", 2) != 0 || out_size < 16)
        return false;
    const char *d = variant + 2;
    size_t n = strlen(d);
    if (n < 2 || n > 3 || strspn(d, "0123456789") != n || d[0] == '0')
        return false;
    snprintf(out, out_size, "%.*s.%c", (int)(n - 1), d, d[n - 1]);
    return true;
}

enum gl_kb_torch_status gl_kb_torch_lookup(const struct gl_kb *kb, const char *version,
                                           const char *variant, char *cuda, size_t cuda_size,
                                           const struct gl_kb_torch **row)
{
    if (row)
        *row = NULL;
    if (!kb || !version)
        return GL_TORCH_BAD_INPUT;
    char base[64];
    const char *plus = strchr(version, '+');
    size_t n = plus ? (size_t)(plus - version) : strlen(version);
    if (n >= sizeof base)
        return GL_TORCH_BAD_INPUT;
    memcpy(base, version, n);
    base[n] = 0;
    if (!variant)
        variant = plus ? plus + 1 : NULL;
    if (!gl_version_valid(base) || !gl_torch_variant_cuda(variant, cuda, cuda_size))
        return GL_TORCH_BAD_INPUT;
    for (size_t i = 0; i < kb->n_torch; i++) {
        const struct gl_kb_torch *t = &kb->torch[i];
        if (vcmp(t->torch, base, 2) != 0)
            continue;
        if (row)
            *row = t;
        for (size_t k = 0; k < t->variants.count; k++) {
            if (strcmp(t->variants.items[k], variant) == 0)
                return GL_TORCH_VARIANT_BUILT;
        }
        return GL_TORCH_VARIANT_NOT_BUILT;
    }
    return GL_TORCH_UNKNOWN_RELEASE;
}

const struct gl_kb_tf *gl_kb_tf_lookup(const struct gl_kb *kb, const char *version,
                                       enum gl_kb_match *how)
{
    set_how(how, GL_KB_NONE);
    if (!kb || !gl_version_valid(version))
        return NULL;
    const struct gl_kb_tf *newest = NULL;
    for (size_t i = 0; i < kb->n_tf; i++) {
        const struct gl_kb_tf *t = &kb->tf[i];
        if (vcmp(version, t->first, 2) >= 0 && vcmp(version, t->last, 2) <= 0) {
            set_how(how, GL_KB_EXACT);
            return t;
        }
        if (!newest || vcmp(t->last, newest->last, 0) > 0)
            newest = t;
    }
    if (newest && vcmp(version, newest->last, 2) > 0) {
        set_how(how, GL_KB_NEWER_THAN_TABLE);
        return newest;
    }
    return NULL;
}

const struct gl_kb_jax *gl_kb_jax_extra(const struct gl_kb *kb, const char *extra)
{
    if (!kb || !extra)
        return NULL;
    size_t n = strlen(extra);
    if (gl_has_prefix(extra, "jax[") && n > 5 && extra[n - 1] == ']') {
        extra += 4;
        n -= 5;
    }
    for (size_t i = 0; i < kb->n_jax; i++) {
        if (strlen(kb->jax[i].extra) == n && strncmp(kb->jax[i].extra, extra, n) == 0)
            return &kb->jax[i];
    }
    return NULL;
}

unsigned gl_kb_pip_cuda_major(const struct gl_kb *kb, const char *name, const char *version)
{
    char norm[128];
    size_t n = name ? strlen(name) : 0;
    if (!kb || n == 0 || n >= sizeof norm)
        return 0;
    /* PyPI names: case-insensitive, runs of '-', '_', '.' are equal */
    for (size_t i = 0; i <= n; i++) {
        char c = name[i];
        norm[i] = (c == '_' || c == '.') ? '-' : (c >= 'A' && c <= 'Z') ? (char)(c - 'A' + 'a') : c;
    }
    if (!gl_has_prefix(norm, "nvidia-"))
        return 0;
    for (size_t i = 0; i < kb->n_pip; i++) {
        if (gl_has_suffix(norm, kb->pip[i].suffix))
            return kb->pip[i].cuda_major;
    }
    unsigned major;
    if (!version || !gl_version_field(version, 0, &major))
        return 0;
    for (size_t i = 0; i < kb->n_pip; i++) {
        if (kb->pip[i].unsuffixed && kb->pip[i].cuda_major == major)
            return major;
    }
    return 0;
}

const struct gl_kb_gpu_family *gl_kb_gpu_family_of_sm(const struct gl_kb *kb, unsigned sm)
{
    char cc[16];
    snprintf(cc, sizeof cc, "%u.%u", sm / 10, sm % 10);
    for (size_t i = 0; kb && i < kb->n_gpu_families; i++) {
        const struct gl_kb_gpu_family *f = &kb->gpu_families[i];
        for (size_t k = 0; k < f->cc.count; k++) {
            if (!strcmp(f->cc.items[k], cc))
                return f;
        }
    }
    return NULL;
}

unsigned gl_kb_cuda_lowest_sm(const struct gl_kb *kb, const char *cuda)
{
    unsigned lowest = 0;
    if (!kb || !cuda || !gl_version_valid(cuda))
        return 0;
    for (size_t i = 0; i < kb->n_gpu_families; i++) {
        const struct gl_kb_gpu_family *f = &kb->gpu_families[i];
        if (f->removed_in_cuda && vcmp(cuda, f->removed_in_cuda, 0) >= 0)
            continue; /* dropped at or before this toolkit */
        if (f->first_cuda && !f->first_cuda_unverified && vcmp(cuda, f->first_cuda, 0) < 0)
            continue; /* not yet targeted */
        for (size_t k = 0; k < f->cc.count; k++) {
            unsigned sm;
            const char *cc = f->cc.items[k];
            if (gl_sm_parse(cc, strlen(cc), &sm) && (!lowest || sm < lowest))
                lowest = sm;
        }
    }
    return lowest;
}

unsigned gl_kb_ngc_lowest_sm(const struct gl_kb *kb, const struct gl_kb_ngc_release *rel)
{
    if (!kb || !rel || !rel->cuda)
        return 0;
    unsigned lowest = gl_kb_cuda_lowest_sm(kb, rel->cuda), stated;
    if (rel->min_cc && gl_sm_parse(rel->min_cc, strlen(rel->min_cc), &stated) && stated > lowest)
        lowest = stated;
    return lowest;
}

const struct gl_kb_torch_arch *gl_kb_torch_arch(const struct gl_kb *kb, const char *torch,
                                                const char *variant)
{
    if (!kb || !torch || !variant || !gl_version_valid(torch))
        return NULL;
    for (size_t i = 0; i < kb->n_torch_archs; i++) {
        const struct gl_kb_torch_arch *t = &kb->torch_archs[i];
        if (vcmp(t->torch, torch, 2) == 0 && !strcmp(t->variant, variant))
            return t;
    }
    return NULL;
}

const char *gl_kb_ort_cuda(const struct gl_kb *kb, const char *version)
{
    if (!kb || !version || !gl_version_valid(version))
        return NULL;
    for (size_t i = 0; i < kb->n_ort; i++) {
        int lo, hi;
        if (gl_version_compare(version, kb->ort[i].first, 2, &lo) && lo >= 0 &&
            gl_version_compare(version, kb->ort[i].last, 2, &hi) && hi <= 0)
            return kb->ort[i].cuda;
    }
    return NULL;
}
