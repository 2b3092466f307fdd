/* SPDX-License-Identifier: Apache-2.0 */
/*
 * project.h: the images a whole run's inputs make, and the findings they make moot.
 *
 * RULES.md "Images built by the project" and "Kustomize" are facts of the run, not of one
 * input: a script may run an image that a sibling script builds, and a manifest may name
 * an image that a kustomization two directories up rewrites. The engine lints one input
 * at a time and frees it, so these facts cannot be known when the rules look at an
 * input. Instead:
 *  - each parser records the images its input makes (doc->project, model_ref.h: a build
 *    command's tag, a kustomization's `images:` name);
 *  - a rule that judges a finding on an image reference says which of those facts would
 *    make it moot (gl_finding_on_image, rules/check.h);
 *  - the engine gathers every input's facts here (gl_project_gather, after the input is
 *    parsed without error), and when the whole run is read, drops the findings that one
 *    of them makes moot (gl_project_keeps, the filter of gl_spill_finish).
 * A name no registry serves (gl_imageref_local_only, model_ref.h) is a build output of
 * the machine whatever the run saw, so those findings are moot on it with no fact at all
 * (in a Kubernetes manifest, unless a kustomization of the run renames it).
 * Patterns are matched as gl_project_pattern_names says (model_ref.h). A literal pattern
 * is filed under its normalised repository and tag (a build output) or repository (a
 * kustomization's name), so that a finding finds it in one look-up however many there
 * are; a pattern with unresolved parts is filed under the last component of its
 * repository (or, when that holds an unresolved part too, among the `wild` ones), and a
 * finding is compared with those of its own last component and the wild ones: at most
 * GL_PROJECT_GLOBS_PER_KEY each (a further one is not kept: its findings stay).
 * A build of a Dockerfile (GL_PROJECT_ARG_SET) is filed under the Dockerfile's path with
 * the ARGs it sets; a finding on a reference an ARG's default gave (finding.h `arg`) is
 * moot when every build of its file sets that ARG (distinct builds count once each; at
 * most the limit project-images of them, apart from the images).
 * Memory: one heap copy of each distinct pattern of at most GL_PROJECT_PATTERN_MAX bytes
 * (a longer one names no reference: its literal parts would not fit in one), at most the
 * limit project-images of them; beyond it further patterns are not kept.
 */
#ifndef GPULINT_CLI_PROJECT_H
#define GPULINT_CLI_PROJECT_H

#include "linter/core/finding.h"
#include "linter/core/hashmap.h"
#include "linter/core/model.h"

#define GL_PROJECT_GLOBS_PER_KEY 16
#define GL_PROJECT_PATTERN_MAX 640

struct gl_project_pattern; /* one distinct pattern and the facts it stands for */

struct gl_project_set {
    struct gl_map exact;             /* "b<domain>/<path>:<tag>", "k<domain>/<path>[:<tag>]"
                                        of the literal patterns -> the pattern */
    struct gl_map by_key;            /* last component -> the list of its globs */
    struct gl_project_pattern *wild; /* globs whose last component is not all written */
    struct gl_map seen;              /* pattern text -> the pattern (owns them all) */
    struct gl_map builds;            /* Dockerfile path -> its builds (GL_PROJECT_ARG_SET) */
    size_t n;                        /* facts kept: patterns and builds */
    size_t nbuilds;                  /* builds kept (each limit project-images at most) */
};

void gl_project_init(struct gl_project_set *s);
void gl_project_free(struct gl_project_set *s);
/* Keep the facts of one parsed input. */
void gl_project_gather(struct gl_project_set *s, const struct gl_doc *doc);
/* The facts of one input kept aside, to be kept in a set later (an input linted on a
 * worker thread: the run's set takes them in the order of the inputs). */
struct gl_project_facts {
    struct gl_project_fact { char *pattern; unsigned what; } *items;
    size_t n, cap;
};
void gl_project_facts_gather(struct gl_project_facts *f, const struct gl_doc *doc);
/* Keep them in s, as gl_project_gather would have (s NULL: none), and free them. */
void gl_project_facts_keep(struct gl_project_set *s, struct gl_project_facts *f);
/* Is finding f left standing by the images of the set `set` (not made moot)? */
bool gl_project_keeps(const struct gl_finding *f, void *set);

#endif
