/* SPDX-License-Identifier: Apache-2.0 */
/*
 * embedded.h: the Dockerfiles written in a document's code blocks (model.h gl_embedded,
 * noted by the Markdown and reStructuredText readers: doc_blocks.h doc_note_dockerfile),
 * each linted as a Dockerfile of its own.
 *
 * A README that shows the Dockerfile to build (```dockerfile, or an untagged fence whose
 * first instruction is FROM or ARG) gives the same advice as a Dockerfile file would: its
 * base is judged against the driver (GL201), its devel flavour (GL301), its tags (GL101).
 * The block's lines, without the fence's indentation, are the Dockerfile's text; a
 * rendered-stream map (model_template.h gl_render) takes every finding back to the
 * document's line and column. A block gpulint cannot parse as a whole Dockerfile (a
 * fragment with `...` lines, a template) is an illustration: it gives no finding at all,
 * never a GL900 or GL903 in the document. The document's global ignores (`# gpulint
 * global ignore=ID`) hold for its blocks too; a block's own `# gpulint ignore=` lines hold
 * in it.
 */
#ifndef GPULINT_EMBEDDED_H
#define GPULINT_EMBEDDED_H

#include "linter/cli/engine.h"

/* How the engine lints one parsed doc into run (gl_lint_doc: passed in, so that this
 * module, which the engine calls, does not call back into it by name). */
typedef void (*gl_lint_fn)(struct gl_run *run, struct gl_doc *doc);

/* Lint the Dockerfiles of doc's code blocks into run with `lint` (the inputs counted stay
 * one). */
void gl_lint_embedded(struct gl_run *run, const struct gl_doc *doc, gl_lint_fn lint);

#endif
