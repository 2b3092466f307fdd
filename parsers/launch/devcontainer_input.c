/* SPDX-License-Identifier: Apache-2.0 */
/*
 * devcontainer_input.c: Dev Container configurations (`devcontainer.json`,
 * `.devcontainer.json`, as VS Code, Codespaces and the devcontainer CLI read them) -> the
 * container they start.
 *
 * Recognition (gl_input_devcontainer), by name only. The file is JSON with comments
 * (JSONC): its `//` and block comments outside strings, and its trailing commas, are
 * blanked (newlines kept, so every position stays), and the JSON left is read with the
 * YAML reader (JSON is YAML's flow style).
 *
 * One launch (kind GL_LAUNCH_DOCKER_RUN, tool "devcontainer", name "dev container") when
 * the file names an `image` (an image reference, at its value; one holding a `${...}`
 * variable is unresolved: no reference) or a `build` (the image is built from the
 * project's Dockerfile, linted on its own: no reference). A configuration with
 * `dockerComposeFile` starts a service of those compose files, which are linted as compose:
 * no launch here. Read into the launch:
 *   runArgs               each string one argument of `docker run`, read with its flag
 *                         table (--gpus, --shm-size, --ipc, --ulimit, -v, -e, ...)
 *   hostRequirements.gpu  true, "optional" or a mapping: the CLI starts the container with
 *                         `--gpus all` on a host with GPUs, read so (at the value); false:
 *                         nothing
 *   containerEnv          the container's environment (env entries at each key; a value
 *                         holding a `${...}` variable is unknown); NVIDIA_VISIBLE_DEVICES
 *                         there selects the GPUs with --runtime=nvidia, as `-e` does
 *   mounts                each a `--mount` of the launch: a string in that syntax, or a
 *                         mapping {type, source, target} (its values where they stand); a
 *                         `${localWorkspaceFolder}` in a source stays as written, as `$PWD`
 *                         in `docker run -v` does
 *   workspaceMount        the same, one string (the CLI's default workspace mount, when
 *                         it is absent, is not made up)
 *   privileged, capAdd    `--privileged` (when true) and one `--cap-add CAP` per item
 * The command is the tool's own keep-alive loop (`overrideCommand` defaults to true) or the
 * image's: the launch has no argv, so no rule judges a job it runs.
 * A `build.dockerfile` (or the older `dockerFile`) is a build of that Dockerfile, relative
 * to the file, with build.args and the pseudo-ARG GL_BUILD_DEV_CONTAINER set (model_ref.h):
 * a Dockerfile that, in this run, only dev containers build is a dev container's image
 * wherever it lies (GL301/GL302 stay silent on it, rules/gl3xx/dev_container.h).
 */
#include <string.h>

#include "linter/core/ref/imageref.h"
#include "linter/core/inputs.h"
#include "parsers/launch/launch_internal.h"
#include "parsers/yaml/yaml_tree.h"

/* t[i] is a string's opening quote: the offset of its closing one (n when none). */
static size_t string_end(const char *t, size_t n, size_t i)
{
    for (i++; i < n && t[i] != '"'; i++)
        if (t[i] == '\\')
            i++;
    return i;
}

/* Blank the comments of JSONC text t[0..n) in place (newlines kept); the offset of a block
 * comment that is never closed, else n. */
static size_t blank_comments(char *t, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (t[i] == '"') {
            i = string_end(t, n, i);
        } else if (t[i] == '/' && i + 1 < n && t[i + 1] == '/') {
            for (; i < n && t[i] != '\n'; i++)
                t[i] = ' ';
        } else if (t[i] == '/' && i + 1 < n && t[i + 1] == '*') {
            size_t end = i + 2; /* just after the closing star-slash, or the text's end */
            while (end < n && !(t[end - 1] == '*' && t[end] == '/' && end > i + 2))
                end++;
            if (end >= n)
                return i;
            end++;
            for (size_t k = i; k < end; k++)
                if (t[k] != '\n')
                    t[k] = ' ';
            i = end - 1;
        }
    }
    return n;
}

/* After a `,` at t[i]: does the next thing (past blanks) close a collection? */
static bool trailing_comma(const char *t, size_t n, size_t i)
{
    for (i++; i < n && (t[i] == ' ' || t[i] == '\t' || t[i] == '\r' || t[i] == '\n'); i++)
        ;
    return i < n && (t[i] == '}' || t[i] == ']');
}

/* Blank the comments and trailing commas of JSONC text t[0..n) in place (newlines kept):
 * what is left is JSON, which the YAML reader reads. Comments first, so that a comma
 * before a comment and the closing bracket is seen as trailing. Returns the offset of a
 * block comment never closed (the text is left as it is), else n. */
