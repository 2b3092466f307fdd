/* SPDX-License-Identifier: Apache-2.0 */
/* GL207 container-toolkit-in-image: the image installs host-side GPU plumbing (the NVIDIA
 * container toolkit, its runtime, libnvidia-container, nvidia-docker2). */
#include <string.h>

#include "rules/check.h"
#include "rules/gl3xx/image_site.h"

/* nvidia-container-toolkit[-base], nvidia-container-runtime, libnvidia-container1,
 * libnvidia-container-tools, nvidia-docker2 (with an RPM version or an apt/conda pin). */
static bool toolkit_package(const char *name)
{
    /* the stems asked by the first bytes: most packages stop at the first one or four */
    switch (name[0]) {
    case 'n':
        return gl_first4(name, "nvid") &&
               (GL_PKG_STEM(name, "nvidia-container-toolkit", false) ||
                GL_PKG_STEM(name, "nvidia-container-runtime", false) ||
                GL_PKG_STEM(name, "nvidia-docker2", false));
    case 'l': /* libnvidia-container1 */
        return gl_first4(name, "libn") && GL_PKG_STEM(name, "libnvidia-container", true);
    default: return false;
    }
}

/* Image files of the toolkit: libnvidia-container.so*, libnvidia-container-go.so*, and the
 * nvidia-container-runtime[-hook], nvidia-container-cli, nvidia-ctk executables. */
static bool toolkit_file(const struct gl_image_file *f)
{
    if (f->type == GL_FILE_DIR)
        return false;
    const char *base = gl_base_name(f->path);
    static const char *const bins[] = {"nvidia-container-runtime",
                                       "nvidia-container-runtime-hook",
                                       "nvidia-container-cli", "nvidia-ctk",
                                       "nvidia-container-toolkit"};
    for (size_t i = 0; i < sizeof bins / sizeof bins[0]; i++)
        if (!strcmp(base, bins[i]))
            return true;
    return gl_has_prefix(base, "libnvidia-container.so") ||
           gl_has_prefix(base, "libnvidia-container-go.so");
}

/* Does name begin with the engine package s[0..n), followed by its end, a pin ('=', ':')
 * or a "-N" version? */
static bool engine_named(const char *name, const char *s, size_t n)
{
    return !strncmp(name, s, n) &&
           (name[n] == 0 || name[n] == '=' || name[n] == ':' ||
            (name[n] == '-' && name[n + 1] >= '0' && name[n + 1] <= '9'));
}
#define ENGINE(name, lit) engine_named(name, lit, sizeof lit - 1)

/* A container engine: docker-ce, docker.io, docker-engine, moby-engine, containerd.io,
 * containerd, podman, cri-o; the names asked by the package's first byte (most packages
 * start with none of these letters, or share no stem's first four bytes). */
static bool engine_package(const char *name)
{
    switch (name[0]) {
    case 'd':
        return gl_first4(name, "dock") && (ENGINE(name, "docker-ce") ||
                                           ENGINE(name, "docker.io") ||
                                           ENGINE(name, "docker-engine"));
    case 'm': return gl_first4(name, "moby") && ENGINE(name, "moby-engine");
    case 'c':
        return (gl_first4(name, "cont") &&
                (ENGINE(name, "containerd.io") || ENGINE(name, "containerd"))) ||
               (gl_first4(name, "cri-") && ENGINE(name, "cri-o"));
    case 'p': return gl_first4(name, "podm") && ENGINE(name, "podman");
    default: return false;
    }
}

static bool engine_file(const struct gl_image_file *f)
{
    const char *base = gl_base_name(f->path);
    return f->type != GL_FILE_DIR &&
           (!strcmp(base, "dockerd") || !strcmp(base, "containerd") || !strcmp(base, "podman"));
}

/* Is the program of the shipped image's ENTRYPOINT a container engine or the script that
 * starts one: dockerd, docker:dind's dockerd-entrypoint.sh, the dev containers'
 * docker-in-docker docker-init.sh, containerd, podman, k3s? (The engine itself may come
 * from an install script no package list shows.) */
static bool engine_entrypoint(const struct gl_dockerfile_model *m)
{
    static const char *const progs[] = {"dockerd", "dockerd-entrypoint.sh", "docker-init.sh",
                                        "containerd", "podman", "k3s"};
    for (int s = m->final_stage; s >= 0; s = m->stages[s].base_stage) {
        if (!m->stages[s].entrypoint)
            continue;
        const char *b = gl_base_name(m->stages[s].entrypoint);
        for (size_t i = 0; i < sizeof progs / sizeof progs[0]; i++)
            if (!strcmp(b, progs[i]))
                return true;
        return false;
    }
    return false;
}

