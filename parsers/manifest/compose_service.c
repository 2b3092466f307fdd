/* SPDX-License-Identifier: Apache-2.0 */
/* compose_service.c: a service of a compose file another input names (see
 * compose_service.h). */
#include "parsers/manifest/compose_service.h"

#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "linter/core/limits.h"
#include "parsers/manifest/compose.h"
#include "parsers/manifest/compose_env.h"

/* The bytes of files[0, n) (each named relative to doc's directory), one YAML stream: a
 * document start between them, so that each later file is a later document, which
 * overrides the earlier ones as compose merges its -f files. NULL when one cannot be
 * read, holds a NUL byte, or they hold more than the cap together. */
static char *read_files(struct gl_doc *doc, const char *const *files, size_t n, size_t *len)
{
    size_t cap = (size_t)gl_limit(GL_LIMIT_INPUT_SIZE);
    if (cap > GL_COMPOSE_SERVICE_MAX_BYTES)
        cap = GL_COMPOSE_SERVICE_MAX_BYTES;
    struct gl_buf out;
    gl_buf_init(&out);
    for (size_t i = 0; i < n; i++) {
        size_t got;
        bool over;
        char *data = cz_read_beside(doc, files[i], cap - out.len, &got, &over);
        bool bad = !data || over || memchr(data, '\0', got);
        if (!bad) {
            if (i)
                gl_buf_add(&out, "\n---\n", 5);
            gl_buf_add(&out, data, got);
        }
        free(data);
        if (bad || out.len + 5 > cap) {
            gl_buf_free(&out);
            return NULL;
        }
    }
    *len = out.len;
    return out.data ? out.data : xstrdup("");
}

static void mark_variants(struct gl_doc *doc, const char *const *files, size_t nfiles);

/* Read and parse files[0, n) into doc's arena: the launches, refs, env and includes of
 * the project they make in *f; with `variants`, its CPU variants are marked as a linted
 * file's are (mark_variants, which loads the other files without them). */
static void load(struct gl_doc *doc, const char *const *files, size_t n,
                 struct gl_compose_file *f, bool variants)
{
    f->failed = true;
    size_t len;
    /* (parsed into doc's arena: compose files far larger than real ones are not read) */
    char *data = read_files(doc, files, n, &len);
    if (!data)
        return;
    const char *text = gl_arena_strndup(&doc->arena, data, len);
    free(data);
    /* parsed into doc's own arena: what it builds lives as long as doc; the project's
     * directory (its .env, relative paths) is the first file's */
    struct gl_doc other;
    gl_doc_init(&other, cz_path_beside(doc, files[0]), GL_IN_COMPOSE, text, len);
    gl_arena_free(&other.arena);
    other.arena = doc->arena;
    gl_parse_compose_doc(&other, NULL);
    if (variants && !other.error.set)
        mark_variants(&other, files, n);
    doc->arena = other.arena;
    if (other.error.set || gl_arena_over(&doc->arena))
        return;
    f->failed = false;
    f->path = other.path;
    f->launches = other.launches;
    f->nlaunches = other.nlaunches;
    f->refs = other.refs;
    f->nrefs = other.nrefs;
    f->env = other.env;
    f->nenv = other.nenv;
    f->includes = other.includes;
    f->nincludes = other.nincludes;
}

/* The entry of files for the project files[0, n), read and parsed (load) on its first
 * use; NULL when the table is full. */
static struct gl_compose_file *project(struct gl_doc *doc, struct gl_compose_files *files,
                                       const char *const *names, size_t n, bool variants)
{
    struct gl_buf key;
    gl_buf_init(&key);
    for (size_t i = 0; i < n; i++) {
        if (i)
            gl_buf_addc(&key, '\n');
        gl_buf_add(&key, names[i], strlen(names[i]));
    }
    struct gl_compose_file *f = NULL;
    for (size_t k = 0; k < files->n && !f; k++)
        if (!strcmp(files->f[k].file, gl_buf_str(&key)))
            f = &files->f[k];
    if (!f && files->n < GL_COMPOSE_FILES_MAX) {
        f = &files->f[files->n++];
        memset(f, 0, sizeof *f);
        f->file = gl_arena_strdup(&doc->arena, gl_buf_str(&key));
        load(doc, names, n, f, variants);
    }
    gl_buf_free(&key);
    return f;
}

/* Service `name` of project f into *out; false when it has none. */
static bool lookup(struct gl_doc *doc, const struct gl_compose_file *f, const char *name,
                   struct gl_compose_service *out)
{
    memset(out, 0, sizeof *out);
    for (size_t i = 0; i < f->nlaunches; i++) {
        const struct gl_launch *l = &f->launches[i];
        if (!l->name || strcmp(l->name, name))
            continue;
        out->path = f->path;
        out->launch = *l;
        out->ref = l->ref >= 0 && (size_t)l->ref < f->nrefs ? &f->refs[l->ref] : NULL;
        struct gl_env *env = NULL;
        size_t cap = 0;
        for (size_t k = 0; k < f->nenv; k++)
            if (f->env[k].origin == GL_ENV_LAUNCH && f->env[k].launch == (int)i)
                *GL_APPEND(&doc->arena, env, out->nenv, cap) = f->env[k];
        out->env = env;
        return true;
    }
    return false;
}