static size_t blank_jsonc(char *t, size_t n)
{
    size_t open = blank_comments(t, n);
    if (open < n)
        return open;
    for (size_t i = 0; i < n; i++) {
        if (t[i] == '"')
            i = string_end(t, n, i);
        else if (t[i] == ',' && trailing_comma(t, n, i))
            t[i] = ' ';
    }
    return n;
}

/* The arguments being gathered: one shell-less command whose words are the strings of
 * runArgs as written (each its own word), over a text of their bytes mapped back. */
struct args {
    struct gl_doc *doc;
    struct gl_buf text;
    struct gl_srcmap *map;
    struct gl_word *w;
    struct sh_word_info *wi;
    size_t n, cap, capi;
};

/* Append `s` (len bytes) to the text of the arguments: byte k at `at` + k columns, or,
 * when `from` is a scalar, where its bytes are in the file. */
static void add_text(struct args *g, const char *s, size_t len, struct gl_loc at,
                     struct yt_stream *ys, const struct yt_node *from)
{
    size_t off = g->text.len;
    gl_buf_add(&g->text, s, len);
    if (from) {
        struct gl_srcmap one;
        gl_srcmap_init(&one, &g->doc->arena);
        yt_scalar_srcmap(ys, from, &one);
        gl_srcmap_append(g->map, off, &one, 0, len);
    } else {
        gl_srcmap_add(g->map, off, at.line, at.col);
    }
}

/* The text appended since `off` as one word at `at`. */
static void end_word(struct args *g, size_t off, struct gl_loc at)
{
    struct gl_arena *a = &g->doc->arena;
    size_t len = g->text.len - off;
    struct gl_word *w = GL_APPEND(a, g->w, g->n, g->cap);
    size_t k = g->n - 1;
    if (k >= g->capi) { /* the infos grow beside the words */
        size_t cap = g->capi;
        g->wi = gl_arena_grow(a, g->wi, k, sizeof *g->wi, &cap);
        g->capi = cap;
    }
    struct sh_span *sp = gl_arena_alloc(a, sizeof *sp);
    *sp = (struct sh_span){0, off, len, true, false};
    w->text = gl_arena_strndup(a, g->text.data + off, len);
    w->len = gl_word_len(w->text);
    w->loc = at;
    g->wi[k] = (struct sh_word_info){.len = len, .src = off, .spans = sp, .nspans = 1};
}

/* Past the limit parse-memory (the arena's allocations still succeed): stop reading the
 * items of a runArgs or mounts list or a containerEnv mapping at item `v`, GL900 there. */
static bool stop_at(struct gl_doc *doc, const struct yt_node *v)
{
    if (!gl_arena_over(&doc->arena))
        return false;
    gl_doc_fail_limit(doc, GL_LIMIT_PARSE_MEMORY, v->loc);
    return true;
}

/* Word `s` (len bytes) placed as add_text places it. */
static void add_arg(struct args *g, const char *s, size_t len, struct gl_loc at,
                    struct yt_stream *ys, const struct yt_node *from)
{
    size_t off = g->text.len;
    add_text(g, s, len, at, ys, from);
    end_word(g, off, at);
}

/* One mount as the devcontainer CLI passes it to `docker run --mount`: a string in that
 * syntax (`source=/data,target=/data,type=bind,readonly`), or a mapping {type, source,
 * target} (each value mapped to where it is written). Anything else is not known. */
static void add_mount(struct args *g, struct launch_build *b, struct yt_stream *s,
                      struct yt_node *m)
{
    static const char *const keys[] = {"type", "source", "target"};
    if (yt_is_scalar(m) && m->len) {
        struct gl_loc at = yt_scalar_loc_at(s, m, 0);
        add_arg(g, "--mount", 7, at, s, NULL);
        add_arg(g, m->value, m->len, at, s, m);
        return;
    }
    if (!yt_is_map(m)) {
        b->l->opts_opaque = true;
        return;
    }
    add_arg(g, "--mount", 7, m->loc, s, NULL);
    size_t off = g->text.len;
    struct yt_pair *p;
    size_t n = yt_pairs(s, m, &p);
    for (size_t i = 0; i < n; i++) { /* (in the file's order: the word starts at the first) */
        struct yt_node *key = yt_deref(s, p[i].key), *v = yt_deref(s, p[i].value);
        size_t k = 0;
        while (k < sizeof keys / sizeof *keys && !(yt_is_scalar(key) &&
                                                     !strcmp(key->value, keys[k])))
            k++;
        if (k == sizeof keys / sizeof *keys || !yt_is_scalar(v))
            continue;
        if (g->text.len > off)
            add_text(g, ",", 1, key->loc, s, NULL);
        add_text(g, keys[k], strlen(keys[k]), key->loc, s, NULL);
        add_text(g, "=", 1, yt_scalar_loc_at(s, v, 0), s, NULL);
        add_text(g, v->value, v->len, yt_scalar_loc_at(s, v, 0), s, v);
    }
    end_word(g, off, m->loc);
}

