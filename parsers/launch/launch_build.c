/* SPDX-License-Identifier: Apache-2.0 */
/* launch_build.c: commands that make images, in shell text (see launch_shell.h): the tags
 * they give become project images (model_ref.h) of the doc.
 *
 *   docker|podman|nerdctl|nvidia-docker build|buildx build|image build|builder build
 *       -t X, --tag X, --tag=X, -tX, -t=X, -qt X         GL_PROJECT_BUILT
 *   buildah bud|build|build-using-dockerfile -t X         GL_PROJECT_BUILT
 *       and [-f FILE] [--build-arg K=V]... CONTEXT          GL_PROJECT_ARG_SET (a build)
 *   docker|podman|nerdctl|buildah tag SRC X [X...]       GL_PROJECT_BUILT (each X)
 *   $ENGINE build|buildx build -t X; $ENGINE tag SRC X  (an engine in a variable)
 *                                                        GL_PROJECT_BUILT (no build)
 *   docker|podman commit [opts] CONTAINER X; buildah commit [opts] CONTAINER X
 *                                                        GL_PROJECT_BUILT
 *   docker|podman [image] load -i FILE, --input FILE, --input=FILE, < FILE
 *       the name of FILE without its archive suffix (.tar, .tar.gz, .tgz, .tar.xz,
 *       .tar.zst, .tar.bz2): `docker save -o NAME.tar NAME` is the convention, and the
 *       image `docker run NAME` starts after the load comes from the file, not from a
 *       registry; a file with none of those suffixes names nothing  GL_PROJECT_BUILT
 *   kaniko executor -d X, --destination X, --destination=X   GL_PROJECT_BUILT
 *   mlserver build DIR -t X; cog build -t X; bentoml containerize BENTO -t X
 *   (--image-tag X); repo2docker --image-name X              GL_PROJECT_BUILT
 *   any other command with --dockerfile F / --docker-file F (a project's build helper)
 *       --repository X, --image-name X, --image X, -t X, --tag X  GL_PROJECT_BUILT
 *   kustomize edit set image NAME=NEW / NAME:TAG / NAME@DIGEST (several)
 *       the NAME, GL_PROJECT_RENAMED and/or GL_PROJECT_RETAGGED as the new value says
 *       (an unresolved value: both)
 * Option values are not tabled: a word `-t` / `--tag` takes the next word, whatever came
 * before (no value of another option is ever spelled `-t`); operands are the words that
 * do not start with '-' after the values of the few options that take one. A word that is
 * exactly one unquoted unresolved expansion may stand for several words (`docker build
 * $ARGS .`): it hides whatever tags it holds, and the operands after it are unknown.
 * Each tag's pattern keeps its unresolved parts as '*'. A tag that is exactly one variable
 * (`-t "$IMG"`) set to different literal names on different paths of the script (`IMG=app`,
 * `IMG=app-gpu` in a `case` branch: sh_vars_values) adds each of those names too.
 */
#include <string.h>

#include "linter/core/text.h"
#include "parsers/launch/launch_internal.h"

/* The name of the variable that value v is exactly (`$IMG`, `${IMG}`, quoted or not), as
 * [*name, *name + return); 0 when it is something else. */
static size_t sole_variable(const struct lv *v, const char **name)
{
    const char *t = v->text;
    size_t n = v->len, braced = n > 3 && t[1] == '{' && t[n - 1] == '}';
    if (n < 2 || t[0] != '$')
        return 0;
    *name = t + 1 + braced;
    size_t len = n - 1 - 2 * braced;
    for (size_t i = 0; i < len; i++) /* (class 1: a name's first byte; 2: a later one) */
        if (gl_name_class[(unsigned char)(*name)[i]] != 1 &&
            (!i || !gl_name_class[(unsigned char)(*name)[i]]))
            return 0;
    return len;
}

