/* SPDX-License-Identifier: Apache-2.0 */
/* cuda_check.c: shared by the CUDA rules (see cuda_check.h). */
#include "rules/gl2xx/cuda_check.h"
#include "rules/gl3xx/driver_container.h"
#include "rules/gl3xx/image_site.h"
#include "rules/gl4xx/launch_paths.h"

#include <stdio.h>
#include <string.h>

static bool below(const char *driver, const char *need)
{
    int r;
    return need && gl_version_compare(driver, need, 0, &r) && r < 0;
}

/* Is the CUDA major newer than the newest CUDA the driver runs natively (exactly known)? */
static bool beyond_native_major(unsigned major, const char *max_cuda, bool exact)
{
    unsigned max_major;
    return max_cuda && exact && gl_version_field(max_cuda, 0, &max_major) && major > max_major;
}

/* The NGC forward-compat driver of the target's branch that the target reaches. */
static const char *fwd_compat_driver(const struct gl_kb_ngc_release *ngc, const char *driver)
{
    if (!ngc)
        return NULL;
    unsigned branch = gl_driver_branch_of(driver);
    for (size_t i = 0; i < ngc->fwd_compat_drivers.count; i++) {
        const char *d = ngc->fwd_compat_drivers.items[i];
        if (gl_driver_branch_of(d) == branch && branch && !below(driver, d))
            return d;
    }
    return NULL;
}

/* "10.2" (two fields) names every 10.2.x: the oldest row of that major.minor ("10.2.89")
 * gives the least driver any of them needs. */
static const struct gl_kb_toolkit *oldest_of_minor(const struct gl_kb *kb, const char *cuda,
                                                   enum gl_kb_match *how)
{
    const char *dot = strchr(cuda, '.');
    if (!dot || strchr(dot + 1, '.'))
        return NULL;
    const struct gl_kb_toolkit *best = NULL;
    for (size_t i = 0; i < kb->n_toolkits; i++) {
        const struct gl_kb_toolkit *t = &kb->toolkits[i];
        int r;
        if (t->linux_min_driver && gl_version_compare(t->cuda, cuda, 2, &r) && r == 0 &&
            (!best || gl_version_cmp(t->cuda, best->cuda) < 0))
            best = t;
    }
    if (best)
        *how = GL_KB_SAME_MINOR;
    return best;
}

void gl_cuda_judge(const struct gl_kb *kb, const char *cuda, const char *driver,
                   const struct gl_kb_ngc_release *ngc, struct gl_judgement *out)
{
    memset(out, 0, sizeof *out);
    out->verdict = GL_JUDGE_UNKNOWN;
    unsigned major;
    if (!cuda || !driver || !gl_version_valid(cuda) || !gl_version_valid(driver) ||
        !gl_version_field(cuda, 0, &major))
        return;
    bool exact = false;
    out->driver_max_cuda = gl_kb_driver_max_cuda(kb, driver, &exact);
    const struct gl_kb_mvc *mvc = gl_kb_mvc_for_major(kb, major);
    if (mvc && mvc->supported && mvc->linux_min_driver) {
        out->has_mvc = true;
        out->floor = mvc->linux_min_driver;
    }
    out->major_only = strchr(cuda, '.') == NULL;
    out->new_major = beyond_native_major(major, out->driver_max_cuda, exact);
    bool below_floor = out->has_mvc && below(driver, out->floor);

    enum gl_kb_match how = GL_KB_NONE;
    const struct gl_kb_toolkit *row =
        out->major_only ? NULL : gl_kb_toolkit_lookup(kb, cuda, &how);
    if (!row && how == GL_KB_NONE && !out->major_only)
        row = oldest_of_minor(kb, cuda, &how);
    if (row && (how == GL_KB_EXACT || how == GL_KB_SAME_MINOR) && row->linux_min_driver) {
        out->need = row->linux_min_driver;
        out->row_cuda = row->cuda;
        out->row_exact = how == GL_KB_EXACT;
        if (!below(driver, out->need))
            out->verdict = GL_JUDGE_OK;
        else if (out->has_mvc && !below_floor)
            out->verdict = GL_JUDGE_MVC;
        else
            out->verdict = GL_JUDGE_FAIL;
    } else {
        int cmp;
        out->newer_than_table = how == GL_KB_NEWER_THAN_TABLE;
        bool beyond_native = !out->newer_than_table && out->driver_max_cuda && exact &&
                             gl_version_compare(cuda, out->driver_max_cuda, 2, &cmp) && cmp > 0;
        if (below_floor || out->new_major || (!out->has_mvc && beyond_native))
            out->verdict = GL_JUDGE_FAIL;
        else if (out->major_only && out->has_mvc)
            out->verdict = GL_JUDGE_OK; /* at or above the floor of its major */
        else if (!out->newer_than_table && out->driver_max_cuda && exact &&
                 gl_version_compare(cuda, out->driver_max_cuda, 2, &cmp) && cmp <= 0)
            out->verdict = GL_JUDGE_OK;
    }
    if (out->verdict == GL_JUDGE_MVC || out->verdict == GL_JUDGE_FAIL) {
        out->fwd_driver = fwd_compat_driver(ngc, driver);
        if (out->fwd_driver)
            out->verdict = GL_JUDGE_FWD_COMPAT;
    }
}

