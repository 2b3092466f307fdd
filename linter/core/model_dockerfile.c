/* SPDX-License-Identifier: Apache-2.0 */
/* model_dockerfile.c: queries over build stages (see model_dockerfile.h). */
#include "linter/core/model.h"

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

bool gl_df_stage_shipped(const struct gl_doc *doc, int stage)
{
    const struct gl_dockerfile_model *m = doc->df;
    return m && stage >= 0 && (size_t)stage < m->nstages && m->stages[stage].shipped;
}
