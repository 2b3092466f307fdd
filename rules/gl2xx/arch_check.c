/* SPDX-License-Identifier: Apache-2.0 */
/* arch_check.c: target GPUs against arch lists, for GL208-GL210 (see arch_check.h). */
#include "rules/gl2xx/arch_check.h"
#include "rules/gl2xx/cuda_check.h"

#include <stdio.h>
#include <string.h>

const struct gl_gpu_target_sm *gl_arch_targets(const struct gl_check *c, size_t *n)
{
    *n = c->cfg->gpu.nsms;
    return *n ? c->cfg->gpu.sms : NULL;
}

size_t gl_arch_uncovered(const struct gl_check *c, const struct gl_arch *archs, size_t n,
                         const struct gl_gpu_target_sm **out)
{
    size_t nt, k = 0;
    const struct gl_gpu_target_sm *t = gl_arch_targets(c, &nt);
    for (size_t i = 0; i < nt && k < GL_ARCH_TARGETS_MAX; i++) {
        if (!gl_arch_list_covers(archs, n, t[i].sm))
            out[k++] = &t[i];
    }
    return k;
}

const char *gl_arch_targets_text(const struct gl_gpu_target_sm *const *t, size_t n, char *buf,
                                 size_t cap)
{
    size_t o = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < n && o + 1 < cap; i++) {
        char one[256];
        gl_gpu_target_describe(t[i], one, sizeof one);
        int w = snprintf(buf + o, cap - o, "%s%s", i == 0 ? "" : i + 1 == n ? " and " : ", ", one);
        if (w < 0 || (size_t)w >= cap - o)
            break;
        o += (size_t)w;
    }
    return buf;
}

const char *gl_arch_entries_text(const struct gl_arch *archs, size_t n, char *buf, size_t cap)
{
    size_t o = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < n && i < 16 && o + 1 < cap; i++) {
        char one[32];
        int w = snprintf(buf + o, cap - o, "%s%s", i ? ", " : "", gl_arch_name(&archs[i], one, sizeof one));
        if (w < 0 || (size_t)w >= cap - o)
            break;
        o += (size_t)w;
    }
    if (n > 16 && o + 6 < cap)
        snprintf(buf + o, cap - o, ", ...");
    return buf;
}

unsigned gl_arch_ngc_lowest(const struct gl_check *c, const struct gl_cuda_fact *f,
                            const struct gl_kb_ngc_release **rel)
{
    *rel = NULL;
    const struct gl_doc *doc = c->doc;
    if (f->kind != GL_CUDA_NGC_TAG || f->ref < 0 || (size_t)f->ref >= doc->nrefs ||
        !doc->refs[f->ref].ok || !doc->refs[f->ref].parsed.tag)
        return 0;
    const struct gl_kb *kb = gl_cuda_kb(c);
    const struct gl_kb_ngc_release *r = gl_kb_ngc_release(kb, doc->refs[f->ref].parsed.tag);
    if (!r || !r->cuda || strcmp(r->cuda, f->version)) /* a month after the table: not known */
        return 0;
    *rel = r;
    return gl_kb_ngc_lowest_sm(kb, r);
}
