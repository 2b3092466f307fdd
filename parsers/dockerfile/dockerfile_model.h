/* SPDX-License-Identifier: Apache-2.0 */
/*
 * dockerfile_model.h: a Dockerfile's syntax tree (dockerfile.h) into the model.
 *
 * What it derives, as `docker build` would see it:
 *  - global ARGs (before the first FROM) with --build-arg overriding their defaults, and
 *    each FROM's image expanded through them; unknown variables leave the reference
 *    `unresolved` (no finding may depend on it);
 *  - stages: name, base (an image, `scratch`, or an earlier stage by name or index), the
 *    final stage (the last, or --target) and the shipped ones (its FROM chain);
 *  - stage ARG/ENV values, each ENV as a gl_env; COPY/ADD build-context sources;
 *    COPY --from / RUN --mount=from images as references;
 *  - RUN commands split into shell words (shell form, exec form, heredoc scripts), and
 *    from them the packages installed (pkg_install.h);
 *  - inline ignores from comments (a pragma covers the instruction that follows it).
 * Syntax errors set doc->error at the first bad byte.
 */
#ifndef GPULINT_PARSERS_DOCKERFILE_MODEL_H
#define GPULINT_PARSERS_DOCKERFILE_MODEL_H

#include "linter/core/config.h"
#include "linter/core/model.h"

void gl_parse_dockerfile_doc(struct gl_doc *doc, const struct gl_config *cfg);

#endif
