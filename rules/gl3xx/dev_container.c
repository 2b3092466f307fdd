/* SPDX-License-Identifier: Apache-2.0 */
/* dev_container.c: Dockerfiles of dev containers (see dev_container.h). */
#include "rules/gl3xx/dev_container.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "linter/core/finding.h"
#include "linter/core/model.h"
#include "linter/core/util.h"

/* Does path have a `.devcontainer` directory? */
static bool in_dev_dir(const char *path)
{
    static const char dir[] = ".devcontainer/";
    const size_t n = sizeof dir - 1;
    for (const char *p = path; (p = strstr(p, dir)); p += n)
        if (p == path || p[-1] == '/')
            return true;
    return false;
}

/* Is the working directory under a `.devcontainer` directory? The same for every relative
 * path of the run: asked of the system once (0 not yet, 1 no, 2 yes; two threads that ask
 * at once get the same answer). */
static bool cwd_in_dev_dir(void)
{
    static _Atomic int known;
    int k = atomic_load_explicit(&known, memory_order_relaxed);
    if (!k) {
        char cwd[4096];
        k = getcwd(cwd, sizeof cwd - 1) && (strcat(cwd, "/"), in_dev_dir(cwd)) ? 2 : 1;
        atomic_store_explicit(&known, k, memory_order_relaxed);
    }
    return k == 2;
}

bool gl_df_dev_container(const struct gl_doc *doc)
{
    if (!doc->df || !doc->path)
        return false;
    /* a relative path: the directories of the working directory count too (`gpulint
     * Dockerfile` run inside .devcontainer/) */
    return in_dev_dir(doc->path) || (doc->path[0] != '/' && cwd_in_dev_dir());
}

void gl_df_dev_built(struct gl_finding *f)
{
    if (!f)
        return;
    f->moot_when |= GL_PROJECT_ARG_SET;
    free(f->arg);
    f->arg = xstrdup(GL_BUILD_DEV_CONTAINER);
}
