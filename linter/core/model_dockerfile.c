/* SPDX-License-Identifier: Apache-2.0 */
/* model_dockerfile.c: queries over build stages (see model_dockerfile.h). */
#include "linter/core/model.h"

#include <limits.h>
#include <string.h>
#include <sys/stat.h>

const struct gl_ref *gl_df_stage_root_ref(const struct gl_doc *doc, int stage)
{
    const struct gl_dockerfile_model *m = doc->df;
    if (!m || stage < 0 || (size_t)stage >= m->nstages)
        return NULL;
    /* bases are always earlier stages, so this walk ends */
    while (m->stages[stage].base_stage >= 0)
        stage = m->stages[stage].base_stage;
    return &doc->refs[m->stages[stage].ref];
}

int64_t gl_df_copy_size(const struct gl_doc *doc, const struct gl_copy_src *c)
{
    if (c->size != GL_COPY_SIZE_ASK)
        return c->size;
    /* the Dockerfile's directory joined to the path, as the model would have joined it */
    const char *slash = strrchr(doc->path, '/');
    size_t dl = slash ? (size_t)(slash - doc->path) + 1 : 0, n = strlen(c->path);
    char full[PATH_MAX];
    if (dl + n >= sizeof full)
        return -1; /* (lstat would say ENAMETOOLONG) */
    memcpy(full, doc->path, dl);
    memcpy(full + dl, c->path, n + 1);
    struct gl_probe st;
    /* (the memo is a cache of the file system, not a fact: the doc stays as parsed) */
    if (!gl_doc_probe((struct gl_doc *)doc, full, false, &st) || !S_ISREG(st.mode))
        return -1;
    return st.size;
}
