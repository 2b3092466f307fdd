/* SPDX-License-Identifier: Apache-2.0 */
/* GL209 framework-lacks-gpu-arch: a framework build carries neither SASS for the target
 * GPU's SM nor PTX at or below it, per the knowledge table's framework arch lists. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rules/gl2xx/arch_check.h"
#include "rules/gl2xx/cuda_check.h"

#define ROW_ARCHS_MAX 64

static bool torch_build(const struct gl_cuda_fact *f)
{
    return f->torch || (f->kind == GL_CUDA_FRAMEWORK && f->framework &&
                        (!strcmp(f->framework, "torch") || !strcmp(f->framework, "torchvision") ||
                         !strcmp(f->framework, "torchaudio")));
}

/* Does the wheel of row r run on SM sm? */
static bool row_covers(const struct gl_kb_torch_arch *r, unsigned sm)
{
    struct gl_arch archs[ROW_ARCHS_MAX];
    size_t n = gl_torch_arch_entries(r, archs, ROW_ARCHS_MAX);
    return gl_arch_list_covers(archs, n, sm);
}

/* A wheel of the table that runs on sm, for the fix: one of the same torch release when
 * there is one, else the newest whose list the table confirms (the table lists releases
 * oldest first). "torch 2.7
 * +cu126" into buf; "" when none does. */
static const char *covering(const struct gl_kb *kb, const char *torch, unsigned sm, char *buf,
                            size_t n)
{
    const struct gl_kb_torch_arch *best = NULL, *confirmed = NULL;
    for (size_t i = 0; i < kb->n_torch_archs; i++) {
        const struct gl_kb_torch_arch *r = &kb->torch_archs[i];
        int same = 1;
        if (!row_covers(r, sm))
            continue;
        bool same_release = torch && gl_version_compare(r->torch, torch, 2, &same) && same == 0;
        if (same_release) {
            best = confirmed = r;
            break;
        }
        best = r;
        confirmed = r->unverified ? confirmed : r;
    }
    best = confirmed ? confirmed : best; /* the newest one whose list is confirmed */
    buf[0] = '\0';
    if (best)
        snprintf(buf, n, "torch %s +%s", best->torch, best->variant);
    return buf;
}

/* The rows that describe fact f's wheel: its release's row for the variant, or (no torch
 * release known) every row of the variant. NULL when the table has none. */
static const struct gl_kb_torch_arch *rows_of(const struct gl_kb *kb, const struct gl_cuda_fact *f,
                                              const char *variant, size_t *nrows, size_t *first)
{
    *nrows = 0;
    if (f->torch) {
        const struct gl_kb_torch_arch *r = gl_kb_torch_arch(kb, f->torch, variant);
        *nrows = r != NULL;
        *first = r ? (size_t)(r - kb->torch_archs) : 0;
        return r;
    }
    const struct gl_kb_torch_arch *found = NULL;
    for (size_t i = 0; i < kb->n_torch_archs; i++) {
        if (strcmp(kb->torch_archs[i].variant, variant))
            continue;
        if (!found) {
            found = &kb->torch_archs[i];
            *first = i;
        }
        (*nrows)++;
    }
    return found;
}

