/* SPDX-License-Identifier: Apache-2.0 */
/* GL203 driver-in-image: the image installs or ships the NVIDIA user-mode driver. */
#include <string.h>

#include "rules/check.h"
#include "rules/gl3xx/driver_container.h"
#include "rules/gl3xx/history_pkgs.h"
#include "rules/gl3xx/image_site.h"

/* nvidia-driver-*, cuda-drivers, nvidia-utils-*, libnvidia-compute-* (and the bare
 * names, and RPM module streams such as nvidia-driver:latest-dkms). */
/* Could `name` be a driver package, by its first byte (what the stems below start with)?
 * Inline: it rules out nearly every package before any call. */
static inline bool driver_initial(const char *name)
{
    return name[0] == 'n' || name[0] == 'c' || name[0] == 'l';
}

/* The stems asked by the name's first bytes: a name that shares none of a stem's first
 * four bytes is no driver package (most names that pass driver_initial). */
static bool driver_package(const char *name)
{
    switch (name[0]) {
    case 'n': /* nvidia-driver, nvidia-utils */
        return gl_first4(name, "nvid") &&
               (GL_PKG_STEM(name, "nvidia-driver", false) ||
                GL_PKG_STEM(name, "nvidia-utils", false));
    case 'c': return gl_first4(name, "cuda") && GL_PKG_STEM(name, "cuda-drivers", false);
    case 'l': return gl_first4(name, "libn") && GL_PKG_STEM(name, "libnvidia-compute", false);
    default: return false;
    }
}

/* A driver package an OS package manager installs (in a RUN line or a history entry). */
static bool driver_pkg(const struct gl_pkg *p)
{
    /* the name first: it rules out nearly every package by its first letter */
    return !p->requirements && p->name && driver_package(p->name) &&
           gl_pkg_family_os(p->family);
}

/* Offset of an NVIDIA-Linux-*.run installer's name in a word (a path or URL), or -1. */
static inline long installer_offset(const char *w)
{
    const char *slash = strrchr(w, '/');
    const char *base = slash ? slash + 1 : w;
    if (base[0] == 'N' && gl_has_prefix(base, "NVIDIA-Linux-") && gl_has_suffix(base, ".run"))
        return base - w;
    return -1;
}

/* installer_offset of a RUN word. Its length is known (gl_word.len): a word that does not
 * end in ".run" cannot name an installer (whose name ends the word), and that one test
 * rules out nearly every word without the strrchr. */
static inline long installer_word_offset(const struct gl_word *w)
{
    size_t n = gl_word_size(w);
    if (n < 4 || memcmp(w->text + n - 4, ".run", 4))
        return -1;
    return installer_offset(w->text);
}

static const char fix[] =
    "remove it: the NVIDIA Container Toolkit injects the host's driver (docker run --gpus, "
    "the Kubernetes device plugin); keep only the CUDA toolkit/runtime in the image";

/* An image file of the user-mode driver: libcuda.so.<ver>, libnvidia-ml.so.<ver>,
 * nvidia-smi, outside the toolkit's stubs/ and the forward-compat compat/ directories. */
static bool driver_file(const struct gl_image_file *f)
{
    if (f->type == GL_FILE_DIR || gl_image_in_dir_named(f->path, "stubs") ||
        gl_image_in_dir_named(f->path, "compat"))
        return false;
    const char *base = gl_base_name(f->path);
    if (!strcmp(base, "nvidia-smi"))
        return true;
    static const char *const libs[] = {"libcuda.so.", "libnvidia-ml.so."};
    for (size_t i = 0; i < sizeof libs / sizeof libs[0]; i++)
        if (gl_has_prefix(base, libs[i]) && base[strlen(libs[i])] >= '0' &&
            base[strlen(libs[i])] <= '9')
            return true;
    return false;
}

/* gl_df_driver_container, asked at the first driver token only and then remembered. */
static bool driver_container(const struct gl_doc *doc, int *memo)
{
    if (*memo < 0)
        *memo = gl_df_driver_container(doc);
    return *memo;
}

