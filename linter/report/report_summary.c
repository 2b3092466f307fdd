/* SPDX-License-Identifier: Apache-2.0 */
/* report_summary.c: the counts every reporter prints (see report.h). */
#include "linter/report/report.h"

#include <string.h>

void gl_summary_count(const struct gl_run *run, struct gl_summary *out)
{
    memset(out, 0, sizeof *out);
    out->files = run->files;
    if (run->spill.finished) { /* counted while the findings were merged */
        out->findings = run->spill.n;
        out->errors = run->spill.by_severity[GL_SEV_ERROR];
        out->warnings = run->spill.by_severity[GL_SEV_WARNING];
        out->infos = out->findings - out->errors - out->warnings;
        return;
    }
    const struct gl_findings *f = &run->findings;
    out->findings = f->n;
    for (size_t i = 0; i < f->n; i++) {
        switch (f->items[i].severity) {
        case GL_SEV_ERROR: out->errors++; break;
        case GL_SEV_WARNING: out->warnings++; break;
        default: out->infos++; break;
        }
    }
}