static void add_tag(const struct gl_launch_scan *scan, const struct lv *v, unsigned what,
                    const char *tool)
{
    struct gl_doc *doc = scan->doc;
    if (!v->len)
        return;
    gl_project_add(doc, what, v->text, lv_pattern(&doc->arena, v), lv_loc(v, 0), tool);
    /* `-t "$IMG"` where IMG is set to one name or another (`IMG=app` then `IMG=app-gpu` in
     * a `case` branch): the project builds each of them */
    const char *name, *vals[SH_VAR_MAX_ALTS];
    size_t lens[SH_VAR_MAX_ALTS], nlen = v->opaque ? sole_variable(v, &name) : 0;
    size_t n = nlen ? sh_vars_values(scan->text_vars, name, nlen, vals, lens,
                                     SH_VAR_MAX_ALTS)
                    : 0;
    for (size_t i = 0; i < n; i++)
        if (lens[i])
            gl_project_add(doc, what, gl_arena_strndup(&doc->arena, vals[i], lens[i]), NULL,
                           lv_loc(v, 0), tool);
}

/* Is word w a short-option bundle of boolean letters `bools` ending in `letter` with
 * its value attached or next (`-t`, `-qt`, `-tX`, `-t=X`)? *val_off is where an attached
 * value starts (0: the value is the next word). */
static bool short_opt(const char *w, const char *bools, char letter, size_t *val_off)
{
    if (w[0] != '-' || w[1] == '-' || !w[1])
        return false;
    size_t i = 1;
    while (w[i] && w[i] != letter && strchr(bools, w[i]))
        i++;
    if (w[i] != letter)
        return false;
    *val_off = w[i + 1] ? i + 1 + (w[i + 1] == '=') : 0;
    return true;
}

/* Value v of option `name`: a tag names the image whole; `--build-context NAME=VALUE`
 * names a context NAME that `FROM NAME` / `COPY --from=NAME` take instead of a registry
 * image (a project image, as a bake file's `contexts` key), when NAME is literal. */
static void add_value(const struct gl_launch_scan *scan, const struct lv *v, const char *name,
                      const char *tool)
{
    if (strcmp(name, "build-context")) {
        add_tag(scan, v, GL_PROJECT_BUILT, tool);
        return;
    }
    size_t n = strcspn(v->text, "=");
    if (!n || !v->text[n])
        return;
    struct lv k = lv_sub(&scan->doc->arena, v, 0, n);
    if (!k.opaque)
        add_tag(scan, &k, GL_PROJECT_BUILT, tool);
}

/* The values of `-<letter>` / `--<name>` among words [first, n) of cmd. */
static void option_values(const struct gl_launch_scan *scan, const struct sh_cmd *cmd,
                          size_t first, char letter, const char *name, const char *tool)
{
    struct gl_doc *doc = scan->doc;
    size_t nlen = strlen(name);
    for (size_t i = first; i < cmd->nwords; i++) {
        const char *w = cmd->words[i].text;
        if (!strcmp(w, "--"))
            return;
        struct lv word = lv_word(&doc->arena, cmd, i);
        size_t off = 0;
        if (w[0] == '-' && w[1] == '-' && !strncmp(w + 2, name, nlen) &&
            (w[2 + nlen] == '=' || !w[2 + nlen])) {
            off = w[2 + nlen] == '=' ? 3 + nlen : 0;
        } else if (!letter || !short_opt(w, "q", letter, &off)) {
            continue;
        }
        if (off) {
            struct lv v = lv_sub(&doc->arena, &word, off, word.len - off);
            add_value(scan, &v, name, tool);
        } else if (i + 1 < cmd->nwords) {
            struct lv v = lv_word(&doc->arena, cmd, ++i);
            add_value(scan, &v, name, tool);
        }
    }
}

/* Is word i exactly one unquoted unresolved expansion (`$ARGS`), which may stand for any
 * number of words? (one inside a larger word, `repo:$(git describe)`, stays one word) */
static bool may_be_words(const struct sh_cmd *cmd, size_t i)
{
    const struct sh_word_info *in = &cmd->info[i];
    return in->may_split && in->nspans == 1 && in->spans[0].opaque;
}

