/* SPDX-License-Identifier: Apache-2.0 */
/* The CUDA binaries of an image that carry no code for a target GPU: see arch_binaries.h. */
#include "rules/gl2xx/arch_binaries.h"

#include <stdio.h>

#include "rules/gl2xx/arch_check.h"
#include "rules/gl3xx/image_site.h"

#define FIX "rebuild it with the target's SM in its arch list (nvcc -gencode " \
            "arch=compute_XY,code=sm_XY, TORCH_CUDA_ARCH_LIST, CMAKE_CUDA_ARCHITECTURES) or " \
            "with PTX at or below it (code=compute_XY), or install a build made for that GPU"

/* The file's device code as arch entries, each target once (compressed and plain copies
 * of one are one entry). */
static size_t arch_list(const struct gl_fatbin_facts *f, struct gl_arch *out, size_t max)
{
    size_t n = 0;
    for (uint32_t i = 0; i < f->narchs && n < max; i++) {
        const struct gl_fatbin_arch *x = &f->archs[i];
        struct gl_arch a = {.sm = x->sm,
                            .code = x->code == GL_FATBIN_SASS ? GL_ARCH_SASS : GL_ARCH_PTX,
                            .suffix = x->flags & GL_FATBIN_ARCH_A   ? 'a'
                                      : x->flags & GL_FATBIN_ARCH_F ? 'f'
                                                                    : 0};
        if (n && out[n - 1].sm == a.sm && out[n - 1].code == a.code &&
            out[n - 1].suffix == a.suffix)
            continue; /* (the facts are sorted by SM, code, flags) */
        out[n++] = a;
    }
    return n;
}

struct miss {
    const struct gl_image_file *file;
    const struct gl_gpu_target_sm *targets[GL_ARCH_TARGETS_MAX];
    size_t ntargets;
};

static void report(struct gl_check *c, const struct gl_image_platform *p, const struct miss *m,
                   size_t others)
{
    struct gl_arch list[GL_FATBIN_MAX_ARCHS];
    size_t n = arch_list(m->file->fatbin, list, GL_FATBIN_MAX_ARCHS);
    char entries[512], targets[1024], more[96] = "";
    gl_arch_entries_text(list, n, entries, sizeof entries);
    gl_arch_targets_text(m->targets, m->ntargets, targets, sizeof targets);
    if (others)
        snprintf(more, sizeof more, "; %zu more binar%s of this platform miss%s a target too",
                 others, others == 1 ? "y" : "ies", others == 1 ? "es" : "");
    gl_report_image_file(c, p, m->file, FIX, "a CUDA binary has no code for the target GPU",
                         ": its fat binary holds %s, nothing that runs on %s: kernels fail "
                         "there with \"no kernel image is available for execution on the "
                         "device\"%s", entries, targets, more);
}

void gl_arch_binaries_report(struct gl_check *c)
{
    const struct gl_image_model *im = c->doc->image;
    size_t nt;
    if (!im || !gl_arch_targets(c, &nt))
        return;
    for (size_t i = 0; i < im->nplatforms; i++) {
        const struct gl_image_platform *p = &im->platforms[i];
        size_t named = 0, others = 0;
        struct miss last = {0};
        for (size_t k = 0; k < p->nfiles; k++) {
            const struct gl_image_file *f = &p->files[k];
            if (f->type != GL_FILE_REG || !f->fatbin || f->fatbin->more)
                continue; /* a list cut at the cap is not judged */
            struct gl_arch list[GL_FATBIN_MAX_ARCHS];
            size_t n = arch_list(f->fatbin, list, GL_FATBIN_MAX_ARCHS);
            struct miss m = {.file = f};
            m.ntargets = gl_arch_uncovered(c, list, n, m.targets);
            if (!m.ntargets)
                continue;
            if (named + 1 < GL_ARCH_BINARIES_MAX) {
                report(c, p, &m, 0);
                named++;
            } else if (!last.file) {
                last = m;
            } else {
                others++;
            }
        }
        if (last.file)
            report(c, p, &last, others);
    }
}
