/* SPDX-License-Identifier: Apache-2.0 */
/* engine.c: read, recognise, parse, check, suppress (see engine.h). */
#include "linter/cli/engine.h"
#include "linter/cli/inspect.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "rules/check.h"
#include "knowledge/derive/arch_derive.h"
#include "knowledge/derive/cuda_derive.h"
#include "linter/cli/chart.h"
#include "linter/cli/embedded.h"
#include "linter/core/encoding.h"
#include "linter/core/escape.h"
#include "linter/core/inputs.h"
#include "linter/core/suppress.h"
#include "parsers/registry/registry_input.h"
#include "parsers/yaml/yaml_tree.h"

/* One text input linted on a worker (engine_pool.h), and what the run takes of it. */
struct gl_job {
    char *path;
    bool named;
    enum gl_input_kind kind;
    struct gl_run sub;      /* its findings, files, unreadable; sub.job is this job */
    struct gl_buf err;      /* what it said on stderr (gl_eprintf_capture) */
    char *visit;            /* a compose file: linted only if the run meets it first */
    char **includes;        /* the compose files it includes (include_paths) */
    bool noted;             /* a doc was linted: the spill takes note (gl_spill_note) */
    bool binary;            /* an image, or a file over GL_POOL_INPUT_MAX: read again by
                             * the run's own thread */
    struct gl_project_facts facts;
};

void gl_run_init(struct gl_run *run, const struct gl_config *cfg)
{
    memset(run, 0, sizeof *run);
    run->cfg = cfg;
    gl_project_init(&run->project);
    gl_map_init(&run->charts.map);
    gl_map_init(&run->composes.map);
    gl_map_init(&run->inspected);
    gl_spill_init(&run->spill);
}

static void visited_free(struct gl_visited *v)
{
    gl_map_free(&v->map);
    for (size_t i = 0; i < v->n; i++)
        free(v->names[i]);
    free(v->names);
}

void gl_run_free(struct gl_run *run)
{
    gl_pool_free(run->pool);
    run->pool = NULL;
    gl_findings_free(&run->findings);
    gl_spill_free(&run->spill);
    gl_project_free(&run->project);
    visited_free(&run->charts);
    visited_free(&run->composes);
    free(run->helm);
    gl_inspect_free(run);
}

/* Is this the first time the run meets `path` (by its real path) in v? */
static bool first_visit(struct gl_visited *v, const char *path)
{
    char *key = realpath(path, NULL);
    if (!key)
        key = xstrdup(path);
    bool added;
    gl_map_puts(&v->map, key, &added);
    if (!added) {
        free(key);
        return false;
    }
    if (v->n == v->cap) {
        v->cap = v->cap ? 2 * v->cap : 8;
        v->names = xrealloc(v->names, v->cap * sizeof *v->names);
    }
    v->names[v->n++] = key;
    return true;
}

void gl_run_finish(struct gl_run *run)
{
    gl_pool_free(run->pool);
    run->pool = NULL;
    gl_spill_finish(&run->spill, &run->findings, gl_project_keeps, &run->project);
}

void gl_run_engine_finding(struct gl_run *run, const char *rule_id, const char *file,
                           struct gl_loc loc, const char *fix, const char *fmt, ...)
{
    const struct gl_rule *rule = gl_rule_find(rule_id);
    if (!rule || !gl_config_rule_enabled(run->cfg, rule->id, rule->optional))
        return;
    struct gl_finding *f = gl_findings_add(&run->findings);
    f->rule = rule;
    f->severity = gl_config_severity(run->cfg, rule->id, rule->severity);
    f->file = xstrdup(file);
    f->loc = loc;
    va_list ap;
    va_start(ap, fmt);
    f->message = xvasprintf(fmt, ap);
    va_end(ap);
    f->fix = xstrdup(fix ? fix : rule->fix ? rule->fix : "");
}

static void report_unknown_ignores(struct gl_run *run, const struct gl_doc *doc)
{
    for (size_t i = 0; i < doc->nignores; i++) {
        const struct gl_ignore *ig = &doc->ignores[i];
        for (size_t k = 0; k < ig->nids; k++)
            if (!gl_rule_find(ig->ids[k]))
                gl_run_engine_finding(run, "GL902", doc->path, ig->id_locs[k],
                                      "name a rule listed by `gpulint --list-rules`",
                                      "inline ignore names `%s`, which is no gpulint rule",
                                      ig->ids[k]);
    }
}

static bool not_suppressed(const struct gl_finding *f, void *doc)
{
    return !gl_suppressed(doc, f);
}

/* config `ignore-paths:` globs that drop some rules' findings in some files */
static bool not_path_ignored(const struct gl_finding *f, void *cfg)
{
    const struct gl_config *c = cfg;
    return !gl_path_rule_ignored(&c->path_ignores, f->file, f->rule->id);
}

