/* SPDX-License-Identifier: Apache-2.0 */
/* cuda_derive_reqs.c: CUDA facts from the files an install reads, when they lie in the
 * build context (see cuda_derive.h): requirements files of `pip install -r FILE` and conda
 * spec lists of `--file FILE` here; pyproject.toml, uv.lock and conda environment files
 * through cuda_derive_proj.c. */
#include "knowledge/derive/cuda_derive_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define REQ_FILE_CAP (1u << 20)   /* bytes read from one requirements or project file */
#define LOCK_FILE_CAP (8u << 20)  /* bytes read from one uv.lock (large projects lock
                                     thousands of wheels) */
#define REQ_FILES_MAX 32        /* files read for one doc */

/* A relative path without "..", without NUL, not empty. */
static bool contained_name(const char *p)
{
    if (!*p || p[0] == '/' || strlen(p) > 1024)
        return false;
    for (const char *s = p; *s;) {
        const char *slash = strchr(s, '/');
        size_t n = slash ? (size_t)(slash - s) : strlen(s);
        if (n == 2 && s[0] == '.' && s[1] == '.')
            return false;
        s += n + (slash ? 1 : 0);
    }
    return true;
}

/* Read dir/name into the arena when it resolves inside dir; NULL otherwise. */
static char *read_in_context(struct gl_doc *doc, const char *dir, const char *name, size_t *len,
                             const char **shown, size_t cap)
{
    struct gl_arena *a = &doc->arena;
    char *joined = cd_path_join(a, dir, name);
    struct gl_probe pr; /* (the model or context_name may have asked already) */
    if (!gl_doc_probe(doc, joined, true, &pr) || !S_ISREG(pr.mode))
        return NULL; /* (most named files are not there: no realpath for them) */
    struct stat st;
    char real_dir[PATH_MAX], real_file[PATH_MAX];
    if (!realpath(dir, real_dir) || !realpath(joined, real_file))
        return NULL;
    size_t dl = strlen(real_dir);
    if (strncmp(real_file, real_dir, dl) != 0 || (real_file[dl] != '/' && dl != 1))
        return NULL;
    int fd = open(real_file, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
    if (fd < 0)
        return NULL;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size > (off_t)cap) {
        close(fd);
        return NULL;
    }
    char *buf = gl_arena_alloc(a, (size_t)st.st_size + 1);
    size_t n = gl_read_upto(fd, buf, (size_t)st.st_size);
    close(fd);
    buf[n] = '\0';
    *len = n;
    *shown = strcmp(dir, ".") ? joined : name;
    return buf;
}

static bool index_option(const char *w, size_t n, size_t *skip)
{
    static const char *const opts[] = {"--index-url", "--extra-index-url", "--find-links",
                                       "-i", "-f"};
    for (size_t i = 0; i < sizeof opts / sizeof opts[0]; i++) {
        size_t ol = strlen(opts[i]);
        if (n >= ol && !memcmp(w, opts[i], ol) &&
            (n == ol || w[ol] == '=' || w[ol] == ' ' || w[ol] == '\t')) {
            *skip = ol;
            return true;
        }
    }
    return false;
}

struct req_index {
    const char *url;
    struct gl_loc loc;
};

/* One requirements file: facts for its pins, and for its PyTorch index lines when it
 * pins torch packages. */
