/* inputs.c: input kinds, recognition and the parser table (see inputs.h). */
#include "linter/inputs.h"

#include <string.h>

#include "parsers/dockerfile_model.h"

static const struct gl_input_type input_types[] = {
    {GL_IN_DOCKERFILE, "dockerfile", gl_parse_dockerfile_doc},
};

#define N_TYPES (sizeof input_types / sizeof input_types[0])

const struct gl_input_type *gl_input_type_of(enum gl_input_kind kind)
{
    for (size_t i = 0; i < N_TYPES; i++)
        if (input_types[i].kind == kind)
            return &input_types[i];
    return NULL;
}

const struct gl_input_type *gl_input_type_named(const char *name)
{
    for (size_t i = 0; i < N_TYPES; i++)
        if (gl_streq_nocase(input_types[i].name, name))
            return &input_types[i];
    return NULL;
}

const char *gl_input_type_names(void)
{
    static char names[256];
    if (!names[0]) {
        for (size_t i = 0; i < N_TYPES; i++) {
            if (i)
                strcat(names, ", ");
            strcat(names, input_types[i].name);
        }
    }
    return names;
}

static const char *base_name(const char *path)
{
    const char *s = strrchr(path, '/');
    return s ? s + 1 : path;
}

static bool is_dockerfile_name(const char *b)
{
    if (!strcmp(b, "Dockerfile") || !strcmp(b, "Containerfile") || !strcmp(b, "dockerfile") ||
        !strcmp(b, "containerfile"))
        return true;
    if (gl_has_prefix(b, "Dockerfile.") || gl_has_prefix(b, "Containerfile.") ||
        gl_has_prefix(b, "Dockerfile_") || gl_has_prefix(b, "Dockerfile-"))
        return true;
    return gl_has_suffix(b, ".Dockerfile") || gl_has_suffix(b, ".dockerfile") ||
           gl_has_suffix(b, ".Containerfile") || gl_has_suffix(b, ".containerfile");
}

enum gl_input_kind gl_sniff_name(const char *path)
{
    const char *b = base_name(path);
    if (is_dockerfile_name(b))
        return GL_IN_DOCKERFILE;
    return GL_IN_UNKNOWN;
}

bool gl_sniff_wants_content(const char *path)
{
    (void)path;
    return false;
}

/* Does the text start (after comments and blank lines) with a Dockerfile instruction
 * that only Dockerfiles start with? Used for files named on the command line. */
static bool looks_like_dockerfile(const char *data, size_t len)
{
    static const char *const first[] = {"FROM", "ARG", "#"};
    size_t i = 0;
    while (i < len) {
        while (i < len && (data[i] == ' ' || data[i] == '\t' || data[i] == '\r' ||
                           data[i] == '\n'))
            i++;
        if (i >= len)
            return false;
        if (data[i] == '#') {
            while (i < len && data[i] != '\n')
                i++;
            continue;
        }
        for (size_t k = 0; k < 2; k++) {
            size_t n = strlen(first[k]);
            if (i + n < len && gl_strn_eq_nocase(data + i, n, first[k]) &&
                (data[i + n] == ' ' || data[i + n] == '\t'))
                return true;
        }
        return false;
    }
    return false;
}

enum gl_input_kind gl_sniff(const char *path, const char *data, size_t len, bool named)
{
    enum gl_input_kind k = gl_sniff_name(path);
    if (k != GL_IN_UNKNOWN)
        return k;
    if (named && looks_like_dockerfile(data, len))
        return GL_IN_DOCKERFILE;
    return GL_IN_UNKNOWN;
}