/* Find service `name` in the project files[0, n), else in the files it includes (named
 * relative to the first file's directory), each project searched once (seen). */
static bool find(struct gl_doc *doc, struct gl_compose_files *files, const char *const *names,
                 size_t n, const char *name, struct gl_compose_service *out, bool *seen)
{
    struct gl_compose_file *f = project(doc, files, names, n, true);
    if (!f || f->failed || seen[f - files->f])
        return false;
    seen[f - files->f] = true;
    if (lookup(doc, f, name, out))
        return true;
    const char *slash = strrchr(names[0], '/');
    for (size_t k = 0; k < f->nincludes; k++) {
        const char *inc = f->includes[k];
        const char *path = inc[0] == '/' || !slash
                               ? inc
                               : gl_arena_printf(&doc->arena, "%.*s/%s",
                                                 (int)(slash - names[0]), names[0], inc);
        if (find(doc, files, &path, 1, name, out, seen))
            return true;
    }
    return false;
}

bool gl_compose_service_load(struct gl_doc *doc, struct gl_compose_files *files,
                             const char *const *names, size_t n, const char *name,
                             struct gl_compose_service *out)
{
    memset(out, 0, sizeof *out);
    if (!doc->path || !strcmp(doc->path, "-") || !n || !name[0] ||
        gl_arena_over(&doc->arena))
        return false;
    for (size_t i = 0; i < n; i++)
        if (!names[i][0])
            return false;
    bool seen[GL_COMPOSE_FILES_MAX] = {0};
    return find(doc, files, names, n, name, out, seen);
}

/* Does a launch ask for a GPU (a request whose count is not 0)? */
static bool wants_gpu(const struct gl_launch *l)
{
    for (size_t k = 0; k < l->ngpus; k++)
        if (!l->gpus[k].count || strcmp(l->gpus[k].count, "0"))
            return true;
    return false;
}

static int by_name(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* Is `name` one of the base names of files[0, n)? */
static bool among(const char *name, const char *const *files, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        const char *slash = strrchr(files[i], '/');
        if (!strcmp(name, slash ? slash + 1 : files[i]))
            return true;
    }
    return false;
}

/* The names of the compose files in doc's directory other than files[0, n) (by base
 * name), sorted, at most GL_COMPOSE_FILES_MAX (in doc's arena); their number. */
static size_t siblings(struct gl_doc *doc, const char *const *files, size_t nfiles,
                       const char **out)
{
    const char *slash = strrchr(doc->path, '/');
    char *dir = slash ? gl_arena_strndup(&doc->arena, doc->path, (size_t)(slash - doc->path) + 1)
                      : gl_arena_strdup(&doc->arena, ".");
    DIR *d = opendir(dir);
    if (!d)
        return 0;
    const char **all = NULL;
    size_t n = 0, cap = 0;
    struct dirent *e;
    while ((e = readdir(d)) && n < 4096)
        if (gl_compose_named(e->d_name) && !among(e->d_name, files, nfiles))
            *GL_APPEND(&doc->arena, all, n, cap) = gl_arena_strdup(&doc->arena, e->d_name);
    closedir(d);
    if (n)
        qsort(all, n, sizeof *all, by_name);
    size_t m = n < GL_COMPOSE_FILES_MAX ? n : GL_COMPOSE_FILES_MAX;
    for (size_t i = 0; i < m; i++)
        out[i] = all[i];
    return m;
}

/* Can the files beside doc be read: it has a path (not stdin) and room in its arena? */
static bool usable_path(const struct gl_doc *doc)
{
    return doc->path && strcmp(doc->path, "-") && !gl_arena_over(&doc->arena);
}

/* What is asked of each compose file beside a linted one: `beside` sees one such file
 * (parsed in `one`) and says whether the walk goes on. */
typedef bool (*beside_fn)(struct gl_doc *doc, struct gl_doc *one,
                          const struct gl_compose_file *f, void *ctx);

/* Each other compose file of doc's directory (siblings), read and parsed on its own into a
 * scratch arena freed before the next (VARIANT_MEMORY at most: none of it is charged to
 * doc, whose own parse goes on whatever the files beside it hold; one that does not fit,
 * or does not parse, is not asked about). */