static void scan_file(struct cd_ctx *fc, const struct gl_pkg *p)
{
    struct cd_ctx c = *fc;
    struct gl_arena *a = &c.doc->arena;
    const char *text = c.text;
    size_t len = c.len;
    struct req_index *idx = NULL;
    size_t nidx = 0, capidx = 0;
    bool torch = false;
    /* onnxruntime-gpu pins read PyPI's table only when the file names no other index */
    for (size_t start = 0; start < len;) {
        size_t end = start;
        while (end < len && text[end] != '\n')
            end++;
        size_t i = start, skip;
        while (i < end && (text[i] == ' ' || text[i] == '\t'))
            i++;
        if (i < end && text[i] == '-' && index_option(text + i, end - i, &skip))
            c.ort_feed = c.ort_feed < 0 ? -1
                                        : cd_ort_feed(gl_arena_strndup(a, text + i, end - i));
        start = end + 1;
    }
    uint32_t line = 1;
    for (size_t start = 0; start < len; line++) {
        size_t end = start;
        while (end < len && text[end] != '\n')
            end++;
        size_t i = start;
        while (i < end && (text[i] == ' ' || text[i] == '\t'))
            i++;
        size_t stop = i;
        while (stop < end && text[stop] != '#' && text[stop] != '\r' && text[stop] != '\0')
            stop++;
        size_t n = stop - i;
        if (n && text[i] == '-') {
            size_t skip;
            if (index_option(text + i, n, &skip)) {
                size_t u = i + skip;
                while (u < stop && (text[u] == ' ' || text[u] == '=' || text[u] == '\t'))
                    u++;
                size_t ue = u;
                while (ue < stop && text[ue] != ' ' && text[ue] != '\t')
                    ue++;
                if (ue > u) {
                    struct req_index *x = GL_APPEND(a, idx, nidx, capidx);
                    x->url = gl_arena_strndup(a, text + u, ue - u);
                    x->loc = (struct gl_loc){line, (uint32_t)(u - start + 1)};
                }
            }
        } else if (n) {
            const char *spec = gl_arena_strndup(a, text + i, n);
            struct gl_loc loc = {line, (uint32_t)(i - start + 1)};
            cd_pkg_spec(&c, p->family, spec, loc, p->stage);
            char name[16];
            size_t nl = strcspn(spec, "=<>~![; \t");
            if (nl < sizeof name) {
                memcpy(name, spec, nl);
                name[nl] = '\0';
                torch = torch || cd_is_torch_pkg(name);
            }
        }
        start = end + 1;
    }
    for (size_t k = 0; k < nidx && torch; k++) {
        char cuda[24];
        size_t off, ulen;
        if (!cd_torch_index_cuda(idx[k].url, cuda, sizeof cuda, &off, &ulen))
            continue;
        struct gl_loc at = {idx[k].loc.line, idx[k].loc.col + (uint32_t)off};
        cd_add(&c, GL_CUDA_FRAMEWORK, gl_arena_strdup(a, cuda),
               gl_arena_printf(a, "PyTorch wheel index %s", idx[k].url), "torch", at, p->stage);
    }
}

/* The context path a COPY/ADD puts at image path `want`, or NULL: `COPY req.txt /app/`,
 * `COPY req.txt /tmp/r.txt`, `COPY . /app`, `COPY requirements*.txt ./`. */
static const char *copied_from(struct gl_arena *a, const struct gl_copy_src *s, const char *dest,
                               const char *want)
{
    if (!dest)
        return NULL;
    /* (the context path, normalised, only for a COPY that lands on `want`: with dir ""
     * gl_image_path never fails) */
    if (!strcmp(dest, want) && !gl_has_suffix(s->dest, "/") && strcmp(s->dest, "."))
        return gl_image_path(a, "", s->path);
    size_t dl = strlen(dest);
    const char *rel = !dl ? want + (want[0] == '/') /* COPY f / */
                      : (!strncmp(want, dest, dl) && want[dl] == '/') ? want + dl + 1
                                                                       : NULL;
    if (!rel || !*rel)
        return NULL;
    const char *src = gl_image_path(a, "", s->path);
    const char *base = gl_base_name(src);
    if (!*src) /* COPY . /app: the whole context */
        return rel;
    if (!strchr(rel, '/') && fnmatch(base, rel, FNM_PERIOD) == 0) {
        /* the file itself (or one a glob names) lands in the directory */
        return base == src ? gl_arena_strdup(a, rel)
                           : gl_arena_cat3(a, src, (size_t)(base - src), rel, strlen(rel), "", 0);
    }
    if (strpbrk(src, "*?["))
        return NULL;
    return cd_path_join(a, src, rel); /* a directory's contents */
}

/* Is stage `from` the stage `to` or one it is built FROM? */
static bool stage_in_chain(const struct gl_dockerfile_model *m, int from, int to)
{
    for (int s = to, hops = 0; s >= 0 && hops <= (int)m->nstages; s = m->stages[s].base_stage, hops++)
        if (s == from)
            return true;
    return false;
}

