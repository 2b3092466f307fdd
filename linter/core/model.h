/* SPDX-License-Identifier: Apache-2.0 */
/*
 * model.h: the facts parsers produce and rules read.
 *
 * One input (a file, a directory of an OCI layout, an image archive, stdin) becomes one
 * gl_doc. Parsers fill it; rules only read it. Everything in a doc lives in doc->arena
 * and is freed with the doc. Each fact keeps the 1-based line and byte column of the
 * token it came from (line 0 for facts read from an image's files), so a rule can point
 * a finding at the exact token.
 *
 * The facts, by family (each family has its own header, included here):
 *   model_ref.h        image references, wherever they are written; the images the
 *                      project builds or a kustomization rewrites
 *   model_dockerfile.h build stages, package installs, COPY/ADD sources, RUN commands
 *   model_launch.h     container launches (docker run, compose, Kubernetes, apptainer)
 *   model_cuda.h       CUDA requirements with provenance
 *   model_image.h      an image archive's filesystem view and config
 *   model_template.h   templates that were not rendered; rendered Helm streams
 * plus, in this file, the doc itself, environment variables and inline ignores.
 */
#ifndef GPULINT_MODEL_H
#define GPULINT_MODEL_H

#include "linter/core/lines.h"
#include "linter/core/util.h"

/* What kind of input a doc is. Rules usually need not care: they read facts. */
enum gl_input_kind {
    GL_IN_UNKNOWN = 0,
    GL_IN_DOCKERFILE,
    GL_IN_SHELL,       /* shell script */
    GL_IN_MAKEFILE,
    GL_IN_MARKDOWN,
    GL_IN_CIYAML,      /* GitHub Actions / GitLab CI */
    GL_IN_COMPOSE,
    GL_IN_K8S,
    GL_IN_APPTAINER_DEF,
    GL_IN_IMAGE,       /* image archive or OCI layout directory */
    GL_IN_KUSTOMIZE,   /* kustomization.yaml */
    GL_IN_HELM,        /* a rendered Helm stream (helm template), positions in its templates */
    GL_IN_BAKE,        /* docker-bake.hcl / .json: the images a bake builds */
    GL_IN_RST,         /* reStructuredText: code-block directives */
    GL_IN_ANSIBLE,     /* Ansible playbooks and task files: shell/command tasks */
    GL_IN_NOTEBOOK,    /* Jupyter notebooks: `!` lines and %%bash cells */
    GL_IN_DEVICE_PLUGIN, /* an NVIDIA device plugin config (sharing: timeSlicing) */
    GL_IN_DEVCONTAINER, /* devcontainer.json: the container a dev container starts */
    GL_IN_SYSTEMD,     /* systemd service units: the containers their ExecStart runs */
    GL_IN_LLAMASWAP,   /* llama-swap configurations: the models' cmd lines */
    GL_IN_KIND_COUNT
};

/* A word of a command line (RUN, docker run, a pod's command), after quote removal and
 * variable resolution. `opaque` words hold values gpulint could not know (a `$(...)`,
 * an unresolved variable, an array): no finding may depend on their content.
 * `len` is strlen(text) (0 for a NULL text), kept so that the scanners and rules that
 * look at a word's end (a suffix, a base name) call no strlen per word. It is strlen's
 * value even when the bytes the word was built from hold a NUL (a `$'\0'`, a YAML
 * "\0"): the text ends there for every reader. It sits in what was padding (the struct
 * keeps its size, so arena charges do not change); a text of UINT32_MAX bytes or more
 * (raised limits only) holds UINT32_MAX: gl_word_size gives the length always.
 * Every builder sets it: gl_word_make, or the length it has proved equal (see there). */
struct gl_word {
    const char *text;
    uint32_t len;
    struct gl_loc loc; /* first byte of the word as written */
    bool opaque;
};
_Static_assert(sizeof(void *) != 8 || sizeof(struct gl_word) == 24,
               "gl_word.len must fit the padding: the model's size (arena charges) stays");

/* A length n (a text's strlen) as gl_word.len holds it: UINT32_MAX past it. */
static inline uint32_t gl_word_len_of(size_t n)
{
    return n < UINT32_MAX ? (uint32_t)n : UINT32_MAX;
}

/* strlen(text) as gl_word.len holds it (0 for NULL, UINT32_MAX past it). */
static inline uint32_t gl_word_len(const char *text)
{
    return gl_word_len_of(text ? strlen(text) : 0);
}

/* A word of `text` (its len computed). */
static inline struct gl_word gl_word_make(const char *text, struct gl_loc loc, bool opaque)
{
    return (struct gl_word){text, gl_word_len(text), loc, opaque};
}

/* gl_word.len of the text w->text + off (off <= strlen(w->text)): a suffix's length. */
static inline uint32_t gl_word_tail_len(const struct gl_word *w, size_t off)
{
    return w->len < UINT32_MAX ? w->len - (uint32_t)off : gl_word_len(w->text + off);
}

