/* SPDX-License-Identifier: Apache-2.0 */
/* launch_argv.c: the command word and image of a launch (see launch_argv.h). */
#include "rules/gl4xx/launch_argv.h"

#include <string.h>

bool gl_word_known(const struct gl_word *w) { return !w->opaque && w->text; }

const struct gl_ref *gl_launch_ref(const struct gl_doc *doc, const struct gl_launch *l)
{
    if (l->ref < 0 || (size_t)l->ref >= doc->nrefs)
        return NULL;
    return &doc->refs[l->ref];
}


const char *gl_word_base(const char *word, size_t *len)
{
    const char *slash = *len ? memrchr(word, '/', *len) : NULL;
    if (!slash)
        return word;
    size_t i = (size_t)(slash - word) + 1;
    *len -= i;
    return word + i;
}


/* Is the `len` bytes at `word` one of `names` (after dropping a directory)? */
bool gl_word_in(const char *word, size_t len, const char *const *names)
{
    word = gl_word_base(word, &len);
    char first = len ? word[0] : '\0'; /* most names differ there: no strlen for them */
    for (size_t i = 0; names[i]; i++)
        if (names[i][0] == first && strlen(names[i]) == len && !strncmp(word, names[i], len))
            return true;
    return false;
}


/* Wrappers in front of the real command: the command is searched for among their words. */
bool gl_word_wrapper(const char *word, size_t len)
{
    static const char *const names[] = {"env", "nohup", "time", "timeout", "exec", "sudo",
                                        "xargs", "mpirun", "mpiexec", "srun", "numactl",
                                        "taskset", "nice", "stdbuf", "tini", "dumb-init",
                                        "gosu", "su-exec", NULL};
    return gl_word_in(word, len, names);
}


/* Is the `len` bytes at `s` a VAR=value assignment? */
bool gl_word_assignment(const char *s, size_t len)
{
    const char *eq = memchr(s, '=', len);
    if (!eq || eq == s)
        return false;
    for (const char *p = s; p < eq; p++)
        if (!((*p >= 'A' && *p <= 'Z') || (*p >= 'a' && *p <= 'z') || *p == '_' ||
              (p > s && *p >= '0' && *p <= '9')))
            return false;
    return true;
}



size_t gl_launch_command_index(const struct gl_launch *l) { return gl_command_word(l, 0); }

size_t gl_launch_next_command(const struct gl_launch *l, size_t start)
{
    for (size_t k = start + 1; l->next_command && k < l->nargv; k++)
        if (l->next_command[k])
            return k;
    return l->nargv;
}

size_t gl_command_word(const struct gl_launch *l, size_t start)
{
    size_t end = gl_launch_next_command(l, start), i = start;
    while (i < end && gl_word_known(&l->argv[i]) &&
           (gl_word_assignment(l->argv[i].text, strlen(l->argv[i].text)) ||
            gl_word_wrapper(l->argv[i].text, strlen(l->argv[i].text))))
        i++;
    return i < end && gl_word_known(&l->argv[i]) ? i : l->nargv;
}

bool gl_script_runs(const char *s, gl_word_test test)
{
    bool command_position = true;
    const char *p = s;
    while (*p) {
        if (*p == ' ' || *p == '\t' || *p == '"' || *p == '\'') {
            p++;
            continue;
        }
        size_t n = strcspn(p, " \t\n;&|()\"'");
        if (n == 0) { /* an operator or a newline */
            command_position = true;
            p++;
            continue;
        }
        if (command_position) {
            if (test(p, n))
                return true;
            command_position = gl_word_assignment(p, n) || gl_word_wrapper(p, n);
        }
        p += n;
    }
    return false;
}

size_t gl_command_find(const struct gl_launch *l, size_t start, size_t end, gl_word_test test)
{
    size_t i = gl_command_word(l, start);
    if (i >= end)
        return end;
    if (test(l->argv[i].text, strlen(l->argv[i].text)))
        return i;
    /* behind a wrapper with options (mpirun -np 4 python ...): search its words */
    if (i > start && gl_word_wrapper(l->argv[i - 1].text, strlen(l->argv[i - 1].text)))
        for (size_t k = i; k < end; k++)
            if (gl_word_known(&l->argv[k]) && test(l->argv[k].text, strlen(l->argv[k].text)))
                return k;
    return end;
}

/* Does the command of argv[start, end) run a command that passes `test`? */
static bool command_runs(const struct gl_launch *l, size_t start, size_t end, gl_word_test test,
                         bool may)
{
    size_t i = gl_command_word(l, start);
    if (i >= end)
        return false;
    if (gl_command_find(l, start, end, test) < end)
        return true;
    const char *first = l->argv[i].text;
    size_t first_len = strlen(first);
    static const char *const shells[] = {"sh", "bash", "zsh", "dash", NULL};
    if (gl_word_in(first, first_len, shells))
        for (size_t k = i + 1; k + 1 < l->nargv; k++) {
            const char *opt = l->argv[k].text;
            if (!gl_word_known(&l->argv[k]) || opt[0] != '-')
                break;
            if (!strchr(opt, 'c'))
                continue;
            /* the script as one word (a spliced one is walked), past an end-of-options
             * `--` or `-` (`bash -c -- SCRIPT`) */
            size_t sc = k + 1;
            if (sc + 1 < l->nargv && gl_word_known(&l->argv[sc]) &&
                (!strcmp(l->argv[sc].text, "--") || !strcmp(l->argv[sc].text, "-")))
                sc++;
            return (may || gl_word_known(&l->argv[sc])) && l->argv[sc].text &&
                   gl_script_runs(l->argv[sc].text, test);
        }
    return false;
}

static bool launch_runs(const struct gl_launch *l, gl_word_test test, bool may)
{
    for (size_t s = 0; s < l->nargv; s = gl_launch_next_command(l, s))
        if (command_runs(l, s, gl_launch_next_command(l, s), test, may))
            return true;
    return false;
}

bool gl_launch_runs(const struct gl_launch *l, gl_word_test test)
{
    return launch_runs(l, test, false);
}

bool gl_launch_may_run(const struct gl_launch *l, gl_word_test test)
{
    return launch_runs(l, test, true);
}

bool gl_launch_steps_view(const struct gl_launch *l, struct gl_launch *view)
{
    if (!l->nsteps)
        return false;
    *view = *l;
    view->argv = l->steps;
    view->nargv = l->nsteps;
    view->next_command = l->steps_next;
    view->argv_opaque = l->steps_opaque;
    return true;
}

bool gl_command_shell_prefix(const struct gl_launch *l, size_t i, size_t end)
{
    static const char *const shells[] = {"sh", "bash", "zsh", "dash", "ksh", "ash", NULL};
    if (i >= end || !gl_word_named(l->argv[i].text, shells))
        return false;
    for (size_t k = i + 1; k < end; k++)
        if (!gl_word_known(&l->argv[k]) || l->argv[k].text[0] != '-')
            return false;
    return true;
}


bool gl_word_named(const char *word, const char *const *names)
{
    return gl_word_in(word, strlen(word), names);
}
