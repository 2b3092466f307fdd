/* SPDX-License-Identifier: Apache-2.0 */
/* test_launch_docker.c: docker/podman/apptainer command lines into launches
 * (parsers/launch/launch_shell.h), with exact positions. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "tests/unit/test_launch_util.h"

static void t_basic(void **s)
{
    (void)s;
    sh("docker run --rm -it nvidia/cuda:12.4.1-base-ubuntu22.04 nvidia-smi -L\n");
    assert_int_equal(D.nlaunches, 1);
    assert_string_equal(L(0)->tool, "docker");
    assert_loc(L(0)->loc, 1, 1);
    assert_string_equal(image(0), "nvidia/cuda:12.4.1-base-ubuntu22.04");
    assert_loc(D.refs[0].loc, 1, 21);
    assert_int_equal(D.refs[0].role, GL_REF_LAUNCH);
    assert_true(D.refs[0].ok);
    assert_loc(D.refs[0].parsed.tag_loc, 1, 33);
    assert_int_equal(D.refs[0].launch, 0);
    assert_string_equal(argv_of(0), "nvidia-smi|-L");
    assert_loc(L(0)->argv[1].loc, 1, 68);
    assert_true(L(0)->remove);
    assert_false(L(0)->detached);
    assert_null(L(0)->group);
    assert_int_equal(L(0)->shm_bytes, -1);
    assert_int_equal(L(0)->ngpus, 0);
}

static void t_bundle_itd(void **s)
{
    (void)s;
    sh("docker run -itd --name x -v /data:/data:ro img:1 python t.py\n");
    assert_true(L(0)->detached);
    assert_string_equal(L(0)->group, "t.sh");
    assert_string_equal(L(0)->name, "x");
    assert_string_equal(image(0), "img:1");
    assert_string_equal(argv_of(0), "python|t.py");
    assert_string_equal(mount_of(0, 0), "bind /data->/data ro");
    assert_loc(L(0)->mounts[0].loc, 1, 29);
    assert_loc(L(0)->mounts[0].ro_loc, 1, 41);
}

static void t_bundle_value_last(void **s)
{
    (void)s;
    /* -itv: v takes the next word; -e=X and -v/a:/b attached values */
    sh("docker run -itv /a:/b -eFOO=1 -w=/w img cmd\n");
    assert_string_equal(mount_of(0, 0), "bind /a->/b");
    assert_int_equal(D.nenv, 1);
    assert_string_equal(D.env[0].key, "FOO");
    assert_string_equal(D.env[0].value, "1");
    assert_loc(D.env[0].key_loc, 1, 25);
    assert_loc(D.env[0].value_loc, 1, 29);
    assert_string_equal(L(0)->workdir, "/w");
    assert_string_equal(image(0), "img");
    assert_string_equal(argv_of(0), "cmd");
}

static void t_value_flags(void **s)
{
    (void)s;
    /* every value-taking flag consumes its value: the image is found exactly */
    sh("docker run --network host -p 8888:8888 --user 1000 --entrypoint python "
       "--label a=b --cpus 4 --memory=32g -h box --add-host x:1.2.3.4 img:2 train.py\n");
    assert_string_equal(image(0), "img:2");
    assert_string_equal(argv_of(0), "python|train.py"); /* (--entrypoint, then the words) */
}

static void t_gpus_all(void **s)
{
    (void)s;
    sh("docker run --gpus all img\ndocker run --gpus=2 img\ndocker run --gpus device=1 img\n");
    assert_int_equal(D.nlaunches, 3);
    assert_int_equal(gpu(0, 0)->kind, GL_GPU_FLAG);
    assert_string_equal(gpu(0, 0)->value, "all");
    assert_string_equal(gpu(0, 0)->count, "all");
    assert_loc(gpu(0, 0)->loc, 1, 19);
    assert_null(test_gl412(&D, 1, NULL));
    assert_string_equal(gpu(1, 0)->count, "2");
    assert_loc(gpu(1, 0)->loc, 2, 19);
    assert_int_equal(gpu(2, 0)->ndevice_ids, 1);
    assert_string_equal(gpu(2, 0)->device_ids[0], "1");
    assert_null(gpu(2, 0)->count);
    assert_null(test_gl412(&D, 3, NULL));
}

static void t_gpus_quoted_devices(void **s)
{
    (void)s;
    sh("docker run --gpus '\"device=0,2\"' img\n");
    const struct gl_gpu_request *g = gpu(0, 0);
    assert_null(test_gl412(&D, 1, NULL));
    assert_int_equal(g->csv.nfields, 1);
    assert_int_equal(g->ndevice_ids, 2);
    assert_string_equal(g->device_ids[0], "0");
    assert_string_equal(g->device_ids[1], "2");
    assert_null(g->count);
}

