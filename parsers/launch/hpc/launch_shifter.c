/* SPDX-License-Identifier: Apache-2.0 */
/* launch_shifter.c: NERSC's Shifter (see launch_slurm.h). `shifter [opts] CMD...` runs CMD
 * in the image its `-i/--image` names, else in the one the Slurm job or step asked for with
 * Shifter's SPANK option (`#SBATCH --image=docker:IMG`, `srun --image ...`): a launch of
 * that image, as an `enroot start` is. `shifterimg pull IMG` is an image reference. */
#include <string.h>

#include "parsers/launch/hpc/launch_slurm.h"

/* shifter 18.03 (doc/command/shifter.rst and its --help); `--entrypoint` and `--workdir`
 * take their value only after `=` */
static const struct gl_cli_flag shifter_flags[] = {
    {"image", 'i', GL_FLAG_VALUE, GL_FLAG_OTHER},
    {"volume", 'V', GL_FLAG_VALUE, GL_FLAG_OTHER},
    {"module", 'm', GL_FLAG_VALUE, GL_FLAG_OTHER},
    {"env", 'e', GL_FLAG_VALUE, GL_FLAG_OTHER},
    {"env-file", 0, GL_FLAG_VALUE, GL_FLAG_OTHER},
    {"clearenv", 'E', GL_FLAG_BOOL, GL_FLAG_OTHER},
    {"entrypoint", 0, GL_FLAG_BOOL, GL_FLAG_OTHER},
    {"workdir", 0, GL_FLAG_BOOL, GL_FLAG_OTHER},
    {"verbose", 'v', GL_FLAG_BOOL, GL_FLAG_OTHER},
    {"help", 'h', GL_FLAG_BOOL, GL_FLAG_OTHER},
    {NULL, 0, GL_FLAG_BOOL, GL_FLAG_OTHER},
};

/* A launch being read, with the value of its --image (launch_opt_fn gets the launch_build,
 * this struct's first member). */
struct shifter_build {
    struct launch_build b;
    struct lv image;
};

/* `--module=LIST` (comma-separated): the modules the site configured, which replace its
 * default ones (udiRoot.conf `defaultModules`; `none` turns every module off,
 * doc/modules.rst). The `gpu` module gives the container the GPUs the job holds: a
 * GL_GPU_SITE_MODULE request at its name. Without `--module` the site's defaults apply,
 * which gpulint cannot see. */
static void modules(struct launch_build *b, const struct lv *val)
{
    if (val->opaque)
        return;
    for (size_t s = 0; s < val->len;) {
        size_t e = s;
        while (e < val->len && val->text[e] != ',')
            e++;
        if (e - s == 3 && !memcmp(val->text + s, "gpu", 3)) {
            struct lv name = lv_sub(&b->doc->arena, val, s, 3);
            launch_add_gpu(b, GL_GPU_SITE_MODULE, &name);
            return;
        }
        s = e + 1;
    }
}

static void apply(struct launch_build *b, const struct gl_cli_flag *f, const struct lv *flag,
                  const struct lv *val)
{
    (void)flag;
    if (!f || !val)
        return;
    if (!strcmp(f->name, "module"))
        modules(b, val);
    else if (!strcmp(f->name, "image"))
        ((struct shifter_build *)b)->image = *val;
    else if (!strcmp(f->name, "volume")) /* SRC:DST[:FLAGS][;SRC:DST...], `ro` a flag */
        slurm_mount_list(b, val, ';');
    else if (!strcmp(f->name, "env"))
        launch_add_env(b, val);
}

/* Shifter's `TYPE:SPECIFIER`: a `docker:` image is a registry reference (the type may be
 * left out: docker is the default); `id:`, `custom:` and `local:` name no registry image,
 * so nothing is referenced. */
static void set_image(struct launch_build *b, const struct lv *img)
{
    if (!img->text || img->opaque || !img->len)
        return;
    static const char *const other_types[] = {"id:", "custom:", "local:", NULL};
    for (size_t k = 0; other_types[k]; k++)
        if (gl_has_prefix(img->text, other_types[k]))
            return;
    size_t skip = gl_has_prefix(img->text, "docker:") ? 7 : 0;
    struct lv spec = lv_sub(&b->doc->arena, img, skip, img->len - skip);
    slurm_set_image(b, &spec);
}

void launch_shifter(struct gl_launch_scan *s, const struct sh_cmd *cmd, size_t tool_wi,
                    const struct slurm_req *step, bool srun)
{
    struct shifter_build sb;
    memset(&sb, 0, sizeof sb);
    bool ambiguous;
    launch_begin(&sb.b, s, GL_LAUNCH_ENROOT, "shifter", cmd->words[tool_wi].loc);
    struct launch_build *b = &sb.b;
    b->l->host_ipc = true; /* the host's /dev/shm and the caller's limits, as apptainer */
    b->l->gpus_outside = !step;
    if (step)
        slurm_add_gpus(b, step);
    if (step && srun) /* the step starts its tasks in the container (GL415) */
        slurm_set_tasks(b, step);
    size_t first = launch_walk_opts(b, cmd, tool_wi + 1, shifter_flags, apply, &ambiguous);
    if (sb.image.text)
        set_image(b, &sb.image);
    else if (step && step->shifter_image.v.text)
        set_image(b, &step->shifter_image.v);
    if (first < cmd->nwords && !ambiguous)
        launch_set_argv(b, cmd, first);
    else
        b->l->argv_opaque = true;
}

void launch_shifterimg(struct gl_launch_scan *s, const struct sh_cmd *cmd, size_t tool_wi)
{
    size_t n = cmd->nwords, i = tool_wi + 1;
    while (i < n && !cmd->words[i].opaque && cmd->words[i].text[0] == '-')
        i++; /* -v, --verbose */
    if (i + 1 >= n || cmd->words[i].opaque || strcmp(cmd->words[i].text, "pull"))
        return;
    struct launch_build b;
    launch_begin(&b, s, GL_LAUNCH_ENROOT, "shifterimg", cmd->words[tool_wi].loc);
    s->doc->nlaunches--; /* a pull starts nothing: only its reference stays */
    struct lv img = lv_word(&s->doc->arena, cmd, i + 1);
    size_t before = s->doc->nrefs;
    set_image(&b, &img);
    if (s->doc->nrefs > before)
        s->doc->refs[s->doc->nrefs - 1].launch = -1;
}