/* A rendered stream's findings, from findings[start] on, to the template lines they came
 * from (inline ignores were applied in the rendered text, where helm left them). */
static void move_to_templates(struct gl_run *run, size_t start, const struct gl_doc *doc)
{
    for (size_t i = start; doc->render && i < run->findings.n; i++) {
        struct gl_finding *f = &run->findings.items[i];
        const char *file;
        struct gl_loc loc;
        if (gl_doc_origin(doc, f->loc, &file, &loc)) {
            gl_finding_set_file(f, file);
            f->loc = loc;
        }
    }
}

void gl_lint_doc(struct gl_run *run, struct gl_doc *doc)
{
    if (run->cfg->inspect_images && !doc->error.set) /* before the rules judge its refs */
        gl_inspect_images(run, doc);
    size_t start = run->findings.n;
    run->files++;
    if (doc->error.set) {
        gl_run_engine_finding(run, "GL900", doc->path, doc->error.loc,
                              doc->error.fix                        ? doc->error.fix
                              : gl_limit_said(doc->error.message) ? GL_LIMIT_FIX
                                                                  : "fix the syntax at this position",
                              "cannot parse: %s", doc->error.message);
    } else {
        struct gl_check c = {.doc = doc, .cfg = run->cfg, .out = &run->findings};
        /* with no ignore list every rule but the optional ones is on: no look-up */
        bool ask = run->cfg->nignore != 0;
        for (size_t i = 0; i < gl_rule_count; i++) {
            const struct gl_rule *r = gl_rule_table[i];
            if (!r->check || ((ask || r->optional) &&
                              !gl_config_rule_enabled(run->cfg, r->id, r->optional)))
                continue;
            c.rule = r;
            r->check(&c);
        }
        gl_check_end(&c);
    }
    report_unknown_ignores(run, doc);
    if (run->job)
        gl_project_facts_gather(&run->job->facts, doc);
    else
        gl_project_gather(&run->project, doc);
    gl_findings_filter(&run->findings, start, not_suppressed, doc);
    move_to_templates(run, start, doc);
    gl_findings_filter(&run->findings, start, not_path_ignored, (void *)run->cfg);
    gl_findings_order_from(&run->findings, start); /* (the run's list: most often in order) */
    if (run->job)
        run->job->noted = true;
    else
        gl_spill_note(&run->spill, &run->findings);
}

/* A text input gpulint refuses before any parser (encoding.h, or a limit it hit). */
static void refuse_text(struct gl_run *run, const char *name, struct gl_loc loc, const char *fix,
                        const char *message)
{
    gl_run_engine_finding(run, "GL900", name, loc, fix, "cannot parse: %s", message);
    run->files++;
}

/* Lint text[0..len); `truncated`: the input went on past the limit input-size;
 * chart_dir: the chart whose rendered stream it is (doc->chart_dir), else NULL. */
static void lint_file_as(struct gl_run *run, const char *path, bool named,
                         enum gl_input_kind kind);

/* The files a compose doc's `include:` names, resolved against its directory (a
 * NULL-terminated heap array of heap strings), NULL when none. */
static char **include_paths(const struct gl_doc *doc)
{
    if (!doc->nincludes)
        return NULL;
    char **out = xmalloc((doc->nincludes + 1) * sizeof *out);
    const char *slash = strrchr(doc->path, '/');
    int dir = slash ? (int)(slash - doc->path) : 0;
    struct gl_arena a;
    gl_arena_init(&a);
    for (size_t i = 0; i < doc->nincludes; i++) {
        /* folded as compose folds it (Go's filepath.Join): `app/../../deploy/x.yaml` is
         * `../deploy/x.yaml`, the path a finding in it names */
        char *joined = doc->includes[i][0] == '/' || !slash
                           ? xstrdup(doc->includes[i])
                           : xasprintf("%.*s/%s", dir, doc->path, doc->includes[i]);
        out[i] = xstrdup(gl_path_lexical(&a, joined));
        free(joined);
    }
    gl_arena_free(&a);
    out[doc->nincludes] = NULL;
    return out;
}

/* Includes deeper than this are not followed (a chain of thousands of files would
 * otherwise recurse as deep); the walk still lints the files it reaches. */
#define GL_INCLUDE_DEPTH_MAX 16

/* A compose file that another one includes: a compose file whatever its name, linted
 * once a run (first_visit); one that does not exist is compose's error, not gpulint's. */
static void lint_included(struct gl_run *run, const char *path)
{
    struct stat st;
    if (run->include_depth >= GL_INCLUDE_DEPTH_MAX || stat(path, &st) != 0 ||
        !S_ISREG(st.st_mode))
        return;
    run->include_depth++;
    lint_file_as(run, path, false, GL_IN_COMPOSE);
    run->include_depth--;
}

/* An input found, once read, not to be of the kind it was taken for (doc->error.not_kind:
 * an archive holding no image, a Dockerfile in another frontend's language): a file the
 * walk found is passed by; a named one is GL901 at the position the parser gave. */
