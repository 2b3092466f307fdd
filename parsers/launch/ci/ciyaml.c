/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ciyaml.c: CI YAML (GitHub Actions workflows, GitLab CI) -> the launches of their
 * shell scripts.
 *
 * Recognition (gl_input_ciyaml): by name, a .yml or .yaml file directly in
 * .github/workflows/, .gitlab-ci.yml or .gitlab-ci.yaml, action.yml or action.yaml
 * (a GitHub composite action: its runs.steps[].run texts), and Cloud Build's
 * cloudbuild*.yaml (ci_cloudbuild.h), CircleCI configs (ci_circleci.h: a .circleci/ path or
 * a job with an executor key); by content, any other YAML
 * file whose first document is a GitHub workflow (`jobs:` holding a job with `runs-on`
 * or `steps`), a GitLab pipeline (`stages:`, or a job with `script` and `image` or
 * `stage`) or a Cloud Build config (`steps:` of builder `name:`s), with no Kubernetes
 * (`apiVersion`, `kind`) or compose (`services`) key.
 * GitHub Actions: every jobs.<id>.steps[].run text (each step is its own shell: a fresh
 * variable table). GitLab CI: in `default:` and in every job (a top-level mapping that
 * is not a global keyword), before_script, script and after_script, each a string or a
 * list of strings (nested lists flattened, `!reference [job, key]` followed in the file:
 * ci_reference.h); the scripts of one job
 * share one variable table (they run in one shell). The launches of the steps of a GitHub
 * job on a runner without a GPU (cpu_runner: hosted `runs-on: ubuntu-latest`,
 * `windows-*`, `macos-*`; self-hosted labels with a `cpu`/`cpuN` token and none that names
 * a GPU: `linux-amd64-cpu8`; the same in `runs-on: {group: G, labels: [...]}`), and the
 * launches of a GitLab job whose `tags:` (its own or through `extends:`, else `default:`'s;
 * a `!reference` followed) name such a host, are gpu_unseen: a CUDA image there builds or
 * is smoke-tested on the CPU on purpose; they and the job's containers are no_gpu_host (no
 * driver or GPU check judges them).
 * Each text goes with its srcmap
 * (parsers/yaml/yaml_tree.h: exact for `|` block scalars) to gl_launches_from_shell.
 * A GitHub Actions step that `uses: docker/build-push-action` builds images and is a build
 * of a Dockerfile (ci_build_action.h); the working directory of a workflow's steps is the
 * repository root, two directories above a workflow in .github/workflows/.
 * Inline ignores: yt_add_pragmas.
 */
#include <ctype.h>
#include <string.h>
#include <strings.h>

#include "knowledge/gpu_target.h"
#include "linter/core/inputs.h"
#include "parsers/launch/ci/ci_build_action.h"
#include "parsers/launch/ci/ci_circleci.h"
#include "parsers/launch/ci/ci_cloudbuild.h"
#include "parsers/launch/ci/ci_containers.h"
#include "parsers/launch/ci/ci_reference.h"
#include "parsers/launch/launch_shell.h"
#include "parsers/yaml/yaml_tree.h"

#define RUNNER_MEMO 8

struct ci {
    struct gl_doc *doc;
    struct yt_stream *s;
    const char *root; /* the working directory of steps from the doc's directory, or NULL */
    const struct gl_kb *kb;
    struct { /* the last label lists judged (runner_is_cpu) */
        const struct yt_node *labels;
        bool github, cpu;
    } memo[RUNNER_MEMO];
    unsigned nmemo;
};

static void run_text(struct ci *c, struct yt_node *n, struct sh_vars *vars)
{
    gl_launches_from_yaml_scalar(c->doc, c->s, n, vars);
}

/* The steps of `job` (NULL for a composite action's) of the workflow whose root is `wf`. */
static void github_steps(struct ci *c, struct yt_node *steps, struct yt_node *job,
                         struct yt_node *wf)
{
    for (size_t i = 0; yt_is_seq(steps) && i < steps->nitems; i++) {
        struct yt_node *step = yt_item(c->s, steps, i);
        run_text(c, yt_get(c->s, step, "run", NULL), NULL);
        ci_build_push_action(c->doc, &(struct ci_scope){c->s, step, job, wf}, c->root);
    }
}

