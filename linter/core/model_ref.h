/* SPDX-License-Identifier: Apache-2.0 */
/*
 * model_ref.h: image references (part of the model, see model.h).
 *
 * Every place an input names an image adds one gl_ref: a FROM, a COPY --from image, a
 * docker run image, a compose or pod `image:`, an apptainer `docker://` URI, a `.def`
 * `From:`, the tag an image archive carries. The GL1xx rules and the CUDA rules read
 * these; the role tells where the reference stands.
 */
#ifndef GPULINT_MODEL_REF_H
#define GPULINT_MODEL_REF_H

/* A parsed reference. All strings are NUL-terminated, allocated from the caller's arena,
 * and NULL when absent. */
struct gl_imageref {
    const char *raw;      /* the reference as written */
    const char *domain;   /* "docker.io" for Docker Hub (also for index.docker.io and no
                             domain at all), "nvcr.io", "localhost:5000", "[::1]:5000";
                             NULL only in the "foo_bar.com/x" quirk above */
    const char *path;     /* normalized repository path: "library/ubuntu", "nvidia/cuda" */
    const char *tag;      /* "12.4.1-devel-ubuntu22.04"; NULL when absent ("latest" is
                             NOT filled in) */
    const char *digest;   /* "sha256:<64 hex>" or NULL */
    const char *familiar; /* the short name users write, without tag/digest: "ubuntu",
                             "nvidia/cuda", "nvcr.io/nvidia/pytorch", "library/a/b" */
    struct gl_loc loc;        /* position of raw[0] (as given by the caller) */
    struct gl_loc tag_loc;    /* first byte of the tag text (after ':'), {0,0} if no tag */
    struct gl_loc digest_loc; /* first byte of the digest text (after '@'), {0,0} if none */
    bool exact;               /* raw stands in the file as written at loc, so byte offsets
                                 of raw map to columns; false when it came from a variable,
                                 quotes or a continuation: positions then all point at loc */
};

enum gl_ref_role {
    GL_REF_FROM,          /* Dockerfile FROM */
    GL_REF_COPY_FROM,     /* COPY --from=<image>, RUN --mount=from=<image> */
    GL_REF_LAUNCH,        /* the image a launch starts */
    GL_REF_BUILD_OUTPUT,  /* compose image: beside build: (names what is built) */
    GL_REF_DEF_FROM,      /* apptainer .def From: */
    GL_REF_ARCHIVE,       /* the tag an image archive carries */
    GL_REF_KUSTOMIZE,     /* the image a kustomization's `images:` entry sets in its bases */
    GL_REF_REGISTRY,      /* the reference an image was read by from a registry */
    GL_REF_ELSEWHERE,     /* the image of a launch whose image is written in another file
                             (`docker compose run SERVICE`: the service's `image:`): the
                             image rules judge it there; here it tells what the launch runs
                             (GL407's CUDA image) */
};

struct gl_ref {
    const char *text;          /* the reference after variable resolution */
    struct gl_loc loc;         /* first byte of the reference as written */
    enum gl_ref_role role;
    struct gl_imageref parsed; /* valid when `ok` */
    bool ok;                   /* parsed as a registry reference */
    bool unresolved;           /* held a variable gpulint could not resolve */
    bool scratch;              /* FROM scratch */
    bool stage;                /* names an earlier build stage, not an image */
    bool local;                /* a local file or directory (.sif, sandbox dir) */
    int df_stage;              /* the Dockerfile stage this FROM starts, else -1 */
    int launch;                /* the launch that starts it, else -1 */
    const char *platform;      /* image findings: the platform ("linux/amd64"), else NULL */
    const char *written;       /* the reference as it stands in the file at loc, up to the
                                  first blank or quote ("nvidia/cuda:${CUDA}-devel"); NULL
                                  when unknown */
    size_t written_len;
    const char *arg;           /* a FROM whose reference ends in the expansion of a global
                                  ARG that took its default (`FROM ${BASE_IMAGE}`,
                                  `FROM img:${TAG}`): that ARG's name (its default gave the
                                  tag, or its absence), else NULL */
};

