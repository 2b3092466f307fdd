/* SPDX-License-Identifier: Apache-2.0 */
/* GL407 gpu-image-without-gpu-request: a CUDA image launched with no GPU. */
#include <string.h>

#include "rules/check.h"
#include "rules/gl4xx/launch_argv.h"
#include "rules/gl4xx/launch_kind.h"
#include "rules/gl4xx/launch_paths.h"

/* Do launches a and b run together: containers of one pod, or services of one compose
 * project (one file)? */
static bool together(const struct gl_launch *a, const struct gl_launch *b)
{
    if (a->kind == GL_LAUNCH_COMPOSE)
        return b->kind == GL_LAUNCH_COMPOSE && a->group && a->group == b->group;
    return a->pod.pod && a->pod.pod == b->pod.pod;
}

/* An init container that runs no GPU job (it copies files into a volume, waits for a
 * service: not python, torchrun, ...) in a pod whose other containers request GPUs, or a
 * compose service of that kind that a GPU service waits for (a `chown` of the volume): it
 * prepares the GPU pod, often from the same image, on the CPU on purpose. */
static bool prepares_gpu_pod(const struct gl_doc *doc, const struct gl_launch *l)
{
    if (!l->pod.init || gl_launch_pytorch_style(l))
        return false;
    for (size_t k = 0; k < doc->nlaunches; k++)
        if (&doc->launches[k] != l && together(l, &doc->launches[k]) &&
            gl_launch_requests_gpu(&doc->launches[k]))
            return true;
    return false;
}

/* Does a container of l's pod mount the kubelet's device-plugin directory (a hostPath
 * /var/lib/kubelet/device-plugins): the pod is a GPU device plugin, node plumbing that
 * serves GPUs to other pods and requests none itself; its containers (an init container
 * that sets the compute mode with `nvidia-smi -c`, from a CUDA image: aws-do-eks' virtual
 * GPU plugin) reach the node's GPUs through the runtime, by design. */
static bool device_plugin_pod(const struct gl_doc *doc, const struct gl_launch *l)
{
    static const char dir[] = "/var/lib/kubelet/device-plugins";
    if (l->kind != GL_LAUNCH_K8S || !l->pod.pod)
        return false;
    for (size_t k = 0; k < doc->nlaunches; k++) {
        const struct gl_launch *o = &doc->launches[k];
        if (o->pod.pod != l->pod.pod)
            continue;
        for (size_t m = 0; m < o->nmounts; m++) {
            const char *src = o->mounts[m].source;
            size_t n = sizeof dir - 1;
            if (o->mounts[m].type == GL_MOUNT_BIND && src && !strncmp(src, dir, n) &&
                (!src[n] || src[n] == '/'))
                return true;
        }
    }
    return false;
}

/* The launch's own environment hides every GPU from CUDA: its last CUDA_VISIBLE_DEVICES
 * is empty or -1 (a CPU test job of a CUDA image, a CPU-only service beside GPU ones): it
 * runs on the CPU on purpose. A value taken from elsewhere (`-e CUDA_VISIBLE_DEVICES`
 * copies the caller's, a pod's valueFrom) is unknown; the variable set for the docker
 * client (`CUDA_VISIBLE_DEVICES=-1 docker run ...`) never reaches the container. */
static bool hides_gpus(const struct gl_launch_facts *f, size_t i)
{
    const struct gl_env *last = NULL;
    for (size_t k = 0, n = gl_launch_env_count(f, i); k < n; k++) {
        const struct gl_env *e = gl_launch_env(f, i, k);
        if (!strcmp(e->key, "CUDA_VISIBLE_DEVICES"))
            last = e;
    }
    return last && last->value && (!last->value[0] || !strcmp(last->value, "-1"));
}

/* Is word k of l's command `--NAME VALUE` or `--NAME=VALUE` with NAME one of `names`
 * and VALUE `cpu` (any case)? */
static bool option_is_cpu(const struct gl_launch *l, size_t k, const char *const *names)
{
    const struct gl_word *w = &l->argv[k];
    if (!gl_word_known(w) || strncmp(w->text, "--", 2))
        return false;
    const char *name = w->text + 2;
    size_t n = strcspn(name, "=");
    for (size_t j = 0; names[j]; j++) {
        if (strlen(names[j]) != n || strncmp(name, names[j], n))
            continue;
        if (name[n]) /* --device=cpu */
            return gl_streq_nocase(name + n + 1, "cpu");
        return k + 1 < l->nargv && gl_word_known(&l->argv[k + 1]) &&
               gl_streq_nocase(l->argv[k + 1].text, "cpu");
    }
    return false;
}

