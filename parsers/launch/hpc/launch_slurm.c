/* SPDX-License-Identifier: Apache-2.0 */
/* launch_slurm.c: Slurm job steps as launches (see launch_shell.h, slurm_opts.h): the
 * `#SBATCH` block of a batch script, `srun` (bare on the host, or in a pyxis container),
 * `salloc ... srun`, `sbatch --wrap`, and the GPU request a step inherits. */
#include "parsers/launch/hpc/launch_slurm.h"

#include <string.h>

#include "linter/core/ref/imageref.h"
#include "linter/core/limits.h"

/* The location of byte `off` of text, on line `line` that starts at byte `bol` (through
 * map when there is one). */
static struct gl_loc text_loc(size_t off, uint32_t line, size_t bol, const struct gl_srcmap *map)
{
    if (map)
        return gl_srcmap_loc(map, off);
    return (struct gl_loc){line, (uint32_t)(off - bol) + 1};
}

/* An image of the batch step: `#SBATCH --container-image` runs the script in it. */
void slurm_batch_container(struct gl_launch_scan *s, const struct slurm_req *r, struct gl_loc at)
{
    struct launch_build b;
    launch_begin(&b, s, GL_LAUNCH_SLURM, "sbatch", at);
    b.l->host_ipc = true;
    b.l->argv_opaque = true; /* the script itself */
    slurm_add_gpus(&b, r);
    slurm_set_tasks(&b, r);
    slurm_container(&b, r);
}

void slurm_directives(struct gl_launch_scan *s, const char *text, size_t len,
                      const struct gl_srcmap *map)
{
    struct gl_arena *a = &s->doc->arena;
    struct slurm_req *r = NULL;
    struct gl_loc first = {0, 0};
    s->batch = NULL;
    uint32_t line = 1, line_at = 1;
    size_t last = 0, last_bol = 0;
    for (size_t i = 0; i < len && !gl_arena_over(a); line++) {
        const char *nl = memchr(text + i, '\n', len - i);
        size_t e = nl ? (size_t)(nl - text) : len, p = i;
        last = p, last_bol = i, line_at = line;
        while (p < e && (text[p] == ' ' || text[p] == '\t'))
            p++;
        if (p < e && text[p] != '#')
            break; /* sbatch reads directives up to the first command */
        if (e - p > 8 && !memcmp(text + p, "#SBATCH", 7) &&
            (text[p + 7] == ' ' || text[p + 7] == '\t')) {
            if (!r) {
                r = gl_arena_alloc(a, sizeof *r);
                memset(r, 0, sizeof *r);
                first = text_loc(p, line, i, map);
            }
            struct gl_srcmap *m = gl_arena_alloc(a, sizeof *m); /* the words keep it */
            gl_srcmap_init(m, a);
            struct gl_loc at = text_loc(p + 7, line, i, map);
            gl_srcmap_add(m, 0, at.line, at.col);
            struct sh_vars vars;
            sh_vars_init(&vars, a);
            /* a directive holds options only: a documentation placeholder among them
             * (`#SBATCH <SLURM OPTIONS> --nodes=128`) stands for options gpulint cannot
             * see, as `srun $ARGS` does, and the options after it are still read */
            struct sh_opts o = {.vars = &vars, .placeholders = true};
            struct sh_cmd *cmds;
            size_t n;
            struct sh_error err;
            sh_split(a, text + p + 7, e - p - 7, m, &o, &cmds, &n, &err);
            for (size_t w = 0; n && w < cmds[0].nwords; w++) {
                w = slurm_read_opts(a, &cmds[0], w, GL_SLURM_SBATCH, r);
                if (w < cmds[0].nwords && !cmds[0].words[w].opaque)
                    break; /* a word no option takes: sbatch's reading stops */
                r->opaque |= w < cmds[0].nwords;
            }
            /* a directive is a command for inline ignores: `# gpulint ignore=...` above
             * it covers a finding at it */
            struct gl_line_range *rg = GL_APPEND(a, s->ranges, s->nranges, s->capranges);
            rg->first = rg->last = at.line;
        }
        i = e + 1;
    }
    if (gl_arena_over(a) && !s->doc->error.set) /* stopped at this directive */
        gl_doc_fail_limit(s->doc, GL_LIMIT_PARSE_MEMORY, text_loc(last, line_at, last_bol, map));
    s->batch = r;
    if (r && r->image.v.text)
        slurm_batch_container(s, r, first);
}

