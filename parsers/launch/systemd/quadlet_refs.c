/* SPDX-License-Identifier: Apache-2.0 */
/* quadlet_refs.c: the image of a unit a Quadlet `.container` names (see quadlet_refs.h). */
#include "parsers/launch/systemd/quadlet_refs.h"

#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The file's bytes (malloc'd, NUL-terminated) when it is a regular file of at most
 * QUADLET_UNIT_MAX bytes, else NULL. */
static char *read_small(const char *path, size_t *len)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0)
        return NULL;
    struct stat st;
    char *data = NULL;
    if (!fstat(fd, &st) && S_ISREG(st.st_mode) && st.st_size <= QUADLET_UNIT_MAX &&
        (data = malloc(QUADLET_UNIT_MAX + 2)) != NULL) {
        *len = gl_read_upto(fd, data, QUADLET_UNIT_MAX + 1);
        data[*len] = '\0';
        if (*len > QUADLET_UNIT_MAX) { /* (it grew since fstat) */
            free(data);
            data = NULL;
        }
    }
    close(fd);
    return data;
}

/* Can the value t[0..n) be taken as written: one word, no quote, escape, variable or
 * specifier? */
static bool plain_value(const char *t, size_t n)
{
    return n && !memchr(t, '\\', n) && strcspn(t, " \t\"'$%") >= n;
}

/* Transports of podman image pull that name no registry image. */
static bool local_transport(const char *t, size_t n)
{
    static const char *const names[] = {"oci-archive:", "docker-archive:", "oci:", "dir:",
                                        "containers-storage:", "docker-daemon:"};
    for (size_t k = 0; k < sizeof names / sizeof names[0]; k++)
        if (n >= strlen(names[k]) && !memcmp(t, names[k], strlen(names[k])))
            return true;
    return false;
}

/* The value of `key` in section `header` of the unit text: the last one (first: the
 * first); *n its length, NULL when absent or not plain. */
static const char *unit_value(const char *t, size_t len, const char *header, const char *key,
                              bool first, size_t *n)
{
    const char *found = NULL;
    bool in = false, plain = true;
    size_t hl = strlen(header), kl = strlen(key);
    for (size_t p = 0; p < len;) {
        const char *nl = memchr(t + p, '\n', len - p);
        size_t e = nl ? (size_t)(nl - t) : len, s = p;
        p = e + 1;
        while (s < e && (t[s] == ' ' || t[s] == '\t'))
            s++;
        while (e > s && (t[e - 1] == '\r' || t[e - 1] == ' ' || t[e - 1] == '\t'))
            e--;
        if (s < e && t[s] == '[') {
            in = e - s == hl && !memcmp(t + s, header, hl);
            continue;
        }
        size_t k = s + kl;
        if (!in || e - s <= kl || memcmp(t + s, key, kl))
            continue;
        while (k < e && (t[k] == ' ' || t[k] == '\t'))
            k++;
        if (k >= e || t[k] != '=')
            continue;
        for (k++; k < e && (t[k] == ' ' || t[k] == '\t');)
            k++;
        found = t + k;
        *n = e - k;
        plain = plain_value(found, *n);
        if (first)
            break;
    }
    return found && plain ? found : NULL;
}

bool quadlet_sibling_image(struct gl_arena *a, const char *unit_path, const char *name,
                           size_t n, struct quadlet_image *out)
{
    bool build = n > 6 && !memcmp(name + n - 6, ".build", 6);
    const char *slash = unit_path ? strrchr(unit_path, '/') : NULL;
    if (!unit_path || !strcmp(unit_path, "-") || memchr(name, '/', n) || memchr(name, '\0', n))
        return false;
    size_t dir = slash ? (size_t)(slash - unit_path) + 1 : 0;
    const char *path = gl_arena_cat3(a, unit_path, dir, name, n, "", 0);
    size_t len = 0, vn = 0;
    char *text = read_small(path, &len);
    if (!text)
        return false;
    const char *v = build ? unit_value(text, len, "[Build]", "ImageTag", true, &vn)
                          : unit_value(text, len, "[Image]", "Image", false, &vn);
    if (v && !build && vn > 9 && !memcmp(v, "docker://", 9)) {
        v += 9;
        vn -= 9;
    }
    bool ok = v && vn && !local_transport(v, vn);
    if (ok)
        *out = (struct quadlet_image){.text = gl_arena_strndup(a, v, vn), .built = build};
    free(text);
    return ok;
}
