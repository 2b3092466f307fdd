/* SPDX-License-Identifier: Apache-2.0 */
/*
 * fingerprint.h: stable identities for findings, so CI tools can tell a new finding from
 * one they have seen (SARIF partialFingerprints, GitLab Code Quality fingerprint).
 *
 * A fingerprint must survive edits that only move a finding: lines added above it, a
 * reformatted file. So it is derived from what the finding is, never from where it is:
 *
 *     rule id, the file as reported (gl_text_report_path), the message with every
 *     "line N" reference blanked, the image platform and path for image findings,
 *     and the occurrence number: how many earlier findings (in the sorted order) share
 *     all of the above, so two identical findings in one file stay distinct.
 *
 * The message names the offending value (the image reference, the package, the path),
 * so this is "the offending content" without the reporter re-reading the input (which
 * may have been stdin). The layer digest is left out: a rebuilt image keeps its findings.
 *
 * The hash is 128 bits (two 64-bit FNV-1a streams with different offsets) written as 32
 * lowercase hex digits. It is an identity, not a security measure. Linear in the total
 * size of the findings.
 *
 * A gl_fingerprinter gives them one at a time, in the sorted order. The occurrence
 * numbers need the identities seen before; when every finding names its file with the
 * same prefix (gl_spill_one_prefix), the findings of one report path are adjacent, so
 * only those of the current file are kept (`per_file`): memory in proportion to the
 * largest file's findings, not to the run's.
 */
#ifndef GPULINT_FINGERPRINT_H
#define GPULINT_FINGERPRINT_H

#include "linter/core/finding.h"

#define GL_FINGERPRINT_HEX 32

struct gl_fingerprints {
    char (*hex)[GL_FINGERPRINT_HEX + 1]; /* hex[i]: the fingerprint of finding i */
    size_t n;
};

/* One fingerprint per finding of `f`, in its order (findings must already be sorted). */
void gl_fingerprints_compute(const struct gl_findings *f, struct gl_fingerprints *out);
void gl_fingerprints_free(struct gl_fingerprints *fp);

struct gl_fingerprint_seen;
struct gl_fingerprinter {
    struct gl_fingerprint_seen *slots; /* identities seen, with their counts */
    size_t cap, used;
    bool per_file;
    char *path;                        /* per_file: the report path they are of */
};

void gl_fingerprinter_init(struct gl_fingerprinter *fp, bool per_file);
/* The fingerprint of the next finding of the sorted order, into hex. */
void gl_fingerprint_next(struct gl_fingerprinter *fp, const struct gl_finding *f,
                         char hex[GL_FINGERPRINT_HEX + 1]);
void gl_fingerprinter_free(struct gl_fingerprinter *fp);

#endif