static bool is_path(const char *t)
{
    return t[0] == '/' || t[0] == '.' || t[0] == '~' || t[0] == '$';
}

/* pyxis/enroot image URIs: `[docker://][USER@][REGISTRY#]IMAGE[:TAG]`, or a squashfs
 * file. The registry's `#` is read as `/`. */
void slurm_set_image(struct launch_build *b, const struct lv *img)
{
    if (!img->text || img->opaque || !img->len)
        return;
    struct gl_arena *a = &b->doc->arena;
    size_t skip = 0;
    if (gl_has_prefix(img->text, "docker://"))
        skip = 9;
    const char *t = img->text + skip;
    const char *at = strchr(t, '@'), *hash = strchr(t, '#');
    if (at && hash && at < hash)
        skip += (size_t)(at - t) + 1; /* user@registry#image */
    t = img->text + skip;
    char *text = gl_arena_strdup(a, t);
    char *h = strchr(text, '#');
    if (h)
        *h = '/';
    b->l->ref = (int)b->doc->nrefs;
    struct gl_ref *r = gl_ref_add(b->doc, text, lv_loc(img, skip), GL_REF_LAUNCH, false);
    r->launch = b->index;
    if (!skip && is_path(t))
        r->local = true; /* a squashfs file, an unpacked rootfs */
    size_t n = strlen(t);
    if (n > 5 && (!strcmp(t + n - 5, ".sqsh") || !strcmp(t + n - 5, ".sqfs")))
        r->local = true;
}

/* SRC:DST[:FLAGS] (pyxis joins flags with `+`, enroot fstab fields with `:` and `,`; `ro`
 * among them), SRC alone is SRC:SRC. */
void slurm_mount(struct launch_build *b, const struct lv *v, size_t start, size_t end)
{
    struct gl_arena *a = &b->doc->arena;
    size_t c1 = start;
    while (c1 < end && v->text[c1] != ':')
        c1++;
    size_t c2 = c1 < end ? c1 + 1 : end;
    while (c2 < end && v->text[c2] != ':')
        c2++;
    struct gl_mount *m = launch_add_mount(b);
    m->type = GL_MOUNT_BIND;
    m->source = gl_arena_strndup(a, v->text + start, c1 - start);
    m->target = c1 < end ? gl_arena_strndup(a, v->text + c1 + 1, c2 - c1 - 1) : m->source;
    m->loc = lv_loc(v, start);
    m->ro_loc = c2 < end ? lv_loc(v, c2 + 1) : lv_end_loc(v);
    if (c2 < end) {
        struct lv flags = lv_sub(a, v, c2 + 1, end - c2 - 1);
        for (size_t i = 0; i < flags.len;) {
            size_t j = i;
            while (j < flags.len && !strchr("+,:", flags.text[j]))
                j++;
            if (j - i == 2 && !memcmp(flags.text + i, "ro", 2))
                m->readonly = true;
            i = j + 1;
        }
    }
    /* a target gpulint cannot read (`$MOUNTS`, `/x:$DST`) may be any path: no finding may
     * rest on what it serves; an expansion in the source alone (`${SCRATCH}/data:/data`)
     * leaves the target known, as docker's `-v $PWD:/ws` does */
    if (v->opaque && strchr(m->target, '$')) {
        m->target = NULL;
        b->l->mounts_unseen = true;
    }
}

void slurm_mount_list(struct launch_build *b, const struct lv *v, char sep)
{
    /* (a mount a step: stops where parse-memory is reached, as launch_walk_opts does) */
    for (size_t i = 0; i <= v->len && !lv_over(b->doc, v, i);) {
        size_t j = i;
        while (j < v->len && v->text[j] != sep)
            j++;
        if (j > i)
            slurm_mount(b, v, i, j);
        i = j + 1;
    }
}

void slurm_container(struct launch_build *b, const struct slurm_req *r)
{
    slurm_set_image(b, &r->image.v);
    for (size_t k = 0; k < r->nmounts; k++)
        slurm_mount_list(b, &r->mounts[k].v, ',');
    if (!r->no_mount_home) { /* pyxis mounts the user's home by default */
        struct gl_mount *m = launch_add_mount(b);
        m->type = GL_MOUNT_BIND;
        m->source = "$HOME";
        m->target = "/home";
        m->loc = m->ro_loc = b->l->loc;
    }
    if (r->workdir.v.text && !r->workdir.v.opaque)
        b->l->workdir = r->workdir.v.text;
    /* --container-env=NAME[,NAME...]: the job's value of each name wins over the image's
     * ENV: an env entry of the launch whose value the job's environment gives (unknown) */
    const struct lv *env = &r->env.v;
    for (size_t i = 0; env->text && !env->opaque && i <= env->len &&
                       !lv_over(b->doc, env, i);) { /* (parse-memory) */
        size_t j = i;
        while (j < env->len && env->text[j] != ',')
            j++;
        size_t k = i; /* (a `NAME=VALUE` names NAME: pyxis reads no value there) */
        while (k < j && env->text[k] != '=')
            k++;
        if (k > i) {
            struct lv name = lv_sub(&b->doc->arena, env, i, k - i);
            launch_add_env(b, &name);
        }
        i = j + 1;
    }
}

