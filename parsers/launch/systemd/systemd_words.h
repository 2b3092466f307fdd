/* SPDX-License-Identifier: Apache-2.0 */
/*
 * systemd_words.h: a systemd command line read as the shell reads it.
 *
 * A unit's commands (launch_systemd.h) are handed to the launch scanner as shell text, one
 * command a line. systemd does not read them as a shell does (systemd.service(5),
 * "Command lines"; systemd.syntax(7)): a value is split on blanks; `"` and `'` quote (an
 * unbalanced one makes systemd ignore the whole line); `\` escapes; `${NAME}` and `$NAME`
 * are variables of the unit's environment; every other byte is itself (`|`, `&`, `<`,
 * `>`, `(`, `)`, a backquote, `$(`, a `;` inside a word, a `#` or a shell keyword as a
 * word). Written as they are, those bytes are shell syntax: a quote systemd reads as
 * unbalanced, a backquote, `$(` or `<<` ran on into the unit's next command lines (whose
 * launches were then lost or misread).
 *
 * sd_word_byte tells, byte by byte, what shell text stands for a command line as systemd
 * reads it, so that the shell reads the same words: a byte systemd takes as itself but
 * the shell would not is escaped (`\|`), a quoted part becomes a double-quoted one (its
 * variables stay variables, as systemd expands them in either quote), an escape the
 * shell would not read inside double quotes loses its `\`. In a command line a lone `;`
 * word stays a separator (systemd's too).
 */
#ifndef GPULINT_PARSERS_LAUNCH_SYSTEMD_WORDS_H
#define GPULINT_PARSERS_LAUNCH_SYSTEMD_WORDS_H

#include <stdbool.h>
#include <stddef.h>

/* What is read: a command line (ExecStart=: its first word is the command, a lone `;`
 * ends it); the arguments of one (a Quadlet's Exec=, PodmanArgs=: systemd's words, a `;`
 * is a byte); a Quadlet key's one value (Volume=, Image=: quotes and `\` are bytes). */
enum sd_mode { SD_COMMAND, SD_ARGS, SD_VALUE };

/* The reading of one command line (or value), across its continued lines. */
struct sd_words {
    enum sd_mode mode;
    char quote;    /* the quote open ('\'' or '"'), 0 outside quotes */
    bool in_word;  /* the byte before was part of a word */
    bool any_word; /* a word has begun (in a command line: the first one is the command) */
    bool expanded; /* a heredoc's body the script's shell expands before systemd reads it
                      (`<<EOF`): its `$(...)` and backquoted commands are the script's,
                      left to the shell (opaque parts of their words) */
    size_t subst;  /* with expanded: the depth of `(` inside such a `$(` */
    bool backquote; /* with expanded: inside such a backquoted command */
};

static inline void sd_words_begin(struct sd_words *w, enum sd_mode mode)
{
    *w = (struct sd_words){.mode = mode, .any_word = mode != SD_COMMAND};
}

/* A blank the unit text does not write (a continued line's `\` and line end): a word
 * ends there unless a quote is open. */
static inline void sd_words_blank(struct sd_words *w)
{
    if (!w->quote)
        w->in_word = false;
}

/* What stands for byte t[i] of a piece that ends at e (one line's part of the value) in
 * the shell text: 0 bytes (skipped), or 1 or 2 bytes into out; *used: how many bytes of
 * the piece from i they stand for (1, or 2: an escape `\X`, `$$`, `%%`). */
size_t sd_word_byte(struct sd_words *w, const char *t, size_t i, size_t e, char out[2],
                    size_t *used);

/* Does byte c stand for itself inside a word, in quotes or not (no blank, quote, `\`,
 * `$`, `%`, `#`, shell operator or NUL)? Such a byte in a word that is not a command's
 * first (w->in_word, w->quote or w->any_word) is copied as it is, without sd_word_byte.
 * (One table look-up a byte: most bytes of a command line are these.) */
extern const bool sd_special[256];
static inline bool sd_plain_byte(char c) { return !sd_special[(unsigned char)c]; }

/* Did the line end inside a quote (systemd ignores such a line), or inside the script's
 * substitution? */
static inline bool sd_words_unbalanced(const struct sd_words *w)
{
    return w->quote || w->subst || w->backquote;
}

#endif
