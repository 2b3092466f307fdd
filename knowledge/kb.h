/* SPDX-License-Identifier: Apache-2.0 */
/*
 * kb.h: the CUDA knowledge base (toolkit/driver/container/framework facts) and its queries.
 *
 * The facts live in knowledge/cuda_facts.yaml. At build time tools/kb_gen loads that
 * file with the loader below and writes it out as static const C tables, so the binary
 * carries the table of its build (gl_kb_builtin()). At run time `--knowledge FILE` loads a
 * newer file of the same shape with gl_kb_load_file(); a bad file yields an error with the
 * file's line and byte column, never a crash.
 *
 * Data model: struct gl_kb holds one array per table (rows in file order) plus a few
 * single facts. Every string is NUL-terminated and owned by the knowledge base (static
 * for the builtin table, the kb's arena for a loaded one); NULL means "not given" (YAML
 * null or key absent). `source` fields are the row's keys into the `sources` table,
 * comma-separated when a row cites several. `unverified` marks values that the facts file
 * flags as not confirmed from a primary source.
 *
 * Versions are dotted decimal strings ("12.4.1", "535.104.05"), compared numerically
 * field by field with missing/trailing fields equal to 0, like libnvidia-container's
 * dsl_compare_version: 12.4 == 12.4.0, 535.104.05 == 535.104.5, 10 > 9. Fields may have
 * any number of digits (no overflow). Anything else ("12.x", "", "1..2", "v12") is
 * malformed.
 *
 * Lookups are linear scans over the tables (a few hundred rows); they never fail on
 * malformed arguments, they return NULL / 0 / GL_KB_NONE.
 */
#ifndef GPULINT_KB_H
#define GPULINT_KB_H

#include "linter/core/util.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* ---- versions ---- */

/* True if s is a well-formed version: digits ('.' digits)*. */
bool gl_version_valid(const char *s);
/* Length of the version at the start of s ("12.8.0 (12.8.0.038)" -> 6), 0 if none.
 * A version is followed by the end of the string or a byte that is not a digit or '.'. */
size_t gl_version_prefix_len(const char *s);
/* Compare two versions: sets *result to <0, 0, >0 and returns true; false if either is
 * malformed. Only the first `fields` fields take part when fields > 0 (fields = 2 compares
 * major.minor); fields = 0 compares all. */
bool gl_version_compare(const char *a, const char *b, unsigned fields, int *result);
/* Total order for sorting: as gl_version_compare over all fields; malformed strings sort
 * before every valid one and among themselves by strcmp. */
int gl_version_cmp(const char *a, const char *b);
/* Field i (0-based) of a valid version as a number; false if malformed, absent or > 999999. */
bool gl_version_field(const char *v, unsigned i, unsigned *out);
/* The driver branch of a driver version: "535.104.05" -> 535; 0 if malformed. */
unsigned gl_driver_branch_of(const char *driver);
/* "cuda12.1" -> "12.1", "cuda-12.4.1" -> "12.4.1", "cu121" -> "12.1", "cu1281" -> "12.8.1",
 * "cuda129" -> "12.9" (the digits of cuXYZ after "cuda"),
 * "cuda12" -> "12". *digits_off gets the offset of the version digits in the token.
 * False for anything else, and for a major below 6 (`cuda-1.9`: another product's version;
 * no container holds a CUDA before 6.5). out needs >= 16 bytes. The token is one that
 * gl_imageref_cuda_token finds in a tag (kb_cuda_token.c). */
bool gl_cuda_token_version(const char *token, size_t len, char *out, size_t out_size,
                           size_t *digits_off);

/* ---- tables ---- */

struct gl_kb_strlist {
    const char *const *items;
    size_t count;
};

struct gl_kb_source { /* sources: where a fact comes from */
    const char *key;
    const char *url, *repo, *path, *ref, *note;
    bool third_party;
};

struct gl_kb_toolkit { /* cuda_toolkit_drivers: CUDA release notes Table 3 */
    const char *cuda;              /* "12.4.1"; "10.1" = every 10.1 release */
    const char *label;             /* "CUDA 12.4 Update 1" */
    const char *linux_min_driver;  /* "550.54.15" */
    const char *windows_min_driver;
    const char *runfile_driver;    /* driver bundled in the runfile installer */
    unsigned branch;               /* 550 */
    const char *source;
    bool unverified;
};

