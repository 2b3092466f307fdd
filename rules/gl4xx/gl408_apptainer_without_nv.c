/* SPDX-License-Identifier: Apache-2.0 */
/* GL408 apptainer-without-nv: apptainer/singularity runs a CUDA image without --nv. */
#include "rules/check.h"
#include "rules/gl4xx/launch_argv.h"
#include "rules/gl4xx/launch_paths.h"

static bool nv_requested(const struct gl_launch *l)
{
    if (l->apptainer_nv)
        return true;
    for (size_t k = 0; k < l->ngpus; k++)
        if (l->gpus[k].kind == GL_GPU_APPTAINER_NV)
            return true;
    return false;
}

/* The GPUs of the Slurm step that runs the container (`srun --gres=gpu:4 apptainer exec`,
 * or those of its batch script), NULL. */
static const struct gl_gpu_request *slurm_gpus(const struct gl_launch *l)
{
    for (size_t k = 0; k < l->ngpus; k++)
        if (l->gpus[k].kind == GL_GPU_SLURM && !gl_gpu_request_zero(&l->gpus[k]))
            return &l->gpus[k];
    return NULL;
}

/* Does the container only move data or files (`huggingface-cli download`, `wget`, `git
 * clone`, `pip download`...): no GPU program, whatever the job holds? */
static bool moves_data_only(const struct gl_launch *l)
{
    static const char *const tools[] = {"wget", "curl", "git", "git-lfs", "tar", "unzip",
                                        "rsync", "cp", "mv", "ls", "cat", "echo", "mkdir",
                                        "huggingface-cli", "hf", "aws", "gsutil", "azcopy",
                                        "sha256sum", "md5sum", NULL};
    size_t i = gl_launch_command_index(l);
    return i < l->nargv && gl_launch_next_command(l, i) == l->nargv &&
           gl_word_named(l->argv[i].text, tools);
}

static void judge(struct gl_check *c, struct gl_launch_facts *f, size_t i)
{
    const struct gl_launch *l = &c->doc->launches[i];
    /* (--rocm binds AMD's GPUs: an NVIDIA flag is not what that job lacks) */
    if (l->kind != GL_LAUNCH_APPTAINER || nv_requested(l) || l->apptainer_rocm ||
        !gl_launch_options_known(l))
        return;
    const struct gl_gpu_request *g = slurm_gpus(l);
    const struct gl_ref *r = gl_launch_ref(c->doc, l);
    const char *tool = l->tool ? l->tool : "apptainer";
    if (gl_launch_needs_cuda(f, i))
        gl_report(c, gl_launch_image_loc(c->doc, l), NULL,
                  "%s runs the CUDA image `%s` without --nv: the host driver libraries and "
                  "/dev/nvidia* are not bound in, so CUDA finds no device",
                  tool, r ? r->text : "?");
    else if (g && !moves_data_only(l)) /* the GPU need is inferred from the job: a warning */
        gl_report_sev(c, GL_SEV_WARNING, l->loc, NULL,
                      "the Slurm job asks for GPUs (`%s` at line %u) but %s runs `%s` without "
                      "--nv: the driver libraries and /dev/nvidia* are not bound in, so the "
                      "container sees no GPU",
                      g->value, (unsigned)g->loc.line, tool, r ? r->text : "its image");
}

static void check(struct gl_check *c) { gl_check_launches(c, judge); }

const struct gl_rule gl_rule_GL408 = {
    .id = "GL408",
    .name = "apptainer-without-nv",
    .severity = GL_SEV_ERROR,
    .summary = "apptainer/singularity exec/run/shell/instance start of a GPU image without --nv "
               "or --nvccli",
    .explanation =
        "Unlike Docker's runtime hook, apptainer binds the NVIDIA driver libraries and device "
        "nodes only when asked: `--nv` (or `--nvccli`, through nvidia-container-cli). Without "
        "it a CUDA image starts, then every CUDA call fails with \"no CUDA-capable device is "
        "detected\" or libcuda.so is missing. A local `.sif` whose contents gpulint cannot "
        "see is judged only when a Slurm step that asks for GPUs runs it (`srun "
        "--gres=gpu:4 apptainer exec img.sif`, or an `srun` of a batch script with "
        "`#SBATCH --gpus-per-node`); then the image's need of a GPU is inferred from the "
        "job, so the finding is a warning, and none when the container only moves data "
        "(`huggingface-cli download`, `wget`, `git clone`), nor when `--rocm` binds AMD's "
        "GPUs instead (a ROCm cluster such as OLCF's Frontier).",
    .bad = "apptainer exec docker://nvcr.io/nvidia/pytorch:24.05-py3 python train.py",
    .good = "apptainer exec --nv docker://nvcr.io/nvidia/pytorch:24.05-py3 python train.py",
    .fix = "add --nv (or --nvccli)",
    .check = check,
};