static void not_of_kind(struct gl_run *run, const struct gl_doc *doc, const char *what,
                        bool named)
{
    if (!named)
        return;
    struct gl_loc loc = doc->error.loc.line ? doc->error.loc : (struct gl_loc){1, 1};
    gl_run_engine_finding(run, "GL901", doc->path, loc, doc->error.fix, "`%s` is %s: %s",
                          doc->path, what, doc->error.message);
}

/* Is this the first time the run meets compose file `name`? On a worker, the question is
 * the run's to answer when it takes the result (in the order of the inputs): the job
 * goes on as if yes, unless it asked already. */
static bool compose_first_visit(struct gl_run *run, const char *name)
{
    if (!run->job)
        return first_visit(&run->composes, name);
    if (run->job->visit)
        return strcmp(run->job->visit, name) != 0;
    run->job->visit = xstrdup(name);
    return true;
}

static void lint_text(struct gl_run *run, const char *name, const char *text, size_t len,
                      enum gl_input_kind kind, bool named, bool truncated,
                      const char *chart_dir)
{
    struct gl_text_verdict v = gl_text_check(text, len);
    const char *data = text + v.skip;
    size_t dlen = len - v.skip;
    bool stdin_text = !strcmp(name, "-");
    if (kind == GL_IN_UNKNOWN && stdin_text && /* standard input: helm's output? */
        gl_input_type_of(GL_IN_HELM)->by_content(name, data, dlen))
        kind = GL_IN_HELM;
    if (kind == GL_IN_UNKNOWN && v.bad && !named) {
        /* found by the walk, not text, and its name says nothing (a font, a recording):
         * no input of ours, whatever its bytes happen to look like to a sniffer */
        bool read_it;
        if (gl_sniff_name(name, &read_it) == GL_IN_UNKNOWN)
            return;
    }
    if (kind == GL_IN_UNKNOWN)
        kind = gl_sniff(name, data, dlen, named);
    if (kind == GL_IN_UNKNOWN && stdin_text)
        kind = GL_IN_DOCKERFILE; /* standard input that says nothing else: a Dockerfile */
    const struct gl_input_type *type = gl_input_type_of(kind);
    if (!type && !(named && (v.bad || truncated))) {
        if (named) {
            char fix[512];
            snprintf(fix, sizeof fix, "name its kind with --type (one of: %s)",
                     gl_input_type_names());
            gl_run_engine_finding(run, "GL901", name, (struct gl_loc){1, 1}, fix,
                                  "`%s` is of no input type gpulint knows", name);
        }
        return;
    }
    if (v.bad) {
        refuse_text(run, name, gl_text_loc(text, len, v.bad_off), v.fix, v.message);
        return;
    }
    if (truncated) {
        char msg[256];
        refuse_text(run, name, gl_text_loc(text, len, len),
                    GL_LIMIT_FIX,
                    gl_limit_message(GL_LIMIT_INPUT_SIZE, msg, sizeof msg));
        return;
    }
    if (kind == GL_IN_COMPOSE && !stdin_text && !compose_first_visit(run, name))
        return; /* already linted: another compose file of the run includes it */
    struct gl_doc doc;
    gl_doc_init(&doc, name, kind, data, dlen);
    doc.chart_dir = chart_dir;
    type->parse(&doc, run->cfg);
    if (gl_arena_over(&doc.arena)) /* a parser that has no position of its own for it: the
                                      line where the doc's line index found no room, or 1:1 */
        gl_doc_fail_limit(&doc, GL_LIMIT_PARSE_MEMORY,
                          (struct gl_loc){doc.lines.stop_line ? doc.lines.stop_line : 1, 1});
    if (doc.error.set && doc.error.not_kind) {
        not_of_kind(run, &doc, "not linted", named);
        gl_arena_free(&doc.arena);
        return;
    }
    enum gl_input_kind other = doc.error.set && doc.error.other_kind
                                   ? gl_sniff_content(name, data, dlen, kind)
                                   : GL_IN_UNKNOWN;
    if (other != GL_IN_UNKNOWN) { /* named like one kind, plainly another */
        gl_arena_free(&doc.arena);
        lint_text(run, name, text, len, other, named, truncated, chart_dir);
        return;
    }
    gl_cuda_derive(&doc, run->cfg); /* CUDA facts from the parsed model, before the rules */
    gl_arch_derive(&doc);           /* build-time GPU arch lists, likewise */
    gl_lint_doc(run, &doc);
    gl_lint_embedded(run, &doc, gl_lint_doc); /* Dockerfiles in its code blocks */
    char **includes = stdin_text ? NULL : include_paths(&doc);
    gl_arena_free(&doc.arena);
    if (run->job) { /* followed when the run takes the job's result */
        run->job->includes = includes;
        return;
    }
    for (size_t i = 0; includes && includes[i]; i++) {
        lint_included(run, includes[i]);
        free(includes[i]);
    }
    free(includes);
}