/* Is `label` one of GitHub's hosted runners that have no GPU (ubuntu-latest, ubuntu-24.04,
 * ubuntu-22.04-arm, windows-2022, macos-14)? GitHub's GPU runners go by labels their
 * owners choose. */
static bool hosted_label(const struct yt_node *label)
{
    static const char *const families[] = {"ubuntu-", "windows-", "macos-"};
    for (size_t i = 0; i < sizeof families / sizeof families[0]; i++) {
        size_t n = strlen(families[i]);
        if (label->len > n && !strncasecmp(label->value, families[i], n) &&
            strspn(label->value + n, "abcdefghijklmnopqrstuvwxyz0123456789.-") ==
                label->len - n)
            return true;
    }
    return false;
}

/* Does a self-hosted label name a CPU machine: a `-`/`_`-separated token `cpu` or `cpuN`
 * (NVIDIA's runners: linux-amd64-cpu8, linux-arm64-cpu16; cpu-large)? */
static bool cpu_label(const struct yt_node *label)
{
    for (const char *p = label->value; (p = strcasestr(p, "cpu")); p += 3) {
        const char *e = p + 3;
        e += strspn(e, "0123456789");
        bool start = p == label->value || p[-1] == '-' || p[-1] == '_';
        if (start && (!*e || *e == '-' || *e == '_'))
            return true;
    }
    return false;
}

#define TOKEN_MAX 32

/* Is the text [p, p + n) a GPU's name: `nvidia`, `cuda`, or a product name of the table
 * with a model number (A100, T4, RTX 4090)? Not a family name (`ampere` is also a maker of
 * ARM CPUs), not a word that starts with a digit or is an SM spelling (`22.04`, `90`,
 * `sm90`: the lookup reads those as compute capabilities). */
static bool gpu_word(const char *p, size_t n, const struct gl_kb *kb)
{
    if (!n || n > TOKEN_MAX || !isalpha((unsigned char)p[0]) ||
        ((p[0] == 's' || p[0] == 'S') && n > 1 && (p[1] == 'm' || p[1] == 'M')))
        return false;
    char w[TOKEN_MAX + 1];
    memcpy(w, p, n);
    w[n] = '\0';
    if (!strcasecmp(w, "nvidia") || !strcasecmp(w, "cuda"))
        return true;
    if (!strpbrk(w, "0123456789"))
        return false;
    unsigned sms[4];
    size_t found = 0;
    return kb && gl_gpu_name_lookup(kb, w, sms, 4, &found);
}

/* Does a label name a GPU: `gpu` in it, or a token (or two adjacent, joined by a space)
 * that is a GPU's name? */
static bool gpu_label(const struct yt_node *label, const struct gl_kb *kb)
{
    if (strcasestr(label->value, "gpu"))
        return true;
    const char *s = label->value, *prev = NULL;
    size_t prev_n = 0;
    for (size_t i = 0; i < label->len;) {
        while (i < label->len && strchr("-_ ", s[i]))
            i++;
        size_t j = i;
        while (j < label->len && !strchr("-_ ", s[j]))
            j++;
        if (j == i)
            break;
        if (gpu_word(s + i, j - i, kb))
            return true;
        if (prev && prev_n + 1 + (j - i) <= TOKEN_MAX) {
            char pair[TOKEN_MAX + 1];
            memcpy(pair, prev, prev_n);
            pair[prev_n] = ' ';
            memcpy(pair + prev_n + 1, s + i, j - i);
            if (gpu_word(pair, prev_n + 1 + (j - i), kb))
                return true;
        }
        prev = s + i;
        prev_n = j - i;
        i = j;
    }
    return false;
}

/* Say what the labels of `v` (a scalar or a sequence) tell of their host: false when one
 * names a GPU or is no plain scalar (an expression's value may be anything), else *cpu
 * is set when one names a CPU machine (cpu_runner). */
