/* SPDX-License-Identifier: Apache-2.0 */
/* cuda_derive_runfile.c: the CUDA toolkit a Dockerfile installs with NVIDIA's runfile
 * installer (see cuda_derive_internal.h). */
#include "knowledge/derive/cuda_derive_internal.h"

#include <stdio.h>

/* The CUDA release in a runfile's name: `cuda_12.4.1_550.54.15_linux.run`, its `_sbsa`
 * and `_ppc64le` variants, and the older `cuda_10.2.89_440.33.01_linux.run` (the toolkit
 * release, then the driver it bundles). Writes "X.Y[.Z]" into out and sets *off and *len
 * to its bytes in name; false for any other name (`cuda_*.run`, `cuda-repo-*.deb`). */
static bool runfile_cuda(const char *name, char *out, size_t out_size, size_t *off,
                         size_t *len)
{
    const char *b = strrchr(name, '/');
    b = b ? b + 1 : name;
    if (strncmp(b, "cuda_", 5))
        return false;
    size_t n = strlen(b);
    if (n < 9 || strcmp(b + n - 4, ".run"))
        return false;
    const char *v = b + 5;
    size_t vn = strspn(v, "0123456789.");
    unsigned major = 0;
    if (!vn || vn >= out_size || v[vn] != '_' || !strstr(v + vn, "_linux"))
        return false;
    memcpy(out, v, vn);
    out[vn] = '\0';
    if (!gl_version_valid(out) || !gl_version_field(out, 0, &major) || major < 7 ||
        major > 13 || !strchr(out, '.'))
        return false;
    *off = (size_t)(v - name);
    *len = vn;
    return true;
}

/* Does the command run the installer named by word k: the word itself is the command
 * (`./cuda_12.4.1_550.54.15_linux.run --silent`), or the script of `sh`/`bash`, after any
 * `sudo` with its options and variables (`sudo TMPDIR=/data sh cuda_...run`)? A download
 * (`wget URL`) or a `chmod` installs nothing. */
static bool runs_word(const struct gl_cmd *cmd, size_t k)
{
    size_t first = 0;
    if (cmd->nwords && !strcmp(cmd->words[0].text, "sudo"))
        for (first = 1; first < cmd->nwords && first < k &&
                        (cmd->words[first].text[0] == '-' || strchr(cmd->words[first].text, '='));)
            first++;
    if (k == first)
        return true;
    if (k != first + 1)
        return false;
    const char *w = gl_base_name(cmd->words[first].text);
    return !strcmp(w, "sh") || !strcmp(w, "bash");
}

void cd_derive_runfiles(struct cd_ctx *c)
{
    const struct gl_dockerfile_model *m = c->doc->df;
    for (size_t i = 0; m && i < m->ncmds; i++) {
        const struct gl_cmd *cmd = &m->cmds[i];
        for (size_t k = 0; k < cmd->nwords && k < 6; k++) {
            const struct gl_word *w = &cmd->words[k];
            char v[16];
            size_t off, len;
            if (w->opaque || !runs_word(cmd, k) || !runfile_cuda(w->text, v, sizeof v, &off, &len))
                continue;
            struct gl_loc at = cd_written_loc(c, w->loc, strlen(w->text), w->text + off, len);
            const char *base = gl_base_name(w->text);
            cd_add(c, GL_CUDA_OS_PACKAGE, gl_arena_strdup(&c->doc->arena, v),
                   gl_arena_printf(&c->doc->arena, "runfile %s", base), NULL, at, cmd->stage)
                ->instr = cmd->instr;
            break;
        }
    }
}