/* Does the image run containers itself (Docker-in-Docker, a CI runner with its own engine)?
 * Then the toolkit serves that inner engine, as on a host. */
static bool runs_engine(const struct gl_doc *doc)
{
    const struct gl_image_model *im = doc->image;
    for (size_t i = 0; im && i < im->nplatforms; i++)
        for (size_t k = 0; k < im->platforms[i].nfiles; k++)
            if (engine_file(&im->platforms[i].files[k]))
                return true;
    const struct gl_dockerfile_model *m = doc->df;
    if (m && engine_entrypoint(m))
        return true;
    for (size_t i = 0; m && i < m->npkgs; i++)
        if (m->pkgs[i].name && !m->pkgs[i].requirements && engine_package(m->pkgs[i].name) &&
            gl_df_stage_shipped(doc, m->pkgs[i].stage))
            return true;
    for (size_t s = 0; m && s < m->nstages; s++) {
        const struct gl_ref *r = gl_df_stage_root_ref(doc, (int)s);
        if (m->stages[s].shipped && r && r->ok && r->parsed.tag &&
            gl_imageref_is_docker_hub(&r->parsed) && !strcmp(r->parsed.path, "library/docker") &&
            strstr(r->parsed.tag, "dind"))
            return true;
    }
    return false;
}

static const char fix[] =
    "remove it from the image: install the NVIDIA Container Toolkit on the host and run the "
    "container with --gpus (or the Kubernetes device plugin)";

static void check(struct gl_check *c)
{
    if (runs_engine(c->doc))
        return;
    if (!gl_image_nvidia_infra(c->doc, -1))
        gl_report_first_image_file(c, toolkit_file, fix,
                               "the image ships the NVIDIA container toolkit",
                               "; it is a host component and does nothing inside a container",
                               " and more toolkit files; they are host components and do "
                               "nothing inside a container");
    const struct gl_dockerfile_model *m = c->doc->df;
    if (!m)
        return;
    int reported = -1; /* one finding per instruction: the first offending package */
    for (size_t i = 0; i < m->npkgs; i++) {
        const struct gl_pkg *p = &m->pkgs[i];
        if (p->instr == reported || p->requirements || p->group || !p->name ||
            !toolkit_package(p->name) || !gl_df_stage_shipped(c->doc, p->stage) ||
            gl_image_nvidia_infra(c->doc, p->stage))
            continue;
        gl_report(c, p->loc, fix,
                  "`%s install %s` puts the NVIDIA container toolkit, a host component, into "
                  "the image: it does nothing there and pins a host version into the image",
                  p->manager, p->spec);
        reported = p->instr;
    }
}

const struct gl_rule gl_rule_GL207 = {
    .id = "GL207",
    .name = "container-toolkit-in-image",
    .severity = GL_SEV_WARNING,
    .summary = "an image installs host-side GPU plumbing: nvidia-container-toolkit, "
               "nvidia-container-runtime, libnvidia-container*, nvidia-docker2",
    .explanation =
        "The NVIDIA Container Toolkit (nvidia-container-toolkit, nvidia-container-runtime, "
        "libnvidia-container and its CLI, nvidia-ctk, the legacy nvidia-docker2) runs on the "
        "host: the container runtime calls it before the container starts, to mount the "
        "host's driver libraries and GPU device nodes into the container. Inside an image it "
        "is never called. It only adds weight, and it pins a host component's version into "
        "the image, which misleads whoever reads the Dockerfile into thinking the image "
        "brings its own GPU access. Reported for packages installed by apt, yum, dnf, "
        "zypper, apk, pip or conda in the shipped stages, and for the toolkit's libraries "
        "and executables in an image archive; not in NVIDIA's own GPU plumbing images "
        "(nvcr.io/nvidia/k8s/container-toolkit and the GPU operator's operands), which "
        "install the toolkit on the host by design, and not in images that run a container "
        "engine of their own (Docker-in-Docker: docker-ce, docker.io, containerd, podman, "
        "a docker:*dind* base, an ENTRYPOINT that starts dockerd, containerd, podman or k3s "
        "or the dind scripts dockerd-entrypoint.sh and docker-init.sh), where the toolkit "
        "serves that inner engine.",
    .bad = "FROM nvidia/cuda:12.4.1-runtime-ubuntu22.04\n"
           "RUN apt-get update && apt-get install -y nvidia-container-toolkit",
    .good = "FROM nvidia/cuda:12.4.1-runtime-ubuntu22.04\n"
            "# the toolkit is on the host: docker run --gpus all ...",
    .fix = "remove it from the image; install the toolkit on the host",
    .check = check,
};