static void t_gpus_unquoted_devices_invalid(void **s)
{
    (void)s;
    sh("docker run --gpus device=0,2 img\n");
    const struct gl_gpu_request *g = gpu(0, 0);
    struct gl_loc at;
    const char *why = test_gl412(&D, 1, &at);
    assert_non_null(why);
    assert_non_null(strstr(why, "cannot set both Count and DeviceIDs"));
    assert_loc(at, 1, 28); /* the stray "2" */
    assert_int_equal(g->csv.nfields, 2); /* the facts it rests on: a bare count field */
    assert_int_equal(g->csv.fields[1].key, GL_GPU_KEY_COUNT);
    assert_loc(g->csv.fields[1].loc, 1, 28);
    assert_string_equal(g->count, "2");
    assert_int_equal(g->ndevice_ids, 1);
}

static void t_gpus_key_twice_and_bad(void **s)
{
    (void)s;
    sh("docker run --gpus '\"device=0\",device=1' a\ndocker run --gpus count=x a\n"
       "docker run --gpus foo=1 a\ndocker run --gpus 'de\"v' a\n");
    const char *why[4];
    struct gl_loc at;
    for (uint32_t i = 0; i < 4; i++) { /* launch i on line i + 1 */
        const char *m = test_gl412(&D, i + 1, &at);
        assert_non_null(m);
        why[i] = gl_arena_strdup(&D.arena, m);
    }
    assert_non_null(strstr(why[0], "only once"));
    assert_true(gl_has_suffix(why[1], "rejected: count must be an integer"));
    assert_non_null(strstr(why[2], "unexpected key"));
    assert_non_null(strstr(why[3], "bare \""));
    assert_loc(at, 4, 22);
    /* the facts they rest on */
    assert_true(gpu(0, 0)->csv.fields[1].repeated);
    assert_string_equal(gpu(1, 0)->csv.fields[0].value, "x");
    assert_int_equal(gpu(2, 0)->csv.fields[0].key, GL_GPU_KEY_OTHER);
    assert_loc(gpu(3, 0)->csv.error_loc, 4, 22);
}

static void t_gpus_memory_and_caps(void **s)
{
    (void)s;
    sh("docker run --gpus device=0:10gb img\n"
       "docker run --gpus '\"capabilities=compute,utility\",count=1' img\n"
       "docker run --gpus device=MIG-4f5e img\n");
    assert_string_equal(gpu(0, 0)->memory, "10gb");
    assert_loc(gpu(0, 0)->memory_loc, 1, 28);
    assert_string_equal(gpu(0, 0)->device_ids[0], "0");
    assert_null(test_gl412(&D, 1, NULL));
    assert_int_equal(gpu(1, 0)->ncapabilities, 2);
    assert_string_equal(gpu(1, 0)->capabilities[1], "utility");
    assert_string_equal(gpu(1, 0)->count, "1");
    assert_true(gpu(2, 0)->mig);
    assert_true(L(2)->mig);
}

static void t_device_cdi_and_node(void **s)
{
    (void)s;
    sh("podman run --device nvidia.com/gpu=all img\n"
       "docker run --device=/dev/nvidia0:/dev/nvidia0 --device /dev/nvidiactl img\n");
    assert_string_equal(L(0)->tool, "podman");
    assert_int_equal(gpu(0, 0)->kind, GL_GPU_CDI);
    assert_string_equal(gpu(0, 0)->count, "all");
    assert_int_equal(L(1)->ngpus, 1);
    assert_int_equal(gpu(1, 0)->kind, GL_GPU_DEVICE_NODE);
    assert_string_equal(gpu(1, 0)->device_ids[0], "0");
}

static void t_runtime_and_visible(void **s)
{
    (void)s;
    sh("docker run --runtime=nvidia -e NVIDIA_VISIBLE_DEVICES=0,1 img\n"
       "docker run -e NVIDIA_VISIBLE_DEVICES=all img\n");
    assert_int_equal(L(0)->ngpus, 2);
    assert_int_equal(gpu(0, 0)->kind, GL_GPU_RUNTIME);
    assert_int_equal(gpu(0, 1)->kind, GL_GPU_ENV_VISIBLE);
    assert_string_equal(gpu(0, 1)->value, "0,1");
    assert_loc(gpu(0, 1)->loc, 1, 55);
    /* without the nvidia runtime it is only env */
    assert_int_equal(L(1)->ngpus, 0);
    assert_int_equal(D.nenv, 2);
    assert_int_equal(D.env[1].launch, 1);
}

static void t_nvidia_docker(void **s)
{
    (void)s;
    sh("nvidia-docker run -it --rm img bash\n");
    assert_string_equal(L(0)->tool, "nvidia-docker");
    assert_int_equal(gpu(0, 0)->kind, GL_GPU_RUNTIME);
    assert_string_equal(image(0), "img");
}

