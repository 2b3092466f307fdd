/* SPDX-License-Identifier: Apache-2.0 */
/* GL101 image-latest-tag: a reference with no tag or `latest`, and no digest. */
#include "rules/check.h"

/* NVIDIA publishes no `latest` for these: the pull itself fails. */
static bool no_latest_published(const struct gl_imageref *r)
{
    return gl_imageref_repo_has_prefix(r, "nvidia/cuda") ||
           gl_imageref_in_namespace(r, "nvcr.io/nvidia");
}

/* References that name an image to pull (not a stage, scratch, a build output, a file). */
static bool pulled(const struct gl_ref *r)
{
    return r->ok && !r->unresolved && !r->stage && !r->scratch && !r->local &&
           r->role != GL_REF_BUILD_OUTPUT && r->role != GL_REF_ELSEWHERE;
}

static void check(struct gl_check *c)
{
    for (size_t i = 0; i < c->doc->nrefs; i++) {
        const struct gl_ref *r = &c->doc->refs[i];
        if (!pulled(r) || !gl_imageref_is_unpinned_latest(&r->parsed))
            continue;
        const struct gl_imageref *p = &r->parsed;
        if (!p->tag && gl_imageref_name_placeholder(p)) /* `your-image`: the reader's, tag too */
            continue;
        bool fatal = no_latest_published(p);
        /* at the tag where it is written, also inside a word with an expansion
         * (`FROM ${REGISTRY}/opensuse/tumbleweed:latest`: the `latest`) */
        struct gl_loc at = p->tag ? gl_ref_tag_loc(r, 0, 0) : r->loc;
        const char *what = p->tag ? "uses the tag `latest`" : "has no tag, so it means `latest`";
        struct gl_finding *f;
        if (fatal)
            f = gl_report_sev(c, GL_SEV_ERROR, at,
                          "pin a published version tag, e.g. nvidia/cuda:12.4.1-runtime-ubuntu22.04 "
                          "or nvcr.io/nvidia/pytorch:24.05-py3",
                          "image `%s` %s, which NVIDIA does not publish: the pull fails with "
                          "`manifest unknown`", r->text, what);
        else
            f = gl_report(c, at, NULL,
                          "image `%s` %s: what runs changes whenever it is re-pushed", r->text,
                          what);
        /* a build output of the project, or retagged by a kustomization (renamed too for
         * the error: another registry may publish `latest`), or the default of an ARG
         * every build of the Dockerfile sets */
        gl_finding_on_image(c, f, r,
                            GL_PROJECT_BUILT | GL_PROJECT_RETAGGED | GL_PROJECT_ARG_SET |
                                (fatal ? GL_PROJECT_RENAMED : 0));
    }
}

const struct gl_rule gl_rule_GL101 = {
    .id = "GL101",
    .name = "image-latest-tag",
    .severity = GL_SEV_WARNING,
    .summary = "an image reference has no tag or the tag `latest`, and no digest "
               "(error for nvidia/cuda* and nvcr.io/nvidia/*, which publish no `latest`)",
    .explanation =
        "`latest` is whatever was pushed last: the CUDA version, the framework and the driver the "
        "image needs change under you, and a build or a launch that worked yesterday fails today. "
        "NVIDIA's nvidia/cuda and nvcr.io/nvidia/* repositories publish no `latest` tag at all, "
        "so a reference without a tag fails at pull time with `manifest unknown` (an error). A "
        "reference pinned by digest is fine. `FROM scratch`, `FROM <earlier stage>` and "
        "references whose variables cannot be resolved are not checked, nor images the project "
        "builds itself (a `docker build -t`, `docker tag`, `buildah bud -t`, compose `build:` or "
        "build-push-action tag in any input of the run) or whose tag a kustomization of the run "
        "sets (its `images:` entry is judged instead), nor a Docker Hub name of one component "
        "that was never an official image (`docker run bart_pyt`: no registry serves "
        "library/bart_pyt, so it is an image built or loaded where it runs, whether or not the "
        "run sees the build; in a Kubernetes manifest unless a kustomization of the run renames "
        "it to a registry's name), nor an untagged name documentation writes "
        "for the reader's own image (`your-image`, `yourusername/app`: the tag is theirs too), "
        "nor a `FROM ${ARG}` whose ARG default no build uses: every build of the Dockerfile the "
        "run sees (a bake target's `args`, `docker build --build-arg`, a GitHub "
        "build-push-action's `build-args`) sets that ARG; a compose `build:` sets none (its "
        "`build.args` are not followed).",
    .bad = "FROM nvidia/cuda\nFROM python:latest",
    .good = "FROM nvidia/cuda:12.4.1-runtime-ubuntu22.04\nFROM python:3.11-slim",
    .fix = "pin a version tag (or a digest)",
    .check = check,
};
