/* SPDX-License-Identifier: Apache-2.0 */
/* GL205 nvidia-capabilities-without-compute: CUDA libraries are never injected. */
#include <string.h>

#include "rules/check.h"
#include "rules/gl2xx/cuda_check.h"
#include "rules/gl3xx/driver_container.h"

/* Does the comma-separated capability list name compute (or all)? */
static bool has_compute(const char *v)
{
    const char *p = v;
    while (*p) {
        while (*p == ' ' || *p == ',')
            p++;
        size_t n = strcspn(p, ", ");
        if ((n == 7 && !strncmp(p, "compute", 7)) || (n == 3 && !strncmp(p, "all", 3)))
            return true;
        p += n;
    }
    return false;
}

/* Is the image this variable is set for one that needs CUDA? */
static bool cuda_subject(const struct gl_doc *doc, const struct gl_env *e)
{
    const struct gl_ref *r = NULL;
    if (e->stage >= 0 && gl_df_driver_container(doc))
        return false; /* (its NVIDIA_VISIBLE_DEVICES=void is intended) */
    if (e->stage >= 0)
        r = gl_df_stage_root_ref(doc, e->stage);
    else if (e->launch >= 0 && doc->launches[e->launch].ref >= 0)
        r = &doc->refs[doc->launches[e->launch].ref];
    if (r && r->ok && gl_imageref_nvidia_infra(&r->parsed))
        return false; /* NVIDIA's GPU plumbing: `void` is intended (RULES.md third round) */
    /* its CUDA facts: a CUDA `-base` tag with the toolkit's requirement off is GPU plumbing
       that reads the GPUs through NVML (`utility` is what it asks for), unless another
       fact of the image says CUDA is used */
    bool facts = false;
    for (size_t i = 0; i < doc->ncuda; i++) {
        const struct gl_cuda_fact *f = &doc->cuda[i];
        if (e->origin == GL_ENV_IMAGE_CONFIG ||
            (e->stage >= 0 && f->stage >= 0 && gl_df_stage_shipped(doc, f->stage)) ||
            (e->launch >= 0 && f->launch == e->launch)) {
            if (!gl_cuda_fact_unrequired_base(doc, f))
                return true;
            facts = true;
        }
    }
    return !facts && r && r->ok && !r->unresolved && gl_imageref_cuda_bearing(&r->parsed);
}

/* Is this the value that takes effect: no later setting of the same key for the same
 * image (a later shipped stage, the same launch)? */
static bool effective(const struct gl_doc *doc, size_t i)
{
    const struct gl_env *e = &doc->env[i];
    if (e->stage >= 0 && !gl_df_stage_shipped(doc, e->stage))
        return false;
    for (size_t k = i + 1; k < doc->nenv; k++) {
        const struct gl_env *x = &doc->env[k];
        if (strcmp(x->key, e->key) || x->origin != e->origin)
            continue;
        if ((e->stage >= 0 && gl_df_stage_shipped(doc, x->stage)) ||
            (e->launch >= 0 && x->launch == e->launch))
            return false;
    }
    return true;
}

static void check(struct gl_check *c)
{
    const struct gl_doc *doc = c->doc;
    for (size_t i = 0; i < doc->nenv; i++) {
        const struct gl_env *e = &doc->env[i];
        if (!e->value || !*e->value)
            continue;
        /* (gl_streq: most keys differ from both at their first bytes, told inline) */
        bool caps = gl_streq(e->key, "NVIDIA_DRIVER_CAPABILITIES");
        bool devs = !caps && gl_streq(e->key, "NVIDIA_VISIBLE_DEVICES");
        if (!caps && !devs)
            continue;
        if (caps && has_compute(e->value))
            continue;
        if (devs && strcmp(e->value, "void") && strcmp(e->value, "none"))
            continue;
        if (!effective(doc, i) || !cuda_subject(doc, e))
            continue;
        if (caps)
            gl_report(c, e->value_loc, "add compute: NVIDIA_DRIVER_CAPABILITIES=compute,utility",
                      "NVIDIA_DRIVER_CAPABILITIES=%s has no `compute`: libcuda is not injected "
                      "and CUDA fails with \"no CUDA-capable device\"", e->value);
        else
            gl_report(c, e->value_loc, "remove it, or set NVIDIA_VISIBLE_DEVICES=all",
                      "NVIDIA_VISIBLE_DEVICES=%s hides every GPU: the CUDA image runs "
                      "without one", e->value);
    }
}

const struct gl_rule gl_rule_GL205 = {
    .id = "GL205",
    .name = "nvidia-capabilities-without-compute",
    .severity = GL_SEV_ERROR,
    .summary = "NVIDIA_DRIVER_CAPABILITIES lacks compute (nor all), or NVIDIA_VISIBLE_DEVICES "
               "is void/none, in a CUDA image",
    .explanation =
        "The NVIDIA Container Toolkit injects driver libraries by capability: `compute` "
        "brings libcuda.so and libnvidia-ptxjitcompiler, `utility` brings nvidia-smi and "
        "NVML. An image that sets NVIDIA_DRIVER_CAPABILITIES=utility (or graphics, video, "
        "...) without compute gets a GPU it cannot run CUDA on: nvidia-smi works, "
        "cudaGetDeviceCount() fails. NVIDIA_VISIBLE_DEVICES=void or none hides every device. "
        "Only images that use CUDA are judged: not NVIDIA's GPU plumbing, driver containers, "
        "nor an image on an nvidia/cuda `-base` tag with NVIDIA_DISABLE_REQUIRE set, no "
        "Python and no other CUDA source (a node agent that reads the GPUs through NVML asks "
        "for `utility`).",
    .bad = "FROM nvidia/cuda:12.4.1-runtime-ubuntu22.04\nENV NVIDIA_DRIVER_CAPABILITIES=utility",
    .good = "FROM nvidia/cuda:12.4.1-runtime-ubuntu22.04\n"
            "ENV NVIDIA_DRIVER_CAPABILITIES=compute,utility",
    .fix = "include compute: NVIDIA_DRIVER_CAPABILITIES=compute,utility",
    .check = check,
};