/* Does option word w take the next word as its value (not `--x=y`)? */
static bool takes_next(const char *w, const char *shorts, const char *const *longs)
{
    if (w[0] == '-' && w[1] == '-') {
        for (size_t k = 0; longs[k]; k++)
            if (!strcmp(w + 2, longs[k]))
                return true;
        return false;
    }
    size_t n = strlen(w);
    return n == 2 && strchr(shorts, w[1]);
}

/* The operands after the first (the source image or container) of a tag or commit
 * command, `max` of them at most; stops at an unquoted unresolved word that may stand for
 * several. */
static void operands(const struct gl_launch_scan *scan, const struct sh_cmd *cmd, size_t first,
                     size_t max, const char *shorts, const char *const *longs,
                     const char *tool)
{
    struct gl_doc *doc = scan->doc;
    size_t k = 0;
    for (size_t i = first; i < cmd->nwords && k <= max; i++) {
        const char *w = cmd->words[i].text;
        if (may_be_words(cmd, i))
            return;
        if (w[0] == '-' && w[1]) {
            if (takes_next(w, shorts, longs))
                i++;
            continue;
        }
        if (k++ >= 1) {
            struct lv v = lv_word(&doc->arena, cmd, i);
            add_tag(scan, &v, GL_PROJECT_BUILT, tool);
        }
    }
}

static bool word_is(const struct sh_cmd *cmd, size_t i, const char *s)
{
    return i < cmd->nwords && !cmd->words[i].opaque && !strcmp(cmd->words[i].text, s);
}

static const char *const commit_long[] = {"author", "change", "message", "format", "iidfile",
                                          "authfile", "cert-dir", "creds", "sign-by",
                                          "signature-policy", "encryption-key", "manifest",
                                          "timestamp", "config", NULL};
static const char *const none_long[] = {NULL};

/* The options of docker/podman/buildah build that take the next word as their value. */
static const char *const build_long[] = {
    "tag", "file", "build-arg", "target", "platform", "network", "label", "cache-from",
    "cache-to", "secret", "ssh", "output", "progress", "iidfile", "add-host", "build-context",
    "shm-size", "ulimit", "cgroup-parent", "isolation", "memory", "memory-swap", "cpu-shares",
    "cpuset-cpus", "cpuset-mems", "cpu-period", "cpu-quota", "metadata-file", "attest",
    "sbom", "provenance", "allow", "builder", "annotation", "call", "security-opt",
    "build-arg-file", "env", "format", "layers", "volume", "authfile", "creds", "jobs",
    "manifest", "os", "arch", "variant", "runtime", "signature-policy", "logfile", NULL};

/* The value of `-f F` / `--file F` / `--file=F` / `--build-arg K=V` at word i as a pattern
 * (lv_pattern: each unresolved part one '*'; *next: it was the next word); NULL when word i
 * is not that option. */
static const char *opt_val(struct gl_doc *doc, const struct sh_cmd *cmd, size_t i,
                           const char *lng, char shrt, bool *next)
{
    const char *w = cmd->words[i].text;
    size_t n = strlen(lng);
    *next = false;
    if (w[0] == '-' && w[1] == '-' && !strncmp(w + 2, lng, n) && w[2 + n] == '=') {
        struct lv word = lv_word(&doc->arena, cmd, i);
        struct lv v = lv_sub(&doc->arena, &word, 3 + n, word.len - 3 - n);
        return lv_pattern(&doc->arena, &v);
    }
    if ((w[0] == '-' && w[1] == '-' && !strcmp(w + 2, lng)) ||
        (shrt && w[0] == '-' && w[1] == shrt && !w[2])) {
        *next = true;
        if (i + 1 >= cmd->nwords)
            return "";
        struct lv v = lv_word(&doc->arena, cmd, i + 1);
        return lv_pattern(&doc->arena, &v);
    }
    return NULL;
}

#define BUILD_NAMES 64

/* The build ARGs and file a build sets, as names[nnames] and file (NULL: the default). */
struct build_set {
    const char *file, *names[BUILD_NAMES];
    size_t nnames;
};

/* The next blank-separated word of v[*i, n), its quotes dropped, into buf (up to cap - 1
 * bytes); its length, 0 at the end. */