void gl_lint_buffer(struct gl_run *run, const char *name, const char *data, size_t len,
                    enum gl_input_kind kind, bool named)
{
    lint_text(run, name, data, len, kind, named, false, NULL);
}

/* ---- binary inputs (image archives, OCI layouts): parsed from their path, never read
 * into memory; recognised by magic bytes before anything else is read ---- */

static const struct gl_input_type *binary_type_of(const unsigned char *head, size_t len,
                                                  const char *dir)
{
    for (size_t i = 0; i < gl_input_count; i++) {
        const struct gl_input_type *t = gl_input_table[i];
        if (!t->parse_path)
            continue;
        if (dir ? t->dir_input && t->dir_input(dir) : t->by_magic && t->by_magic(head, len))
            return t;
    }
    return NULL;
}

/* A binary input at `path`, or on the stream stream_fd (>= 0) after head[0..head_len). */
static void lint_binary(struct gl_run *run, const struct gl_input_type *type, const char *path,
                        int stream_fd, const void *head, size_t head_len, bool named)
{
    struct gl_doc doc;
    gl_doc_init(&doc, path, type->kind, NULL, 0);
    type->parse_path(&doc, path, stream_fd, head, head_len, run->cfg);
    if (doc.error.set && doc.error.not_kind) {
        /* an archive that holds no image: the walk passes it by; a named one is unknown */
        doc.error.fix = "name an image archive (docker save, skopeo copy ... oci-archive:) or "
                        "an OCI layout directory";
        not_of_kind(run, &doc, "an archive but no image", named);
    } else {
        gl_lint_doc(run, &doc);
    }
    gl_arena_free(&doc.arena);
}

/* Read the rest of a text input from fd (after head[0..nhead)) under the limit
 * input-size, and lint it. */
static void read_and_lint(struct gl_run *run, int fd, const char *name, const void *head,
                          size_t nhead, size_t size_hint, enum gl_input_kind kind, bool named)
{
    char *data;
    size_t len;
    bool over;
    int e = gl_read_fd(fd, head, nhead, size_hint, (size_t)gl_limit(GL_LIMIT_INPUT_SIZE), &data,
                       &len, &over);
    if (e) {
        gl_eprintf("%s: %s", name, strerror(e));
        run->unreadable = true;
        return;
    }
    lint_text(run, name, data, len, kind, named, over, NULL);
    free(data);
}

/* What an open input is, when it is none gpulint reads (a device, a socket), else NULL. */
static const char *not_readable_kind(mode_t mode)
{
    if (S_ISCHR(mode))
        return "a character device";
    if (S_ISBLK(mode))
        return "a block device";
    if (S_ISSOCK(mode))
        return "a socket";
    if (S_ISDIR(mode))
        return "a directory";
    return NULL;
}

/* The image input whose magic bytes head[0..n) has, when the run reads images (no --type,
 * or --type image), else NULL. */
static const struct gl_input_type *image_magic(const struct gl_run *run, const void *head,
                                               size_t n)
{
    if (run->cfg->type && run->cfg->type != GL_IN_IMAGE)
        return NULL;
    return binary_type_of(head, n < 512 ? n : 512, NULL);
}

/* An image found in regular file `path`: read from its path by the run's own thread (a
 * worker hands it back: images have threads of their own). */
static void lint_image_file(struct gl_run *run, const struct gl_input_type *bin,
                            const char *path, bool named)
{
    if (run->job)
        run->job->binary = true;
    else
        lint_binary(run, bin, path, -1, NULL, 0, named);
}

/* A small regular file (up to GL_POOL_INPUT_MAX bytes) of `size` bytes, open on fd: read
 * whole at once (one read: gl_read_fd), recognised by its first bytes as any input, and
 * closed. (A file the walk found was opened O_NONBLOCK, in case it had become a FIFO
 * since it was listed: that flag does nothing to a regular file's reads.) */
static void lint_small(struct gl_run *run, int fd, const char *path, size_t size, bool named,
                       enum gl_input_kind kind)
{
    char *data;
    size_t len;
    bool over;
    /* the bytes read are held while the input is linted: a worker waits at the pool's
       gate before it reads one while the others hold the budget (8 workers reading 1 MB
       inputs that each fill parse-memory held 8 MB more than the budget said) */
    gl_heap_hold(size + 1);
    int e = gl_read_fd(fd, NULL, 0, size, (size_t)gl_limit(GL_LIMIT_INPUT_SIZE), &data, &len,
                       &over);
    close(fd);
    if (e) {
        gl_heap_drop(size + 1);
        gl_eprintf("%s: %s", path, strerror(e));
        run->unreadable = true;
        return;
    }
    const struct gl_input_type *bin = image_magic(run, data, len);
    if (bin) {
        free(data);
        gl_heap_drop(size + 1);
        lint_image_file(run, bin, path, named);
        return;
    }
    lint_text(run, path, data, len, kind, named, over, NULL);
    free(data);
    gl_heap_drop(size + 1);
}

