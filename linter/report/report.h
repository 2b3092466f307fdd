/* SPDX-License-Identifier: Apache-2.0 */
/*
 * report.h: reporters turn the sorted findings of a run into one output format.
 * A reporter knows only findings and the run's counts, never the model. It reads the
 * findings with a gl_finding_cursor (finding_spill.h) and writes as it reads, so a run's
 * report takes no memory in proportion to its findings.
 */
#ifndef GPULINT_REPORT_H
#define GPULINT_REPORT_H

#include <stdio.h>

#include "linter/cli/engine.h"

struct gl_summary {
    size_t files, findings, errors, warnings, infos; /* style findings count as infos */
};

/* The counts of the run's findings (as gl_run_finish left them, or the list as it is). */
void gl_summary_count(const struct gl_run *run, struct gl_summary *out);

/* `file:line:col: severity: message [ID name]` and the fix hint on the next line; an
 * image finding (line 0) is at `file: platform layer sha256:0123456789ab /path` instead
 * (what of it is known), its message without the words that repeat that place. */
void gl_report_tty(FILE *out, const struct gl_run *run, bool color);
/* The JSON object of DESIGN.md. */
void gl_report_json(FILE *out, const struct gl_run *run);
/* SARIF 2.1.0 for GitHub code scanning (report_sarif.c says what goes where). */
void gl_report_sarif(FILE *out, const struct gl_run *run);
/* Checkstyle XML. */
void gl_report_checkstyle(FILE *out, const struct gl_run *run);
/* GitLab Code Quality JSON. */
void gl_report_gitlab(FILE *out, const struct gl_run *run);

#endif
