/* SPDX-License-Identifier: Apache-2.0 */
/* test_launch_slurm.c: Slurm batch scripts, srun/salloc/sbatch, pyxis and enroot command
 * lines into launches (parsers/launch/hpc/launch_slurm.h), with exact positions. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "tests/unit/test_launch_util.h"

extern const struct gl_input_type gl_input_markdown;

static void t_batch_request(void **s)
{
    (void)s;
    sh("#!/bin/bash\n"
       "#SBATCH -N 2\n"
       "#SBATCH --ntasks-per-node 8   # per node\n"
       "#SBATCH --gres=gpu:a100:4,shard:2\n"
       "srun python train.py\n"
       "srun --gres=gpu:2 -n4 -N1 python eval.py\n");
    assert_int_equal(D.nlaunches, 2);
    assert_int_equal(L(0)->kind, GL_LAUNCH_SLURM);
    assert_true(L(0)->bare_metal);
    assert_true(L(0)->host_ipc);
    assert_false(L(0)->gpus_outside);
    assert_int_equal(L(0)->ref, -1);
    assert_string_equal(argv_of(0), "python|train.py");
    assert_int_equal(L(0)->ngpus, 1);
    assert_int_equal(gpu(0, 0)->kind, GL_GPU_SLURM);
    assert_string_equal(gpu(0, 0)->count, "4");
    assert_string_equal(gpu(0, 0)->value, "--gres=gpu:a100:4,shard:2");
    assert_loc(gpu(0, 0)->loc, 4, 25);
    assert_string_equal(L(0)->tasks_per_node, "8");
    assert_loc(L(0)->tasks_loc, 3, 27);
    /* the step's own GPUs replace the batch's; its -n4 on one node takes precedence
     * over the batch's --ntasks-per-node (then a maximum) */
    assert_string_equal(gpu(1, 0)->count, "2");
    assert_loc(gpu(1, 0)->loc, 6, 17);
    assert_string_equal(L(1)->tasks_per_node, "4");
    assert_loc(L(1)->tasks_loc, 6, 21);
}

static void t_gpu_forms(void **s)
{
    (void)s;
    sh("srun -G 8 -N 2 a\n"                            /* total over nodes: 4 per node */
       "srun --gpus=a100:8 b\n"                        /* nodes unknown: no count */
       "srun --gpus-per-node=h100:2 c\n"
       "srun --nodes=1 --ntasks=3 --gpus-per-task=2 d\n"
       "srun --gres=gpu e\n"                           /* one per node */
       "srun --gres=gpu:0 f\n"
       "srun --gres=gpu:$N g\n"
       "srun --gres=shard:2 h\n"                       /* no whole GPU */
       "srun -N1 -n2 i\n");
    assert_int_equal(D.nlaunches, 9);
    assert_string_equal(gpu(0, 0)->count, "4");
    assert_string_equal(gpu(0, 0)->value, "-G 8");
    assert_loc(gpu(0, 0)->loc, 1, 9);
    assert_null(gpu(1, 0)->count);
    assert_loc(gpu(1, 0)->loc, 2, 18);
    assert_string_equal(gpu(2, 0)->count, "2");
    assert_string_equal(gpu(3, 0)->count, "6");
    assert_string_equal(L(3)->tasks_per_node, "3");
    assert_true(gpu(3, 0)->per_task);
    assert_false(gpu(0, 0)->per_task || gpu(2, 0)->per_task || gpu(4, 0)->per_task);
    assert_string_equal(gpu(4, 0)->count, "1");
    assert_string_equal(gpu(5, 0)->count, "0");
    assert_null(gpu(6, 0)->count);
    assert_true(gpu(6, 0)->count_opaque);
    assert_int_equal(L(7)->ngpus, 0);
    assert_int_equal(L(8)->ngpus, 0);
    assert_string_equal(L(8)->tasks_per_node, "2");
    for (size_t i = 0; i < 9; i++)
        assert_true(L(i)->gpus_outside); /* no allocation in the file */
}

static void t_pyxis(void **s)
{
    (void)s;
    sh("srun --container-image=nvcr.io#nvidia/pytorch:24.05-py3 \\\n"
       "  --container-mounts=/lustre/data:/data:ro+rprivate,/scratch:/out,/tmp \\\n"
       "  --container-workdir /workspace --no-container-mount-home python t.py\n"
       "srun --container-image docker://user@nvcr.io#nvidia/cuda:12.4.1-base-ubuntu22.04 x\n"
       "srun --container-image=/images/pt.sqsh y\n"
       "srun --container-image=ubuntu:22.04 z\n");
    assert_int_equal(D.nlaunches, 4);
    assert_false(L(0)->bare_metal);
    assert_string_equal(image(0), "nvcr.io/nvidia/pytorch:24.05-py3");
    assert_loc(D.refs[0].loc, 1, 24);
    assert_int_equal(L(0)->nmounts, 3);
    assert_string_equal(mount_of(0, 0), "bind /lustre/data->/data ro");
    assert_loc(L(0)->mounts[0].loc, 2, 22);
    assert_string_equal(mount_of(0, 1), "bind /scratch->/out");
    assert_string_equal(mount_of(0, 2), "bind /tmp->/tmp");
    assert_string_equal(L(0)->workdir, "/workspace");
    assert_string_equal(argv_of(0), "python|t.py");
    assert_string_equal(image(1), "nvcr.io/nvidia/cuda:12.4.1-base-ubuntu22.04");
    assert_loc(D.refs[1].loc, 4, 38);
    assert_true(D.refs[2].local);
    /* the home directory pyxis mounts unless told not to */
    assert_string_equal(mount_of(3, 0), "bind $HOME->/home");
}