struct gl_kb_mvc { /* minor_version_compat: one row per CUDA major */
    unsigned cuda_major;
    bool supported;                /* false before CUDA 11 */
    const char *linux_min_driver;  /* "525.60.13": floor for every 12.x toolkit */
    const char *windows_min_driver;
    unsigned min_branch;           /* 525 */
    unsigned max_branch_exclusive; /* 580 (0 = open-ended) */
    const char *source;
    bool unverified;               /* the exact Linux floor is inferred (NVIDIA gives a branch) */
    bool windows_unverified;
};

enum gl_kb_branch_kind {
    GL_BRANCH_UNKNOWN = 0,
    GL_BRANCH_NEW_FEATURE,
    GL_BRANCH_PRODUCTION,
    GL_BRANCH_LONG_TERM,
    GL_BRANCH_EVALUATION,
};

struct gl_kb_branch { /* driver_branches */
    unsigned number;               /* 535 for R535 */
    enum gl_kb_branch_kind kind;   /* from designation */
    const char *designation;       /* "Long Term Support Branch" */
    const char *end_of_life;
    const char *first_driver;      /* first toolkit driver of the branch, "535.54.03" */
    const char *max_cuda;          /* newest CUDA supported natively, "12.2" */
    const char *source;
    bool unverified;
};

struct gl_kb_image { /* nvidia_cuda_image_tags: the nvidia/cuda tag grammar */
    const char *grammar;           /* "<cuda X.Y.Z>-<flavor>-<os>" */
    const char *regex;
    struct gl_kb_strlist registries, examples;
    const char *cuda_version_in_tag, *support_policy;
    const char *source;
};

struct gl_kb_image_flavor { /* nvidia_cuda_image_tags.flavors */
    const char *name;              /* "runtime", "cudnn8-devel"; a trailing '*' is a prefix */
    const char *description;
};

struct gl_kb_image_os { /* nvidia_cuda_image_tags.os_tokens */
    const char *family;            /* "ubuntu", "rhel_family", "other" */
    const char *token;             /* "ubuntu24.04" */
    const char *note;              /* "from 12.5.1" */
};

struct gl_kb_cudart { /* nvidia_cuda_image_env.cudart_version_by_cuda */
    const char *cuda;              /* "12.4.1" */
    const char *cudart;            /* "12.4.127-1" (NV_CUDA_CUDART_VERSION) */
};

struct gl_kb_fwdcompat { /* forward_compat...nvidia_cuda_image_fwdcompat_branches.table */
    const char *pattern;           /* "12.2.x", "11.4.0-11.4.2", "13.0.0", "10.2" */
    const char *first, *last;      /* range of CUDA versions the pattern covers */
    unsigned fields;               /* 2: compare major.minor only; 0: whole version */
    struct gl_kb_strlist branches; /* "470", "535", ... */
};

struct gl_kb_ngc_container { /* ngc_containers.tag_formats */
    const char *name;              /* "pytorch" */
    const char *tag_format;        /* "nvcr.io/nvidia/pytorch:YY.MM-py3" */
};

struct gl_kb_ngc_release { /* ngc_containers.releases: one YY.MM for every framework */
    const char *tag;               /* "24.05" */
    const char *cuda;              /* "12.4.1" ("11.7" for "11.7 Update 1 Preview") */
    const char *cuda_text;         /* as written */
    unsigned stated_min_branch;    /* as printed in the notes; 0 = not stated */
    const char *table3_driver;     /* Table 3 driver of its CUDA */
    const char *mvc_floor_driver;
    struct gl_kb_strlist fwd_compat_drivers;      /* "470.57", ... */
    struct gl_kb_strlist not_fwd_compat_branches; /* "R418", ... */
    const char *notes_framework;
    const char *min_cc;            /* lowest compute capability the notes state ("7.5"), NULL */
    const char *source;
    bool unverified;               /* release or its CUDA patch level unconfirmed */
};

