/* SPDX-License-Identifier: Apache-2.0 */
/*
 * dockerfile_from.h: what BuildKit refuses in a FROM instruction before it builds anything.
 *
 * BuildKit's instructions.parseBuildStageName and dockerfile2llb refuse a FROM that
 *  - has neither one argument nor three with `AS` second ("FROM requires either one or three
 *    arguments": `FROM a b`, `FROM a AS`, `FROM a AS b c`, a trailing `# comment`, a bare
 *    `FROM`);
 *  - names its stage against `^[a-z][a-z0-9-_.]*$` once lowered ("invalid name for build
 *    stage"); a name that holds a `$` is left alone;
 *  - has a flag other than `--platform=VALUE` (BuildKit's BFlags.Parse: "unknown flag",
 *    "missing a value on flag", "duplicate flag specified"; names are case-sensitive), or
 *    a literal platform containerd refuses (dockerfile_platform.h);
 *  - takes an image whose reference distribution/reference (ParseNormalizedNamed, imageref.h)
 *    rejects: upper case in the repository path, a digest of the wrong length, a tag over
 *    128 characters or starting with '.' or '-', a byte outside the grammar.
 * Each is a GL900 (doc->error) at the first bad byte, as `docker build` stops there. The
 * reference is judged only when it is resolved (no variable without a value is left in it),
 * is no earlier stage and not `scratch`, and takes no ARG whose default is empty: the
 * caller says so. An empty default (`ARG TAG=` then `FROM img:${TAG}`, `ARG CUDA=` then
 * `nvidia/cuda:${CUDA}-base`) expands to the empty string, as an ARG with no default does
 * (BuildKit's shell lexer), so `img:` is what a build without --build-arg would pull, and
 * it fails; but the value is the build's to give, and BuildKit itself only warns
 * (linter rule InvalidDefaultArgInFrom, for no default and an empty one alike): the
 * reference is a value the build passes, silent as `ARG TAG` is (no GL900, and no CUDA
 * version read from it: GL204 is silent on it as on an unresolved one). Where the empty
 * value still gives a valid reference (`nvidia/cuda:12.4.1-devel-ubuntu22.04${SUFFIX}`),
 * that default is judged, as every ARG default is. A reference written literally
 * is pointed at its bad byte; one that came from ARG defaults or quotes at its word, with
 * the expanded text named in the message. A reference that holds a template's marks (`{{`,
 * `{%`, `<image>`, `%VAR%`, `@VAR@`) is a placeholder, never judged; so is a flag that
 * holds one, a `$`, a `\` or a quote (its value is expanded by BuildKit's word lexer).
 *
 * Not refused (BuildKit's linter only warns, and builds): a stage name used twice (the
 * later stage wins) and the reserved names `scratch` and `context` (validations.go).
 */
#ifndef GPULINT_PARSERS_DOCKERFILE_FROM_H
#define GPULINT_PARSERS_DOCKERFILE_FROM_H

#include "linter/core/model.h"
#include "parsers/dockerfile/dockerfile.h"

/* The argument count and the stage name of FROM `in`. False (with doc->error set, unless
 * an earlier error is kept) when BuildKit refuses them. */
bool df_from_shape(struct gl_doc *doc, const struct df_instr *in);

/* The flags of FROM `in`. False (doc->error set as above) when BuildKit refuses them. */
bool df_from_flags(struct gl_doc *doc, const struct df_instr *in);

/* The image reference of FROM `in` (in->args[0]), expanded to `text`. False (doc->error
 * set as above) when BuildKit refuses it. */
bool df_from_reference(struct gl_doc *doc, const struct df_instr *in, const char *text);

#endif
