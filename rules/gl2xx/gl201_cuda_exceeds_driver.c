/* SPDX-License-Identifier: Apache-2.0 */
/* GL201 cuda-exceeds-driver: a CUDA version the image needs is newer than the target
 * driver supports, or its NVIDIA_REQUIRE_CUDA cannot be met. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "knowledge/driver_target.h"
#include "rules/gl2xx/cuda_check.h"
#include "rules/gl2xx/cuda_require.h"

#define FIX_DRIVER "use an image built for the target driver's CUDA, or upgrade the driver"

static bool check_require(struct gl_check *c, const struct gl_cuda_fact *f, const char *driver,
                          const char *target)
{
    if (!f->require || gl_cuda_require_disabled(c->doc, f))
        return false;
    bool exact = false;
    struct gl_require_target t = {driver, gl_kb_driver_max_cuda(gl_cuda_kb(c), driver, &exact),
                                  false};
    t.driver_cuda_exact = exact;
    struct gl_require_outcome o;
    enum gl_require_result r = gl_require_cuda_eval(f->require, &t, &o);
    char where[512];
    gl_cuda_fact_where(c->doc, f, where, sizeof where);
    if (r == GL_REQUIRE_UNMET) {
        gl_report(c, gl_cuda_fact_report_loc(f), FIX_DRIVER,
                  "NVIDIA_REQUIRE_CUDA=%s (%s) cannot be met by target %s (CUDA %s): no "
                  "alternative holds, so the container toolkit refuses to start it "
                  "(\"unsatisfied condition: %.*s\")",
                  f->require, where, target, t.driver_cuda ? t.driver_cuda : "unknown",
                  (int)o.len, f->require + o.off);
        return true;
    }
    if (r == GL_REQUIRE_INVALID) {
        gl_report(c, gl_cuda_fact_report_loc(f),
                  "write predicates as cuda>=X.Y, driver>=N, brand=NAME, separated by ',' (and) "
                  "or ' ' (or)",
                  "NVIDIA_REQUIRE_CUDA (%s) has the predicate `%.*s`, which the container "
                  "toolkit cannot evaluate: it refuses to start the container "
                  "(\"requirement error: invalid expression\")",
                  where, (int)o.len, f->require + o.off);
        return true;
    }
    return false;
}

static const struct gl_kb_ngc_release *ngc_release_of(const struct gl_check *c,
                                                       const struct gl_cuda_fact *f)
{
    if (f->kind != GL_CUDA_NGC_TAG || f->ref < 0 || (size_t)f->ref >= c->doc->nrefs)
        return NULL;
    const struct gl_ref *r = &c->doc->refs[f->ref];
    return r->ok && r->parsed.tag ? gl_kb_ngc_release(gl_cuda_kb(c), r->parsed.tag) : NULL;
}

static bool check_version(struct gl_check *c, const struct gl_cuda_fact *f, const char *driver,
                          const char *target)
{
    const struct gl_kb *kb = gl_cuda_kb(c);
    const struct gl_kb_ngc_release *ngc = ngc_release_of(c, f);
    struct gl_judgement j;
    gl_cuda_judge(kb, f->version, driver, ngc, &j);
    if (j.verdict == GL_JUDGE_OK || j.verdict == GL_JUDGE_UNKNOWN)
        return false;
    unsigned major = 0;
    gl_version_field(f->version, 0, &major);
    char where[512], need[160], fails[256];
    gl_cuda_fact_where(c->doc, f, where, sizeof where);
    struct gl_loc loc = gl_cuda_fact_report_loc(f);
    if (j.need)
        snprintf(need, sizeof need, "needs driver ≥ %s", j.need);
    else if (j.newer_than_table)
        snprintf(need, sizeof need,
                 "is newer than the knowledge table (%s), so its exact driver row is unknown",
                 gl_kb_date(kb));
    else if (j.major_only)
        snprintf(need, sizeof need, "needs a CUDA %u driver", major);
    else
        snprintf(need, sizeof need, "has no row in the knowledge table");
    if (j.has_mvc && j.floor)
        snprintf(fails, sizeof fails,
                 "below %s, the CUDA %u minor-version-compatibility floor: CUDA initialisation "
                 "fails (cudaErrorInsufficientDriver)", j.floor, major);
    else if (j.new_major)
        snprintf(fails, sizeof fails,
                 "supports CUDA %s natively and minor-version compatibility never crosses a "
                 "major: CUDA initialisation fails", j.driver_max_cuda);
    else
        snprintf(fails, sizeof fails,
                 "older, and CUDA %u has no minor-version compatibility: CUDA initialisation "
                 "fails (cudaErrorInsufficientDriver)", major);
    struct gl_finding *out = NULL;
    switch (j.verdict) {
    case GL_JUDGE_FAIL:
        out = gl_report_sev(c, GL_SEV_ERROR, loc, NULL, "CUDA %s (%s) %s; target %s is %s",
                            f->version, where, need, target, fails);
        break;
    case GL_JUDGE_MVC:
        out = gl_report_sev(c, GL_SEV_WARNING, loc, NULL,
                      "CUDA %s (%s) %s; target %s runs it only under minor-version "
                      "compatibility: no PTX JIT of newer code",
                      f->version, where, need, target);
        break;
    case GL_JUDGE_FWD_COMPAT: {
        bool other_fail = !j.has_mvc || (j.floor && gl_version_cmp(driver, j.floor) < 0);
        out = gl_report_sev(c, GL_SEV_WARNING, loc, NULL,
                      "CUDA %s (%s) %s; target %s runs it only through forward compatibility "
                      "on data-center GPUs (the NGC %s release notes list %s or later R%u); on "
                      "other GPUs %s",
                      f->version, where, need, target, ngc ? ngc->tag : "", j.fwd_driver,
                      gl_driver_branch_of(j.fwd_driver),
                      other_fail ? "CUDA initialisation fails"
                                 : "only minor-version compatibility applies (no PTX JIT of "
                                   "newer code)");
        break;
    }
    default: return false;
    }
    /* an image a kustomization renames or retags is not the one its tag names */
    if (f->ref >= 0 && (size_t)f->ref < c->doc->nrefs)
        gl_finding_on_image(c, out, &c->doc->refs[f->ref],
                            GL_PROJECT_RENAMED | GL_PROJECT_RETAGGED);
    return true;
}

