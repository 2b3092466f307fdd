/* SPDX-License-Identifier: Apache-2.0 */
/*
 * model_image.h: an image archive's final filesystem view and config (part of the model).
 *
 * Filled by the image-archive parser: every file of the final view (after whiteouts),
 * the layer that brought it, and the few small files' contents rules need. A platform
 * that could not be read (a missing or corrupt layer, a bad manifest, a limit) is not
 * among the platforms: it is one of the `problems`, each a GL900 of its own, and the
 * other platforms are linted.
 */
#ifndef GPULINT_MODEL_IMAGE_H
#define GPULINT_MODEL_IMAGE_H

enum gl_file_type { GL_FILE_REG, GL_FILE_DIR, GL_FILE_SYMLINK, GL_FILE_HARDLINK, GL_FILE_OTHER };

/* The device code of a file's CUDA fat binaries (parsers/image/image_fatbin.h): each
 * distinct (SM, SASS or PTX, flags) once, sorted by SM, then code, then flags. */
enum gl_fatbin_code { GL_FATBIN_SASS = 1, GL_FATBIN_PTX = 2 };
#define GL_FATBIN_COMPRESSED 0x1u /* the payload is compressed */
#define GL_FATBIN_ARCH_A 0x2u     /* an arch-specific target: sm_90a, compute_100a */
#define GL_FATBIN_ARCH_F 0x4u     /* a family target: sm_100f */

struct gl_fatbin_arch {
    uint16_t sm;              /* 80, 90, 100, 120 */
    uint8_t code;             /* enum gl_fatbin_code */
    uint8_t flags;            /* GL_FATBIN_* */
};

#define GL_FATBIN_MAX_ARCHS 64u /* distinct entries kept per file */

struct gl_fatbin_facts {
    const struct gl_fatbin_arch *archs; uint32_t narchs;
    uint32_t more;            /* distinct entries left out past the cap (GL_FATBIN_MAX_ARCHS) */
    uint32_t entries;         /* entries read in all containers */
};

struct gl_image_file {
    const char *path;         /* without a leading "/" or "./" */
    enum gl_file_type type;
    int layer;                /* index into the platform's layers */
    uint64_t size;
    const char *link;         /* symlink or hardlink target */
    const char *content;      /* for the few small files read while streaming, else NULL */
    size_t content_len;
    const struct gl_fatbin_facts *fatbin; /* an ELF file's CUDA device code, or NULL */
};

struct gl_image_layer {
    const char *digest;       /* "sha256:..." */
    const char *media_type;
    const char *created_by;   /* history entry, NULL */
};

/* Regular files a lower layer brought that an upper layer hides (a whiteout, an opaque
 * directory) or replaces: their bytes ship but are never seen (GL304). The largest few
 * are kept, largest first. */
#define GL_IMAGE_WASTE_TOP 3
struct gl_image_waste_item {
    char path[256];           /* truncated past 255 bytes */
    uint64_t size;
    int layer;                /* the layer that brought it */
    bool overwritten;         /* replaced by an upper layer's file (else deleted) */
};
struct gl_image_waste {
    uint64_t bytes;
    size_t files;
    struct gl_image_waste_item top[GL_IMAGE_WASTE_TOP];
    size_t ntop;
};

/* One entry of the config's history (oldest first), as parsers/image/image_history.h
 * reads it. */
struct gl_image_history {
    const char *created_by;   /* as the config has it, or NULL */
    const char *run;          /* a RUN entry's shell text (its `RUN`, `|N ARG=v` and
                                 `/bin/sh -c` prefix and `# buildkit` cut), else NULL */
    int layer;                /* the layer it made (index into layers), -1: none */
};

struct gl_image_platform {
    const char *name;         /* "linux/amd64" */
    struct gl_image_layer *layers; size_t nlayers;
    struct gl_image_file *files;   size_t nfiles;   /* the final view, sorted by path */
    const char **env;         size_t nenv;          /* config Env "K=V" */
    struct gl_image_history *history; size_t nhistory;
    /* What the history's RUN entries run, install and remove, read as a Dockerfile's RUN
     * lines are (cmds, pkgs, removals, vars; stage 0, `instr` the history entry's index,
     * locations line 1 and the column in the entry's `run` text); never NULL once read. */
    const struct gl_dockerfile_model *run;
    struct gl_image_waste waste;
};

/* What could not be read, and of which platform (NULL: none is known). */
struct gl_image_problem {
    const char *platform;
    const char *message;
};

struct gl_image_model {
    const char **tags;        size_t ntags;         /* repo tags the archive names */
    struct gl_image_platform *platforms; size_t nplatforms;
    struct gl_image_problem *problems; size_t nproblems, capproblems;
};

#endif
