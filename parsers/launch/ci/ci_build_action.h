/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ci_build_action.h: a GitHub Actions step that `uses: docker/build-push-action` (ciyaml.c
 * reads the rest of a workflow).
 *
 * `with: tags:` (one a line or comma separated): each tag is a project image
 * (GL_PROJECT_BUILT, model_ref.h): a `${{ env.NAME }}` or `${{ matrix.KEY }}` with
 * literal values (ci_expr.h) gives one tag per value, any other expression is unresolved
 * ('*').
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
#include "parsers/launch/ci/ci_expr.h"
#include "parsers/yaml/yaml_tree.h"

/* Read sc->step if it uses docker/build-push-action (sc: where its expressions are read
 * from, ci_expr.h). `root` is the path from the directory
 * of doc->path to the step's working directory (the repository root: "../.." for a
 * workflow in .github/workflows/), NULL when not known (a composite action, a workflow
 * found by its content elsewhere): the build then may run from that directory or any
 * above it. */
void ci_build_push_action(struct gl_doc *doc, const struct ci_scope *sc, const char *root);

/* `with: build-contexts:` (build-push-action's input, one `NAME=VALUE` a line or comma
 * separated; also the same input of a job that calls a reusable workflow, which hands it
 * on): each literal NAME is a named build context that a Dockerfile's `FROM NAME` or
 * `COPY --from=NAME` takes instead of a registry image, a project image
 * (GL_PROJECT_BUILT) as a bake file's `contexts` key is. */
void ci_build_contexts(struct gl_doc *doc, struct yt_stream *s, struct yt_node *with);

#endif