/* strlen(w->text), from w->len (a strlen only for a text of 4 GiB or more). */
static inline size_t gl_word_size(const struct gl_word *w)
{
    return w->len < UINT32_MAX ? w->len : strlen(w->text);
}

/* The word's text after its last '/' (gl_base_name without a strrchr: the length is known). */
static inline const char *gl_word_base_name(const struct gl_word *w)
{
    const char *slash = memrchr(w->text, '/', gl_word_size(w));
    return slash ? slash + 1 : w->text;
}


/* An environment variable set for an image or a launch. */
enum gl_env_origin {
    GL_ENV_DOCKERFILE,   /* ENV in a stage */
    GL_ENV_IMAGE_CONFIG, /* an image archive's config */
    GL_ENV_LAUNCH,       /* -e, compose environment, pod env */
};

struct gl_env {
    const char *key, *value; /* value NULL when unknown (opaque, from --env-file, ...) */
    struct gl_loc key_loc, value_loc;
    enum gl_env_origin origin;
    int stage;  /* Dockerfile stage index, else -1 */
    int launch; /* launch index, else -1 */
};

/* An inline ignore: `# gpulint ignore=GL101,GL403` covers the lines [first, last] of the
 * statement that follows it; `# gpulint global ignore=GL411` covers the whole file
 * (first = 0, last = UINT32_MAX). Ids are as written (GL902 reports unknown ones). */
struct gl_ignore {
    uint32_t first, last;
    const char **ids;
    size_t nids;
    struct gl_loc loc; /* the pragma itself */
    struct gl_loc *id_locs;
};

/* The first bad byte of an input that could not be parsed (becomes a GL900 finding). */
struct gl_parse_error {
    bool set;
    struct gl_loc loc;
    const char *message; /* "expected ..." */
    const char *fix;     /* NULL: "fix the syntax at this position" */
    bool not_kind;       /* the input is not of the kind it was taken for (a tar that is
                            no image): a file found by the walk is then skipped, a named
                            one is GL901 rather than GL900 */
    bool other_kind;     /* the name decided the kind but the text fails at its first
                            statement (a `Dockerfile.x` holding a Kubernetes manifest):
                            when its content is plainly another input, it is read so */
    bool unreachable;    /* the input could not be fetched (a registry said 401, 403 or
                            404, TLS failed, no answer): one line on stderr and exit 2,
                            as for an unreadable path, never a finding */
};

/* What the file system said of a path of a doc's build context (gl_doc_probe). */
struct gl_probe {
    uint32_t mode; /* st_mode */
    int64_t size;  /* st_size */
};

/* A path asked once (gl_doc_probe): its lstat answer and, for a symbolic link, stat's. */
struct gl_probe_slot {
    uint32_t len;     /* of the path's normalised form, key */
    bool found;       /* lstat found it: l holds what it said */
    int8_t followed;  /* a link's target: 0 not asked yet, 1 found (s), -1 none */
    struct gl_probe l, s;
    char key[64];
};
#define GL_DOC_PROBES 32 /* paths remembered per doc; others are asked each time */

#include "linter/core/limits.h"
#include "linter/core/model_ref.h"
#include "linter/core/model_cuda.h"
#include "linter/core/model_dockerfile.h"
#include "linter/core/model_launch.h"
#include "linter/core/model_image.h"
#include "linter/core/model_template.h"

/* A Dockerfile written in a document's code block (a Markdown fence or reStructuredText
 * code block tagged dockerfile, or untagged, whose first instruction is FROM or ARG): the
 * block's body, bytes [start, end) of the doc's text, its first line `line` of the file,
 * its lines indented by `indent` spaces (the block's). The engine lints it as a Dockerfile
 * of its own whose findings point into the document (linter/cli/embedded.h). */
struct gl_embedded {
    size_t start, end;
    uint32_t line, indent;
};

struct gl_doc {
    const char *path;         /* as given on the command line or found by the walk */
    enum gl_input_kind kind;
    struct gl_arena arena;
    const char *text;         /* the file's bytes (NUL-terminated), NULL for images */
    size_t len;

    struct gl_ref *refs;       size_t nrefs, caprefs;
    struct gl_env *env;        size_t nenv, capenv;
    struct gl_cuda_fact *cuda; size_t ncuda, capcuda;
    struct gl_arch_list *archlists; size_t narchlists, caparchlists;
    struct gl_launch *launches; size_t nlaunches, caplaunches;
    struct gl_ignore *ignores; size_t nignores, capignores;
    struct gl_project_image *project; size_t nproject, capproject;
    struct gl_copy_out *copyouts; size_t ncopyouts, capcopyouts; /* docker cp / commit */
    struct gl_gpu_sharing *sharing; size_t nsharing, capsharing; /* device-plugin configs */
    const char **includes; size_t nincludes, capincludes; /* compose: the files its
                                 `include:` names, as written (relative to its directory) */
    uint64_t yaml_alias_used; /* the alias nodes that YAML texts inside the file (shell
                                 heredocs: yt_load_at) expanded: one yaml-alias-nodes
                                 budget a file, not one a text */
    bool jetson_tools;        /* the text runs dusty-nv's jetson-containers (`run`,
                                 `build`, `$(jetson-containers data)`): its launches are
                                 on a Jetson, whatever their image's name */

