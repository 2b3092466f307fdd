/* SPDX-License-Identifier: Apache-2.0 */
/* GL302 build-tools-in-final-stage: compilers and -dev packages in the shipped image. */
#include <stdio.h>
#include <string.h>

#include "rules/check.h"
#include "rules/gl3xx/build_tools.h"
#include "rules/gl3xx/dev_container.h"
#include "rules/gl3xx/driver_container.h"
#include "rules/gl3xx/history_pkgs.h"
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

/* A compiler or development package an OS package manager installs (in a RUN line or a
 * history entry). */
static bool build_pkg(const struct gl_pkg *p)
{
    return gl_pkg_family_os(p->family) && gl_build_tool_package(p->name, p->group);
}

/* " and N more build package[s]" ("" for none), put together without snprintf's walk of
 * a format (once a finding: about a thousand instructions). buf holds 64 bytes at least,
 * more than the longest (45). */
static const char *more_text(char *buf, size_t len, size_t more)
{
    buf[0] = 0;
    if (!more || len < 64)
        return buf;
    char digits[24];
    size_t d = sizeof digits;
    for (size_t v = more; v; v /= 10) /* (more > 0) */
        digits[--d] = (char)('0' + v % 10);
    static const char head[] = " and ", tail[] = " more build packages";
    size_t n = 0;
    memcpy(buf + n, head, sizeof head - 1), n += sizeof head - 1;
    memcpy(buf + n, digits + d, sizeof digits - d), n += sizeof digits - d;
    size_t t = sizeof tail - 1 - (more == 1); /* "package" for one */
    memcpy(buf + n, tail, t), n += t;
    buf[n] = 0;
    return buf;
}

/* An image's history, for the platforms whose files show no compiler. */
static void check_history(struct gl_check *c)
{
    const struct gl_image_model *im = c->doc->image;
    for (size_t i = 0; im && i < im->nplatforms; i++) {
        const struct gl_image_platform *p = &im->platforms[i];
        size_t more;
        const struct gl_pkg *pkg = gl_history_first_pkg(p, build_pkg, &more);
        char others[64], tail[160];
        if (!pkg || gl_image_has_file(p, compiler_file))
            continue;
        snprintf(tail, sizeof tail, "%s: compilers and headers ride along into production",
                 more_text(others, sizeof others, more));
        gl_report_history_pkg(c, p, pkg, NULL, "the image installs ", tail);
    }
}

static void check(struct gl_check *c)
{
    gl_report_first_image_file(c, compiler_file, NULL, "the image holds a C compiler",
                               "; build tools ride along into production", NULL);
    check_history(c);
    const struct gl_dockerfile_model *m = c->doc->df;
    if (!m)
        return;
    const struct gl_pkg *first = NULL;
    size_t more = 0;
    for (size_t i = 0; i < m->npkgs; i++) {
        const struct gl_pkg *p = &m->pkgs[i];
        if (!gl_df_stage_shipped(c->doc, p->stage) || !build_pkg(p))
            continue;
        if (!first)
            first = p;
        else
            more++;
    }
    /* a driver container builds or links the kernel module on the node it starts on:
     * its compilers are run-time tools; a dev container is where a developer builds */
    if (!first || gl_df_driver_container(c->doc) || gl_df_dev_container(c->doc))
        return;
    char others[64];
    gl_df_dev_built(gl_report(c, first->loc, NULL,
                              "the shipped image installs `%s`%s: compilers and headers ride "
                              "along into production",
                              first->spec, more_text(others, sizeof others, more)));
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
        "and JDKs are not build tools here. An image's config history is read the same "
        "way (its RUN entries), except entries that clean up after themselves (`apt-get "
        "purge --auto-remove`, `apk del`): what they leave is not known. A compiler among "
        "the image's files wins over the history entry. Not for a driver container (see "
        "GL203): it builds the kernel module on its node at start.",
    .bad = "FROM nvidia/cuda:12.4.1-runtime-ubuntu22.04\n"
           "RUN apt-get update && apt-get install -y build-essential python3-dev",
    .good = "FROM nvidia/cuda:12.4.1-devel-ubuntu22.04 AS build\n"
            "RUN apt-get update && apt-get install -y build-essential python3-dev && pip wheel ...\n"
            "FROM nvidia/cuda:12.4.1-runtime-ubuntu22.04\nCOPY --from=build /wheels /wheels",
    .fix = "build in an earlier stage and copy only the results into the shipped one",
    .check = check,
};