static bool labels_no_gpu(struct yt_stream *s, struct yt_node *v, const struct gl_kb *kb,
                          bool github, bool *cpu)
{
    size_t n = yt_is_seq(v) ? v->nitems : 1;
    for (size_t i = 0; i < n && i < 64; i++) {
        struct yt_node *label = yt_is_seq(v) ? yt_deref(s, yt_item(s, v, i)) : v;
        if (!yt_is_scalar(label) || gpu_label(label, kb))
            return false;
        *cpu = *cpu || cpu_label(label) || (github && n == 1 && hosted_label(label));
    }
    return true;
}

/* Do the runner labels at `labels` (GitHub runs-on: a scalar, a sequence, or a mapping
 * `{group: NAME, labels: ...}` whose group name counts as one more label; GitLab tags;
 * NULL: none) name a host without a GPU: one label says CPU and none names a GPU?
 *  - CPU: a `-`/`_`-separated token `cpu` or `cpuN` (NVIDIA's runners linux-amd64-cpu8,
 *    cpu-large); on GitHub (`github`) also one of its hosted runners given alone
 *    (ubuntu-latest, windows-2022, macos-14: they have no GPU);
 *  - GPU, which wins: a label holding `gpu` (ubuntu-22.04-gpu-t4, linux-amd64-gpu-l4),
 *    a token `nvidia` or `cuda`, or a token (or two adjacent ones: rtx-4090) that is a GPU
 *    product name with a model number in the knowledge table (gpu_architectures `names`,
 *    as --gpu reads them: a100, H100, l4, t4, v100; not a family name: `ampere` is also a
 *    maker of ARM CPUs); so `[self-hosted, cpu, a100]` is a GPU host. A label that is not a
 *    plain scalar (an expression's value) may be anything: no CPU host. kb may be NULL. */
static bool cpu_runner(struct yt_stream *s, struct yt_node *labels, const struct gl_kb *kb,
                       bool github)
{
    struct yt_node *v = yt_deref(s, labels);
    if (!v)
        return false;
    bool cpu = false;
    if (!yt_is_map(v))
        return labels_no_gpu(s, v, kb, github, &cpu) && cpu;
    struct yt_node *group = yt_deref(s, yt_get(s, v, "group", NULL));
    struct yt_node *list = yt_deref(s, yt_get(s, v, "labels", NULL));
    return (!group || labels_no_gpu(s, group, kb, false, &cpu)) &&
           (!list || labels_no_gpu(s, list, kb, github, &cpu)) && cpu;
}

/* cpu_runner of the label list `labels`, remembered for the last RUNNER_MEMO lists judged:
 * jobs share one list through an alias (`runs-on: *gpu_labels`) or GitLab's default tags,
 * and a list is judged token by token against the GPU names (5,000 jobs of one 38 KB list
 * took 5.8 s, each a look-up a token, before the alias budget stopped them). */
static bool runner_is_cpu(struct ci *c, struct yt_node *labels, bool github)
{
    const struct yt_node *v = yt_deref(c->s, labels); /* (each follow still pays) */
    for (unsigned i = 0; v && i < RUNNER_MEMO && i < c->nmemo; i++)
        if (c->memo[i].labels == v && c->memo[i].github == github)
            return c->memo[i].cpu;
    bool cpu = cpu_runner(c->s, labels, c->kb, github);
    if (v) {
        unsigned slot = c->nmemo++ % RUNNER_MEMO;
        c->memo[slot].labels = v;
        c->memo[slot].github = github;
        c->memo[slot].cpu = cpu;
    }
    return cpu;
}

