/* SPDX-License-Identifier: Apache-2.0 */
/*
 * imageref.h: container image references ("nvidia/cuda:12.4.1-devel-ubuntu22.04",
 * "nvcr.io/nvidia/pytorch:24.05-py3", "localhost:5000/x@sha256:...").
 *
 * Parses one reference exactly as github.com/distribution/reference does in
 * ParseNormalizedNamed (the function docker, containerd and buildkit use for what users
 * type), with a hand-written linear scanner:
 *
 *   reference   := name [":" tag] ["@" digest]
 *   name        := [domain "/"] path
 *   domain      := host [":" port]          port := [0-9]+
 *   host        := domain-comp ("." domain-comp)* | "[" [a-fA-F0-9:]+ "]"
 *   domain-comp := [a-zA-Z0-9] | [a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9]
 *   path        := path-comp ("/" path-comp)*
 *   path-comp   := [a-z0-9]+ (("." | "_" | "__" | "-"+) [a-z0-9]+)*
 *   tag         := [A-Za-z0-9_][A-Za-z0-9_.-]{0,127}
 *   digest      := algo ":" hex, algo one of sha256 / sha384 / sha512 with exactly
 *                  64 / 96 / 128 lowercase hex digits (the algorithms docker registers;
 *                  other algorithms that fit the grammar are "unsupported").
 *
 * Which first component is a domain (normalize.go splitDockerDomain): only when the
 * reference has a "/" and the text before the first "/" is "localhost", contains "." or
 * ":", or contains an uppercase letter ("Docker/docker" is domain "Docker", path
 * "docker": valid!). Otherwise the reference is on Docker Hub. So "localhost:5000" with no
 * slash is docker.io/library/localhost with tag "5000", as docker reads it.
 * Normalization: domain "index.docker.io" becomes "docker.io"; a Docker Hub path of one
 * component gets "library/" ("ubuntu" -> docker.io + library/ubuntu). A known public
 * mirror (registry_mirrors.h) names its upstream image: "docker.m.daocloud.io/nvidia/cuda"
 * is domain docker.io, path nvidia/cuda (gl_imageref_via_len tells the mirror); what
 * docker accepts or refuses does not change.
 * Quirk kept from the grammar: a first component that looks like a domain but is not
 * one, while being a valid path component ("foo_bar.com/x"), is parsed as a path with NO
 * domain (domain NULL, path "foo_bar.com/x").
 *
 * Errors: an uppercase letter in the repository path ("invalid reference format:
 * repository name must be lowercase"), a normalized path over 255 bytes (including the
 * "library/" that normalization adds; through a mirror, the path docker reads there), a
 * 64-hex-digit name (it would be an image id), an empty tag ("foo:"), a tag over 128
 * bytes, a short or malformed digest, any other byte (NUL, space, non-ASCII) outside the
 * grammar.
 *
 * Robustness: any bytes are accepted as input; time is linear in len; nothing is read
 * outside s[0..len).
 *
 * Threads: the scan of a reference (up to 128 bytes) is remembered per thread by its bytes
 * (_Thread_local, imageref.c), so a run that meets the same base images file after file
 * checks each once a thread; what is built from it (the strings, in the caller's arena) is
 * built every time.
 */
#ifndef GPULINT_PARSERS_IMAGEREF_H
#define GPULINT_PARSERS_IMAGEREF_H

#include "linter/core/model.h"

/* Longest normalized repository path ("library/ubuntu") the grammar accepts. */
#define GL_IMAGEREF_PATH_MAX 255
/* Longest tag. */
#define GL_IMAGEREF_TAG_MAX 128

/* struct gl_imageref (the parsed reference) is part of the model: linter/model_ref.h. */

struct gl_imageref_error {
    size_t offset;       /* byte offset in s of the first bad byte; == len when the input
                            ends where more was expected ("foo:") */
    struct gl_loc loc;   /* loc of that byte: same line as the reference, col + offset */
    const char *message; /* static text, e.g. "invalid reference format: repository name
                            must be lowercase" */
};

/* Parse s[0..len) (not NUL-terminated; may hold any bytes). `loc` is where s[0] stands
 * in the file; tag_loc and digest_loc are computed from it assuming the reference is on
 * one line. Returns 0 and fills *out, or -1 and fills *err (then *out is zeroed except
 * out->loc). err may be NULL. */
int gl_imageref_parse(struct gl_arena *a, const char *s, size_t len, struct gl_loc loc,
                      struct gl_imageref *out, struct gl_imageref_error *err);

/* Add a reference to doc->refs, as every parser does: zeroed, df_stage and launch -1, the
 * text parsed unless `unresolved` (then ok stays false). When the text does not stand in
 * the file exactly as written at loc (it came from a variable, quotes, a continuation),
 * the tag and digest positions are collapsed onto loc (parsed.exact is false). The
 * pointer is valid until the next reference is added. */
struct gl_ref *gl_ref_add(struct gl_doc *doc, const char *text, struct gl_loc loc,
                          enum gl_ref_role role, bool unresolved);

/* gl_imageref_local_only (model_ref.h) of the reference s[0..len), without parsing it
 * into an arena: a Docker Hub name of one component that was never an official image. */
bool gl_imageref_text_local_only(const char *s, size_t len);

/* Is s[0..len) a reference gl_imageref_parse accepts? (No allocation.) */
bool gl_imageref_valid(const char *s, size_t len);

/* How many bytes of the reference s[0..len) name the public mirror it is pulled through
 * ("docker.m.daocloud.io", "m.daocloud.io/nvcr.io"): 0 when none (or not a reference).
 * Its domain, path and familiar name are the upstream image's. */
size_t gl_imageref_via_len(const char *s, size_t len);

#endif