const struct gl_kb *gl_cuda_kb(const struct gl_check *c)
{
    return c->cfg && c->cfg->kb ? c->cfg->kb : gl_kb_builtin();
}

/* Does the stage fact f ship: its stage is shipped, or it is a Python package's (a torch
 * wheel's CUDA, pytorch-cuda=, nvidia-*-cuNN) in a stage whose Python environment a
 * shipped stage copies (gl_stage.env_shipped: `COPY --from=build /opt/conda ...`)? */
static bool stage_fact_ships(const struct gl_doc *doc, const struct gl_cuda_fact *f)
{
    if (gl_df_stage_shipped(doc, f->stage))
        return true;
    const struct gl_dockerfile_model *m = doc->df;
    return (f->kind == GL_CUDA_FRAMEWORK || f->kind == GL_CUDA_PIP_NVIDIA) && m &&
           f->stage >= 0 && (size_t)f->stage < m->nstages && m->stages[f->stage].env_shipped;
}

bool gl_cuda_fact_counts(const struct gl_doc *doc, const struct gl_cuda_fact *f)
{
    if (f->ref >= 0 && (size_t)f->ref < doc->nrefs && doc->refs[f->ref].role == GL_REF_ELSEWHERE)
        return false; /* judged in the file that names the image */
    if (f->stage >= 0) {
        /* a driver container, or a stage built on NVIDIA's GPU plumbing (the GPU
           operator, the driver container), runs no CUDA workload, whatever CUDA it names
           (RULES.md third round) */
        return stage_fact_ships(doc, f) && !gl_df_driver_container(doc) &&
               !gl_image_nvidia_infra(doc, f->stage);
    }
    if (f->launch >= 0)
        return (size_t)f->launch < doc->nlaunches && !doc->launches[f->launch].fragment;
    if (f->ref >= 0 && (size_t)f->ref < doc->nrefs) {
        enum gl_ref_role role = doc->refs[f->ref].role;
        return role == GL_REF_DEF_FROM || role == GL_REF_ARCHIVE || role == GL_REF_REGISTRY ||
               role == GL_REF_LAUNCH ||
               role == GL_REF_KUSTOMIZE; /* the image a kustomization runs in its bases */
    }
    return true; /* image files and config */
}

bool gl_cuda_require_disabled(const struct gl_doc *doc, const struct gl_cuda_fact *f)
{
    for (size_t i = 0; i < doc->nenv; i++) {
        const struct gl_env *e = &doc->env[i];
        if (strcmp(e->key, "NVIDIA_DISABLE_REQUIRE") || !e->value)
            continue;
        if (!gl_streq_nocase(e->value, "true") && strcmp(e->value, "1") &&
            !gl_streq_nocase(e->value, "yes"))
            continue;
        if ((f->stage >= 0 && e->stage >= 0 && gl_df_stage_shipped(doc, e->stage)) ||
            (f->launch >= 0 && e->launch == f->launch) || e->origin == GL_ENV_IMAGE_CONFIG)
            return true;
    }
    return false;
}

