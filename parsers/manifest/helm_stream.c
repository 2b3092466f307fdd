/* SPDX-License-Identifier: Apache-2.0 */
/*
 * helm_stream.c: a rendered Helm stream (the output of `helm template`) read as
 * Kubernetes manifests whose positions point into the chart's templates.
 *
 * The objects are read by the Kubernetes parser (k8s.h), the stream as one input: all
 * the chart's pods run together. Then doc->render (model_template.h) records where each
 * line came from: helm writes `---` and `# Source: CHART/templates/x.yaml` before each
 * object; the lines after it belong to that template and are matched to its lines by
 * helm_align.h. Which file a `# Source:` path names:
 *  - a chart the engine rendered (doc->chart_dir set): the path less its first part (the
 *    chart's name) under that directory (`charts/hami/templates/x.yaml`);
 *  - otherwise (standard input, --type helm): the path as written, read from the working
 *    directory when it is relative and has no `..` part. A template that cannot be read
 *    (none there, not a regular file, over the limit input-size) keeps the path as
 *    written, and its lines are numbered as `helm template --show-only PATH` prints
 *    them: each object counts the `---` and `# Source:` lines before it.
 * A chart's rendered output that is not valid YAML is no parse error: the chart is then
 * a template that could not be read (doc->tmpl, GL903).
 *
 * Recognition (gl_input_helm): `--type helm`, or standard input whose first line is
 * `# Source: ...` or a `---` followed by one. Named files with helm's output are read as
 * Kubernetes manifests: the file is what is linted (its priority is after `kubernetes`).
 */
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "linter/core/hashmap.h"
#include "linter/core/inputs.h"
#include "linter/core/limits.h"
#include "parsers/manifest/helm_align.h"
#include "parsers/manifest/k8s.h"

static const char source_tag[] = "# Source: ";

/* The path of a `# Source: PATH` line text[start, end), or NULL. */
static const char *source_of(const char *text, size_t start, size_t end, size_t *len)
{
    size_t n = sizeof source_tag - 1;
    if (end - start <= n || memcmp(text + start, source_tag, n))
        return NULL;
    while (end > start + n && (text[end - 1] == '\r' || text[end - 1] == ' '))
        end--;
    *len = end - start - n;
    return *len ? text + start + n : NULL;
}

static bool separator(const char *text, size_t start, size_t end)
{
    while (end > start && (text[end - 1] == '\r' || text[end - 1] == ' '))
        end--;
    return end - start == 3 && !memcmp(text + start, "---", 3);
}

/* A template named by the stream, and the sections (objects) it rendered. */
struct source {
    const char *written;   /* the `# Source:` path */
    const char *shown;     /* as findings name it */
    const char *read;      /* the file to read, NULL when it must not be read */
    size_t first_section, last_section;
};

struct section {
    size_t source_line;    /* the `# Source:` line (0-based) */
    size_t end;            /* one past its last line */
    uint32_t file;
    size_t next;           /* the next section of the same file, SIZE_MAX at the end */
};

/* Is `p` a relative path without `..` parts (safe to read from the working directory)? */
static bool tame_path(const char *p)
{
    if (p[0] == '/')
        return false;
    for (const char *s = p; (s = strstr(s, "..")); s += 2)
        if ((s == p || s[-1] == '/') && (s[2] == '/' || s[2] == '\0'))
            return false;
    return true;
}

static void resolve(struct gl_doc *doc, struct source *src)
{
    src->shown = src->written;
    src->read = tame_path(src->written) ? src->written : NULL;
    const char *slash = strchr(src->written, '/');
    if (doc->chart_dir && slash && src->read) {
        src->shown = gl_arena_printf(&doc->arena, "%s/%s", doc->chart_dir, slash + 1);
        src->read = src->shown;
    }
}

/* A template's text (heap, NUL-terminated), or NULL when it cannot be read. */
static char *read_template(const char *path, size_t *len)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
    struct stat st;
    if (fd < 0)
        return NULL;
    char *data = NULL;
    bool over = false;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) ||
        gl_read_fd(fd, NULL, 0, (size_t)st.st_size, (size_t)gl_limit(GL_LIMIT_INPUT_SIZE),
                   &data, len, &over) != 0 || over) {
        free(data);
        data = NULL;
    }
    close(fd);
    return data;
}

/* Number the lines of an unreadable template's sections as --show-only prints them. */
static void number_as_shown(const struct source *src, const struct section *secs,
                            struct gl_render_line *out)
{
    uint32_t shown = 0;
    for (size_t s = src->first_section; s != SIZE_MAX; s = secs[s].next) {
        const struct section *sec = &secs[s];
        shown += 2; /* `---` and `# Source:` */
        for (size_t i = sec->source_line; i < sec->end; i++)
            out[i] = (struct gl_render_line){.file = sec->file,
                                             .line = shown + (uint32_t)(i - sec->source_line),
                                             .exact_cols = UINT32_MAX, .rest_col = 1};
        shown += (uint32_t)(sec->end - sec->source_line - 1);
    }
}

