/* SPDX-License-Identifier: Apache-2.0 */
/*
 * dev_container.h: is a Dockerfile the image of a dev container? A Dockerfile under a
 * `.devcontainer/` directory is what VS Code, Codespaces and the devcontainer CLI build
 * for a developer to work in (devcontainer.json's `build.dockerfile`, relative to it): a
 * development environment by design, shipped to no production service. Its compilers,
 * headers and devel base are the point (GL301, GL302 stay silent); what it runs is still
 * judged (its CUDA against the driver, GL201 and the rest).
 */
#ifndef GPULINT_RULES_DEV_CONTAINER_H
#define GPULINT_RULES_DEV_CONTAINER_H

#include <stdbool.h>

struct gl_doc;

/* Is doc a Dockerfile whose path (after the working directory when it is relative) has a
 * `.devcontainer` directory? False for every other input (an image archive is judged by
 * what it holds). */
bool gl_df_dev_container(const struct gl_doc *doc);

#endif