static void t_batch_container_and_wrap(void **s)
{
    (void)s;
    sh("#!/bin/bash\n"
       "#SBATCH --container-image nvcr.io\\#nvidia/pytorch:24.05-py3\n"
       "#SBATCH --gpus-per-node=8\n"
       "python t.py\n"
       "sbatch -N1 --gres=gpu:2 --wrap='srun torchrun --nproc_per_node=2 x.py'\n"
       "salloc -N1 --gpus-per-node=4 srun python y.py\n");
    assert_int_equal(D.nlaunches, 3);
    assert_string_equal(L(0)->tool, "sbatch");
    assert_string_equal(image(0), "nvcr.io/nvidia/pytorch:24.05-py3");
    assert_loc(L(0)->loc, 2, 1);
    assert_string_equal(gpu(0, 0)->count, "8");
    /* the wrapped script: the sbatch line's GPUs, positions in the quoted string */
    assert_string_equal(L(1)->tool, "srun");
    assert_loc(L(1)->loc, 5, 33);
    assert_string_equal(gpu(1, 0)->count, "2");
    assert_string_equal(argv_of(1), "torchrun|--nproc_per_node=2|x.py");
    assert_loc(L(1)->argv[1].loc, 5, 47);
    assert_false(L(1)->gpus_outside);
    assert_string_equal(gpu(2, 0)->count, "4");
    assert_false(L(2)->gpus_outside);
}

static void t_srun_wraps_containers(void **s)
{
    (void)s;
    sh("#SBATCH --gres=gpu:4\n"
       "srun apptainer exec img.sif python t.py\n"
       "srun --ntasks-per-node=4 docker run --gpus 4 img:1 python t.py\n"
       "srun torchrun --nproc_per_node=4 t.py\n"
       "torchrun --nproc_per_node=4 t.py\n"
       "srun bash -c 'torchrun --nproc_per_node=4 t.py'\n");
    assert_int_equal(D.nlaunches, 5);
    assert_int_equal(L(0)->kind, GL_LAUNCH_APPTAINER);
    assert_int_equal(gpu(0, 0)->kind, GL_GPU_SLURM);
    assert_int_equal(L(1)->kind, GL_LAUNCH_DOCKER_RUN);
    assert_int_equal(L(1)->ngpus, 1);
    assert_int_equal(gpu(1, 0)->kind, GL_GPU_FLAG);
    assert_int_equal(L(2)->kind, GL_LAUNCH_SLURM);
    assert_string_equal(L(3)->tool, "sbatch"); /* run by the batch step itself */
    assert_string_equal(argv_of(4), "bash|-c|torchrun|--nproc_per_node=4|t.py");
}

static void t_enroot(void **s)
{
    (void)s;
    sh("enroot import -o pt.sqsh docker://nvcr.io#nvidia/pytorch:24.05-py3\n"
       "enroot create --name pt pt.sqsh\n"
       "enroot start --rw -m /data:/data:none:x-create=dir,bind,ro -e A=1 pt python t.py\n"
       "enroot start --mount=/out:/out ./pt.sqsh\n");
    assert_int_equal(D.nrefs, 3);
    assert_string_equal(D.refs[0].text, "nvcr.io/nvidia/pytorch:24.05-py3");
    assert_loc(D.refs[0].loc, 1, 35);
    assert_int_equal(D.refs[0].launch, -1);
    assert_int_equal(D.nlaunches, 2);
    assert_int_equal(L(0)->kind, GL_LAUNCH_ENROOT);
    /* `pt` was created from pt.sqsh, which the import wrote: it runs that image, judged
       at the import (GL_REF_ELSEWHERE), placed at the start's NAME word */
    assert_int_equal(L(0)->ref, 1);
    assert_string_equal(D.refs[1].text, "nvcr.io/nvidia/pytorch:24.05-py3");
    assert_int_equal(D.refs[1].role, GL_REF_ELSEWHERE);
    assert_loc(D.refs[1].loc, 3, 67);
    assert_string_equal(mount_of(0, 0), "bind /data->/data ro");
    assert_int_equal(D.nenv, 1);
    assert_string_equal(D.env[0].key, "A");
    assert_string_equal(argv_of(0), "python|t.py");
    assert_true(L(0)->gpus_outside);
    assert_int_equal(D.refs[2].role, GL_REF_ELSEWHERE); /* ./pt.sqsh: the same file */
    assert_false(D.refs[2].local);
}

