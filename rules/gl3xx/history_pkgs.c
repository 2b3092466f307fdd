/* SPDX-License-Identifier: Apache-2.0 */
/* history_pkgs.c: what an image config's history installs (see history_pkgs.h). */
#include "rules/gl3xx/history_pkgs.h"

#include <string.h>

#include "rules/gl3xx/build_tools.h"

/* Does the history remove pkg again: by name in its entry or a later one, or does its
 * entry remove packages itself? */
static bool removed(const struct gl_dockerfile_model *m, const struct gl_pkg *pkg)
{
    for (size_t i = 0; i < m->nremovals; i++) {
        const struct gl_removal *r = &m->removals[i];
        if (r->family == GL_PKG_RM || r->instr < pkg->instr)
            continue;
        if (r->instr == pkg->instr || !strcmp(r->name, pkg->name))
            return true;
    }
    return false;
}

const struct gl_pkg *gl_history_first_pkg(const struct gl_image_platform *p,
                                          bool (*wanted)(const struct gl_pkg *), size_t *more)
{
    const struct gl_dockerfile_model *m = p->run;
    const struct gl_pkg *first = NULL;
    size_t n = 0;
    for (size_t i = 0; m && i < m->npkgs; i++) {
        const struct gl_pkg *pkg = &m->pkgs[i];
        if (!gl_pkg_family_os(pkg->family) || pkg->requirements || !wanted(pkg) ||
            removed(m, pkg))
            continue;
        if (!first)
            first = pkg;
        else
            n++;
    }
    if (more)
        *more = n;
    return first;
}

/* Byte offset of loc in text (line 1 col 1 is 0), or 0 when it is not in it. */
static size_t offset_of(const char *text, struct gl_loc loc)
{
    size_t off = 0, len = strlen(text);
    for (uint32_t line = 1; line < loc.line; line++) {
        const char *nl = memchr(text + off, '\n', len - off);
        if (!nl)
            return 0;
        off = (size_t)(nl - text) + 1;
    }
    off += loc.col ? loc.col - 1 : 0;
    return off < len ? off : 0;
}

/* text[from, to) with runs of blanks and newlines as one space. */
static void add_squeezed(struct gl_buf *b, const char *text, size_t from, size_t to)
{
    bool blank = false;
    for (size_t i = from; i < to; i++) {
        char ch = text[i];
        if (ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r') {
            blank = true;
            continue;
        }
        if (blank && b->len && b->data[b->len - 1] != '`' && b->data[b->len - 1] != ' ')
            gl_buf_add(b, " ", 1);
        blank = false;
        gl_buf_add(b, &ch, 1);
    }
}

#define SHOWN 72 /* bytes of an entry a message shows */

/* "`RUN <text>`", shortened around the package when the entry is long. */
static void add_entry(struct gl_buf *b, const char *run, const struct gl_pkg *pkg)
{
    size_t len = strlen(run), at = offset_of(run, pkg->loc), n = 0;
    while (at + n < len && !strchr(" \t\n", run[at + n])) /* the word as written */
        n++;
    size_t from = 0, to = len;
    if (len > SHOWN) { /* whole words: the first ones, or those around the package */
        to = at + n <= SHOWN ? SHOWN : at + n;
        if (to > SHOWN) {
            from = at > 32 ? at - 32 : 0;
            while (from && from < at && !strchr(" \t\n", run[from - 1]))
                from++;
        }
        while (to < len && to > at + n && !strchr(" \t\n", run[to]))
            to--;
    }
    gl_buf_adds(b, "`RUN ");
    if (from)
        gl_buf_adds(b, "... ");
    add_squeezed(b, run, from, to);
    gl_buf_adds(b, to < len ? " ...`" : "`");
}

void gl_report_history_pkg(struct gl_check *c, const struct gl_image_platform *p,
                           const struct gl_pkg *pkg, const char *fix, const char *lead,
                           const char *tail)
{
    const struct gl_image_history *h =
        pkg->instr >= 0 && (size_t)pkg->instr < p->nhistory ? &p->history[pkg->instr] : NULL;
    const char *layer = h && h->layer >= 0 && (size_t)h->layer < p->nlayers
                            ? p->layers[h->layer].digest : NULL;
    struct gl_image_site at = {p->name, layer, NULL};
    char shortl[96];
    struct gl_buf head, said;
    gl_buf_init(&head);
    gl_buf_init(&said);
    gl_buf_printf(&head, "%s`%s` in history entry %d", lead, pkg->spec, pkg->instr + 1);
    if (h && h->run) {
        gl_buf_adds(&head, ": ");
        add_entry(&head, h->run, pkg);
    }
    if (layer)
        gl_buf_printf(&said, " (%s, layer %s)", p->name,
                      gl_finding_short_layer(layer, shortl, sizeof shortl));
    else
        gl_buf_printf(&said, " (%s)", p->name);
    gl_report_image(c, c->rule->severity, &at, fix, gl_buf_str(&head), gl_buf_str(&said),
                    tail);
    gl_buf_free(&head);
    gl_buf_free(&said);
}

bool gl_image_has_file(const struct gl_image_platform *p,
                       bool (*offends)(const struct gl_image_file *))
{
    for (size_t k = 0; k < p->nfiles; k++)
        if (offends(&p->files[k]))
            return true;
    return false;
}

void gl_report_history_pkgs(struct gl_check *c, bool (*offends)(const struct gl_image_file *),
                            bool (*wanted)(const struct gl_pkg *), const char *fix,
                            const char *lead, const char *tail)
{
    const struct gl_image_model *im = c->doc->image;
    for (size_t i = 0; im && i < im->nplatforms; i++) {
        const struct gl_image_platform *p = &im->platforms[i];
        const struct gl_pkg *pkg = gl_history_first_pkg(p, wanted, NULL);
        if (pkg && !gl_image_has_file(p, offends))
            gl_report_history_pkg(c, p, pkg, fix, lead, tail);
    }
}
