/* SPDX-License-Identifier: Apache-2.0 */
/* GL303 dataset-in-image: datasets, checkpoints or weights copied into the image. */
#include <string.h>

#include "rules/check.h"
#include "rules/gl3xx/image_site.h"

#define DEFAULT_FILE_BYTES (100ull << 20)
#define DEFAULT_TOTAL_BYTES (1ull << 30)

static const char data_tail[] = "; every pull copies it and it is read through OverlayFS";

/* Is the last component of `path` (n bytes, no trailing slash) a Python site directory
 * (`site-packages`, `dist-packages`)? */
static bool site_dir(const char *path, size_t n)
{
    static const char *const dirs[] = {"site-packages", "dist-packages"};
    for (size_t i = 0; i < sizeof dirs / sizeof *dirs; i++) {
        size_t k = strlen(dirs[i]);
        if (n >= k && !memcmp(path + n - k, dirs[i], k) && (n == k || path[n - k - 1] == '/'))
            return true;
    }
    return false;
}

static bool pth_name(const char *path, size_t n)
{
    return n >= 4 && !memcmp(path + n - 4, ".pth", 4);
}

/* A `.pth` file that lands directly in a Python site directory is a path configuration
 * file the `site` module reads at start-up (`usercustomize.pth`, `distutils-precedence.pth`),
 * not PyTorch weights; one in a package below it (`site-packages/facexlib/weights/x.pth`) is
 * weights the package ships. `dest` is where it is copied to, a directory or the file's
 * name (NULL: `path` is where it lies). */
static bool python_site_file(const char *path, const char *dest)
{
    size_t n = strlen(path);
    while (n && path[n - 1] == '/')
        n--;
    if (!pth_name(path, n))
        return false;
    const char *at = dest ? dest : path;
    size_t m = strlen(at);
    while (m && at[m - 1] == '/')
        m--;
    if (site_dir(at, m))
        return true; /* `COPY x.pth .../site-packages/` */
    if (!pth_name(at, m))
        return false;
    while (m && at[m - 1] != '/')
        m--; /* the file's directory */
    while (m && at[m - 1] == '/')
        m--;
    return site_dir(at, m);
}

/* python_site_file for a COPY/ADD source: its destination as written, joined to the
 * WORKDIR when relative (`WORKDIR .../site-packages` then `COPY x.pth .`); false when the
 * destination is unknown. */
static bool python_site_copy(struct gl_arena *a, const struct gl_copy_src *s)
{
    if (!s->dest)
        return false;
    const char *dest = s->dest[0] == '/' ? s->dest : gl_image_path(a, s->workdir, s->dest);
    return dest && python_site_file(s->path, dest);
}

/* Data files (the configured path patterns) of the final view: each file at or over the
 * per-file threshold, or, when none is, the biggest once their total reaches the total
 * threshold. */
static void check_image(struct gl_check *c)
{
    const struct gl_image_model *im = c->doc->image;
    const struct gl_pattern *data_path = im ? gl_config_data_path(c->cfg) : NULL;
    if (!data_path)
        return;
    uint64_t one = c->cfg->data_file_bytes ? c->cfg->data_file_bytes : DEFAULT_FILE_BYTES;
    uint64_t all = c->cfg->data_total_bytes ? c->cfg->data_total_bytes : DEFAULT_TOTAL_BYTES;
    for (size_t i = 0; i < im->nplatforms; i++) {
        const struct gl_image_platform *p = &im->platforms[i];
        uint64_t total = 0;
        size_t count = 0;
        bool big = false;
        const struct gl_image_file *biggest = NULL;
        for (size_t k = 0; k < p->nfiles; k++) {
            const struct gl_image_file *f = &p->files[k];
            if (f->type != GL_FILE_REG ||
                !gl_pattern_match(data_path, f->path, strlen(f->path)) ||
                python_site_file(f->path, NULL))
                continue;
            total += f->size;
            count++;
            if (!biggest || f->size > biggest->size)
                biggest = f;
            if (f->size >= one) {
                gl_report_image_file(c, p, f, NULL, "the image holds data",
                                     ", %.1f MiB%s", (double)f->size / (1 << 20),
                                     data_tail);
                big = true;
            }
        }
        if (!big && biggest && total >= all) {
            gl_report_image_file(c, p, biggest, NULL, "the image holds data",
                                 ", the largest of %zu data files totalling %.1f GiB%s", count,
                                 (double)total / (1 << 30), data_tail);
        }
    }
}

static void check(struct gl_check *c)
{
    check_image(c);
    const struct gl_dockerfile_model *m = c->doc->df;
    const struct gl_pattern *data_path = m ? gl_config_data_path(c->cfg) : NULL;
    if (!data_path)
        return;
    struct gl_arena a;
    gl_arena_init(&a);
    for (size_t i = 0; i < m->ncopies; i++) {
        const struct gl_copy_src *s = &m->copies[i];
        if (!gl_df_stage_shipped(c->doc, s->stage))
            continue;
        /* match the path without a trailing slash too: `COPY data/ /data` */
        size_t n = strlen(s->path);
        if (!gl_pattern_match(data_path, s->path, n) || python_site_copy(&a, s))
            continue;
        gl_report(c, s->loc, NULL,
                  "`%s %s` bakes data into the image: every rebuild and pull copies it, "
                  "and it is read through OverlayFS", s->add ? "ADD" : "COPY", s->path);
    }
    gl_arena_free(&a);
}

const struct gl_rule gl_rule_GL303 = {
    .id = "GL303",
    .name = "dataset-in-image",
    .severity = GL_SEV_WARNING,
    .summary = "COPY/ADD brings dataset, checkpoint or weight paths into the image (data/, "
               "datasets/, checkpoints/, *.ckpt, *.pt, *.safetensors, ...), or an image's "
               "layers hold such files over a size threshold",
    .explanation =
        "Datasets and weights in an image make every layer push, pull and cache miss move "
        "gigabytes, tie the data's version to the code's, and are read through the "
        "container's OverlayFS instead of a local or network filesystem. Mount them at run "
        "time instead (`docker run -v /datasets/imagenet:/data:ro`, a Kubernetes volume), "
        "and keep them out of the build context with .dockerignore. Serving artefacts count "
        "too (`*.onnx`, `*.gguf`, TensorRT `*.plan` / `*.engine`). The path patterns are "
        "configurable. A `.pth` file copied into a Python site directory (`site-packages`, "
        "`dist-packages`) is a path configuration file the interpreter reads, not weights.",
    .bad = "FROM pytorch/pytorch:2.3.0-cuda12.1-cudnn8-runtime\nCOPY data/ /workspace/data/\n"
           "COPY model.safetensors /workspace/",
    .good = "FROM pytorch/pytorch:2.3.0-cuda12.1-cudnn8-runtime\n"
            "# docker run -v /datasets:/workspace/data:ro -v /models:/workspace/models:ro ...",
    .fix = "mount the data read-only at run time and add it to .dockerignore",
    .check = check,
};