/* ---- images the project makes (RULES.md "Images built by the project", "Kustomize") ----
 * The tag a build command gives (`docker build -t X`, `docker tag A X`, `buildah bud -t X`,
 * compose `build:` with `image: X`, a build-push-action's `tags:`) says the project builds
 * X itself; a kustomization's `images:` entry (or `kustomize edit set image`) says that
 * images of its `name` are rewritten when the manifests are built. Each is one fact of the
 * input it is written in; the engine gathers those of every input of the run, and a
 * finding judged on a reference one of them names is moot (finding.h, moot_when). */
enum gl_project_what {
    GL_PROJECT_BUILT = 1,    /* a build output: the tag a build command gives */
    GL_PROJECT_RENAMED = 2,  /* a kustomization gives images of this name another name */
    GL_PROJECT_RETAGGED = 4, /* ... another tag or a digest */
    GL_PROJECT_ARG_SET = 8,  /* a build of a Dockerfile, with the build ARGs it sets (below) */
};

struct gl_project_image {
    unsigned what;        /* GL_PROJECT_* bits */
    const char *text;     /* as resolved, unresolved parts as written ("$REG/app:$V") */
    const char *pattern;  /* the same with each unresolved part as one '*' (so "$REG/app"
                             becomes '*' followed by "/app") */
    struct gl_loc loc;    /* its first byte as written */
    const char *tool;     /* "docker build", "docker tag", "compose", "kustomization", ... */
};

struct gl_doc;

/* Add one to doc->project: text and pattern are copied to the doc's arena (pattern NULL:
 * the text, all of it literal). */
struct gl_project_image *gl_project_add(struct gl_doc *doc, unsigned what, const char *text,
                                        const char *pattern, struct gl_loc loc,
                                        const char *tool);

/* ---- builds of a Dockerfile (RULES.md "Images built by the project": build arguments) ----
 * A docker-bake target, a compose service's `build:` or a `docker build` command builds one
 * Dockerfile with some build ARGs set (bake `args`, compose `build.args`, `--build-arg
 * K=V`). Each such build is one fact, GL_PROJECT_ARG_SET, added by gl_project_add_build:
 * text is the Dockerfile's path as written, pattern encodes where it may lie and the ARGs
 * (read it with gl_build_paths). When every build of a Dockerfile the run sees sets an
 * ARG, a finding judged on a reference that ARG's default gave (gl_ref.arg) is moot: no
 * build uses the default.
 * `path` is the Dockerfile's path from the directory of doc->path (the input the build is
 * written in); with `any_root` the build may run from that directory or any above it (a
 * bake file's targets and a script's commands resolve paths from the working directory,
 * which is not known), at most GL_BUILD_ROOTS_MAX of them. A path or ARG name with a
 * control byte adds nothing, nor does a build equal to the doc's last one. */
#define GL_BUILD_ROOTS_MAX 32
/* The pseudo-ARG a dev container's build (devcontainer.json `build.dockerfile`) sets: no
 * ARG can be so named, so a Dockerfile whose every build sets it is built by dev container
 * tools only (RULES.md's dev containers; GL301/GL302). */
#define GL_BUILD_DEV_CONTAINER "(dev container)"
void gl_project_add_build(struct gl_doc *doc, const char *path, bool any_root,
                          const char *const *args, size_t nargs, struct gl_loc loc,
                          const char *tool);
/* The paths (gl_path_lexical form) a build's Dockerfile may have, from its pattern, into
 * paths[0, return) (at most GL_BUILD_ROOTS_MAX, arena strings); *args gets the ARGs it
 * sets as "\nA\nB\n" ("\n": none). 0 for a pattern that is not a build's. */