static void t_volumes(void **s)
{
    (void)s;
    sh("docker run -v data:/data -v ./x:/x:rw,z -v /ctr -v /anon:ro -v ~/c:/c "
       "-v \"$PWD\"/out:/out --volume=$(pwd)/o2:/o2:ro img\n");
    assert_string_equal(mount_of(0, 0), "volume data->/data");
    assert_string_equal(mount_of(0, 1), "bind ./x->/x");
    assert_string_equal(mount_of(0, 2), "volume -->/ctr");
    assert_string_equal(mount_of(0, 3), "volume -->/anon ro");
    assert_string_equal(mount_of(0, 4), "bind ~/c->/c");
    assert_int_equal(L(0)->mounts[5].type, GL_MOUNT_BIND);
    assert_string_equal(L(0)->mounts[5].target, "/out");
    assert_string_equal(mount_of(0, 6), "bind $(pwd)/o2->/o2 ro");
    /* where `:ro` would go: just after the value */
    assert_loc(L(0)->mounts[0].ro_loc, 1, 25);
}

static void t_mount_forms(void **s)
{
    (void)s;
    sh("docker run --mount type=bind,source=/d,target=/data,readonly "
       "--mount type=volume,src=v,dst=/v --mount type=tmpfs,destination=/t "
       "--mount 'type=bind,src=/a,dst=/b,ro=false' --mount source=n,target=/n,ro=true img\n");
    assert_string_equal(mount_of(0, 0), "bind /d->/data ro");
    assert_loc(L(0)->mounts[0].ro_loc, 1, 53);
    assert_string_equal(mount_of(0, 1), "volume v->/v");
    assert_string_equal(mount_of(0, 2), "tmpfs -->/t");
    assert_string_equal(mount_of(0, 3), "bind /a->/b");
    assert_string_equal(mount_of(0, 4), "volume n->/n ro");
    assert_string_equal(image(0), "img");
}

/* --mount read as docker's CLI reads it (parsers/shell/mount_spec.h): CSV quotes keep a
 * comma in a source, keys in any case, the last of a key counts; the fields before a
 * CSV error count. */
static void t_mount_csv(void **s)
{
    (void)s;
    sh("docker run --mount 'type=bind,\"source=/data,v2\",target=/d,RO' "
       "--mount Type=Bind,src=/a,SRC=/b,dst=/c,readonly=1,ro=false "
       "--mount 'type=bind,src=/e,dst=/f,\"ro' img\n");
    static const char *const want[] = {"bind /data,v2->/d ro", "bind /b->/c", "bind /e->/f"};
    static const uint32_t ro_col[] = {59, 113}; /* (the last readonly field) */
    assert_int_equal(L(0)->nmounts, 3);
    for (size_t k = 0; k < 3; k++)
        assert_string_equal(mount_of(0, k), want[k]);
    for (size_t k = 0; k < 2; k++)
        assert_loc(L(0)->mounts[k].ro_loc, 1, ro_col[k]);
    assert_string_equal(image(0), "img");
}

static void t_tmpfs_shm_ipc_ulimit(void **s)
{
    (void)s;
    sh("docker run --tmpfs /scratch:rw,size=1g --shm-size=8G --ipc host "
       "--ulimit memlock=-1:-1 --ulimit stack=67108864 img\n"
       "docker run --shm-size 64m a\ndocker run --shm-size=1073741824 a\n"
       "docker run --shm-size 2GiB a\ndocker run --shm-size 1.5g a\n");
    assert_string_equal(mount_of(0, 0), "tmpfs -->/scratch");
    assert_true(L(0)->shm_bytes == 8LL << 30);
    assert_loc(L(0)->shm_loc, 1, 51);
    assert_string_equal(L(0)->ipc, "host");
    assert_loc(L(0)->ipc_loc, 1, 60);
    assert_string_equal(L(0)->memlock, "-1:-1");
    assert_loc(L(0)->memlock_loc, 1, 82);
    assert_true(L(1)->shm_bytes == 64LL << 20);
    assert_true(L(2)->shm_bytes == 1073741824LL);
    assert_true(L(3)->shm_bytes == 2LL << 30);
    assert_true(L(4)->shm_bytes == 3LL << 29);
}

static void t_env_forms(void **s)
{
    (void)s;
    sh("docker run -e A=1 --env B --env=C=x=y --env-file f.env -e \"D=$UNKNOWN\" img\n");
    assert_int_equal(D.nenv, 4);
    assert_string_equal(D.env[0].key, "A");
    assert_string_equal(D.env[1].key, "B");
    assert_null(D.env[1].value);
    assert_string_equal(D.env[2].key, "C");
    assert_string_equal(D.env[2].value, "x=y");
    assert_string_equal(D.env[3].key, "D");
    assert_null(D.env[3].value);
    assert_int_equal(D.env[0].origin, GL_ENV_LAUNCH);
    assert_string_equal(image(0), "img");
}

static void t_continuation_lines(void **s)
{
    (void)s;
    sh("docker run \\\n  --gpus all \\\n  -v /data:/data \\\n  nvcr.io/nvidia/pytorch:24.05-py3 \\\n"
       "  python train.py --data /data\n");
    assert_string_equal(image(0), "nvcr.io/nvidia/pytorch:24.05-py3");
    assert_loc(D.refs[0].loc, 4, 3);
    assert_loc(D.refs[0].parsed.tag_loc, 4, 26);
    assert_loc(gpu(0, 0)->loc, 2, 10);
    assert_loc(L(0)->mounts[0].loc, 3, 6);
    assert_string_equal(argv_of(0), "python|train.py|--data|/data");
    assert_loc(L(0)->argv[3].loc, 5, 26);
}