struct gl_kb_image_release { /* image_releases.releases: a release image of a product */
    const char *image;             /* repository: "nvcr.io/nvidia/tensorrt-llm/release" */
    const char *tag;               /* the exact tag: "1.0.0" (no other tag is this row's);
                                      NULL for a row of dated nightlies or of an alias */
    const char *dated_from;        /* nightlies tagged FLAVOR-YYYY-MM-DD with a date in */
    const char *dated_until;       /* [from, until] ("2025-07-03", "2025-08-21"), else NULL */
    const char *release;           /* with alias: the tags RELEASE[-pyNNN]-ALIAS[-aarch64] */
    const char *alias;             /* of this release ("2.9.0"), ALIAS a tag word that names
                                      no CUDA ("gpu": rayproject/ray's -gpu stands for one
                                      -cuXYZ image, which moves between releases) */
    const char *cuda;              /* the CUDA the image ships: "12.9.1" */
    const char *base;              /* the image it is built on, as the source states it:
                                      "nvcr.io/nvidia/pytorch:25.06-py3"; NULL: not stated */
    const char *source;
    bool unverified;               /* its CUDA is not confirmed (not judged) */
};

struct gl_kb_torch { /* torch_cuda_variants.releases */
    const char *torch;             /* "2.1" (major.minor series) */
    struct gl_kb_strlist stable_cuda, experimental_cuda;
    struct gl_kb_strlist variants; /* "cu118", "cu121" */
    const char *source;
    bool unverified;
};

struct gl_kb_tf { /* tensorflow_cuda.tested_builds_linux_gpu */
    const char *name;              /* as written: "tensorflow_gpu-1.5.0 .. gpu-1.11.0" */
    const char *package;           /* "tensorflow" or "tensorflow_gpu" */
    const char *first, *last;      /* "1.5.0", "1.11.0"; equal for one release */
    const char *cuda, *cudnn, *python;
    const char *source;
};

struct gl_kb_jax { /* jax_cuda.extras */
    const char *extra;             /* "cuda12_local" (as in jax[cuda12_local]) */
    unsigned cuda_major;
    const char *description;
};

struct gl_kb_jax_info {
    const char *driver_requirement, *skip_check_env, *local_cuda_wheel_matrix, *gpu_arch;
};

struct gl_kb_pip { /* nvidia_pip_packages: nvidia-*-cuNN wheels */
    unsigned cuda_major;
    const char *suffix;            /* "-cu12" */
    bool unsuffixed;               /* this major's wheels drop the suffix (CUDA 13) */
    const char *description;
};

struct gl_kb_ort { /* onnxruntime_gpu_cuda.pypi: the CUDA of PyPI's onnxruntime-gpu wheels */
    const char *onnxruntime;       /* as written: "1.15 .. 1.18", "1.19 .. 1.22", "1.8" */
    const char *first, *last;      /* "1.15", "1.18" (major.minor; equal for one series) */
    const char *cuda;              /* "11.8", or a major only ("12": the docs say 12.x) */
    const char *source;
};

struct gl_kb_error_string { /* error_strings */
    const char *text, *code, *layer, *meaning;
    const char *source;
    bool unverified;
};

struct gl_kb_gpu_family { /* gpu_architectures.families: one GPU architecture family */
    const char *family;            /* "Hopper", "Ampere (GA10x)" */
    struct gl_kb_strlist sm;       /* "sm_90", "sm_90a", "sm_110 (CUDA 13.0+)" as written */
    struct gl_kb_strlist cc;       /* compute capabilities: "9.0" */
    struct gl_kb_strlist products; /* products_example, as written: "Tesla K80 (3.7)" */
    struct gl_kb_strlist names;    /* names --gpu accepts: "Hopper", "H100", "K80=3.7" (NAME=CC:
                                      that compute capability of the row only) */
    const char *names_source;
    const char *first_cuda;        /* first toolkit that targets it: "11.8" (NULL: unknown) */
    bool first_cuda_unverified;    /* that first toolkit is not confirmed (not judged) */
    const char *last_cuda;         /* as written: "11.x (11.8)"; NULL while supported */
    const char *removed_in_cuda;   /* first toolkit that cannot target it: "12.0" */
    unsigned last_driver_branch;   /* 470 for Kepler; 0 = still supported */
    unsigned min_driver_branch;    /* 570 for Blackwell; 0 = not stated */
    const char *source;
    bool unverified;               /* some value of the row is not confirmed */
};

