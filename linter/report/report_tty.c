/* SPDX-License-Identifier: Apache-2.0 */
/* report_tty.c: the human-readable report (see report.h). The file, message and fix of a
 * finding (and an image finding's platform, layer and path) come from inputs: they go
 * through gl_escape (GL_ESCAPE_TEXT), so only the report's own colour sequences reach the
 * terminal. */
#include "linter/report/report.h"

#include <string.h>

#include "linter/core/escape.h"
#include "linter/report/report_text.h"
#include "linter/core/rule.h"

struct style {
    const char *bold, *dim, *reset;
    bool color;
    size_t bold_len;
    /* ":RESET [COLOR]severity RESET: " (":%s %s%s%s: ") for each severity, made once a
     * report */
    struct gl_buf sev[GL_SEV_NONE + 1];
};

static const char *sev_color(enum gl_severity s)
{
    switch (s) {
    case GL_SEV_ERROR: return "\033[1;31m";
    case GL_SEV_WARNING: return "\033[1;33m";
    case GL_SEV_INFO: return "\033[1;36m";
    default: return "\033[1;34m";
    }
}

/* ':' and v in decimal, before out + *n (printf's ":%u", without its format parsing:
 * twice a finding). */
static void put_colon_uint(char *end, size_t *n, unsigned v)
{
    do
        end[-(ptrdiff_t)++*n] = (char)('0' + v % 10);
    while (v /= 10);
    end[-(ptrdiff_t)++*n] = ':';
}

/* Where a finding is: `file:line:col`; for an image finding (line 0) the file and, when
 * it has one, its place in the image: `image.tar: linux/amd64 layer sha256:0123456789ab
 * /usr/bin/nvidia-smi` (each part only when known). */
static void add_where(struct gl_buf *b, const struct gl_finding *f)
{
    gl_escape_str(b, f->file, GL_ESCAPE_TEXT);
    if (f->loc.line > 0) { /* ":line:col", written from the end of d */
        char d[2 * (1 + 3 * sizeof(unsigned))];
        size_t n = 0;
        put_colon_uint(d + sizeof d, &n, f->loc.col);
        put_colon_uint(d + sizeof d, &n, f->loc.line);
        gl_buf_add(b, d + sizeof d - n, n);
        return;
    }
    const char *sep = ": ";
    if (f->platform) {
        gl_buf_adds(b, sep);
        gl_escape_str(b, f->platform, GL_ESCAPE_TEXT);
        sep = " ";
    }
    if (f->layer) {
        char layer[96];
        gl_buf_printf(b, "%slayer ", sep);
        gl_escape_str(b, gl_finding_short_layer(f->layer, layer, sizeof layer), GL_ESCAPE_TEXT);
        sep = " ";
    }
    if (f->image_path) {
        gl_buf_printf(b, "%s%s", sep, f->image_path[0] == '/' ? "" : "/");
        gl_escape_str(b, f->image_path, GL_ESCAPE_TEXT);
    }
}

/* The message, less the words that repeat the image location add_where printed. */
static void add_message(struct gl_buf *b, const struct gl_finding *f)
{
    size_t len = strlen(f->message);
    if (f->loc.line > 0 || f->said_len == 0 || f->said_at + f->said_len > len) {
        gl_escape(b, f->message, len, GL_ESCAPE_TEXT);
        return;
    }
    gl_escape(b, f->message, f->said_at, GL_ESCAPE_TEXT);
    size_t rest = f->said_at + f->said_len;
    gl_escape(b, f->message + rest, len - rest, GL_ESCAPE_TEXT);
}

static void add_sev_text(struct gl_buf *b, const struct style *st, enum gl_severity sev)
{
    gl_buf_addc(b, ':');
    gl_buf_adds(b, st->reset);
    gl_buf_addc(b, ' ');
    if (st->color)
        gl_buf_adds(b, sev_color(sev));
    gl_buf_adds(b, gl_severity_name(sev));
    gl_buf_adds(b, st->reset);
    gl_buf_add(b, ": ", 2);
}

/* Short pieces put together on the stack, then added to b with one gl_buf_add. */
struct pieces {
    struct gl_buf *b;
    char t[256];
    size_t n;
};

static void pieces_flush(struct pieces *w)
{
    gl_buf_add(w->b, w->t, w->n);
    w->n = 0;
}

static inline void pieces_add(struct pieces *w, const char *s)
{
    size_t len = strlen(s);
    if (len > sizeof w->t - w->n) {
        pieces_flush(w);
        if (len > sizeof w->t) {
            gl_buf_add(w->b, s, len);
            return;
        }
    }
    memcpy(w->t + w->n, s, len);
    w->n += len;
}

/* `where: severity: message [ID name]` and the fix hint. The report's own pieces between
 * the escaped texts go in with one gl_buf_add each (the severity's made once a report),
 * no printf a finding. */
static void add_finding(struct gl_buf *b, const struct gl_finding *f, const struct style *st)
{
    gl_buf_add(b, st->bold, st->bold_len);
    add_where(b, f);
    if ((unsigned)f->severity <= GL_SEV_NONE)
        gl_buf_add(b, st->sev[f->severity].data, st->sev[f->severity].len);
    else
        add_sev_text(b, st, f->severity);
    add_message(b, f);
    struct pieces w = {.b = b, .n = 0};
    pieces_add(&w, " [");
    pieces_add(&w, f->rule->id);
    pieces_add(&w, " ");
    pieces_add(&w, f->rule->name);
    pieces_add(&w, "]\n");
    bool fix = f->fix && *f->fix;
    if (fix) {
        pieces_add(&w, "  ");
        pieces_add(&w, st->dim);
        pieces_add(&w, "fix:");
        pieces_add(&w, st->reset);
        pieces_add(&w, " ");
    }
    pieces_flush(&w);
    if (fix) {
        gl_escape_str(b, f->fix, GL_ESCAPE_TEXT);
        gl_buf_addc(b, '\n');
    }
}

void gl_report_tty(FILE *out, const struct gl_run *run, bool color)
{
    struct style st = {.bold = color ? "\033[1m" : "", .dim = color ? "\033[2m" : "",
                       .reset = color ? "\033[0m" : "", .color = color};
    st.bold_len = strlen(st.bold);
    for (int v = 0; v <= GL_SEV_NONE; v++) {
        gl_buf_init(&st.sev[v]);
        add_sev_text(&st.sev[v], &st, (enum gl_severity)v);
    }
    struct gl_buf b;
    gl_buf_init(&b);
    struct gl_finding_cursor c;
    gl_cursor_init(&c, &run->findings, &run->spill);
    for (const struct gl_finding *f; (f = gl_cursor_next(&c));) {
        add_finding(&b, f, &st);
        gl_text_flush(out, &b, 65536);
    }
    gl_cursor_free(&c);
    struct gl_summary s;
    gl_summary_count(run, &s);
    gl_buf_printf(&b, "%s%zu finding%s (%zu error%s, %zu warning%s, %zu info%s) in %zu file%s%s\n",
                  s.findings ? "\n" : "", s.findings, s.findings == 1 ? "" : "s", s.errors,
                  s.errors == 1 ? "" : "s", s.warnings, s.warnings == 1 ? "" : "s", s.infos,
                  s.infos == 1 ? "" : "s", s.files, s.files == 1 ? "" : "s",
                  run->cfg->driver.set ? "" : "; driver checks skipped: no target driver");
    gl_text_flush(out, &b, 0);
    gl_buf_free(&b);
    for (int v = 0; v <= GL_SEV_NONE; v++)
        gl_buf_free(&st.sev[v]);
}
