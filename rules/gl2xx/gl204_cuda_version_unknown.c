/* SPDX-License-Identifier: Apache-2.0 */
/* GL204 cuda-version-unknown: a target driver is set, but an image of a CUDA-bearing family
 * gives no CUDA version the table knows, so GL201 could not check it. */
#include <stdio.h>
#include <string.h>

#include "knowledge/derive/cuda_derive.h"
#include "knowledge/driver_target.h"
#include "rules/gl2xx/cuda_check.h"
#include "rules/gl3xx/driver_container.h"

/* The image is the project's own build output, or a kustomization gives it another name
 * or tag: its version is not what the reference says. */
#define MOOT (GL_PROJECT_BUILT | GL_PROJECT_RENAMED | GL_PROJECT_RETAGGED)

/* References that stand for an image that runs: a shipped FROM, a launch (not one where no
 * CUDA starts: gl_cuda_launch_off_gpu), a .def base, an archive's tag. */
static bool runs(const struct gl_doc *doc, const struct gl_ref *r)
{
    if (!r->ok || r->unresolved || r->scratch || r->stage || r->local)
        return false;
    switch (r->role) {
    case GL_REF_FROM: return gl_df_stage_shipped(doc, r->df_stage);
    case GL_REF_LAUNCH:
        return r->launch < 0 || ((size_t)r->launch < doc->nlaunches &&
                                 !doc->launches[r->launch].fragment &&
                                 !gl_cuda_launch_off_gpu(doc, &doc->launches[r->launch]));
    case GL_REF_DEF_FROM:
    case GL_REF_KUSTOMIZE:
    case GL_REF_REGISTRY:
    case GL_REF_ARCHIVE: return true;
    default: return false;
    }
}

static bool ref_has_version(const struct gl_doc *doc, size_t ri)
{
    for (size_t i = 0; i < doc->ncuda; i++)
        if (doc->cuda[i].ref == (int)ri && doc->cuda[i].version)
            return true;
    return false;
}

static void check_refs(struct gl_check *c)
{
    const struct gl_doc *doc = c->doc;
    for (size_t i = 0; i < doc->nrefs; i++) {
        const struct gl_ref *r = &doc->refs[i];
        if (!runs(doc, r))
            continue;
        const struct gl_imageref *p = &r->parsed;
        if (!gl_imageref_cuda_bearing(p) || gl_imageref_nvidia_infra(p) ||
            gl_cuda_ref_is_jetson(p) || ref_has_version(doc, i) ||
            (r->role == GL_REF_FROM && gl_df_driver_container(doc)))
            continue; /* (a driver container runs no CUDA: driver_container.h) */
        if (gl_imageref_tag_placeholder(p->tag)) /* `:yy.mm-py3`: the reader picks it */
            continue;
        const char *why = !p->tag && p->digest ? "it is pinned by digest only"
                          : !p->tag || !strcmp(p->tag, "latest")
                              ? "`latest` names no CUDA release"
                          : gl_ngc_post_release(p->tag) &&
                                    gl_imageref_in_namespace(p, "nvcr.io/nvidia")
                              ? "an NGC post release: no release notes give its CUDA, and it "
                                "is not taken as its month's"
                              : "its tag is outside the knowledge tables";
        struct gl_loc loc = p->tag ? gl_ref_tag_loc(r, 0, 0) : r->loc;
        /* (moot too when the reference is an ARG's default that every build of the
         * Dockerfile sets, as for GL101: no build uses a reference that gives no version;
         * a real version newer than the table, below, stays as GL201 on it would) */
        gl_finding_on_image(c,
                            gl_report(c, loc, NULL,
                                      "%s is a CUDA image but gives no CUDA version (%s): its "
                                      "driver needs were not checked", r->text, why),
                            r, MOOT | GL_PROJECT_ARG_SET);
    }
}

/* Versions newer than the table that GL201 could not judge. */
static void check_newer(struct gl_check *c, const char *driver)
{
    const struct gl_doc *doc = c->doc;
    const struct gl_kb *kb = gl_cuda_kb(c);
    for (size_t i = 0; i < doc->ncuda; i++) {
        const struct gl_cuda_fact *f = &doc->cuda[i];
        if (!f->version || f->kind == GL_CUDA_REQUIRE || !gl_cuda_fact_on_gpu(doc, f))
            continue;
        struct gl_judgement j;
        gl_cuda_judge(kb, f->version, driver, NULL, &j);
        if (j.verdict != GL_JUDGE_UNKNOWN || !j.newer_than_table)
            continue;
        char where[512];
        gl_cuda_fact_where(c->doc, f, where, sizeof where);
        struct gl_finding *out =
            gl_report(c, gl_cuda_fact_report_loc(f),
                      "load a newer knowledge table with --knowledge FILE",
                      "CUDA %s (%s) is newer than the knowledge table (%s): its exact driver "
                      "row is unknown, so GL201 could not check it",
                      f->version, where, gl_kb_date(kb));
        if (f->ref >= 0 && (size_t)f->ref < doc->nrefs)
            gl_finding_on_image(c, out, &doc->refs[f->ref], MOOT);
    }
}

static void check(struct gl_check *c)
{
    const char *driver = gl_driver_target_version(&c->cfg->driver);
    if (!driver)
        return;
    check_refs(c);
    check_newer(c, driver);
}

const struct gl_rule gl_rule_GL204 = {
    .id = "GL204",
    .name = "cuda-version-unknown",
    .severity = GL_SEV_INFO,
    .summary = "a target driver is set, but a CUDA image gives no CUDA version the tables "
               "know (latest, digest only, a tag outside the tables), so GL201 could not check it",
    .explanation =
        "GL201 compares the CUDA version an image needs with the target driver. For images of a "
        "CUDA-bearing family (nvidia/cuda*, nvcr.io/nvidia/* other than NVIDIA's infrastructure "
        "images, pytorch/pytorch, tensorflow/tensorflow GPU tags, any tag with a cudaX.Y / cuXYZ "
        "/ cudaXYZ token) whose reference gives no version (`latest`, a digest only, an NGC "
        "release or tag form outside the knowledge tables, an NGC post release such as "
        "`25.12.post1-py3`, whose CUDA no release notes give), or whose version is newer than the "
        "table, that check could not run: this note says so instead of staying silent. Not for "
        "plain OS images, local build outputs (images the project builds itself), images a "
        "kustomization rewrites (its entry is judged instead), .sif files, compose override "
        "fragments or Jetson/L4T images, nor a tag that is a placeholder the reader fills in "
        "(`:YY.MM-py3`, `:yy.mm-py3-sdk`, `:X.Y.Z-base`, `:TAG`), nor a `FROM ${ARG}` that gives "
        "no version from the ARG's default when every build of the Dockerfile the run sees sets "
        "that ARG (as GL101); only when a target driver is set.",
    .bad = "# gpulint --driver 535\nFROM nvcr.io/nvidia/pytorch@sha256:"
           "9f2c4e1a7b3d5f60818293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8",
    .good = "# gpulint --driver 535\nFROM nvcr.io/nvidia/pytorch:23.10-py3",
    .fix = "pin a tag that names the CUDA release (nvidia/cuda:X.Y.Z-..., an NGC YY.MM tag), "
           "or load a newer table with --knowledge",
    .check = check,
};
