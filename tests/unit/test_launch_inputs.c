/* SPDX-License-Identifier: Apache-2.0 */
/* test_launch_inputs.c: the input types that hold launches (shell scripts, Makefiles,
 * Markdown, apptainer .def files): recognition, positions in the original file, inline
 * ignores. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "parsers/docs/doc_prompt.h"
#include "tests/unit/test_launch_util.h"

extern const struct gl_input_type gl_input_shell, gl_input_makefile, gl_input_markdown,
    gl_input_apptainer_def, gl_input_systemd;

/* Write text to dir/name (a unit beside the one parsed). */
static void put(const char *dir, const char *name, const char *text)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    test_write_file(path, text);
}

static void t_quadlet_sibling_units(void **s)
{
    (void)s;
    /* Image=NAME.image / NAME.build: the image the unit beside pulls (its last Image=) or
       builds (its first ImageTag=, an image the project builds), placed at the name; a
       unit that is absent, or an archive, leaves the image unknown */
    char dir[] = "/tmp/gl-quadlet-XXXXXX";
    assert_non_null(mkdtemp(dir));
    put(dir, "a.image", "[Image]\nImage=docker.io/x/old:1\nImage=docker://nvcr.io/nvidia/"
                        "pytorch:24.05-py3\n");
    put(dir, "b.build", "[Build]\nImageTag=localhost/b:dev\nImageTag=localhost/b:2\n");
    put(dir, "c.image", "[Image]\nImage=oci-archive:/srv/c.tar\n");
    char path[512];
    snprintf(path, sizeof path, "%s/x.container", dir);
    parse_as(&gl_input_systemd, path,
             "[Container]\nImage=a.image\nExec=python t.py\n");
    assert_int_equal(D.nlaunches, 1);
    assert_string_equal(image(0), "nvcr.io/nvidia/pytorch:24.05-py3");
    assert_loc(D.refs[L(0)->ref].loc, 2, 7);
    assert_int_equal(D.nproject, 0);
    parse_as(&gl_input_systemd, path, "[Container]\nImage=b.build\n");
    assert_int_equal(D.nlaunches, 2);
    assert_string_equal(image(1), "localhost/b:dev");
    assert_int_equal(D.nproject, 1);
    assert_string_equal(D.project[0].text, "localhost/b:dev");
    assert_loc(D.project[0].loc, 2, 7);
    parse_as(&gl_input_systemd, path, "[Container]\nImage=c.image\n");
    parse_as(&gl_input_systemd, path, "[Container]\nImage=d.image\n");
    parse_as(&gl_input_systemd, path, "[Container]\nImage=../a.image\n");
    assert_int_equal(D.nlaunches, 5);
    assert_int_equal(L(2)->ref, -1);
    assert_int_equal(L(3)->ref, -1);
    assert_int_equal(L(4)->ref, -1);
    /* a unit read from stdin has no directory */
    parse_as(&gl_input_systemd, "-", "[Container]\nImage=a.image\n");
    assert_int_equal(L(5)->ref, -1);
    const char *names[] = {"a.image", "b.build", "c.image"};
    for (size_t i = 0; i < 3; i++) {
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        unlink(path);
    }
    rmdir(dir);
}

static void t_script_by_name_and_content(void **s)
{
    (void)s;
    assert_true(gl_input_shell.by_name("a/run.sh", "run.sh"));
    assert_true(gl_input_shell.by_name("x.bash", "x.bash"));
    assert_false(gl_input_shell.by_name("x.py", "x.py"));
    const char *c[] = {"#!/bin/bash\n", "#! /bin/sh -e\n", "#!/usr/bin/env bash\n",
                       "#!/usr/bin/env -S zsh -f\n", "#!/bin/dash"};
    for (size_t i = 0; i < 5; i++)
        assert_true(gl_input_shell.by_content("x", c[i], strlen(c[i])));
    const char *n[] = {"#!/usr/bin/env python3\n", "echo hi\n", "#!", "#!/bin/bashful\n"};
    for (size_t i = 0; i < 4; i++)
        assert_false(gl_input_shell.by_content("x", n[i], strlen(n[i])));
}

