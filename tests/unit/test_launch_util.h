/* SPDX-License-Identifier: Apache-2.0 */
/* test_launch_util.h: helpers for the launch unit tests (test_launch_*.c): a doc built
 * from text, and the facts of its launches as short strings (assert_loc and the doc
 * helpers come from test_support.h). Include after cmocka.h. */
#ifndef GPULINT_TESTS_TEST_LAUNCH_UTIL_H
#define GPULINT_TESTS_TEST_LAUNCH_UTIL_H

#include <stdio.h>
#include <string.h>

#include "linter/core/inputs.h"
#include "parsers/launch/launch_shell.h"
#include "tests/unit/test_support.h"

static struct gl_doc D;

static int doc_setup(void **state)
{
    (void)state;
    test_doc_init(&D, NULL, GL_IN_UNKNOWN, NULL, 0);
    return 0;
}

static int doc_teardown(void **state)
{
    (void)state;
    gl_arena_free(&D.arena);
    return 0;
}

static void doc_text(const char *path, const char *text)
{
    D.path = path;
    D.text = text;
    D.len = strlen(text);
}

/* Launches of a shell text (gl_launches_from_shell). */
static inline void sh(const char *text)
{
    doc_text("t.sh", text);
    gl_launches_from_shell(&D, text, D.len, NULL, NULL);
}

/* Parse with an input type's parser. */
static inline void parse_as(const struct gl_input_type *type, const char *path, const char *text)
{
    doc_text(path, text);
    type->parse(&D, NULL);
}

static const struct gl_launch *L(size_t i)
{
    assert_true(i < D.nlaunches);
    return &D.launches[i];
}

static inline const char *image(size_t i)
{
    int r = L(i)->ref;
    return r < 0 ? "(none)" : D.refs[r].text;
}

/* argv joined with '|' */
static inline const char *argv_of(size_t i)
{
    static char buf[4096];
    size_t n = 0;
    buf[0] = 0;
    for (size_t k = 0; k < L(i)->nargv && n < sizeof buf; k++)
        n += (size_t)snprintf(buf + n, sizeof buf - n, "%s%s", k ? "|" : "", L(i)->argv[k].text);
    return buf;
}

/* mount k as "type source->target[ ro]" */
static inline const char *mount_of(size_t i, size_t k)
{
    static char buf[1024];
    static const char *const types[] = {"bind", "volume", "tmpfs", "emptydir", "emptydir-mem",
                                        "config", "other"};
    assert_true(k < L(i)->nmounts);
    const struct gl_mount *m = &L(i)->mounts[k];
    snprintf(buf, sizeof buf, "%s %s->%s%s", types[m->type], m->source ? m->source : "-",
             m->target ? m->target : "-", m->readonly ? " ro" : "");
    return buf;
}

static inline const struct gl_gpu_request *gpu(size_t i, size_t k)
{
    assert_true(k < L(i)->ngpus);
    return &L(i)->gpus[k];
}

#endif