static size_t next_word(const char *v, size_t n, size_t *i, char *buf, size_t cap)
{
    size_t o = 0;
    while (*i < n && (v[*i] == ' ' || v[*i] == '\t' || v[*i] == '\n'))
        ++*i;
    for (; *i < n && v[*i] != ' ' && v[*i] != '\t' && v[*i] != '\n'; ++*i)
        if (v[*i] != '"' && v[*i] != '\'' && o + 1 < cap)
            buf[o++] = v[*i];
    buf[o] = 0;
    return o;
}

/* Read one value of a variable a build command names (`ARGS="--build-arg K=V -f F"`):
 * the ARGs it sets into *set. False when it holds an operand or a word that is again an
 * expansion (what it stands for is not known). */
static bool var_value_args(struct gl_doc *doc, const char *v, size_t n, struct build_set *set)
{
    char w[256], val[256];
    for (size_t i = 0; next_word(v, n, &i, w, sizeof w);) {
        bool arg = !strcmp(w, "--build-arg"), file = !strcmp(w, "-f") || !strcmp(w, "--file");
        const char *value = !strncmp(w, "--build-arg=", 12) ? w + 12
                            : !strncmp(w, "--file=", 7)     ? w + 7
                                                            : NULL;
        if (w[0] != '-' || strchr(w, '$') || strchr(w, '`'))
            return false;
        if ((arg || file || (!value && takes_next(w, "tfmco", build_long))) &&
            next_word(v, n, &i, val, sizeof val))
            value = val;
        arg = arg || !strncmp(w, "--build-arg=", 12);
        file = file || !strncmp(w, "--file=", 7);
        if (file && value && (strchr(value, '$') || set->file))
            return false;
        if (file && value)
            set->file = gl_arena_strdup(&doc->arena, value);
        const char *eq = arg && value ? strchr(value, '=') : NULL;
        if (eq && eq > value && !memchr(value, '$', (size_t)(eq - value)) &&
            set->nnames < BUILD_NAMES)
            set->names[set->nnames++] = gl_arena_strndup(&doc->arena, value, (size_t)(eq - value));
    }
    return true;
}

/* Word i of a build command is one variable holding options (launch_build_var_alts): add to
 * *set the ARGs that each value it takes sets, and its -f. False when it may hold anything
 * else, or its values name different files. */
static bool var_args(struct gl_launch_scan *scan, const struct sh_cmd *cmd, size_t i,
                     struct build_set *set)
{
    const char *vals[2 * SH_VAR_MAX_ALTS];
    size_t lens[2 * SH_VAR_MAX_ALTS];
    size_t n = launch_build_var_alts(scan, cmd, i, vals, lens, 2 * SH_VAR_MAX_ALTS);
    struct build_set common = {0};
    for (size_t a = 0; a < n; a++) {
        struct build_set one = {0};
        if (!var_value_args(scan->doc, vals[a], lens[a], &one) ||
            (a && (!one.file != !common.file || (one.file && strcmp(one.file, common.file)))))
            return false;
        if (!a) {
            common = one;
            continue;
        }
        size_t kept = 0; /* the names every value sets */
        for (size_t k = 0; k < common.nnames; k++)
            for (size_t m = 0; m < one.nnames; m++)
                if (!strcmp(common.names[k], one.names[m])) {
                    common.names[kept++] = common.names[k];
                    break;
                }
        common.nnames = kept;
    }
    if (!n || (common.file && set->file))
        return false;
    if (common.file)
        set->file = common.file;
    for (size_t k = 0; k < common.nnames && set->nnames < BUILD_NAMES; k++)
        set->names[set->nnames++] = common.names[k];
    return true;
}

/* `docker build [-f FILE] [--build-arg K=V]... CONTEXT`: a build of FILE (relative to the
 * working directory) or CONTEXT/Dockerfile that sets those ARGs (model_ref.h). A `K`
 * without `=V` takes the environment's value, which may be none: not counted. The options
 * may be kept in a variable (`$ARGS`, `"${ARGS[@]}"`: var_args), whose values then count
 * for the ARGs every one of them sets. Nothing for an unknown context, a URL, stdin, or
 * words that may stand for several of which nothing is known. */