static void t_wrappers(void **s)
{
    (void)s;
    sh("sudo -E -u root docker run a\nexec docker run b\ntime docker run c\n"
       "env A=B nohup docker run d &\nX=1 docker run e\n"
       "srun -N 1 --ntasks=1 --gres gpu:1 --pty docker run f\n"
       "docker container run g\ndocker create h\ndocker -H tcp://x:2375 run i\n"
       "docker build -t j .\ndocker exec -it k bash\n");
    assert_int_equal(D.nlaunches, 9);
    const char *want[] = {"a", "b", "c", "d", "e", "f", "g", "h", "i"};
    for (size_t i = 0; i < 9; i++)
        assert_string_equal(image(i), want[i]);
    assert_true(L(3)->detached);
    assert_string_equal(L(3)->group, "t.sh");
    assert_loc(L(0)->loc, 1, 17);
}

static void t_variables(void **s)
{
    (void)s;
    sh("IMAGE=nvcr.io/nvidia/pytorch:24.05-py3\nDATA=/mnt/data\n"
       "docker run -v $DATA:/data $IMAGE python t.py\n");
    assert_string_equal(image(0), "nvcr.io/nvidia/pytorch:24.05-py3");
    assert_loc(D.refs[0].loc, 3, 27);
    assert_true(D.refs[0].ok);
    assert_loc(D.refs[0].parsed.tag_loc, 3, 27); /* from a variable: at the `$` */
    assert_string_equal(mount_of(0, 0), "bind /mnt/data->/data");
}

static void t_opaque_image_and_args(void **s)
{
    (void)s;
    sh("docker run --rm \"$IMG\" python t.py\ndocker run $args\n"
       "docker run $OPTS nvcr.io/nvidia/pytorch:24.05-py3 python\n"
       "docker run img python $EXTRA\n");
    assert_int_equal(L(0)->ref, -1);
    assert_string_equal(argv_of(0), "python|t.py");
    assert_false(L(0)->opts_opaque);
    assert_int_equal(L(1)->ref, -1);
    assert_true(L(1)->argv_opaque);
    assert_true(L(1)->opts_opaque);
    assert_int_equal(L(1)->nargv, 0);
    assert_string_equal(image(2), "nvcr.io/nvidia/pytorch:24.05-py3");
    assert_true(L(2)->opts_opaque);
    assert_false(L(2)->argv_opaque);
    assert_true(L(3)->argv_opaque);
    assert_false(L(3)->opts_opaque);
}

static void t_opaque_ambiguous(void **s)
{
    (void)s;
    /* `$IMG bash`: the unknown word is taken as the image, and nothing is known for sure */
    sh("docker run -it $IMG bash\n");
    assert_int_equal(L(0)->ref, -1);
    assert_true(L(0)->opts_opaque);
    assert_true(L(0)->argv_opaque);
    assert_string_equal(argv_of(0), "bash");
}

static void t_opaque_after_dots(void **s)
{
    (void)s;
    /* only a word that is wholly an ellipsis may be any number of words: `...$OPTS`
       starts with literal text, so it is one word that is no option (the image) */
    sh("docker run ...$OPTS nvcr.io/nvidia/pytorch:24.05-py3 python\n");
    assert_int_equal(L(0)->ref, -1);
    assert_false(L(0)->opts_opaque);
    assert_string_equal(argv_of(0), "nvcr.io/nvidia/pytorch:24.05-py3|python");
}

static void t_image_of_expansions_and_text(void **s)
{
    (void)s;
    /* text beside the expansions makes one word (ms-swift's CI: `${NAME}:${TAG}`): the
       image, and the options before it are all known; `$A$B` alone may be any words */
    sh("docker run --gpus all ${NAME}:${TAG} $CMD\n"
       "docker run --gpus all $REG/app:1 python t.py\n"
       "docker run --gpus all $A$B img:1 python t.py\n");
    assert_false(L(0)->opts_opaque);
    assert_true(L(0)->argv_opaque);
    assert_false(L(1)->opts_opaque);
    assert_string_equal(argv_of(1), "python|t.py");
    assert_true(L(2)->opts_opaque);
}

static void t_branch_assigned_opaque(void **s)
{
    (void)s;
    sh("if [ -n \"$X\" ]; then IMG=a:1; else IMG=b:2; fi\ndocker run \"$IMG\" t\n");
    assert_int_equal(L(0)->ref, -1);
}

static void t_sh_c_in_container(void **s)
{
    (void)s;
    sh("docker run img sh -c \"cd /w && python train.py --output_dir /out\"\n");
    assert_string_equal(argv_of(0), "sh|-c|cd|/w|python|train.py|--output_dir|/out");
    assert_loc(L(0)->argv[6].loc, 1, 48);
    assert_loc(L(0)->argv[7].loc, 1, 61);
    assert_false(L(0)->argv_opaque);
    sh("docker run img bash -c \"$CMD\"\n");
    assert_true(L(1)->argv_opaque);
}