#define VARIANT_MEMORY ((size_t)16 << 20)
static void each_beside(struct gl_doc *doc, const char *const *files, size_t nfiles,
                        beside_fn beside, void *ctx)
{
    struct gl_doc scratch;
    gl_doc_init(&scratch, doc->path, GL_IN_COMPOSE, "", 0);
    const char *names[GL_COMPOSE_FILES_MAX];
    size_t n = siblings(&scratch, files, nfiles, names);
    bool more = true;
    for (size_t k = 0; k < n && more; k++) {
        struct gl_doc one; /* (names live in scratch's arena, one file's parse in one's) */
        gl_doc_init(&one, doc->path, GL_IN_COMPOSE, "", 0);
        one.arena.limit = VARIANT_MEMORY;
        struct gl_compose_files other_files;
        memset(&other_files, 0, sizeof other_files);
        /* (only the file itself: what it includes is linted and compared on its own) */
        struct gl_compose_file *f = project(&one, &other_files, &names[k], 1, false);
        if (f && !f->failed && !gl_arena_over(&one.arena))
            more = beside(doc, &one, f, ctx);
        gl_arena_free(&one.arena);
    }
    gl_arena_free(&scratch.arena);
}

/* Mark the services without a GPU whose namesake in file f requests GPUs. */
static bool mark_variants_in(struct gl_doc *doc, struct gl_doc *one,
                             const struct gl_compose_file *f, void *ctx)
{
    (void)ctx;
    for (size_t i = 0; !gl_arena_over(&one->arena) && i < doc->nlaunches; i++) {
        struct gl_launch *l = &doc->launches[i];
        struct gl_compose_service other;
        if (l->name && !l->fragment && !l->secondary_role && !wants_gpu(l) &&
            lookup(one, f, l->name, &other) && wants_gpu(&other.launch))
            l->secondary_role = true;
    }
    return true;
}

/* Mark the CPU variants among doc's services, the project of files[0, n): a service with
 * no GPU whose namesake in another compose file of the directory requests GPUs. */
static void mark_variants(struct gl_doc *doc, const char *const *files, size_t nfiles)
{
    if (!usable_path(doc))
        return;
    bool cpu = false;
    for (size_t i = 0; i < doc->nlaunches && !cpu; i++)
        cpu = doc->launches[i].name && !doc->launches[i].fragment && !wants_gpu(&doc->launches[i]);
    if (cpu) /* (no service to compare: no directory read) */
        each_beside(doc, files, nfiles, mark_variants_in, NULL);
}

/* A GPU template: a service with neither image nor build that requests GPUs, and runs
 * beside others (a group). */
static bool gpu_template(const struct gl_launch *l)
{
    return l->fragment && l->ref < 0 && l->name && l->group && wants_gpu(l);
}

/* Clear `alone`'s mark (one byte a launch) of the GPU templates that override a namesake
 * service of file f; false once none is left. */
static bool overrides_in(struct gl_doc *doc, struct gl_doc *one,
                         const struct gl_compose_file *f, void *ctx)
{
    bool *alone = ctx, left = false;
    for (size_t i = 0; !gl_arena_over(&one->arena) && i < doc->nlaunches; i++) {
        struct gl_compose_service other;
        if (alone[i] && lookup(one, f, doc->launches[i].name, &other))
            alone[i] = false;
        left |= alone[i];
    }
    return left;
}

/* In a file whose name says nothing of compose (jetson-containers' packages/templates.yml,
 * read as compose by its content), a GPU template with no namesake in a compose file
 * beside it overrides no service: it is a base that other files' services `extends`, which
 * compose never starts by itself (a service with neither image nor build is an error). It
 * runs at no time beside the others: its group is cleared. A file named as compose files
 * are (`docker-compose.gpu.yml`, `compose.override.yaml`) is an override given with `-f`:
 * its services run. */
static void mark_templates(struct gl_doc *doc)
{
    if (strstr(gl_base_name(doc->path), "compose"))
        return;
    size_t n = 0;
    for (size_t i = 0; i < doc->nlaunches; i++)
        n += gpu_template(&doc->launches[i]);
    if (!n)
        return;
    bool *alone = gl_arena_alloc(&doc->arena, doc->nlaunches * sizeof *alone);
    for (size_t i = 0; i < doc->nlaunches; i++)
        alone[i] = gpu_template(&doc->launches[i]);
    each_beside(doc, &doc->path, 1, overrides_in, alone);
    for (size_t i = 0; i < doc->nlaunches; i++)
        if (alone[i])
            doc->launches[i].group = NULL;
}

void gl_compose_gpu_variants(struct gl_doc *doc)
{
    if (!usable_path(doc))
        return;
    mark_variants(doc, &doc->path, 1);
    mark_templates(doc);
}

bool gl_compose_file_exists(struct gl_doc *doc, const char *file)
{
    struct stat st;
    if (!doc->path || !strcmp(doc->path, "-"))
        return false;
    return stat(cz_path_beside(doc, file), &st) == 0 && S_ISREG(st.st_mode);
}
