/* SPDX-License-Identifier: Apache-2.0 */
/*
 * dev_container.h: is a Dockerfile the image of a dev container? A Dockerfile under a
 * `.devcontainer/` directory is what VS Code, Codespaces and the devcontainer CLI build
 * for a developer to work in (devcontainer.json's `build.dockerfile`, relative to it): a
 * development environment by design, shipped to no production service. Its compilers,
 * headers and devel base are the point (GL301, GL302 stay silent); what it runs is still
 * judged (its CUDA against the driver, GL201 and the rest).
 * A Dockerfile elsewhere (`docker/Dockerfile.dev`) is a dev container's too when the
 * devcontainer.json files of the same run are the only builds of it (their
 * `build.dockerfile`, parsers/launch/devcontainer_input.c): decided over the whole run, as
 * the project's builds are (linter/cli/project.h), so the finding is made and then dropped
 * as moot. A devcontainer.json that is not among the inputs of the run counts for nothing
 * (the run does not look for one beside the Dockerfile): `gpulint docker/Dockerfile.dev`
 * alone still judges it as a shipped image.
 */
#ifndef GPULINT_RULES_DEV_CONTAINER_H
#define GPULINT_RULES_DEV_CONTAINER_H

#include <stdbool.h>

struct gl_doc;
struct gl_finding;

/* Is doc a Dockerfile whose path (after the working directory when it is relative) has a
 * `.devcontainer` directory? False for every other input (an image archive is judged by
 * what it holds). */
bool gl_df_dev_container(const struct gl_doc *doc);

/* Make finding f (on a Dockerfile; NULL: nothing) moot when every build of its file the run
 * sees is a dev container's (GL_BUILD_DEV_CONTAINER, model_ref.h). */
void gl_df_dev_built(struct gl_finding *f);

#endif