static void github(struct ci *c, struct yt_node *root)
{
    struct yt_pair *jobs;
    size_t n = yt_pairs(c->s, yt_get(c->s, root, "jobs", NULL), &jobs);
    for (size_t j = 0; j < n; j++) {
        size_t first = c->doc->nlaunches;
        github_steps(c, yt_get(c->s, jobs[j].value, "steps", NULL), jobs[j].value, root);
        /* a step's `docker run` on a runner without a GPU has none to ask for: a CUDA
         * image there builds or is smoke-tested on the CPU on purpose */
        bool cpu = runner_is_cpu(c, yt_get(c->s, jobs[j].value, "runs-on", NULL), true);
        for (size_t k = first; cpu && k < c->doc->nlaunches; k++)
            c->doc->launches[k].gpu_unseen = true;
        /* a call of a reusable workflow hands its `build-contexts` to the build */
        ci_build_contexts(c->doc, c->s, yt_get(c->s, jobs[j].value, "with", NULL));
        struct yt_node *k = yt_deref(c->s, jobs[j].key);
        if (yt_is_scalar(k) && yt_is_map(jobs[j].value))
            ci_github_containers(c->doc, c->s, jobs[j].value, k->value);
        /* and neither they nor the job's containers start CUDA: no driver is judged */
        for (size_t l = first; cpu && l < c->doc->nlaunches; l++)
            c->doc->launches[l].no_gpu_host = true;
    }
    /* a composite action (action.yml): runs.steps[] */
    github_steps(c, yt_get(c->s, yt_get(c->s, root, "runs", NULL), "steps", NULL), NULL, NULL);
}

static bool gitlab_keyword(const char *k)
{
    static const char *const kw[] = {"stages", "variables", "include", "workflow", "image",
                                     "services", "cache", "before_script", "after_script",
                                     "types", "pages:deploy"};
    for (size_t i = 0; i < sizeof kw / sizeof kw[0]; i++)
        if (!strcmp(k, kw[i]))
            return true;
    return false;
}

/* The shell texts of GitLab script value `v`: a string, or a list of strings and lists
 * (nested by anchors and `!reference`, which GitLab flattens, up to its 10 levels), each
 * `!reference` followed in `root` (ci_reference.h: one that names nothing is skipped).
 * What a reference brings is charged to the alias budget, node by node (references to
 * lists of references would otherwise multiply). */
static void gitlab_script(struct ci *c, struct yt_node *root, struct yt_node *v,
                          struct sh_vars *vars, int depth, bool via)
{
    struct yt_node *n = yt_deref(c->s, v);
    via = via || ci_is_reference(n);
    n = ci_resolve(c->s, root, n);
    if (!n || (via && !yt_charge(c->s, 1, n->loc)))
        return;
    if (yt_is_scalar(n))
        run_text(c, n, vars);
    for (size_t i = 0; yt_is_seq(n) && depth < CI_REFERENCE_DEPTH && i < n->nitems; i++)
        gitlab_script(c, root, yt_item(c->s, n, i), vars, depth + 1, via);
}

static void gitlab_job(struct ci *c, struct yt_node *root, struct yt_node *job)
{
    struct sh_vars vars;
    sh_vars_init(&vars, &c->doc->arena);
    static const char *const parts[] = {"before_script", "script", "after_script"};
    for (size_t p = 0; p < 3; p++)
        gitlab_script(c, root, yt_get(c->s, job, parts[p], NULL), &vars, 0, false);
}

/* GitLab's limit on `extends:` levels; the looks a job's keys may cost in all: each name
 * of an extends list is one (a list of extends in each of eleven levels would otherwise
 * fan out without bound, and a long list named by every job be read whole for each). */
#define GITLAB_EXTENDS_DEPTH 11
#define GITLAB_EXTENDS_LOOKS 256

/* The value of `key` in GitLab job `job` as GitLab merges it: the job's own, else that of
 * the last job of its `extends:` (a name or a list: each later one merged over the
 * earlier) that has one, through their own extends up to GitLab's 11 levels; NULL when
 * none has it. Cycles and fan-out end at the depth and at *looks. */