/* Lint one file, opened once: a regular file is recognised by its first bytes (an image
 * archive is then read by path); a FIFO or a pipe (`<(...)`) is a stream read once, as
 * stdin is. A file found by the walk is opened without following a link and without
 * waiting for a writer (it was a regular file when listed; anything else now is passed
 * by). */
static void lint_file(struct gl_run *run, const char *path, bool named)
{
    lint_file_as(run, path, named, named ? run->cfg->type : GL_IN_UNKNOWN);
}

/* The same, read as `kind` (GL_IN_UNKNOWN: by its name and content). */
static void lint_file_as(struct gl_run *run, const char *path, bool named,
                         enum gl_input_kind kind)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC | (named ? 0 : O_NONBLOCK | O_NOFOLLOW));
    struct stat st;
    if (fd < 0 || fstat(fd, &st) != 0) {
        gl_eprintf("%s: %s", path, strerror(errno));
        run->unreadable = true;
        if (fd >= 0)
            close(fd);
        return;
    }
    const char *what = not_readable_kind(st.st_mode);
    if (what || (!named && !S_ISREG(st.st_mode))) {
        if (named) {
            gl_eprintf("%s: %s: not linted (name a file, a directory or -)",
                    path, what);
            run->unreadable = true;
        }
        close(fd);
        return;
    }
    bool regular = S_ISREG(st.st_mode);
    if (regular && st.st_size > 0 && st.st_size <= (off_t)GL_POOL_INPUT_MAX) {
        lint_small(run, fd, path, (size_t)st.st_size, named, kind);
        return;
    }
    if (run->job) { /* a worker met a large file (the walk did not stat it): the run's own
                     * thread reads it, in its turn, as it does an image */
        run->job->binary = true;
        close(fd);
        return;
    }
    if (!named)
        fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
    unsigned char head[512];
    size_t nhead = gl_read_upto(fd, (char *)head, sizeof head);
    const struct gl_input_type *bin = image_magic(run, head, nhead);
    if (bin && regular) {
        close(fd);
        lint_image_file(run, bin, path, named);
        return;
    }
    if (bin) { /* an image through a FIFO or <(...): a stream, as on standard input */
        lint_binary(run, bin, path, fd, head, nhead, named);
        close(fd);
        return;
    }
    read_and_lint(run, fd, path, head, nhead, regular ? (size_t)st.st_size : 0, kind, named);
    close(fd);
}

static void read_stdin(struct gl_run *run)
{
    unsigned char head[512];
    size_t nhead = gl_read_upto(STDIN_FILENO, (char *)head, sizeof head);
    const struct gl_input_type *bin = image_magic(run, head, nhead);
    if (bin) {
        lint_binary(run, bin, "-", STDIN_FILENO, head, nhead, true);
        return;
    }
    read_and_lint(run, STDIN_FILENO, "-", head, nhead, 0, run->cfg->type, true);
}

/* ---- text inputs on worker threads (engine_pool.h) ---- */

static void job_free(struct gl_job *j)
{
    for (size_t i = 0; j->includes && j->includes[i]; i++)
        free(j->includes[i]);
    free(j->includes);
    free(j->visit);
    gl_buf_free(&j->err);
    gl_findings_free(&j->sub.findings);
    gl_project_facts_keep(NULL, &j->facts); /* (frees them: a job not taken keeps none) */
    free(j->path);
    free(j);
}

static void job_work(void *arg)
{
    struct gl_job *j = arg;
    gl_eprintf_capture(&j->err);
    lint_file_as(&j->sub, j->path, j->named, j->kind);
    gl_eprintf_capture(NULL);
}

/* The run takes a job's result, in the order of the inputs: what one thread would have
 * done at this point of the run. */
static void job_done(void *arg, void *ctx)
{
    struct gl_job *j = arg;
    struct gl_run *run = ctx;
    run->merging = true;
    if (j->binary) {
        gl_pool_enter(run->pool);
        lint_file_as(run, j->path, j->named, j->kind);
        gl_pool_leave(run->pool);
    } else if (!j->visit || first_visit(&run->composes, j->visit)) {
        if (j->err.len)
            fwrite(j->err.data, 1, j->err.len, stderr);
        for (size_t i = 0; i < j->sub.findings.n; i++)
            *gl_findings_add(&run->findings) = j->sub.findings.items[i];
        j->sub.findings.n = 0;
        run->files += j->sub.files;
        run->unreadable |= j->sub.unreadable;
        gl_project_facts_keep(&run->project, &j->facts);
        if (j->noted)
            gl_spill_note(&run->spill, &run->findings);
        gl_pool_enter(run->pool);
        for (size_t i = 0; j->includes && j->includes[i]; i++)
            lint_included(run, j->includes[i]);
        gl_pool_leave(run->pool);
    }
    run->merging = false;
    job_free(j);
}

