/* SPDX-License-Identifier: Apache-2.0 */
/* launch_writes.c: the paths a launch's commands write into (see launch_writes.h). */
#include "rules/gl4xx/launch_writes.h"

#include <string.h>

#include "rules/gl4xx/launch_argv.h"
#include "rules/gl4xx/launch_write_opts.h"

/* One word of a command as its parser reads it: an option (the short letters of its
 * bundle before the one that takes a value, or its long name; the value it carries and the
 * last word it takes), or an operand. */
struct word_read {
    bool option;
    const char *bundle; /* the short letters (up to the value letter), or NULL */
    size_t bundle_len;
    char letter;        /* the short option that takes a value, or 0 */
    const char *name;   /* the long name (without "--"), or NULL */
    size_t name_len;
    const char *value;  /* NULL: none, or opaque */
    size_t last;
};

static const char *known_text(const struct gl_launch *l, size_t i)
{
    return gl_word_known(&l->argv[i]) ? l->argv[i].text : NULL;
}

/* Read the option at word i (known, starting with '-') under table t. */
static struct word_read read_option(const struct gl_launch *l, size_t i, size_t end,
                                    const struct gl_opt_table *t)
{
    const char *w = l->argv[i].text;
    struct word_read r = {.option = true, .last = i};
    if (w[1] == '-') {
        const char *eq = strchr(w, '=');
        r.name = w + 2;
        r.name_len = eq ? (size_t)(eq - r.name) : strlen(r.name);
        if (eq)
            r.value = t->long_eq ? eq + 1 : NULL;
        else if (gl_opt_listed(t->long_vals, r.name, r.name_len) && i + 1 < end)
            r.value = known_text(l, r.last = i + 1);
        if (eq && !t->long_eq)
            r.name = NULL; /* curl: no such option */
        return r;
    }
    r.bundle = w + 1;
    for (const char *c = w + 1; *c; c++)
        if (strchr(t->short_vals, *c)) {
            r.letter = *c;
            if (c[1])
                r.value = c + 1;
            else if (i + 1 < end)
                r.value = known_text(l, r.last = i + 1);
            break;
        }
    r.bundle_len = r.letter ? (size_t)(strchr(r.bundle, r.letter) - r.bundle) + 1
                            : strlen(r.bundle);
    return r;
}

/* Did r name the short option in `letters` or the long one in `names`? */
static bool read_is(const struct word_read *r, const char *letters, const char *const *names)
{
    if (r->name)
        return gl_opt_listed(names, r->name, r->name_len);
    return r->letter && letters && strchr(letters, r->letter);
}

/* Did r hold one of the flags `letters` in its bundle, or is it one of the long `names`? */
static bool flag_is(const struct word_read *r, const char *letters, const char *const *names)
{
    if (r->name)
        return gl_opt_listed(names, r->name, r->name_len);
    for (size_t k = 0; letters && r->bundle && k < r->bundle_len; k++)
        if (strchr(letters, r->bundle[k]))
            return true;
    return false;
}

/* The words of one command, read in order: the program's own options before a subcommand
 * (git -C DIR clone), the subcommand, then options and operands (all operands after
 * `--`). */
struct command_words {
    const struct gl_launch *l;
    const struct gl_writer *wr;
    size_t i, end;
    bool in_sub, operands_only;
};

/* The next word: false at the end, or when the command is not the writer's subcommand
 * (git log) or its subcommand is opaque. */
static bool next_word(struct command_words *cw, struct word_read *r)
{
    while (cw->i < cw->end) {
        size_t i = cw->i++;
        const char *t = known_text(cw->l, i);
        const struct gl_opt_table *tab = cw->in_sub ? &cw->wr->opts : cw->wr->pre;
        if (t && t[0] == '-' && t[1] && !cw->operands_only) {
            if (!strcmp(t, "--")) {
                cw->operands_only = cw->in_sub;
                continue;
            }
            *r = read_option(cw->l, i, cw->end, tab);
            cw->i = r->last + 1;
            if (cw->in_sub)
                return true;
            continue;
        }
        if (!cw->in_sub) {
            if (!t || strcmp(t, cw->wr->sub))
                return false;
            cw->in_sub = true;
            continue;
        }
        *r = (struct word_read){.value = t, .last = i};
        return true;
    }
    return false;
}

