/* SPDX-License-Identifier: Apache-2.0 */
/*
 * finding_spill.h: a run's findings in bounded memory, and the cursor reporters read
 * them with.
 *
 * A run over many files finds more than it should hold until the report (about 450
 * bytes a finding: 45 MB for 100,000 Dockerfiles), and the report must still be sorted
 * over the whole run (gl_finding_cmp), with repeats dropped and the findings the whole
 * run makes moot (cli/project.h) left out, which are known only once every input is
 * read. So the engine hands each input's findings to gl_spill_note; once the list holds
 * more than the limit findings-memory (limits.h; 1 MiB), it is sorted and written as one compact sorted run to an
 * unlinked temporary file (in $TMPDIR, else /tmp) and emptied. gl_spill_finish
 * then merges the runs and what the list still holds (k-way, in the report order, ties
 * in the order found), drops the moot findings and the repeats on the way, and counts
 * what is left; a cursor walks the same merge for the reporter. Records hold the
 * finding's words and the rule's address (the file is read back by the same process
 * only). A run that never fills the list never writes: the list is sorted in memory as
 * it always was. When the temporary file cannot be made or written, the findings stay
 * in memory (the run goes on, as before).
 *
 * Memory: the list up to findings-memory, and a 16 KiB read buffer a sorted run while
 * merging (runs beyond GL_SPILL_FAN_IN are first merged into longer ones).
 */
#ifndef GPULINT_FINDING_SPILL_H
#define GPULINT_FINDING_SPILL_H

#include <stdio.h>
#include <sys/types.h>

#include "linter/core/finding.h"

#define GL_SPILL_FAN_IN 64

struct gl_spill_run {
    off_t at, end; /* its records in the file */
};

struct gl_spill {
    int fd;                     /* the temporary file (read with pread), or -1 */
    FILE *out;                  /* the same, written in order */
    bool broken;                /* it could not be made or written: stay in memory */
    struct gl_spill_run *runs;
    size_t nruns, capruns;
    off_t size;                 /* bytes written */
    size_t held;                /* bytes the in-memory list holds (estimated) */
    size_t noted;               /* findings of the list counted in `held` */
    uint64_t spilled;           /* findings written (the list's first is the next) */
    /* Do all findings name their file with the same "./" prefix (gl_text_report_path)?
     * Then findings with one report path are adjacent in the report order. */
    char *prefix;
    bool mixed_prefixes;
    /* gl_spill_finish: the list in report order (when runs were written), the moot
     * filter, and the counts of what the report holds */
    const struct gl_finding **sorted;
    bool (*keep)(const struct gl_finding *, void *);
    void *keep_ctx;
    bool finished;
    size_t n, by_severity[GL_SEV_NONE + 1]; /* (a severity past none counts as none) */
};

void gl_spill_init(struct gl_spill *s);
void gl_spill_free(struct gl_spill *s);
/* The list grew (findings before the ones noted last are never removed): count what is
 * new, and spill the list once it holds more than the limit findings-memory. */
void gl_spill_note(struct gl_spill *s, struct gl_findings *findings);
/* Every input is read. Drop the findings keep() refuses, sort, drop repeats, count. */
void gl_spill_finish(struct gl_spill *s, struct gl_findings *findings,
                     bool (*keep)(const struct gl_finding *, void *), void *ctx);
/* Did every finding name its file with the same prefix (see above)? */
bool gl_spill_one_prefix(const struct gl_spill *s, const struct gl_findings *findings);

/* The findings of a run in report order. */
struct gl_spill_source;
struct gl_finding_cursor {
    const struct gl_findings *list; /* nothing was spilled: the sorted list itself */
    size_t i;
    const struct gl_spill *spill;
    struct gl_spill_source *src;    /* the merge: one source a run, and the list */
    size_t nsrc;
    struct gl_buf last, cand;       /* the records of the finding returned before (to
                                       drop repeats) and of the one looked at now */
    struct gl_finding last_f, cand_f;
    bool have_last;
};

void gl_cursor_init(struct gl_finding_cursor *c, const struct gl_findings *list,
                    const struct gl_spill *spill);
/* The next finding, valid until the next call; NULL at the end. */
const struct gl_finding *gl_cursor_next(struct gl_finding_cursor *c);
void gl_cursor_free(struct gl_finding_cursor *c);

#endif
