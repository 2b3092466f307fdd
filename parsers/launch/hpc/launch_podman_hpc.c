/* SPDX-License-Identifier: Apache-2.0 */
/* launch_podman_hpc.c: NERSC's podman-hpc, a wrapper of podman (see launch_internal.h).
 * `podman-hpc run [opts] IMG CMD...` takes podman's run options plus one switch per site
 * module (podman_hpc/podman_hpc.py adds `--<cli_arg>` as a click flag for each file of
 * etc/modules.d); the wrapper turns a switch into the module's podman options (its
 * `additional_args`) and binds. So `--gpu` is no misspelling of `--gpus` here, as it is for
 * docker (GL412): it is the gpu module, which binds the node's /dev/nvidia* devices and
 * driver libraries and passes NVIDIA_VISIBLE_DEVICES through. */
#include <string.h>

#include "parsers/launch/launch_internal.h"

/* The modules NERSC ships (etc/modules.d of NERSC/podman-hpc): switches, no values. A
 * site may add its own; an unknown switch is read as a flag without a value, as before. */
const struct gl_cli_flag launch_podman_hpc_modules[] = {
    {"gpu", 0, GL_FLAG_BOOL, GL_FLAG_SITE_MODULE},          /* gpu.yaml */
    {"mpi", 0, GL_FLAG_BOOL, GL_FLAG_SITE_MODULE},          /* mpich.yaml */
    {"cuda-mpi", 0, GL_FLAG_BOOL, GL_FLAG_SITE_MODULE},     /* cuda-mpich.yaml */
    {"openmpi-pmi2", 0, GL_FLAG_BOOL, GL_FLAG_SITE_MODULE}, /* openmpi-pmi2.yaml */
    {"openmpi-pmix", 0, GL_FLAG_BOOL, GL_FLAG_SITE_MODULE}, /* openmpi-pmix.yaml */
    {"nccl", 0, GL_FLAG_BOOL, GL_FLAG_SITE_MODULE},
    {"cvmfs", 0, GL_FLAG_BOOL, GL_FLAG_SITE_MODULE},
    {"cfs", 0, GL_FLAG_BOOL, GL_FLAG_SITE_MODULE},
    {"home", 0, GL_FLAG_BOOL, GL_FLAG_SITE_MODULE},
    {"jupyter", 0, GL_FLAG_BOOL, GL_FLAG_SITE_MODULE},
    {"scratch", 0, GL_FLAG_BOOL, GL_FLAG_SITE_MODULE},
    {NULL, 0, GL_FLAG_BOOL, GL_FLAG_OTHER},
};

/* What a module adds: the MPI modules pass `--ipc=host --privileged` (with the host's
 * /dev/shm bound), the gpu module the GPUs. */
void launch_podman_hpc_module(struct launch_build *b, const struct gl_cli_flag *f,
                              const struct lv *flag)
{
    static const char *const host_ipc[] = {"mpi", "cuda-mpi", "openmpi-pmi2", "openmpi-pmix",
                                           NULL};
    if (!strcmp(f->name, "gpu")) {
        launch_add_gpu(b, GL_GPU_SITE_MODULE, flag);
        return;
    }
    for (size_t k = 0; host_ipc[k]; k++) {
        if (strcmp(f->name, host_ipc[k]))
            continue;
        b->l->ipc_lock = true; /* --privileged */
        if (!b->l->ipc) {      /* (the module's options come before the user's) */
            b->l->ipc = "host";
            b->l->ipc_loc = lv_loc(flag, 0);
        }
    }
}
