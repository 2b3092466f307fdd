/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ansible_input.c: Ansible playbooks and task files -> the launches of their shell and
 * command tasks.
 *
 * Recognition (gl_input_ansible), by content only (a .yml/.yaml file whose name no other
 * type claims): the first document is a sequence, and one of its items is a play (`hosts`
 * with `tasks`, `pre_tasks`, `post_tasks`, `handlers` or `roles`) or a task (a mapping
 * with one of the command modules below, or a `block`). Task files sit in any directory
 * (roles/x/tasks/, playbooks/, ...), so the name cannot decide.
 *
 * Read: every task of the plays' task lists (tasks, pre_tasks, post_tasks, handlers) or
 * of a task file, into `block`/`rescue`/`always` lists. A task's command module is one of
 * shell, command, raw, each also as ansible.builtin.X and ansible.legacy.X; its text is
 * the module's value when a string (the free form), else its `cmd:`, else the task's
 * `args: cmd:`. Each text is one shell (a fresh variable table) and goes with its srcmap
 * to gl_launches_from_shell; `command` is not run by a shell, but its words split the
 * same way. Jinja expressions (`{{ image }}`) are opaque parts of words (the shell
 * reader's template rule). Not read (yet): `argv:` lists, and container modules
 * (community.docker.docker_container, containers.podman.podman_container), which declare
 * a launch in YAML keys. Inline ignores: yt_add_pragmas.
 */
#include <string.h>

#include "linter/core/inputs.h"
#include "parsers/launch/launch_shell.h"
#include "parsers/yaml/yaml_tree.h"

/* Nesting of blocks followed (a deeper task list is left unread). */
#define ANSIBLE_MAX_DEPTH 64

static const char *const play_lists[] = {"pre_tasks", "tasks", "post_tasks", "handlers"};

static bool command_module(const char *k)
{
    static const char *const mods[] = {"shell", "command", "raw"};
    static const char *const ns[] = {"", "ansible.builtin.", "ansible.legacy."};
    for (size_t n = 0; n < sizeof ns / sizeof ns[0]; n++) {
        size_t l = strlen(ns[n]);
        if (strncmp(k, ns[n], l))
            continue;
        for (size_t m = 0; m < sizeof mods / sizeof mods[0]; m++)
            if (!strcmp(k + l, mods[m]))
                return true;
    }
    return false;
}

static void task_list(struct gl_doc *doc, struct yt_stream *s, struct yt_node *list, int depth);

static void task(struct gl_doc *doc, struct yt_stream *s, struct yt_node *t, int depth)
{
    static const char *const blocks[] = {"block", "rescue", "always"};
    for (size_t b = 0; b < sizeof blocks / sizeof blocks[0]; b++)
        task_list(doc, s, yt_get(s, t, blocks[b], NULL), depth + 1);
    struct yt_pair *p;
    size_t n = yt_pairs(s, t, &p);
    for (size_t i = 0; i < n; i++) {
        struct yt_node *k = yt_deref(s, p[i].key);
        if (!yt_is_scalar(k) || !command_module(k->value))
            continue;
        struct yt_node *text = p[i].value;
        if (yt_is_map(text))
            text = yt_get(s, text, "cmd", NULL);
        if (yt_is_null(text))
            text = yt_get(s, yt_get(s, t, "args", NULL), "cmd", NULL);
        gl_launches_from_yaml_scalar(doc, s, text, NULL);
        return;
    }
}

static void task_list(struct gl_doc *doc, struct yt_stream *s, struct yt_node *list, int depth)
{
    if (depth > ANSIBLE_MAX_DEPTH)
        return;
    for (size_t i = 0; yt_is_seq(list) && i < list->nitems; i++) {
        struct yt_node *t = yt_item(s, list, i);
        if (yt_is_map(t))
            task(doc, s, t, depth);
    }
}

static bool is_play(struct yt_stream *s, struct yt_node *item)
{
    return yt_is_map(item) && yt_get(s, item, "hosts", NULL);
}

static void parse(struct gl_doc *doc, const struct gl_config *cfg)
{
    (void)cfg;
    struct yt_stream s;
    yt_load_doc(&s, doc, doc->text, doc->len);
    struct yt_node *root = s.ndocs && s.docs[0] && s.docs[0]->complete ? s.docs[0] : NULL;
    for (size_t i = 0; yt_is_seq(root) && i < root->nitems; i++) {
        struct yt_node *item = yt_item(&s, root, i);
        if (!is_play(&s, item)) {
            if (yt_is_map(item))
                task(doc, &s, item, 0);
            continue;
        }
        for (size_t l = 0; l < sizeof play_lists / sizeof play_lists[0]; l++)
            task_list(doc, &s, yt_get(&s, item, play_lists[l], NULL), 0);
    }
    yt_add_pragmas(doc, &s);
    yt_report(doc, &s);
}

static bool candidate(const char *path, const char *b)
{
    (void)path;
    return yt_yaml_name(b);
}

static bool task_like(struct yt_stream *s, struct yt_node *item)
{
    if (!yt_is_map(item))
        return false;
    if (yt_get(s, item, "block", NULL))
        return true;
    struct yt_pair *p;
    size_t n = yt_pairs(s, item, &p);
    for (size_t i = 0; i < n; i++) {
        struct yt_node *k = yt_deref(s, p[i].key);
        if (yt_is_scalar(k) && command_module(k->value))
            return true;
    }
    return false;
}

static bool ansible_stream(struct yt_stream *s)
{
    static const char *const play_keys[] = {"tasks", "pre_tasks", "post_tasks", "handlers",
                                            "roles"};
    struct yt_node *root = s->ndocs ? s->docs[0] : NULL;
    for (size_t i = 0; yt_is_seq(root) && i < root->nitems; i++) {
        struct yt_node *item = yt_item(s, root, i);
        if (task_like(s, item))
            return true;
        for (size_t k = 0; is_play(s, item) && k < sizeof play_keys / sizeof play_keys[0]; k++)
            if (yt_get(s, item, play_keys[k], NULL))
                return true;
    }
    return false;
}

static bool by_content(const char *path, const char *data, size_t len)
{
    (void)path;
    size_t i = 0; /* the first document must be a sequence: `- ` after comments, `---` */
    while (i < len) {
        const char *nl = memchr(data + i, '\n', len - i);
        size_t end = nl ? (size_t)(nl - data) : len;
        size_t k = i;
        while (k < end && (data[k] == ' ' || data[k] == '\t' || data[k] == '\r'))
            k++;
        if (k < end && data[k] != '#' && !(end - k >= 3 && !memcmp(data + k, "---", 3)))
            return data[k] == '-' && yt_sniff(data, len, ansible_stream);
        i = end + 1;
    }
    return false;
}

const struct gl_input_type gl_input_ansible = {
    .kind = GL_IN_ANSIBLE,
    .name = "ansible",
    .priority = 16,
    .candidate = candidate,
    .by_content = by_content,
    .parse = parse,
};
