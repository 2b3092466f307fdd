/* SPDX-License-Identifier: Apache-2.0 */
/* test_ansible.c: Ansible playbooks and task files -> launches (parsers/launch/
 * ansible_input.c): recognition by content, the task forms read, positions, and Jinja
 * expressions as opaque parts of words (parsers/shell). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "linter/core/inputs.h"
#include "test_support.h"

/* The doc of `text`, read by the ansible reader. */
static struct gl_doc *parse(const char *text)
{
    const struct gl_input_type *t = gl_input_type_named("ansible");
    assert_non_null(t);
    struct gl_doc *d = test_doc_new("roles/r/tasks/main.yml", GL_IN_ANSIBLE, text, strlen(text));
    t->parse(d, NULL);
    return d;
}

static void done(struct gl_doc *d) { test_doc_free(d); }

static enum gl_input_kind sniff(const char *path, const char *text)
{
    return gl_sniff(path, text, strlen(text), false);
}

static void test_recognition(void **st)
{
    (void)st;
    assert_int_equal(sniff("roles/r/tasks/main.yml",
                           "---\n# tasks\n- name: x\n  ansible.builtin.shell: echo hi\n"),
                     GL_IN_ANSIBLE);
    assert_int_equal(sniff("site.yml", "- hosts: all\n  roles:\n    - train\n"), GL_IN_ANSIBLE);
    assert_int_equal(sniff("play.yaml", "- name: p\n  hosts: gpu\n  tasks: []\n"),
                     GL_IN_ANSIBLE);
    assert_int_equal(sniff("t.yml", "- block:\n    - debug: msg=hi\n"), GL_IN_ANSIBLE);
    /* not Ansible: a list of other things, a mapping, a Kubernetes List, compose */
    assert_int_not_equal(sniff("x.yml", "- a\n- b\n"), GL_IN_ANSIBLE);
    assert_int_not_equal(sniff("x.yml", "- name: x\n  value: 1\n"), GL_IN_ANSIBLE);
    assert_int_not_equal(sniff("x.yml", "shell: echo hi\n"), GL_IN_ANSIBLE);
    assert_int_equal(sniff("x.yml", "services:\n  a:\n    image: img:1\n"), GL_IN_COMPOSE);
    assert_int_not_equal(sniff("x.yml", "- hosts: all\n  vars: {}\n"), GL_IN_ANSIBLE);
}

static void test_task_forms(void **st)
{
    (void)st;
    const char *y = "- hosts: gpu\n"
                    "  pre_tasks:\n"
                    "    - shell: docker run --gpus all img:1 python a.py\n"      /* 3 */
                    "  tasks:\n"
                    "    - block:\n"
                    "        - ansible.builtin.command:\n"
                    "            cmd: docker run --gpus all img:2 python b.py\n" /* 7 */
                    "      rescue:\n"
                    "        - ansible.legacy.shell: |\n"
                    "            docker run --gpus all img:3 python c.py\n"    /* 10 */
                    "    - command:\n"
                    "      args:\n"
                    "        cmd: docker run --gpus all img:4 python d.py\n"   /* 13 */
                    "    - ansible.builtin.apt: name=docker run\n"
                    "  handlers:\n"
                    "    - raw: podman run img:5\n";                              /* 16 */
    struct gl_doc *d = parse(y);
    assert_false(d->error.set);
    assert_int_equal(d->nlaunches, 5);
    static const struct { const char *ref; uint32_t line, col; } want[] = {
        {"img:1", 3, 36}, {"img:2", 7, 40}, {"img:3", 10, 35}, {"img:4", 13, 36}, {"img:5", 16, 23},
    };
    for (size_t i = 0; i < 5; i++) {
        assert_string_equal(d->refs[i].text, want[i].ref);
        assert_int_equal(d->refs[i].loc.line, want[i].line);
        assert_int_equal(d->refs[i].loc.col, want[i].col);
    }
    done(d);
}

static void test_jinja_is_opaque(void **st)
{
    (void)st;
    const char *y = "- name: t\n"
                    "  shell: docker run --gpus all -v {{ data }}:/data {{ image }} python t.py\n"
                    "- name: u\n"
                    "  shell: docker run nvcr.io/nvidia/pytorch:{{ tag }} python t.py\n";
    struct gl_doc *d = parse(y);
    assert_int_equal(d->nlaunches, 2);
    assert_int_equal(d->nrefs, 0); /* both images are opaque: no reference to judge */
    assert_int_equal(d->launches[0].ref, -1);
    assert_int_equal(d->launches[1].ref, -1);
    assert_int_equal(d->launches[0].nmounts, 1);
    assert_string_equal(d->launches[0].mounts[0].target, "/data");
    done(d);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_recognition),
        cmocka_unit_test(test_task_forms),
        cmocka_unit_test(test_jinja_is_opaque),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
