/* SPDX-License-Identifier: Apache-2.0 */
/* inputs.c: input-type look-ups and recognition (see inputs.h). */
#include "linter/core/inputs.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* gl_input_table in the order types are tried: priority, then name (made once: inputs
 * are linted on several threads). */
static const struct gl_input_type **order;

static void make_order(void)
{
    const struct gl_input_type **o = xcalloc(gl_input_count + 1, sizeof *o);
    for (size_t i = 0; i < gl_input_count; i++) {
        size_t k = i;
        while (k > 0 && (o[k - 1]->priority > gl_input_table[i]->priority ||
                         (o[k - 1]->priority == gl_input_table[i]->priority &&
                          strcmp(o[k - 1]->name, gl_input_table[i]->name) > 0))) {
            o[k] = o[k - 1];
            k--;
        }
        o[k] = gl_input_table[i];
    }
    order = o;
}

static const struct gl_input_type *const *ordered(void)
{
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, make_order);
    return order;
}

const struct gl_input_type *gl_input_type_of(enum gl_input_kind kind)
{
    for (size_t i = 0; i < gl_input_count; i++)
        if (gl_input_table[i]->kind == kind)
            return gl_input_table[i];
    return NULL;
}

const struct gl_input_type *gl_input_type_named(const char *name)
{
    for (size_t i = 0; i < gl_input_count; i++)
        if (gl_streq_nocase(gl_input_table[i]->name, name))
            return gl_input_table[i];
    return NULL;
}

static char type_names[512];

static void make_type_names(void)
{
    const struct gl_input_type *const *o = ordered();
    for (size_t i = 0; i < gl_input_count; i++) {
        if (i)
            strncat(type_names, ", ", sizeof type_names - strlen(type_names) - 1);
        strncat(type_names, o[i]->name, sizeof type_names - strlen(type_names) - 1);
    }
}

const char *gl_input_type_names(void)
{
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, make_type_names);
    return type_names;
}

bool gl_input_bare_candidate(const char *path, const char *base)
{
    if (!base[0] || base[0] == '.')
        return false;
    const char *dot = strrchr(base, '.');
    if (dot && !strpbrk(dot + 1, "0123456789"))
        return false; /* an extension that says what the file is */
    return gl_input_bare_candidate_size(path);
}

bool gl_input_bare_candidate_size(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode) && st.st_size <= GL_BARE_CANDIDATE_MAX;
}

bool gl_input_other_format(const char *base)
{
    static const char *const suffixes[] = {".patch", ".diff", ".encrypted", ".enc", ".gpg"};
    for (size_t i = 0; i < sizeof suffixes / sizeof suffixes[0]; i++)
        if (gl_has_suffix(base, suffixes[i]))
            return true;
    return false;
}

enum gl_input_kind gl_sniff_name(const char *path, bool *read_it)
{
    const struct gl_input_type *const *o = ordered();
    const char *base = gl_base_name(path);
    *read_it = false;
    for (size_t i = 0; i < gl_input_count; i++) {
        if (o[i]->by_name && o[i]->by_name(path, base))
            return o[i]->kind;
        if (o[i]->candidate && o[i]->candidate(path, base))
            *read_it = true;
    }
    return GL_IN_UNKNOWN;
}

/* The first type (in priority order) whose content test accepts data, other than `not`;
 * with `candidates_only`, only types for which the file's name is a candidate. */
static enum gl_input_kind content_kind(const char *path, const char *data, size_t len,
                                       bool candidates_only, enum gl_input_kind not)
{
    const struct gl_input_type *const *o = ordered();
    const char *base = gl_base_name(path);
    for (size_t i = 0; i < gl_input_count; i++) {
        if (!o[i]->by_content || o[i]->kind == not ||
            (candidates_only && !(o[i]->candidate && o[i]->candidate(path, base))))
            continue;
        if (o[i]->by_content(path, data, len))
            return o[i]->kind;
    }
    return GL_IN_UNKNOWN;
}

enum gl_input_kind gl_sniff_content(const char *path, const char *data, size_t len,
                                    enum gl_input_kind not)
{
    return content_kind(path, data, len, false, not);
}

enum gl_input_kind gl_sniff(const char *path, const char *data, size_t len, bool named)
{
    bool read_it;
    enum gl_input_kind k = gl_sniff_name(path, &read_it);
    return k != GL_IN_UNKNOWN ? k : content_kind(path, data, len, !named, GL_IN_UNKNOWN);
}
