/* SPDX-License-Identifier: Apache-2.0 */
/* path_ignore.c: `ignore-paths:` globs against the paths the engine lints (see
 * path_ignore.h). */
#include "linter/core/path_ignore.h"

#include <limits.h>
#include <string.h>
#include <unistd.h>

#include "linter/core/glob.h"

/* Append `path`'s parts to out (which holds an absolute path or nothing), resolving `.`
 * and `..` lexically. */
static void append_parts(struct gl_buf *out, size_t root, const char *path)
{
    const char *p = path;
    while (*p) {
        while (*p == '/')
            p++;
        const char *end = p;
        while (*end && *end != '/')
            end++;
        size_t n = (size_t)(end - p);
        if (n == 2 && p[0] == '.' && p[1] == '.') {
            while (out->len > root && out->data[out->len - 1] != '/')
                out->len--;
            if (out->len > root)
                out->len--; /* the '/' before the popped part */
        } else if (n && !(n == 1 && p[0] == '.')) {
            gl_buf_addc(out, '/');
            gl_buf_add(out, p, n);
        }
        p = end;
    }
}

/* Skip leading "./" (and the slashes after it). */
static const char *skip_dot_slash(const char *path)
{
    while (path[0] == '.' && path[1] == '/') {
        path += 2;
        while (*path == '/')
            path++;
    }
    return path;
}

void gl_path_ignore_rebase(const char *base, const char *cwd, const char *path,
                           struct gl_buf *out, const char **abs, const char **rel)
{
    out->len = 0;
    if (!cwd) {
        path = skip_dot_slash(path);
        gl_buf_adds(out, path);
        const char *s = gl_buf_str(out);
        *abs = path[0] == '/' ? s : NULL;
        *rel = path[0] == '/' ? NULL : s;
        return;
    }
    size_t start = out->len;
    if (path[0] != '/')
        append_parts(out, start, cwd);
    append_parts(out, start, path);
    if (out->len == start)
        gl_buf_addc(out, '/');
    const char *a = gl_buf_str(out);
    *abs = a;
    *rel = NULL;
    if (!base)
        base = cwd;
    size_t blen = strlen(base);
    while (blen > 1 && base[blen - 1] == '/')
        blen--;
    if (blen == 1 && base[0] == '/') {
        if (a[1])
            *rel = a + 1;
    } else if (!strncmp(a, base, blen) && a[blen] == '/' && a[blen + 1]) {
        *rel = a + blen + 1;
    }
}

void gl_path_ignores_set_base(struct gl_path_ignores *pi, struct gl_arena *a,
                              const char *config_file)
{
    char cwd[PATH_MAX];
    if (!getcwd(cwd, sizeof cwd)) {
        pi->cwd = pi->base = NULL; /* paths are matched as given */
        return;
    }
    pi->cwd = gl_arena_strdup(a, cwd);
    const char *slash = strrchr(config_file, '/');
    char *dir = slash ? gl_arena_strndup(a, config_file,
                                         slash == config_file ? 1 : (size_t)(slash - config_file))
                      : gl_arena_strdup(a, ".");
    struct gl_buf b;
    gl_buf_init(&b);
    const char *abs, *rel;
    gl_path_ignore_rebase(NULL, cwd, dir, &b, &abs, &rel);
    pi->base = gl_arena_strdup(a, abs);
    gl_buf_free(&b);
}

struct gl_path_ignore *gl_path_ignores_add(struct gl_path_ignores *pi, struct gl_arena *a,
                                           const char *glob, bool whole)
{
    struct gl_path_ignore *item = GL_APPEND(a, pi->items, pi->n, pi->cap);
    memset(item, 0, sizeof *item);
    item->glob = glob;
    item->whole = whole;
    return item;
}

void gl_path_ignore_add_rule(struct gl_path_ignore *item, struct gl_arena *a, const char *id)
{
    *GL_APPEND(a, item->rules, item->nrules, item->caprules) = id;
}

/* Does the item's glob match the path or one of the directories it lies in? (`subject` is
 * writable scratch: each '/' is cut in turn and put back.) */
static bool item_matches(const struct gl_path_ignore *item, char *abs, char *rel)
{
    char *subject = item->glob[0] == '/' ? abs : rel;
    if (!subject)
        return false;
    for (char *p = subject + 1; *p; p++) {
        if (*p != '/')
            continue;
        *p = '\0';
        bool hit = gl_glob_match(item->glob, subject);
        *p = '/';
        if (hit)
            return true;
    }
    return gl_glob_match(item->glob, subject);
}

static bool has_rule(const struct gl_path_ignore *item, const char *id)
{
    for (size_t i = 0; i < item->nrules; i++)
        if (gl_streq_nocase(item->rules[i], id))
            return true;
    return false;
}

/* Does an item (whole ones when id is NULL, else ones naming rule id) match path? */
static bool any_match(const struct gl_path_ignores *pi, const char *path, const char *id)
{
    if (!pi->n || !strcmp(path, "-"))
        return false;
    bool wanted = false;
    for (size_t i = 0; i < pi->n && !wanted; i++)
        wanted = id ? !pi->items[i].whole && has_rule(&pi->items[i], id) : pi->items[i].whole;
    if (!wanted)
        return false;
    struct gl_buf b;
    gl_buf_init(&b);
    const char *abs, *rel;
    gl_path_ignore_rebase(pi->base, pi->cwd, path, &b, &abs, &rel);
    bool hit = false;
    for (size_t i = 0; i < pi->n && !hit; i++) {
        const struct gl_path_ignore *item = &pi->items[i];
        if (id ? !item->whole && has_rule(item, id) : item->whole)
            hit = item_matches(item, (char *)abs, (char *)rel); /* both point into b */
    }
    gl_buf_free(&b);
    return hit;
}

bool gl_path_ignored(const struct gl_path_ignores *pi, const char *path)
{
    return any_match(pi, path, NULL);
}

bool gl_path_rule_ignored(const struct gl_path_ignores *pi, const char *path, const char *id)
{
    return any_match(pi, path, id);
}
