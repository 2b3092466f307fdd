/* SPDX-License-Identifier: Apache-2.0 */
/* GL210 arch-list-misses-target: a build-time architecture list leaves out the target
 * GPU's SM and embeds no PTX at or below it; or a CUDA binary in an image archive has no
 * code for it (its fat binaries: rules/gl2xx/arch_binaries.h). */
#include <stdio.h>
#include <string.h>

#include "rules/gl2xx/arch_binaries.h"
#include "rules/gl2xx/arch_check.h"

/* The change that makes list l cover SM `sm`, in the list's own syntax. */
static void fix_for(const struct gl_arch_list *l, unsigned sm, char *buf, size_t n)
{
    if (!strcmp(l->name, "nvcc") || !strcmp(l->name, "NVCC_GENCODE"))
        snprintf(buf, n,
                 "add -gencode arch=compute_%u,code=sm_%u for the target (or embed PTX at or "
                 "below it: code=compute_XY)", sm, sm);
    else if (!strcmp(l->name, "TORCH_CUDA_ARCH_LIST"))
        snprintf(buf, n,
                 "add %u.%u to TORCH_CUDA_ARCH_LIST (or PTX of an architecture at or below "
                 "it: X.Y+PTX)", sm / 10, sm % 10);
    else
        snprintf(buf, n,
                 "add %u to %s (or a PTX entry at or below it: XY or XY-virtual)", sm, l->name);
}

/* Was an equal list (same name and value, same stage or launch) reported already? */
static bool reported_before(const struct gl_doc *doc, size_t i, const bool *done)
{
    const struct gl_arch_list *l = &doc->archlists[i];
    for (size_t k = 0; k < i; k++) {
        const struct gl_arch_list *o = &doc->archlists[k];
        if (done[k] && o->stage == l->stage && o->launch == l->launch &&
            !strcmp(o->name, l->name) && o->value && l->value && !strcmp(o->value, l->value))
            return true;
    }
    return false;
}

#define LISTS_MAX 4096 /* lists judged per input (hostile inputs) */

static void check(struct gl_check *c)
{
    size_t ntargets;
    if (!gl_arch_targets(c, &ntargets))
        return;
    gl_arch_binaries_report(c); /* the binaries of an image archive */
    const struct gl_doc *doc = c->doc;
    bool done[LISTS_MAX] = {0};
    for (size_t i = 0; i < doc->narchlists && i < LISTS_MAX; i++) {
        const struct gl_arch_list *l = &doc->archlists[i];
        const struct gl_gpu_target_sm *miss[GL_ARCH_TARGETS_MAX];
        if (l->opaque || !l->narchs)
            continue;
        size_t nmiss = gl_arch_uncovered(c, l->archs, l->narchs, miss);
        if (!nmiss || reported_before(doc, i, done))
            continue;
        done[i] = true;
        char targets[1024], entries[512], fix[256];
        gl_arch_targets_text(miss, nmiss, targets, sizeof targets);
        gl_arch_entries_text(l->archs, l->narchs, entries, sizeof entries);
        fix_for(l, miss[0]->sm, fix, sizeof fix);
        bool nvcc = !strcmp(l->name, "nvcc");
        gl_report(c, l->loc, fix,
                  "%s%s%s (%s) builds no code that runs on %s: SASS runs only on its own "
                  "major at an equal or higher minor, and no PTX at or below the target is "
                  "embedded; the build succeeds, then kernels fail there with \"no kernel "
                  "image is available for execution on the device\"",
                  nvcc ? "nvcc " : l->name, nvcc ? "" : "=", l->value ? l->value : "", entries,
                  targets);
    }
}

const struct gl_rule gl_rule_GL210 = {
    .id = "GL210",
    .name = "arch-list-misses-target",
    .severity = GL_SEV_WARNING,
    .summary = "with a target GPU: a build-time architecture list (TORCH_CUDA_ARCH_LIST, "
               "CMAKE_CUDA_ARCHITECTURES, CUDAARCHS, TCNN_CUDA_ARCHITECTURES, nvcc -gencode / "
               "-arch, NCCL's NVCC_GENCODE) leaves out the target's SM and embeds no PTX at "
               "or below it; or a CUDA binary in an image archive (its .nv_fatbin) has no "
               "code that runs on the target",
    .explanation =
        "CUDA extensions compiled in an image (flash-attention, xformers, apex, tiny-cuda-nn, "
        "detectron2, mmcv, vLLM kernels) get their device code from an architecture list: "
        "TORCH_CUDA_ARCH_LIST for PyTorch's extension builder ('8.0;8.6', '8.0 8.6+PTX', named "
        "'Ampere'), CMAKE_CUDA_ARCHITECTURES or CUDAARCHS for CMake ('80;86', '90-real', "
        "'90-virtual'), TCNN_CUDA_ARCHITECTURES for tiny-cuda-nn, or nvcc's -gencode "
        "arch=compute_XY,code=sm_XY and -arch=sm_XY (which embeds sm_XY and compute_XY PTX), also "
        "as the NVCC_GENCODE variable NCCL's and nccl-tests' Makefiles pass to nvcc (`make "
        "src.build NVCC_GENCODE=\"-gencode=...\"`). SASS (sm_XY) runs only on GPUs of the same "
        "major with an equal or higher minor: sm_80 runs on 8.6 and 8.9, never on 9.0; sm_90a "
        "runs only on 9.0. PTX (compute_XY, '+PTX', '-virtual') is JIT-compiled by the driver for "
        "any GPU at or above it. A list with neither for the target GPU builds fine and then "
        "fails at the first kernel launch. The lists are read from Dockerfile ENV, ARG defaults "
        "and --build-arg, RUN-line assignments and exports, cmake -DCMAKE_CUDA_ARCHITECTURES=, "
        "make's command-line variables, nvcc commands, and launch env. 'native', 'all', "
        "'all-major' and values gpulint cannot resolve are never judged. In an image archive "
        "gpulint also reads what was actually built: the fat binaries of shared objects, objects, "
        "executables and static libraries (the .nv_fatbin and __nv_relfatbin ELF sections, read "
        "while the layer streams; a .a library's members together), and names each binary with "
        "nothing for a target GPU, with the SASS and PTX it holds (at most ten a platform, then a "
        "count); a binary whose fat binaries cannot be read whole is not judged. Only with a "
        "target GPU (--gpu H100, --gpu sm_90, --gpu host, config gpu:).",
    .bad = "# gpulint --gpu H100\n"
           "FROM pytorch/pytorch:2.4.1-cuda12.4-cudnn9-devel\n"
           "ENV TORCH_CUDA_ARCH_LIST=\"8.0;8.6\"\n"
           "RUN pip install --no-build-isolation flash-attn",
    .good = "# gpulint --gpu H100\n"
            "FROM pytorch/pytorch:2.4.1-cuda12.4-cudnn9-devel\n"
            "ENV TORCH_CUDA_ARCH_LIST=\"8.0;8.6;9.0\"\n"
            "RUN pip install --no-build-isolation flash-attn",
    .fix = "add the target GPU's architecture to the list, or PTX of an architecture at or "
           "below it",
    .check = check,
};
