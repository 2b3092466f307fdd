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
    for (size_t i = *len; i > 0; i--)
        if (word[i - 1] == '/') {
            *len -= i;
            return word + i;
        }
    return word;
}


/* Is the `len` bytes at `word` one of `names` (after dropping a directory)? */
bool gl_word_in(const char *word, size_t len, const char *const *names)
{
    word = gl_word_base(word, &len);
    for (size_t i = 0; names[i]; i++)
        if (strlen(names[i]) == len && !strncmp(word, names[i], len))
            return true;
    return false;
}


/* Wrappers in front of the real command: the command is searched for among their words. */
bool gl_word_wrapper(const char *word, size_t len)
{
    static const char *const names[] = {"env", "nohup", "time", "exec", "mpirun", "mpiexec",
                                        "srun", "numactl", "taskset", "nice", "stdbuf",
                                        "tini", "dumb-init", "gosu", "su-exec", NULL};
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



size_t gl_launch_command_index(const struct gl_launch *l)
{
    size_t i = 0;
    while (i < l->nargv && gl_word_known(&l->argv[i]) &&
           (gl_word_assignment(l->argv[i].text, strlen(l->argv[i].text)) ||
            gl_word_wrapper(l->argv[i].text, strlen(l->argv[i].text))))
        i++;
    return i < l->nargv && gl_word_known(&l->argv[i]) ? i : l->nargv;
}


bool gl_word_named(const char *word, const char *const *names)
{
    return gl_word_in(word, strlen(word), names);
}
