/* SPDX-License-Identifier: Apache-2.0 */
/* launch_apptainer.c: `apptainer|singularity exec|run|shell|instance start` command lines
 * into launches (see launch_shell.h). */
#include <string.h>

#include "linter/core/ref/imageref.h"
#include "parsers/launch/launch_internal.h"

/* The options of exec/run/shell/instance start (apptainer 1.3, singularity 3/4) that take
 * a value, and the boolean ones with a shorthand; any other option takes none. */
static const struct gl_cli_flag apptainer_flags[] = {
    {"add-caps", 0, GL_FLAG_VALUE, GL_FLAG_OTHER},
    {"app", 0, GL_FLAG_VALUE, GL_FLAG_OTHER},
    {"apply-cgroups", 0, GL_FLAG_VALUE, GL_FLAG_OTHER},
    {"authfile", 0, GL_FLAG_VALUE, GL_FLAG_OTHER},
    {"bind", 'B', GL_FLAG_VALUE, GL_FLAG_OTHER},
    {"blkio-weight", 0, GL_FLAG_VALUE, GL_FLAG_OTHER},
    {"blkio-weight-device", 0, GL_FLAG_VALUE, GL_FLAG_OTHER},
    {"cdi-dirs", 0, GL_FLAG_VALUE, GL_FLAG_OTHER},
    {"cleanenv", 'e', GL_FLAG_BOOL, GL_FLAG_OTHER},
    {"contain", 'c', GL_FLAG_BOOL, GL_FLAG_OTHER},
    {"containall", 'C', GL_FLAG_BOOL, GL_FLAG_OTHER},
    {"cpu-shares", 0, GL_FLAG_VALUE, GL_FLAG_OTHER},
    {"cpus", 0, GL_FLAG_VALUE, GL_FLAG_OTHER},
    {"cpuset-cpus", 0, GL_FLAG_VALUE, GL_FLAG_OTHER},
    {"cpuset-mems", 0, GL_FLAG_VALUE, GL_FLAG_OTHER},
    {"cwd", 0, GL_FLAG_VALUE, GL_FLAG_OTHER},
    {"device", 0, GL_FLAG_VALUE, GL_FLAG_OTHER},
    {"dns", 0, GL_FLAG_VALUE, GL_FLAG_OTHER},
    {"docker-host", 0, GL_FLAG_VALUE, GL_FLAG_OTHER},
    {"drop-caps", 0, GL_FLAG_VALUE, GL_FLAG_OTHER},
    {"env", 0, GL_FLAG_VALUE, GL_FLAG_OTHER},
    {"env-file", 0, GL_FLAG_VALUE, GL_FLAG_OTHER},
    {"fakeroot", 'f', GL_FLAG_BOOL, GL_FLAG_OTHER},
    {"fusemount", 0, GL_FLAG_VALUE, GL_FLAG_OTHER},
    {"home", 'H', GL_FLAG_VALUE, GL_FLAG_OTHER},
    {"hostname", 0, GL_FLAG_VALUE, GL_FLAG_OTHER},
    {"ipc", 'i', GL_FLAG_BOOL, GL_FLAG_OTHER},
    {"memory", 0, GL_FLAG_VALUE, GL_FLAG_OTHER},
    {"memory-reservation", 0, GL_FLAG_VALUE, GL_FLAG_OTHER},
    {"memory-swap", 0, GL_FLAG_VALUE, GL_FLAG_OTHER},
    {"mount", 0, GL_FLAG_VALUE, GL_FLAG_OTHER},
    {"network", 0, GL_FLAG_VALUE, GL_FLAG_OTHER},
    {"network-args", 0, GL_FLAG_VALUE, GL_FLAG_OTHER},
    {"no-mount", 0, GL_FLAG_VALUE, GL_FLAG_OTHER},
    {"nv", 0, GL_FLAG_BOOL, GL_FLAG_OTHER},
    {"nvccli", 0, GL_FLAG_BOOL, GL_FLAG_OTHER},
    {"oom-kill-disable", 0, GL_FLAG_BOOL, GL_FLAG_OTHER},
    {"overlay", 'o', GL_FLAG_VALUE, GL_FLAG_OTHER},
    {"pem-path", 0, GL_FLAG_VALUE, GL_FLAG_OTHER},
    {"pid", 'p', GL_FLAG_BOOL, GL_FLAG_OTHER},
    {"pid-file", 0, GL_FLAG_VALUE, GL_FLAG_OTHER},
    {"pids-limit", 0, GL_FLAG_VALUE, GL_FLAG_OTHER},
    {"pwd", 0, GL_FLAG_VALUE, GL_FLAG_OTHER},
    {"rocm", 0, GL_FLAG_BOOL, GL_FLAG_OTHER},
    {"scratch", 'S', GL_FLAG_VALUE, GL_FLAG_OTHER},
    {"security", 0, GL_FLAG_VALUE, GL_FLAG_OTHER},
    {"userns", 'u', GL_FLAG_BOOL, GL_FLAG_OTHER},
    {"workdir", 'W', GL_FLAG_VALUE, GL_FLAG_OTHER},
    {"writable", 'w', GL_FLAG_BOOL, GL_FLAG_OTHER},
    {NULL, 0, GL_FLAG_BOOL, GL_FLAG_OTHER},
};

