/* SPDX-License-Identifier: Apache-2.0 */
/* GL102 deprecated-cuda-repo: the per-architecture nvidia/cuda repositories. */
#include "rules/check.h"

/* Could the repository be one of the deprecated ones? Each spelling gl_imageref_repo_is
 * tries (the familiar name, the path, domain/path) ends with the familiar name or the
 * path, so one of those two ends with the repository's last part when it matches. */
static bool may_be_deprecated(const struct gl_imageref *p)
{
    const char *names[] = {p->familiar, p->path};
    for (size_t i = 0; i < 2; i++)
        if (names[i] && (gl_has_suffix(names[i], "cuda-arm64") ||
                         gl_has_suffix(names[i], "cuda-ppc64le")))
            return true;
    return false;
}

static void check(struct gl_check *c)
{
    static const char *const deprecated[] = {"nvidia/cuda-arm64", "nvidia/cuda-ppc64le"};
    for (size_t i = 0; i < c->doc->nrefs; i++) {
        const struct gl_ref *r = &c->doc->refs[i];
        if (!r->ok || r->unresolved || r->stage || !may_be_deprecated(&r->parsed))
            continue;
        for (size_t k = 0; k < sizeof deprecated / sizeof deprecated[0]; k++)
            if (gl_imageref_repo_is(&r->parsed, deprecated[k]))
                gl_finding_on_image(
                    c,
                    gl_report(c, r->loc, NULL,
                              "`%s` is a deprecated per-architecture repository that gets no "
                              "new CUDA releases", r->text),
                    r, GL_PROJECT_RENAMED);
    }
}

const struct gl_rule gl_rule_GL102 = {
    .id = "GL102",
    .name = "deprecated-cuda-repo",
    .severity = GL_SEV_WARNING,
    .summary = "nvidia/cuda-arm64 or nvidia/cuda-ppc64le instead of the multi-arch nvidia/cuda",
    .explanation =
        "NVIDIA used to publish separate repositories per CPU architecture. They are "
        "deprecated and receive no new CUDA releases; nvidia/cuda is a multi-architecture "
        "image and the platform is chosen with --platform (or by the host).",
    .bad = "FROM nvidia/cuda-arm64:11.4.0-runtime-ubuntu20.04",
    .good = "FROM --platform=linux/arm64 nvidia/cuda:12.4.1-runtime-ubuntu22.04",
    .fix = "use the multi-arch nvidia/cuda with --platform",
    .check = check,
};
