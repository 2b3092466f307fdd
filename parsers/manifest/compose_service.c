/* SPDX-License-Identifier: Apache-2.0 */
/* compose_service.c: a service of a compose file another input names (see
 * compose_service.h). */
#include "parsers/manifest/compose_service.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "linter/core/limits.h"
#include "parsers/manifest/compose.h"
#include "parsers/manifest/compose_env.h"

/* Read and parse `file` into doc's arena: its launches, refs and env in *f. */
static void load(struct gl_doc *doc, const char *file, struct gl_compose_file *f)
{
    f->failed = true;
    size_t len;
    bool over;
    /* (parsed into doc's arena: a compose file far larger than real ones is not read) */
    size_t cap = (size_t)gl_limit(GL_LIMIT_INPUT_SIZE);
    if (cap > GL_COMPOSE_SERVICE_MAX_BYTES)
        cap = GL_COMPOSE_SERVICE_MAX_BYTES;
    char *data = cz_read_beside(doc, file, cap, &len, &over);
    if (!data)
        return;
    if (over || memchr(data, '\0', len)) {
        free(data);
        return;
    }
    const char *text = gl_arena_strndup(&doc->arena, data, len);
    free(data);
    /* the compose file is parsed into doc's own arena: what it builds lives as long as doc */
    struct gl_doc other;
    gl_doc_init(&other, cz_path_beside(doc, file), GL_IN_COMPOSE, text, len);
    gl_arena_free(&other.arena);
    other.arena = doc->arena;
    gl_parse_compose_doc(&other, NULL);
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
}

bool gl_compose_service_load(struct gl_doc *doc, struct gl_compose_files *files,
                             const char *file, const char *name, struct gl_compose_service *out)
{
    memset(out, 0, sizeof *out);
    if (!doc->path || !strcmp(doc->path, "-") || !file[0] || !name[0] ||
        gl_arena_over(&doc->arena))
        return false;
    struct gl_compose_file *f = NULL;
    for (size_t k = 0; k < files->n && !f; k++)
        if (!strcmp(files->f[k].file, file))
            f = &files->f[k];
    if (!f) {
        if (files->n == GL_COMPOSE_FILES_MAX)
            return false;
        f = &files->f[files->n++];
        memset(f, 0, sizeof *f);
        f->file = gl_arena_strdup(&doc->arena, file);
        load(doc, file, f);
    }
    if (f->failed)
        return false;
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

bool gl_compose_file_exists(struct gl_doc *doc, const char *file)
{
    struct stat st;
    if (!doc->path || !strcmp(doc->path, "-"))
        return false;
    return stat(cz_path_beside(doc, file), &st) == 0 && S_ISREG(st.st_mode);
}
