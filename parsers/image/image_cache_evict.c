/* SPDX-License-Identifier: Apache-2.0 */
/*
 * image_cache_evict.c: the layer-index cache's size bound (cache-size, limits.h).
 *
 * Recency is an entry's mtime: a store writes it, a hit sets it to now (futimens in
 * image_cache.c; atime is not used, relatime and noatime mounts do not keep it). After
 * each store, one walk of layers/ (readdir, and fstatat without following links) sums
 * the sizes of the regular "*.idx" files and, when the sum is over the bound, unlinks
 * the oldest until it is not; the walk also removes temporary files a killed process
 * left behind (older than GL_CACHE_TEMP_GRACE). Hits never walk.
 *
 * Two processes may walk at once: each unlinks by name, a name already gone is counted
 * as removed, and a reader that opened an entry keeps reading it after the unlink (the
 * inode lives until closed). A file that vanishes mid-walk is skipped. At worst both
 * remove the same oldest entries, or an entry refreshed an instant after the walk saw it:
 * a later miss, never an error.
 */
#include "parsers/image/image_cache_internal.h"

#include <dirent.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "linter/core/util.h"

struct aged {
    struct timespec mtime;
    uint64_t size;
    char *name;
};

struct walk {
    int fd;
    time_t stale_before; /* temporary files older than this are removed */
    struct aged *v;
    size_t n, cap;
    uint64_t total;
};

static int by_age(const void *pa, const void *pb)
{
    const struct aged *a = pa, *b = pb;
    if (a->mtime.tv_sec != b->mtime.tv_sec)
        return a->mtime.tv_sec < b->mtime.tv_sec ? -1 : 1;
    if (a->mtime.tv_nsec != b->mtime.tv_nsec)
        return a->mtime.tv_nsec < b->mtime.tv_nsec ? -1 : 1;
    return strcmp(a->name, b->name);
}

/* One directory entry: an entry counted, a stale temporary file removed, else nothing. */
static void visit(struct walk *w, const char *name)
{
    struct stat st;
    if (fstatat(w->fd, name, &st, AT_SYMLINK_NOFOLLOW) != 0 || !S_ISREG(st.st_mode))
        return;
    if (gl_has_prefix(name, GL_CACHE_TEMP_PREFIX)) {
        if (st.st_mtim.tv_sec < w->stale_before)
            unlinkat(w->fd, name, 0);
        return;
    }
    if (name[0] == '.' || !gl_has_suffix(name, GL_CACHE_ENTRY_SUFFIX))
        return;
    if (w->n == w->cap) {
        w->cap = w->cap ? 2 * w->cap : 64;
        w->v = xrealloc(w->v, w->cap * sizeof *w->v);
    }
    w->v[w->n++] = (struct aged){st.st_mtim, (uint64_t)st.st_size, xstrdup(name)};
    w->total += (uint64_t)st.st_size;
}

void gl_cache_evict(int layers_fd, uint64_t bound)
{
    int fd = openat(layers_fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
    if (!d) {
        if (fd >= 0)
            close(fd);
        return;
    }
    struct walk w = {.fd = layers_fd, .stale_before = time(NULL) - GL_CACHE_TEMP_GRACE};
    for (struct dirent *e; (e = readdir(d));)
        visit(&w, e->d_name);
    closedir(d);
    if (w.total > bound)
        qsort(w.v, w.n, sizeof *w.v, by_age);
    for (size_t i = 0; i < w.n; i++) {
        if (w.total > bound) {
            unlinkat(layers_fd, w.v[i].name, 0); /* (gone already: removed by another) */
            w.total -= w.v[i].size;
        }
        free(w.v[i].name);
    }
    free(w.v);
}
