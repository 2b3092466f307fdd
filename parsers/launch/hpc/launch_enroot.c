/* SPDX-License-Identifier: Apache-2.0 */
/* launch_enroot.c: `enroot import docker://IMAGE` (an image reference) and `enroot start`
 * (a launch), see launch_slurm.h. What an import writes (`-o FILE`, else enroot's own name
 * for it: the image path after the registry's `#`, `/` and `:` made `+`, and `.sqsh`) and
 * what `enroot create [-n NAME] FILE` unpacks it to are remembered for the scan, so that an
 * `enroot start` of that file or name runs the imported image (a GL_REF_ELSEWHERE
 * reference: the image rules judge it at the import; GL407 knows what it runs). */
#include <string.h>

#include "linter/core/ref/imageref.h"
#include "parsers/launch/hpc/launch_slurm.h"

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

/* enroot 3.5 `create` */
static const struct gl_cli_flag enroot_create_flags[] = {
    {"name", 'n', GL_FLAG_VALUE, GL_FLAG_OTHER},
    {"force", 'f', GL_FLAG_BOOL, GL_FLAG_OTHER},
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

/* An import or create being read, with its -o/--output or -n/--name value (launch_opt_fn
 * gets the launch_build, this struct's first member). */
struct named_build {
    struct launch_build b;
    const char *value;       /* the option's value (arena), NULL when not given */
    bool opaque;
};

static void take_name(struct launch_build *b, const struct gl_cli_flag *f, const struct lv *flag,
                      const struct lv *val)
{
    (void)flag;
    struct named_build *nb = (struct named_build *)b;
    if (f && val && (!strcmp(f->name, "output") || !strcmp(f->name, "name"))) {
        nb->value = val->text; /* (val itself lives only as long as the call) */
        nb->opaque = val->opaque;
    }
}

/* At most this many are remembered (a start looks through them all). */
#define MAX_ENROOT_IMAGES 64

static void remember(struct gl_launch_scan *s, const char *name, const char *image)
{
    if (s->nenroot >= MAX_ENROOT_IMAGES)
        return;
    struct gl_enroot_image *e = GL_APPEND(&s->doc->arena, s->enroot, s->nenroot, s->capenroot);
    e->name = name;
    e->image = image;
}

/* The image a file or container name was made from, NULL when the scan made none such. */
static const char *made_from(const struct gl_launch_scan *s, const char *name)
{
    const char *base = strrchr(name, '/');
    base = base ? base + 1 : name;
    for (size_t k = s->nenroot; k-- > 0;)
        if (!strcmp(s->enroot[k].name, name) || !strcmp(s->enroot[k].name, base))
            return s->enroot[k].image;
    return NULL;
}

/* enroot's own name for what `import docker://URI` writes: `nvcr.io#nvidia/pytorch:24.05`
 * -> `nvidia+pytorch+24.05.sqsh` (the user@ and registry# parts dropped). */
static const char *import_name(struct gl_arena *a, const char *uri)
{
    const char *p = uri + strlen("docker://");
    const char *at = strchr(p, '@'), *hash = strchr(p, '#');
    if (at && (!hash || at < hash))
        p = at + 1;
    if (hash)
        p = hash + 1;
    char *out = gl_arena_printf(a, "%s.sqsh", p);
    for (char *c = out; *c && c < out + strlen(p); c++)
        if (*c == '/' || *c == ':')
            *c = '+';
    return out;
}

static void import(struct gl_launch_scan *s, const struct sh_cmd *cmd, size_t first)
{
    size_t n = cmd->nwords;
    struct named_build nb;
    memset(&nb, 0, sizeof nb);
    bool ambiguous;
    launch_begin(&nb.b, s, GL_LAUNCH_ENROOT, "enroot", cmd->words[first - 1].loc);
    size_t image = launch_walk_opts(&nb.b, cmd, first, enroot_import_flags, take_name, &ambiguous);
    s->doc->nlaunches--; /* an import starts nothing: only its reference stays */
    if (image >= n || cmd->words[image].opaque ||
        !gl_has_prefix(cmd->words[image].text, "docker://"))
        return;
    struct lv img = lv_word(&s->doc->arena, cmd, image);
    size_t before = s->doc->nrefs;
    slurm_set_image(&nb.b, &img);
    if (s->doc->nrefs == before)
        return;
    struct gl_ref *r = &s->doc->refs[s->doc->nrefs - 1];
    r->launch = -1;
    if (!r->ok || r->unresolved || nb.opaque || ambiguous)
        return;
    remember(s, nb.value ? nb.value : import_name(&s->doc->arena, img.text), r->text);
}

static void create(struct gl_launch_scan *s, const struct sh_cmd *cmd, size_t first)
{
    struct named_build nb;
    memset(&nb, 0, sizeof nb);
    bool ambiguous;
    launch_begin(&nb.b, s, GL_LAUNCH_ENROOT, "enroot", cmd->words[first - 1].loc);
    size_t file = launch_walk_opts(&nb.b, cmd, first, enroot_create_flags, take_name, &ambiguous);
    s->doc->nlaunches--; /* create unpacks a file: nothing runs */
    if (file >= cmd->nwords || cmd->words[file].opaque || nb.opaque || ambiguous)
        return;
    const char *f = cmd->words[file].text, *image = made_from(s, f);
    if (!image)
        return;
    const char *name = nb.value;
    if (!name) { /* enroot's default: the file's name without its extension */
        const char *base = strrchr(f, '/');
        base = base ? base + 1 : f;
        const char *dot = strrchr(base, '.');
        name = gl_arena_strndup(&s->doc->arena, base, dot ? (size_t)(dot - base) : strlen(base));
    }
    remember(s, name, image);
}

void launch_enroot(struct gl_launch_scan *s, const struct sh_cmd *cmd, size_t tool_wi,
                   const struct slurm_req *step)
{
    size_t n = cmd->nwords, sub = tool_wi + 1;
    if (sub >= n || cmd->words[sub].opaque)
        return;
    const char *w = cmd->words[sub].text;
    if (!strcmp(w, "import")) {
        import(s, cmd, sub + 1);
        return;
    }
    if (!strcmp(w, "create")) {
        create(s, cmd, sub + 1);
        return;
    }
    if (strcmp(w, "start"))
        return; /* list, remove, export, ... */
    bool ambiguous;
    struct launch_build b;
    launch_begin(&b, s, GL_LAUNCH_ENROOT, "enroot", cmd->words[tool_wi].loc);
    b.l->host_ipc = true;
    b.l->gpus_outside = !step;
    if (step)
        slurm_add_gpus(&b, step);
    size_t image = launch_walk_opts(&b, cmd, sub + 1, enroot_start_flags, apply_start, &ambiguous);
    if (image < n) {
        struct lv img = lv_word(&s->doc->arena, cmd, image);
        const char *made = img.opaque ? NULL : made_from(s, img.text);
        if (made) { /* what an import of the scan wrote: that image runs */
            b.l->ref = (int)s->doc->nrefs;
            struct gl_ref *r = gl_ref_add(s->doc, made, img.cmd->words[img.wi].loc,
                                          GL_REF_ELSEWHERE, false);
            r->launch = b.index;
        } else if (!img.opaque && (strchr(img.text, '/') || strchr(img.text, '.'))) {
            /* NAME of an `enroot create`d container, or an image file: both local */
            slurm_set_image(&b, &img);
        }
        if (b.l->ref >= 0 && !made)
            s->doc->refs[b.l->ref].local = true;
        launch_set_argv(&b, cmd, image + 1);
    }
    if (ambiguous || (image >= n && b.l->opts_opaque))
        b.l->argv_opaque = true;
}
