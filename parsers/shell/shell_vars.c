/* SPDX-License-Identifier: Apache-2.0 */
/* shell_vars.c: the shell variable table (see shell_words.h). An open-addressing hash
 * table in the arena, slots picked by the seeded hash (hashmap.h: a script cannot choose
 * names that share one probe chain); it doubles when half full (old tables stay in the
 * arena, so the total is at most twice the final size). */
#include "parsers/shell/shell_words.h"

#include <string.h>

#include "linter/core/hashmap.h"

const char sh_value_opaque[] = "<opaque>";

void sh_vars_init(struct sh_vars *v, struct gl_arena *arena)
{
    v->arena = arena;
    v->slots = NULL;
    v->cap = v->n = 0;
    v->sourced = false;
    v->read_back = 0;
    v->text = 0;
}

static struct sh_var *find_slot(const struct sh_vars *v, const char *name, size_t len)
{
    if (!v->cap)
        return NULL;
    size_t i = gl_hash_slot(gl_hash_bytes(name, len), v->cap);
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

/* Is s, known in the text it was last assigned in, opaque now (a rival in a later text)? */
static bool stale_rival(const struct sh_vars *v, const struct sh_var *s)
{
    return s->state == SH_VAR_KNOWN && s->rival && s->text != v->text;
}

enum sh_var_state sh_vars_get(const struct sh_vars *v, const char *name, size_t len,
                              const char **value, size_t *value_len)
{
    const struct sh_var *s = v ? find_slot(v, name, len) : NULL;
    if (!s || !s->name)
        return SH_VAR_UNSET;
    if (stale_rival(v, s))
        return SH_VAR_OPAQUE;
    if (s->state == SH_VAR_KNOWN) {
        *value = s->value;
        *value_len = s->value_len;
    }
    return s->state;
}

/* Remember value [value, +len) in list *list of *count values (NULL adds none; past
 * SH_VAR_MAX_ALTS, none is added). */
static void add_value(struct sh_vars *v, struct sh_alt **list, uint8_t *count,
                      const char *value, size_t len)
{
    if (!value || *count >= SH_VAR_MAX_ALTS)
        return;
    for (const struct sh_alt *a = *list; a; a = a->next)
        if (a->len == len && !memcmp(a->value, value, len))
            return;
    (*count)++;
    struct sh_alt *a = gl_arena_alloc(v->arena, sizeof *a);
    a->value = gl_arena_strndup(v->arena, value, len);
    a->len = len;
    a->next = *list;
    *list = a;
}

/* Remember value [value, +len) among the literal values opaque variable s was assigned
 * (a value that is not literal, NULL, adds none). */
static void add_alt(struct sh_vars *v, struct sh_var *s, const char *value, size_t len)
{
    add_value(v, &s->alts, &s->nalts, value, len);
}

/* s becomes opaque: its known value, if any, is one it may hold */
static void make_opaque(struct sh_vars *v, struct sh_var *s)
{
    if (s->state == SH_VAR_KNOWN)
        add_alt(v, s, s->value, s->value_len);
    s->state = SH_VAR_OPAQUE;
    s->value = NULL;
    s->rival = false;
}

void sh_vars_assign(struct sh_vars *v, const char *name, size_t len, const char *value,
                    size_t value_len, bool certain)
{
    struct sh_var *s = get_or_add(v, name, len);
    if (stale_rival(v, s))
        make_opaque(v, s);
    if (!certain || !value) {
        make_opaque(v, s);
        if (certain) /* (a certain value is literal; an uncertain one may not be) */
            add_alt(v, s, value, value_len);
        return;
    }
    /* a plain assignment sets the value whatever came before (the shell's last one wins);
       one that differs from an earlier value is a rival's, all of them in alts */
    bool same = s->state == SH_VAR_KNOWN && s->value_len == value_len &&
                memcmp(s->value, value, value_len) == 0;
    if (same) {
        s->text = v->text;
        return;
    }
    bool before = s->state != SH_VAR_UNSET || s->nalts;
    if (before) {
        if (s->state == SH_VAR_KNOWN)
            add_alt(v, s, s->value, s->value_len);
        add_alt(v, s, value, value_len);
    }
    s->rival = before;
    s->state = SH_VAR_KNOWN;
    s->value = gl_arena_strndup(v->arena, value, value_len);
    s->value_len = value_len;
    s->text = v->text;
}

bool sh_vars_named(const struct sh_vars *v, const char *name, size_t len)
{
    const struct sh_var *s = v ? find_slot(v, name, len) : NULL;
    return s && s->name;
}

void sh_vars_unset(struct sh_vars *v, const char *name, size_t len, bool certain)
{
    struct sh_var *s = get_or_add(v, name, len);
    if (stale_rival(v, s) || !certain)
        make_opaque(v, s);
    else
        s->state = SH_VAR_UNSET;
    s->value = NULL;
}

void sh_vars_assign_literal(struct sh_vars *v, const char *name, size_t len,
                            const char *value, size_t value_len, bool literal, bool certain)
{
    if (!literal) {
        struct sh_var *s = get_or_add(v, name, len);
        add_value(v, &s->raws, &s->nraws, value, value_len);
    }
    if (!literal || certain) {
        sh_vars_assign(v, name, len, value, value_len, literal && certain);
        return;
    }
    struct sh_var *s = get_or_add(v, name, len);
    make_opaque(v, s);
    add_alt(v, s, value, value_len);
}

size_t sh_vars_values(const struct sh_vars *v, const char *name, size_t len,
                      const char **vals, size_t *lens, size_t max)
{
    const struct sh_var *s = v ? find_slot(v, name, len) : NULL;
    if (!s || !s->name || !max)
        return 0;
    if (s->state == SH_VAR_KNOWN && !s->rival) { /* (a rival's values are all in alts) */
        vals[0] = s->value;
        lens[0] = s->value_len;
        return 1;
    }
    if (s->state == SH_VAR_UNSET)
        return 0;
    size_t n = 0;
    for (const struct sh_alt *a = s->alts; a && n < max; a = a->next, n++) {
        vals[n] = a->value;
        lens[n] = a->len;
    }
    return n;
}

size_t sh_vars_raw_values(const struct sh_vars *v, const char *name, size_t len,
                          const char **vals, size_t *lens, size_t max)
{
    const struct sh_var *s = v ? find_slot(v, name, len) : NULL;
    size_t n = 0;
    for (const struct sh_alt *a = s && s->name ? s->raws : NULL; a && n < max; a = a->next) {
        vals[n] = a->value;
        lens[n++] = a->len;
    }
    return n;
}