static struct yt_node *gitlab_key(struct yt_stream *s, struct yt_node *root,
                                  struct yt_node *job, const char *key, int depth,
                                  int *looks)
{
    struct yt_node *own = yt_get(s, job, key, NULL);
    if (own || depth >= GITLAB_EXTENDS_DEPTH)
        return own;
    struct yt_node *ext = yt_deref(s, yt_get(s, job, "extends", NULL));
    size_t n = yt_is_seq(ext) ? ext->nitems : ext ? 1 : 0;
    for (size_t i = n; i-- > 0 && --*looks >= 0;) {
        struct yt_node *name = yt_is_seq(ext) ? yt_deref(s, yt_item(s, ext, i)) : ext;
        struct yt_node *parent = yt_is_scalar(name) ? yt_get(s, root, name->value, NULL)
                                                    : NULL;
        struct yt_node *v = yt_is_map(parent) ? gitlab_key(s, root, parent, key, depth + 1,
                                                           looks)
                                              : NULL;
        if (v)
            return v;
    }
    return NULL;
}

/* The runner tags of GitLab job `job`: its own or inherited through extends, else the
 * `default:` ones (`defaults`) unless `inherit: default:` is false or a list without
 * `tags`. */
static struct yt_node *gitlab_tags(struct yt_stream *s, struct yt_node *root,
                                   struct yt_node *job, struct yt_node *defaults)
{
    int looks = GITLAB_EXTENDS_LOOKS;
    struct yt_node *tags = gitlab_key(s, root, job, "tags", 0, &looks);
    if (tags || !defaults)
        return ci_resolve(s, root, tags); /* (a `!reference` naming nothing: unknown) */
    looks = GITLAB_EXTENDS_LOOKS;
    struct yt_node *inherit = gitlab_key(s, root, job, "inherit", 0, &looks);
    struct yt_node *d = yt_deref(s, yt_get(s, inherit, "default", NULL));
    if (yt_is_scalar(d) && !strcmp(d->value, "false"))
        return NULL;
    for (size_t i = 0; yt_is_seq(d) && i < d->nitems; i++) {
        struct yt_node *it = yt_deref(s, yt_item(s, d, i));
        if (yt_is_scalar(it) && !strcmp(it->value, "tags"))
            return ci_resolve(s, root, defaults);
    }
    return yt_is_seq(d) ? NULL : ci_resolve(s, root, defaults);
}

static void gitlab(struct ci *c, struct yt_node *root)
{
    struct yt_pair *p;
    size_t n = yt_pairs(c->s, root, &p);
    ci_gitlab_containers(c->doc, c->s, root, "default", root);
    ci_gitlab_containers(c->doc, c->s, yt_get(c->s, root, "default", NULL), "default", root);
    struct yt_node *tags = yt_get(c->s, yt_get(c->s, root, "default", NULL), "tags", NULL);
    for (size_t i = 0; i < n; i++) {
        struct yt_node *k = yt_deref(c->s, p[i].key);
        if (!yt_is_scalar(k) || !yt_is_map(p[i].value) || gitlab_keyword(k->value))
            continue;
        size_t first = c->doc->nlaunches;
        gitlab_job(c, root, p[i].value);
        if (strcmp(k->value, "default")) /* (hidden `.templates` too: their images run) */
            ci_gitlab_containers(c->doc, c->s, p[i].value, k->value, root);
        /* a job whose runner tags name a CPU host, as a GitHub job's runs-on */
        bool cpu = runner_is_cpu(c, gitlab_tags(c->s, root, p[i].value, tags), false);
        for (size_t l = first; cpu && l < c->doc->nlaunches; l++)
            c->doc->launches[l].gpu_unseen = c->doc->launches[l].no_gpu_host = true;
    }
}

static bool is_github(const char *path)
{
    return strstr(path, ".github/workflows/") != NULL;
}

/* Is the file at `path` directly in a .github/workflows/ directory (GitHub runs those)?
 * `base` is gl_base_name(path). (The directory is the first such in the path and ends
 * where the base name starts: the base name's 18 bytes before are looked at first, and
 * most paths go no further.) */
static bool in_workflows_dir(const char *path, const char *base)
{
    if (!base[0] || (size_t)(base - path) < 18 || memcmp(base - 18, ".github/workflows/", 18))
        return false;
    const char *w = strstr(path, ".github/workflows/");
    return w == base - 18 && (w == path || w[-1] == '/');
}

