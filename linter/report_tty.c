/* report_tty.c: the human-readable report (see report.h). */
#include "linter/report.h"

#include "linter/rule.h"

static const char *sev_color(enum gl_severity s)
{
    switch (s) {
    case GL_SEV_ERROR: return "\033[1;31m";
    case GL_SEV_WARNING: return "\033[1;33m";
    case GL_SEV_INFO: return "\033[1;36m";
    default: return "\033[1;34m";
    }
}

void gl_report_tty(FILE *out, const struct gl_run *run, bool color)
{
    const char *bold = color ? "\033[1m" : "", *dim = color ? "\033[2m" : "",
               *reset = color ? "\033[0m" : "";
    for (size_t i = 0; i < run->findings.n; i++) {
        const struct gl_finding *f = &run->findings.items[i];
        fprintf(out, "%s%s:%u:%u:%s %s%s%s: %s [%s %s]\n", bold, f->file, f->loc.line,
                f->loc.col, reset, color ? sev_color(f->severity) : "",
                gl_severity_name(f->severity), reset, f->message, f->rule->id, f->rule->name);
        if (f->fix && *f->fix)
            fprintf(out, "  %sfix:%s %s\n", dim, reset, f->fix);
    }
    struct gl_summary s;
    gl_summary_count(&run->findings, run->files, &s);
    fprintf(out, "%s%zu finding%s (%zu error%s, %zu warning%s, %zu info%s) in %zu file%s%s\n",
            run->findings.n ? "\n" : "", s.findings, s.findings == 1 ? "" : "s", s.errors,
            s.errors == 1 ? "" : "s", s.warnings, s.warnings == 1 ? "" : "s", s.infos,
            s.infos == 1 ? "" : "s", s.files, s.files == 1 ? "" : "s",
            run->cfg->driver.set ? "" : "; driver checks skipped: no target driver");
}
