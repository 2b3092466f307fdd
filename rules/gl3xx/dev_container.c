/* SPDX-License-Identifier: Apache-2.0 */
/* dev_container.c: Dockerfiles of dev containers (see dev_container.h). */
#include "rules/gl3xx/dev_container.h"

#include <string.h>
#include <unistd.h>

#include "linter/core/model.h"

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

bool gl_df_dev_container(const struct gl_doc *doc)
{
    if (!doc->df || !doc->path)
        return false;
    if (in_dev_dir(doc->path))
        return true;
    /* a relative path: the directories of the working directory count too (`gpulint
     * Dockerfile` run inside .devcontainer/) */
    char cwd[4096];
    if (doc->path[0] == '/' || !getcwd(cwd, sizeof cwd - 1))
        return false;
    strcat(cwd, "/");
    return in_dev_dir(cwd);
}
