/* SPDX-License-Identifier: Apache-2.0 */
/* model_build.c: the builds of a Dockerfile as facts of the run (see model_ref.h, "builds of a
 * Dockerfile"). */
#include "linter/core/model.h"

#include <string.h>

char *gl_path_lexical(struct gl_arena *a, const char *path)
{
    size_t n = strlen(path);
    char *out = gl_arena_alloc(a, n + 2);
    size_t o = 0;
    bool abs = path[0] == '/';
    if (abs)
        out[o++] = '/';
    size_t floor = o; /* ".." components at the start of a relative path stay */
    for (const char *s = path; *s;) {
        while (*s == '/')
            s++;
        size_t len = strcspn(s, "/");
        if (!len)
            break;
        if (len == 1 && s[0] == '.') {
            s += len;
            continue;
        }
        if (len == 2 && s[0] == '.' && s[1] == '.' && o > floor) {
            while (o > floor && out[o - 1] != '/')
                o--; /* drop the last name */
            if (o > floor)
                o--;     /* and its '/' */
            s += len;
            continue;
        }
        if (len == 2 && s[0] == '.' && s[1] == '.' && abs) {
            s += len;    /* "/.." is "/" */
            continue;
        }
        if (o > (abs ? 1u : 0u))
            out[o++] = '/';
        memcpy(out + o, s, len);
        o += len;
        if (len == 2 && s[0] == '.' && s[1] == '.')
            floor = o;
        s += len;
    }
    if (!o)
        out[o++] = '.';
    out[o] = '\0';
    return out;
}

static bool has_control(const char *s)
{
    for (; *s; s++)
        if ((unsigned char)*s < 0x20 || *s == 0x7f)
            return true;
    return false;
}

/* The parent of the lexical directory `dir` ("." -> NULL: the run's working directory,
 * whose parents are not known; "/" -> NULL). */
static char *parent(struct gl_arena *a, const char *dir)
{
    if (!strcmp(dir, ".") || !strcmp(dir, "/"))
        return NULL;
    const char *slash = strrchr(dir, '/');
    size_t n = strlen(dir);
    if (n >= 2 && !strcmp(dir + n - 2, "..") && (n == 2 || dir[n - 3] == '/'))
        return NULL; /* (above a "..": not known either) */
    if (!slash)
        return gl_arena_strdup(a, ".");
    return gl_arena_strndup(a, dir, slash == dir ? 1 : (size_t)(slash - dir));
}

/* The pattern of a build: '^' (any root) or '=' (this one), the directory, '\n', the path,
 * '\n', then each ARG and '\n'. */
void gl_project_add_build(struct gl_doc *doc, const char *path, bool any_root,
                          const char *const *args, size_t nargs, struct gl_loc loc,
                          const char *tool)
{
    const char *slash = doc->path ? strrchr(doc->path, '/') : NULL;
    size_t dl = !slash ? 0 : slash == doc->path ? 1 : (size_t)(slash - doc->path);
    struct gl_buf pat;
    gl_buf_init(&pat);
    gl_buf_addc(&pat, any_root ? '^' : '=');
    gl_buf_add(&pat, dl ? doc->path : ".", dl ? dl : 1);
    gl_buf_addc(&pat, '\n');
    gl_buf_adds(&pat, path);
    gl_buf_addc(&pat, '\n');
    for (size_t i = 0; i < nargs; i++) {
        if (!*args[i] || has_control(args[i]))
            continue;
        gl_buf_adds(&pat, args[i]);
        gl_buf_addc(&pat, '\n');
    }
    const char *p = gl_buf_str(&pat);
    bool same = false; /* (as the doc's last build: a script that repeats one) */
    for (size_t i = doc->nproject; i-- > 0 && !same;)
        if (doc->project[i].what & GL_PROJECT_ARG_SET) {
            same = !strcmp(doc->project[i].pattern, p);
            break;
        }
    if (!same && !has_control(path) && !(doc->path && has_control(doc->path)))
        gl_project_add(doc, GL_PROJECT_ARG_SET, path, p, loc, tool);
    gl_buf_free(&pat);
}

size_t gl_build_paths(struct gl_arena *a, const char *pattern, const char **paths,
                      const char **args)
{
    const char *nl = strchr(pattern, '\n'), *nl2 = nl ? strchr(nl + 1, '\n') : NULL;
    if ((pattern[0] != '^' && pattern[0] != '=') || !nl2)
        return 0;
    *args = nl2;
    const char *path = gl_arena_strndup(a, nl + 1, (size_t)(nl2 - nl - 1));
    const char *root = gl_path_lexical(a, gl_arena_strndup(a, pattern + 1,
                                                           (size_t)(nl - pattern - 1)));
    size_t n = 0;
    for (; root && n < GL_BUILD_ROOTS_MAX; root = parent(a, root)) {
        const char *at = path[0] == '/' ? path : gl_arena_printf(a, "%s/%s", root, path);
        paths[n++] = gl_path_lexical(a, at);
        if (pattern[0] != '^' || path[0] == '/')
            break;
    }
    return n;
}
