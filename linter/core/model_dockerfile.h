/* SPDX-License-Identifier: Apache-2.0 */
/*
 * model_dockerfile.h: build stages and what they put into an image (part of the model).
 *
 * Built by parsers/dockerfile/dockerfile_model.c from the syntax tree, after ARG substitution
 * (global ARGs before the first FROM, stage ARGs, --build-arg). A stage is `shipped`
 * when it is the final stage (the last one, or the --target) or a stage the final one
 * is built FROM, directly or through other stages: what a shipped stage installs ends
 * up in the image users run.
 */
#ifndef GPULINT_MODEL_DOCKERFILE_H
#define GPULINT_MODEL_DOCKERFILE_H

struct gl_stage {
    int index;
    const char *name;        /* `AS name`, lowercased; NULL when unnamed */
    struct gl_loc name_loc;
    size_t ref;              /* its FROM in doc->refs */
    int base_stage;          /* the earlier stage it is built FROM, else -1 */
    bool final;              /* the stage `docker build` outputs */
    bool shipped;            /* final, or in the final stage's FROM chain */
    bool env_shipped;        /* a shipped stage (or one such a stage copies it into) copies a
                                Python environment out of it or a stage built FROM it:
                                `COPY --from=build /opt/conda /opt/conda` (a conda or
                                virtual environment, site-packages, ~/.local): the Python
                                packages it installs ship, whatever its base */
    const char *entrypoint;  /* the program of the stage's last ENTRYPOINT, as written (its
                                first JSON string, or the first word of the shell form);
                                NULL when the stage sets none (it inherits its base's) */
    uint32_t first_line, last_line;
};

/* The family of the package manager that made a gl_pkg, gl_removal or gl_pkg_index, set
 * with its name when the fact is made: readers ask it, not the name (no string compare). */
enum gl_pkg_family {
    GL_PKG_RM = 0, /* `rm` (a path removal): no package manager */
    GL_PKG_APT,    /* apt-get, apt, aptitude */
    GL_PKG_RPM,    /* yum, dnf, microdnf, tdnf */
    GL_PKG_APK,    /* apk */
    GL_PKG_ZYPPER, /* zypper */
    GL_PKG_CONDA,  /* conda, mamba, micromamba */
    GL_PKG_PIP,    /* pip, uv */
};

/* An OS package manager (apt, rpm, apk, zypper families)? */
static inline bool gl_pkg_family_os(unsigned family)
{
    return family >= GL_PKG_APT && family <= GL_PKG_ZYPPER;
}

/* A package installed by a package manager in a RUN line. */
struct gl_pkg {
    const char *manager;     /* "apt-get", "apt", "yum", "dnf", "microdnf", "apk", "zypper",
                                "conda", "mamba", "micromamba", "pip", "uv" */
    const char *name;        /* as written, without the version: "cuda-toolkit-12-6" */
    const char *version;     /* "2.1.0+cu121" from `torch==2.1.0+cu121`, or NULL */
    const char *spec;        /* the whole word: "torch==2.1.0+cu121" */
    struct gl_loc loc;
    int stage;
    int instr;               /* the instruction (index in the file) that installs it */
    bool group;              /* `dnf groupinstall "Development Tools"` */
    bool requirements;       /* `pip install -r FILE`: name is the file */
    uint8_t family;          /* enum gl_pkg_family of manager (in what was padding) */
    uint8_t arm;             /* branch, arm: the innermost shell `if`/`case` of the RUN that */
    uint32_t branch;         /* installs it, and its arm there (sh_cmd.branch/.arm; 0 none) */
    const char *workdir;     /* the WORKDIR of the RUN: absolute, "" for the base image's own
                                (unknown, relative paths are relative to it), NULL unknown */
    const char *extras;      /* a project a requirements entry installs: its extras, each
                                followed by ',' ("cuda," from `uv sync --extra cuda`, "a,b,"
                                from `pip install .[a,b]`); "*" for all or one not known
                                (`--all-extras`, `--extra $X`); NULL for none */
};

/* What a RUN line removes: packages a package manager removes (`apt-get purge gcc`,
 * `dnf remove`, `apk del`, `pip uninstall`; manager as in gl_pkg) or paths `rm` deletes
 * (manager "rm", name the path as written, relative to workdir when not absolute).
 * An automatic removal names no package. */
