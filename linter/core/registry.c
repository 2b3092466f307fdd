/* SPDX-License-Identifier: Apache-2.0 */
/* registry.c: look-ups in the generated rule table (see rule.h). */
#include "linter/core/rule.h"

const struct gl_rule *gl_rule_find(const char *id)
{
    for (size_t i = 0; i < gl_rule_count; i++)
        if (gl_streq_nocase(gl_rule_table[i]->id, id))
            return gl_rule_table[i];
    return NULL;
}
