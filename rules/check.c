/* check.c: how rules report findings (see check.h). */
#include "rules/check.h"

#include <stdio.h>
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

void gl_report(struct gl_check *c, struct gl_loc loc, const char *fix, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    add(c, c->rule->severity, loc, fix, xvasprintf(fmt, ap));
    va_end(ap);
}

void gl_report_sev(struct gl_check *c, enum gl_severity sev, struct gl_loc loc,
                   const char *fix, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    add(c, sev, loc, fix, xvasprintf(fmt, ap));
    va_end(ap);
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