/* mounts (each add_mount) and workspaceMount (a string of the same syntax): mounts of the
 * dev container, as `docker run --mount` makes them. */
static void mounts(struct args *g, struct launch_build *b, struct yt_stream *s,
                   struct yt_node *root)
{
    struct yt_node *list = yt_get(s, root, "mounts", NULL);
    for (size_t i = 0; yt_is_seq(list) && i < list->nitems; i++) {
        if (stop_at(g->doc, yt_item(s, list, i)))
            return;
        add_mount(g, b, s, yt_deref(s, yt_item(s, list, i)));
    }
    struct yt_node *ws = yt_deref(s, yt_get(s, root, "workspaceMount", NULL));
    if (yt_is_scalar(ws))
        add_mount(g, b, s, ws);
}

/* runArgs: each string an argument; anything else hides what it holds (opts_opaque). */
static void run_args(struct args *g, struct launch_build *b, struct yt_stream *s,
                     struct yt_node *list)
{
    for (size_t i = 0; yt_is_seq(list) && i < list->nitems; i++) {
        struct yt_node *v = yt_item(s, list, i);
        if (stop_at(g->doc, v))
            return;
        if (!yt_is_scalar(v) || memchr(v->value, '$', v->len)) {
            b->l->opts_opaque = true; /* (a `${localEnv:X}`: the tool fills it in) */
            continue;
        }
        add_arg(g, v->value, v->len, yt_scalar_loc_at(s, v, 0), s, v);
    }
}

/* hostRequirements.gpu: true, "optional" or a mapping (cores, memory) asks for the GPUs. */
static void host_gpu(struct args *g, struct yt_stream *s, struct yt_node *root)
{
    struct yt_node *gpu = yt_get(s, yt_get(s, root, "hostRequirements", NULL), "gpu", NULL);
    if (!gpu || !(yt_is_map(gpu) || yt_is_true(gpu) || yt_scalar_is(gpu, "optional")))
        return;
    struct gl_loc at = yt_is_scalar(gpu) ? yt_scalar_loc_at(s, gpu, 0) : gpu->loc;
    add_arg(g, "--gpus", 6, at, s, NULL);
    add_arg(g, "all", 3, at, s, NULL);
}

/* `privileged: true` and `capAdd` (each a capability): the CLI passes them to `docker run`
 * as `--privileged` and `--cap-add CAP` (MatX's and nv-ingest's GPU dev containers run
 * privileged: CAP_IPC_LOCK, so no memlock limit binds them). */
static void privileges(struct args *g, struct yt_stream *s, struct yt_node *root)
{
    struct yt_node *priv = yt_deref(s, yt_get(s, root, "privileged", NULL));
    if (yt_is_scalar(priv) && yt_is_true(priv))
        add_arg(g, "--privileged", 12, yt_scalar_loc_at(s, priv, 0), s, NULL);
    struct yt_node *caps = yt_get(s, root, "capAdd", NULL);
    for (size_t i = 0; yt_is_seq(caps) && i < caps->nitems; i++) {
        struct yt_node *v = yt_item(s, caps, i);
        if (stop_at(g->doc, v))
            return;
        if (!yt_is_scalar(v) || !v->len)
            continue;
        struct gl_loc at = yt_scalar_loc_at(s, v, 0);
        add_arg(g, "--cap-add", 9, at, s, NULL);
        add_arg(g, v->value, v->len, at, s, v);
    }
}

/* containerEnv: one env entry of the launch per key. */
static void container_env(struct launch_build *b, struct yt_stream *s, struct yt_node *map)
{
    struct gl_doc *doc = b->scan->doc;
    struct yt_pair *p;
    size_t n = yt_pairs(s, map, &p);
    for (size_t i = 0; i < n; i++) {
        struct yt_node *k = yt_deref(s, p[i].key), *v = p[i].value;
        if (stop_at(doc, p[i].key))
            return;
        if (!yt_is_scalar(k))
            continue;
        struct gl_env *e = launch_env_entry(b, k->value, k->len, k->loc);
        bool known = yt_is_scalar(v) && !yt_is_null(v) && !memchr(v->value, '$', v->len);
        e->value = known ? gl_arena_strndup(&doc->arena, v->value, v->len) : NULL;
        if (yt_is_scalar(v))
            e->value_loc = yt_scalar_loc_at(s, v, 0);
    }
}