static void words_start(struct command_words *cw, const struct gl_launch *l,
                        const struct gl_writer *wr, size_t c, size_t end)
{
    *cw = (struct command_words){.l = l, .wr = wr, .i = c + 1, .end = end, .in_sub = !wr->sub};
}

static const struct gl_writer *writer_of(const struct gl_word *w)
{
    if (!gl_word_known(w))
        return NULL;
    size_t len = strlen(w->text);
    const char *base = gl_word_base(w->text, &len);
    return gl_writer_named(base, len);
}

/* Does the tar at word c extract (`-x`, a bundle `-xzf`, the old `xf` first word,
 * `--extract`, `--get`)? Only then is its -C directory written; one that creates an
 * archive (`tar -czf /out/b.tgz -C /data .`) reads there. */
static bool tar_extracts(const struct gl_launch *l, size_t c, size_t end)
{
    for (size_t i = c + 1; i < end; i++) {
        const char *t = l->argv[i].text;
        if (!gl_word_known(&l->argv[i]))
            continue;
        if (!strcmp(t, "--extract") || !strcmp(t, "--get"))
            return true;
        if (((t[0] == '-' && t[1] != '-') || (i == c + 1 && t[0] != '-')) && strchr(t, 'x'))
            return true;
    }
    return false;
}

static void give(struct gl_launch_facts *f, const char *value,
                 void (*fn)(const char *path, void *ctx), void *ctx)
{
    const char *path = value ? gl_path_normalize(&f->arena, value) : NULL;
    if (path)
        fn(path, ctx);
}

/* What the options of a command say (read before its operands: getopt, git and popt take
 * options after operands, and curl's --output-dir holds for every -o). */
struct settings {
    bool targeted;    /* a destination option names where the operands go (cp -t DIR) */
    bool all;         /* every operand is a destination (install -d) */
    bool into_base;   /* a file named by the server lands in the base (curl -O) */
    bool based;       /* curl --output-dir is given */
    const char *base; /* its value (NULL: opaque: so is where -o writes) */
};

static struct settings read_settings(const struct gl_launch *l, const struct gl_writer *wr,
                                     size_t c, size_t end)
{
    struct settings st = {.all = wr->form == GL_DEST_ALL};
    struct command_words cw;
    struct word_read r;
    words_start(&cw, l, wr, c, end);
    while (next_word(&cw, &r)) {
        if (!r.option)
            continue;
        st.targeted |= read_is(&r, wr->dest_short, wr->dest_long);
        st.all |= flag_is(&r, wr->all_short, wr->all_long);
        st.into_base |= flag_is(&r, wr->into_base_short, wr->into_base_long);
        if (read_is(&r, NULL, wr->base_long)) {
            st.based = true;
            st.base = r.value;
        }
    }
    return st;
}

static void command_writes(struct gl_launch_facts *f, const struct gl_launch *l, size_t c,
                           size_t end, void (*fn)(const char *path, void *ctx), void *ctx)
{
    const struct gl_writer *wr = writer_of(&l->argv[c]);
    if (!wr || (!strcmp(wr->name, "tar") && !tar_extracts(l, c, end)))
        return;
    struct settings st = read_settings(l, wr, c, end);
    const char *last = NULL;
    size_t operands = 0;
    struct command_words cw;
    struct word_read r;
    words_start(&cw, l, wr, c, end);
    while (next_word(&cw, &r)) {
        if (r.option) {
            if (read_is(&r, wr->dest_short, wr->dest_long) && r.value &&
                (!st.based || st.base))
                give(f, st.base ? gl_arena_printf(&f->arena, "%s/%s", st.base, r.value)
                                : r.value, fn, ctx);
            continue;
        }
        operands++;
        last = r.value; /* NULL: an opaque operand, what it names is not known */
        if (st.all && r.value)
            give(f, r.value, fn, ctx);
    }
    if (st.base && st.into_base)
        give(f, st.base, fn, ctx);
    if (wr->form == GL_DEST_LAST && !st.all && !st.targeted && operands >= 2)
        give(f, last, fn, ctx);
}

void gl_launch_each_written(struct gl_launch_facts *f, size_t launch,
                            void (*fn)(const char *path, void *ctx), void *ctx)
{
    const struct gl_launch *l = &f->doc->launches[launch];
    for (size_t s = 0; s < l->nargv; s = gl_launch_next_command(l, s)) {
        size_t end = gl_launch_next_command(l, s);
        size_t c = gl_command_word(l, s);
        if (c < end)
            command_writes(f, l, c, end, fn, ctx);
    }
}
