/* SPDX-License-Identifier: Apache-2.0 */
/* launch_docker.c: `docker run` / `docker create` / `podman run` / `nvidia-docker run`
 * command lines into launches (see launch_shell.h). */
#include <string.h>

#include "parsers/launch/launch_internal.h"

static bool named(const struct gl_cli_flag *f, const char *name)
{
    return f && gl_streq(f->name, name);
}

static void apply(struct launch_build *b, const struct gl_cli_flag *f, const struct lv *flag,
                  const struct lv *val)
{
    struct gl_launch *l = b->l;
    if (!f)
        return;
    if (f->origin == GL_FLAG_SITE_MODULE) {
        launch_podman_hpc_module(b, f, flag);
        return;
    }
    if (named(f, "detach")) {
        l->detached = !val || value_true(val->text);
        return;
    }
    if (named(f, "rm")) {
        l->remove = !val || value_true(val->text);
        return;
    }
    if (named(f, "privileged")) {
        l->ipc_lock |= !val || value_true(val->text);
        return;
    }
    if (!val)
        return;
    if (named(f, "gpus") || named(f, "gpu")) {
        struct gl_gpu_request *g = value_gpus(b, val);
        if (f->origin == GL_FLAG_MISTAKE) {
            g->bad_flag = gl_arena_strndup(&b->doc->arena, flag->text, flag->len);
            g->bad_flag_loc = lv_loc(flag, 0);
        }
    } else if (named(f, "device")) {
        value_device(b, val);
    } else if (named(f, "runtime")) {
        if (lv_is(val, "nvidia")) {
            launch_add_gpu(b, GL_GPU_RUNTIME, val);
            b->nvidia_runtime = true;
        }
    } else if (named(f, "volume")) {
        value_volume(b, val);
    } else if (named(f, "mount")) {
        value_mount(b, val);
    } else if (named(f, "tmpfs")) {
        value_tmpfs(b, val);
    } else if (named(f, "volumes-from")) {
        l->mounts_unseen = true;
    } else if (named(f, "shm-size")) {
        /* a size gpulint cannot know counts as large enough: no finding rests on it */
        l->shm_bytes = val->opaque ? INT64_MAX : value_size_bytes(val->text, val->len);
        l->shm_loc = lv_loc(val, 0);
    } else if (named(f, "ipc")) {
        l->ipc = val->text;
        l->ipc_loc = lv_loc(val, 0);
    } else if (named(f, "pod") && !l->ipc && (val->opaque || !gl_has_prefix(val->text, "new:"))) {
        /* a container of a pod shares the pod's IPC namespace (`podman pod create --share`
           defaults to cgroup,ipc,net,uts): its /dev/shm is the pod's, sized where the pod
           is made (--shm-size); `new:NAME` makes a pod of default settings */
        l->ipc = "pod";
        l->ipc_loc = lv_loc(val, 0);
    } else if (named(f, "ulimit")) {
        value_ulimit(b, val);
    } else if (named(f, "cap-add")) {
        l->ipc_lock |= !val->opaque && gl_cap_locks_memory(val->text, val->len);
    } else if (named(f, "env")) {
        launch_add_env(b, val);
    } else if (named(f, "workdir")) {
        l->workdir = val->text;
    } else if (named(f, "name")) {
        l->name = val->text;
    } else if (named(f, "entrypoint")) {
        b->entrypoint = *val;
        b->has_entrypoint = true;
    }
}

/* The command the container runs: --entrypoint X is one word (docker takes the value
 * whole), then the words after the image; `--entrypoint ""` resets the image's
 * entrypoint: the words alone. Podman also takes a JSON array: its words are unknown. */
static void docker_command(struct launch_build *b, const struct sh_cmd *cmd, size_t from)
{
    const struct lv *e = &b->entrypoint;
    if (!b->has_entrypoint || (!e->len && !e->opaque)) {
        launch_set_argv(b, cmd, from);
        return;
    }
    struct gl_word w = gl_word_make(e->text, lv_loc(e, 0), e->opaque);
    launch_set_command(b, &w, 1, cmd, from);
    if (e->text[0] == '[')
        b->l->argv_opaque = true;
}