size_t gl_build_paths(struct gl_arena *a, const char *pattern, const char **paths,
                      const char **args);
/* `path` made lexical in the arena: "." and empty components dropped, "a/.." folded
 * where a is a name, a leading "./" dropped ("./x/../y//Dockerfile" -> "y/Dockerfile");
 * "." for nothing left. */
char *gl_path_lexical(struct gl_arena *a, const char *path);

/* Does `pattern` (gl_project_image.pattern) name the reference `ref`? The repository is
 * compared after normalisation (docker.io, library/); with `by_tag` the tag too, an absent
 * tag on either side meaning `latest` (a build output is one tag), else any tag matches
 * (a kustomization matches images by name) unless the pattern names one. A '*' matches
 * any text, but the last component of the repository must hold a letter or digit written
 * literally: `$REG/app:$V` names app:latest and ghcr.io/x/app:1.0, `${NAME}-server` names
 * web-server, `$IMAGE` and `$NAME:$TAG` name nothing. A tag after a repository ending in
 * '*' (`app$SUFFIX`) is unknown: any. `scratch` holds the parse of a literal pattern. */
bool gl_project_pattern_names(const char *pattern, bool by_tag, const struct gl_imageref *ref,
                              struct gl_arena *scratch);
/* Can the pattern name any reference at all? (the last component of its repository holds
 * a letter or digit written literally: not `$IMAGE`, `$NAME:$TAG`, `$REG/$NAME`) */
bool gl_project_pattern_names_some(const char *pattern);
/* The last component of a pattern's repository (after its last '/', before its tag), as
 * [*start, *start + return): the key the engine files patterns under; 0 when the pattern
 * has no such component written literally (a '*' in it). */
size_t gl_project_pattern_key(const char *pattern, const char **start);

/* ---- queries (linter/core/model_ref.c) ---- */

/* True when the reference is on Docker Hub (domain "docker.io"). */
bool gl_imageref_is_docker_hub(const struct gl_imageref *ref);

/* True when no registry serves the reference: a Docker Hub name of one component
 * (`library/NAME`, written `NAME`) that was never an official image (docker_official.h),
 * so only an image built or loaded on the machine answers it (`docker run bart_pyt`); or
 * a name in a cluster's own registry (OpenShift's `image-registry.openshift-image-
 * registry.svc:5000/NS/NAME`), which holds what the cluster's builds push. */
bool gl_imageref_local_only(const struct gl_imageref *ref);

/* The canonical name without tag or digest: "docker.io/library/ubuntu". */
const char *gl_imageref_full_name(struct gl_arena *a, const struct gl_imageref *ref);

/* True when `name` names this repository in any accepted spelling: the familiar form
 * ("ubuntu", "nvidia/cuda", "nvcr.io/nvidia/pytorch"), the full name
 * ("docker.io/library/ubuntu"), or for Docker Hub the bare path ("library/ubuntu").
 * Compares exactly (case-sensitive, no tag/digest in `name`). */
bool gl_imageref_repo_is(const struct gl_imageref *ref, const char *name);

/* True when one of those spellings starts with `prefix`: gl_imageref_repo_has_prefix(
 * ref, "nvidia/cuda") is true for nvidia/cuda and nvidia/cuda-arm64 (RULES "nvidia/cuda*"). */
bool gl_imageref_repo_has_prefix(const struct gl_imageref *ref, const char *prefix);

/* True when the repository lies under the namespace `ns`, on a path-component boundary:
 * gl_imageref_in_namespace(ref, "nvcr.io/nvidia") (with or without a trailing '/') is true
 * for nvcr.io/nvidia/pytorch and nvcr.io/nvidia/clara/x, false for nvcr.io/nvidian/x and
 * for nvcr.io/nvidia itself. */
bool gl_imageref_in_namespace(const struct gl_imageref *ref, const char *ns);

/* True when the tag is absent or is "latest" (and there is no digest to pin it). */
bool gl_imageref_is_unpinned_latest(const struct gl_imageref *ref);