static void t_sh_c_on_host(void **s)
{
    (void)s;
    sh("bash -c 'docker run --gpus all img python x.py'\nssh host ls\n");
    assert_int_equal(D.nlaunches, 1);
    assert_string_equal(image(0), "img");
    assert_loc(L(0)->loc, 1, 10);
    assert_loc(gpu(0, 0)->loc, 1, 28);
}

static void t_double_dash(void **s)
{
    (void)s;
    sh("docker run --rm -- img -v x\n");
    assert_string_equal(image(0), "img");
    assert_string_equal(argv_of(0), "-v|x");
}

static void t_detach_false_and_background(void **s)
{
    (void)s;
    sh("docker run --detach=false a\ndocker run b &\ndocker run c\n");
    assert_false(L(0)->detached);
    assert_true(L(1)->detached);
    assert_false(L(2)->detached);
    assert_null(L(2)->group);
}

static void t_apptainer(void **s)
{
    (void)s;
    sh("apptainer exec --nv -B /data:/data:ro,/scratch docker://nvcr.io/nvidia/pytorch:24.05-py3 "
       "python t.py\n"
       "singularity run --nvccli --bind=/a:/b img.sif arg\n"
       "apptainer shell ./sandbox/\n"
       "apptainer exec library://alpine:3 ls\n"
       "apptainer instance start --nv img.sif inst1 a\n"
       "apptainer exec --contain --env A=1,CUDA_VISIBLE_DEVICES=0,1 oras://ghcr.io/x/y:1 cmd\n");
    assert_int_equal(D.nlaunches, 6);
    assert_int_equal(L(0)->kind, GL_LAUNCH_APPTAINER);
    assert_true(L(0)->apptainer_nv);
    assert_int_equal(gpu(0, 0)->kind, GL_GPU_APPTAINER_NV);
    assert_string_equal(mount_of(0, 0), "bind /data->/data ro");
    assert_loc(L(0)->mounts[0].ro_loc, 1, 36);
    assert_string_equal(mount_of(0, 1), "bind /scratch->/scratch");
    assert_loc(L(0)->mounts[1].loc, 1, 39);
    assert_string_equal(image(0), "nvcr.io/nvidia/pytorch:24.05-py3");
    assert_loc(D.refs[L(0)->ref].loc, 1, 57);
    assert_true(D.refs[L(0)->ref].ok);
    assert_string_equal(argv_of(0), "python|t.py");
    assert_true(L(1)->apptainer_nv);
    assert_string_equal(mount_of(1, 0), "bind /a->/b");
    assert_true(D.refs[L(1)->ref].local);
    assert_false(L(1)->apptainer_sandbox);
    assert_string_equal(argv_of(1), "arg");
    assert_true(L(2)->apptainer_sandbox);
    assert_false(L(2)->apptainer_nv);
    assert_false(D.refs[L(3)->ref].ok);
    assert_false(D.refs[L(3)->ref].local);
    assert_string_equal(argv_of(4), "a");
    assert_true(L(4)->detached);
    assert_int_equal(D.nenv, 2);
    assert_string_equal(D.env[1].key, "CUDA_VISIBLE_DEVICES");
    assert_string_equal(D.env[1].value, "0,1");
    assert_true(D.refs[L(5)->ref].ok);
    assert_string_equal(image(5), "ghcr.io/x/y:1");
}

static void t_hostile(void **s)
{
    (void)s;
    static char big[300000];
    memset(big, 'a', sizeof big - 1);
    memcpy(big, "docker run -v ", 14);
    sh(big);
    sh("docker run --gpus\ndocker run -v\ndocker\ndocker run --mount ,,,= --gpus '\"' x\n"
       "docker run -e = -e '' --shm-size 9999999999999999999999g y\n");
    assert_true(D.nlaunches >= 3);
    const char nul[] = "docker run \0 img\n";
    doc_text("n.sh", nul);
    gl_launches_from_shell(&D, nul, sizeof nul - 1, NULL, NULL);
}

static void t_more_wrappers(void **s)
{
    (void)s;
    /* every launcher behind the wrappers people put before it */
    sh("sudo -E -u bob nerdctl run --gpus all img:1 a\n"
       "stdbuf -oL numactl --cpunodebind=0 -m 0 docker container run img:2 b\n"
       "taskset -c 0-7 chrt -f 10 podman container run img:3 c\n"
       "timeout -s KILL 1h env -u X A=B nohup time nice -n 5 docker run img:4 d\n"
       "taskset -p 0x3 1234\n"
       "numactl --localalloc --physcpubind 0-7 docker run img:5 e\n");
    assert_int_equal(D.nlaunches, 5);
    assert_string_equal(image(4), "img:5");
    assert_string_equal(L(0)->tool, "nerdctl");
    assert_loc(L(0)->loc, 1, 16);
    assert_int_equal(L(0)->ngpus, 1);
    assert_string_equal(image(1), "img:2");
    assert_loc(D.refs[1].loc, 2, 62);
    assert_string_equal(L(2)->tool, "podman");
    assert_string_equal(argv_of(2), "c");
    assert_string_equal(image(3), "img:4");
}

