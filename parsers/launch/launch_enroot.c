/* SPDX-License-Identifier: Apache-2.0 */
/* launch_enroot.c: `enroot import docker://IMAGE` (an image reference) and `enroot start`
 * (a launch), see launch_slurm.h. `enroot create` unpacks a local .sqsh: nothing to read. */
#include <string.h>

#include "linter/core/imageref.h"
#include "parsers/launch/launch_slurm.h"

/* enroot 3.5 `start` (doc/cmd/start.md) */
static const struct gl_cli_flag enroot_start_flags[] = {
    {"conf", 'c', GL_FLAG_VALUE, GL_FLAG_OTHER},
    {"env", 'e', GL_FLAG_VALUE, GL_FLAG_OTHER},
    {"rc", 0, GL_FLAG_VALUE, GL_FLAG_OTHER},
    {"root", 'r', GL_FLAG_BOOL, GL_FLAG_OTHER},
    {"rw", 'w', GL_FLAG_BOOL, GL_FLAG_OTHER},
    {"mount", 'm', GL_FLAG_VALUE, GL_FLAG_OTHER},
    {"pid", 0, GL_FLAG_BOOL, GL_FLAG_OTHER},
    {"net", 0, GL_FLAG_BOOL, GL_FLAG_OTHER},
    {"ipc", 0, GL_FLAG_BOOL, GL_FLAG_OTHER},
    {"uts", 0, GL_FLAG_BOOL, GL_FLAG_OTHER},
    {NULL, 0, GL_FLAG_BOOL, GL_FLAG_OTHER},
};

/* enroot 3.5 `import` */
static const struct gl_cli_flag enroot_import_flags[] = {
    {"arch", 'a', GL_FLAG_VALUE, GL_FLAG_OTHER},
    {"output", 'o', GL_FLAG_VALUE, GL_FLAG_OTHER},
    {NULL, 0, GL_FLAG_BOOL, GL_FLAG_OTHER},
};

static void apply_start(struct launch_build *b, const struct gl_cli_flag *f,
                        const struct lv *flag, const struct lv *val)
{
    (void)flag;
    if (!f || !val)
        return;
    if (!strcmp(f->name, "mount"))
        slurm_mount(b, val, 0, val->len);
    else if (!strcmp(f->name, "env"))
        launch_add_env(b, val);
}

static void ignore(struct launch_build *b, const struct gl_cli_flag *f, const struct lv *flag,
                   const struct lv *val)
{
    (void)b, (void)f, (void)flag, (void)val;
}

void launch_enroot(struct gl_launch_scan *s, const struct sh_cmd *cmd, size_t tool_wi,
                   const struct slurm_req *step)
{
    size_t n = cmd->nwords, sub = tool_wi + 1;
    if (sub >= n || cmd->words[sub].opaque)
        return;
    const char *w = cmd->words[sub].text;
    if (strcmp(w, "import") && strcmp(w, "start"))
        return; /* create, list, remove, export, ... */
    bool ambiguous;
    struct launch_build b;
    launch_begin(&b, s, GL_LAUNCH_ENROOT, "enroot", cmd->words[tool_wi].loc);
    if (!strcmp(w, "import")) {
        size_t image = launch_walk_opts(&b, cmd, sub + 1, enroot_import_flags, ignore, &ambiguous);
        s->doc->nlaunches--; /* an import starts nothing: only its reference stays */
        if (image < n && !cmd->words[image].opaque &&
            gl_has_prefix(cmd->words[image].text, "docker://")) {
            struct lv img = lv_word(&s->doc->arena, cmd, image);
            slurm_set_image(&b, &img);
            s->doc->refs[s->doc->nrefs - 1].launch = -1;
        }
        return;
    }
    b.l->host_ipc = true;
    b.l->gpus_outside = !step;
    if (step)
        slurm_add_gpus(&b, step);
    size_t image = launch_walk_opts(&b, cmd, sub + 1, enroot_start_flags, apply_start, &ambiguous);
    if (image < n) {
        struct lv img = lv_word(&s->doc->arena, cmd, image);
        /* NAME of an `enroot create`d container, or an image file: both local */
        if (!img.opaque && (strchr(img.text, '/') || strchr(img.text, '.')))
            slurm_set_image(&b, &img);
        if (b.l->ref >= 0)
            s->doc->refs[b.l->ref].local = true;
        launch_set_argv(&b, cmd, image + 1);
    }
    if (ambiguous || (image >= n && b.l->opts_opaque))
        b.l->argv_opaque = true;
}
