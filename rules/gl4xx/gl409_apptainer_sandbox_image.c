/* SPDX-License-Identifier: Apache-2.0 */
/* GL409 apptainer-sandbox-image: the image is a sandbox directory, not a .sif. */
#include "rules/check.h"
#include "rules/gl4xx/launch_paths.h"

static void judge(struct gl_check *c, struct gl_launch_facts *f, size_t i)
{
    (void)f;
    const struct gl_launch *l = &c->doc->launches[i];
    /* --writable changes the sandbox (installs into it before a .sif is built from it):
     * only a sandbox can be changed so */
    if (l->kind != GL_LAUNCH_APPTAINER || !l->apptainer_sandbox || l->apptainer_writable)
        return;
    const struct gl_ref *r = gl_launch_ref(c->doc, l);
    gl_report(c, gl_launch_image_loc(c->doc, l), NULL,
              "%s runs the sandbox directory `%s` instead of a .sif image: uid mapping "
              "breaks on NFS/Lustre/GPFS and every file is a separate metadata lookup",
              l->tool ? l->tool : "apptainer", r && r->text ? r->text : "?");
}

static void check(struct gl_check *c) { gl_check_launches(c, judge); }

const struct gl_rule gl_rule_GL409 = {
    .id = "GL409",
    .name = "apptainer-sandbox-image",
    .severity = GL_SEV_INFO,
    .summary = "the apptainer image is a sandbox directory rather than a .sif",
    .explanation =
        "A sandbox (`apptainer build --sandbox`) is a plain directory tree. On the shared "
        "filesystems of HPC clusters (NFS, Lustre, GPFS) its files keep the builder's uids, "
        "which breaks under user namespaces, and starting a Python stack means thousands of "
        "metadata lookups on the parallel filesystem. A `.sif` is one squashfs file: mounted "
        "once, read locally. Not for a `--writable` run, which changes the sandbox (installs "
        "into it before a .sif is built from it): only a sandbox can be changed so.",
    .bad = "apptainer exec --nv ./pytorch_sandbox/ python train.py",
    .good = "apptainer build pytorch.sif ./pytorch_sandbox/\n"
            "apptainer exec --nv pytorch.sif python train.py",
    .fix = "build a .sif from it: apptainer build image.sif <sandbox-dir>",
    .check = check,
};
