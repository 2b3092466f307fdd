/* SPDX-License-Identifier: Apache-2.0 */
/* image_site.c: helpers for the image parts of rules (see image_site.h). */
#include "rules/gl3xx/image_site.h"

#include <stdarg.h>
#include <string.h>

struct gl_image_site gl_image_site_of(const struct gl_image_platform *p,
                                      const struct gl_image_file *f)
{
    const char *layer = f->layer >= 0 && (size_t)f->layer < p->nlayers
                            ? p->layers[f->layer].digest : NULL;
    return (struct gl_image_site){p->name, layer, f->path};
}

bool gl_image_in_dir_named(const char *path, const char *dir)
{
    size_t n = strlen(dir);
    for (const char *p = path; (p = strstr(p, dir)); p++)
        if ((p == path || p[-1] == '/') && p[n] == '/')
            return true;
    return false;
}

void gl_report_image_file(struct gl_check *c, const struct gl_image_platform *p,
                          const struct gl_image_file *f, const char *fix, const char *lead,
                          const char *tail_fmt, ...)
{
    struct gl_image_site at = gl_image_site_of(p, f);
    char layer[96];
    struct gl_buf head, said, tail;
    gl_buf_init(&head);
    gl_buf_init(&said);
    gl_buf_init(&tail);
    gl_buf_printf(&head, "%s: `/%s`", lead, f->path);
    gl_buf_printf(&said, " (%s, layer %s)", p->name,
                  gl_finding_short_layer(at.layer, layer, sizeof layer));
    va_list ap;
    va_start(ap, tail_fmt);
    gl_buf_vprintf(&tail, tail_fmt, ap);
    va_end(ap);
    gl_report_image(c, c->rule->severity, &at, fix, gl_buf_str(&head), gl_buf_str(&said),
                    gl_buf_str(&tail));
    gl_buf_free(&head);
    gl_buf_free(&said);
    gl_buf_free(&tail);
}

void gl_report_first_image_file(struct gl_check *c, bool (*offends)(const struct gl_image_file *),
                                const char *fix, const char *lead, const char *tail,
                                const char *tail_more)
{
    const struct gl_image_model *im = c->doc->image;
    for (size_t i = 0; im && i < im->nplatforms; i++) {
        const struct gl_image_platform *p = &im->platforms[i];
        const struct gl_image_file *first = NULL;
        bool more = false;
        for (size_t k = 0; k < p->nfiles && !more; k++) {
            if (!offends(&p->files[k]))
                continue;
            if (first)
                more = true;
            else
                first = &p->files[k];
            if (!tail_more)
                break;
        }
        if (first)
            gl_report_image_file(c, p, first, fix, lead, "%s", more ? tail_more : tail);
    }
}

bool gl_image_nvidia_infra(const struct gl_doc *doc, int stage)
{
    if (stage >= 0) {
        const struct gl_ref *r = gl_df_stage_root_ref(doc, stage);
        return r && r->ok && gl_imageref_nvidia_infra(&r->parsed);
    }
    for (size_t i = 0; i < doc->nrefs; i++)
        if (doc->refs[i].role == GL_REF_ARCHIVE && doc->refs[i].ok &&
            gl_imageref_nvidia_infra(&doc->refs[i].parsed))
            return true;
    return false;
}
