/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ci_build_action.h: a GitHub Actions step that `uses: docker/build-push-action` (ciyaml.c
 * reads the rest of a workflow).
 *
 * `with: tags:` (one a line or comma separated): each tag is a project image
 * (GL_PROJECT_BUILT, model_ref.h), a `${{ ... }}` expression in it unresolved ('*') but for
 * `${{ env.NAME }}` with a literal value in the `env:` the step sees (below).
 * The step is also a build of one Dockerfile (GL_PROJECT_ARG_SET, model_ref.h, as round 12
 * made of `docker build --build-arg K=V -f F CTX` in scripts): `with: file:` (relative to
 * the working directory), else `context:`/Dockerfile, else Dockerfile (the default context
 * is the repository's Git context, whose root is the repository's); the ARGs it sets are
 * the `K` of each `K=V` line of `build-args:` (a multi-line string; a list of such strings
 * read the same; a line in double quotes is its content, as the action's CSV reading has
 * it). A `${{ ... }}` value is set to an unknown value: set. A leading
 * `${{ github.workspace }}` is the working directory. Nothing for a context or file that is
 * an expression, a URL or a Git context with a subdirectory, nor for `build-args:` whose
 * names are not all literal (an expression may stand for any set of them).
 * A `K` without `=V` takes the runner's environment, which may not have it: not counted.
 */
#ifndef GPULINT_PARSERS_LAUNCH_CI_BUILD_ACTION_H
#define GPULINT_PARSERS_LAUNCH_CI_BUILD_ACTION_H

#include "linter/core/model.h"
#include "parsers/yaml/yaml_tree.h"

/* The `env:` maps a step sees, nearest first: the step's, its job's, the workflow's (NULL
 * when absent). A tag's `${{ env.NAME }}` takes the literal value the first of them that
 * sets NAME gives (an expression there stays unresolved). */
#define CI_ENVS 3
struct ci_envs {
    struct yt_node *maps[CI_ENVS];
};

/* Read `step` if it uses docker/build-push-action. `root` is the path from the directory
 * of doc->path to the step's working directory (the repository root: "../.." for a
 * workflow in .github/workflows/), NULL when not known (a composite action, a workflow
 * found by its content elsewhere): the build then may run from that directory or any
 * above it. */
void ci_build_push_action(struct gl_doc *doc, struct yt_stream *s, struct yt_node *step,
                          const char *root, const struct ci_envs *envs);

/* `with: build-contexts:` (build-push-action's input, one `NAME=VALUE` a line or comma
 * separated; also the same input of a job that calls a reusable workflow, which hands it
 * on): each literal NAME is a named build context that a Dockerfile's `FROM NAME` or
 * `COPY --from=NAME` takes instead of a registry image, a project image
 * (GL_PROJECT_BUILT) as a bake file's `contexts` key is. */
void ci_build_contexts(struct gl_doc *doc, struct yt_stream *s, struct yt_node *with);

#endif
