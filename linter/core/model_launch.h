/* SPDX-License-Identifier: Apache-2.0 */
/*
 * model_launch.h: container launches (part of the model, see model.h).
 *
 * A launch is one container start, whatever wrote it: a `docker run` line (in a script,
 * a Makefile, a Markdown block, CI YAML), a compose service, a Kubernetes container, an
 * apptainer exec/run/shell. Parsers of those inputs translate their syntax into this one
 * shape; the GL4xx rules read only this.
 */
#ifndef GPULINT_MODEL_LAUNCH_H
#define GPULINT_MODEL_LAUNCH_H

enum gl_launch_kind {
    GL_LAUNCH_DOCKER_RUN,     /* docker run / create, podman run, nvidia-docker run */
    GL_LAUNCH_COMPOSE,        /* a compose service */
    GL_LAUNCH_K8S,            /* a container of a pod template */
    GL_LAUNCH_APPTAINER,      /* apptainer/singularity exec|run|shell|instance start */
    GL_LAUNCH_SLURM,          /* a Slurm step: `srun` (with a pyxis --container-image, or on
                                 the host: bare_metal), a batch script's pyxis container */
    GL_LAUNCH_ENROOT,         /* enroot start */
};

enum gl_mount_type {
    GL_MOUNT_BIND,            /* -v /host:/ctr, --mount type=bind, hostPath, apptainer -B */
    GL_MOUNT_VOLUME,          /* a named volume, PVC, NFS and other persistent volumes */
    GL_MOUNT_TMPFS,           /* --tmpfs, type=tmpfs */
    GL_MOUNT_EMPTYDIR,        /* k8s emptyDir (disk) */
    GL_MOUNT_EMPTYDIR_MEMORY, /* k8s emptyDir {medium: Memory} */
    GL_MOUNT_CONFIG,          /* configMap, secret, downwardAPI, projected */
    GL_MOUNT_OTHER,
};

struct gl_mount {
    enum gl_mount_type type;
    const char *source;       /* host path, volume or claim name; NULL when none */
    const char *target;       /* path inside the container */
    bool readonly;
    struct gl_loc loc;        /* the mount as written (the -v value, the volumeMount) */
    struct gl_loc ro_loc;     /* where `:ro`/readOnly would go or is; = loc when unknown */
};

enum gl_gpu_kind {
    GL_GPU_FLAG,              /* docker --gpus */
    GL_GPU_CDI,               /* --device nvidia.com/gpu=..., compose devices: CDI names */
    GL_GPU_RUNTIME,           /* --runtime=nvidia, compose runtime: nvidia */
    GL_GPU_COMPOSE_DEVICE,    /* deploy.resources.reservations.devices */
    GL_GPU_COMPOSE_GPUS,      /* service-level gpus: */
    GL_GPU_SWARM_GENERIC,     /* compose deploy.resources.reservations.generic_resources:
                                 a Swarm discrete_resource_spec whose kind names a GPU */
    GL_GPU_K8S_RESOURCE,      /* nvidia.com/gpu in limits/requests */
    GL_GPU_K8S_MIG,           /* nvidia.com/mig-1g.10gb */
    GL_GPU_K8S_VENDOR,        /* vendor keys (HAMi nvidia.com/gpumem, gpucores, ...) */
    GL_GPU_K8S_DRA,           /* resources.claims */
    GL_GPU_APPTAINER_NV,      /* --nv / --nvccli */
    GL_GPU_ENV_VISIBLE,       /* NVIDIA_VISIBLE_DEVICES set on a launch */
    GL_GPU_DEVICE_NODE,       /* --device /dev/nvidiaN (a GPU passed as a device node) */
    GL_GPU_SITE_MODULE,       /* a site module that gives the container the GPUs the node
                                 or the job holds (podman-hpc --gpu, shifter --module=gpu):
                                 no count of its own; value: the option as written */
    GL_GPU_SLURM,             /* a Slurm GPU request: --gres=gpu[:type]:N, -G/--gpus,
                                 --gpus-per-node, --gpus-per-task; count: whole GPUs per node
                                 ("4"), NULL when the options do not tell (see slurm_opts.h);
                                 value: the option as written ("--gres=gpu:4"); loc: its count
                                 (or the option), on the `#SBATCH`/`salloc` line it came from
                                 when the step inherits it */
};

/* What a key of a docker --gpus field names (a bare field, "2", is a count). */
enum gl_gpu_key {
    GL_GPU_KEY_COUNT,
    GL_GPU_KEY_DEVICE,
    GL_GPU_KEY_CAPABILITIES,
    GL_GPU_KEY_DRIVER,
    GL_GPU_KEY_OPTIONS,
    GL_GPU_KEY_MEMORY,        /* not a docker key, but the memory it names is GL406's */
    GL_GPU_KEY_OTHER,         /* a key docker's --gpus does not read */
};

/* One field of a docker --gpus value as docker's CSV splits it: `device=0,2` unquoted is
 * the two fields `device=0` and `2`. */
