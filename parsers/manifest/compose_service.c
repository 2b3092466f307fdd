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

bool gl_compose_service_load(struct gl_doc *doc, const char *file, const char *name,
                             struct gl_compose_service *out)
{
    memset(out, 0, sizeof *out);
    if (!doc->path || !strcmp(doc->path, "-") || !file[0] || !name[0] ||
        gl_arena_over(&doc->arena))
        return false;
    size_t len;
    bool over;
    /* (parsed into doc's arena: a compose file far larger than real ones is not read) */
    size_t cap = (size_t)gl_limit(GL_LIMIT_INPUT_SIZE);
    if (cap > GL_COMPOSE_SERVICE_MAX_BYTES)
        cap = GL_COMPOSE_SERVICE_MAX_BYTES;
    char *data = cz_read_beside(doc, file, cap, &len, &over);
    if (!data)
        return false;
    if (over || memchr(data, '\0', len)) {
        free(data);
        return false;
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
        return false;
    for (size_t i = 0; i < other.nlaunches; i++) {
        const struct gl_launch *l = &other.launches[i];
        if (!l->name || strcmp(l->name, name))
            continue;
        out->path = other.path;
        out->launch = *l;
        out->ref = l->ref >= 0 && (size_t)l->ref < other.nrefs ? &other.refs[l->ref] : NULL;
        struct gl_env *env = NULL;
        size_t cap = 0;
        for (size_t k = 0; k < other.nenv; k++)
            if (other.env[k].origin == GL_ENV_LAUNCH && other.env[k].launch == (int)i)
                *GL_APPEND(&doc->arena, env, out->nenv, cap) = other.env[k];
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