/* Keep an interactive allocation for later texts of the scan: its values are located
 * through their command's map, which the caller may free with its text (a Markdown
 * block), so they get a copy of the command and of its map. */
static void keep_alloc(struct gl_launch_scan *s, const struct sh_cmd *cmd,
                       const struct slurm_req *r)
{
    struct gl_arena *a = &s->doc->arena;
    struct sh_cmd *c = gl_arena_alloc(a, sizeof *c);
    *c = *cmd;
    if (cmd->origin) {
        struct gl_srcmap *m = gl_arena_alloc(a, sizeof *m);
        *m = *cmd->origin;
        c->origin = m;
    }
    struct slurm_req *k = gl_arena_alloc(a, sizeof *k);
    *k = *r;
    struct slurm_opt *const opts[] = {&k->gres, &k->gpus, &k->gpus_per_node,
                                      &k->gpus_per_task, &k->nodes, &k->ntasks,
                                      &k->ntasks_per_node};
    for (size_t i = 0; i < sizeof opts / sizeof opts[0]; i++) {
        opts[i]->v.cmd = c;
        opts[i]->flag.cmd = c;
    }
    memset(&k->image, 0, sizeof k->image); /* pyxis options of salloc are its own step's */
    k->nmounts = 0;
    s->alloc = k;
}

size_t slurm_step(struct gl_launch_scan *s, const struct sh_cmd *cmd, size_t i,
                  struct slurm_req *out, bool *in_alloc)
{
    struct gl_arena *a = &s->doc->arena;
    const char *w = gl_base_name(cmd->words[i].text);
    unsigned bit = !strcmp(w, "srun") ? GL_SLURM_SRUN
                   : !strcmp(w, "salloc") ? GL_SLURM_SALLOC : GL_SLURM_SBATCH;
    struct slurm_req mine;
    memset(&mine, 0, sizeof mine);
    size_t next = slurm_read_opts(a, cmd, i + 1, bit, &mine);
    if (bit == GL_SLURM_SRUN && *in_alloc) {
        slurm_req_merge(out, out, &mine);
    } else if (bit == GL_SLURM_SRUN && (s->batch || s->alloc)) {
        slurm_req_merge(out, s->batch ? s->batch : s->alloc, &mine);
        *in_alloc = true;
    } else {
        *out = mine;
        *in_alloc = bit != GL_SLURM_SRUN; /* salloc and sbatch make the allocation */
        if (bit == GL_SLURM_SALLOC && next >= cmd->nwords) /* an interactive session */
            keep_alloc(s, cmd, &mine);
    }
    return next;
}

void launch_slurm_step(struct gl_launch_scan *s, const struct sh_cmd *cmd, size_t srun_wi,
                       size_t first, const struct slurm_req *r, bool in_alloc)
{
    struct launch_build b;
    launch_begin(&b, s, GL_LAUNCH_SLURM, "srun", cmd->words[srun_wi].loc);
    b.l->host_ipc = true;
    b.l->opts_opaque = r->opaque;
    b.l->gpus_outside = !in_alloc || slurm_req_whole_node(r);
    slurm_add_gpus(&b, r);
    slurm_set_tasks(&b, r);
    if (r->image.v.text)
        slurm_container(&b, r);
    else
        b.l->bare_metal = true;
    launch_set_argv(&b, cmd, first);
    if (!strcmp(cmd->sep, "&")) {
        b.l->detached = true;
        b.l->group = gl_launch_group(s);
    }
}

void slurm_attach(struct gl_launch_scan *s, size_t launch, const struct slurm_req *r)
{
    struct launch_build b = {.scan = s, .doc = s->doc, .index = (int)launch,
                             .l = &s->doc->launches[launch], .visible_env = -1};
    slurm_add_gpus(&b, r);
}
