/* check.c: how rules report findings (see check.h). */
#include "rules/check.h"

#include <stdio.h>
#include <string.h>

static char *vformat(const char *fmt, va_list ap)
{
    struct gl_buf b;
    gl_buf_init(&b);
    gl_buf_vprintf(&b, fmt, ap);
    return b.data ? b.data : xstrdup("");
}

static struct gl_finding *add(struct gl_check *c, enum gl_severity sev, struct gl_loc loc,
                              const char *fix, const char *fmt, va_list ap)
{
    struct gl_finding *f = gl_findings_add(c->out);
    f->rule = c->rule;
    f->severity = gl_config_severity(c->cfg, c->rule->id, sev);
    f->file = xstrdup(c->doc->path);
    f->loc = loc;
    f->message = vformat(fmt, ap);
    f->fix = xstrdup(fix ? fix : c->rule->fix ? c->rule->fix : "");
    return f;
}

void gl_report(struct gl_check *c, struct gl_loc loc, const char *fix, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    add(c, c->rule->severity, loc, fix, fmt, ap);
    va_end(ap);
}

void gl_report_sev(struct gl_check *c, enum gl_severity sev, struct gl_loc loc,
                   const char *fix, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    add(c, sev, loc, fix, fmt, ap);
    va_end(ap);
}

void gl_report_image(struct gl_check *c, enum gl_severity sev, const struct gl_image_site *at,
                     const char *fix, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    struct gl_finding *f = add(c, sev, (struct gl_loc){0, 0}, fix, fmt, ap);
    va_end(ap);
    f->platform = at->platform ? xstrdup(at->platform) : NULL;
    f->layer = at->layer ? xstrdup(at->layer) : NULL;
    f->image_path = at->path ? xstrdup(at->path) : NULL;
}