static void map_source(struct gl_doc *doc, const struct source *src, const struct section *secs,
                       const uint32_t *starts, size_t nlines, struct gl_render_line *out)
{
    size_t len = 0;
    char *text = src->read ? read_template(src->read, &len) : NULL;
    if (!text) {
        number_as_shown(src, secs, out);
        return;
    }
    struct gl_arena scratch;
    gl_arena_init(&scratch);
    struct helm_tmpl t;
    helm_tmpl_init(&t, &scratch, text, len);
    for (size_t s = src->first_section; s != SIZE_MAX; s = secs[s].next)
        helm_align(&t, doc->text, doc->len, starts, nlines, secs[s].source_line + 1, secs[s].end,
                   secs[s].file, out);
    helm_tmpl_free(&t);
    /* the `# Source:` line itself: the template's first line */
    for (size_t s = src->first_section; s != SIZE_MAX; s = secs[s].next)
        out[secs[s].source_line] = (struct gl_render_line){.file = secs[s].file, .line = 1,
                                                           .rest_col = 1};
    gl_arena_free(&scratch);
    free(text);
}

/* The sections of the stream and the templates they name. */
struct scan {
    struct source *srcs;
    size_t nsrcs, capsrcs;
    struct section *secs;
    size_t nsecs, capsecs;
};

static void add_section(struct gl_doc *doc, struct scan *sc, struct gl_map *byname,
                        const char *path, size_t plen, size_t line)
{
    bool added; /* keys are the paths in doc->text, which outlives the map */
    void **slot = gl_map_put(byname, path, plen, &added);
    if (added) {
        *slot = (void *)(uintptr_t)(sc->nsrcs + 1);
        struct source *src = GL_APPEND(&doc->arena, sc->srcs, sc->nsrcs, sc->capsrcs);
        memset(src, 0, sizeof *src);
        src->written = gl_arena_strndup(&doc->arena, path, plen);
        src->first_section = src->last_section = SIZE_MAX;
        resolve(doc, src);
    }
    size_t f = (size_t)(uintptr_t)*slot - 1;
    struct section *sec = GL_APPEND(&doc->arena, sc->secs, sc->nsecs, sc->capsecs);
    *sec = (struct section){.source_line = line, .end = line + 1, .file = (uint32_t)f,
                            .next = SIZE_MAX};
    struct source *src = &sc->srcs[f];
    if (src->last_section == SIZE_MAX)
        src->first_section = sc->nsecs - 1;
    else
        sc->secs[src->last_section].next = sc->nsecs - 1;
    src->last_section = sc->nsecs - 1;
}

static void build_render(struct gl_doc *doc)
{
    if (doc->len >= UINT32_MAX)
        return;
    size_t nlines = 1;
    for (size_t i = 0; i < doc->len; i++)
        nlines += doc->text[i] == '\n';
    uint32_t *starts = gl_arena_alloc(&doc->arena, nlines * sizeof *starts);
    struct gl_render_line *out = gl_arena_alloc(&doc->arena, nlines * sizeof *out);
    if (!starts || !out)
        return;
    struct scan sc = {0};
    struct gl_map byname;
    gl_map_init(&byname);
    size_t n = 0;
    for (size_t start = 0; n < nlines; n++) {
        const char *nl = memchr(doc->text + start, '\n', doc->len - start);
        size_t end = nl ? (size_t)(nl - doc->text) : doc->len;
        starts[n] = (uint32_t)start;
        out[n] = (struct gl_render_line){.file = UINT32_MAX};
        size_t plen;
        const char *path = source_of(doc->text, start, end, &plen);
        if (path) {
            add_section(doc, &sc, &byname, path, plen, n);
        } else if (sc.nsecs && !separator(doc->text, start, end)) {
            sc.secs[sc.nsecs - 1].end = n + 1; /* a `---` ends it (the next one's) */
        }
        start = end + 1;
    }
    gl_map_free(&byname);
    if (!sc.nsrcs)
        return;
    struct gl_render *r = gl_arena_alloc(&doc->arena, sizeof *r);
    for (size_t i = 0; i < sc.nsrcs; i++) {
        *GL_APPEND(&doc->arena, r->files, r->nfiles, r->capfiles) = sc.srcs[i].shown;
        map_source(doc, &sc.srcs[i], sc.secs, starts, nlines, out);
    }
    r->lines = out;
    r->nlines = nlines;
    doc->render = r;
}

static void parse(struct gl_doc *doc, const struct gl_config *cfg)
{
    gl_parse_k8s_doc(doc, cfg);
    if (doc->error.set && doc->chart_dir) {
        doc->tmpl = (struct gl_template){
            .kind = GL_TEMPLATE_CHART,
            .loc = {1, 1},
            .chart = doc->chart_dir,
            .why = gl_arena_printf(&doc->arena, "what it renders is not valid YAML: %s at line %u",
                                   doc->error.message, (unsigned)doc->error.loc.line)};
        doc->error.set = false;
        gl_doc_drop_facts(doc);
        return;
    }
    if (!doc->error.set)
        build_render(doc);
}

static bool by_content(const char *path, const char *data, size_t len)
{
    (void)path;
    size_t n = sizeof source_tag - 1;
    if (len >= 4 && !memcmp(data, "---", 3) && (data[3] == '\n' || data[3] == '\r')) {
        size_t skip = data[3] == '\r' && len > 4 && data[4] == '\n' ? 5 : 4;
        data += skip;
        len -= skip;
    }
    return len > n && !memcmp(data, source_tag, n);
}

const struct gl_input_type gl_input_helm = {
    .kind = GL_IN_HELM,
    .name = "helm",
    .priority = 22,
    .by_name = NULL,
    .candidate = NULL,
    .by_content = by_content,
    .parse = parse,
};
