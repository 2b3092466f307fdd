/* SPDX-License-Identifier: Apache-2.0 */
/* GL410 small-shm: a PyTorch-style GPU job keeps the 64 MiB default /dev/shm. */
#include <string.h>

#include "rules/check.h"
#include "rules/gl4xx/launch_kind.h"
#include "rules/gl4xx/launch_paths.h"

#define ONE_GIB ((int64_t)1 << 30)

/* Does an IPC mode give the container another /dev/shm (host, another container's)? */
static bool ipc_shares(const char *ipc)
{
    return ipc && strcmp(ipc, "private") && strcmp(ipc, "none") && strcmp(ipc, "shareable") &&
           strcmp(ipc, "");
}

static bool shm_mounted(const struct gl_launch *l)
{
    for (size_t k = 0; k < l->nmounts; k++) {
        const char *t = l->mounts[k].target;
        if (t && (!strcmp(t, "/dev/shm") || !strcmp(t, "/dev/shm/")))
            return true;
    }
    return false;
}

/* The command word of a step, with its module when it is `python -m MODULE`. */
static const char *step_text(struct gl_arena *a, const struct gl_launch *l,
                             const struct gl_word *w)
{
    size_t k = (size_t)(w - l->steps), len = strlen(w->text);
    const char *base = gl_word_base(w->text, &len);
    if (strncmp(base, "python", 6))
        return w->text;
    for (size_t j = k + 1; j < k + 3; j++)
        if (j >= l->nsteps || !gl_word_known(&l->steps[j]) || (l->steps_next && l->steps_next[j]))
            return w->text;
    if (strcmp(l->steps[k + 1].text, "-m"))
        return w->text;
    return gl_arena_printf(a, "%s -m %s", w->text, l->steps[k + 2].text);
}

static void judge(struct gl_check *c, struct gl_launch_facts *f, size_t i)
{
    const struct gl_launch *l = &c->doc->launches[i];
    /* apptainer, pyxis, enroot and bare Slurm steps use the host's /dev/shm; a fragment's
     * base may set shm */
    if (l->kind == GL_LAUNCH_APPTAINER || l->host_ipc || l->fragment ||
        !gl_launch_options_known(l) || ipc_shares(l->ipc) || l->shm_bytes >= ONE_GIB ||
        shm_mounted(l) || !gl_launch_uses_gpu(l))
        return;
    /* the command, or a model server; a CI job container runs its steps: the first that
     * runs a PyTorch-style job */
    bool pytorch = gl_launch_pytorch_style(l);
    const char *server = pytorch ? NULL : gl_launch_pytorch_server(c->doc, l);
    bool command = pytorch || server;
    const struct gl_word *step = command ? NULL : gl_launch_steps_pytorch_job(l);
    if ((!command && !step) || gl_launch_smoke_test(l) || gl_launch_runtime_template(l))
        return;
    const char *fix = l->kind == GL_LAUNCH_K8S ? "mount an emptyDir {medium: Memory} at /dev/shm"
                      : l->kind == GL_LAUNCH_COMPOSE ? "add `ipc: host` or `shm_size: 8gb`"
                                                     : "add --ipc=host or --shm-size=8g";
    const struct gl_word *word = step ? NULL : gl_launch_pytorch_word(l);
    const char *job = step ? gl_arena_printf(&f->arena, "`%s` of its steps at line %u",
                                             step_text(&f->arena, l, step),
                                             (unsigned)step->loc.line)
                           : gl_arena_printf(&f->arena, "`%s`",
                                             word     ? word->text
                                             : server ? server
                                             : l->nargv ? l->argv[0].text : "?");
    if (l->shm_bytes >= 0)
        gl_report(c, l->shm_loc, fix,
                  "%s runs a PyTorch-style job on a GPU with a %lld MiB /dev/shm (below "
                  "1 GiB): DataLoader workers die with \"Bus error\"",
                  gl_launch_label(&f->arena, l), (long long)(l->shm_bytes >> 20));
    else if (server && !word && !step)
        gl_report(c, l->ipc ? l->ipc_loc : l->loc, fix,
                  "%s runs a PyTorch model server (`%s`) on a GPU with the 64 MiB default "
                  "/dev/shm: its worker processes pass tensors through it (\"Bus error\", "
                  "NCCL cannot extend its /dev/shm segments)",
                  gl_launch_label(&f->arena, l), server);
    else
        gl_report(c, l->ipc ? l->ipc_loc : l->loc, fix,
                  "%s runs a PyTorch-style job (%s) on a GPU with the 64 MiB default "
                  "/dev/shm: DataLoader workers die with \"Bus error\"",
                  gl_launch_label(&f->arena, l), job);
}

static void check(struct gl_check *c) { gl_check_launches(c, judge); }

const struct gl_rule gl_rule_GL410 = {
    .id = "GL410",
    .name = "small-shm",
    .severity = GL_SEV_WARNING,
    .summary = "a GPU launch of a PyTorch-style job keeps the 64 MiB default /dev/shm",
    .explanation =
        "PyTorch DataLoader workers, NCCL and torch.multiprocessing pass tensors through "
        "shared memory in /dev/shm. Docker and Kubernetes give a container 64 MiB of it, so "
        "a job with `num_workers > 0` dies with \"Bus error\" or \"unable to write to file "
        "</torch_...>\" as soon as batches grow. Set `--ipc=host` or `--shm-size` of at least "
        "1g (compose `ipc: host` / `shm_size`; Kubernetes an emptyDir {medium: Memory} "
        "mounted at /dev/shm). Only launches of python, torchrun, accelerate, deepspeed "
        "and similar commands are judged (for a GitHub Actions job `container:`, the "
        "commands of the job's steps, not Python tools such as `python -m pip`), and "
        "PyTorch model servers (`vllm serve`, the vllm/vllm-openai and vllm-omni images on "
        "their own entrypoint, `trtllm-serve`), whose workers pass tensors through /dev/shm "
        "as vLLM's Docker guide says; not smoke "
        "tests (a `python -c` that only imports and prints, after package installs or not) "
        "nor runtime templates (Kubeflow TrainingRuntime, KServe ServingRuntime); apptainer "
        "uses the host's /dev/shm.",
    .bad = "docker run --gpus all nvcr.io/nvidia/pytorch:24.05-py3 python train.py",
    .good = "docker run --gpus all --ipc=host nvcr.io/nvidia/pytorch:24.05-py3 python train.py",
    .fix = "--ipc=host, or --shm-size=8g (compose ipc/shm_size, a Memory emptyDir on /dev/shm)",
    .check = check,
};