/* --env A=1,B=2 (pflag stringToString: a field without '=' continues the previous value,
 * so CUDA_VISIBLE_DEVICES=0,1 stays one variable). */
static void env_list(struct launch_build *b, const struct lv *v)
{
    struct gl_arena *a = &b->doc->arena;
    size_t start = 0, i = 0;
    while (i <= v->len && !lv_over(b->doc, v, i)) { /* (parse-memory: the rest unread) */
        size_t j = i;
        while (j < v->len && v->text[j] != ',')
            j++;
        size_t next = j + 1;
        /* does the next field start a new variable? */
        size_t k = next;
        while (k < v->len && v->text[k] != ',' && v->text[k] != '=')
            k++;
        if (next > v->len || (k < v->len && v->text[k] == '=')) {
            struct lv kv = lv_sub(a, v, start, j - start);
            launch_add_env(b, &kv);
            start = next;
        }
        i = next;
    }
}

static void apply(struct launch_build *b, const struct gl_cli_flag *f, const struct lv *flag,
                  const struct lv *val)
{
    if (!f)
        return;
    if (!strcmp(f->name, "nv") || !strcmp(f->name, "nvccli")) {
        if (!val || value_true(val->text)) {
            launch_add_gpu(b, GL_GPU_APPTAINER_NV, flag);
            b->l->apptainer_nv = true;
        }
        return;
    }
    if (!strcmp(f->name, "rocm")) {
        b->l->apptainer_rocm = !val || value_true(val->text);
        return;
    }
    if (!strcmp(f->name, "writable")) {
        b->l->apptainer_writable = !val || value_true(val->text);
        return;
    }
    if (!val)
        return;
    if (!strcmp(f->name, "bind"))
        value_apptainer_bind(b, val);
    else if (!strcmp(f->name, "mount"))
        value_mount(b, val);
    else if (!strcmp(f->name, "env"))
        env_list(b, val);
    else if (!strcmp(f->name, "workdir") || !strcmp(f->name, "pwd"))
        b->l->workdir = val->text;
}

/* APPTAINERENV_X=v / SINGULARITYENV_X=v before the command set X in the container. */
static void prefix_env(struct launch_build *b, const struct sh_cmd *cmd)
{
    static const char *const prefixes[] = {"APPTAINERENV_", "SINGULARITYENV_"};
    struct gl_doc *doc = b->doc;
    for (size_t i = 0; i < cmd->nassigns; i++) {
        const struct sh_assign *as = &cmd->assigns[i];
        for (size_t k = 0; k < 2; k++) {
            size_t pl = strlen(prefixes[k]);
            if (!gl_has_prefix(as->name, prefixes[k]) || !as->name[pl])
                continue;
            struct gl_env *e = GL_APPEND(&doc->arena, doc->env, doc->nenv, doc->capenv);
            memset(e, 0, sizeof *e);
            e->key = as->name + pl;
            e->key_loc = (struct gl_loc){as->loc.line, as->loc.col + (uint32_t)pl};
            e->value = as->opaque ? NULL : as->value;
            e->value_loc = as->value_loc;
            e->origin = GL_ENV_LAUNCH;
            e->stage = -1;
            e->launch = b->index;
        }
    }
}

void launch_apptainer(struct gl_launch_scan *scan, const struct sh_cmd *cmd, size_t tool_wi,
                      size_t first, const char *tool, bool instance_start)
{
    struct launch_build b;
    launch_begin(&b, scan, GL_LAUNCH_APPTAINER, tool, cmd->words[tool_wi].loc);
    prefix_env(&b, cmd);
    bool ambiguous;
    size_t image = launch_walk_opts(&b, cmd, first, apptainer_flags, apply, &ambiguous);
    if (image < cmd->nwords) {
        struct lv img = lv_word(&b.doc->arena, cmd, image);
        launch_set_apptainer_image(&b, &img);
        size_t args = image + 1 + (instance_start ? 1 : 0); /* the instance name */
        launch_set_argv(&b, cmd, args < cmd->nwords ? args : cmd->nwords);
    }
    if (ambiguous || (image >= cmd->nwords && b.l->opts_opaque))
        b.l->argv_opaque = true;
    if (instance_start || !strcmp(cmd->sep, "&")) {
        b.l->detached = true; /* an instance runs on in the background */
        b.l->group = gl_launch_group(scan);
    }
}

void launch_apptainer_fetch(struct gl_launch_scan *scan, const struct sh_cmd *cmd, size_t first)
{
    /* `pull [opts] [FILE] docker://IMG`, `build [opts] FILE docker://IMG`: the one operand
     * with the docker:// scheme is the source (no option value starts with it) */
    static const char scheme[] = "docker://";
    for (size_t k = first; k < cmd->nwords; k++) {
        struct lv w = lv_word(&scan->doc->arena, cmd, k);
        if (w.opaque || !gl_has_prefix(w.text, scheme) || !w.text[sizeof scheme - 1])
            continue;
        gl_ref_add(scan->doc, w.text + sizeof scheme - 1, lv_loc(&w, sizeof scheme - 1),
                   GL_REF_DEF_FROM, false);
        return;
    }
}
