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

/* ':' and v in decimal (printf's ":%u", without its format parsing: once a finding). */
static void add_colon_uint(struct gl_buf *b, unsigned v)
{
    char d[1 + 3 * sizeof v];
    size_t i = sizeof d;
    do
        d[--i] = (char)('0' + v % 10);
    while (v /= 10);
    d[--i] = ':';
    gl_buf_add(b, d + i, sizeof d - i);
}

/* Where a finding is: `file:line:col`; for an image finding (line 0) the file and, when
 * it has one, its place in the image: `image.tar: linux/amd64 layer sha256:0123456789ab
 * /usr/bin/nvidia-smi` (each part only when known). */
static void add_where(struct gl_buf *b, const struct gl_finding *f)
{
    gl_escape_str(b, f->file, GL_ESCAPE_TEXT);
    if (f->loc.line > 0) {
        add_colon_uint(b, f->loc.line);
        add_colon_uint(b, f->loc.col);
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

/* `where: severity: message [ID name]` and the fix hint. */
static void add_finding(struct gl_buf *b, const struct gl_finding *f, const struct style *st)
{
    gl_buf_adds(b, st->bold);
    add_where(b, f);
    /* ":%s %s%s%s: " and " [%s %s]\n", appended piece by piece (no printf a finding) */
    gl_buf_addc(b, ':');
    gl_buf_adds(b, st->reset);
    gl_buf_addc(b, ' ');
    if (st->color)
        gl_buf_adds(b, sev_color(f->severity));
    gl_buf_adds(b, gl_severity_name(f->severity));
    gl_buf_adds(b, st->reset);
    gl_buf_add(b, ": ", 2);
    add_message(b, f);
    gl_buf_add(b, " [", 2);
    gl_buf_adds(b, f->rule->id);
    gl_buf_addc(b, ' ');
    gl_buf_adds(b, f->rule->name);
    gl_buf_add(b, "]\n", 2);
    if (f->fix && *f->fix) {
        gl_buf_add(b, "  ", 2);
        gl_buf_adds(b, st->dim);
        gl_buf_add(b, "fix:", 4);
        gl_buf_adds(b, st->reset);
        gl_buf_addc(b, ' ');
        gl_escape_str(b, f->fix, GL_ESCAPE_TEXT);
        gl_buf_addc(b, '\n');
    }
}

void gl_report_tty(FILE *out, const struct gl_run *run, bool color)
{
    const struct style st = {color ? "\033[1m" : "", color ? "\033[2m" : "",
                             color ? "\033[0m" : "", color};
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
}