static void t_compose_run(void **s)
{
    (void)s;
    /* compose's own option tables: -f/-p/--profile before `run`; -v, -e, -w, --entrypoint,
     * bundles (-dT) after it; SERVICE then the command. No compose file beside a text
     * without a path: each run is a fragment holding what the line says. */
    sh("docker compose -f a.yml -p proj --profile gpu run --rm -dT -v /d:/data:ro "
       "-e NCCL_DEBUG=INFO -w /ws train python t.py --out /o\n"
       "docker-compose --env-file x.env run --entrypoint \"python -u\" --name n1 eval e.py\n"
       "podman compose run --rm --gpus all svc nvidia-smi\n"
       "docker compose up -d\n"
       "docker compose build train\n");
    assert_int_equal(D.nlaunches, 3);
    assert_int_equal(L(0)->kind, GL_LAUNCH_COMPOSE);
    assert_string_equal(L(0)->tool, "docker compose run");
    assert_string_equal(L(0)->name, "train");
    assert_true(L(0)->fragment);
    assert_true(L(0)->detached && L(0)->remove);
    assert_int_equal(L(0)->ref, -1);
    assert_int_equal(L(0)->nmounts, 1);
    assert_true(L(0)->mounts[0].readonly);
    assert_string_equal(L(0)->workdir, "/ws");
    assert_string_equal(argv_of(0), "python|t.py|--out|/o");
    assert_string_equal(L(1)->tool, "docker-compose run");
    assert_string_equal(L(1)->name, "eval"); /* the service, not --name */
    assert_string_equal(argv_of(1), "python|-u|e.py");
    assert_string_equal(L(2)->name, "svc"); /* --gpus takes its value: not the service */
    assert_true(L(2)->opts_opaque);
    assert_int_equal(L(2)->ngpus, 0);
    assert_string_equal(argv_of(2), "nvidia-smi");
}

/* docker run/create --entrypoint X: the container runs X, then the words after the image;
 * `--entrypoint ""` resets the image's entrypoint (the words alone); a shell entrypoint's
 * `-c SCRIPT` is spliced in; podman's JSON array form is not read (argv opaque). */
static void t_entrypoint(void **s)
{
    (void)s;
    sh("docker run --gpus all --entrypoint vllm vllm/vllm-openai:v0.9.0 bench serve --x 1\n"
       "docker create --entrypoint=/bin/bash img:1 -c 'python t.py; torchrun a.py'\n"
       "docker run --entrypoint '' img:2 python e.py\n"
       "podman run --entrypoint '[\"python\",\"-m\",\"m\"]' img:3 --y\n"
       "docker run --entrypoint tini img:4 sh -c 'make all'\n"
       "docker run --entrypoint \"$EP\" img:5 a\n"
       "docker run --entrypoint nvidia-smi img:6\n"
       "docker compose run --entrypoint sh svc -c 'python t.py'\n");
    assert_int_equal(D.nlaunches, 8);
    assert_string_equal(argv_of(0), "vllm|bench|serve|--x|1");
    assert_loc(L(0)->argv[0].loc, 1, 36);
    assert_loc(L(0)->argv[1].loc, 1, 65);
    assert_string_equal(image(0), "vllm/vllm-openai:v0.9.0");
    assert_false(L(0)->argv_opaque);
    assert_string_equal(argv_of(1), "/bin/bash|-c|python|t.py|torchrun|a.py");
    assert_loc(L(1)->argv[0].loc, 2, 28);
    assert_loc(L(1)->argv[2].loc, 2, 48);
    assert_non_null(L(1)->next_command);
    assert_true(L(1)->next_command[4]);
    assert_string_equal(argv_of(2), "python|e.py");
    assert_true(L(3)->argv_opaque);
    assert_string_equal(argv_of(4), "tini|sh|-c|make|all");
    assert_true(L(5)->argv[0].opaque);
    assert_string_equal(argv_of(6), "nvidia-smi");
    assert_string_equal(argv_of(7), "sh|-c|python|t.py"); /* (compose run's, the same way) */
}

static void t_ssh_and_xargs(void **s)
{
    (void)s;
    sh("ssh -p 22 -o X=y gpu01 'docker run --rm img:1 python t.py --out /o'\n"
       "ssh gpu02 docker run img:2 x\n"
       "cat l | xargs -I{} docker run --rm {} nvidia-smi\n"
       "cat l | xargs -n1 docker run img:3\n"
       "ssh \"$H\" docker run img:4\n");
    assert_int_equal(D.nlaunches, 4);
    assert_string_equal(image(0), "img:1");
    assert_loc(D.refs[0].loc, 1, 41); /* inside the quoted remote script */
    assert_string_equal(argv_of(0), "python|t.py|--out|/o");
    assert_string_equal(image(1), "img:2");
    assert_false(L(1)->argv_opaque);
    assert_int_equal(L(2)->ref, -1); /* `{}` is filled in by xargs */
    assert_true(L(3)->argv_opaque);  /* xargs appends what it reads */
}