struct gl_gpu_field {
    enum gl_gpu_key key;
    const char *name;         /* the key as written ("device"); a bare field: all of it ("2") */
    const char *text;         /* the whole field, CSV quotes removed; len bytes (NUL bytes
                                 may be among them), then a NUL */
    size_t len;
    const char *value;        /* in text: after the first '=' (a bare field: all of it) */
    size_t value_len;
    struct gl_loc loc;        /* the field's first byte */
    struct gl_loc value_loc;  /* the value's first byte */
    bool repeated;            /* an earlier field gave the same key: its name, or "count"
                                 for a bare field; the first 8 keys are remembered */
};

/* A docker --gpus value read as docker's CSV (kind GL_GPU_FLAG; all zero when opaque). */
struct gl_gpu_csv {
    const char *error;        /* encoding/csv's reason the value is not CSV, NULL when it is */
    struct gl_loc error_loc;  /* the byte it stopped at */
    const struct gl_gpu_field *fields; size_t nfields; /* in the order written */
};

struct gl_gpu_request {
    enum gl_gpu_kind kind;
    const char *value;        /* as written: "all", "device=0,2", "2", "nvidia.com/gpu" */
    struct gl_loc loc;
    const char *count;        /* "all", "2", "0.5" (k8s limits), NULL */
    const char *request;      /* k8s: the requests value, NULL when absent */
    const char *limit;        /* k8s: the limits value, NULL when absent */
    bool count_opaque;        /* k8s: the request or limit holds a template expression
                                 (`{{ .Values.gpus }}`): its value is unknown */
    struct gl_loc request_loc, limit_loc;
    const char **device_ids;  size_t ndevice_ids;
    const char **capabilities; size_t ncapabilities;
    const char *memory;       /* a memory qualifier or option (GL406), NULL */
    struct gl_loc memory_loc;
    bool mig;                 /* MIG device/resource */
    bool mps;                 /* MPS configured for this request */
    bool mem_capped;          /* an enforced memory cap (HAMi gpumem, MPS limit) */
    bool per_task;            /* Slurm --gpus-per-task: each task is given its GPUs by
                                 the request itself (count: per task x tasks per node) */
    struct gl_gpu_csv csv;    /* docker --gpus: its fields as written */
    const char *bad_flag;     /* docker: written with an option the CLI does not have
                                 (`--gpu`, as written), which stops the command; else NULL */
    struct gl_loc bad_flag_loc;
    /* a compose device mapping: where its keys are written, line 0 when absent (the
       values are count, device_ids and capabilities above) */
    struct gl_loc count_key_loc, device_ids_key_loc, capabilities_key_loc;
};

/* A Kubernetes quantity of a container's resources, as written (GL414). */
struct gl_quantity {
    const char *value;        /* "500m", "16Gi"; NULL when absent */
    struct gl_loc loc;        /* the value */
    bool opaque;              /* a template expression or another unknown value */
};

/* What the Kubernetes QoS class of a container's pod rests on (kind GL_LAUNCH_K8S, and
 * `kubectl run`). */
struct gl_pod_facts {
    unsigned pod;             /* the pod spec the container belongs to: launches of one pod
                                 share it (1-based); 0 outside Kubernetes */
    bool init;                /* an init container; a compose service that another one
                                 waits for to complete (depends_on condition
                                 service_completed_successfully) */
    struct gl_quantity cpu_request, cpu_limit, memory_request, memory_limit;
    struct gl_loc resources_loc; /* the `resources` key, else the container's name */
    bool pod_resources;       /* the pod spec sets pod-level `resources` (QoS from them) */
    bool opaque;              /* resources gpulint cannot read (`kubectl run --overrides`) */
};

/* A GPU sharing setting of an NVIDIA device plugin / GPU operator config (the config file,
 * or a ConfigMap's data holding it): one `sharing.timeSlicing.resources[]` entry. */
struct gl_gpu_sharing {
    const char *resource;     /* "nvidia.com/gpu", NULL when not written */
    const char *replicas;     /* as written */
    struct gl_loc loc;        /* the `replicas` key */
    struct gl_loc value_loc;  /* its value */
    bool opaque;              /* a template expression */
};

/* A command that takes files out of a named container after it ran (`docker cp NAME:PATH
 * DEST`; `docker commit NAME` keeps all of them): what the container wrote there is not
 * lost with it. One per such command of the doc, at most GL_COPY_OUTS_MAX (hostile inputs:
 * each output path is compared with each). */
#define GL_COPY_OUTS_MAX 1024
struct gl_copy_out {
    const char *container; /* the container's name as written */
    const char *path;      /* absolute, without a trailing "/" or "/." ("" for all: commit) */
};