struct gl_kb_torch_arch { /* torch_cuda_arch_lists.releases[].variants[], one row per wheel */
    const char *torch;             /* "2.7" (major.minor series) */
    const char *variant;           /* "cu128" */
    const char *arch_list;         /* TORCH_CUDA_ARCH_LIST of the build: "7.5;8.0;...;12.0+PTX" */
    struct gl_kb_strlist sass;     /* "sm_75", ... */
    struct gl_kb_strlist ptx;      /* "compute_120" */
    const char *source;            /* the variant's source, else its release's */
    bool unverified;               /* the variant's or its release's list is not confirmed */
};

struct gl_kb_meta {
    const char *date;              /* meta.collected, "2026-11-22" */
    const char *purpose;
};

struct gl_kb {
    struct gl_kb_meta meta;
    struct gl_kb_image image;
    struct gl_kb_jax_info jax_info;
    const struct gl_kb_source *sources;            size_t n_sources;
    const struct gl_kb_toolkit *toolkits;          size_t n_toolkits;
    const struct gl_kb_mvc *mvc;                   size_t n_mvc;
    const struct gl_kb_branch *branches;           size_t n_branches;
    const struct gl_kb_image_flavor *flavors;      size_t n_flavors;
    const struct gl_kb_image_os *os_tokens;        size_t n_os_tokens;
    const struct gl_kb_cudart *cudart;             size_t n_cudart;
    const struct gl_kb_fwdcompat *fwdcompat;       size_t n_fwdcompat;
    const struct gl_kb_ngc_container *ngc_containers; size_t n_ngc_containers;
    const struct gl_kb_ngc_release *ngc_releases;  size_t n_ngc_releases;
    const struct gl_kb_image_release *image_releases; size_t n_image_releases;
    const struct gl_kb_torch *torch;               size_t n_torch;
    const struct gl_kb_tf *tf;                     size_t n_tf;
    const struct gl_kb_jax *jax;                   size_t n_jax;
    const struct gl_kb_pip *pip;                   size_t n_pip;
    const struct gl_kb_ort *ort;                   size_t n_ort;
    const struct gl_kb_error_string *errors;       size_t n_errors;
    const struct gl_kb_gpu_family *gpu_families;   size_t n_gpu_families;
    const struct gl_kb_torch_arch *torch_archs;    size_t n_torch_archs;
    struct gl_arena *arena;        /* owner of a loaded kb; NULL for the builtin one */
};

/* ---- loading ---- */

struct gl_kb_error {
    struct gl_loc loc;             /* 1-based line and byte column; 0:0 = whole file */
    char message[256];
};

/* The table compiled into the binary (never NULL, never freed). */
const struct gl_kb *gl_kb_builtin(void);
/* Load a facts file. Returns 0 and sets *out (free with gl_kb_free), or -1 with *err
 * filled (the file is not a regular file, unreadable, not YAML, or not of the expected
 * shape). */
int gl_kb_load_file(const char *path, struct gl_kb **out, struct gl_kb_error *err);
/* The same from memory (text need not be NUL-terminated; NUL bytes are errors). */
int gl_kb_load_text(const char *text, size_t len, struct gl_kb **out, struct gl_kb_error *err);
void gl_kb_free(struct gl_kb *kb); /* no-op for NULL and the builtin table */

const char *gl_kb_date(const struct gl_kb *kb);
/* Print the whole table in use, with its date, for `gpulint --print-knowledge`. */
void gl_kb_print(const struct gl_kb *kb, FILE *out);

/* ---- queries ---- */

enum gl_kb_match {
    GL_KB_NONE = 0,         /* malformed, or no row (older than the table, or a gap) */
    GL_KB_EXACT,            /* a row for exactly this version */
    GL_KB_SAME_MINOR,       /* no exact row: the newest row of the same major.minor below it */
    GL_KB_NEWER_THAN_TABLE, /* newer than every row: the newest row is returned */
};

/* Table-3 row for a toolkit version ("12.4.1", "12.4" = 12.4.0, "10.1.200"). */
const struct gl_kb_toolkit *gl_kb_toolkit_lookup(const struct gl_kb *kb, const char *cuda,
                                                 enum gl_kb_match *how);
