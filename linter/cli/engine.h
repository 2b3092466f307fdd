/* SPDX-License-Identifier: Apache-2.0 */
/*
 * engine.h: lint inputs into findings.
 *
 * For each input: read it, recognise it (inputs.h), parse it into a doc (the model), run
 * every enabled rule over the doc, turn a parse failure into GL900 and an unknown
 * inline-ignore id into GL902, drop what inline ignores suppress, keep the images the
 * input makes (project.h), free the doc. Findings accumulate in run->findings, which
 * spills them to sorted runs on a temporary file when they are many (finding_spill.h);
 * once every input is read, gl_run_finish drops those that the images the whole run makes
 * turn moot and sorts the rest, and the reporters read them with a gl_finding_cursor.
 *
 * Helm charts (chart.h) are one input each: the walk does not read their templates/ and
 * charts/ file by file, and a named file or directory inside them stands for its chart.
 * A chart is rendered once a run and its output linted as a rendered stream (GL_IN_HELM)
 * whose findings move to the template lines they came from (gl_doc_origin), after the
 * inline ignores are applied and before `ignore-paths`; a chart that is not rendered
 * is one GL903 at its Chart.yaml. Standard input holding helm's output (a `# Source:`
 * first line, after an optional `---`) is read the same way.
 *
 * Threads: with --jobs N > 1 (default: the number of cores, at most GL_POOL_DEFAULT_MAX)
 * the regular files the walk finds or the command line names, up to GL_POOL_INPUT_MAX
 * bytes, are read, parsed and checked on N worker threads (engine_pool.h), each into a
 * run of its own (gl_run.job set), and their results taken into the run in the order the
 * inputs were met: the findings, the images they make, the messages on stderr, which
 * compose file is linted once and the includes it then follows all come out as with one
 * thread. Everything else (larger files, streams, charts, image archives and layouts,
 * registries, --inspect-images) is linted on the calling thread, after the results
 * before it.
 */
#ifndef GPULINT_ENGINE_H
#define GPULINT_ENGINE_H

#include "linter/cli/engine_pool.h"
#include "linter/cli/project.h"
#include "linter/core/config.h"
#include "linter/core/finding.h"
#include "linter/core/hashmap.h"
#include "linter/report/finding_spill.h"

/* Paths met once a run, by their real path (the keys are heap copies, kept in names to
 * be freed). */
struct gl_visited {
    struct gl_map map;
    char **names; size_t n, cap;
};

struct gl_run {
    const struct gl_config *cfg;
    struct gl_findings findings;
    struct gl_spill spill;   /* the findings written out of `findings` (finding_spill.h) */
    size_t files;            /* inputs linted */
    bool unreadable;         /* a named path could not be read (exit status 2) */
    bool driver_checks_ran;  /* a CUDA/driver check had a target to compare with */
    struct gl_project_set project; /* the images the run's inputs build or rewrite */
    /* Helm charts linted in this run, and the helm that renders them (looked up once). */
    struct gl_visited charts;
    /* Compose files linted in this run: a file that another one includes is linted once,
     * whether the walk or the `include:` reaches it first. */
    struct gl_visited composes;
    unsigned include_depth;  /* compose files being linted through `include:` now */
    bool helm_looked_up;
    char *helm;
    const char *no_helm;     /* why there is none */
    struct gl_map inspected; /* --inspect-images: a reference's text -> what its registry
                                config says (inspect.h) */
    struct gl_pool *pool;    /* the text inputs' workers, or NULL (one thread) */
    bool pool_tried;
    bool merging;            /* taking a worker's result: the inputs before are all in */
    struct gl_job *job;      /* a worker's run: the job whose results it gathers */
};

/* Regular files up to this size go to the workers; larger ones are read by the calling
 * thread (the workers hold at most GL_POOL_DEPTH_PER_WORKER of them each in flight). The
 * run's thread sleeps until half of them are done: 32 a worker wakes it half as often as
 * 16 (on two cores, 19,600 -> 12,200 context switches over 99,900 Dockerfiles, 3-5% of the
 * CPU time) for 0.4 MiB more peak RSS over 999 of them (BENCHMARKS.md, round 11). */
#define GL_POOL_INPUT_MAX (1u << 20)
#define GL_POOL_DEPTH_PER_WORKER 32
/* Workers when --jobs is not given: the number of cores, at most this many (the run's own
 * thread takes every result: past ~8 workers it, not they, sets the pace, and each worker
 * adds to the memory a run can hold; 8 workers on four parse-memory bombs: 52 MB). */
#define GL_POOL_DEFAULT_MAX 8
/* The workers' arenas, together, before one of them goes on alone (engine_pool.h): a
 * base and a little a worker (each keeps up to 1 MiB of YAML sniffed, yaml_tree.h). */
#define GL_POOL_BUDGET_BASE (4u << 20)
#define GL_POOL_BUDGET_PER_WORKER (1u << 20)

void gl_run_init(struct gl_run *run, const struct gl_config *cfg);
void gl_run_free(struct gl_run *run);

/* Lint a path named by the user: a file, a directory (walked), or "-" for stdin. */
void gl_lint_path(struct gl_run *run, const char *path);
/* Every input is read: take the workers' last results and stop them, drop the findings
 * that an image the run makes turns moot, sort the rest (in run->findings when nothing
 * was spilled) and count them. */
void gl_run_finish(struct gl_run *run);

/* Lint bytes already in memory, read as `kind` (GL_IN_UNKNOWN: sniff from name/content). */
void gl_lint_buffer(struct gl_run *run, const char *name, const char *data, size_t len,
                    enum gl_input_kind kind, bool named);

/* Lint one parsed doc: run the rules, GL900/GL902, suppression. Exposed for tests. */
void gl_lint_doc(struct gl_run *run, struct gl_doc *doc);

/* Report a problem with an input that is not a finding of a rule (GL900/GL901). */
void gl_run_engine_finding(struct gl_run *run, const char *rule_id, const char *file,
                           struct gl_loc loc, const char *fix, const char *fmt, ...)
    __attribute__((format(printf, 6, 7)));

#endif
