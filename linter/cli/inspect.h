/* SPDX-License-Identifier: Apache-2.0 */
/*
 * inspect.h: --inspect-images, the configs of the images an input names, looked up.
 *
 * Off by default (the network is the user's choice). For each image reference of a doc
 * that runs (a shipped stage's FROM, a launch's image, a compose or pod `image:`, an
 * apptainer `docker://` From) and whose CUDA no fact tells (the tables cannot read its
 * tag: a team's own `registry.example/ml/train:1.4`), the image's config is fetched from
 * its registry through the one registry reader (parsers/registry/: the same client,
 * auth, TLS options, limits and digest checks as a `docker://` input; --platform picks
 * the platform of an index, every platform otherwise) and its Env judged as that
 * reference's: CUDA_VERSION and NVIDIA_REQUIRE_CUDA become CUDA facts of the reference,
 * at its token, labelled as coming from the registry's config. Each reference is
 * looked up once a run (kept by its text); its manifest is always asked (tags move), and
 * a config already read comes from the layer-index cache by its digest, under the
 * cache's size bound (registry_input.c). A reference that cannot be fetched (no such
 * image, a 401, TLS, a timeout, a broken config) is one line on standard error and
 * changes no finding. Only the Env's CUDA is judged: the image's history and files are
 * its own input's (`gpulint docker://REF`).
 */
#ifndef GPULINT_INSPECT_H
#define GPULINT_INSPECT_H

#include "linter/cli/engine.h"

/* Look up the doc's unknown-CUDA references (run->cfg->inspect_images). */
void gl_inspect_images(struct gl_run *run, struct gl_doc *doc);
/* Forget what the run looked up. */
void gl_inspect_free(struct gl_run *run);

#endif