/* ---- tag tokens ----
 * A tag splits into tokens at '-' and '_' (dots stay inside tokens, so versions survive):
 * "12.4.1-cudnn-devel-ubuntu22.04" -> "12.4.1" "cudnn" "devel" "ubuntu22.04";
 * "2.1.0-cuda12.1-cudnn8-runtime" -> ... "cuda12.1" ...; "24.05-py3" -> "24.05" "py3".
 * Empty tokens (from "a--b") are skipped. */
struct gl_imageref_token {
    const char *text; /* arena copy, NUL-terminated */
    size_t offset;    /* byte offset of the token in the tag */
    size_t len;
};

/* Split `tag` (may be NULL: no tokens). Returns the count; *out is an arena array. */
size_t gl_imageref_tag_tokens(struct gl_arena *a, const char *tag,
                              struct gl_imageref_token **out);

/* True when `tag` (may be NULL) has a token equal to `token` (e.g. "devel"). No allocation. */
bool gl_imageref_tag_has_token(const char *tag, const char *token);

/* Does the tag stand for one the reader fills in (RULES.md second round, "Opaque values")?
 * A token that is a version written as letters (`YY.MM`, `yy.mm`, `xx.yy`, `X.Y.Z`: two to
 * four dot-separated groups, each one letter repeated), or one with digits the reader completes
 * (`24.xx`, `23.XX`, `12.x`, `12.4.x`, `2x.xx`: digit groups and `x` groups only, at least one
 * `x`), or the whole tag `TAG`/`tag`/`VERSION`/`version`. No CUDA finding may be judged on
 * such a tag. */
bool gl_imageref_tag_placeholder(const char *tag);

/* Does the name stand for one the reader fills in (documentation's `your-image`,
 * `yourusername/app`, `your-registry.example.com/team/app`): a domain or path component that
 * is `your` alone, `your` before '-', '_' or '.', or `your` before a noun such as user, name,
 * org, registry, repo or image (any case)? `yourls` is a real image, not one. */
bool gl_imageref_name_placeholder(const struct gl_imageref *ref);

/* Location of byte `offset` of the tag ({0,0} when there is no tag). */
struct gl_loc gl_imageref_tag_loc_at(const struct gl_imageref *ref, size_t offset);

/* Is the reference of a CUDA-bearing family (RULES.md GL204): nvidia/cuda*,
 * nvcr.io/nvidia/... (less NVIDIA's infrastructure images: k8s-device-plugin, gpu-operator,
 * k8s/..., cloud-native/...), pytorch/pytorch, tensorflow/tensorflow with a gpu tag, or any
 * image whose tag carries a CUDA token (cuda12.1, cuda-12.1, cu121)? */
bool gl_imageref_cuda_bearing(const struct gl_imageref *ref);
/* The offset in the tag of a token such as "cuda12.1", "cuda-12.1" or "cu121"
 * (-1 when none); *len gets its length. */
long gl_imageref_cuda_token(const char *tag, size_t *len);
/* NVIDIA's infrastructure images that run no CUDA workload (RULES.md third round): the GPU
 * plumbing by name (k8s-device-plugin, gpu-operator, dcgm-exporter, driver, ...) anywhere
 * under an `nvidia/` path component, and everything under its cloud-native/ or distroless/,
 * and its plain OS bases under base/ (nvcr.io/nvidia/base/ubuntu). */
bool gl_imageref_nvidia_infra(const struct gl_imageref *ref);

/* Where bytes [off, off+n) of a reference's tag are written (n = 0: to the tag's end):
 * exactly, when the reference is written literally; else where those bytes appear
 * literally in the written reference (`FROM nvidia/cuda:${CUDA}-devel-...`: the `devel`);
 * else at the reference itself. */
struct gl_loc gl_ref_tag_loc(const struct gl_ref *r, size_t off, size_t n);

#endif
