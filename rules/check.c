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

/* A message being formatted by hand into a small buffer (see message()). */
struct msg {
    char text[256];
    size_t n;
    bool full; /* it did not fit: vsnprintf's turn */
};

static void msg_put(struct msg *m, const char *s, size_t len)
{
    if (m->full || len >= sizeof m->text - m->n) {
        m->full = true;
        return;
    }
    memcpy(m->text + m->n, s, len);
    m->n += len;
}

static void msg_uint(struct msg *m, bool minus, unsigned long long v)
{
    char d[24];
    size_t i = sizeof d;
    do
        d[--i] = (char)('0' + v % 10);
    while (v /= 10);
    if (minus)
        d[--i] = '-';
    msg_put(m, d + i, sizeof d - i);
}

static void msg_int(struct msg *m, long long v)
{
    msg_uint(m, v < 0, v < 0 ? (unsigned long long)-(v + 1) + 1 : (unsigned long long)v);
}

/* The message fmt gives with ap into m. The conversions nearly every message uses (%s,
 * %d, %u, %ld, %zu, %%) are done here, copying the pieces, with no vsnprintf walk of the
 * format (about a thousand instructions a finding); a message with any other conversion
 * (a width, a precision, a flag, %f) or longer than the buffer leaves m full, for
 * xvasprintf to format from the start, as before. The bytes are vsnprintf's (a NULL
 * string is glibc's "(null)"). */
static void message(struct msg *m, const char *fmt, va_list ap)
{
    for (const char *p = fmt; !m->full;) {
        const char *pct = strchr(p, '%');
        msg_put(m, p, pct ? (size_t)(pct - p) : strlen(p));
        if (!pct)
            break;
        const char *q = pct + 1;
        if (*q == 's') {
            const char *s = va_arg(ap, const char *);
            s = s ? s : "(null)";
            msg_put(m, s, strlen(s));
        } else if (*q == '%') {
            msg_put(m, "%", 1);
        } else if (*q == 'd') {
            msg_int(m, va_arg(ap, int));
        } else if (*q == 'u') {
            msg_uint(m, false, va_arg(ap, unsigned));
        } else if (q[0] == 'l' && q[1] == 'd') {
            msg_int(m, va_arg(ap, long));
            q++;
        } else if (q[0] == 'z' && q[1] == 'u') {
            msg_uint(m, false, va_arg(ap, size_t));
            q++;
        } else {
            m->full = true; /* not one of these */
        }
        p = q + 1;
    }
}

/* A finding whose message is fmt with ap: with a message made here, its file, message and
 * fix in one heap block (packed); else the message from xvasprintf and add(). */
static struct gl_finding *add_message(struct gl_check *c, enum gl_severity sev,
                                      struct gl_loc loc, const char *fix, const char *fmt,
                                      va_list ap)
{
    struct msg m = {.n = 0, .full = false};
    va_list again;
    va_copy(again, ap);
    message(&m, fmt, ap);
    struct gl_finding *f;
    if (m.full) {
        f = add(c, sev, loc, fix, xvasprintf(fmt, again));
    } else {
        const char *path = c->doc->path;
        const char *fx = fix ? fix : c->rule->fix ? c->rule->fix : "";
        size_t pl = strlen(path), fl = strlen(fx);
        char *block = xmalloc(pl + 1 + m.n + 1 + fl + 1);
        memcpy(block, path, pl + 1);
        char *text = block + pl + 1;
        memcpy(text, m.text, m.n);
        text[m.n] = 0;
        memcpy(text + m.n + 1, fx, fl + 1);
        f = gl_findings_add(c->out);
        f->rule = c->rule;
        f->severity = gl_config_severity(c->cfg, c->rule->id, sev);
        f->packed = true;
        f->file = block;
        f->loc = loc;
        f->message = text;
        f->fix = text + m.n + 1;
    }
    va_end(again);
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
    struct gl_finding *f = add_message(c, c->rule->severity, loc, fix, fmt, ap);
    va_end(ap);
    return f;
}

struct gl_finding *gl_report_sev(struct gl_check *c, enum gl_severity sev, struct gl_loc loc,
                                 const char *fix, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    struct gl_finding *f = add_message(c, sev, loc, fix, fmt, ap);
    va_end(ap);
    return f;
}

void gl_finding_on_image(const struct gl_check *c, struct gl_finding *f, const struct gl_ref *r,
                         unsigned moot_when)
{
    if (c->doc->kind != GL_IN_K8S)
        moot_when &= ~(unsigned)(GL_PROJECT_RENAMED | GL_PROJECT_RETAGGED);
    if (!r || !r->arg)
        moot_when &= ~(unsigned)GL_PROJECT_ARG_SET;
    if (!f || !r || !r->ok || !r->text || !moot_when)
        return;
    free(f->image);
    f->image = xstrdup(r->text);
    f->moot_when = moot_when;
    free(f->arg);
    f->arg = moot_when & GL_PROJECT_ARG_SET ? xstrdup(r->arg) : NULL;
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
