/* SPDX-License-Identifier: Apache-2.0 */
/* GL208 cuda-lacks-gpu-arch: the image's CUDA no longer supports the target GPU's
 * architecture (its major dropped it), or predates it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rules/gl2xx/arch_check.h"
#include "rules/gl2xx/cuda_check.h"

/* Torch builds are GL209's: their arch list, not their CUDA, decides. */
static bool torch_build(const struct gl_cuda_fact *f)
{
    return f->torch || (f->kind == GL_CUDA_FRAMEWORK && f->framework &&
                        (!strcmp(f->framework, "torch") || !strcmp(f->framework, "torchvision") ||
                         !strcmp(f->framework, "torchaudio")));
}

/* a >= b, comparing only as many fields as a gives when a is major-only ("12" vs "12.0"
 * is >=, "12" vs "12.8" is not known: false). */
static bool at_least(const char *a, const char *b)
{
    int r;
    if (!strchr(a, '.')) {
        unsigned ma, mb, minor = 0;
        gl_version_field(b, 1, &minor);
        return gl_version_field(a, 0, &ma) && gl_version_field(b, 0, &mb) &&
               (ma > mb || (ma == mb && minor == 0));
    }
    return gl_version_compare(a, b, 0, &r) && r >= 0;
}

/* a < b; a major-only version is below b only when its major is. */
static bool below(const char *a, const char *b)
{
    int r;
    return gl_version_compare(a, b, strchr(a, '.') ? 0 : 1, &r) && r < 0;
}

/* Judge fact f against target t: in pass 0 a CUDA that dropped its architecture (an
 * error), in pass 1 a CUDA older than it (a warning). True when reported. */
static bool judge_one(struct gl_check *c, const struct gl_cuda_fact *f,
                      const struct gl_gpu_target_sm *t, int pass)
{
    const struct gl_kb_gpu_family *fam = gl_kb_gpu_family_of_sm(gl_cuda_kb(c), t->sm);
    if (!fam)
        return false;
    char who[256], where[512], fix[256];
    gl_gpu_target_describe(t, who, sizeof who);
    const struct gl_kb_ngc_release *rel;
    bool ngc_gl209 = gl_arch_ngc_lowest(c, f, &rel) > t->sm; /* GL209 says it */
    if (pass == 0 && fam->removed_in_cuda && at_least(f->version, fam->removed_in_cuda) &&
        !ngc_gl209) {
        snprintf(fix, sizeof fix, "use an image of a CUDA release before %s for this GPU "
                 "(the last that targets it: %s), or run on a newer GPU",
                 fam->removed_in_cuda, fam->last_cuda ? fam->last_cuda : "unknown");
        gl_report_sev(c, GL_SEV_ERROR, gl_cuda_fact_report_loc(f), fix,
                      "CUDA %s (%s) no longer supports %s: CUDA %s dropped the architecture, "
                      "so neither the toolkit nor its libraries carry code for it (\"no kernel "
                      "image is available for execution on the device\")",
                      f->version, gl_cuda_fact_where(c->doc, f, where, sizeof where), who,
                      fam->removed_in_cuda);
        return true;
    }
    if (pass == 1 && fam->first_cuda && !fam->first_cuda_unverified && below(f->version, fam->first_cuda)) {
        snprintf(fix, sizeof fix, "use an image of CUDA %s or newer for this GPU",
                 fam->first_cuda);
        gl_report_sev(c, GL_SEV_WARNING, gl_cuda_fact_report_loc(f), fix,
                      "CUDA %s (%s) predates %s: the first CUDA that targets it is %s, so code "
                      "built with this release has no SASS for it and runs only where older "
                      "PTX can be JIT-compiled",
                      f->version, gl_cuda_fact_where(c->doc, f, where, sizeof where), who,
                      fam->first_cuda);
        return true;
    }
    return false;
}

/* Judge one fact against every target (the most severe finding only): true when reported. */
static bool judge(struct gl_check *c, const struct gl_cuda_fact *f)
{
    size_t nt;
    const struct gl_gpu_target_sm *t = gl_arch_targets(c, &nt);
    for (int pass = 0; pass < 2; pass++) {
        for (size_t i = 0; i < nt; i++) {
            if (judge_one(c, f, &t[i], pass))
                return true;
        }
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
    size_t *reported = calloc(doc->ncuda ? doc->ncuda : 1, sizeof *reported), nrep = 0;
    for (size_t i = 0; i < doc->ncuda; i++) {
        const struct gl_cuda_fact *f = &doc->cuda[i];
        if (!f->version || !gl_version_valid(f->version) || torch_build(f) ||
            !gl_cuda_fact_on_gpu(doc, f) || (f->instr >= 0 && done[f->instr]))
            continue;
        bool same = false; /* one finding per version and image */
        for (size_t k = 0; k < nrep && !same; k++) {
            const struct gl_cuda_fact *g = &doc->cuda[reported[k]];
            same = !strcmp(g->version, f->version) && gl_cuda_same_subject(doc, f, g);
        }
        if (same || !judge(c, f))
            continue;
        gl_cuda_instr_claim(done, f);
        reported[nrep++] = i;
    }
    free(reported);
    free(done);
}

const struct gl_rule gl_rule_GL208 = {
    .id = "GL208",
    .name = "cuda-lacks-gpu-arch",
    .severity = GL_SEV_ERROR,
    .summary = "with a target GPU: the image's CUDA no longer supports the GPU's architecture "
               "(error: CUDA 12 dropped Kepler, CUDA 13 Maxwell, Pascal and Volta) or "
               "predates it (warning: sm_86 before 11.1, sm_90 before 11.8, sm_100/sm_120 "
               "before 12.8)",
    .explanation =
        "Every CUDA release compiles for, and ships libraries with code for, a range of GPU "
        "architectures. A CUDA major drops the oldest ones: CUDA 11.0 dropped sm_30, CUDA "
        "12.0 dropped Kepler (K80, K40), CUDA 13.0 dropped Maxwell, Pascal and Volta (V100, "
        "P100, GTX 10xx). An image built on such a CUDA cannot run its kernels on that GPU "
        "(\"no kernel image is available for execution on the device\"): an error. A CUDA "
        "release older than the GPU's architecture (sm_80 before 11.0, sm_86 before 11.1, "
        "sm_89 and sm_90 before 11.8, sm_100 and sm_120 before 12.8) has no SASS for it; "
        "code then runs only where PTX of an older architecture can be JIT-compiled, slowly "
        "at first start and without the new architecture's features: a warning. The CUDA "
        "version comes from every source GL201 uses (base tag, NGC month, ENV "
        "CUDA_VERSION, OS packages, image files, nvidia-*-cuNN wheels; a major-only version "
        "is judged by its major); torch builds are GL209's, whose arch lists decide, and so is an "
        "NGC month whose CUDA dropped the GPU (its framework builds then carry no code for "
        "it: GL209 says so). A first "
        "CUDA the table marks unverified (Jetson Thor's) is not judged. The "
        "architectures and their CUDA range are the knowledge table's gpu_architectures. "
        "Only with a target GPU (--gpu, config gpu:).",
    .bad = "# gpulint --gpu V100\n"
           "FROM nvidia/cuda:13.0.0-runtime-ubuntu24.04",
    .good = "# gpulint --gpu V100\n"
            "FROM nvidia/cuda:12.9.1-runtime-ubuntu24.04",
    .fix = "use an image whose CUDA release supports the target GPU's architecture",
    .check = check,
};