static void parse(struct gl_doc *doc, const struct gl_config *cfg)
{
    struct yt_stream s;
    yt_load_doc(&s, doc, doc->text, doc->len);
    struct ci c = {.doc = doc, .s = &s, .kb = cfg ? cfg->kb : NULL};
    if (doc->path && in_workflows_dir(doc->path, gl_base_name(doc->path)))
        c.root = "../..";
    struct yt_node *root = s.ndocs && s.docs[0] && s.docs[0]->complete ? s.docs[0] : NULL;
    if (yt_is_map(root)) {
        if (!is_github(doc->path) && ci_circleci_root(&s, root, doc->path))
            ci_circleci(doc, &s, root);
        else if (is_github(doc->path) || yt_get(&s, root, "jobs", NULL) ||
            yt_get(&s, root, "runs", NULL))
            github(&c, root);
        else if (ci_cloud_build_root(&s, root))
            ci_cloud_build(doc, &s, root);
        else
            gitlab(&c, root);
    }
    yt_add_pragmas(doc, &s);
    yt_report(doc, &s);
}

static bool by_name(const char *path, const char *b)
{
    bool yaml = yt_yaml_name(b);
    if (!yaml)
        return false;
    if (!strcmp(b, ".gitlab-ci.yml") || !strcmp(b, ".gitlab-ci.yaml") ||
        !strcmp(b, "action.yml") || !strcmp(b, "action.yaml"))
        return true; /* (action.yml: a GitHub composite action, runs.steps[].run) */
    return in_workflows_dir(path, b) || ci_cloud_build_name(b) || ci_circleci_name(path, b);
}

static bool yaml_ext(const char *b)
{
    return yt_yaml_name(b);
}

/* A YAML name, or a name that says nothing (RULES.md second round: its first bytes
 * decide, as for `podspec`, `deploy-gpu`). */
static bool candidate(const char *path, const char *b)
{
    return yaml_ext(b) || gl_input_bare_candidate(path, b);
}

/* Does some value of mapping `m` hold one of `keys` (and, when `also` is given, one of
 * those too)? */
static bool some_job_has(struct yt_stream *s, struct yt_node *m, const char *const *keys,
                         const char *const *also)
{
    struct yt_pair *p;
    size_t n = yt_pairs(s, m, &p);
    for (size_t i = 0; i < n; i++) {
        struct yt_node *job = yt_deref(s, p[i].value);
        if (!yt_is_map(job))
            continue;
        bool hit = false, hit2 = !also;
        for (size_t k = 0; keys[k]; k++)
            hit |= yt_get(s, job, keys[k], NULL) != NULL;
        for (size_t k = 0; also && also[k]; k++)
            hit2 |= yt_get(s, job, also[k], NULL) != NULL;
        if (hit && hit2)
            return true;
    }
    return false;
}

static bool ci_stream(struct yt_stream *s)
{
    static const char *const gh[] = {"runs-on", "steps", NULL};
    static const char *const gl[] = {"script", NULL}, *const gl2[] = {"image", "stage", NULL};
    struct yt_node *root = s->ndocs ? s->docs[0] : NULL;
    if (!yt_is_map(root) || yt_get(s, root, "apiVersion", NULL) ||
        yt_get(s, root, "kind", NULL) || yt_get(s, root, "services", NULL))
        return false;
    if (ci_cloud_build_root(s, root))
        return true;
    struct yt_node *jobs = yt_get(s, root, "jobs", NULL);
    if (yt_is_map(jobs))
        return some_job_has(s, jobs, gh, NULL);
    return yt_is_seq(yt_get(s, root, "stages", NULL)) || some_job_has(s, root, gl, gl2);
}

static bool by_content(const char *path, const char *data, size_t len)
{
    (void)path;
    return (gl_mem_has(data, len, "jobs", 4, 0) || gl_mem_has(data, len, "script", 6, 4) ||
            gl_mem_has(data, len, "steps", 5, 3)) &&
           yt_sniff(data, len, ci_stream);
}

const struct gl_input_type gl_input_ciyaml = {
    .kind = GL_IN_CIYAML,
    .name = "ciyaml",
    .priority = 15,
    .by_name = by_name,
    .candidate = candidate,
    .by_content = by_content,
    .parse = parse,
};