void launch_docker(struct gl_launch_scan *scan, const struct sh_cmd *cmd, size_t tool_wi,
                   size_t first, const char *tool)
{
    struct launch_build b;
    launch_begin(&b, scan, GL_LAUNCH_DOCKER_RUN, tool, cmd->words[tool_wi].loc);
    if (!strcmp(tool, "nvidia-docker")) {
        /* nvidia-docker (v2) adds --runtime=nvidia to run and create */
        struct lv w = lv_word(&b.doc->arena, cmd, tool_wi);
        launch_add_gpu(&b, GL_GPU_RUNTIME, &w);
        b.nvidia_runtime = true;
    }
    if (!strcmp(tool, "podman-hpc"))
        b.own_flags = launch_podman_hpc_modules;
    bool ambiguous;
    size_t image = launch_walk_opts(&b, cmd, first, gl_docker_run_flags, apply, &ambiguous);
    if (image < cmd->nwords) {
        struct lv img = lv_word(&b.doc->arena, cmd, image);
        launch_set_image(&b, &img);
        docker_command(&b, cmd, image + 1);
    }
    if (ambiguous || (image >= cmd->nwords && b.l->opts_opaque))
        b.l->argv_opaque = true;
    if (!strcmp(cmd->sep, "&"))
        b.l->detached = true;
    if (b.l->detached)
        b.l->group = gl_launch_group(scan);
    launch_docker_finish(&b, cmd);
}

void launch_docker_finish(struct launch_build *b, const struct sh_cmd *cmd)
{
    if (!b->nvidia_runtime || b->visible_env < 0)
        return;
    const struct gl_env *e = &b->doc->env[b->visible_env];
    struct gl_gpu_request *g = launch_add_gpu(b, GL_GPU_ENV_VISIBLE,
                                              &(struct lv){.cmd = cmd, .text = ""});
    g->value = e->value ? e->value : e->key; /* -e NVIDIA_VISIBLE_DEVICES: unknown */
    g->loc = g->memory_loc = e->value_loc;
    if (e->value) {
        if (!strcmp(e->value, "all"))
            g->count = "all";
        else if (gl_has_prefix(e->value, "MIG-")) {
            g->mig = true;
            b->l->mig = true;
        }
    }
}

void launch_docker_options(struct launch_build *b, const struct sh_cmd *cmd)
{
    bool ambiguous;
    size_t end = launch_walk_opts(b, cmd, 0, gl_docker_run_flags, apply, &ambiguous);
    if (end < cmd->nwords)
        b->l->opts_opaque = true; /* an operand among options: not what docker reads */
}

/* The first operand of cmd from word i: options of the given shorts / longs take the next
 * word (as `--author X`); SIZE_MAX when there is none or a word may be several. */
static size_t first_operand(const struct sh_cmd *cmd, size_t i, const char *shorts,
                            const char *const *longs)
{
    for (; i < cmd->nwords; i++) {
        const char *w = cmd->words[i].text;
        if (cmd->words[i].opaque && w[0] == '$')
            return SIZE_MAX; /* `$OPTS` may be options and operands at once */
        if (w[0] != '-' || !w[1])
            return i;
        bool takes = !w[2] && w[1] != '-' && strchr(shorts, w[1]);
        for (size_t k = 0; !takes && w[1] == '-' && longs[k]; k++)
            takes = gl_streq(w + 2, longs[k]);
        i += takes;
    }
    return SIZE_MAX;
}

void launch_docker_copy_out(struct gl_launch_scan *scan, const struct sh_cmd *cmd, size_t sub)
{
    static const char *const cp_long[] = {NULL};
    static const char *const commit_long[] = {"author", "change", "message", NULL};
    if (sub >= cmd->nwords || cmd->words[sub].opaque)
        return;
    bool cp = gl_streq(cmd->words[sub].text, "cp");
    if (!cp && !gl_streq(cmd->words[sub].text, "commit"))
        return;
    size_t at = first_operand(cmd, sub + 1, cp ? "" : "acm", cp ? cp_long : commit_long);
    if (at == SIZE_MAX)
        return;
    const char *w = cmd->words[at].text, *colon = strchr(w, ':');
    size_t n = cp ? (colon ? (size_t)(colon - w) : 0) : strlen(w);
    if (!n || memchr(w, '/', n)) /* `docker cp ./file NAME:/dst` copies in */
        return;
    const char *path = cp ? colon + 1 : "";
    size_t plen = strlen(path);
    if (cp && path[0] != '/')
        return;
    while (plen > 1 && (path[plen - 1] == '/' ||
                        (path[plen - 1] == '.' && path[plen - 2] == '/')))
        plen -= path[plen - 1] == '/' ? 1 : 2;
    struct gl_doc *doc = scan->doc;
    if (doc->ncopyouts >= GL_COPY_OUTS_MAX) /* GL402 compares each output path with each */
        return;
    struct gl_copy_out *c = GL_APPEND(&doc->arena, doc->copyouts, doc->ncopyouts,
                                      doc->capcopyouts);
    c->container = gl_arena_strndup(&doc->arena, w, n);
    c->path = gl_arena_strndup(&doc->arena, path, plen == 1 ? 0 : plen);
}
