/* SPDX-License-Identifier: Apache-2.0 */
/*
 * rule.h: the rule registry.
 *
 * A rule is one table entry in its own file under rules/: id, name, default severity,
 * a one-line summary, the rationale, a before/after example, the default fix hint, and
 * a check function over the model. A rule file defines, at the start of a line,
 *
 *     const struct gl_rule gl_rule_GL101 = { .id = "GL101", ... };
 *
 * and cmake/rule_table.cmake collects every such definition into gl_rule_table (sorted
 * by id) at configure time: adding a rule touches rules/ alone. The catalog printed by
 * --list-rules, --explain and the generated docs all come from these entries.
 */
#ifndef GPULINT_RULE_H
#define GPULINT_RULE_H

#include "linter/core/finding.h"

struct gl_check;

struct gl_rule {
    const char *id;          /* "GL101" */
    const char *name;        /* "image-latest-tag" */
    enum gl_severity severity;
    bool optional;           /* off unless enabled (--enable, config enable:) */
    const char *summary;     /* one line: when it fires */
    const char *explanation; /* why it matters (a paragraph) */
    const char *bad;         /* an example that fires */
    const char *good;        /* the same example fixed */
    const char *fix;         /* the default fix hint */
    /* Reads doc facts and reports findings; NULL for findings the engine raises itself
     * (GL900 parse errors, GL901 unknown inputs, GL902 unknown ids). */
    void (*check)(struct gl_check *c);
};

extern const struct gl_rule *const gl_rule_table[]; /* NULL-terminated, sorted by id */
extern const size_t gl_rule_count;

/* The rule with this id (case-insensitive), or NULL. */
static inline const struct gl_rule *gl_rule_find(const char *id)
{
    for (size_t i = 0; i < gl_rule_count; i++)
        if (gl_streq_nocase(gl_rule_table[i]->id, id))
            return gl_rule_table[i];
    return NULL;
}

#endif
