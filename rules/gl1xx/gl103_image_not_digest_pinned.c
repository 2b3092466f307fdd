/* SPDX-License-Identifier: Apache-2.0 */
/* GL103 image-not-digest-pinned (optional): a registry image without @sha256:. */
#include "rules/check.h"

static void check(struct gl_check *c)
{
    for (size_t i = 0; i < c->doc->nrefs; i++) {
        const struct gl_ref *r = &c->doc->refs[i];
        if (!r->ok || r->unresolved || r->stage || r->scratch || r->local ||
            r->role == GL_REF_BUILD_OUTPUT || r->role == GL_REF_ELSEWHERE || r->role == GL_REF_ARCHIVE || r->parsed.digest)
            continue;
        gl_finding_on_image(
            c,
            gl_report(c, r->loc, NULL,
                      "image `%s` is not pinned by digest: the same tag can be re-pushed",
                      r->text),
            r, GL_PROJECT_BUILT | GL_PROJECT_RETAGGED);
    }
}

const struct gl_rule gl_rule_GL103 = {
    .id = "GL103",
    .name = "image-not-digest-pinned",
    .severity = GL_SEV_STYLE,
    .optional = true,
    .summary = "a reference to a registry image is not pinned by digest (off unless enabled)",
    .explanation =
        "A tag is a moving pointer: NVIDIA and framework publishers re-push tags with "
        "security updates, so two builds of the same Dockerfile can differ. Pinning by "
        "digest (`image:tag@sha256:...`) makes builds and launches reproducible; keep the tag "
        "for readers, the digest decides. This rule is a style choice and is off unless "
        "enabled with --enable GL103 or the config's `enable:`. Images the project builds "
        "itself and images a kustomization retags are not checked.",
    .bad = "FROM nvidia/cuda:12.4.1-runtime-ubuntu22.04",
    .good = "FROM nvidia/cuda:12.4.1-runtime-ubuntu22.04@sha256:<digest>",
    .fix = "append @sha256:<digest> (docker buildx imagetools inspect IMAGE shows it)",
    .check = check,
};