/* `build.dockerfile` (or the older top-level `dockerFile`), relative to the file: a build
 * of that Dockerfile (model_ref.h) setting build.args and GL_BUILD_DEV_CONTAINER, so that
 * a Dockerfile only dev containers build is one wherever it lies. */
static void dev_build(struct gl_doc *doc, struct yt_stream *s, struct yt_node *root)
{
    struct yt_node *build = yt_get(s, root, "build", NULL);
    struct yt_node *file = yt_deref(s, yt_get(s, build, "dockerfile", NULL));
    if (!file)
        file = yt_deref(s, yt_get(s, root, "dockerFile", NULL));
    if (!yt_is_scalar(file) || !file->len || memchr(file->value, '$', file->len))
        return;
    const char *args[64];
    size_t nargs = 0;
    args[nargs++] = GL_BUILD_DEV_CONTAINER;
    struct yt_pair *p;
    size_t n = yt_pairs(s, yt_get(s, build, "args", NULL), &p);
    for (size_t i = 0; i < n && nargs < sizeof args / sizeof *args; i++) {
        struct yt_node *k = yt_deref(s, p[i].key);
        if (yt_is_scalar(k) && !yt_is_null(p[i].value))
            args[nargs++] = k->value;
    }
    gl_project_add_build(doc, gl_arena_strndup(&doc->arena, file->value, file->len), false,
                         args, nargs, yt_scalar_loc_at(s, file, 0), "devcontainer");
}

static void parse(struct gl_doc *doc, const struct gl_config *cfg)
{
    (void)cfg;
    char *text = gl_arena_strndup(&doc->arena, doc->text, doc->len);
    size_t open = blank_jsonc(text, doc->len);
    if (open < doc->len) {
        doc->error.set = true;
        doc->error.loc = gl_text_loc(doc->text, doc->len, open);
        doc->error.message = "expected `*/` to close this comment";
        return;
    }
    struct yt_stream s;
    yt_load_doc(&s, doc, text, doc->len);
    if (gl_arena_over(&doc->arena)) { /* the load stopped at parse-memory: its GL900, there */
        yt_report(doc, &s);
        return;
    }
    struct yt_node *root = s.ndocs && s.docs[0] ? s.docs[0] : NULL;
    struct yt_node *key = NULL, *img = yt_get(&s, root, "image", &key);
    if (yt_is_map(root) && !yt_get(&s, root, "dockerComposeFile", NULL))
        dev_build(doc, &s, root);
    if (!yt_is_map(root) || yt_get(&s, root, "dockerComposeFile", NULL) ||
        (!yt_is_scalar(img) && !yt_get(&s, root, "build", &key))) {
        yt_report(doc, &s);
        return;
    }
    struct gl_launch_scan scan;
    gl_launch_scan_init(&scan, doc, NULL);
    struct launch_build b;
    bool named = yt_is_scalar(img) && img->len;
    launch_begin(&b, &scan, GL_LAUNCH_DOCKER_RUN, "devcontainer",
                 named ? yt_scalar_loc_at(&s, img, 0) : key->loc);
    b.l->name = "dev container";
    if (named && !memchr(img->value, '$', img->len)) {
        b.l->ref = (int)doc->nrefs;
        struct gl_ref *r = gl_ref_add(doc, gl_arena_strndup(&doc->arena, img->value, img->len),
                                      yt_scalar_loc_at(&s, img, 0), GL_REF_LAUNCH, false);
        r->launch = b.index;
    }
    struct gl_srcmap *map = gl_arena_alloc(&doc->arena, sizeof *map); /* (the words keep it) */
    gl_srcmap_init(map, &doc->arena);
    struct args g = {.doc = doc, .map = map};
    gl_buf_init(&g.text);
    container_env(&b, &s, yt_get(&s, root, "containerEnv", NULL));
    run_args(&g, &b, &s, yt_get(&s, root, "runArgs", NULL));
    privileges(&g, &s, root);
    mounts(&g, &b, &s, root);
    host_gpu(&g, &s, root);
    struct sh_cmd cmd = {.words = g.w, .info = g.wi, .nwords = g.n, .origin = map,
                         .loc = b.l->loc};
    launch_docker_options(&b, &cmd);
    launch_docker_finish(&b, &cmd);
    gl_buf_free(&g.text);
    yt_report(doc, &s);
}

static bool by_name(const char *path, const char *base)
{
    (void)path;
    return !strcmp(base, "devcontainer.json") || !strcmp(base, ".devcontainer.json");
}

const struct gl_input_type gl_input_devcontainer = {
    .kind = GL_IN_DEVCONTAINER,
    .name = "devcontainer",
    .priority = 10,
    .by_name = by_name,
    .parse = parse,
};
