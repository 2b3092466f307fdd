/* SPDX-License-Identifier: Apache-2.0 */
/*
 * bake_targets.h: the Dockerfiles a bake file's targets build, and the build ARGs they set
 * (RULES.md "Images built by the project"; model_ref.h, "builds of a Dockerfile").
 *
 * Reads the `target "NAME" { ... }` blocks of an HCL bake file, or the `"target": { "NAME":
 * { ... } }` object of a JSON one: `context`, `dockerfile`, `inherits` and the names of
 * `args` (an arg set to `null` is not set: the Dockerfile's default applies). A target
 * another target inherits is a template, not a build of its own; every other target is
 * one build: its context and Dockerfile (each its own or the nearest inherited one, by
 * default "." and "Dockerfile") and the args of its inherits chain and its own. Whatever
 * values they take (literal, `${VAR}`, a matrix's), the ARG is set. One fact
 * (gl_project_add_build) for each build whose Dockerfile path is written literally,
 * relative to the directory bake runs in: the bake file's own or any above it. A target
 * whose context or Dockerfile is not literal (an expression, a URL, another target, an
 * inline Dockerfile) adds none; nor do targets beyond BAKE_TARGETS_MAX.
 */
#ifndef GPULINT_PARSERS_BAKE_TARGETS_H
#define GPULINT_PARSERS_BAKE_TARGETS_H

#include "linter/core/model.h"

#define BAKE_TARGETS_MAX 512

void gl_bake_builds(struct gl_doc *doc);

#endif
