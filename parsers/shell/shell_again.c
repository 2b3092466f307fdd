/* SPDX-License-Identifier: Apache-2.0 */
/* shell_again.c: splitting a word again as shell text (the script of `sh -c`), finding
 * that word, and byte positions inside words (see shell_words.h). */
#include "parsers/shell/shell_internal.h"

#include <string.h>

/* Index of the first segment of `m` whose offset is greater than `off`. */
static size_t first_seg_after(const struct gl_srcmap *m, size_t off)
{
    size_t lo = 0, hi = m->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (m->segs[mid].off <= off)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* The map of word `wi`'s text to original positions. */
static struct gl_srcmap *word_map(struct gl_arena *a, const struct sh_cmd *cmd, size_t wi)
{
    const struct sh_word_info *in = &cmd->info[wi];
    const struct gl_srcmap *origin = cmd->origin;
    struct gl_srcmap *m = gl_arena_alloc(a, sizeof *m);
    gl_srcmap_init(m, a);
    for (size_t k = 0; k < in->nspans; k++) {
        const struct sh_span *sp = &in->spans[k];
        struct gl_loc at = gl_srcmap_loc(origin, sp->src);
        if (!sp->literal) { /* every byte points at the construct */
            for (size_t j = 0; j < sp->len; j++)
                gl_srcmap_add(m, sp->out + j, at.line, at.col);
            continue;
        }
        gl_srcmap_add(m, sp->out, at.line, at.col);
        for (size_t s = first_seg_after(origin, sp->src);
             s < origin->n && origin->segs[s].off < sp->src + sp->len; s++)
            gl_srcmap_add(m, sp->out + (origin->segs[s].off - sp->src),
                          origin->segs[s].at.line, origin->segs[s].at.col);
    }
    if (!m->n) { /* an empty word: everything at the word */
        struct gl_loc at = cmd->words[wi].loc;
        gl_srcmap_add(m, 0, at.line, at.col);
    }
    return m;
}

int sh_split_word_again(struct gl_arena *a, const struct sh_cmd *cmd, size_t wi,
                        const struct sh_opts *opts, struct sh_cmd **cmds, size_t *ncmds,
                        struct sh_error *err)
{
    if (wi >= cmd->nwords) {
        *cmds = NULL;
        *ncmds = 0;
        if (err)
            memset(err, 0, sizeof *err);
        return 0;
    }
    struct gl_srcmap *m = word_map(a, cmd, wi);
    struct sh_opts piece = {0};
    if (opts)
        piece = *opts;
    piece.grammar = false; /* a script in a word: not what `bash -n` checks */
    return sh_split(a, cmd->words[wi].text, cmd->info[wi].len, m, &piece, cmds, ncmds, err);
}

struct gl_loc sh_word_byte_loc(const struct sh_cmd *cmd, size_t wi, size_t off)
{
    if (wi >= cmd->nwords)
        return (struct gl_loc){0, 0};
    const struct sh_word_info *in = &cmd->info[wi];
    if (!in->nspans)
        return cmd->words[wi].loc;
    size_t lo = 0, hi = in->nspans; /* the last span with out <= off */
    while (hi - lo > 1) {
        size_t mid = lo + (hi - lo) / 2;
        if (in->spans[mid].out <= off)
            lo = mid;
        else
            hi = mid;
    }
    const struct sh_span *sp = &in->spans[lo];
    size_t rel = off > sp->out ? off - sp->out : 0;
    return gl_srcmap_loc(cmd->origin, sp->literal ? sp->src + rel : sp->src);
}

/* Is w (its name ending in "sh": sh_dash_c_index tested it) a shell's name? */
static bool is_shell_name(const char *w)
{
    static const char *const shells[] = {"sh", "bash", "dash", "zsh", "ksh", "ash", "mksh", NULL};
    size_t n = strlen(w);
    const char *slash = memrchr(w, '/', n);
    size_t b = slash ? (size_t)(slash - w) + 1 : 0;
    if (n - b < 2 || n - b > 4) /* every name: 2-4 bytes */
        return false;
    const char *base = w + b;
    for (size_t k = 0; shells[k]; k++)
        if (gl_streq(base, shells[k]))
            return true;
    return false;
}

/* sh_dash_c_index past its first tests (a command whose first word ends in "sh"). */
long sh_dash_c_index_named(const struct sh_cmd *cmd)
{
    if (!is_shell_name(cmd->words[0].text))
        return -1;
    bool dash_c = false;
    for (size_t k = 1; k < cmd->nwords; k++) {
        const char *t = cmd->words[k].text;
        if (gl_streq(t, "--") || gl_streq(t, "-"))
            return dash_c && k + 1 < cmd->nwords ? (long)(k + 1) : -1;
        if ((t[0] == '-' || t[0] == '+') && t[1] != '-') {
            if (strchr(t + 1, 'c'))
                dash_c = true;
            if (gl_streq(t + 1, "o") || gl_streq(t + 1, "O"))
                k++; /* -o pipefail */
            continue;
        }
        if (t[0] == '-')
            continue; /* --login, --norc */
        return dash_c ? (long)k : -1;
    }
    return -1;
}
