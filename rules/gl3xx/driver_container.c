/* SPDX-License-Identifier: Apache-2.0 */
/* driver_container.c: is a Dockerfile's shipped image a driver container? */
#include "rules/gl3xx/driver_container.h"

#include <string.h>

#include "rules/check.h"

/* The program of the final image's ENTRYPOINT is `nvidia-driver` (any directory). */
static bool driver_entrypoint(const struct gl_dockerfile_model *m)
{
    for (int s = m->final_stage; s >= 0; s = m->stages[s].base_stage)
        if (m->stages[s].entrypoint)
            return !strcmp(gl_base_name(m->stages[s].entrypoint), "nvidia-driver");
    return false;
}

/* A package (or an RPM file of one: its base name) of the NVIDIA kernel module. */
static bool kernel_module_package(const char *name)
{
    const char *b = name[0] == '/' || name[0] == '.' ? gl_base_name(name) : name;
    switch (b[0]) {
    case 'k': return GL_PKG_STEM(b, "kmod-nvidia", false);
    case 'l':
        return gl_first4(b, "linu") && (GL_PKG_STEM(b, "linux-modules-nvidia", false) ||
                                        GL_PKG_STEM(b, "linux-objects-nvidia", false) ||
                                        GL_PKG_STEM(b, "linux-signatures-nvidia", false));
    case 'n':
        return gl_first4(b, "nvid") && (GL_PKG_STEM(b, "nvidia-dkms", false) ||
                                        GL_PKG_STEM(b, "nvidia-kernel-source", false) ||
                                        GL_PKG_STEM(b, "nvidia-kernel-open", false));
    default: return false;
    }
}

static bool driver_container(const struct gl_doc *doc, const struct gl_dockerfile_model *m)
{
    if (m->final_stage < 0)
        return false;
    if (driver_entrypoint(m))
        return true;
    for (size_t i = 0; i < m->npkgs; i++) {
        const struct gl_pkg *p = &m->pkgs[i];
        if (p->name && gl_pkg_family_os(p->family) && kernel_module_package(p->name) &&
            gl_df_stage_shipped(doc, p->stage))
            return true;
    }
    for (size_t i = 0; i < m->ncopies; i++) {
        const char *b = gl_base_name(m->copies[i].path);
        if (b[0] == 'N' && gl_has_prefix(b, "NVIDIA-Linux-") &&
            gl_has_suffix(b, "-vgpu-kvm.run") && gl_df_stage_shipped(doc, m->copies[i].stage))
            return true;
    }
    return false;
}

bool gl_df_driver_container(const struct gl_doc *doc)
{
    struct gl_dockerfile_model *m = doc->df;
    if (!m)
        return false;
    if (!m->driver_container_memo) /* (asked by several rules, for each CUDA fact) */
        m->driver_container_memo = driver_container(doc, m) ? 2 : 1;
    return m->driver_container_memo == 2;
}