static void worker_end(void) { yt_sniff_thread_end(); }

static const struct gl_pool_ops job_ops = {job_work, job_done, worker_end};

/* The run's workers, started on first use: NULL when the run lints on one thread. */
static struct gl_pool *pool_of(struct gl_run *run)
{
    if (run->pool_tried)
        return run->pool;
    run->pool_tried = true;
    long n = run->cfg->jobs;
    if (n <= 0) { /* the number of cores, up to GL_POOL_DEFAULT_MAX */
        n = sysconf(_SC_NPROCESSORS_ONLN);
        n = n > GL_POOL_DEFAULT_MAX ? GL_POOL_DEFAULT_MAX : n;
    }
    if (n < 2 || run->cfg->inspect_images) /* (--inspect-images asks registries, in order) */
        return NULL;
    unsigned w = gl_threads_fit(n > 256 ? 256 : (unsigned)n);
    if (w < 2)
        return NULL;
    run->pool = gl_pool_new(w, (size_t)w * GL_POOL_DEPTH_PER_WORKER,
                            GL_POOL_BUDGET_BASE + (size_t)w * GL_POOL_BUDGET_PER_WORKER, &job_ops, run);
    return run->pool;
}

/* The run's own thread is about to say or lint something: take the workers' results
 * before it first, so that it comes in the order of the inputs. */
static void in_order(struct gl_run *run)
{
    if (run->pool && !run->merging)
        gl_pool_drain(run->pool);
}

/* A regular file of `size` bytes (-1: not known), found by the walk or named: to a worker
 * unless it is known to be large (a worker that finds it large hands it back: job_done). */
static void lint_regular(struct gl_run *run, const char *path, bool named,
                         enum gl_input_kind kind, off_t size)
{
    struct gl_pool *pool = size <= (off_t)GL_POOL_INPUT_MAX ? pool_of(run) : NULL;
    if (!pool) {
        in_order(run);
        lint_file_as(run, path, named, kind);
        return;
    }
    struct gl_job *j = xcalloc(1, sizeof *j);
    j->path = xstrdup(path);
    j->named = named;
    j->kind = kind;
    j->sub.cfg = run->cfg;
    j->sub.job = j;
    gl_buf_init(&j->err);
    gl_pool_submit(pool, j);
}

/* ---- Helm charts (chart.h) ---- */


/* A chart that was not rendered, or only in part: a doc with the fact alone (GL903 at its
 * Chart.yaml). */
static void chart_not_rendered(struct gl_run *run, const char *dir, const char *chart_yaml,
                               enum gl_template_kind kind, const char *why)
{
    struct gl_doc doc;
    gl_doc_init(&doc, chart_yaml, GL_IN_HELM, NULL, 0);
    doc.tmpl = (struct gl_template){.kind = kind, .loc = {1, 1}, .chart = dir, .why = why};
    gl_lint_doc(run, &doc);
    gl_arena_free(&doc.arena);
}

/* Lint chart `dir` once a run: what helm renders of it, else GL903. */
static void lint_chart(struct gl_run *run, const char *dir)
{
    in_order(run);
    if (!first_visit(&run->charts, dir))
        return;
    if (!run->helm_looked_up) {
        run->helm = gl_helm_find(run->cfg, &run->no_helm);
        run->helm_looked_up = true;
    }
    struct gl_buf chart_yaml;
    gl_buf_init(&chart_yaml);
    gl_buf_printf(&chart_yaml, "%s%sChart.yaml", dir, gl_has_suffix(dir, "/") ? "" : "/");
    const char *name = gl_buf_str(&chart_yaml);
    if (!run->helm) {
        chart_not_rendered(run, dir, name, GL_TEMPLATE_CHART, run->no_helm);
    } else {
        struct gl_rendered r;
        gl_chart_render(run->helm, run->cfg, dir, &r);
        if (r.why)
            chart_not_rendered(run, dir, name, GL_TEMPLATE_CHART, r.why);
        else
            lint_text(run, name, r.text, r.len, GL_IN_HELM, false, false, dir);
        if (r.without)
            chart_not_rendered(run, dir, name, GL_TEMPLATE_CHART_PART, r.without);
        gl_rendered_free(&r);
    }
    gl_buf_free(&chart_yaml);
}

/* Is the directory `path` a build's output? It holds what a configure step or a Python
 * build leaves: CMake's CMakeCache.txt, Ninja's build.ninja, autoconf's config.status,
 * Meson's meson-info, or setuptools' lib.PLATFORM / temp.PLATFORM / bdist.PLATFORM. */