const struct gl_kb_toolkit *gl_kb_toolkit_newest(const struct gl_kb *kb);
/* Minor-version-compatibility row of a CUDA major (11 -> floor 450.80.02). */
const struct gl_kb_mvc *gl_kb_mvc_for_major(const struct gl_kb *kb, unsigned cuda_major);
const struct gl_kb_branch *gl_kb_branch_lookup(const struct gl_kb *kb, unsigned number);
/* Branch row of a driver version: "535.104.05" -> R535 (NULL if the branch is unknown). */
const struct gl_kb_branch *gl_kb_branch_for_driver(const struct gl_kb *kb, const char *driver);
/* Newest CUDA a driver supports natively ("535.104.05" -> "12.2"). For a branch not in the
 * table this is the max CUDA of the nearest older branch that has one (a lower bound) and
 * *exact is set false. NULL if the driver is malformed or older than every branch. */
const char *gl_kb_driver_max_cuda(const struct gl_kb *kb, const char *driver, bool *exact);
/* Forward-compat base branches named by the nvidia/cuda image of that CUDA version. */
const struct gl_kb_fwdcompat *gl_kb_image_fwdcompat(const struct gl_kb *kb, const char *cuda);
const struct gl_kb_image_flavor *gl_kb_image_flavor(const struct gl_kb *kb, const char *flavor);
const struct gl_kb_image_os *gl_kb_image_os(const struct gl_kb *kb, const char *token);
const char *gl_kb_image_cudart(const struct gl_kb *kb, const char *cuda);

/* NGC framework container name known ("pytorch", "tensorflow", "tritonserver")? */
const struct gl_kb_ngc_container *gl_kb_ngc_container(const struct gl_kb *kb, const char *name);
/* Is the tag an NGC month: YY.MM, alone or before `-` ("24.05", "24.05-py3"), or a patch
 * of the month ("25.04.01", "24.01.01-py3") or a release candidate of it ("25.04.rc2")? */
bool gl_ngc_month_tag(const char *tag);
/* Is the tag an NGC post release of a month ("25.12.post1", "25.12.post1-py3")? No NGC
 * release notes give a post release's CUDA (cuda_facts.yaml, ngc_containers.tag_formats):
 * it is not read as its month, and stays unknown. */
bool gl_ngc_post_release(const char *tag);
/* NGC release of a tag: "24.05", "24.05-py3", "22.11-tf1-py3", "25.04.01" (all containers
 * of one YY.MM and its patches share the CUDA base). NULL if unknown or not of that form. */
const struct gl_kb_ngc_release *gl_kb_ngc_release(const struct gl_kb *kb, const char *tag);
/* The newest NGC month of the table (YY.MM order), or NULL. */
const struct gl_kb_ngc_release *gl_kb_ngc_newest(const struct gl_kb *kb);

/* The release row of a product's image: its repository as gl_imageref normalises it
 * ("nvcr.io/nvidia/tensorrt-llm/release", "rayproject/ray") and its exact tag ("1.0.0"), a
 * dated nightly tag FLAVOR-YYYY-MM-DD ("maxtext-2025-12-10": FLAVOR lower-case letters,
 * digits and hyphens) inside a row's range, or an alias tag RELEASE[-pyNNN]-ALIAS[-aarch64]
 * of a row's release and alias ("2.9.0-py310-gpu"); NULL when the table has none (a release
 * candidate, a post release, a floating or undated tag, a date outside the ranges, an
 * alias at a release the table does not pin: unknown, never guessed) or the row is
 * unverified. */
/* off, len (each may be NULL) get the bytes of the tag the CUDA is read from: the alias
 * word of an alias row, the whole tag otherwise. */
const struct gl_kb_image_release *gl_kb_image_release(const struct gl_kb *kb, const char *image,
                                                      const char *tag, size_t *off,
                                                      size_t *len);
/* An alias tag RELEASE[-pyNNN]-ALIAS[-aarch64] ("2.9.0-py310-gpu"): false when the tag is
 * not so; else the release's length, and the alias word's offset and length. */
bool gl_kb_alias_tag(const char *tag, size_t *rel_len, size_t *at, size_t *len);
/* Do the 10 bytes at s read YYYY-MM-DD (digits and the two hyphens; s holds 10 bytes or a
 * NUL before them), a day of the Gregorian calendar (month 01-12, 2025-02-29 none)? */