static void t_script_parse_error(void **s)
{
    (void)s;
    parse_as(&gl_input_shell, "a.sh", "docker run img\necho \"unterminated\n");
    assert_int_equal(D.nlaunches, 1);
    assert_true(D.error.set);
    assert_loc(D.error.loc, 2, 6);
}

static void t_script_vars_across_lines(void **s)
{
    (void)s;
    parse_as(&gl_input_shell, "a.sh",
             "#!/bin/bash\nIMG=${IMG:-nvcr.io/nvidia/pytorch:24.05-py3}\n"
             "docker run -d --gpus all $IMG a\ndocker run -d --gpus all $IMG b\n");
    assert_int_equal(D.nlaunches, 2);
    assert_string_equal(image(1), "nvcr.io/nvidia/pytorch:24.05-py3");
    assert_string_equal(L(0)->group, "a.sh");
    assert_string_equal(L(1)->group, "a.sh");
}

static void t_script_pragmas(void **s)
{
    (void)s;
    parse_as(&gl_input_shell, "a.sh",
             "# gpulint global ignore=GL411\n\n# gpulint ignore=GL403,GL410\n"
             "docker run \\\n  -v /d:/d \\\n  img\necho done\n");
    assert_int_equal(D.nignores, 2);
    assert_int_equal(D.ignores[0].first, 0);
    assert_int_equal(D.ignores[1].first, 4);
    assert_int_equal(D.ignores[1].last, 6);
    assert_int_equal(D.ignores[1].nids, 2);
    assert_string_equal(D.ignores[1].ids[1], "GL410");
    assert_loc(D.ignores[1].id_locs[0], 3, 18);
}

static void t_makefile_recipe(void **s)
{
    (void)s;
    const char *mk = "IMAGE := nvcr.io/nvidia/pytorch:24.05-py3\n"
                     "DATA ?= /mnt/data\n"
                     "FLAGS = --gpus all\n"
                     "FLAGS += --ipc=host\n"
                     "\n"
                     "train: build\n"
                     "\t@docker run $(FLAGS) -v ${DATA}:/data \\\n"
                     "\t\t$(IMAGE) python train.py --output_dir $$HOME/out\n"
                     "\t-docker run $(UNKNOWN) org/img2\n";
    parse_as(&gl_input_makefile, "Makefile", mk);
    assert_int_equal(D.nlaunches, 2);
    assert_loc(L(0)->loc, 7, 3);
    assert_string_equal(image(0), "nvcr.io/nvidia/pytorch:24.05-py3");
    assert_loc(D.refs[0].loc, 8, 3);
    assert_string_equal(gpu(0, 0)->value, "all");
    assert_loc(gpu(0, 0)->loc, 7, 14);
    assert_string_equal(L(0)->ipc, "host");
    assert_string_equal(mount_of(0, 0), "bind /mnt/data->/data");
    assert_loc(L(0)->mounts[0].loc, 7, 26);
    assert_string_equal(argv_of(0), "python|train.py|--output_dir|$HOME/out");
    assert_true(L(0)->argv[3].opaque);
    assert_loc(L(0)->argv[3].loc, 8, 41);
    assert_true(L(1)->opts_opaque);
    assert_string_equal(image(1), "org/img2");
    assert_loc(L(1)->loc, 9, 3);
}

static void t_makefile_conditional_opaque(void **s)
{
    (void)s;
    const char *mk = "ifeq ($(GPU),1)\nIMG = a:1\nelse\nIMG = b:2\nendif\n"
                     "define BODY\ndocker run x\nendef\n"
                     "run:\n\tdocker run $(IMG) t\n\n# comment\n\tdocker run c:3\n"
                     "X = 1\n\tdocker run notarecipe\n";
    parse_as(&gl_input_makefile, "x.mk", mk);
    assert_int_equal(D.nlaunches, 2);
    assert_int_equal(L(0)->ref, -1);
    assert_string_equal(image(1), "c:3");
    assert_true(gl_input_makefile.by_name("x.mk", "x.mk"));
    assert_true(gl_input_makefile.by_name("GNUmakefile", "GNUmakefile"));
}

