/* SPDX-License-Identifier: Apache-2.0 */
/* GL301 devel-image-in-runtime: the shipped image is built on a devel flavor. */
#include <stdio.h>
#include <string.h>

#include "rules/check.h"
#include "rules/gl3xx/build_tools.h"
#include "rules/gl3xx/dev_container.h"
#include "rules/gl3xx/history_pkgs.h"
#include "rules/gl3xx/image_site.h"

/* Offset of a `devel` token ("-devel-", "-devel", "devel-") in the tag, or -1. */
static long devel_token(const char *tag)
{
    size_t n = strlen(tag);
    for (size_t s = 0; s < n;) {
        size_t e = s;
        while (e < n && tag[e] != '-' && tag[e] != '_')
            e++;
        if (e - s == 5 && !memcmp(tag + s, "devel", 5))
            return (long)s;
        s = e + 1;
    }
    return -1;
}

/* nvcc, or the CUDA headers (cuda.h, cuda_runtime.h in an include/ directory). */
static bool devel_file(const struct gl_image_file *f)
{
    if (f->type == GL_FILE_DIR)
        return false;
    const char *base = gl_base_name(f->path);
    if (!strcmp(base, "nvcc"))
        return true;
    return (!strcmp(base, "cuda.h") || !strcmp(base, "cuda_runtime.h")) &&
           gl_image_in_dir_named(f->path, "include");
}

/* The CUDA compiler or toolkit, installed by an OS package manager (a history entry). */
static bool compiler_pkg(const struct gl_pkg *p)
{
    return gl_cuda_compiler_package(p->name);
}

static void check(struct gl_check *c)
{
    gl_report_first_image_file(c, devel_file, NULL,
                               "the image holds the CUDA toolkit's development files",
                               "; nvcc and headers are gigabytes a service never uses", NULL);
    gl_report_history_pkgs(c, devel_file, compiler_pkg, NULL,
                           "the image installs the CUDA compiler ",
                           ": nvcc and headers are gigabytes a service never uses");
    const struct gl_dockerfile_model *m = c->doc->df;
    if (!m || m->final_stage < 0 || gl_df_dev_container(c->doc))
        return; /* (a dev container's image is a development environment by design) */
    const struct gl_ref *r = gl_df_stage_root_ref(c->doc, m->final_stage);
    if (!r || !r->ok || r->unresolved || !r->parsed.tag)
        return;
    /* the tag's token first: a scan of the tag, where gl_imageref_cuda_bearing asks the
     * repository's names in turn (most final stages are no devel flavor) */
    long off = devel_token(r->parsed.tag);
    if (off < 0 || !gl_imageref_cuda_bearing(&r->parsed))
        return;
    const struct gl_stage *fin = &m->stages[m->final_stage];
    char via[96] = "";
    if (fin->base_stage >= 0) { /* the stage the final one is built FROM */
        const char *name = m->stages[fin->base_stage].name;
        snprintf(via, sizeof via, " (through stage `%.60s`)", name ? name : "?");
    }
    gl_df_dev_built(gl_report(c, gl_ref_tag_loc(r, (size_t)off, 5), NULL,
                              "the shipped image is built on `%s`%s, a devel flavor with nvcc, "
                              "headers and static libraries (gigabytes the service never uses)",
                              r->text, via));
}

const struct gl_rule gl_rule_GL301 = {
    .id = "GL301",
    .name = "devel-image-in-runtime",
    .severity = GL_SEV_WARNING,
    .summary = "the shipped (final) stage is based on a devel flavor (nvidia/cuda:*-devel-*, "
               "pytorch/pytorch:*-devel, ...) or an image holds nvcc / the CUDA headers",
    .explanation =
        "The devel flavors of CUDA images carry the whole toolkit: nvcc, headers, static "
        "libraries, profilers. They are three to five times the size of the runtime flavor, "
        "slow every pull and scale-up, and widen the attack surface of a production "
        "service. Compile in a devel stage, then copy the build output into a stage based "
        "on the runtime (or base) flavor of the same CUDA version. The check follows the "
        "final stage (or --target) through `FROM <stage>` and ARGs to the image it is "
        "really built on. An image whose config history installs the CUDA compiler "
        "(cuda-nvcc, cuda-toolkit, cuda-minimal-build, nvidia-cuda-toolkit) is judged "
        "the same, from its config alone; nvcc among its files wins over the entry.",
    .bad = "FROM nvidia/cuda:12.4.1-devel-ubuntu22.04\nCOPY . /app\nRUN make -C /app",
    .good = "FROM nvidia/cuda:12.4.1-devel-ubuntu22.04 AS build\nCOPY . /app\n"
            "RUN make -C /app\n\nFROM nvidia/cuda:12.4.1-runtime-ubuntu22.04\n"
            "COPY --from=build /app/bin /app/bin",
    .fix = "build in a devel stage and ship a stage based on the runtime flavor",
    .check = check,
};
