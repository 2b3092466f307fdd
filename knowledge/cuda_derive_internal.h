/* SPDX-License-Identifier: Apache-2.0 */
/*
 * cuda_derive_internal.h: what the parts of the CUDA derivation share (not an API).
 *
 *   cuda_derive_ctx.c   the context, positions of written values, adding facts
 *   cuda_derive_pkgs.c  package installs and package indexes of a Dockerfile
 *   cuda_derive_reqs.c  requirements files named by `pip install -r`
 *   cuda_derive.c       entry point, references, env
 *
 * Each file uses only those listed above it.
 */
#ifndef GPULINT_CUDA_DERIVE_INTERNAL_H
#define GPULINT_CUDA_DERIVE_INTERNAL_H

#include "knowledge/cuda_derive.h"

struct cd_ctx {
    struct gl_doc *doc;
    const struct gl_kb *kb;
    const char *text;     /* the text positions refer to (the doc's, or a requirements file) */
    size_t len;
    struct gl_lines lines; /* its line index */
};

void cd_ctx_init(struct cd_ctx *c, struct gl_doc *doc, const struct gl_kb *kb,
                 const char *text, size_t len);

/* Is `needle` (n bytes) written at `at` or up to `slack` bytes after it on the same line?
 * Sets *out to where. */
bool cd_find_written(struct cd_ctx *c, struct gl_loc at, size_t slack, const char *needle,
                     size_t n, struct gl_loc *out);
/* Where `needle` (n bytes) is written at or after `at`, on the same line, within the
 * `word_len` + 8 bytes that follow: its position, or `at` itself when it is not found
 * there (a value that came through a variable, quotes, continuation lines). */
struct gl_loc cd_written_loc(struct cd_ctx *c, struct gl_loc at, size_t word_len,
                             const char *needle, size_t n);

/* The fact for a package-manager pin or an index; fills stage/launch/ref. */
struct gl_cuda_fact *cd_add(struct cd_ctx *c, enum gl_cuda_source kind, const char *version,
                            const char *label, const char *framework, struct gl_loc loc,
                            int stage);

/* Facts of one package spec as a pip/uv or conda word ("torch==2.1.0+cu121",
 * "pytorch-cuda=12.1", "jax[cuda12]"). `manager` is "pip", "uv", "conda", ...; loc is the
 * word's position. Returns the fact added, or NULL. */
struct gl_cuda_fact *cd_pkg_spec(struct cd_ctx *c, const char *manager, const char *spec,
                                 struct gl_loc loc, int stage);

/* The CUDA version of a PyTorch wheel index URL (".../whl/cu121", ".../whl/cu121/torch_
 * stable.html"): writes it into out and sets *off and *len to the cuNNN bytes in url. */
bool cd_torch_index_cuda(const char *url, char *out, size_t out_size, size_t *off, size_t *len);

/* Is this pip package one a PyTorch wheel index serves (torch, torchvision, torchaudio)? */
bool cd_is_torch_pkg(const char *name);

void cd_derive_pkgs(struct cd_ctx *c);
/* Read `pip install -r FILE` files of the build context (see cuda_derive.h). */
void cd_derive_requirements(struct cd_ctx *c);

#endif
