/* SPDX-License-Identifier: Apache-2.0 */
/*
 * cuda_derive_internal.h: what the parts of the CUDA derivation share (not an API).
 *
 *   cuda_derive_ctx.c   the context, positions of written values, adding facts
 *   cuda_derive_wheels.c  CUDA-suffixed Python wheels (cupy, tensorrt, onnxruntime-gpu,
 *                       paddlepaddle-gpu)
 *   cuda_derive_alts.c  facts of a shell's alternative arms (if/elif/else, case)
 *   cuda_derive_pkgs.c  package installs and package indexes of a Dockerfile
 *   cuda_derive_runfile.c  the CUDA toolkit installed by NVIDIA's runfile installer
 *   cuda_derive_proj.c  project files: pyproject.toml, uv.lock, conda environment files
 *   cuda_derive_reqs.c  the files installs read (requirements, conda --file, the project
 *                       files above), found through COPY
 *   cuda_derive.c       entry point, references, env
 *
 * Each file uses only those listed above it.
 */
#ifndef GPULINT_CUDA_DERIVE_INTERNAL_H
#define GPULINT_CUDA_DERIVE_INTERNAL_H

#include "knowledge/derive/cuda_derive.h"

#include <string.h>

struct cd_ctx {
    struct gl_doc *doc;
    const struct gl_kb *kb;
    const char *text;     /* the text positions refer to (the doc's, or a requirements file) */
    size_t len;
    struct gl_lines lines; /* its line index (the doc's own is used for the doc's text) */
    const bool *stage_cuda; /* per Dockerfile stage: a CUDA of the image's own (a base tag,
                               an ENV, a CUDA OS package) was derived for it; NULL until
                               asked (a plain tensorflow pin, cuda_derive_pkgs.c) */
    int ort_feed;          /* the package indexes of the command or file being read, for
                              onnxruntime-gpu: 0 PyPI only, 12 ONNX Runtime's CUDA 12 feed
                              (.../onnxruntime-cuda-12/...), -1 another index (unknown) */
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

/* A parsed package spec: name[extras] op version ... (pip) or name=version=build (conda). */
struct cd_spec {
    char name[128];          /* lowercased, '_' -> '-' */
    const char *extras;      /* inside the brackets, not NUL-terminated */
    size_t extras_len;
    char op[4];              /* "==", "=", ">=", ... ("" when no version) */
    const char *version;     /* in the spec text, not NUL-terminated */
    size_t version_len;
};
bool cd_parse_spec(const char *s, struct cd_spec *out);
bool cd_op_is_pin(const char *op); /* "==" or "===" */
/* The spec as a message label: up to the first ';', blank. */
const char *cd_label_of(struct cd_ctx *c, const char *spec);

/* The strings of parts[0..n) (n <= 8) joined in the arena: the bytes gl_arena_printf of
 * "%s%s..." gives, charged the same, without printf's walk of the format. CD_JOIN(a, "NGC ",
 * name, " ", tag) lists the parts in place. */
const char *cd_join(struct gl_arena *a, const char *const *parts, size_t n);
#define CD_JOIN(a, ...)                                                                      \
    cd_join((a), (const char *const[]){__VA_ARGS__},                                          \
            sizeof((const char *const[]){__VA_ARGS__}) / sizeof(const char *))
/* dir + "/" + name in the arena (gl_arena_printf's "%s/%s"). */
static inline char *cd_path_join(struct gl_arena *a, const char *dir, const char *name)
{
    return gl_arena_cat3(a, dir, strlen(dir), "/", 1, name, strlen(name));
}

/* The fact for a package-manager pin or an index; fills stage/launch/ref. */
struct gl_cuda_fact *cd_add(struct cd_ctx *c, enum gl_cuda_source kind, const char *version,
                            const char *label, const char *framework, struct gl_loc loc,
                            int stage);

/* Facts of one package spec as a pip/uv or conda word ("torch==2.1.0+cu121",
 * "pytorch-cuda=12.1", "jax[cuda12]"). `family` is its manager's (GL_PKG_PIP for pip and
 * uv, GL_PKG_CONDA, ...; other families give no fact); loc is the word's position. Returns the fact added, or NULL. */
/* Could cd_pkg_spec find a fact in spec (by its family, its name's first bytes, a wheel
 * file, a conda label)? False rules a fact out; true asks cd_pkg_spec. */
bool cd_spec_may_yield(enum gl_pkg_family family, const char *spec);
struct gl_cuda_fact *cd_pkg_spec(struct cd_ctx *c, enum gl_pkg_family family, const char *spec,
                                 struct gl_loc loc, int stage);

/* The CUDA version of a PyTorch wheel index URL (".../whl/cu121", ".../whl/cu121/torch_
 * stable.html"): writes it into out and sets *off and *len to the cuNNN bytes in url. */
bool cd_torch_index_cuda(const char *url, char *out, size_t out_size, size_t *off, size_t *len);

/* Is this pip package one a PyTorch wheel index serves (torch, torchvision, torchaudio)? */
bool cd_is_torch_pkg(const char *name);

/* Facts of CUDA-suffixed wheels other than torch, jax, TensorFlow and nvidia-*: cupy-cuda12x
 * and cupy-cuda110 (a release), tensorrt-cu12 (a major), onnxruntime-gpu==V (its PyPI
 * CUDA, from the knowledge table), paddlepaddle-gpu==V.postNNN. NULL for anything else. */
struct gl_cuda_fact *cd_wheel_spec(struct cd_ctx *c, const struct cd_spec *sp, const char *spec,
                                   struct gl_loc loc, int stage);
/* The CUDA of a package index URL with a `cuNNN` path segment (paddle's
 * .../packages/stable/cu118/, a PyTorch mirror's .../cu121): as cd_torch_index_cuda. */
bool cd_index_segment_cuda(const char *url, char *out, size_t out_size, size_t *off,
                           size_t *len);
/* How an index URL bears on onnxruntime-gpu (see cd_ctx.ort_feed): 12 or -1. */
int cd_ort_feed(const char *url);

/* Facts of a RUN's alternatives. Arms of one shell `if`/`case` that install different
 * CUDA releases (`if [ "$CUDA_MAJOR" = 12 ]; then pip install nvidia-nccl-cu12; elif ...;
 * then pip install nvidia-nccl-cu13; fi`) are chosen by a build setting the linter cannot
 * decide: no arm's install is a fact of the image. An arm with no rival that disagrees
 * (an `if` alone, arms of one CUDA) keeps its facts. Releases disagree when their majors
 * differ, or their minors when both give one ("12" and "12.8" agree). */
struct cd_alt;
struct cd_alts {
    struct gl_doc *doc;
    size_t first;            /* doc->ncuda when the derivation of installs began */
    struct cd_alt *at;       /* per fact from `first` on (heap) */
    size_t n, cap;
};
void cd_alts_init(struct cd_alts *al, struct gl_doc *doc);
/* The facts added since `before` come from an install in arm `arm` of `branch` (0: in no
 * `if`/`case`; gl_pkg.branch). */
void cd_alts_note(struct cd_alts *al, size_t before, uint32_t branch, uint8_t arm);
/* Remove the facts of arms that a rival arm contradicts; free al. */
void cd_alts_drop(struct cd_alts *al);

void cd_derive_pkgs(struct cd_ctx *c);
/* Facts of the CUDA toolkits a Dockerfile's RUN lines install with NVIDIA's runfile
 * installer (`sh cuda_12.4.1_550.54.15_linux.run --silent --toolkit`): the release in the
 * installer's name, a CUDA of the image's own (kind GL_CUDA_OS_PACKAGE, at the version's
 * bytes). Derived before the packages, which ask whether a stage has a CUDA of its own. */
void cd_derive_runfiles(struct cd_ctx *c);
/* Facts of one project file (c: a context over the file's text; p: the install that reads
 * it): a pyproject.toml ([project].dependencies; [[tool.uv.index]], [tool.uv] index-url /
 * extra-index-url, [[tool.poetry.source]] for its torch packages, explicit indexes only
 * where [tool.uv.sources] names them for torch, and none when they name several CUDA
 * releases), a uv.lock ([[package]] name and version, a PyTorch registry for a torch wheel
 * without a local version; a package locked at several versions is a fork: opaque), a
 * conda environment file (dependencies, `channel::` prefixes, the pip: list and its index
 * options). */
void cd_scan_pyproject(struct cd_ctx *c, const struct gl_pkg *p);
void cd_scan_uv_lock(struct cd_ctx *c, const struct gl_pkg *p);
void cd_scan_conda_env(struct cd_ctx *c, const struct gl_pkg *p);
/* Read `pip install -r FILE` files of the build context (see cuda_derive.h). */
void cd_derive_requirements(struct cd_ctx *c);

#endif
