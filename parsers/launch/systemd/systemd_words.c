/* SPDX-License-Identifier: Apache-2.0 */
/* systemd_words.c: a systemd command line read as the shell reads it (see
 * systemd_words.h). */
#include "parsers/launch/systemd/systemd_words.h"

#include <string.h>

const bool sd_special[256] = {
    [0] = 1, [' '] = 1, ['\t'] = 1, ['"'] = 1, ['\''] = 1, ['\\'] = 1, ['$'] = 1, ['%'] = 1,
    ['#'] = 1, ['|'] = 1, ['&'] = 1, [';'] = 1, ['<'] = 1, ['>'] = 1, ['('] = 1, [')'] = 1,
    ['`'] = 1,
};

static bool blank(char c) { return c == ' ' || c == '\t'; }

static bool name_start(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

static bool name_byte(char c) { return name_start(c) || (c >= '0' && c <= '9'); }

/* Is the word t[i, ...) (to a blank or e) a word the shell reads as grammar when it is a
 * command's first: a reserved word, or `!`, `{`, `}`? */
static bool keyword(const char *t, size_t i, size_t e)
{
    static const char *const words[] = {"if", "then", "else", "elif", "fi", "do", "done",
                                        "case", "esac", "while", "until", "for", "in",
                                        "function", "select", "time", "coproc", "!", "{",
                                        "}", "[[", "]]"};
    size_t k = i;
    while (k < e && !blank(t[k]) && k - i <= 8)
        k++;
    for (size_t w = 0; k - i <= 8 && w < sizeof words / sizeof words[0]; w++)
        if (!strncmp(words[w], t + i, k - i) && !words[w][k - i])
            return true;
    return false;
}

/* A `$` at t[i]: a variable systemd expands (`${NAME}`, `$NAME`) stays; `$$` is systemd's
 * `$`, any other `$` a byte of its own: escaped. */
static size_t dollar(const char *t, size_t i, size_t e, char out[2], size_t *used)
{
    if (i + 1 < e && name_start(t[i + 1])) {
        out[0] = '$';
        return 1;
    }
    if (i + 2 < e && t[i + 1] == '{' && name_start(t[i + 2])) {
        size_t k = i + 3;
        while (k < e && name_byte(t[k]))
            k++;
        if (k < e && t[k] == '}') {
            out[0] = '$';
            return 1;
        }
    }
    if (i + 1 < e && t[i + 1] == '$')
        *used = 2;
    out[0] = '\\';
    out[1] = '$';
    return 2;
}

/* A `\` at t[i] (its escape `\X`): outside quotes the pair as it is (the shell reads X);
 * inside (shell double quotes) the pair when the shell reads it there, else X alone. A
 * `\` that ends the piece is dropped. */
static size_t escape(const struct sd_words *w, const char *t, size_t i, size_t e,
                     char out[2], size_t *used)
{
    if (i + 1 >= e)
        return 0;
    char x = t[i + 1];
    *used = 2;
    if (w->quote && (!x || !strchr("$`\"\\", x))) {
        out[0] = x;
        return 1;
    }
    out[0] = '\\';
    out[1] = x;
    return 2;
}

/* A `%` at t[i]: a specifier (`%n`) is a value systemd fills in, an unknown variable of
 * the same length (`$n`); `%%` is a `%`. */
static size_t specifier(const char *t, size_t i, size_t e, char out[2], size_t *used)
{
    out[0] = i + 1 < e && name_start(t[i + 1]) && t[i + 1] != '_' ? '$' : '%';
    if (i + 1 < e && t[i + 1] == '%')
        *used = 2;
    return 1;
}

/* A byte inside a quote: the shell text's double quotes. */
static size_t quoted(struct sd_words *w, const char *t, size_t i, size_t e, char out[2],
                     size_t *used)
{
    char c = t[i];
    if (c == w->quote) {
        w->quote = 0;
        out[0] = '"';
        return 1;
    }
    if (c == '\\')
        return escape(w, t, i, e, out, used);
    if (c == '$')
        return dollar(t, i, e, out, used);
    if (c == '%')
        return specifier(t, i, e, out, used);
    out[0] = c == '"' || c == '`' ? '\\' : c;
    out[1] = c;
    return c == '"' || c == '`' ? 2 : 1;
}

/* In a heredoc the script's shell expands: a byte of the script's `$(...)` or backquoted
 * command, or the start of one, stays as it is (the shell's substitution). 0: none. */
static size_t script_subst(struct sd_words *w, const char *t, size_t i, size_t e, char out[2],
                           size_t *used)
{
    char c = t[i];
    out[0] = c;
    if ((w->subst || w->backquote) && c == '\\' && i + 1 < e) { /* (`\``, `\)`: bytes) */
        out[1] = t[i + 1];
        *used = 2;
        return 2;
    }
    if (w->subst) {
        if (c == '(')
            w->subst++;
        else if (c == ')')
            w->subst--;
        return 1;
    }
    if (w->backquote || c == '`') {
        w->backquote = w->backquote ? c != '`' : true;
        w->in_word = w->any_word = true;
        return 1;
    }
    if (c != '$' || i + 1 >= e || t[i + 1] != '(')
        return 0;
    w->subst = 1;
    w->in_word = w->any_word = true;
    out[1] = '(';
    *used = 2;
    return 2;
}

size_t sd_word_byte(struct sd_words *w, const char *t, size_t i, size_t e, char out[2],
                    size_t *used)
{
    *used = 1;
    size_t n = w->expanded ? script_subst(w, t, i, e, out, used) : 0;
    if (n)
        return n;
    if (w->quote)
        return quoted(w, t, i, e, out, used);
    char c = t[i];
    if (blank(c)) {
        w->in_word = false;
        out[0] = c;
        return 1;
    }
    bool start = !w->in_word, first = start && !w->any_word;
    w->in_word = w->any_word = true;
    if (w->mode != SD_VALUE && (c == '"' || c == '\'')) {
        w->quote = c;
        out[0] = '"';
        return 1;
    }
    if (w->mode != SD_VALUE && c == '\\')
        return escape(w, t, i, e, out, used);
    if (c == '$')
        return dollar(t, i, e, out, used);
    if (c == '%')
        return specifier(t, i, e, out, used);
    if (c == ';' && start && !first && w->mode == SD_COMMAND && (i + 1 == e || blank(t[i + 1]))) {
        w->any_word = false; /* (a lone `;`: the next word is a command) */
        out[0] = ';';
        return 1;
    }
    if ((c && strchr("|&;<>()`'\"\\", c)) || (start && c == '#') || (first && keyword(t, i, e))) {
        out[0] = '\\';
        out[1] = c;
        return 2;
    }
    out[0] = c;
    return 1;
}