static bool build_output(const char *path)
{
    DIR *d = opendir(path);
    if (!d)
        return false;
    static const char *const marks[] = {"CMakeCache.txt", "build.ninja", "config.status",
                                        "meson-info"};
    bool out = false;
    struct dirent *e;
    while (!out && (e = readdir(d))) {
        for (size_t i = 0; i < sizeof marks / sizeof marks[0]; i++)
            out |= !strcmp(e->d_name, marks[i]);
        out |= gl_has_prefix(e->d_name, "lib.") || gl_has_prefix(e->d_name, "temp.") ||
               gl_has_prefix(e->d_name, "bdist.");
    }
    closedir(d);
    return out;
}

/* Directories the walk never enters: version control, build outputs, and trees that are
 * not the project's own (dependencies, vendored and third-party code in any of its usual
 * spellings: third_party, third-party, thirdparty, 3rdparty; generated golden test data).
 * A path named on the command line is walked whatever its name. `dir` is the directory
 * that holds `name`, at `path`. A `build`, `build-*` or `cmake-build-*`
 * directory is skipped only when it is a build's output: one that holds sources
 * (`build/Dockerfile`, `.github/actions/build-wheel/`, jetson-containers'
 * `packages/build/`) is the project's. */
static bool skipped_dir(const char *dir, const char *name, const char *path)
{
    static const char *const skip[] = {".git", ".hg", ".svn", "node_modules", "__pycache__",
                                       ".venv", "venv", ".tox", ".mypy_cache",
                                       "vendor", "third_party", "third-party", "thirdparty",
                                       "3rdparty", "site-packages"};
    for (size_t i = 0; i < sizeof skip / sizeof skip[0]; i++)
        if (!strcmp(name, skip[i]))
            return true;
    if (!strcmp(name, "golden")) /* testdata/golden */
        return !strcmp(gl_base_name(dir), "testdata");
    if (!strcmp(name, "build") || gl_has_prefix(name, "build-") ||
        gl_has_prefix(name, "cmake-build-"))
        return build_output(path);
    return false;
}

/* A directory's entry: its name (at `name` in the walk's name buffer) and the type
 * readdir gave (DT_UNKNOWN: lstat asks). */
struct entry {
    size_t name;
    unsigned char type;
};

/* (qsort_r's context: the names' buffer) */
static int entry_cmp(const void *a, const void *b, void *names)
{
    const char *n = names;
    return strcmp(n + ((const struct entry *)a)->name, n + ((const struct entry *)b)->name);
}

static void walk(struct gl_run *run, const char *dir, int depth)
{
    if (depth > 64)
        return;
    DIR *d = opendir(dir);
    if (!d) {
        int e = errno;
        in_order(run);
        gl_eprintf("%s: %s", dir, strerror(e));
        run->unreadable = true;
        return;
    }
    /* a chart is linted whole; its templates/ and charts/ (subcharts) are not read */
    bool chart = gl_chart_dir(dir);
    if (chart)
        lint_chart(run, dir);
    /* the names one after the other in one buffer, each with its NUL (not a heap string
     * each), and each entry's path made in one buffer too ("DIR/NAME", one slash) */
    struct entry *ents = NULL;
    size_t n = 0, cap = 0;
    struct gl_buf names, path;
    gl_buf_init(&names);
    gl_buf_init(&path);
    struct dirent *e;
    while ((e = readdir(d))) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
            continue;
        if (n == cap) {
            cap = cap ? cap * 2 : 32;
            ents = xrealloc(ents, cap * sizeof *ents);
        }
        ents[n++] = (struct entry){names.len, e->d_type};
        gl_buf_add(&names, e->d_name, strlen(e->d_name) + 1);
    }
    closedir(d);
    if (n > 1)   /* (qsort of a NULL array, an empty directory, is undefined) */
        qsort_r(ents, n, sizeof *ents, entry_cmp, names.data);
    size_t dlen = strlen(dir);
    gl_buf_add(&path, dir, dlen);
    if (!dlen || dir[dlen - 1] != '/')
        gl_buf_addc(&path, '/');
    size_t base = path.len;
    for (size_t i = 0; i < n; i++) {
        const char *name = names.data + ents[i].name;
        path.len = base;
        gl_buf_add(&path, name, strlen(name));
        /* the type readdir gave: no lstat a file (a file system that gives none is asked);
         * a regular file's size is found when it is opened */
        mode_t mode = ents[i].type == DT_REG ? S_IFREG : ents[i].type == DT_DIR ? S_IFDIR : 0;
        off_t size = -1;
        struct stat st;
        if (ents[i].type == DT_UNKNOWN && lstat(path.data, &st) == 0) {
            mode = st.st_mode;
            size = st.st_size;
        }
        if (gl_path_ignored(&run->cfg->path_ignores, path.data)) {
            /* config ignore-paths: neither linted nor walked into */
        } else if (S_ISDIR(mode)) {
            const struct gl_input_type *t = binary_type_of(NULL, 0, path.data);
            if (t) {
                in_order(run);
                lint_binary(run, t, path.data, -1, NULL, 0, false);
            }
            else if (!skipped_dir(dir, name, path.data) &&
                     !(chart && (!strcmp(name, "templates") || !strcmp(name, "charts"))))
                walk(run, path.data, depth + 1);
        } else if (S_ISREG(mode)) {
            /* (the kind its name says is passed on: not looked up twice) */
            bool read_it;
            enum gl_input_kind k = gl_sniff_name(path.data, &read_it);
            if (k != GL_IN_UNKNOWN || read_it)
                lint_regular(run, path.data, false, k, size);
        }
    }
    gl_buf_free(&path);
    gl_buf_free(&names);
    free(ents);
}