static void t_enroot_names(void **s)
{
    (void)s;
    /* enroot's own names: import writes nvidia+pytorch+24.05-py3.sqsh, create names the
       container after the file; a file nothing imported is a local image */
    sh("enroot import docker://user@nvcr.io#nvidia/pytorch:24.05-py3\n"
       "enroot create nvidia+pytorch+24.05-py3.sqsh\n"
       "enroot start nvidia+pytorch+24.05-py3 nvidia-smi\n"
       "enroot start other.sqsh nvidia-smi\n"
       "enroot import -o \"$F\" docker://alpine:3.19\n"
       "enroot start \"$F\" true\n");
    assert_int_equal(D.nlaunches, 3);
    assert_string_equal(D.refs[L(0)->ref].text, "nvcr.io/nvidia/pytorch:24.05-py3");
    assert_int_equal(D.refs[L(0)->ref].role, GL_REF_ELSEWHERE);
    assert_true(D.refs[L(1)->ref].local);
    assert_int_equal(L(2)->ref, -1);
}

static void t_directives_end(void **s)
{
    (void)s;
    /* sbatch stops reading directives at the first command; #SBATCHx is no directive */
    sh("#!/bin/bash\n#SBATCHx --gres=gpu:8\necho hi\n#SBATCH --gres=gpu:4\nsrun a\n");
    assert_int_equal(D.nlaunches, 1);
    assert_int_equal(L(0)->ngpus, 0);
    assert_true(L(0)->gpus_outside);
}

static void t_salloc_session(void **s)
{
    (void)s;
    /* an interactive allocation, then its sruns (Markdown blocks: two texts of one scan) */
    parse_as(&gl_input_markdown, "README.md",
             "```bash\nsalloc -N1 --gres=gpu:2\n```\n\n```bash\nsrun python t.py\n```\n");
    assert_int_equal(D.nlaunches, 1);
    assert_false(L(0)->gpus_outside);
    assert_string_equal(gpu(0, 0)->count, "2");
    assert_loc(gpu(0, 0)->loc, 2, 23);
}

static void t_shifter_modules(void **s)
{
    (void)s;
    /* Shifter's --module list replaces the site's default modules: `gpu` in it gives the
       job's GPUs to the container (a request without a count, beside the step's);
       `none`, or a list without gpu, gives none; no --module: the defaults, unseen */
    sh("srun --gpus-per-node=4 -n 4 shifter --module=mpich,gpu --image=a/b:1 python t.py\n"
       "shifter --module=none --image=a/b:1 python t.py\n"
       "shifter --module gpuish,mpich -i a/b:1 python t.py\n"
       "shifter --image=a/b:1 python t.py\n");
    assert_int_equal(D.nlaunches, 4);
    assert_int_equal(L(0)->ngpus, 2);
    assert_int_equal(gpu(0, 0)->kind, GL_GPU_SLURM);
    assert_int_equal(gpu(0, 1)->kind, GL_GPU_SITE_MODULE);
    assert_string_equal(gpu(0, 1)->value, "gpu");
    assert_loc(gpu(0, 1)->loc, 1, 52);
    assert_int_equal(L(1)->ngpus, 0);
    assert_int_equal(L(2)->ngpus, 0);
    assert_int_equal(L(3)->ngpus, 0);
    assert_true(L(3)->gpus_outside);
}

static void t_hostile(void **s)
{
    (void)s;
    sh("#SBATCH --gres=gpu:99999999999999999999\n#SBATCH\n#SBATCH --gres\n#SBATCH '\n"
       "srun --gres= -G --container-mounts= --container-image= --wrap\n"
       "sbatch --wrap\nsbatch --wrap=\"'\"\nenroot start\nenroot import\nenroot\nsrun\n");
    assert_true(D.nlaunches >= 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(t_batch_request, doc_setup, doc_teardown),
        cmocka_unit_test_setup_teardown(t_gpu_forms, doc_setup, doc_teardown),
        cmocka_unit_test_setup_teardown(t_pyxis, doc_setup, doc_teardown),
        cmocka_unit_test_setup_teardown(t_batch_container_and_wrap, doc_setup, doc_teardown),
        cmocka_unit_test_setup_teardown(t_srun_wraps_containers, doc_setup, doc_teardown),
        cmocka_unit_test_setup_teardown(t_enroot, doc_setup, doc_teardown),
        cmocka_unit_test_setup_teardown(t_enroot_names, doc_setup, doc_teardown),
        cmocka_unit_test_setup_teardown(t_directives_end, doc_setup, doc_teardown),
        cmocka_unit_test_setup_teardown(t_salloc_session, doc_setup, doc_teardown),
        cmocka_unit_test_setup_teardown(t_shifter_modules, doc_setup, doc_teardown),
        cmocka_unit_test_setup_teardown(t_hostile, doc_setup, doc_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