/* Does the shipped image install Python or Python packages (pip, uv, conda; an OS package
 * python*): a Python workload, whose framework may load the base's CUDA? */
static bool ships_python(const struct gl_doc *doc)
{
    const struct gl_dockerfile_model *m = doc->df;
    for (size_t i = 0; m && i < m->npkgs; i++) {
        const struct gl_pkg *p = &m->pkgs[i];
        if ((p->family == GL_PKG_PIP || p->family == GL_PKG_CONDA ||
             (p->name && gl_has_prefix(p->name, "python"))) &&
            gl_df_stage_shipped(doc, p->stage))
            return true;
    }
    return false;
}

bool gl_cuda_fact_unrequired_base(const struct gl_doc *doc, const struct gl_cuda_fact *f)
{
    if (f->kind != GL_CUDA_BASE_TAG || f->stage < 0 || f->ref < 0 ||
        (size_t)f->ref >= doc->nrefs || !f->version)
        return false;
    const char *tag = doc->refs[f->ref].parsed.tag;
    size_t n = strlen(f->version);
    if (!tag || strncmp(tag, f->version, n) || strncmp(tag + n, "-base", 5) ||
        (tag[n + 5] != '-' && tag[n + 5] != '\0'))
        return false;
    return gl_cuda_require_disabled(doc, f) && !ships_python(doc);
}

bool gl_cuda_fact_on_gpu(const struct gl_doc *doc, const struct gl_cuda_fact *f)
{
    if (!gl_cuda_fact_counts(doc, f) || gl_cuda_fact_unrequired_base(doc, f))
        return false;
    if (f->launch < 0)
        return true;
    const struct gl_launch *l = &doc->launches[f->launch];
    return !gl_cuda_launch_off_gpu(doc, l) && !l->secondary_role;
}

bool gl_cuda_launch_off_gpu(const struct gl_doc *doc, const struct gl_launch *l)
{
    return l->no_gpu_host || gl_launch_cpu_by_design(doc, l);
}

struct gl_loc gl_cuda_fact_report_loc(const struct gl_cuda_fact *f)
{
    return f->file ? f->via_loc : f->loc;
}

const char *gl_cuda_fact_where(const struct gl_doc *doc, const struct gl_cuda_fact *f,
                               char *buf, size_t n)
{
    const char *label = f->label ? f->label : "CUDA source";
    const char *file;
    struct gl_loc at = f->loc;
    if (!f->file)
        gl_doc_origin(doc, f->loc, &file, &at); /* a rendered stream: the template line */
    if (f->file)
        snprintf(buf, n, "%s, %s:%u:%u", label, f->file, (unsigned)f->loc.line,
                 (unsigned)f->loc.col);
    else if (at.line)
        snprintf(buf, n, "%s, line %u", label, (unsigned)at.line);
    else
        snprintf(buf, n, "%s", label);
    return buf;
}

bool gl_cuda_same_subject(const struct gl_doc *doc, const struct gl_cuda_fact *a,
                          const struct gl_cuda_fact *b)
{
    if (a->stage >= 0 || b->stage >= 0) /* one shipped Dockerfile image */
        return a->stage >= 0 && b->stage >= 0 && stage_fact_ships(doc, a) &&
               stage_fact_ships(doc, b);
    if (a->launch >= 0 || b->launch >= 0)
        return a->launch == b->launch;
    return a->ref == b->ref || a->ref < 0 || b->ref < 0;
}

bool *gl_cuda_instr_flags(const struct gl_doc *doc)
{
    size_t max = 0;
    for (size_t i = 0; i < doc->ncuda; i++)
        if (doc->cuda[i].instr >= 0 && (size_t)doc->cuda[i].instr > max)
            max = (size_t)doc->cuda[i].instr;
    return xcalloc(max + 2, sizeof(bool));
}

bool gl_cuda_instr_claim(bool *flags, const struct gl_cuda_fact *f)
{
    if (f->instr < 0)
        return true;
    if (flags[f->instr])
        return false;
    flags[f->instr] = true;
    return true;
}
