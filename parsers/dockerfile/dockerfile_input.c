/* SPDX-License-Identifier: Apache-2.0 */
/* dockerfile_input.c: how gpulint recognises a Dockerfile (see linter/core/inputs.h). */
#include <string.h>

#include "linter/core/inputs.h"
#include "parsers/dockerfile/dockerfile_model.h"

static bool by_name(const char *path, const char *b)
{
    (void)path;
    if (!strcmp(b, "Dockerfile") || !strcmp(b, "Containerfile") || !strcmp(b, "dockerfile") ||
        !strcmp(b, "containerfile"))
        return true;
    if (gl_has_prefix(b, "Dockerfile.") || gl_has_prefix(b, "Containerfile.") ||
        gl_has_prefix(b, "Dockerfile_") || gl_has_prefix(b, "Dockerfile-"))
        return true;
    return gl_has_suffix(b, ".Dockerfile") || gl_has_suffix(b, ".dockerfile") ||
           gl_has_suffix(b, ".Containerfile") || gl_has_suffix(b, ".containerfile");
}

/* Is the line at data[i] Python's `from MODULE import NAME` rather than `FROM image`? */
static bool python_import(const char *data, size_t i, size_t len)
{
    const char *nl = memchr(data + i, '\n', len - i);
    size_t e = nl ? (size_t)(nl - data) : len;
    return memmem(data + i, e - i, " import ", 8) != NULL ||
           (e - i >= 7 && !memcmp(data + e - 7, " import", 7));
}

/* A file whose first instruction (after comments, parser directives and blank lines) is
 * FROM or ARG: only Dockerfiles start so. Consulted for files the user names, standard
 * input, and files of the walk whose name says nothing (`nccl-mpi-ubuntu20.04`). A file
 * with a `#!` line is a program, and `from x import y` is Python: neither is one. */
static bool by_content(const char *path, const char *data, size_t len)
{
    (void)path;
    static const char *const first[] = {"FROM", "ARG"};
    if (len >= 2 && data[0] == '#' && data[1] == '!')
        return false;
    size_t i = 0;
    while (i < len) {
        while (i < len && (data[i] == ' ' || data[i] == '\t' || data[i] == '\r' ||
                           data[i] == '\n'))
            i++;
        if (i < len && data[i] == '#') {
            while (i < len && data[i] != '\n')
                i++;
            continue;
        }
        for (size_t k = 0; k < sizeof first / sizeof first[0]; k++) {
            size_t n = strlen(first[k]);
            if (i + n < len && gl_strn_eq_nocase(data + i, n, first[k]) &&
                (data[i + n] == ' ' || data[i + n] == '\t'))
                return k > 0 || !python_import(data, i, len);
        }
        return false;
    }
    return false;
}

const struct gl_input_type gl_input_dockerfile = {
    .kind = GL_IN_DOCKERFILE,
    .name = "dockerfile",
    .priority = 10,
    .by_name = by_name,
    .candidate = gl_input_bare_candidate,
    .by_content = by_content,
    .parse = gl_parse_dockerfile_doc,
};