bool gl_kb_iso_date_at(const char *s);

/* CUDA version of a torch local-version variant: "cu121" -> "12.1", "cu92" -> "9.2".
 * Writes into out (>= 16 bytes); false for "cpu", "rocm6.1" and malformed text. */
bool gl_torch_variant_cuda(const char *variant, char *out, size_t out_size);
enum gl_kb_torch_status {
    GL_TORCH_BAD_INPUT = 0,     /* malformed version or variant (or not a CUDA variant) */
    GL_TORCH_UNKNOWN_RELEASE,   /* torch major.minor not in the table */
    GL_TORCH_VARIANT_BUILT,     /* the table lists this +cuNNN for this release */
    GL_TORCH_VARIANT_NOT_BUILT, /* the release is known but has no such wheel */
};
/* torch "2.1.0" with variant "cu121" (or version "2.1.0+cu121" and variant NULL): writes
 * the variant's CUDA ("12.1") into cuda (>= 16 bytes) when the variant is well formed,
 * and sets *row to the release row when known (row may be NULL). */
enum gl_kb_torch_status gl_kb_torch_lookup(const struct gl_kb *kb, const char *version,
                                           const char *variant, char *cuda, size_t cuda_size,
                                           const struct gl_kb_torch **row);
/* TensorFlow tested build of a version ("2.15.1" -> row 2.15.0, CUDA 12.2), matched by
 * major.minor; how as for toolkits (NEWER_THAN_TABLE returns the newest row). */
const struct gl_kb_tf *gl_kb_tf_lookup(const struct gl_kb *kb, const char *version,
                                       enum gl_kb_match *how);
/* JAX extra "cuda12", "cuda12_local" or "jax[cuda12]" -> row (cuda_major 12). */
const struct gl_kb_jax *gl_kb_jax_extra(const struct gl_kb *kb, const char *extra);
/* CUDA major of an nvidia-* pip wheel: "nvidia-cublas-cu12" -> 12; an unsuffixed
 * "nvidia-cuda-runtime" needs its version ("13.0.96" -> 13; version may be NULL).
 * 0 if not known. */
unsigned gl_kb_pip_cuda_major(const struct gl_kb *kb, const char *name, const char *version);
/* The CUDA of PyPI's onnxruntime-gpu wheel of a version ("1.17.3" -> "11.8", "1.20.1" ->
 * "12"), matched by major.minor; NULL for a version outside the table. */
const char *gl_kb_ort_cuda(const struct gl_kb *kb, const char *version);

/* ---- GPU architectures (see knowledge/gpu_target.h for SM numbers and coverage) ---- */

/* The family row of a compute capability given as an SM number (90 = 9.0, 103 = 10.3),
 * or NULL when the table has none. */
const struct gl_kb_gpu_family *gl_kb_gpu_family_of_sm(const struct gl_kb *kb, unsigned sm);
/* The lowest GPU architecture (SM number) a CUDA toolkit of version `cuda` can still emit
 * code for, SASS or PTX: the smallest compute capability of a family the table does not mark
 * removed at or before `cuda` (families whose first toolkit is later are left out only when
 * that first toolkit is known). Every family below it was dropped, so code that toolkit built
 * has neither SASS for them nor PTX at or below them. 0 when the table cannot tell. */
unsigned gl_kb_cuda_lowest_sm(const struct gl_kb *kb, const char *cuda);
/* The lowest SM an NGC month's framework builds can run on: the higher of what its CUDA
 * can target (gl_kb_cuda_lowest_sm of the row's CUDA: the month's containers are built on
 * that toolkit) and the compute capability its release notes state (min_cc). 0 when the
 * table cannot tell. */
unsigned gl_kb_ngc_lowest_sm(const struct gl_kb *kb, const struct gl_kb_ngc_release *rel);
/* The arch-list row of a torch wheel: torch "2.7.1" (any patch; matched by major.minor)
 * and variant "cu128". NULL when the table has no such row. */
const struct gl_kb_torch_arch *gl_kb_torch_arch(const struct gl_kb *kb, const char *torch,
                                                const char *variant);

#endif