static void check(struct gl_check *c)
{
    const char *driver = gl_driver_target_version(&c->cfg->driver);
    if (!driver)
        return;
    char target[160];
    gl_driver_target_describe(&c->cfg->driver, target, sizeof target);
    const struct gl_doc *doc = c->doc;
    bool *done = gl_cuda_instr_flags(doc); /* instructions already reported */
    const char *fine = NULL;               /* the last version judged without a finding */
    for (size_t i = 0; i < doc->ncuda; i++) {
        const struct gl_cuda_fact *f = &doc->cuda[i];
        if (!gl_cuda_fact_on_gpu(doc, f) || (f->instr >= 0 && done[f->instr]))
            continue;
        bool reported = false;
        if (f->kind == GL_CUDA_REQUIRE) {
            reported = check_require(c, f, driver, target);
        } else if (f->version) {
            /* a version just found fine is fine again (long runs of the same pin) */
            if (fine && f->kind != GL_CUDA_NGC_TAG && !strcmp(fine, f->version))
                continue;
            reported = check_version(c, f, driver, target);
            fine = reported || f->kind == GL_CUDA_NGC_TAG ? NULL : f->version;
        }
        if (reported)
            gl_cuda_instr_claim(done, f);
    }
    free(done);
}

const struct gl_rule gl_rule_GL201 = {
    .id = "GL201",
    .name = "cuda-exceeds-driver",
    .severity = GL_SEV_ERROR,
    .summary = "a CUDA version the image needs is newer than the target driver supports, or "
               "its NVIDIA_REQUIRE_CUDA cannot be met (warning under minor-version "
               "compatibility)",
    .explanation =
        "Every CUDA toolkit release names the oldest Linux driver it was built for (CUDA release "
        "notes, Table 3). On an older driver of the same CUDA major, the runtime still starts "
        "under minor-version compatibility (MVC, from CUDA 11), but PTX of newer code cannot be "
        "JIT-compiled and some APIs return cudaErrorCallRequiresNewerDriver: a warning. Below the "
        "major's MVC floor (450.80.02 for 11.x, 525.60.13 for 12.x, the R580 floor for 13.x), and "
        "below the toolkit's own driver for 10.x and older, which have no MVC, CUDA initialisation "
        "fails with \"CUDA driver version is insufficient for CUDA runtime version\": an error. "
        "The CUDA version comes from the image: its tag (nvidia/cuda, NGC releases, cudaX.Y / "
        "cuXYZ / cudaXYZ tokens), ENV CUDA_VERSION, OS packages (cuda-toolkit-X-Y), the "
        "runfile installer a RUN line runs (`sh cuda_12.4.1_550.54.15_linux.run --toolkit`), "
        "framework pins "
        "(torch +cuNNN, PyTorch wheel indexes, conda pytorch-cuda/cudatoolkit, jax[cudaNN], "
        "TensorFlow's tested CUDA) and nvidia-*-cuNN wheels (major only: judged by the MVC floor), "
        "in RUN lines and in the requirements, conda environment, pyproject.toml (with the extras "
        "the command installs) and uv.lock files the Dockerfile copies in or bind-mounts and "
        "installs from (from the Dockerfile's directory, or the nearest one above it that holds "
        "them: `-f docker/Dockerfile .`); in an image archive, its CUDA files and the "
        "dist-info METADATA of the Python distributions it installed. A version newer than the "
        "knowledge table is judged only by its major's floor, and the message says its exact row "
        "is unknown. NGC containers whose release notes list the target's branch for forward "
        "compatibility run on data-center GPUs through the CUDA compat package they ship, but fail "
        "(or fall back to MVC) on other GPUs: gpulint cannot see the GPU, so these are warnings "
        "that name forward compatibility rather than errors. NVIDIA_REQUIRE_CUDA is evaluated as "
        "libnvidia-container does (space = or, comma = and; `cuda` is the newest CUDA the target "
        "driver supports natively; `brand` and `arch` count as possibly true): when no alternative "
        "can hold, or the expression is invalid, the container toolkit refuses to start the "
        "container (error). The target driver comes from --driver (535, R535 = its first release, "
        "535.104.05, host) or the config `driver:`; without one the rule is inactive. An image "
        "that a kustomization of the run renames or retags is judged at that kustomization's "
        "`images:` entry, not in the manifests it rewrites. The version of an nvidia/cuda "
        "`-base` tag (cudart and cuda-compat, no CUDA library) in an image that sets "
        "NVIDIA_DISABLE_REQUIRE and installs no Python is not a need: GPU plumbing (device "
        "plugins, feature discovery, exporters) ships on such a base to start on every driver "
        "and reads the GPUs through NVML; the image's other CUDA sources are judged as ever.",
    .bad = "# gpulint --driver 535.104.05\nFROM nvidia/cuda:12.4.1-runtime-ubuntu22.04",
    .good = "# gpulint --driver 535.104.05\nFROM nvidia/cuda:12.2.2-runtime-ubuntu22.04",
    .fix = FIX_DRIVER,
    .check = check,
};