/* The launch's one command runs on the CPU on purpose: it asks for the CPU device
 * (`--device cpu`, `--device=cpu`, `--device-type cpu`: the entrypoint of a CUDA image
 * whose tool also runs on the CPU) or only prints its usage or version (`IMAGE --help`,
 * `IMAGE translate --version`): nothing of it needs a GPU. A launch of several commands
 * (`sh -c "a --device cpu && b"`) is not judged so: another of them may want the GPU. */
static bool cpu_on_purpose(const struct gl_launch *l)
{
    static const char *const devices[] = {"device", "device-type", "device_type", NULL};
    static const char *const usage[] = {"--help", "-h", "--version", "-V", NULL};
    if (!l->nargv || gl_launch_next_command(l, 0) < l->nargv)
        return false;
    for (size_t k = 0; k < l->nargv; k++)
        if (option_is_cpu(l, k, devices))
            return true;
    const struct gl_word *last = &l->argv[l->nargv - 1];
    bool only = l->nargv == 1 ||
                (l->nargv == 2 && gl_word_known(&l->argv[0]) && l->argv[0].text[0] != '-');
    return only && gl_word_known(last) && gl_word_named(last->text, usage);
}

/* A docker `--gpus 0` of the launch (docker reads a bare number as a count: zero GPUs, not
 * GPU 0, moby#48482), else NULL. */
static const struct gl_gpu_request *zero_count_flag(const struct gl_launch *l)
{
    for (size_t k = 0; k < l->ngpus; k++)
        if (l->gpus[k].kind == GL_GPU_FLAG && l->gpus[k].count &&
            !strcmp(l->gpus[k].count, "0") && l->gpus[k].value &&
            !strcmp(l->gpus[k].value, "0"))
            return &l->gpus[k];
    return NULL;
}

static void judge(struct gl_check *c, struct gl_launch_facts *f, size_t i)
{
    const struct gl_launch *l = &c->doc->launches[i];
    /* apptainer without --nv is GL408; a fragment's base may request the GPU; a CPU
     * head/master beside GPU workers is deliberate */
    if (l->kind == GL_LAUNCH_APPTAINER || l->fragment || l->secondary_role || l->gpus_outside ||
        l->gpu_unseen ||
        gl_launch_requests_gpu(l) || gl_launch_runtime_template(l) ||
        gl_launch_tool_image(c->doc, l) || gl_launch_build_only(l) ||
        gl_launch_serving_client(l) ||
        prepares_gpu_pod(c->doc, l) || device_plugin_pod(c->doc, l) ||
        !gl_launch_options_known(l) || !gl_launch_needs_cuda(f, i) || hides_gpus(f, i) ||
        cpu_on_purpose(l))
        return; /* (a runtime template gets its GPUs from the job that uses it) */
    const struct gl_ref *r = gl_launch_ref(c->doc, l);
    bool shifter = l->tool && !strcmp(l->tool, "shifter");
    const char *fix = l->kind == GL_LAUNCH_K8S
                          ? "add `nvidia.com/gpu: 1` to resources.limits (or a MIG / DRA "
                            "request)"
                      : l->tool && !strcmp(l->tool, "podman-hpc")
                          ? "add --gpu (podman-hpc's GPU module)"
                      : shifter ? "ask Slurm for GPUs (`#SBATCH --gpus-per-node=N`) and keep "
                                  "Shifter's gpu module (`--module=gpu`)"
                      : l->kind == GL_LAUNCH_COMPOSE
                          ? "add `gpus: all` or a deploy.resources.reservations.devices "
                            "entry with capabilities: [gpu]"
                      : l->kind == GL_LAUNCH_SLURM || l->kind == GL_LAUNCH_ENROOT
                          ? "ask Slurm for GPUs: `#SBATCH --gpus-per-node=N` or "
                            "`--gres=gpu:N`"
                          : "add --gpus all (or --device nvidia.com/gpu=all with CDI)";
    const struct gl_gpu_request *zero = zero_count_flag(l);
    struct gl_finding *out =
        zero ? gl_report(c, zero->loc, "for the first GPU write --gpus device=0 (or --gpus all)",
                         "CUDA image `%s` is launched by %s with `--gpus 0`, which docker "
                         "reads as a count of zero GPUs, not as GPU 0: it runs on the CPU or "
                         "fails to find a device",
                         r ? r->text : "?", gl_launch_label(&f->arena, l))
             : gl_report(c, gl_launch_image_loc(c->doc, l), fix,
                         "CUDA image `%s` is launched by %s with no GPU request: it runs on "
                         "the CPU or fails to find a device",
                         r ? r->text : "?", gl_launch_label(&f->arena, l));
    /* a kustomization that renames or retags the image makes it another image */
    gl_finding_on_image(c, out, r, GL_PROJECT_RENAMED | GL_PROJECT_RETAGGED);
}