/* Report f when no row of its wheel runs on a target. True when reported. */
static bool judge(struct gl_check *c, const struct gl_cuda_fact *f)
{
    const struct gl_kb *kb = gl_cuda_kb(c);
    unsigned major, minor;
    if (!gl_version_field(f->version, 0, &major) || !gl_version_field(f->version, 1, &minor))
        return false;
    char variant[24];
    snprintf(variant, sizeof variant, "cu%u%u", major, minor);
    size_t nrows, first;
    const struct gl_kb_torch_arch *row = rows_of(kb, f, variant, &nrows, &first);
    if (!row)
        return false;
    size_t nt;
    const struct gl_gpu_target_sm *t = gl_arch_targets(c, &nt);
    for (size_t i = 0; i < nt; i++) {
        bool any = false, unverified = true; /* every row judged is unverified */
        for (size_t k = first; k < kb->n_torch_archs && !any; k++) {
            const struct gl_kb_torch_arch *r = &kb->torch_archs[k];
            if (strcmp(r->variant, variant) || (f->torch && r != row))
                continue;
            any = row_covers(r, t[i].sm);
            unverified = unverified && r->unverified;
        }
        if (any)
            continue;
        char who[256], where[512], entries[512], fix[256], alt[64];
        struct gl_arch archs[ROW_ARCHS_MAX];
        size_t n = gl_torch_arch_entries(row, archs, ROW_ARCHS_MAX);
        gl_gpu_target_describe(&t[i], who, sizeof who);
        covering(kb, f->torch, t[i].sm, alt, sizeof alt);
        snprintf(fix, sizeof fix, "install a torch build whose arch list covers this GPU%s%s%s",
                 alt[0] ? " (e.g. " : "", alt, alt[0] ? ")" : "");
        char which[128];
        if (f->torch)
            snprintf(which, sizeof which, "the torch %s +%s wheel is built for ", row->torch,
                     variant);
        else
            snprintf(which, sizeof which,
                     "none of the %zu torch +%s wheels of the knowledge table covers it (torch "
                     "%s: ", nrows, variant, row->torch);
        gl_report(c, gl_cuda_fact_report_loc(f), fix,
                  "%s carries no code for %s: %s%s%s, with no SASS for it and no PTX at or "
                  "below it%s (\"no kernel image is available for execution on the device\")",
                  gl_cuda_fact_where(c->doc, f, where, sizeof where), who, which,
                  gl_arch_entries_text(archs, n, entries, sizeof entries), f->torch ? "" : ")",
                  unverified ? "; the table marks this arch list unverified" : "");
        return true;
    }
    return false;
}

/* The newest month of the table (verified, YY.MM order) whose builds can run on sm: "25.06,
 * CUDA 12.9.1" into buf; "" when none. */
static const char *ngc_covering(const struct gl_kb *kb, unsigned sm, char *buf, size_t n)
{
    const struct gl_kb_ngc_release *best = NULL;
    for (size_t i = 0; i < kb->n_ngc_releases; i++) {
        const struct gl_kb_ngc_release *r = &kb->ngc_releases[i];
        unsigned lowest = gl_kb_ngc_lowest_sm(kb, r);
        if (!r->unverified && lowest && lowest <= sm && (!best || strcmp(r->tag, best->tag) > 0))
            best = r;
    }
    buf[0] = '\0';
    if (best)
        snprintf(buf, n, "%s, CUDA %s", best->tag, best->cuda);
    return buf;
}

/* An NGC month: its builds are compiled with the month's CUDA, which can emit code (SASS or
 * PTX) for no architecture below gl_kb_ngc_lowest_sm. A target below that is reported. */
static bool judge_ngc(struct gl_check *c, const struct gl_cuda_fact *f)
{
    const struct gl_kb_ngc_release *rel;
    unsigned lowest = gl_arch_ngc_lowest(c, f, &rel);
    size_t nt;
    const struct gl_gpu_target_sm *t = gl_arch_targets(c, &nt);
    for (size_t i = 0; lowest && i < nt; i++) {
        if (t[i].sm >= lowest)
            continue;
        const struct gl_kb *kb = gl_cuda_kb(c);
        char who[256], where[512], fix[256], alt[64], cc[16], why[256];
        unsigned by_cuda = gl_kb_cuda_lowest_sm(kb, rel->cuda);
        gl_gpu_target_describe(&t[i], who, sizeof who);
        gl_sm_cc(lowest, cc, sizeof cc);
        if (by_cuda > t[i].sm)
            snprintf(why, sizeof why, ", which targets no architecture below sm_%u", by_cuda);
        else
            snprintf(why, sizeof why, " and its release notes ask for compute capability %s or "
                     "later", cc);
        ngc_covering(kb, t[i].sm, alt, sizeof alt);
        snprintf(fix, sizeof fix, "use an NGC month whose CUDA still targets this GPU%s%s%s, or "
                 "run on a GPU of compute capability %s or later", alt[0] ? " (the newest in "
                 "the knowledge table: " : "", alt, alt[0] ? ")" : "", cc);
        gl_report(c, gl_cuda_fact_report_loc(f), fix,
                  "%s carries no code for %s: the month's framework builds are compiled with "
                  "CUDA %s%s, so they have no SASS for it and no PTX at or below it (\"no "
                  "kernel image is available for execution on the device\")",
                  gl_cuda_fact_where(c->doc, f, where, sizeof where), who, rel->cuda, why);
        return true;
    }
    return false;
}

