/* SPDX-License-Identifier: Apache-2.0 */
/*
 * image_cache_dir.c: where the layer-index cache lives, and whether it is safe to use.
 *
 * The cache dir and its layers/ subdirectory are created with mode 0700, and used only
 * when each is a real directory (not a symbolic link), owned by the effective user and
 * not writable by group or others: anyone else who could write there could plant an
 * index under a base image's digest (the entries' checksums catch accidents, not
 * forgeries). Every load and store opens the two directories again with O_NOFOLLOW and
 * checks them on the open descriptors, and entries are opened relative to the layers/
 * descriptor, so no symbolic link ever leads out of the cache dir. A refused cache dir
 * turns caching off for the run, with one warning line on stderr.
 */
#include "parsers/image/image_cache.h"
#include "parsers/image/image_cache_internal.h"

#include "linter/core/escape.h"

#include <errno.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The path: --cache-dir, else $XDG_CACHE_HOME/gpulint, else $HOME/.cache/gpulint. */
static bool cache_path(const struct gl_config *cfg, char *out, size_t outlen)
{
    int n;
    const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
    if (cfg->cache_dir && *cfg->cache_dir)
        n = snprintf(out, outlen, "%s", cfg->cache_dir);
    else if (xdg && *xdg == '/')
        n = snprintf(out, outlen, "%s/gpulint", xdg);
    else if (home && *home == '/')
        n = snprintf(out, outlen, "%s/.cache/gpulint", home);
    else
        return false;
    return n > 0 && (size_t)n < outlen;
}

/* mkdir -p, each missing directory with mode 0700. */
static bool make_dirs(const char *path)
{
    char buf[4096];
    size_t n = strlen(path);
    if (n >= sizeof buf)
        return false;
    memcpy(buf, path, n + 1);
    for (size_t i = 1; i <= n; i++) {
        if (buf[i] != '/' && buf[i] != 0)
            continue;
        char keep = buf[i];
        buf[i] = 0;
        if (mkdir(buf, 0700) != 0 && errno != EEXIST)
            return false;
        buf[i] = keep;
    }
    return true;
}

/* "PATH WHAT[: strerror]" into why (when not NULL). */
static void say(char *why, const char *path, const char *what, int err)
{
    if (why)
        snprintf(why, GL_CACHE_WHY_MAX, "%s %s%s%s", path, what, err ? ": " : "",
                 err ? strerror(err) : "");
}

/* Why the directory `st` may not hold the cache, or NULL. */
static const char *refusal(const struct stat *st)
{
    if (S_ISLNK(st->st_mode))
        return "is a symbolic link";
    if (!S_ISDIR(st->st_mode))
        return "is not a directory";
    if (st->st_uid != geteuid())
        return "is owned by another user";
    if (st->st_mode & (S_IWGRP | S_IWOTH))
        return "is writable by group or others";
    return NULL;
}

/* `name` under `at` opened as a directory fit for the cache, or -1 (why: `shown`, its
 * path, and the reason). A symbolic link is never followed (O_NOFOLLOW). */
static int open_checked(int at, const char *name, const char *shown, char *why)
{
    struct stat st;
    int fd = openat(at, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0) {
        int err = errno;
        const char *no = fstatat(at, name, &st, AT_SYMLINK_NOFOLLOW) == 0 ? refusal(&st) : NULL;
        say(why, shown, no ? no : "cannot be opened", no ? 0 : err);
        return -1;
    }
    const char *no = fstat(fd, &st) != 0 ? "cannot be read" : refusal(&st);
    if (no) {
        say(why, shown, no, 0);
        close(fd);
        return -1;
    }
    return fd;
}

int gl_cache_open_layers(const char *dir, bool create, char *why)
{
    char path[4096], shown[4200];
    size_t n = strlen(dir);
    while (n > 1 && dir[n - 1] == '/') /* "link/" would resolve the link */
        n--;
    if (n == 0 || n >= sizeof path) {
        say(why, "the cache directory", "is not a usable path", 0);
        return -1;
    }
    memcpy(path, dir, n);
    path[n] = 0;
    snprintf(shown, sizeof shown, "%s/layers", path);
    if (create && !make_dirs(path)) {
        say(why, path, "cannot be created", errno);
        return -1;
    }
    int top = open_checked(AT_FDCWD, path, path, why);
    if (top < 0)
        return -1;
    if (create && mkdirat(top, "layers", 0700) != 0 && errno != EEXIST) {
        say(why, shown, "cannot be created", errno);
        close(top);
        return -1;
    }
    int layers = open_checked(top, "layers", shown, why);
    close(top);
    return layers;
}

bool gl_layer_cache_dir(const struct gl_config *cfg, char *out, size_t outlen)
{
    static atomic_flag warned = ATOMIC_FLAG_INIT;
    if (cfg->no_cache || !cache_path(cfg, out, outlen))
        return false;
    char why[GL_CACHE_WHY_MAX];
    int fd = gl_cache_open_layers(out, true, why);
    if (fd >= 0) {
        close(fd);
        return true;
    }
    if (!atomic_flag_test_and_set(&warned))
        gl_eprintf("warning: the layer-index cache is off for this run: %s", why);
    return false;
}
