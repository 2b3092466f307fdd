/* SPDX-License-Identifier: Apache-2.0 */
/*
 * check.h: what a rule's check function gets, and how it reports.
 *
 * A rule reads c->doc (the model) and c->cfg, and calls gl_report() for each finding:
 * the location of the offending token, a fix hint (NULL for the rule's default), and a
 * one-line message naming the bad value. The engine applies severity overrides,
 * suppression and sorting; a rule never prints.
 */
#ifndef GPULINT_CHECK_H
#define GPULINT_CHECK_H

#include <stdbool.h>
#include <string.h>

#include "linter/core/config.h"
#include "linter/core/model.h"
#include "linter/core/rule.h"

struct gl_launch_facts;

struct gl_check {
    const struct gl_doc *doc;
    const struct gl_config *cfg;
    const struct gl_rule *rule;
    struct gl_findings *out;
    /* the facts of the doc's launches (rules/gl4xx/launch_paths.h): built by the first
     * GL4xx walk that needs them and shared by the doc's other rules; NULL before */
    struct gl_launch_facts *launch_facts;
    void (*launch_facts_free)(struct gl_launch_facts *f);
};

/* Do s and p agree in their first four bytes? p has four at least; s may be shorter (the
 * compare stops at the first byte that differs, its NUL at the latest). The quick test of
 * a package name against a stem before strlen and strncmp. */
static inline bool gl_first4(const char *s, const char *p)
{
    return s[0] == p[0] && s[1] == p[1] && s[2] == p[2] && s[3] == p[3];
}

/* Does the package name begin with the stem s[0..n), the stem ending there, at '-', ':' or
 * '=' (a suffix, an RPM version or module stream, an apt/conda pin) or, when `digit`, at a
 * digit (libnvidia-container1)? GL_PKG_STEM takes a literal stem. */
static inline bool gl_pkg_stem(const char *name, const char *s, size_t n, bool digit)
{
    return !strncmp(name, s, n) &&
           (name[n] == 0 || name[n] == '-' || name[n] == ':' || name[n] == '=' ||
            (digit && name[n] >= '0' && name[n] <= '9'));
}
#define GL_PKG_STEM(name, lit, digit) gl_pkg_stem(name, lit, sizeof lit - 1, digit)

/* After the last rule of c->doc: frees what its rules shared (c->launch_facts). */
void gl_check_end(struct gl_check *c);

/* Report at the rule's default severity. Returns the finding (for gl_finding_on_image). */
struct gl_finding *gl_report(struct gl_check *c, struct gl_loc loc, const char *fix,
                             const char *fmt, ...) __attribute__((format(printf, 4, 5)));
/* Report at a severity the rule chose (rules with two severities, GL101 and GL201). */
struct gl_finding *gl_report_sev(struct gl_check *c, enum gl_severity sev, struct gl_loc loc,
                                 const char *fix, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));

/* Finding f was judged on image reference r: it is moot, and the engine drops it once
 * every input of the run is read, when an image the project makes names r (RULES.md
 * "Images built by the project", "Kustomize"). `moot_when`: the GL_PROJECT_* facts
 * (model_ref.h) that undo it; a kustomization's renaming and retagging count only in
 * Kubernetes manifests, the bases it rewrites; GL_PROJECT_ARG_SET counts only for a
 * reference an ARG's default gave (gl_ref.arg), when every build of the file sets it. */
void gl_finding_on_image(const struct gl_check *c, struct gl_finding *f, const struct gl_ref *r,
                         unsigned moot_when);

/* An image finding: line 0; names the platform, the layer that brought the file, and
 * the path in the image (the message should name them too). */
struct gl_image_site {
    const char *platform;
    const char *layer;
    const char *path;
};
/* Its message is head, said and tail put together, where `said` repeats the platform and
 * layer in words (" (linux/amd64, layer sha256:0123456789ab)"; "" when it does not): the
 * tty report prints the site before the message and leaves `said` out (finding.h). */
void gl_report_image(struct gl_check *c, enum gl_severity sev, const struct gl_image_site *at,
                     const char *fix, const char *head, const char *said, const char *tail);

#endif
