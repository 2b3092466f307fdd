/* SPDX-License-Identifier: Apache-2.0 */
/* chart_deps.c: a chart rendered without its missing dependencies (see chart_deps.h). */
#include "linter/cli/chart_deps.h"

#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "linter/core/util.h"

bool gl_chart_deps_missing(const char *helm_err)
{
    return helm_err && (strstr(helm_err, "missing in charts/ directory") ||
                        strstr(helm_err, "checking for chart dependencies"));
}

struct budget {
    size_t files, bytes;
};

static bool copy_file(const char *from, const char *to, struct budget *b)
{
    int in = open(from, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
    if (in < 0)
        return false;
    int out = open(to, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    bool ok = out >= 0;
    char buf[16384];
    ssize_t n;
    while (ok && (n = read(in, buf, sizeof buf)) > 0) {
        b->bytes += (size_t)n;
        ok = b->bytes <= CHART_COPY_MAX_BYTES && write(out, buf, (size_t)n) == n;
    }
    ok = ok && n == 0;
    close(in);
    if (out >= 0)
        close(out);
    return ok;
}

static bool copy_tree(const char *from, const char *to, struct budget *b, int depth)
{
    if (depth > 32 || mkdir(to, 0700) != 0)
        return false;
    DIR *d = opendir(from);
    if (!d)
        return false;
    bool ok = true;
    struct dirent *e;
    while (ok && (e = readdir(d))) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
            continue;
        char *src = xasprintf("%s/%s", from, e->d_name);
        char *dst = xasprintf("%s/%s", to, e->d_name);
        struct stat st;
        if (lstat(src, &st) == 0 && (S_ISDIR(st.st_mode) || S_ISREG(st.st_mode))) {
            ok = ++b->files <= CHART_COPY_MAX_FILES &&
                 (S_ISDIR(st.st_mode) ? copy_tree(src, dst, b, depth + 1)
                                      : copy_file(src, dst, b));
        }
        free(src);
        free(dst);
    }
    closedir(d);
    return ok;
}

static void remove_tree(const char *path, int depth)
{
    DIR *d = depth <= 33 ? opendir(path) : NULL;
    struct dirent *e;
    while (d && (e = readdir(d))) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
            continue;
        char *p = xasprintf("%s/%s", path, e->d_name);
        struct stat st;
        if (lstat(p, &st) == 0 && S_ISDIR(st.st_mode))
            remove_tree(p, depth + 1);
        else
            unlink(p);
        free(p);
    }
    if (d)
        closedir(d);
    rmdir(path);
}

/* Take the top-level `dependencies:` block out of a Chart.yaml text (its key line and the
 * lines after it that are indented, blank or comments, or list items at column 0); the
 * `name:` values of its entries into *names. False when there is no such block. */
static bool strip_dependencies(const char *text, size_t len, struct gl_buf *out,
                               struct gl_buf *names)
{
    bool found = false, in = false;
    for (size_t i = 0; i < len;) {
        const char *nl = memchr(text + i, '\n', len - i);
        size_t e = nl ? (size_t)(nl - text) + 1 : len;
        const char *l = text + i;
        size_t n = e - i;
        if (!in && n >= 13 && !memcmp(l, "dependencies:", 13)) {
            in = found = true;
        } else if (in && n && l[0] != ' ' && l[0] != '\t' && l[0] != '#' && l[0] != '\n' &&
                   l[0] != '\r' && l[0] != '-') {
            in = false;
        }
        if (in) {
            const char *k = l;
            while (k < l + n && (*k == ' ' || *k == '-'))
                k++;
            if ((size_t)(l + n - k) > 5 && !memcmp(k, "name:", 5)) {
                const char *v = k + 5, *ve = l + n;
                while (v < ve && (*v == ' ' || *v == '"' || *v == '\''))
                    v++;
                while (ve > v && strchr(" \t\r\n\"'", ve[-1]))
                    ve--;
                gl_buf_printf(names, "%s%.*s", names->len ? ", " : "", (int)(ve - v), v);
            }
        } else {
            gl_buf_add(out, l, n);
        }
        i = e;
    }
    return found;
}

char *gl_chart_copy_without_deps(const char *dir, char **names)
{
    *names = NULL;
    char *chart_yaml = xasprintf("%s/Chart.yaml", dir);
    struct gl_buf text, stripped, deps;
    gl_buf_init(&text);
    gl_buf_init(&stripped);
    gl_buf_init(&deps);
    char *copy = NULL;
    FILE *f = fopen(chart_yaml, "rb");
    if (f) {
        char buf[8192];
        size_t n;
        while ((n = fread(buf, 1, sizeof buf, f)) > 0 && text.len < (1u << 20))
            gl_buf_add(&text, buf, n);
        fclose(f);
    }
    char tmpl[] = "/tmp/gpulint-chart-XXXXXX";
    if (text.len && strip_dependencies(text.data, text.len, &stripped, &deps) &&
        mkdtemp(tmpl)) {
        /* the copy is a directory named as the chart's, inside the temporary one */
        const char *base = strrchr(dir, '/') ? strrchr(dir, '/') + 1 : dir;
        copy = xasprintf("%s/%s", tmpl, *base ? base : "chart");
        struct budget b = {0};
        char *new_yaml = xasprintf("%s/Chart.yaml", copy);
        char *lock = xasprintf("%s/Chart.lock", copy);
        bool ok = copy_tree(dir, copy, &b, 0);
        FILE *w = ok ? fopen(new_yaml, "wb") : NULL;
        ok = w && fwrite(stripped.data, 1, stripped.len, w) == stripped.len;
        if (w)
            ok = fclose(w) == 0 && ok;
        unlink(lock);
        free(new_yaml);
        free(lock);
        if (ok) {
            *names = xstrdup(deps.len ? gl_buf_str(&deps) : "(unnamed)");
        } else {
            remove_tree(tmpl, 0);
            free(copy);
            copy = NULL;
        }
    }
    gl_buf_free(&text);
    gl_buf_free(&stripped);
    gl_buf_free(&deps);
    free(chart_yaml);
    return copy;
}

void gl_chart_copy_remove(char *copy)
{
    if (!copy)
        return;
    char *slash = strrchr(copy, '/');
    if (slash)
        *slash = '\0'; /* the temporary directory that holds it */
    remove_tree(copy, 0);
    free(copy);
}