static void check(struct gl_check *c)
{
    /* NVIDIA's driver container and its kin ship the driver by design (RULES.md third
     * round): not their archives, nor a Dockerfile whose shipped stage is built on one */
    const struct gl_dockerfile_model *m = c->doc->df;
    if (gl_image_nvidia_infra(c->doc, m ? m->final_stage : -1))
        return;
    /* one finding per platform, at the first driver file of its final view */
    gl_report_first_image_file(c, driver_file, fix, "the image ships the NVIDIA driver",
                               "; it breaks on every host whose kernel module differs",
                               " and more driver files; it breaks on every host whose kernel "
                               "module differs");
    gl_report_history_pkgs(c, driver_file, driver_pkg, fix, "the image installs the NVIDIA driver ",
                           ": it breaks on every host whose kernel module differs");
    if (!m)
        return;
    int by_design = -1; /* a driver container ships the driver by design (asked once) */
    int reported = -1; /* one finding per instruction: the first offending token */
    for (size_t i = 0; i < m->npkgs; i++) {
        const struct gl_pkg *p = &m->pkgs[i];
        if (!p->name || !driver_initial(p->name) || !driver_package(p->name))
            continue;
        if (p->instr == reported || !driver_pkg(p) || !gl_df_stage_shipped(c->doc, p->stage) ||
            driver_container(c->doc, &by_design))
            continue;
        gl_report(c, p->loc, fix,
                  "`%s install %s` bakes the NVIDIA driver into the image: it breaks on "
                  "every host whose kernel module differs", p->manager, p->spec);
        reported = p->instr;
    }
    int stage = -2; /* the stage asked last (a stage's commands follow each other) */
    bool shipped = false;
    for (size_t i = 0; i < m->ncmds; i++) {
        const struct gl_cmd *cmd = &m->cmds[i];
        if (cmd->stage != stage) {
            stage = cmd->stage;
            shipped = gl_df_stage_shipped(c->doc, stage);
        }
        if (cmd->instr == reported || !shipped)
            continue;
        for (size_t k = 0; k < cmd->nwords; k++) {
            const struct gl_word *w = &cmd->words[k];
            long off = w->opaque ? -1 : installer_word_offset(w);
            if (off >= 0 && !driver_container(c->doc, &by_design)) {
                gl_report(c, (struct gl_loc){w->loc.line, w->loc.col + (uint32_t)off}, fix,
                          "`%s` is the NVIDIA driver installer: the driver does not belong "
                          "in the image", w->text + off);
                reported = cmd->instr;
                break;
            }
        }
    }
    for (size_t i = 0; i < m->ncopies; i++) {
        const struct gl_copy_src *s = &m->copies[i];
        long off = installer_offset(s->path);
        if (off >= 0 && gl_df_stage_shipped(c->doc, s->stage) &&
            !driver_container(c->doc, &by_design))
            gl_report(c, s->loc, fix, "`%s` copies the NVIDIA driver installer into the image",
                      s->path + off);
    }
}

const struct gl_rule gl_rule_GL203 = {
    .id = "GL203",
    .name = "driver-in-image",
    .severity = GL_SEV_ERROR,
    .summary = "the image installs or ships the NVIDIA user-mode driver (nvidia-driver-*, "
               "cuda-drivers, nvidia-utils-*, libnvidia-compute-*, NVIDIA-Linux-*.run, "
               "libcuda.so.<ver>)",
    .explanation =
        "The user-mode driver (libcuda.so, libnvidia-ml.so, nvidia-smi) must match the "
        "kernel module of the host the container runs on, version for version. The NVIDIA "
        "Container Toolkit injects the host's copy at start; a copy baked into the image "
        "shadows it, and the container fails with \"driver/library version mismatch\" (or "
        "CUDA error 803) on every host with another driver. `cuda-drivers` and the "
        "`nvidia-driver-*` packages also pull in X and kernel pieces the image never uses. "
        "Only stages that end up in the shipped image are checked. An image (an archive, or "
        "a registry image read from its config alone) is judged on its files and on its "
        "config's history: a RUN entry that installs a driver package is reported with its "
        "entry number, unless a later entry removes it; when the files show the driver too, "
        "the file finding (a path) is the one reported. Not for a driver container, whose "
        "job is to install the driver on its node: a Dockerfile whose ENTRYPOINT runs "
        "`nvidia-driver`, or that installs the NVIDIA kernel module or the vGPU host "
        "manager's installer.",
    .bad = "FROM nvidia/cuda:12.4.1-runtime-ubuntu22.04\n"
           "RUN apt-get update && apt-get install -y cuda-drivers",
    .good = "FROM nvidia/cuda:12.4.1-runtime-ubuntu22.04\n"
            "# the driver comes from the host: docker run --gpus all ...",
    .fix = "remove the driver from the image; the container toolkit injects the host's",
    .check = check,
};
