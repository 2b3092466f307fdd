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
 * The command is the tool's own keep-alive loop (`overrideCommand` defaults to true) or the
 * image's: the launch has no argv, so no rule judges a job it runs. Not read (yet):
 * mounts and workspaceMount.
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

/* Word `s` (len bytes) whose byte k is at `at` + k columns, or, when `from` is a scalar,
 * where its bytes are in the file. */
static void add_arg(struct args *g, const char *s, size_t len, struct gl_loc at,
                    struct yt_stream *ys, const struct yt_node *from)
{
    struct gl_arena *a = &g->doc->arena;
    size_t off = g->text.len;
    gl_buf_add(&g->text, s, len);
    if (from) {
        struct gl_srcmap one;
        gl_srcmap_init(&one, a);
        yt_scalar_srcmap(ys, from, &one);
        gl_srcmap_append(g->map, off, &one, 0, len);
    } else {
        gl_srcmap_add(g->map, off, at.line, at.col);
    }
    struct gl_word *w = GL_APPEND(a, g->w, g->n, g->cap);
    size_t k = g->n - 1;
    if (k >= g->capi) { /* the infos grow beside the words */
        size_t cap = g->capi;
        g->wi = gl_arena_grow(a, g->wi, k, sizeof *g->wi, &cap);
        g->capi = cap;
    }
    struct sh_span *sp = gl_arena_alloc(a, sizeof *sp);
    *sp = (struct sh_span){0, off, len, true, false};
    w->text = gl_arena_strndup(a, s, len);
    w->len = gl_word_len(w->text);
    w->loc = at;
    g->wi[k] = (struct sh_word_info){.len = len, .src = off, .spans = sp, .nspans = 1};
}

/* Past the limit parse-memory (the arena's allocations still succeed): stop reading the
 * items of a runArgs list or containerEnv mapping at item `v`, GL900 there. */
static bool stop_at(struct gl_doc *doc, const struct yt_node *v)
{
    if (!gl_arena_over(&doc->arena))
        return false;
    gl_doc_fail_limit(doc, GL_LIMIT_PARSE_MEMORY, v->loc);
    return true;
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