/* The directory a command of the install's RUN runs in: the RUN's WORKDIR, or the last
 * literal absolute `cd DIR` before it in the same RUN; NULL when a `cd` makes it unknown.
 * m->cmds are in file order (dockerfile_model.c runs the RUNs in order, a RUN's commands
 * and its `sh -c` scripts' commands one after the other), so the RUN's commands are one
 * run of them: *from keeps where the last install's RUN began, and the walk starts there
 * (installs come in file order too; one before it starts again from the first), instead
 * of going over every command of the doc for each install. */
static const char *run_dir(const struct gl_doc *doc, const struct gl_pkg *p, size_t *from)
{
    const struct gl_dockerfile_model *m = doc->df;
    const char *dir = p->workdir;
    if (*from > m->ncmds || (*from && m->cmds[*from - 1].instr >= p->instr))
        *from = 0;
    while (*from < m->ncmds && m->cmds[*from].instr < p->instr)
        (*from)++;
    for (size_t i = *from; i < m->ncmds && m->cmds[i].instr == p->instr; i++) {
        const struct gl_cmd *c = &m->cmds[i];
        if (!c->nwords || c->words[0].opaque)
            continue;
        struct gl_loc at = c->words[0].loc;
        if (at.line > p->loc.line || (at.line == p->loc.line && at.col >= p->loc.col))
            break;
        const char *w = c->words[0].text;
        if (!gl_streq(w, "cd") && !gl_streq(w, "pushd"))
            continue;
        const char *to = c->nwords == 2 && !c->words[1].opaque ? c->words[1].text : NULL;
        dir = to && to[0] == '/' && !strchr(to, '$') ? to : NULL;
    }
    return dir;
}

/* Is this a project file (pyproject.toml, uv.lock), read only where the Dockerfile copies
 * it in? */
static bool project_file(const char *name)
{
    const char *b = gl_base_name(name);
    return !strcmp(b, "pyproject.toml") || !strcmp(b, "uv.lock");
}

/* The build-context file an install reads: the source of the latest COPY or ADD (of its
 * stage or a stage it is built FROM) that put a file at that path; else, for a file the
 * command names (`pip install -r NAME`, `conda env create -f NAME`), NAME itself when it is
 * relative (the Dockerfile's directory is where such files usually lie). */
/* Where a COPY puts its sources in the image (gl_image_path of its destination), NULL
 * when that is unknown or the COPY cannot be a source here (a URL, a `$` in its path).
 * Made once a COPY for all the installs of a doc: `dests` holds NO_DEST for "not yet". */
static const char no_dest[1];
#define NO_DEST no_dest

static const char *copy_dest(struct gl_arena *a, const struct gl_copy_src *s,
                             const char **slot)
{
    if (*slot == NO_DEST)
        *slot = s->url || !s->dest || !s->path || strchr(s->path, '$')
                    ? NULL
                    : gl_image_path(a, s->workdir, s->dest);
    return *slot;
}

/* The context path a bind mount of the install's own RUN puts at image path `want`
 * (`RUN --mount=type=bind,source=pyproject.toml,target=pyproject.toml uv sync`), or NULL. */
static const char *bound_from(struct gl_doc *doc, const struct gl_pkg *p, const char *want)
{
    const struct gl_dockerfile_model *m = doc->df;
    for (size_t i = 0; i < m->nbinds; i++) {
        const struct gl_copy_src *s = &m->binds[i];
        const char *dest = s->instr == p->instr ? gl_image_path(&doc->arena, s->workdir, s->dest)
                                                : NULL;
        const char *src = dest ? copied_from(&doc->arena, s, dest, want) : NULL;
        if (src)
            return src;
    }
    return NULL;
}

/* Where an install's file comes from in the build context, as far as the Dockerfile says
 * (install_sources): the bind mount of its RUN, else the sources of the COPYs that put it
 * where the install reads it (newest first), else its own name when nothing need copy it. */
struct sources {
    const char *bound;
    const char **srcs;
    size_t n;
    const char *own; /* NULL: only a copied file can be it */
};

/* COPYs looked at for the installs of one Dockerfile, in all: past it no more sources are
 * looked for. Every install looked back through every COPY (with a table as long as all
 * the COPYs): 12,000 COPYs and 12,000 installs (700 KB) took minutes and GBs; a real
 * Dockerfile looks at a few thousand. */