struct gl_removal {
    const char *manager;
    const char *name;
    struct gl_loc loc;
    int stage;
    int instr;
    const char *workdir;     /* as gl_pkg.workdir */
    bool automatic;          /* `autoremove`, `--auto-remove`: the packages installed as
                                dependencies, whichever they are (name "", at that word) */
    uint8_t family;          /* enum gl_pkg_family of manager; GL_PKG_RM for "rm" */
};

#define GL_COPY_SIZE_ASK (-2)

/* A source of a COPY or ADD from the build context (not --from another stage). */
struct gl_copy_src {
    const char *path;
    struct gl_loc loc;
    int stage;
    int instr;               /* the COPY/ADD instruction (index in the file) */
    bool add;                /* ADD rather than COPY */
    bool url;                /* an ADD of a URL */
    const char *dest;        /* the destination as written (after ARG/ENV), NULL: unknown */
    const char *workdir;     /* the WORKDIR it is relative to (as gl_pkg.workdir) */
    int64_t size;            /* -1: not a regular file of the build context (or not to
                                be known); GL_COPY_SIZE_ASK: maybe one, its size not asked
                                yet. Read it through gl_df_copy_size. */
};

/* A command of a RUN line (one simple command: `a && b` gives two), split into shell
 * words. Heredoc bodies run as scripts are split too. */
struct gl_cmd {
    struct gl_word *words;
    size_t nwords;
    int stage;
    int instr;               /* the RUN instruction (index in the file) */
};

/* A package index or find-links given to pip/uv/conda (`--index-url .../whl/cu121`), or
 * uv's `--torch-backend=cu126` (option "--torch-backend", url "cu126"). */
struct gl_pkg_index {
    const char *manager;
    const char *option;      /* "--index-url", "-c", "--torch-backend", ... as written */
    const char *url;         /* or conda channel, or the torch backend */
    struct gl_loc loc;
    int stage;
    uint8_t family;          /* enum gl_pkg_family of manager */
    uint8_t arm;             /* as gl_pkg.branch and .arm */
    uint32_t branch;
};

/* A variable a RUN line sees at build time: an ARG of a stage (its value the --build-arg,
 * else the default, else the global ARG's; `arg` set), or an assignment in a RUN line
 * (`X=v cmd` for that command, `X=v` alone for the rest of the line). value NULL when
 * unknown. */
struct gl_build_var {
    const char *name, *value;
    struct gl_loc loc, value_loc; /* the name; the value's first byte as written */
    int stage;
    int instr;
    bool arg;
};

struct gl_dockerfile_model {
    struct gl_stage *stages;        size_t nstages, capstages;
    struct gl_pkg *pkgs;            size_t npkgs, cappkgs;
    struct gl_copy_src *copies;     size_t ncopies, capcopies;
    /* `RUN --mount=type=bind,source=S,target=T` (type bind, the default; no from=): a file
     * of the build context that RUN alone sees at T: path S, dest T, instr the RUN's */
    struct gl_copy_src *binds;      size_t nbinds, capbinds;
    struct gl_cmd *cmds;            size_t ncmds, capcmds;
    struct gl_pkg_index *indexes;   size_t nindexes, capindexes;
    struct gl_build_var *vars;      size_t nvars, capvars;
    struct gl_removal *removals;    size_t nremovals, capremovals;
    int final_stage;                /* index of the final stage, -1 when there is none */
    /* A rule's answer about the whole model, remembered at its first asking (0: not asked;
     * rules/gl3xx/driver_container.c: 1 no, 2 yes). A doc is linted by one thread. */
    signed char driver_container_memo;
};

struct gl_doc;
/* The reference at the root of a stage's FROM chain: the image it is really built on
 * (scratch or an image; NULL when the doc has no such stage). */
const struct gl_ref *gl_df_stage_root_ref(const struct gl_doc *doc, int stage);
/* gl_df_stage_shipped(doc, stage): is the stage shipped (the final stage or in its FROM
 * chain)? False for -1. Inline, in model.h after struct gl_doc: every rule asks it of each
 * package, copy and command it walks (24,000 calls on 999 Dockerfiles). */
/* The bytes of COPY source c when it is a regular file of the build context (lstat, not
 * following a link), else -1. Asked of the file system at the first call for c's path
 * (gl_doc_probe remembers the answer in the doc: a doc is linted by one thread). */
int64_t gl_df_copy_size(const struct gl_doc *doc, const struct gl_copy_src *c);

#endif