static void build_args(struct gl_launch_scan *scan, const struct sh_cmd *cmd, size_t first,
                       const char *tool)
{
    struct gl_doc *doc = scan->doc;
    const char *ctx = NULL;
    struct build_set set = {0};
    for (size_t i = first; i < cmd->nwords; i++) {
        const char *w = cmd->words[i].text, *v;
        bool next = false;
        if (may_be_words(cmd, i) || (cmd->words[i].opaque && w[0] == '$')) {
            if (!var_args(scan, cmd, i, &set))
                return;
        } else if ((v = opt_val(doc, cmd, i, "file", 'f', &next))) {
            set.file = strchr(v, '*') ? "" : v;
        } else if ((v = opt_val(doc, cmd, i, "build-arg", 0, &next))) {
            const char *eq = strchr(v, '=');
            if (eq && eq > v && !memchr(v, '*', (size_t)(eq - v)) && set.nnames < BUILD_NAMES)
                set.names[set.nnames++] = gl_arena_strndup(&doc->arena, v, (size_t)(eq - v));
        } else if (w[0] == '-' && w[1]) {
            next = takes_next(w, "tfmco", build_long);
        } else if (ctx || cmd->words[i].opaque) {
            return; /* (two operands, or one not known) */
        } else {
            ctx = w;
        }
        i += next;
    }
    const char *file = set.file;
    if (!ctx || !*ctx || !strcmp(ctx, "-") || strstr(ctx, "://") || gl_has_prefix(ctx, "git@") ||
        (file && (!*file || !strcmp(file, "-"))))
        return;
    const char *path = file ? file : gl_arena_printf(&doc->arena, "%s/Dockerfile", ctx);
    gl_project_add_build(doc, path, true, set.names, set.nnames, cmd->words[first - 1].loc,
                         tool);
}

/* `docker load` from word `first`: its archive (-i/--input or a `<` redirection) names an
 * image of the project (see the top of this file). */
static void load_archive(struct gl_launch_scan *scan, const struct sh_cmd *cmd, size_t first)
{
    static const char *const suffixes[] = {".tar", ".tar.gz", ".tgz", ".tar.xz", ".tar.zst",
                                           ".tar.bz2"};
    struct lv file = {0};
    struct gl_loc redir_at = {0, 0}; /* a `< FILE`: where FILE is */
    for (size_t i = first; i < cmd->nwords && !file.text; i++) {
        const char *w = cmd->words[i].text;
        if (cmd->words[i].opaque)
            continue;
        if ((!strcmp(w, "-i") || !strcmp(w, "--input")) && i + 1 < cmd->nwords)
            file = lv_word(&scan->doc->arena, cmd, i + 1);
        else if (!strncmp(w, "--input=", 8))
            file = lv_sub(&scan->doc->arena, &(struct lv){cmd, i, 0, w, cmd->info[i].len,
                                                           false}, 8, SIZE_MAX);
    }
    for (size_t k = 0; k < cmd->nredirs && !file.text; k++)
        if (!strcmp(cmd->redirs[k].op, "<") && !cmd->redirs[k].target.opaque) {
            const struct gl_word *t = &cmd->redirs[k].target;
            file = (struct lv){NULL, 0, 0, t->text, gl_word_size(t), false};
            redir_at = t->loc;
        }
    if (!file.text || file.opaque)
        return;
    const char *base = file.text, *slash = memrchr(file.text, '/', file.len);
    size_t n = file.len;
    if (slash) {
        n -= (size_t)(slash + 1 - base);
        base = slash + 1;
    }
    for (size_t k = 0; k < sizeof suffixes / sizeof suffixes[0]; k++) {
        size_t sl = strlen(suffixes[k]);
        if (n > sl && !memcmp(base + n - sl, suffixes[k], sl)) {
            const char *name = gl_arena_strndup(&scan->doc->arena, base, n - sl);
            size_t off = (size_t)(base - file.text);
            struct gl_loc at = file.cmd ? lv_loc(&file, off)
                                        : (struct gl_loc){redir_at.line,
                                                          redir_at.col + (uint32_t)off};
            gl_project_add(scan->doc, GL_PROJECT_BUILT, name, NULL, at, "docker load");
            return;
        }
    }
}