struct gl_launch {
    enum gl_launch_kind kind;
    const char *tool;         /* "docker", "podman", "nvidia-docker", "apptainer", ... */
    struct gl_loc loc;        /* the launch: the `docker` word, the service or container name */
    int ref;                  /* the image in doc->refs, -1 when unknown (opaque) */
    struct gl_word *argv;     /* command and arguments run in the container */
    size_t nargv;
    bool argv_opaque;         /* part of the command line could not be known */
    bool *next_command;       /* parallel to argv, NULL for one command: true at the first
                                 word of each later command of a shell script spliced into
                                 the argv (`sh -c "wget ...; torchrun ..."` in a pod) */
    bool opts_opaque;         /* options may hide in an opaque word (`docker run $args img`):
                                 no finding may rest on what the launch lacks */
    /* A GitHub Actions job container: the commands of the job's steps (their `run:`
       scripts, in the default shell), which run inside it. Kept apart from argv: they say
       what kind of job the container runs (GL410, GL415 read them through
       gl_launch_steps_view), but their paths are the runner's checkout and outputs, not
       the container's arguments (no path rule reads them). steps_next is as next_command;
       steps_opaque as argv_opaque. */
    struct gl_word *steps;    size_t nsteps;
    bool *steps_next;
    bool steps_opaque;

    struct gl_mount *mounts;  size_t nmounts, capmounts;
    bool jetson_section;      /* written in a document section about Jetson (its heading
                                 names Jetson, Tegra, L4T, JetPack, Orin or Xavier) */
    bool mounts_unseen;       /* it also mounts what another container mounts (docker
                                 --volumes-from, compose volumes_from), whose targets no
                                 input here shows: no finding rests on a path being under
                                 no mount (GL401, GL402) */
    struct gl_gpu_request *gpus; size_t ngpus, capgpus;
    /* environment: doc->env entries with .launch == this index */

    const char *ipc;          struct gl_loc ipc_loc;       /* "host", "shareable", NULL */
    int64_t shm_bytes;        struct gl_loc shm_loc;       /* -1 when not set */
    const char *memlock;      struct gl_loc memlock_loc;   /* ulimit memlock value, NULL */
    bool ipc_lock;            /* the container holds CAP_IPC_LOCK (--privileged, --cap-add
                                 IPC_LOCK or ALL; compose privileged, cap_add): the kernel
                                 lifts the memlock limit for it (no GL411) */
    bool detached;            /* docker run -d: runs beside what follows */
    bool remove;              /* --rm */
    bool fragment;            /* compose override fragment: no findings for what it lacks */
    bool secondary_role;      /* a CPU role or variant: a role (head, master) of an object
                                 whose other roles use GPUs; a compose service whose namesake
                                 in a compose file beside it requests GPUs (its GPU variant) */
    bool mig;                 /* the launch uses MIG or MPS */
    const char *group;        /* launches that run at the same time share a group
                                 (a compose file's services, a k8s file's pods); NULL: alone */
    const char *profile;      /* compose profiles; NULL when none */
    const char *workdir;      /* -w / workingDir */
    const char *name;         /* service / container name, NULL */
    bool apptainer_nv;        /* apptainer --nv / --nvccli */
    bool apptainer_rocm;      /* apptainer --rocm: the job's GPUs are AMD's */
    bool apptainer_sandbox;   /* image is a sandbox directory */
    bool apptainer_writable;  /* apptainer --writable: the run changes the image (only a
                                 sandbox, or a SIF's overlay, can be written) */
    const char **ignore_ids;  size_t nignore_ids;  /* k8s annotation gpulint.io/ignore */
    bool bare_metal;          /* a Slurm step without a container: its command runs on the
                                 host (no image, no mounts to judge) */
    bool host_ipc;            /* the runtime keeps the host's /dev/shm and the caller's
                                 ulimits (pyxis/enroot as apptainer): no GL410, GL411 */
    bool gpus_outside;        /* a Slurm step outside any allocation the file shows (no
                                 #SBATCH, salloc or sbatch), or in one of whole nodes with
                                 no GPU option (--exclusive): its GPUs may come from where
                                 gpulint cannot see (no GL407) */
    const char *tasks_per_node; /* srun: processes started per node (--ntasks-per-node, or
                                 --ntasks on one node), NULL when not literal or not given */
    struct gl_loc tasks_loc;
    long nodes;               /* Slurm: the nodes of the step or batch (-N): 0 when not
                                 given, -1 when not literal (a range, a variable) */
    const char *object_kind;  /* k8s: the kind of the object holding the pod template
                                 (Deployment, ServingRuntime, TrainingRuntime), else NULL */
    struct gl_pod_facts pod;  /* k8s: the pod and the container's cpu and memory */
    bool gpu_unseen;          /* the host gives the GPU where no input says (a GitLab
                                 runner's config) or has none (a CI job on a runner without
                                 a GPU label): no finding rests on a missing GPU request */
    bool no_gpu_host;         /* runs where no GPU is (a CI job on a runner that names
                                 none: ubuntu-latest, linux-amd64-cpu8): no CUDA starts, so
                                 the image is not held against a driver or GPU (GL201,
                                 GL204, GL208, GL209) */
};

#endif