/* An input that could not be fetched: one line, exit 2 (as an unreadable path). */
static void report_unreachable(struct gl_run *run, const struct gl_doc *doc)
{
    gl_eprintf("%s: %s", doc->path, doc->error.message);
    run->unreadable = true;
}

/* docker://REF: an image from its registry (parsers/registry/). */
static void lint_registry(struct gl_run *run, const char *path)
{
    in_order(run);
    struct gl_doc doc;
    gl_doc_init(&doc, path, GL_IN_IMAGE, NULL, 0);
    gl_registry_read(&doc, path, run->cfg);
    if (doc.error.set && doc.error.unreachable) {
        report_unreachable(run, &doc);
    } else {
        /* no files: the CUDA facts come from the config's env (CUDA_VERSION, ...); with
         * --layers the files give them, as in an archive */
        if (!doc.error.set && !run->cfg->registry_layers)
            gl_cuda_derive(&doc, run->cfg);
        gl_lint_doc(run, &doc);
    }
    gl_arena_free(&doc.arena);
}

/* The transports skopeo users write (containers-transports(5)) for what gpulint reads
 * from a path: `oci-archive:PATH`, `docker-archive:PATH`, `oci:DIR[:TAG]`. A path that
 * exists as written is never taken for one. True when `path` was one and is linted. */
static bool lint_transport(struct gl_run *run, const char *path)
{
    struct stat st;
    if (stat(path, &st) == 0)
        return false;
    const char *rest = NULL;
    if (gl_has_prefix(path, "oci-archive:"))
        rest = path + 12;
    else if (gl_has_prefix(path, "docker-archive:"))
        rest = path + 15;
    if (rest) {
        gl_lint_path(run, rest);
        return true;
    }
    if (!gl_has_prefix(path, "oci:"))
        return false;
    char *dir = xstrdup(path + 4);
    char *colon = strrchr(dir, ':');
    struct gl_config cfg = *run->cfg;
    if (colon && stat(dir, &st) != 0) { /* oci:DIR:TAG */
        *colon = 0;
        cfg.only_tag = colon + 1;
    }
    const struct gl_config *saved = run->cfg;
    run->cfg = &cfg;
    gl_lint_path(run, dir);
    in_order(run); /* (jobs linted under cfg are taken while it lives) */
    run->cfg = saved;
    free(dir);
    return true;
}

void gl_lint_path(struct gl_run *run, const char *path)
{
    if (gl_has_prefix(path, GL_REGISTRY_TRANSPORT)) {
        lint_registry(run, path);
        return;
    }
    if (lint_transport(run, path))
        return;
    if (!strcmp(path, "-")) {
        in_order(run);
        read_stdin(run);
        return;
    }
    struct stat st;
    if (stat(path, &st) != 0) {
        int e = errno;
        in_order(run);
        gl_eprintf("%s: %s", path, strerror(e));
        run->unreadable = true;
        return;
    }
    if (gl_path_ignored(&run->cfg->path_ignores, path))
        return; /* config ignore-paths applies to named paths too (pre-commit names files) */
    char *chart = gl_chart_of(path);
    if (chart) { /* a template (or subchart) stands for its chart */
        lint_chart(run, chart);
        free(chart);
        return;
    }
    const struct gl_input_type *layout = S_ISDIR(st.st_mode) ? binary_type_of(NULL, 0, path) : NULL;
    const char *what = S_ISDIR(st.st_mode) ? NULL : not_readable_kind(st.st_mode);
    if (layout) {
        in_order(run);
        lint_binary(run, layout, path, -1, NULL, 0, true);
    } else if (S_ISDIR(st.st_mode)) {
        walk(run, path, 0);
    } else if (what) { /* never opened: opening a device can have effects of its own */
        in_order(run);
        gl_eprintf("%s: %s: not linted (name a file, a directory or -)", path,
                what);
        run->unreadable = true;
    } else if (S_ISREG(st.st_mode)) {
        lint_regular(run, path, true, run->cfg->type, st.st_size);
    } else {
        in_order(run);
        lint_file(run, path, true);
    }
}
