/* SPDX-License-Identifier: Apache-2.0 */
/* GL304 layer-waste: bytes added by one layer and removed by a later one still ship. In a
 * Dockerfile: files COPY/ADDed, or packages installed, by one instruction and deleted or
 * purged by a later RUN of the shipped image. */
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rules/check.h"
#include "rules/gl3xx/build_tools.h"

#define ITEMS_MAX 64  /* items kept for one image (hostile inputs) */
#define ITEMS_SHOWN 3 /* largest items the message names */
/* Removals and COPY sources compared (a hostile Dockerfile could pair millions). */
#define REMOVALS_MAX 1024
#define COPIES_MAX 1024
#define PKGS_MAX 4096

struct item {
    const char *what;     /* the path or package */
    int64_t bytes;        /* -1 unknown */
    bool toolchain;       /* a purged compiler or development package */
    struct gl_loc at;     /* the delete or purge token */
    uint32_t added_line;  /* the instruction that added it */
    const char *added_by; /* "COPY", "ADD", "apt-get install" */
};

/* Package names as the manager compares them (pip: case and -/_ do not matter). */
static bool same_package(const char *a, const char *b, bool pip)
{
    if (!pip)
        return !strcmp(a, b);
    for (; *a && *b; a++, b++) {
        char x = *a == '_' ? '-' : *a, y = *b == '_' ? '-' : *b;
        if ((x | 0x20) != (y | 0x20) && x != y)
            return false;
    }
    return !*a && !*b;
}

/* The path a COPY/ADD source lands at in the image (a directory source: its destination,
 * the root of what it brought), or NULL when unknown. */
static const char *copied_path(const struct gl_doc *doc, struct gl_arena *a,
                               const struct gl_copy_src *s)
{
    if (!s->dest || strchr(s->dest, '$'))
        return NULL;
    const char *dest = gl_image_path(a, s->workdir, s->dest);
    if (!dest)
        return NULL;
    bool into_dir = gl_has_suffix(s->dest, "/") || !strcmp(s->dest, ".");
    if (into_dir && gl_df_copy_size(doc, s) >= 0)
        return gl_arena_printf(a, "%s%s%s", dest, *dest ? "/" : "", gl_base_name(s->path));
    return dest;
}

static bool under(const char *path, const char *dir)
{
    size_t n = strlen(dir);
    return !strncmp(path, dir, n) && (path[n] == '/' || (n && dir[n - 1] == '/'));
}

/* Items a path deletion `rm D` makes of earlier COPY/ADDs (paths[i]: where copy i landed,
 * NULL when unknown or not shipped). */
static void path_items(const struct gl_doc *doc, struct gl_arena *a, const struct gl_removal *r,
                       const char *const *paths, size_t ncopies, struct item *items, size_t *n,
                       bool *used)
{
    const struct gl_dockerfile_model *m = doc->df;
    size_t first = 0; /* the first copy it could delete: most deletions (apt lists, caches)
                         follow no COPY of the shipped image, and need no path made */
    while (first < ncopies && (used[first] || !paths[first] || !*paths[first] ||
                               m->copies[first].instr >= r->instr))
        first++;
    if (first == ncopies)
        return;
    const char *d = gl_image_path(a, r->workdir, r->name);
    if (!d || !*d || !strcmp(d, "/") || strchr(r->name, '$'))
        return;
    bool glob = strpbrk(d, "*?[") != NULL;
    for (size_t i = first; i < ncopies && *n < ITEMS_MAX; i++) {
        const struct gl_copy_src *s = &m->copies[i];
        const char *p = paths[i];
        if (used[i] || !p || !*p || s->instr >= r->instr)
            continue;
        bool whole = !strcmp(p, d) || under(p, d) || (glob && !fnmatch(d, p, FNM_PATHNAME));
        bool part = !whole && under(d, p) && gl_df_copy_size(doc, s) < 0;
        if (!whole && !part)
            continue;
        used[i] = true;
        items[(*n)++] = (struct item){whole ? p : d, whole ? gl_df_copy_size(doc, s) : -1,
                                      false, r->loc,
                                      gl_doc_line(doc, s->loc), s->add ? "ADD" : "COPY"};
    }
}

/* The item a package removal makes of an earlier install of the same package (by the
 * same family of managers: apt's packages are removed by apt-get, dnf's by yum). */
