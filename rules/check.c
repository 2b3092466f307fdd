/* SPDX-License-Identifier: Apache-2.0 */
/* check.c: how rules report findings (see check.h). */
#include "rules/check.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* b's text, now the caller's to free ("" when b is empty). */
static char *taken(struct gl_buf *b)
{
    return b->data ? b->data : xstrdup("");
}

/* Adds a finding whose message is `message` (heap, now the finding's). */
static struct gl_finding *add(struct gl_check *c, enum gl_severity sev, struct gl_loc loc,
                              const char *fix, char *message)
{
    struct gl_finding *f = gl_findings_add(c->out);
    f->rule = c->rule;
    f->severity = gl_config_severity(c->cfg, c->rule->id, sev);
    f->file = xstrdup(c->doc->path);
    f->loc = loc;
    f->message = message;
    f->fix = xstrdup(fix ? fix : c->rule->fix ? c->rule->fix : "");
    return f;
}

void gl_check_end(struct gl_check *c)
{
    if (c->launch_facts)
        c->launch_facts_free(c->launch_facts);
    c->launch_facts = NULL;
}

struct gl_finding *gl_report(struct gl_check *c, struct gl_loc loc, const char *fix,
                             const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    struct gl_finding *f = add(c, c->rule->severity, loc, fix, xvasprintf(fmt, ap));
    va_end(ap);
    return f;
}

struct gl_finding *gl_report_sev(struct gl_check *c, enum gl_severity sev, struct gl_loc loc,
                                 const char *fix, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    struct gl_finding *f = add(c, sev, loc, fix, xvasprintf(fmt, ap));
    va_end(ap);
    return f;
}

void gl_finding_on_image(const struct gl_check *c, struct gl_finding *f, const struct gl_ref *r,
                         unsigned moot_when)
{
    if (c->doc->kind != GL_IN_K8S)
        moot_when &= ~(unsigned)(GL_PROJECT_RENAMED | GL_PROJECT_RETAGGED);
    if (!f || !r || !r->ok || !r->text || !moot_when)
        return;
    free(f->image);
    f->image = xstrdup(r->text);
    f->moot_when = moot_when;
}

void gl_report_image(struct gl_check *c, enum gl_severity sev, const struct gl_image_site *at,
                     const char *fix, const char *head, const char *said, const char *tail)
{
    struct gl_buf msg;
    gl_buf_init(&msg);
    gl_buf_adds(&msg, head);
    size_t said_at = msg.len;
    gl_buf_adds(&msg, said);
    size_t said_len = msg.len - said_at;
    gl_buf_adds(&msg, tail);
    struct gl_finding *f = add(c, sev, (struct gl_loc){0, 0}, fix, taken(&msg));
    f->platform = at->platform ? xstrdup(at->platform) : NULL;
    f->layer = at->layer ? xstrdup(at->layer) : NULL;
    f->image_path = at->path ? xstrdup(at->path) : NULL;
    f->said_at = said_at;
    f->said_len = said_len;
}
