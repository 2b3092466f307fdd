/* SPDX-License-Identifier: Apache-2.0 */
/* shell_vars.c: the shell variable table (see shell_words.h). An open-addressing hash
 * table in the arena; it doubles when half full (old tables stay in the arena, so the
 * total is at most twice the final size). */
#include "parsers/shell/shell_words.h"

#include <string.h>

const char sh_value_opaque[] = "<opaque>";

void sh_vars_init(struct sh_vars *v, struct gl_arena *arena)
{
    v->arena = arena;
    v->slots = NULL;
    v->cap = v->n = 0;
}

static size_t name_hash(const char *name, size_t len)
{
    size_t h = 14695981039346656037u;
    for (size_t i = 0; i < len; i++)
        h = (h ^ (unsigned char)name[i]) * 1099511628211u;
    return h;
}

static struct sh_var *find_slot(const struct sh_vars *v, const char *name, size_t len)
{
    if (!v->cap)
        return NULL;
    size_t i = name_hash(name, len) & (v->cap - 1);
    for (;;) {
        struct sh_var *s = &v->slots[i];
        if (!s->name || (s->name_len == len && memcmp(s->name, name, len) == 0))
            return s;
        i = (i + 1) & (v->cap - 1);
    }
}

static void grow(struct sh_vars *v)
{
    size_t ncap = v->cap ? v->cap * 2 : 32;
    struct sh_var *old = v->slots;
    size_t ocap = v->cap;
    v->slots = gl_arena_alloc(v->arena, ncap * sizeof *v->slots);
    v->cap = ncap;
    for (size_t i = 0; i < ocap; i++)
        if (old[i].name)
            *find_slot(v, old[i].name, old[i].name_len) = old[i];
}

static struct sh_var *get_or_add(struct sh_vars *v, const char *name, size_t len)
{
    if ((v->n + 1) * 2 > v->cap)
        grow(v);
    struct sh_var *s = find_slot(v, name, len);
    if (!s->name) {
        s->name = gl_arena_strndup(v->arena, name, len);
        s->name_len = len;
        s->state = SH_VAR_UNSET;
        v->n++;
    }
    return s;
}

enum sh_var_state sh_vars_get(const struct sh_vars *v, const char *name, size_t len,
                              const char **value, size_t *value_len)
{
    const struct sh_var *s = v ? find_slot(v, name, len) : NULL;
    if (!s || !s->name)
        return SH_VAR_UNSET;
    if (s->state == SH_VAR_KNOWN) {
        *value = s->value;
        *value_len = s->value_len;
    }
    return s->state;
}

void sh_vars_assign(struct sh_vars *v, const char *name, size_t len, const char *value,
                    size_t value_len, bool certain)
{
    struct sh_var *s = get_or_add(v, name, len);
    if (!certain || !value || s->state == SH_VAR_OPAQUE) {
        s->state = SH_VAR_OPAQUE;
        s->value = NULL;
        return;
    }
    if (s->state == SH_VAR_KNOWN) {
        if (s->value_len != value_len || memcmp(s->value, value, value_len) != 0) {
            s->state = SH_VAR_OPAQUE;
            s->value = NULL;
        }
        return;
    }
    s->state = SH_VAR_KNOWN;
    s->value = gl_arena_strndup(v->arena, value, value_len);
    s->value_len = value_len;
}

void sh_vars_unset(struct sh_vars *v, const char *name, size_t len, bool certain)
{
    struct sh_var *s = get_or_add(v, name, len);
    s->state = certain ? SH_VAR_UNSET : SH_VAR_OPAQUE;
    s->value = NULL;
}