/* A fact without a torch release (a wheel index) in an instruction that also pins torch
 * (torch==2.1.0+cu121 --index-url .../cu121): the pin says which wheel, and is judged. */
static bool pinned_beside(const struct gl_doc *doc, const struct gl_cuda_fact *f)
{
    for (size_t i = 0; f->instr >= 0 && !f->torch && i < doc->ncuda; i++) {
        const struct gl_cuda_fact *g = &doc->cuda[i];
        if (g != f && g->instr == f->instr && g->torch)
            return true;
    }
    return false;
}

static void check(struct gl_check *c)
{
    size_t nt;
    if (!gl_arch_targets(c, &nt))
        return;
    const struct gl_doc *doc = c->doc;
    bool *done = gl_cuda_instr_flags(doc); /* instructions already reported */
    for (size_t i = 0; i < doc->ncuda; i++) {
        const struct gl_cuda_fact *f = &doc->cuda[i];
        if (f->kind == GL_CUDA_NGC_TAG) {
            if (f->version && gl_cuda_fact_on_gpu(doc, f) && !(f->instr >= 0 && done[f->instr]) &&
                judge_ngc(c, f))
                gl_cuda_instr_claim(done, f);
            continue;
        }
        if (!torch_build(f) || !f->version || !gl_version_valid(f->version) ||
            !gl_cuda_fact_on_gpu(doc, f) || (f->instr >= 0 && done[f->instr]) ||
            pinned_beside(doc, f))
            continue;
        if (judge(c, f))
            gl_cuda_instr_claim(done, f);
    }
    free(done);
}

const struct gl_rule gl_rule_GL209 = {
    .id = "GL209",
    .name = "framework-lacks-gpu-arch",
    .severity = GL_SEV_ERROR,
    .summary = "with a target GPU: a framework build the image installs or is based on (torch "
               "+cuNNN wheel or index, pytorch/pytorch:*-cudaX.Y-*, an NGC framework month) "
               "has neither SASS for the target's SM nor PTX at or below it",
    .explanation =
        "Framework wheels are compiled for a fixed list of GPU architectures (PyTorch's "
        "TORCH_CUDA_ARCH_LIST per release and CUDA variant: the knowledge table's "
        "torch_cuda_arch_lists). A GPU outside that list, with no PTX at or below it to "
        "JIT-compile, cannot run the framework's kernels: \"no kernel image is available "
        "for execution on the device\", and PyTorch warns \"with CUDA capability sm_XY is "
        "not compatible with the current PyTorch installation\". Typical cases: every cu117 "
        "to cu126 wheel on Blackwell (B200, RTX 50xx: sm_100/sm_120 need cu128 or newer), "
        "cu117 on H100, cu128 of 2.7 or 2.11 on V100. Judged on torch pins with +cuNNN "
        "(torch==2.1.0+cu121: that release's wheel; in RUN lines, the files installs read, "
        "and an image's installed torch, by its dist-info METADATA), on PyTorch wheel indexes (.../whl/"
        "cu121: fires only when no release's wheel of that variant covers the GPU), and on "
        "pytorch/pytorch:X.Y.Z-cudaA.B-* images; and on NGC framework months "
        "(nvcr.io/nvidia/pytorch:25.08-py3 and every other container of a month): NVIDIA "
        "builds them from source on the month's CUDA, and a CUDA toolkit emits code for no "
        "architecture it dropped, so a GPU below the oldest architecture that CUDA still "
        "targets (or below the compute capability the month's release notes state) gets "
        "neither SASS nor PTX: V100, P100 and other Volta, Pascal or Maxwell boards on "
        "25.08 and later (CUDA 13), K80 on 23.01 and later (CUDA 12). A GPU newer than the "
        "month's CUDA is not judged here (the build may carry PTX it can JIT; GL208 warns). "
        "Only with a target GPU (--gpu, config gpu:).",
    .bad = "# gpulint --gpu B200\n"
           "FROM python:3.11-slim\n"
           "RUN pip install torch==2.5.1+cu124 --index-url https://download.pytorch.org/whl/cu124",
    .good = "# gpulint --gpu B200\n"
            "FROM python:3.11-slim\n"
            "RUN pip install torch==2.7.1+cu128 --index-url https://download.pytorch.org/whl/cu128",
    .fix = "install a framework build whose arch list covers the target GPU",
    .check = check,
};
