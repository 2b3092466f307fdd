/* SPDX-License-Identifier: Apache-2.0 */
/*
 * finding.h: severities, findings and the list the engine collects them in.
 *
 * A finding outlives the doc it came from (docs are freed as soon as they are linted, to
 * keep memory bounded over thousands of files), so its strings are its own heap copies.
 */
#ifndef GPULINT_FINDING_H
#define GPULINT_FINDING_H

#include "linter/core/util.h"

enum gl_severity {
    GL_SEV_STYLE = 0,
    GL_SEV_INFO,
    GL_SEV_WARNING,
    GL_SEV_ERROR,
    GL_SEV_NONE, /* as a failure threshold: never fail */
};

const char *gl_severity_name(enum gl_severity s);
/* "error", "warning", "info", "style", "none" -> 0 and *out; else -1. */
int gl_severity_parse(const char *s, enum gl_severity *out);

struct gl_rule;

struct gl_finding {
    const struct gl_rule *rule;
    enum gl_severity severity;
    /* file, message and fix are one heap block that file begins (a rule's finding: one
     * allocation, not three); gl_finding_set_file replaces the file of either kind */
    bool packed;
    char *file;
    struct gl_loc loc;     /* line 0 for image findings */
    char *message;
    char *fix;
    char *platform;        /* image findings: "linux/amd64", else NULL */
    char *layer;           /* image findings: the layer digest, else NULL */
    char *image_path;      /* image findings: the file in the image, else NULL */
    /* Image findings: message[said_at, said_at + said_len) repeats the platform and layer
     * in words (" (linux/amd64, layer sha256:0123456789ab)", "platform linux/arm64: ").
     * Every report keeps the message whole but the tty one, which prints the image
     * location before the message and leaves these bytes out. said_len 0: none. */
    size_t said_at, said_len;
    /* A finding judged on an image reference: the reference (as resolved) and the facts
     * of the whole run that make it moot (GL_PROJECT_* bits, model_ref.h: the project
     * builds the image, a kustomization renames or retags it). The engine drops it once
     * every input is read, when an image the project makes names the reference. */
    char *image;
    unsigned moot_when;
    /* ... and, with GL_PROJECT_ARG_SET, the build ARG of the Dockerfile whose default gave
     * the reference (gl_ref.arg): moot when every build of the file the run sees sets it */
    char *arg;
};

/* A layer digest as findings name it, into buf (>= 24 bytes): "sha256:" and its first 12
 * hex digits, or the digest as it is when it is not longer; "?" for NULL. */
const char *gl_finding_short_layer(const char *digest, char *buf, size_t len);

struct gl_findings {
    struct gl_finding *items;
    size_t n, cap;
};

void gl_findings_free(struct gl_findings *f);
/* Make f's file a heap copy of `file`, freeing the one it had (a packed finding's message
 * and fix get copies of their own first). */
void gl_finding_set_file(struct gl_finding *f, const char *file);
struct gl_finding *gl_findings_add(struct gl_findings *f);
/* Remove items [from, n) for which keep() is false, preserving order. */
void gl_findings_filter(struct gl_findings *f, size_t from,
                        bool (*keep)(const struct gl_finding *, void *), void *ctx);
/* The report order: file, line, column, rule id, then platform, image path and message
 * (<0, 0, >0). Findings equal in that order keep the order they were found in. */
int gl_finding_cmp(const struct gl_finding *a, const struct gl_finding *b);
/* Is b a repeat of a (equal in the report order and in its fix)? */
bool gl_finding_repeats(const struct gl_finding *a, const struct gl_finding *b);
/* Sort by file, line, column, rule id (stable); a finding that repeats the one kept
 * before it is dropped. A list already in that order is not sorted again. */
void gl_findings_sort(struct gl_findings *f);
/* Put items [from, n) in the report order (stable): the findings of one input, a few,
 * sorted where they are made, so that the list of the run is most often in order already
 * and gl_findings_sort has only to see that it is. Time n log n at worst (a merge sort of
 * the runs the rules made), n when they are in order. */
void gl_findings_order_from(struct gl_findings *f, size_t from);
/* Are items [from, n) in the report order? */
bool gl_findings_in_order(const struct gl_findings *f, size_t from);

#endif
