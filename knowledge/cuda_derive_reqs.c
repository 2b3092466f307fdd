/* SPDX-License-Identifier: Apache-2.0 */
/* cuda_derive_reqs.c: CUDA facts from requirements files named by `pip install -r FILE`
 * when FILE lies in the build context (see cuda_derive.h). */
#include "knowledge/cuda_derive_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define REQ_FILE_CAP (1u << 20) /* bytes read from one requirements file */
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
static char *read_in_context(struct gl_arena *a, const char *dir, const char *name, size_t *len,
                             const char **shown)
{
    char *joined = gl_arena_printf(a, "%s/%s", dir, name);
    char real_dir[PATH_MAX], real_file[PATH_MAX];
    if (!realpath(dir, real_dir) || !realpath(joined, real_file))
        return NULL;
    size_t dl = strlen(real_dir);
    if (strncmp(real_file, real_dir, dl) != 0 || (real_file[dl] != '/' && dl != 1))
        return NULL;
    int fd = open(real_file, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
    if (fd < 0)
        return NULL;
    struct stat st;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size > (off_t)REQ_FILE_CAP) {
        close(fd);
        return NULL;
    }
    char *buf = gl_arena_alloc(a, (size_t)st.st_size + 1);
    size_t n = 0;
    while (n < (size_t)st.st_size) {
        ssize_t r = read(fd, buf + n, (size_t)st.st_size - n);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            break;
        n += (size_t)r;
    }
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
static void scan_file(struct cd_ctx *doc_ctx, const struct gl_pkg *p, const char *text,
                      size_t len, const char *shown)
{
    struct gl_arena *a = &doc_ctx->doc->arena;
    struct cd_ctx c;
    cd_ctx_init(&c, doc_ctx->doc, doc_ctx->kb, text, len);
    struct req_index *idx = NULL;
    size_t nidx = 0, capidx = 0;
    bool torch = false;
    size_t first_fact = doc_ctx->doc->ncuda;
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
            cd_pkg_spec(&c, p->manager, spec, loc, p->stage);
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
    for (size_t k = first_fact; k < doc_ctx->doc->ncuda; k++) {
        doc_ctx->doc->cuda[k].file = shown;
        doc_ctx->doc->cuda[k].via_loc = p->loc;
        doc_ctx->doc->cuda[k].instr = p->instr;
    }
}

/* The context path a COPY/ADD puts at image path `want`, or NULL: `COPY req.txt /app/`,
 * `COPY req.txt /tmp/r.txt`, `COPY . /app`, `COPY requirements*.txt ./`. */
static const char *copied_from(struct gl_arena *a, const struct gl_copy_src *s, const char *want)
{
    if (s->url || !s->dest || !s->path || strchr(s->path, '$'))
        return NULL;
    const char *dest = gl_image_path(a, s->workdir, s->dest);
    const char *src = gl_image_path(a, "", s->path); /* the context path, normalised */
    if (!dest || !src)
        return NULL;
    if (!strcmp(dest, want) && !gl_has_suffix(s->dest, "/") && strcmp(s->dest, "."))
        return src;
    size_t dl = strlen(dest);
    const char *rel = !dl ? want
                      : (!strncmp(want, dest, dl) && want[dl] == '/') ? want + dl + 1
                                                                       : NULL;
    if (!rel || !*rel)
        return NULL;
    const char *base = gl_base_name(src);
    if (!*src) /* COPY . /app: the whole context */
        return rel;
    if (!strchr(rel, '/') && fnmatch(base, rel, FNM_PERIOD) == 0) {
        /* the file itself (or one a glob names) lands in the directory */
        return base == src ? gl_arena_strdup(a, rel)
                           : gl_arena_printf(a, "%.*s%s", (int)(base - src), src, rel);
    }
    if (strpbrk(src, "*?["))
        return NULL;
    return gl_arena_printf(a, "%s/%s", src, rel); /* a directory's contents */
}

/* Is stage `from` the stage `to` or one it is built FROM? */
static bool stage_in_chain(const struct gl_dockerfile_model *m, int from, int to)
{
    for (int s = to, hops = 0; s >= 0 && hops <= (int)m->nstages; s = m->stages[s].base_stage, hops++)
        if (s == from)
            return true;
    return false;
}

/* The build-context file `pip install -r NAME` reads: the source of the latest COPY or ADD
 * (of its stage or a stage it is built FROM) that put a file at that path; else NAME itself
 * when it is relative (the Dockerfile's directory is where such files usually lie). */
static const char *context_name(struct gl_doc *doc, const struct gl_pkg *p)
{
    const struct gl_dockerfile_model *m = doc->df;
    const char *want = gl_image_path(&doc->arena, p->workdir, p->name);
    for (size_t i = m->ncopies; want && i-- > 0;) {
        const struct gl_copy_src *s = &m->copies[i];
        if (s->instr >= p->instr || !stage_in_chain(m, s->stage, p->stage))
            continue;
        const char *src = copied_from(&doc->arena, s, want);
        if (src)
            return src;
    }
    return gl_has_prefix(p->name, "./") ? p->name + 2 : p->name;
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
    for (size_t i = 0; i < m->npkgs && read < REQ_FILES_MAX; i++) {
        const struct gl_pkg *p = &m->pkgs[i];
        if (!p->requirements || !p->name || (strcmp(p->manager, "pip") && strcmp(p->manager, "uv")))
            continue;
        const char *name = context_name(doc, p);
        if (!contained_name(name))
            continue;
        size_t len;
        const char *shown;
        char *text = read_in_context(&doc->arena, dir, name, &len, &shown);
        if (!text)
            continue;
        read++;
        scan_file(c, p, text, len, shown);
    }
}
