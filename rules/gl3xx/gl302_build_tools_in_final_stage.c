/* SPDX-License-Identifier: Apache-2.0 */
/* GL302 build-tools-in-final-stage: compilers and -dev packages in the shipped image. */
#include <stdio.h>
#include <string.h>

#include "rules/check.h"
#include "rules/gl3xx/build_tools.h"
#include "rules/gl3xx/image_site.h"

/* The C compiler: cc1 (gcc's compiler proper) or a gcc / gcc-N driver in a bin dir. */
static bool compiler_file(const struct gl_image_file *f)
{
    if (f->type != GL_FILE_REG && f->type != GL_FILE_SYMLINK && f->type != GL_FILE_HARDLINK)
        return false;
    const char *base = gl_base_name(f->path);
    if (!strcmp(base, "cc1"))
        return true;
    return gl_named_versioned(base, "gcc") && gl_image_in_dir_named(f->path, "bin");
}

static void check(struct gl_check *c)
{
    gl_report_first_image_file(c, compiler_file, NULL, "the image holds a C compiler",
                               "; build tools ride along into production", NULL);
    const struct gl_dockerfile_model *m = c->doc->df;
    if (!m)
        return;
    const struct gl_pkg *first = NULL;
    size_t more = 0;
    for (size_t i = 0; i < m->npkgs; i++) {
        const struct gl_pkg *p = &m->pkgs[i];
        if (!gl_df_stage_shipped(c->doc, p->stage) || !gl_os_package_manager(p->manager) ||
            !gl_build_tool_package(p->name, p->group))
            continue;
        if (!first)
            first = p;
        else
            more++;
    }
    if (!first)
        return;
    char others[64] = "";
    if (more)
        snprintf(others, sizeof others, " and %zu more build package%s", more,
                 more == 1 ? "" : "s");
    gl_report(c, first->loc, NULL,
              "the shipped image installs `%s`%s: compilers and headers ride along into "
              "production", first->spec, others);
}

const struct gl_rule gl_rule_GL302 = {
    .id = "GL302",
    .name = "build-tools-in-final-stage",
    .severity = GL_SEV_INFO,
    .summary = "the shipped image installs compilers or development packages (build-essential, "
               "gcc, g++, cmake, *-dev, *-devel, Development Tools) or holds cc1/gcc",
    .explanation =
        "Compilers and -dev packages are needed to build extensions (flash-attn, apex, "
        "custom CUDA kernels), not to run them. In the shipped image they add hundreds of "
        "megabytes and tools an attacker can use. Build in an earlier stage and copy the "
        "result, or remove the packages in the same RUN that installed them. One finding "
        "per shipped image, at the first such package; pip packages (pip install cmake) "
        "and JDKs are not build tools here.",
    .bad = "FROM nvidia/cuda:12.4.1-runtime-ubuntu22.04\n"
           "RUN apt-get update && apt-get install -y build-essential python3-dev",
    .good = "FROM nvidia/cuda:12.4.1-devel-ubuntu22.04 AS build\n"
            "RUN apt-get update && apt-get install -y build-essential python3-dev && pip wheel ...\n"
            "FROM nvidia/cuda:12.4.1-runtime-ubuntu22.04\nCOPY --from=build /wheels /wheels",
    .fix = "build in an earlier stage and copy only the results into the shipped one",
    .check = check,
};
