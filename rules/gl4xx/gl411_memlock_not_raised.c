/* SPDX-License-Identifier: Apache-2.0 */
/* GL411 memlock-not-raised: a GPU launch keeps the default locked-memory limit. */
#include "rules/check.h"
#include "rules/gl4xx/launch_kind.h"
#include "rules/gl4xx/launch_paths.h"

static void judge(struct gl_check *c, struct gl_launch_facts *f, size_t i)
{
    const struct gl_launch *l = &c->doc->launches[i];
    /* apptainer keeps the caller's ulimits; a pod spec has no ulimits to set (the node's
     * runtime decides); a fragment's base may set them; NVIDIA's GPU plumbing
     * (dcgm-exporter, the device plugin) pins no host memory for copies; a Jetson's GPU
     * shares the system memory: there is no host-to-device copy for pinning to speed up; a
     * holder of CAP_IPC_LOCK (--privileged, --cap-add IPC_LOCK) is not bound by the limit */
    if (l->kind == GL_LAUNCH_APPTAINER || l->host_ipc || l->kind == GL_LAUNCH_K8S || l->fragment ||
        l->memlock || l->ipc_lock || !gl_launch_options_known(l) || !gl_launch_uses_gpu(l) ||
        gl_launch_smoke_test(l) || gl_launch_nvidia_infra(c->doc, l) ||
        gl_launch_jetson(c->doc, l))
        return;
    gl_report(c, l->loc,
              l->kind == GL_LAUNCH_COMPOSE ? "add `ulimits: {memlock: -1}`"
                                           : "add --ulimit memlock=-1",
              "%s uses a GPU with the default locked-memory limit: pinned host memory "
              "(cudaHostAlloc, DataLoader pin_memory, NCCL/GPUDirect buffers) is capped",
              gl_launch_label(&f->arena, l));
}

static void check(struct gl_check *c) { gl_check_launches(c, judge); }

const struct gl_rule gl_rule_GL411 = {
    .id = "GL411",
    .name = "memlock-not-raised",
    .severity = GL_SEV_INFO,
    .summary = "a GPU launch keeps the default locked-memory limit (no --ulimit memlock=-1)",
    .explanation =
        "Page-locked (pinned) host memory makes host-to-device copies asynchronous and about "
        "twice as fast; NCCL, GPUDirect RDMA and InfiniBand verbs need it. Containers "
        "inherit a small RLIMIT_MEMLOCK (often 64 KiB or 8 MiB), so large pinned "
        "allocations fail or fall back to pageable memory. NVIDIA's containers ask for "
        "`--ulimit memlock=-1`. Kubernetes pods (no ulimit setting) and apptainer (the "
        "caller's limits) are not judged, nor smoke tests (`nvidia-smi`, `deviceQuery`, a "
        "`python -c` that only imports and prints, after package installs or not), nor "
        "Jetson launches (as for GL413): the integrated GPU shares the system memory, so there is no host-to-device copy "
        "for pinned memory to speed up. Nor a container that holds CAP_IPC_LOCK "
        "(`--privileged`, `--cap-add IPC_LOCK` or `ALL`, compose `privileged: true` or "
        "`cap_add`): the kernel does not apply the limit to it (mlock, RDMA memory "
        "registration).",
    .bad = "docker run --gpus all nvcr.io/nvidia/pytorch:24.05-py3 python train.py",
    .good = "docker run --gpus all --ulimit memlock=-1 --ulimit stack=67108864 \\\n"
            "    nvcr.io/nvidia/pytorch:24.05-py3 python train.py",
    .fix = "--ulimit memlock=-1 (compose `ulimits: {memlock: -1}`)",
    .check = check,
};
