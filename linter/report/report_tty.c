/* report_tty.c: the human-readable report (see report.h). The file, message and fix of a
 * finding come from inputs: they go through gl_escape (GL_ESCAPE_TEXT), so only the
 * report's own colour sequences reach the terminal. */
#include "linter/report/report.h"

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

/* `file:line:col: severity: message [ID name]` and the fix hint. */
static void add_finding(struct gl_buf *b, const struct gl_finding *f, const struct style *st)
{
    gl_buf_adds(b, st->bold);
    gl_escape_str(b, f->file, GL_ESCAPE_TEXT);
    gl_buf_printf(b, ":%u:%u:%s %s%s%s: ", f->loc.line, f->loc.col, st->reset,
                  st->color ? sev_color(f->severity) : "", gl_severity_name(f->severity),
                  st->reset);
    gl_escape_str(b, f->message, GL_ESCAPE_TEXT);
    gl_buf_printf(b, " [%s %s]\n", f->rule->id, f->rule->name);
    if (f->fix && *f->fix) {
        gl_buf_printf(b, "  %sfix:%s ", st->dim, st->reset);
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
    for (size_t i = 0; i < run->findings.n; i++) {
        add_finding(&b, &run->findings.items[i], &st);
        gl_text_flush(out, &b, 65536);
    }
    struct gl_summary s;
    gl_summary_count(&run->findings, run->files, &s);
    gl_buf_printf(&b, "%s%zu finding%s (%zu error%s, %zu warning%s, %zu info%s) in %zu file%s%s\n",
                  run->findings.n ? "\n" : "", s.findings, s.findings == 1 ? "" : "s", s.errors,
                  s.errors == 1 ? "" : "s", s.warnings, s.warnings == 1 ? "" : "s", s.infos,
                  s.infos == 1 ? "" : "s", s.files, s.files == 1 ? "" : "s",
                  run->cfg->driver.set ? "" : "; driver checks skipped: no target driver");
    gl_text_flush(out, &b, 0);
    gl_buf_free(&b);
}