    struct gl_embedded *embedded; size_t nembedded, capembedded; /* Dockerfiles in its
                                 code blocks (Markdown, reStructuredText) */

    struct gl_dockerfile_model *df; /* GL_IN_DOCKERFILE */
    struct gl_image_model *image;   /* GL_IN_IMAGE */

    struct gl_parse_error error;
    struct gl_template tmpl;  /* a template that was not rendered (GL903), never an error */
    /* A rendered Helm stream: where each line came from (NULL otherwise). chart_dir, set
     * by whoever renders a chart before the parse: the directory its `# Source:` paths
     * are in (NULL: they are read as written, from the working directory). */
    struct gl_render *render;
    const char *chart_dir;

    struct gl_lines lines;    /* doc->text's line index, for gl_doc_offset */

    /* Build-context paths already asked of the file system (gl_doc_probe). Last: the
     * slots past nprobes are never read, so gl_doc_init does not clear them. */
    size_t nprobes;
    size_t probe_dir;  /* the doc's directory, its path up to the last '/', +1 (0: unset) */
    struct gl_probe_slot probes[GL_DOC_PROBES];
};

/* (model_dockerfile.h) */
static inline bool gl_df_stage_shipped(const struct gl_doc *doc, int stage)
{
    const struct gl_dockerfile_model *m = doc->df;
    return m && stage >= 0 && (size_t)stage < m->nstages && m->stages[stage].shipped;
}

/* Set *doc up over text[0..len): zeroed, with a fresh arena (free it with
 * gl_arena_free(&doc->arena)). */
void gl_doc_init(struct gl_doc *doc, const char *path, enum gl_input_kind kind,
                 const char *text, size_t len);

/* Forget the facts parsed so far (references, env, CUDA facts, launches, the Dockerfile
 * and image models), keeping the inline ignores: an input found to be a template is
 * linted only once rendered. */
void gl_doc_drop_facts(struct gl_doc *doc);

/* Stop at a limit: set doc->error (unless set) at loc with the limit's message. */
void gl_doc_fail_limit(struct gl_doc *doc, enum gl_limit_id id, struct gl_loc loc);
/* The position of byte `off` of text[0..len) (1-based line by '\n', byte column). */
struct gl_loc gl_text_loc(const char *text, size_t len, size_t off);

/* The byte offset of a position in doc->text, or SIZE_MAX when there is no such byte
 * (no text, line 0, past the end of its line). O(log lines) after a first O(len) pass. */
size_t gl_doc_offset(struct gl_doc *doc, struct gl_loc loc);
/* A reader of the whole doc->text found its line starts (gl_lines_known): the doc's
 * line index is copied from them rather than found again. */
void gl_doc_lines_known(struct gl_doc *doc, const size_t *starts, size_t n);
/* Does text[0, n) stand in doc->text exactly as written at offset off (gl_doc_offset;
 * SIZE_MAX: no), all on one line? */
bool gl_doc_text_is(const struct gl_doc *doc, size_t off, const char *text, size_t n);

/* Is there a file at `path` (a file of the doc's build context, as the caller joined the
 * doc's directory and a name)? lstat's answer (follow false) or
 * stat's (follow true, as access(F_OK) also says), with its mode and size in *out.
 * Each path is asked of the file system at most once per doc (spellings that name the
 * same entry whatever the files are, "a/./b", "a//b" and "./a/b" for "a/b", are one
 * path): a missing entry is missing for both calls, and stat of an entry that is not a
 * symbolic link says what lstat said. The first GL_DOC_PROBES paths are remembered
 * (those whose normalised form, past the doc's directory, fits a slot's key). */
bool gl_doc_probe(struct gl_doc *doc, const char *path, bool follow, struct gl_probe *out);

/* Where a position of doc->text came from: in a rendered stream (doc->render), the
 * template file and its position there (true); else false, *file and *out untouched. */
bool gl_doc_origin(const struct gl_doc *doc, struct gl_loc at, const char **file,
                   struct gl_loc *out);
/* The line of `at` as findings name it: the template's (gl_doc_origin) in a rendered
 * stream or a Dockerfile of a document's code block, else at.line. For messages that
 * name another line than the finding's own ("installed at line 19"). */
uint32_t gl_doc_line(const struct gl_doc *doc, struct gl_loc at);

#endif