static void t_markdown_console(void **s)
{
    (void)s;
    const char *md = "# Title\n\nRun `docker run inline:1` in prose.\n\n"
                     "```console\n"
                     "$ docker run --gpus all \\\n"
                     "    nvcr.io/nvidia/pytorch:24.05-py3 nvidia-smi\n"
                     "+-----------------------+\n"
                     "docker run output:1\n"
                     "$ echo ok\n"
                     "```\n";
    parse_as(&gl_input_markdown, "README.md", md);
    assert_int_equal(D.nlaunches, 1);
    assert_loc(L(0)->loc, 6, 3);
    assert_string_equal(image(0), "nvcr.io/nvidia/pytorch:24.05-py3");
    assert_loc(D.refs[0].loc, 7, 5);
    assert_loc(gpu(0, 0)->loc, 6, 21);
    assert_string_equal(argv_of(0), "nvidia-smi");
}

/* The prompts a terminal printed before a command (doc_prompt.h; horovod's docker.rst
 * writes `host1$ nvidia-docker run ...`, HPC guides `[user@login01 ~]$ singularity ...`):
 * skipped as `$ ` is, in console blocks (the rest is output) and in plain ones. */
static void t_markdown_prompts(void **s)
{
    (void)s;
    static const struct {
        const char *line;
        size_t len;
    } cases[] = {
        {"$ docker run", 2},          {"host1$ docker run", 7},
        {"me@box:~$ docker", 10},     {"root@5c2f:/ws# python", 15},
        {"[me@node01 ~]$ srun", 15},  {"(base) $ docker", 9},
        {"(venv) me@box:~/x$ a", 19}, {"# docker run", 0},
        {"X=1$ docker", 0},           {"12:00 me@box:~$ a", 0},
        {"(cd x) && docker", 0},      {"[rank0]: docker", 0},
        {"~$ docker", 0},             {"host1$", 0},
        {"[]$ docker", 0},            {"$docker run", 0},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        if (doc_prompt_len(cases[i].line, 0, strlen(cases[i].line)) != cases[i].len)
            fail_msg("prompt of `%s`: want %zu", cases[i].line, cases[i].len);
    const char *md = "```bash\n"
                     "node1$ nvidia-docker run -it a:1\n"
                     "root@5c2f:/workspace# python train.py\n"
                     "```\n"
                     "```\n"
                     "[me@login01 ~]$ nvidia-docker run --rm b:2 \\\n"
                     "    python eval.py\n"
                     "[rank0]: nvidia-docker run output:1\n"
                     "(base) me@box:~$ nvidia-docker run c:3\n"
                     "```\n";
    parse_as(&gl_input_markdown, "README.md", md);
    /* each launch at its first word, after the prompt */
    static const struct {
        const char *image;
        uint32_t line, col;
    } want[] = {{"a:1", 2, 8}, {"b:2", 6, 17}, {"c:3", 9, 18}};
    assert_int_equal(D.nlaunches, 3);
    for (size_t i = 0; i < 3; i++) {
        assert_string_equal(image(i), want[i].image);
        assert_loc(L(i)->loc, want[i].line, want[i].col);
    }
    assert_string_equal(argv_of(1), "python|eval.py"); /* the continued line is read */
}

static void t_markdown_tags_and_untagged(void **s)
{
    (void)s;
    const char *md = "```python\nos.system('docker run py:1')\n```\n"
                     "```\ndocker run untagged:1\n```\n"
                     "```\npip install x\ndocker run notfirst:1\n```\n"
                     "~~~bash\nexport IMG=shared:1\n~~~\n"
                     "- item\n\n  ```sh\n  docker run -d $IMG\n  ```\n"
                     "```yaml\nrun: docker run y:1\n```\n"
                     "```shell {linenos}\n$ podman run p:1\n```\n";
    parse_as(&gl_input_markdown, "doc.mdx", md);
    /* an untagged fence is read when any line starts a launch (RULES.md third round) */
    assert_int_equal(D.nlaunches, 4);
    assert_string_equal(image(0), "untagged:1");
    assert_loc(D.refs[0].loc, 5, 12);
    assert_string_equal(image(1), "notfirst:1");
    assert_loc(D.refs[1].loc, 9, 12);
    assert_string_equal(image(2), "shared:1");
    assert_loc(L(2)->loc, 17, 3);
    assert_true(L(2)->detached);
    assert_string_equal(image(3), "p:1");
    assert_loc(D.refs[3].loc, 23, 14);
}

static void t_markdown_unclosed_fence(void **s)
{
    (void)s;
    parse_as(&gl_input_markdown, "a.md", "````bash\ndocker run a:1\n~~~~\ndocker run b:2\n");
    assert_int_equal(D.nlaunches, 2);
}

static void t_def_file(void **s)
{
    (void)s;
    const char *def = "# comment\nBootstrap: docker\nFrom: nvcr.io/nvidia/pytorch:24.05-py3\n\n"
                      "%post\n  pip install x\nFrom: not/this:1\n"
                      "Bootstrap: library\nFrom: ubuntu:22.04\n%runscript\n"
                      "bootstrap: localimage\nfrom:   ./base.sif  \n";
    assert_true(gl_input_apptainer_def.by_content("x.def", def, strlen(def)));
    assert_false(gl_input_apptainer_def.by_content("x.def", "EXPORTS\n f\n", 11));
    assert_true(gl_input_apptainer_def.candidate("x.def", "x.def"));
    assert_true(gl_input_apptainer_def.by_name("Singularity", "Singularity"));
    parse_as(&gl_input_apptainer_def, "x.def", def);
    assert_int_equal(D.nrefs, 3);
    assert_int_equal(D.refs[0].role, GL_REF_DEF_FROM);
    assert_string_equal(D.refs[0].text, "nvcr.io/nvidia/pytorch:24.05-py3");
    assert_loc(D.refs[0].loc, 3, 7);
    assert_true(D.refs[0].ok);
    assert_loc(D.refs[0].parsed.tag_loc, 3, 30);
    assert_false(D.refs[1].ok);
    assert_string_equal(D.refs[2].text, "./base.sif");
    assert_true(D.refs[2].local);
    assert_loc(D.refs[2].loc, 12, 9);
}

static void t_markdown_pragma(void **s)
{
    (void)s;
    parse_as(&gl_input_markdown, "a.md",
             "```bash\n# gpulint ignore=GL407\ndocker run \\\n  img:1\n```\n");
    assert_int_equal(D.nignores, 1);
    assert_int_equal(D.ignores[0].first, 3);
    assert_int_equal(D.ignores[0].last, 4);
}

/* Each code block's detached launches are a group of their own, named after the file
 * and the block's first line (the name written when a launch asks for it); launches that
 * are not detached have none. */
static void t_markdown_block_groups(void **s)
{
    (void)s;
    parse_as(&gl_input_markdown, "docs/serve.md",
             "# Serve\n\n```bash\ndocker run -d --gpus all srv:1\ndocker run -d cli:1 &\n```\n"
             "text\n```sh\ndocker run --rm once:1\n```\n\n"
             "```console\n$ docker run -d --gpus 1 srv:2\n```\n");
    assert_int_equal(D.nlaunches, 4);
    assert_string_equal(L(0)->group, "docs/serve.md#4");
    assert_string_equal(L(1)->group, "docs/serve.md#4");
    assert_ptr_equal(L(0)->group, L(1)->group); /* written once a block */
    assert_null(L(2)->group);
    assert_string_equal(L(3)->group, "docs/serve.md#13");
    /* a line number of four digits */
    doc_teardown(NULL);
    doc_setup(NULL);
    char md[2048];
    memset(md, '\n', 1233);
    snprintf(md + 1233, sizeof md - 1233, "```bash\ndocker run -d img:1\n```\n");
    parse_as(&gl_input_markdown, "a.md", md);
    assert_int_equal(D.nlaunches, 1);
    assert_string_equal(L(0)->group, "a.md#1235");
}

/* A Markdown text of more lines than the reader keeps a table of (it walks them with
 * memchr then, and the doc finds its line index itself): the same launches and positions
 * as a short one. */
static void t_markdown_many_lines(void **s)
{
    (void)s;
    const char *tail = "```bash\ndocker run --gpus all img:1\n```\n";
    size_t blank = ((size_t)1 << 20) + 7, n = blank + strlen(tail);
    char *md = malloc(n + 1);
    assert_non_null(md);
    memset(md, '\n', blank);
    memcpy(md + blank, tail, strlen(tail) + 1);
    for (int round = 0; round < 2; round++) {
        const char *text = round ? md : md + blank - 3; /* 3 blank lines, then all of them */
        size_t first = round ? blank : 3;
        parse_as(&gl_input_markdown, round ? "long.md" : "short.md", text);
        assert_int_equal(D.nlaunches, 1);
        assert_string_equal(image(0), "img:1");
        assert_loc(D.refs[0].loc, (uint32_t)first + 2, 23);
        assert_int_equal(gl_doc_offset(&D, D.refs[0].loc), first + 8 + 22);
        doc_teardown(NULL);
        doc_setup(NULL);
    }
    free(md);
}

/* File names the launch and document types take (their tests look at the last dot). */
static void t_names(void **s)
{
    (void)s;
    static const char *const md_yes[] = {"README.md", "a.mdx", "b.markdown", ".md", "x.y.qmd",
                                         "r.Rmd", "r.rmd"};
    static const char *const md_no[] = {"a.md.txt", "md", "a.MD", "a.mdxx", "a.m"};
    for (size_t i = 0; i < sizeof md_yes / sizeof *md_yes; i++)
        assert_true(gl_input_markdown.by_name(md_yes[i], md_yes[i]));
    for (size_t i = 0; i < sizeof md_no / sizeof *md_no; i++)
        assert_false(gl_input_markdown.by_name(md_no[i], md_no[i]));
    static const char *const sh_yes[] = {"run.sh", "a.b.bash", "job.sbatch", "j.slurm", "t.bats"};
    static const char *const sh_no[] = {"run.sh.bak", "sh", "run.shx", "run.s"};
    for (size_t i = 0; i < sizeof sh_yes / sizeof *sh_yes; i++)
        assert_true(gl_input_shell.by_name(sh_yes[i], sh_yes[i]));
    for (size_t i = 0; i < sizeof sh_no / sizeof *sh_no; i++)
        assert_false(gl_input_shell.by_name(sh_no[i], sh_no[i]));
    static const char *const mk_yes[] = {"Makefile", "makefile", "GNUmakefile", "a.mk", "b.mak",
                                         "Makefile.am", "makefile.gpu", "x.Makefile",
                                         "x.makefile"};
    static const char *const mk_no[] = {"Makefile2", "a.mkk", "MakefileX.y", "xMakefile",
                                        "GNUmakefile.x"};
    for (size_t i = 0; i < sizeof mk_yes / sizeof *mk_yes; i++)
        assert_true(gl_input_makefile.by_name(mk_yes[i], mk_yes[i]));
    assert_true(gl_input_makefile.by_name("Makefile.", "Makefile.")); /* (a prefix match) */
    for (size_t i = 0; i < sizeof mk_no / sizeof *mk_no; i++)
        assert_false(gl_input_makefile.by_name(mk_no[i], mk_no[i]));
    static const char *const def_yes[] = {"Singularity", "Apptainer", "Singularity.gpu",
                                          "Apptainer.x"};
    static const char *const def_no[] = {"SingularityX", "apptainer", "Apptainerx", "x.def"};
    for (size_t i = 0; i < sizeof def_yes / sizeof *def_yes; i++)
        assert_true(gl_input_apptainer_def.by_name(def_yes[i], def_yes[i]));
    for (size_t i = 0; i < sizeof def_no / sizeof *def_no; i++)
        assert_false(gl_input_apptainer_def.by_name(def_no[i], def_no[i]));
}

/* Hostile inputs: NUL bytes, long lines, make expansion bombs, many appends. Linear time,
 * no crash (run under the sanitizers). */
static void t_hostile(void **s)
{
    (void)s;
    static char buf[1 << 21];
    size_t n = 0;
    n += (size_t)snprintf(buf + n, sizeof buf - n, "A0 = x\n");
    for (int i = 1; i < 12; i++) {
        n += (size_t)snprintf(buf + n, sizeof buf - n, "A%d =", i);
        for (int k = 0; k < 50; k++)
            n += (size_t)snprintf(buf + n, sizeof buf - n, " $(A%d)", i - 1);
        buf[n++] = '\n';
    }
    while (n < sizeof buf / 2)
        n += (size_t)snprintf(buf + n, sizeof buf - n, "X += -v/a:/b\n");
    n += (size_t)snprintf(buf + n, sizeof buf - n, "t:\n\tdocker run $(A11) $(X) img\n");
    parse_as(&gl_input_makefile, "Makefile", buf);
    assert_int_equal(D.nlaunches, 1);

    const char nul[] = "```bash\ndocker run \0x img\n```\n\tdocker\0 run a\n";
    D.path = "a.md";
    D.text = nul;
    D.len = sizeof nul - 1;
    gl_input_markdown.parse(&D, NULL);
    D.text = nul + 8;
    D.len = sizeof nul - 9;
    gl_input_makefile.parse(&D, NULL);
    gl_input_shell.parse(&D, NULL);
    gl_input_apptainer_def.parse(&D, NULL);

    memset(buf, '`', sizeof buf - 1);
    buf[sizeof buf - 1] = 0;
    parse_as(&gl_input_markdown, "b.md", buf);
    memset(buf, '$', sizeof buf - 1);
    parse_as(&gl_input_makefile, "c.mk", buf);
    buf[0] = '\t';
    parse_as(&gl_input_makefile, "c.mk", buf);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(t_script_by_name_and_content, doc_setup, doc_teardown),
        cmocka_unit_test_setup_teardown(t_script_parse_error, doc_setup, doc_teardown),
        cmocka_unit_test_setup_teardown(t_script_vars_across_lines, doc_setup, doc_teardown),
        cmocka_unit_test_setup_teardown(t_script_pragmas, doc_setup, doc_teardown),
        cmocka_unit_test_setup_teardown(t_makefile_recipe, doc_setup, doc_teardown),
        cmocka_unit_test_setup_teardown(t_makefile_conditional_opaque, doc_setup, doc_teardown),
        cmocka_unit_test_setup_teardown(t_markdown_console, doc_setup, doc_teardown),
        cmocka_unit_test_setup_teardown(t_markdown_tags_and_untagged, doc_setup, doc_teardown),
        cmocka_unit_test_setup_teardown(t_markdown_prompts, doc_setup, doc_teardown),
        cmocka_unit_test_setup_teardown(t_markdown_unclosed_fence, doc_setup, doc_teardown),
        cmocka_unit_test_setup_teardown(t_markdown_many_lines, doc_setup, doc_teardown),
        cmocka_unit_test(t_names),
        cmocka_unit_test_setup_teardown(t_def_file, doc_setup, doc_teardown),
        cmocka_unit_test_setup_teardown(t_markdown_pragma, doc_setup, doc_teardown),
        cmocka_unit_test_setup_teardown(t_markdown_block_groups, doc_setup, doc_teardown),
        cmocka_unit_test_setup_teardown(t_quadlet_sibling_units, doc_setup, doc_teardown),
        cmocka_unit_test_setup_teardown(t_hostile, doc_setup, doc_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
