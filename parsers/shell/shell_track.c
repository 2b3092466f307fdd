/* SPDX-License-Identifier: Apache-2.0 */
/* shell_track.c: the variables a finished command sets (see shell_internal.h):
 * NAME=value alone, export/declare/typeset/readonly/local NAME=value, unset, read,
 * getopts. */
#include "parsers/shell/shell_internal.h"

#include <string.h>

static bool word_is(const struct gl_word *w, const char *s) { return gl_streq(w->text, s); }

static bool name_prefix(const char *t, size_t *nlen)
{
    size_t k = 0;
    if (!((t[0] >= 'a' && t[0] <= 'z') || (t[0] >= 'A' && t[0] <= 'Z') || t[0] == '_'))
        return false;
    while ((t[k] >= 'a' && t[k] <= 'z') || (t[k] >= 'A' && t[k] <= 'Z') || t[k] == '_' ||
           (t[k] >= '0' && t[k] <= '9'))
        k++;
    *nlen = k;
    return true;
}

/* export/declare/typeset/readonly/local NAME=value... */
static void track_declaration(struct sh_vars *vars, const struct sh_cmd *c,
                              const struct sh_word_info *info, bool certain)
{
    bool array = false;
    for (size_t k = 1; k < c->nwords; k++) {
        const char *t = c->words[k].text;
        size_t nlen;
        if (t[0] == '-' || t[0] == '+') {
            array |= strchr(t, 'a') || strchr(t, 'A');
            continue;
        }
        if (!name_prefix(t, &nlen))
            continue;
        bool append = t[nlen] == '+' && t[nlen + 1] == '=';
        if (t[nlen] != '=' && !append) {
            if (word_is(&c->words[0], "local"))
                sh_vars_assign(vars, t, nlen, NULL, 0, false);
            continue;
        }
        const char *v = t + nlen + (append ? 2 : 1);
        size_t vlen = info[k].len - (size_t)(v - t);
        sh_vars_assign_literal(vars, t, nlen, v, vlen,
                               !append && !array && !c->words[k].opaque && !info[k].from_split,
                               certain);
    }
}

/* read [-options] NAME...: the names become opaque. */
static void track_read(struct sh_vars *vars, const struct sh_cmd *c)
{
    for (size_t k = 1; k < c->nwords; k++) {
        const char *t = c->words[k].text;
        size_t nlen;
        if (t[0] == '-') {
            size_t n = strlen(t);
            if (n > 1 && strchr("adinNptu", t[n - 1]))
                k++; /* the option's argument */
            continue;
        }
        if (name_prefix(t, &nlen) && !t[nlen])
            sh_vars_assign(vars, t, nlen, NULL, 0, false);
    }
}

const uint16_t shl_setter_lengths[256] = {
    ['e'] = 1u << 6,                         /* export */
    ['d'] = 1u << 7, ['t'] = 1u << 7, ['g'] = 1u << 7, /* declare typeset getopts */
    ['l'] = 1u << 5, ['u'] = 1u << 5,        /* local unset */
    ['r'] = 1u << 4 | 1u << 8,               /* read readonly */
    ['.'] = 1u << 1 | 1u << 6, ['s'] = 1u << 1 | 1u << 6, /* . source */
};

void shl_track_setter(struct sh_vars *vars, const struct sh_cmd *c,
                      const struct sh_word_info *info, bool certain)
{
    if (c->nwords == 0) {
        for (size_t k = 0; k < c->nassigns; k++) {
            const struct sh_assign *as = &c->assigns[k];
            sh_vars_assign_literal(vars, as->name, strlen(as->name), as->value,
                                   as->value_len, !as->opaque && !as->append, certain);
        }
        return;
    }
    const char *t0 = c->words[0].text;
    bool declaration = false;
    switch (t0[0]) { /* by the first byte: one compare a command (most commands: none) */
    case 'e': declaration = gl_streq(t0, "export"); break;
    case 'd': declaration = gl_streq(t0, "declare"); break;
    case 't': declaration = gl_streq(t0, "typeset"); break;
    case 'l': declaration = gl_streq(t0, "local"); break;
    case 'r':
        if (gl_streq(t0, "read")) {
            track_read(vars, c);
            return;
        }
        declaration = gl_streq(t0, "readonly");
        break;
    case 'u':
        if (gl_streq(t0, "unset"))
            for (size_t k = 1; k < c->nwords; k++) {
                size_t nlen;
                const char *t = c->words[k].text;
                if (name_prefix(t, &nlen) && !t[nlen])
                    sh_vars_unset(vars, t, nlen, certain);
            }
        return;
    case '.':
    case 's':
        /* `. FILE` / `source FILE`: FILE may assign any variable (sh_vars.sourced) */
        if ((t0[0] == '.' && !t0[1]) || gl_streq(t0, "source"))
            vars->sourced = true;
        return;
    case 'g':
        if (gl_streq(t0, "getopts") && c->nwords > 2) {
            size_t nlen;
            const char *t = c->words[2].text;
            if (name_prefix(t, &nlen) && !t[nlen])
                sh_vars_assign(vars, t, nlen, NULL, 0, false);
        }
        return;
    default:
        return;
    }
    if (declaration)
        track_declaration(vars, c, info, certain);
}