void launch_build_docker(struct gl_launch_scan *scan, const struct sh_cmd *cmd, size_t sub)
{
    bool buildx = word_is(cmd, sub, "buildx");
    if ((buildx || word_is(cmd, sub, "image") || word_is(cmd, sub, "builder")) &&
        (word_is(cmd, sub + 1, "build") || (buildx && word_is(cmd, sub + 1, "b")))) {
        const char *tool = buildx ? "docker buildx build" : "docker build";
        option_values(scan, cmd, sub + 2, 't', "tag", tool);
        option_values(scan, cmd, sub + 2, 0, "build-context", tool);
        launch_build_var_options(scan, cmd, sub + 2, tool);
        build_args(scan, cmd, sub + 2, tool);
    } else if (word_is(cmd, sub, "build")) {
        option_values(scan, cmd, sub + 1, 't', "tag", "docker build");
        option_values(scan, cmd, sub + 1, 0, "build-context", "docker build");
        launch_build_var_options(scan, cmd, sub + 1, "docker build");
        build_args(scan, cmd, sub + 1, "docker build");
    } else if (word_is(cmd, sub, "tag") ||
               (word_is(cmd, sub, "image") && word_is(cmd, sub + 1, "tag"))) {
        operands(scan, cmd, sub + (word_is(cmd, sub, "tag") ? 1 : 2), SIZE_MAX, "",
                 none_long, "docker tag");
    } else if (word_is(cmd, sub, "commit")) {
        operands(scan, cmd, sub + 1, 1, "acmf", commit_long, "docker commit");
    } else if (word_is(cmd, sub, "load") ||
               (word_is(cmd, sub, "image") && word_is(cmd, sub + 1, "load"))) {
        load_archive(scan, cmd, sub + (word_is(cmd, sub, "load") ? 1 : 2));
    }
}

void launch_build_engine_var(struct gl_launch_scan *scan, const struct sh_cmd *cmd, size_t sub)
{
    size_t b = word_is(cmd, sub, "buildx") ? sub + 1 : sub;
    if (word_is(cmd, b, "build"))
        option_values(scan, cmd, b + 1, 't', "tag", "docker build");
    else if (word_is(cmd, sub, "tag"))
        operands(scan, cmd, sub + 1, SIZE_MAX, "", none_long, "docker tag");
}

void launch_build_buildah(struct gl_launch_scan *scan, const struct sh_cmd *cmd, size_t sub)
{
    if (word_is(cmd, sub, "bud") || word_is(cmd, sub, "build") ||
        word_is(cmd, sub, "build-using-dockerfile")) {
        option_values(scan, cmd, sub + 1, 't', "tag", "buildah build");
        build_args(scan, cmd, sub + 1, "buildah build");
    } else if (word_is(cmd, sub, "tag")) {
        operands(scan, cmd, sub + 1, SIZE_MAX, "", none_long, "buildah tag");
    } else if (word_is(cmd, sub, "commit")) {
        operands(scan, cmd, sub + 1, 1, "f", commit_long, "buildah commit");
    }
}

void launch_build_kaniko(struct gl_launch_scan *scan, const struct sh_cmd *cmd, size_t first)
{
    option_values(scan, cmd, first, 'd', "destination", "kaniko");
}

/* A project's own build helper (`python3 tools/ci_build/get_docker_image.py --dockerfile
 * FILE --repository NAME`, onnxruntime's): a command, from word `first` on, that names a
 * Dockerfile with --dockerfile / --docker-file builds an image, and the value of its
 * --repository, --image-name (--image_name), --image or -t / --tag names it. */
