/* image_site.c: helpers for the image parts of rules (see image_site.h). */
#include "rules/image_site.h"

#include <stdio.h>
#include <string.h>

struct gl_image_site gl_image_site_of(const struct gl_image_platform *p,
                                      const struct gl_image_file *f)
{
    const char *layer = f->layer >= 0 && (size_t)f->layer < p->nlayers
                            ? p->layers[f->layer].digest : NULL;
    return (struct gl_image_site){p->name, layer, f->path};
}

const char *gl_image_short_layer(const char *digest, char *buf, size_t len)
{
    if (!digest)
        return "?";
    const char *colon = strchr(digest, ':');
    if (colon && strlen(colon + 1) > 12)
        snprintf(buf, len, "%.*s%.12s", (int)(colon - digest + 1), digest, colon + 1);
    else
        snprintf(buf, len, "%s", digest);
    return buf;
}

bool gl_image_in_dir_named(const char *path, const char *dir)
{
    size_t n = strlen(dir);
    for (const char *p = path; (p = strstr(p, dir)); p++)
        if ((p == path || p[-1] == '/') && p[n] == '/')
            return true;
    return false;
}

const char *gl_image_base(const char *path)
{
    const char *s = strrchr(path, '/');
    return s ? s + 1 : path;
}