#define COPY_VISITS_MAX (1u << 16)

static void install_sources(struct gl_doc *doc, const struct gl_pkg *p, const char **dests,
                            size_t *cmd_from, size_t *visits, struct sources *out)
{
    const struct gl_dockerfile_model *m = doc->df;
    *out = (struct sources){0};
    const char *dir = run_dir(doc, p, cmd_from);
    if (!dir && p->workdir)
        return;
    const char *want = gl_image_path(&doc->arena, dir, p->name);
    out->bound = want ? bound_from(doc, p, want) : NULL;
    if (out->bound) /* (what the RUN mounts there hides what a COPY put there) */
        return;
    for (size_t i = m->ncopies; want && i-- > 0;) {
        const struct gl_copy_src *s = &m->copies[i];
        if (++*visits > COPY_VISITS_MAX) {
            *out = (struct sources){0};
            return;
        }
        if (s->instr >= p->instr || !stage_in_chain(m, s->stage, p->stage))
            continue;
        const char *src =
            copied_from(&doc->arena, s, copy_dest(&doc->arena, s, &dests[i]), want);
        if (!src || !contained_name(src))
            continue;
        size_t left = COPY_VISITS_MAX - *visits + 1; /* (the most this loop may still add) */
        if (!out->srcs)
            out->srcs = gl_arena_alloc(&doc->arena, (i + 1 < left ? i + 1 : left) *
                                                        sizeof *out->srcs);
        out->srcs[out->n++] = src;
    }
    if (!project_file(p->name) && (dir == p->workdir || p->name[0] == '/'))
        out->own = gl_has_prefix(p->name, "./") ? p->name + 2 : p->name;
}

/* The install's file in context `ctx`: the bound one; else the first COPY source that is
 * there (a source that is a file of another name, COPY req.txt setup.py ./, put nothing
 * there: the next COPY back is asked); else, unless `copied_only`, its own name. */
static const char *context_name(struct gl_doc *doc, const struct sources *src, const char *ctx,
                                bool copied_only)
{
    if (src->bound)
        return src->bound;
    for (size_t i = 0; i < src->n; i++) {
        struct gl_probe pr; /* (exists, as access(F_OK) says) */
        if (gl_doc_probe(doc, cd_path_join(&doc->arena, ctx, src->srcs[i]), true, &pr))
            return src->srcs[i];
    }
    return copied_only ? NULL : src->own; /* not copied in, or relative to a `cd` */
}

/* The build context when the Dockerfile's directory `dir` does not hold a file that a
 * COPY or a bind mount puts in for an install: the directory `up` levels above dir, at
 * most CONTEXT_UP_MAX and never above the directories doc->path names (`docker/Dockerfile`
 * built from the repository root, `docker build -f docker/Dockerfile .`: a context without
 * the file fails the build, so it is not the one used); NULL past them. A file an install
 * names but nothing copies in is looked for in dir alone. */
#define CONTEXT_UP_MAX 2
struct above_memo {
    char ctx[256], out[256]; /* the path asked (dir + "/.." x up) and its lexical form */
    size_t n, out_len;       /* n = 0: none kept (a path asked is never empty) */
};
static _Thread_local struct above_memo above_memo[CONTEXT_UP_MAX + 1];

static const char *context_above(struct gl_doc *doc, const char *dir, int up)
{
    size_t names = dir[0] != '/' && strcmp(dir, ".") != 0; /* (components of dir) */
    for (const char *p = dir; (p = strchr(p, '/')); p++)
        names += p[1] != '\0';
    if (up < 1 || up > CONTEXT_UP_MAX || (size_t)up > names - (dir[0] == '/') ||
        !strcmp(gl_base_name(dir), ".."))
        return NULL;
    size_t n = strlen(dir);
    char *ctx = gl_arena_alloc(&doc->arena, n + 3 * (size_t)up + 1); /* dir + "/.." x up */
    memcpy(ctx, dir, n);
    for (int i = 0; i < up; i++, n += 3)
        memcpy(ctx + n, "/..", 3);
    ctx[n] = '\0';
    /* The Dockerfiles of a directory come one after the other in a walk, and each asks
     * the same contexts: the last ones made are kept per thread and copied into the doc's
     * arena, charged as gl_path_lexical charges it (n + 2 bytes). */
    struct above_memo *m = &above_memo[up];
    if (n < sizeof m->ctx && m->n == n && !memcmp(m->ctx, ctx, n)) {
        char *out = gl_arena_alloc(&doc->arena, n + 2);
        memcpy(out, m->out, m->out_len + 1);
        return out;
    }
    char *out = gl_path_lexical(&doc->arena, ctx);
    size_t out_len = strlen(out);
    if (n < sizeof m->ctx && out_len < sizeof m->out) {
        memcpy(m->ctx, ctx, n);
        m->n = n;
        memcpy(m->out, out, out_len + 1);
        m->out_len = out_len;
    }
    return out;
}