static void build_helper(struct gl_launch_scan *scan, const struct sh_cmd *cmd, size_t first)
{
    static const char *const files[] = {"--dockerfile", "--docker-file", NULL};
    static const char *const names[] = {"repository", "image-name", "image_name", "image",
                                        NULL};
    bool builds = false;
    for (size_t i = first; i < cmd->nwords && !builds; i++) {
        const char *w = cmd->words[i].text;
        if (!strcmp(w, "--"))
            return;
        for (size_t k = 0; files[k] && !builds; k++) {
            size_t n = strlen(files[k]);
            builds = !strncmp(w, files[k], n) && (!w[n] || w[n] == '=');
        }
    }
    if (!builds)
        return;
    for (size_t k = 0; names[k]; k++)
        option_values(scan, cmd, first, 0, names[k], "a build helper");
    option_values(scan, cmd, first, 't', "tag", "a build helper");
}

bool launch_build_other(struct gl_launch_scan *scan, const struct sh_cmd *cmd, size_t i,
                        const char *tool)
{
    /* serving and packaging tools that build a local image and tag it */
    static const struct {
        const char *tool, *sub, *sub2; /* sub NULL: the tool itself builds */
        char letter;                   /* the short tag option, 0: none */
        const char *name;              /* the long one */
    } tools[] = {
        {"mlserver", "build", NULL, 't', "tag"},
        {"cog", "build", NULL, 't', "tag"},
        {"bentoml", "containerize", NULL, 't', "image-tag"},
        {"repo2docker", NULL, NULL, 0, "image-name"},
        {"jupyter-repo2docker", NULL, NULL, 0, "image-name"},
        /* builds in the cluster's own runtime, where its pods find the image */
        {"minikube", "image", "build", 't', "tag"},
    };
    for (size_t k = 0; k < sizeof tools / sizeof tools[0]; k++) {
        if (!gl_streq(tool, tools[k].tool))
            continue;
        if ((tools[k].sub && !word_is(cmd, i + 1, tools[k].sub)) ||
            (tools[k].sub2 && !word_is(cmd, i + 2, tools[k].sub2)))
            return false;
        option_values(scan, cmd, i + 1 + (tools[k].sub != NULL) + (tools[k].sub2 != NULL),
                      tools[k].letter, tools[k].name, tools[k].tool);
        return true;
    }
    build_helper(scan, cmd, i + 1);
    return false;
}

/* `kustomize edit set image NAME=NEW...`: NEW is [NAME2][:TAG][@DIGEST] or `*:TAG`;
 * `NAME:TAG` and `NAME@DIGEST` alone retag NAME. */
void launch_build_kustomize(struct gl_launch_scan *scan, const struct sh_cmd *cmd, size_t sub)
{
    if (!word_is(cmd, sub, "edit") || !word_is(cmd, sub + 1, "set") ||
        !word_is(cmd, sub + 2, "image"))
        return;
    struct gl_doc *doc = scan->doc;
    for (size_t i = sub + 3; i < cmd->nwords; i++) {
        const char *w = cmd->words[i].text;
        if (w[0] == '-' || may_be_words(cmd, i))
            continue;
        struct lv word = lv_word(&doc->arena, cmd, i);
        const char *eq = strchr(w, '=');
        size_t name_len = eq ? (size_t)(eq - w) : strcspn(w, ":@");
        const char *pattern = lv_pattern(&doc->arena, &word);
        if (!name_len || memchr(pattern, '*', strcspn(pattern, "=")) != NULL)
            continue; /* the name itself is unknown */
        unsigned what = 0;
        if (!eq) {
            what = GL_PROJECT_RETAGGED;
        } else {
            struct lv v = lv_sub(&doc->arena, &word, name_len + 1, word.len - name_len - 1);
            size_t n = strcspn(v.text, ":@");
            if (v.opaque && strchr(lv_pattern(&doc->arena, &v), '*'))
                what = GL_PROJECT_RENAMED | GL_PROJECT_RETAGGED; /* `controller=${IMG}` */
            else /* `*:TAG` keeps the name */
                what = (n && !(n == 1 && v.text[0] == '*') ? GL_PROJECT_RENAMED : 0) |
                       (v.text[n] ? GL_PROJECT_RETAGGED : 0);
        }
        struct lv name = lv_sub(&doc->arena, &word, 0, name_len);
        if (what)
            gl_project_add(doc, what, name.text, name.text, lv_loc(&name, 0),
                           "kustomize edit set image");
    }
}