static void t_kubectl_run(void **s)
{
    (void)s;
    sh("kubectl -n ml run t --image=img:1 --limits=cpu=2,memory=8Gi,nvidia.com/gpu=1 "
       "--env=A=1 --restart=Never -- python t.py\n"
       "kubectl run u --image img:2 --overrides='{\"spec\":{\"containers\":[{\"resources\":"
       "{\"limits\":{\"nvidia.com/gpu\":2}}}]}}'\n"
       "kubectl get pods\n");
    assert_int_equal(D.nlaunches, 2);
    assert_int_equal(L(0)->kind, GL_LAUNCH_K8S);
    assert_string_equal(L(0)->tool, "kubectl");
    assert_string_equal(L(0)->name, "t");
    assert_string_equal(image(0), "img:1");
    assert_string_equal(argv_of(0), "python|t.py");
    assert_int_equal(L(0)->ngpus, 1);
    assert_string_equal(L(0)->gpus[0].value, "nvidia.com/gpu");
    assert_string_equal(L(0)->gpus[0].limit, "1");
    assert_loc(L(0)->gpus[0].loc, 1, 61);
    assert_string_equal(L(0)->pod.cpu_limit.value, "2");
    assert_loc(L(0)->pod.cpu_limit.loc, 1, 48);
    assert_string_equal(L(0)->pod.memory_limit.value, "8Gi");
    assert_int_equal(D.nenv, 1);
    assert_int_equal(L(1)->ngpus, 1);
    assert_string_equal(L(1)->gpus[0].count, "2");
    assert_loc(L(1)->gpus[0].loc, 2, 90);
    assert_true(L(1)->opts_opaque);
    assert_true(L(1)->pod.opaque);
}

/* docker cp NAME:PATH / docker commit NAME: files taken out of a named container
 * (lerobot's CI copies eval artifacts out of `--name libero-eval`). */
static void t_podman_hpc(void **s)
{
    (void)s;
    /* podman-hpc's own switches come before podman's table: --gpu is its gpu module (no
       value, the image follows), --mpi gives the host's IPC namespace and privileges; its
       global options take values; docker's --gpu stays the misspelling that eats a value */
    sh("podman-hpc --squash-dir /s run --rm --gpu -v /d:/d nvcr.io/nvidia/pytorch:24.05-py3 x\n"
       "podman-hpc run --mpi img:2 y\n"
       "docker run --gpu all img:3 z\n"
       "podman-hpc build -t me/app:dev .\n"
       "srun -n 8 podman-hpc shared-run --gpu --cuda-mpi img:4 python t.py\n"
       "docker shared-run img:5\n");
    assert_int_equal(D.nlaunches, 4);
    assert_string_equal(image(3), "img:4");
    assert_int_equal(gpu(3, 0)->kind, GL_GPU_SITE_MODULE);
    assert_string_equal(L(3)->ipc, "host");
    assert_string_equal(L(0)->tool, "podman-hpc");
    assert_string_equal(image(0), "nvcr.io/nvidia/pytorch:24.05-py3");
    assert_string_equal(argv_of(0), "x");
    assert_int_equal(L(0)->ngpus, 1);
    assert_int_equal(gpu(0, 0)->kind, GL_GPU_SITE_MODULE);
    assert_string_equal(gpu(0, 0)->value, "--gpu");
    assert_loc(gpu(0, 0)->loc, 1, 37);
    assert_null(gpu(0, 0)->bad_flag);
    assert_string_equal(image(1), "img:2");
    assert_int_equal(L(1)->ngpus, 0);
    assert_string_equal(L(1)->ipc, "host");
    assert_true(L(1)->ipc_lock);
    assert_string_equal(image(2), "img:3");
    assert_int_equal(gpu(2, 0)->kind, GL_GPU_FLAG);
    assert_non_null(gpu(2, 0)->bad_flag);
}

static void t_copy_out(void **state)
{
    (void)state;
    sh("docker cp libero-eval:/tmp/eval-artifacts/. /tmp/out/\n"
       "docker container cp -a ev2:/data/ ./x\n"
       "docker commit -m 'after eval' --author me ev3 bench:results\n"
       "docker cp ./config.json ev4:/tmp/in\n"
       "docker cp ev5:relative ./x\n"
       "docker cp $OPTS ev6:/tmp/x ./y\n"
       "docker cp ev7:/ ./all\n");
    assert_int_equal(D.ncopyouts, 4);
    assert_string_equal(D.copyouts[0].container, "libero-eval");
    assert_string_equal(D.copyouts[0].path, "/tmp/eval-artifacts");
    assert_string_equal(D.copyouts[1].container, "ev2");
    assert_string_equal(D.copyouts[1].path, "/data");
    assert_string_equal(D.copyouts[2].container, "ev3");
    assert_string_equal(D.copyouts[2].path, "");
    assert_string_equal(D.copyouts[3].container, "ev7");
    assert_string_equal(D.copyouts[3].path, "");
    assert_int_equal(D.nlaunches, 0);
}