static void package_item(const struct gl_doc *doc, struct gl_arena *a,
                         const struct gl_removal *r, struct item *items, size_t *n)
{
    const struct gl_dockerfile_model *m = doc->df;
    unsigned fam = r->family;
    for (size_t i = 0; i < m->npkgs && i < PKGS_MAX && *n < ITEMS_MAX; i++) {
        const struct gl_pkg *p = &m->pkgs[i];
        /* the names first: they differ for nearly every package, told in a byte or two */
        if (p->instr >= r->instr || p->requirements || !p->name ||
            !same_package(p->name, r->name, fam == GL_PKG_PIP) ||
            !gl_df_stage_shipped(doc, p->stage) || p->family != fam)
            continue;
        bool tool = gl_pkg_family_os(p->family) && gl_build_tool_package(p->name, p->group);
        items[(*n)++] = (struct item){r->name, -1, tool, r->loc, gl_doc_line(doc, p->loc),
                                      p->manager};
        items[*n - 1].added_by = gl_arena_printf(a, "%s install", p->manager);
        return;
    }
}

/* "12.0 MiB", "4.0 KiB", "512 bytes" */
static const char *size_text(uint64_t n, char *buf, size_t len)
{
    if (n >= (UINT64_C(1) << 30))
        snprintf(buf, len, "%.1f GiB", (double)n / (double)(UINT64_C(1) << 30));
    else if (n >= (1u << 20))
        snprintf(buf, len, "%.1f MiB", (double)n / (1u << 20));
    else if (n >= 1024)
        snprintf(buf, len, "%.1f KiB", (double)n / 1024);
    else
        snprintf(buf, len, "%llu bytes", (unsigned long long)n);
    return buf;
}

static int by_size(const void *x, const void *y)
{
    const struct item *a = x, *b = y;
    if (a->toolchain != b->toolchain)
        return a->toolchain ? -1 : 1;
    return a->bytes < b->bytes ? 1 : a->bytes > b->bytes ? -1 : 0;
}

static void describe(struct gl_buf *b, const struct item *it)
{
    char size[32];
    gl_buf_printf(b, "`%s`", it->what);
    if (it->bytes >= 0)
        gl_buf_printf(b, " (%s, %s at line %u)", size_text((uint64_t)it->bytes, size, sizeof size),
                      it->added_by, it->added_line);
    else
        gl_buf_printf(b, " (%s at line %u)", it->added_by, it->added_line);
}

/* An image archive: per platform, the bytes of lower-layer files that upper layers delete
 * (whiteouts) or replace, at the largest such file. */
static void check_image(struct gl_check *c)
{
    const struct gl_image_model *im = c->doc->image;
    for (size_t i = 0; im && i < im->nplatforms; i++) {
        const struct gl_image_platform *p = &im->platforms[i];
        const struct gl_image_waste *w = &p->waste;
        if (!w->ntop || w->bytes < c->cfg->waste_bytes)
            continue;
        const struct gl_image_waste_item *top = &w->top[0];
        const char *layer = top->layer >= 0 && (size_t)top->layer < p->nlayers
                                ? p->layers[top->layer].digest : NULL;
        struct gl_image_site at = {p->name, layer, top->path};
        char short_layer[96];
        struct gl_buf head, said, tail;
        gl_buf_init(&head);
        gl_buf_init(&said);
        gl_buf_init(&tail);
        char size[32];
        gl_buf_printf(&head, "%s in %zu files of lower layers are deleted or overwritten by "
                             "later layers and still ship; the largest: `/%s`",
                      size_text(w->bytes, size, sizeof size), w->files, top->path);
        gl_buf_printf(&said, " (%s, layer %s)", p->name,
                      gl_finding_short_layer(layer, short_layer, sizeof short_layer));
        gl_buf_printf(&tail, " (%s, %s)", size_text(top->size, size, sizeof size),
                      top->overwritten ? "overwritten" : "deleted");
        for (size_t k = 1; k < w->ntop; k++)
            gl_buf_printf(&tail, ", `/%s` (%s, %s)", w->top[k].path,
                          size_text(w->top[k].size, size, sizeof size),
                          w->top[k].overwritten ? "overwritten" : "deleted");
        gl_report_image(c, c->rule->severity, &at, NULL, gl_buf_str(&head), gl_buf_str(&said),
                        gl_buf_str(&tail));
        gl_buf_free(&head);
        gl_buf_free(&said);
        gl_buf_free(&tail);
    }
}