void cd_derive_requirements(struct cd_ctx *c)
{
    struct gl_doc *doc = c->doc;
    if (doc->kind != GL_IN_DOCKERFILE || !doc->path || !strcmp(doc->path, "-"))
        return;
    const char *slash = strrchr(doc->path, '/');
    const char *dir = slash ? gl_arena_strndup(&doc->arena, doc->path,
                                               slash == doc->path ? 1 : (size_t)(slash - doc->path))
                            : ".";
    size_t read = 0;
    const struct gl_dockerfile_model *m = doc->df;
    const char **dests = NULL; /* the COPYs' destinations (copy_dest), at the first install */
    size_t cmd_from = 0;       /* run_dir's cursor */
    /* the contexts above dir, made at their first use: the same for every install */
    const char *above[CONTEXT_UP_MAX + 1] = {dir};
    bool made[CONTEXT_UP_MAX + 1] = {true};
    size_t visits = 0;         /* COPYs looked at (COPY_VISITS_MAX) */
    for (size_t i = 0; i < m->npkgs; i++) {
        const struct gl_pkg *p = &m->pkgs[i];
        if (!p->requirements || !p->name) /* before the manager's names: most are not */
            continue;
        /* (the limits, asked where an install may read a file: only such a one spends) */
        if (read >= REQ_FILES_MAX || visits > COPY_VISITS_MAX || gl_arena_over(&doc->arena))
            break;
        bool conda = p->family == GL_PKG_CONDA;
        if (p->family != GL_PKG_PIP && !conda)
            continue;
        if (!dests) {
            dests = gl_arena_alloc(&doc->arena, (m->ncopies + 1) * sizeof *dests);
            for (size_t k = 0; k < m->ncopies; k++)
                dests[k] = NO_DEST;
        }
        const char *name = NULL, *shown;
        char *text = NULL;
        size_t len;
        bool lock = false;
        struct sources src;
        install_sources(doc, p, dests, &cmd_from, &visits, &src);
        /* the Dockerfile's directory, else the nearest above it that holds the file */
        for (int up = 0; up <= CONTEXT_UP_MAX && !text; up++) {
            if (!made[up]) {
                above[up] = context_above(doc, dir, up);
                made[up] = true;
            }
            const char *ctx = above[up];
            if (!ctx)
                break;
            name = context_name(doc, &src, ctx, up > 0);
            if (!name || !contained_name(name))
                continue;
            lock = !strcmp(gl_base_name(name), "uv.lock");
            text = read_in_context(doc, ctx, name, &len, &shown,
                                   lock ? LOCK_FILE_CAP : REQ_FILE_CAP);
        }
        if (!text)
            continue;
        const char *base = gl_base_name(name);
        read++;
        struct cd_ctx fc;
        cd_ctx_init(&fc, doc, c->kb, text, len);
        size_t first = doc->ncuda;
        if (lock)
            cd_scan_uv_lock(&fc, p);
        else if (!strcmp(base, "pyproject.toml"))
            cd_scan_pyproject(&fc, p);
        else if (conda && (gl_has_suffix(base, ".yml") || gl_has_suffix(base, ".yaml")))
            cd_scan_conda_env(&fc, p);
        else
            scan_file(&fc, p);
        for (size_t k = first; k < doc->ncuda; k++) {
            doc->cuda[k].file = shown;
            doc->cuda[k].via_loc = p->loc;
            doc->cuda[k].instr = p->instr;
        }
    }
}