static void t_apptainer_pull(void **s)
{
    (void)s;
    sh("apptainer pull --force x.sif docker://nvcr.io/nvidia/pytorch:24.05-py3\n"
       "singularity build --sandbox d/ docker://nvidia/cuda:12.4.1-base-ubuntu22.04\n"
       "apptainer pull \"docker://$IMG\"\n");
    assert_int_equal(D.nlaunches, 0);
    assert_int_equal(D.nrefs, 2);
    assert_int_equal(D.refs[0].role, GL_REF_DEF_FROM);
    assert_string_equal(D.refs[0].text, "nvcr.io/nvidia/pytorch:24.05-py3");
    assert_loc(D.refs[0].loc, 1, 39);
    assert_loc(D.refs[1].loc, 2, 41);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(t_basic, doc_setup, doc_teardown),
        cmocka_unit_test_setup_teardown(t_bundle_itd, doc_setup, doc_teardown),
        cmocka_unit_test_setup_teardown(t_bundle_value_last, doc_setup, doc_teardown),
        cmocka_unit_test_setup_teardown(t_value_flags, doc_setup, doc_teardown),
        cmocka_unit_test_setup_teardown(t_gpus_all, doc_setup, doc_teardown),
        cmocka_unit_test_setup_teardown(t_gpus_quoted_devices, doc_setup, doc_teardown),
        cmocka_unit_test_setup_teardown(t_gpus_unquoted_devices_invalid, doc_setup, doc_teardown),
        cmocka_unit_test_setup_teardown(t_gpus_key_twice_and_bad, doc_setup, doc_teardown),
        cmocka_unit_test_setup_teardown(t_gpus_memory_and_caps, doc_setup, doc_teardown),
        cmocka_unit_test_setup_teardown(t_device_cdi_and_node, doc_setup, doc_teardown),
        cmocka_unit_test_setup_teardown(t_runtime_and_visible, doc_setup, doc_teardown),
        cmocka_unit_test_setup_teardown(t_nvidia_docker, doc_setup, doc_teardown),
        cmocka_unit_test_setup_teardown(t_volumes, doc_setup, doc_teardown),
        cmocka_unit_test_setup_teardown(t_mount_forms, doc_setup, doc_teardown),
        cmocka_unit_test_setup_teardown(t_mount_csv, doc_setup, doc_teardown),
        cmocka_unit_test_setup_teardown(t_tmpfs_shm_ipc_ulimit, doc_setup, doc_teardown),
        cmocka_unit_test_setup_teardown(t_env_forms, doc_setup, doc_teardown),
        cmocka_unit_test_setup_teardown(t_continuation_lines, doc_setup, doc_teardown),
        cmocka_unit_test_setup_teardown(t_wrappers, doc_setup, doc_teardown),
        cmocka_unit_test_setup_teardown(t_variables, doc_setup, doc_teardown),
        cmocka_unit_test_setup_teardown(t_opaque_image_and_args, doc_setup, doc_teardown),
        cmocka_unit_test_setup_teardown(t_opaque_after_dots, doc_setup, doc_teardown),
        cmocka_unit_test_setup_teardown(t_image_of_expansions_and_text, doc_setup, doc_teardown),
        cmocka_unit_test_setup_teardown(t_opaque_ambiguous, doc_setup, doc_teardown),
        cmocka_unit_test_setup_teardown(t_branch_assigned_opaque, doc_setup, doc_teardown),
        cmocka_unit_test_setup_teardown(t_sh_c_in_container, doc_setup, doc_teardown),
        cmocka_unit_test_setup_teardown(t_sh_c_on_host, doc_setup, doc_teardown),
        cmocka_unit_test_setup_teardown(t_double_dash, doc_setup, doc_teardown),
        cmocka_unit_test_setup_teardown(t_detach_false_and_background, doc_setup, doc_teardown),
        cmocka_unit_test_setup_teardown(t_apptainer, doc_setup, doc_teardown),
        cmocka_unit_test_setup_teardown(t_hostile, doc_setup, doc_teardown),
        cmocka_unit_test_setup_teardown(t_more_wrappers, doc_setup, doc_teardown),
        cmocka_unit_test_setup_teardown(t_ssh_and_xargs, doc_setup, doc_teardown),
        cmocka_unit_test_setup_teardown(t_compose_run, doc_setup, doc_teardown),
        cmocka_unit_test_setup_teardown(t_entrypoint, doc_setup, doc_teardown),
        cmocka_unit_test_setup_teardown(t_kubectl_run, doc_setup, doc_teardown),
        cmocka_unit_test_setup_teardown(t_apptainer_pull, doc_setup, doc_teardown),
        cmocka_unit_test_setup_teardown(t_podman_hpc, doc_setup, doc_teardown),
        cmocka_unit_test_setup_teardown(t_copy_out, doc_setup, doc_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
