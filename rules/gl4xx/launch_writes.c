/* SPDX-License-Identifier: Apache-2.0 */
/* launch_writes.c: the paths a launch's commands write into (see launch_writes.h). */
#include "rules/gl4xx/launch_writes.h"

#include <string.h>

#include "rules/gl4xx/launch_argv.h"

/* How a command names where it writes: its options that take the destination (`-d`, or
 * `--directory` as `--directory=X`), or its last operand (`cp a b DEST`), or every
 * operand (`mkdir a b`). */
enum dest_form { DEST_OPTION, DEST_LAST, DEST_ALL };

struct writer {
    const char *name;
    enum dest_form form;
    const char *const *options; /* DEST_OPTION: the options whose value is the destination */
};

static const char *const unzip_opts[] = {"-d", NULL};
static const char *const tar_opts[] = {"-C", "--directory", NULL};
static const char *const wget_opts[] = {"-P", "--directory-prefix", "-O",
                                        "--output-document", NULL};
static const char *const curl_opts[] = {"-o", "--output", NULL};
static const char *const hf_opts[] = {"--local-dir", NULL};

static const struct writer writers[] = {
    {"mkdir", DEST_ALL, NULL},          {"unzip", DEST_OPTION, unzip_opts},
    {"tar", DEST_OPTION, tar_opts},     {"wget", DEST_OPTION, wget_opts},
    {"curl", DEST_OPTION, curl_opts},   {"huggingface-cli", DEST_OPTION, hf_opts},
    {"hf", DEST_OPTION, hf_opts},       {"cp", DEST_LAST, NULL},
    {"mv", DEST_LAST, NULL},            {"rsync", DEST_LAST, NULL},
    {"git", DEST_LAST, NULL},
};

static const struct writer *writer_of(const struct gl_word *w)
{
    if (!gl_word_known(w))
        return NULL;
    size_t len = strlen(w->text);
    const char *base = gl_word_base(w->text, &len);
    for (size_t i = 0; i < sizeof writers / sizeof *writers; i++)
        if (strlen(writers[i].name) == len && !memcmp(base, writers[i].name, len))
            return &writers[i];
    return NULL;
}

/* The value word i gives to one of `opts` (`-d X` takes the next word, `--dir=X` its
 * tail), or NULL. */
static const char *option_value(const struct gl_launch *l, size_t i, size_t end,
                                const char *const *opts)
{
    const char *t = l->argv[i].text;
    for (size_t k = 0; opts[k]; k++) {
        size_t n = strlen(opts[k]);
        if (strncmp(t, opts[k], n))
            continue;
        if (t[n] == '=' && opts[k][1] == '-')
            return t + n + 1;
        if (t[n] == '\0' && i + 1 < end && gl_word_known(&l->argv[i + 1]))
            return l->argv[i + 1].text;
    }
    return NULL;
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

static void command_writes(struct gl_launch_facts *f, const struct gl_launch *l, size_t c,
                           size_t end, void (*fn)(const char *path, void *ctx), void *ctx)
{
    const struct writer *wr = writer_of(&l->argv[c]);
    if (!wr || (!strcmp(wr->name, "tar") && !tar_extracts(l, c, end)))
        return;
    bool clone = false;
    const char *last = NULL;
    size_t operands = 0;
    for (size_t i = c + 1; i < end; i++) {
        const struct gl_word *w = &l->argv[i];
        if (!gl_word_known(w)) {
            operands++;
            last = NULL; /* an opaque operand: what it names is not known */
            continue;
        }
        if (wr->form == DEST_OPTION) {
            if (w->text[0] == '-')
                give(f, option_value(l, i, end, wr->options), fn, ctx);
            continue;
        }
        if (w->text[0] == '-')
            continue;
        if (!strcmp(wr->name, "git") && !clone) {
            if (strcmp(w->text, "clone"))
                return; /* another git command writes no operand */
            clone = true;
            continue;
        }
        operands++;
        last = w->text;
        if (wr->form == DEST_ALL)
            give(f, w->text, fn, ctx);
    }
    if (wr->form == DEST_LAST && operands >= 2)
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