static void check(struct gl_check *c) { gl_check_launches(c, judge); }

const struct gl_rule gl_rule_GL407 = {
    .id = "GL407",
    .name = "gpu-image-without-gpu-request",
    .severity = GL_SEV_WARNING,
    .summary = "a CUDA image is launched with no GPU request",
    .explanation =
        "An image that needs CUDA (a CUDA version is derivable, or its family is CUDA-bearing: "
        "nvidia/cuda, nvcr.io/nvidia/*, pytorch/pytorch, ...) started without `--gpus`, a CDI "
        "device, the nvidia runtime, a compose GPU reservation or `gpus:`, or a Kubernetes "
        "GPU/MIG/vendor resource or DRA claim gets no GPU: frameworks silently fall back to "
        "the CPU, or fail with \"no CUDA-capable device\". `docker run --gpus 0` is such a "
        "launch too: docker reads a bare number as a count, and zero GPUs is no GPU (the "
        "finding points at the `0`: for GPU 0 write `--gpus device=0`). Not for NVIDIA's "
        "infrastructure "
        "images, compose override fragments, a role of a multi-role object (RayCluster "
        "head, PyTorchJob master) whose other roles request GPUs, a compose service whose "
        "namesake in another compose file beside it requests GPUs (its GPU variant, a "
        "`docker-compose.gpu.yml` override: this one runs on CPU hosts on purpose), "
        "runtime templates "
        "(Kubeflow TrainingRuntime, KServe ServingRuntime) that get GPUs from their user, "
        "client and SDK images (`tritonserver:*-sdk`, `*-client`), builder images "
        "(`pytorch/manylinux-builder:cuda12.1`, `*-builder`: they compile CUDA code, which "
        "needs no device), dev containers (devcontainer.json) on a development flavour "
        "(`nvidia/cuda:*-devel-*`, `pytorch/pytorch:*-devel`: a compile environment, on "
        "a machine without GPUs too), launches that only build (their last command is make with no "
        "target but all/install/build/clean, cmake, ninja, nvcc, meson, pip or `setup.py`, "
        "and no python, torchrun or pytest job runs before it) or only run a serving "
        "benchmark client (`python3 -m sglang.bench_serving`, `benchmark_serving.py`, "
        "`vllm bench serve`, `genai-perf`, `guidellm`: load for a server elsewhere), "
        "GitHub Actions job "
        "containers and services (a CUDA image on a runner without a GPU builds; a GPU "
        "runner's docker may give GPUs by default, as NVIDIA's nv-gha-runners do), the "
        "`docker run`s of a GitHub job on a hosted runner without a GPU (`runs-on: "
        "ubuntu-latest`, `windows-*`, `macos-*`) or of a GitHub or GitLab job whose runner "
        "labels (`runs-on`, `tags`) name a CPU machine (`cpu`, `linux-amd64-cpu8`) and none "
        "names a GPU (`gpu`, `nvidia`, a product such as `a100`), and GitLab "
        "CI images (the runner's own config gives GPUs), or an image that a "
        "kustomization of the run renames or retags (what runs is another image), a Slurm "
        "step outside any allocation the file shows, or in a job of whole nodes "
        "(`--exclusive`) with no GPU option (the node's GPUs are visible or not as the "
        "cluster's cgroup configuration says), or an init container that runs no GPU job "
        "(it copies files or waits; not python, torchrun, ...) in a pod whose other "
        "containers request GPUs, or such a compose service that a GPU service waits for "
        "(`depends_on` with `condition: service_completed_successfully`): it prepares the "
        "pod, on the CPU on purpose. Nor for the containers of a GPU device plugin's pod (one "
        "of them mounts the kubelet's `/var/lib/kubelet/device-plugins`): node plumbing that "
        "serves GPUs and requests none. Nor for a launch whose own environment hides every "
        "GPU from CUDA (`CUDA_VISIBLE_DEVICES` empty or `-1`: a CPU run on purpose), or whose "
        "one command asks for the CPU (`--device cpu`, `--device-type=cpu`) or only prints "
        "its usage or version (`IMAGE --help`). "
        "`nvidia.com/gpu: 0` is no GPU request.",
    .bad = "docker run --rm nvcr.io/nvidia/pytorch:24.05-py3 python train.py",
    .good = "docker run --rm --gpus all nvcr.io/nvidia/pytorch:24.05-py3 python train.py",
    .fix = "request a GPU: --gpus all, compose `gpus: all`, Kubernetes `nvidia.com/gpu: 1` "
           "in limits",
    .check = check,
};
