/* SPDX-License-Identifier: Apache-2.0 */
/* GL413 legacy-nvidia-runtime: nvidia-docker or --runtime=nvidia. */
#include <string.h>

#include "rules/check.h"
#include "rules/gl4xx/launch_kind.h"
#include "rules/gl4xx/launch_paths.h"

static void judge(struct gl_check *c, struct gl_launch_facts *f, size_t i)
{
    (void)f;
    const struct gl_launch *l = &c->doc->launches[i];
    if (gl_launch_jetson(c->doc, l))
        return; /* on Jetson (L4T) `--runtime nvidia` is the documented way to the GPU */
    if (l->tool && !strcmp(l->tool, "nvidia-docker")) {
        gl_report(c, l->loc, NULL,
                  "`nvidia-docker` is the deprecated wrapper of the legacy nvidia runtime");
        return;
    }
    for (size_t k = 0; k < l->ngpus; k++) {
        const struct gl_gpu_request *g = &l->gpus[k];
        if (g->kind != GL_GPU_RUNTIME)
            continue;
        gl_report(c, g->loc, NULL,
                  "runtime `%s` is the legacy way to get a GPU: it depends on the daemon's "
                  "runtime configuration and the NVIDIA_VISIBLE_DEVICES of the image",
                  g->value ? g->value : "nvidia");
        return;
    }
}

static void check(struct gl_check *c) { gl_check_launches(c, judge); }

const struct gl_rule gl_rule_GL413 = {
    .id = "GL413",
    .name = "legacy-nvidia-runtime",
    .severity = GL_SEV_INFO,
    .summary = "`nvidia-docker run` or `--runtime=nvidia`",
    .explanation =
        "nvidia-docker (v1 and the v2 wrapper) and the `nvidia` runtime predate Docker's "
        "native `--gpus` flag (19.03) and the Container Device Interface. They need the "
        "runtime registered in the daemon's configuration, select devices only through "
        "NVIDIA_VISIBLE_DEVICES (which the image may set to `all`), and nvidia-docker is no "
        "longer shipped. `--gpus` and CDI (`--device nvidia.com/gpu=all`) say what the "
        "container gets on the command line itself. Not on Jetson (L4T) images, in a "
        "text that runs jetson-containers (`jetson-containers run`, `... data`), in a "
        "Markdown section whose heading names Jetson, Tegra, L4T, JetPack, Orin or Xavier, "
        "nor on a launch that binds a Jetson's own files (`/etc/nv_tegra_release`, "
        "`/tmp/argus_socket`), where `--runtime nvidia` is the documented way to the GPU.",
    .bad = "nvidia-docker run nvcr.io/nvidia/pytorch:24.05-py3\n"
           "docker run --runtime=nvidia -e NVIDIA_VISIBLE_DEVICES=0 img",
    .good = "docker run --gpus all nvcr.io/nvidia/pytorch:24.05-py3\n"
            "docker run --gpus device=0 img",
    .fix = "use `docker run --gpus all` (or CDI: --device nvidia.com/gpu=all; compose `gpus:`)",
    .check = check,
};