static void check(struct gl_check *c)
{
    check_image(c);
    const struct gl_dockerfile_model *m = c->doc->df;
    if (!m || !m->nremovals)
        return;
    struct gl_arena a;
    gl_arena_init(&a);
    struct item items[ITEMS_MAX];
    size_t n = 0;
    size_t ncopies = m->ncopies < COPIES_MAX ? m->ncopies : COPIES_MAX;
    /* the copies' flags and paths: on the stack for the usual few, else on the heap */
    bool used_few[32] = {false};
    const char *paths_few[32] = {NULL};
    bool *used = ncopies < 32 ? used_few : calloc(ncopies + 1, sizeof *used);
    const char **paths = ncopies < 32 ? paths_few : calloc(ncopies + 1, sizeof *paths);
    bool paths_made = false; /* at the first path deletion: a doc without one asks none */
    size_t nremovals = m->nremovals < REMOVALS_MAX ? m->nremovals : REMOVALS_MAX;
    for (size_t i = 0; i < nremovals && n < ITEMS_MAX; i++) {
        const struct gl_removal *r = &m->removals[i];
        if (r->instr < 0 || !gl_df_stage_shipped(c->doc, r->stage))
            continue;
        if (r->family == GL_PKG_RM && !paths_made) {
            for (size_t k = 0; k < ncopies; k++)
                if (gl_df_stage_shipped(c->doc, m->copies[k].stage))
                    paths[k] = copied_path(c->doc, &a, &m->copies[k]);
            paths_made = true;
        }
        if (r->family == GL_PKG_RM)
            path_items(c->doc, &a, r, paths, ncopies, items, &n, used);
        else
            package_item(c->doc, &a, r, items, &n);
    }
    if (used != used_few) {
        free(used);
        free(paths);
    }
    uint64_t known = 0;
    bool tool = false;
    for (size_t i = 0; i < n; i++) {
        known += items[i].bytes > 0 ? (uint64_t)items[i].bytes : 0;
        tool = tool || items[i].toolchain;
    }
    if (n && (tool || known >= c->cfg->waste_bytes)) {
        qsort(items, n, sizeof *items, by_size);
        struct gl_buf b;
        char size[32];
        gl_buf_init(&b);
        if (tool)
            gl_buf_printf(&b, "the build toolchain `%s` is installed at line %u and removed "
                              "here by a later RUN: its layer still ships it",
                          items[0].what, items[0].added_line);
        else
            gl_buf_printf(&b, "%s added by earlier instructions are deleted here by a "
                              "later RUN and still ship in their layers",
                          size_text(known, size, sizeof size));
        size_t first = tool ? 1 : 0, shown = 0;
        if (first < n)
            gl_buf_adds(&b, tool ? "; also " : ": ");
        for (size_t i = first; i < n && shown < ITEMS_SHOWN; i++, shown++) {
            if (shown)
                gl_buf_adds(&b, ", ");
            describe(&b, &items[i]);
        }
        if (n > first + shown)
            gl_buf_printf(&b, " and %zu more", n - first - shown);
        gl_report(c, items[0].at, NULL, "%s", gl_buf_str(&b));
        gl_buf_free(&b);
    }
    gl_arena_free(&a);
}

const struct gl_rule gl_rule_GL304 = {
    .id = "GL304",
    .name = "layer-waste",
    .severity = GL_SEV_INFO,
    .summary = "bytes added by one layer are removed or overwritten by a later one and still "
               "ship (a purged build toolchain; COPY/ADD files deleted by a later RUN)",
    .explanation =
        "Every instruction of a Dockerfile is a layer, and an image ships all its layers: a "
        "file deleted by a later RUN is hidden, not removed, so its bytes are still pulled "
        "and stored. A build toolchain installed in one RUN and purged in a later one "
        "(apt-get install build-essential ... then apt-get purge build-essential) ships in "
        "full; so does a file COPYed or ADDed and deleted afterwards. One finding per "
        "shipped image, at the deleting token of the first toolchain or of the largest item, "
        "naming the largest items: always for a purged build toolchain, otherwise when the "
        "known sizes (files of the build context) reach `waste-size` (default 10 MiB). In an "
        "image archive: the regular files of lower layers that later layers delete "
        "(whiteouts) or overwrite, one finding per platform when their bytes reach "
        "`waste-size`, at the largest such file.",
    .bad = "FROM ubuntu:22.04\n"
           "RUN apt-get update && apt-get install -y build-essential\n"
           "RUN make -C /src && apt-get purge -y build-essential",
    .good = "FROM ubuntu:22.04\n"
            "RUN apt-get update && apt-get install -y build-essential && make -C /src && \\\n"
            "    apt-get purge -y build-essential && rm -rf /var/lib/apt/lists/*",
    .fix = "install, use and delete in one RUN (or RUN --mount=type=bind for files), or build "
           "in an earlier stage and COPY --from only what the image needs",
    .check = check,
};
