/* SPDX-License-Identifier: Apache-2.0 */
/* test_gl4_rules.c: the GL4xx launch rules over launches built by hand (the model, not a
 * parser), and the helpers of rules/gl4xx/launch_paths.h. Each test builds one gl_doc through
 * the small constructors below, runs one rule, and checks the findings and their places. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rules/check.h"
#include "rules/gl4xx/launch_kind.h"
#include "rules/gl4xx/launch_paths.h"
#include "rules/gl4xx/launch_writes.h"
#include "linter/core/ref/imageref.h"

/* ---- constructors ---- */

static struct gl_doc *new_doc(void)
{
    struct gl_doc *d = calloc(1, sizeof *d);
    gl_arena_init(&d->arena);
    d->path = "t.sh";
    d->kind = GL_IN_SHELL;
    return d;
}

static void free_doc(struct gl_doc *d)
{
    gl_arena_free(&d->arena);
    free(d);
}

/* A launch on line `line` whose image word is `image` (NULL: unknown) at column 20. */
static struct gl_launch *add_launch(struct gl_doc *d, enum gl_launch_kind kind, uint32_t line,
                                    const char *image)
{
    struct gl_launch *l = GL_APPEND(&d->arena, d->launches, d->nlaunches, d->caplaunches);
    memset(l, 0, sizeof *l);
    l->kind = kind;
    l->tool = kind == GL_LAUNCH_APPTAINER ? "apptainer" : "docker";
    l->loc = (struct gl_loc){line, 1};
    l->shm_bytes = -1;
    l->ref = -1;
    if (image) {
        struct gl_ref *r = GL_APPEND(&d->arena, d->refs, d->nrefs, d->caprefs);
        memset(r, 0, sizeof *r);
        r->text = image;
        r->loc = (struct gl_loc){line, 20};
        r->role = GL_REF_LAUNCH;
        r->launch = (int)(d->nlaunches - 1);
        r->df_stage = -1;
        if (gl_has_suffix(image, ".sif") || image[0] == '.' || image[0] == '/')
            r->local = true;
        else
            r->ok = gl_imageref_parse(&d->arena, image, strlen(image), r->loc, &r->parsed,
                                      NULL) == 0;
        l->ref = (int)(d->nrefs - 1);
    }
    return l;
}

/* Words of the container command, NULL-terminated; each word on the launch's line at
 * columns 100, 110, 120... A word starting with '$' is opaque. */
static void set_argv(struct gl_doc *d, struct gl_launch *l, ...)
{
    va_list ap;
    size_t n = 0;
    va_start(ap, l);
    while (va_arg(ap, const char *))
        n++;
    va_end(ap);
    l->argv = gl_arena_alloc(&d->arena, (n + 1) * sizeof *l->argv);
    va_start(ap, l);
    for (size_t i = 0; i < n; i++) {
        const char *w = va_arg(ap, const char *);
        struct gl_loc at = {l->loc.line, (uint32_t)(100 + 10 * i)};
        l->argv[i] = gl_word_make(w, at, w[0] == '$');
    }
    va_end(ap);
    l->nargv = n;
}

static struct gl_mount *add_mount(struct gl_doc *d, struct gl_launch *l, enum gl_mount_type t,
                                  const char *target, bool ro, uint32_t col)
{
    struct gl_mount *m = GL_APPEND(&d->arena, l->mounts, l->nmounts, l->capmounts);
    *m = (struct gl_mount){.type = t, .source = "/host", .target = target, .readonly = ro,
                           .loc = {l->loc.line, col}, .ro_loc = {l->loc.line, col}};
    return m;
}

static struct gl_gpu_request *add_gpu(struct gl_doc *d, struct gl_launch *l, enum gl_gpu_kind k,
                                      const char *value, const char *count, uint32_t col)
{
    struct gl_gpu_request *g = GL_APPEND(&d->arena, l->gpus, l->ngpus, l->capgpus);
    memset(g, 0, sizeof *g);
    g->kind = k;
    g->value = value;
    g->count = count;
    g->loc = (struct gl_loc){l->loc.line, col};
    return g;
}

static void add_env(struct gl_doc *d, const struct gl_launch *l, const char *key,
                    const char *value, uint32_t col)
{
    struct gl_env *e = GL_APPEND(&d->arena, d->env, d->nenv, d->capenv);
    *e = (struct gl_env){.key = key, .value = value, .key_loc = {l->loc.line, col},
                         .value_loc = {l->loc.line, col + (uint32_t)strlen(key) + 1},
                         .origin = GL_ENV_LAUNCH, .stage = -1,
                         .launch = (int)(l - d->launches)};
}

/* ---- running a rule ---- */

static struct gl_config cfg;
static struct gl_findings found;

static int setup(void **state)
{
    (void)state;
    gl_config_init(&cfg);
    memset(&found, 0, sizeof found);
    return gl_config_finish(&cfg);
}

static int teardown(void **state)
{
    (void)state;
    gl_findings_free(&found);
    gl_config_free(&cfg);
    return 0;
}

/* Run rule `id` over the doc, free it, and return the number of findings (kept in found). */
static size_t run(const char *id, struct gl_doc *d)
{
    gl_findings_free(&found);
    memset(&found, 0, sizeof found);
    const struct gl_rule *r = gl_rule_find(id);
    assert_non_null(r);
    struct gl_check c = {.doc = d, .cfg = &cfg, .rule = r, .out = &found};
    r->check(&c);
    gl_check_end(&c);
    free_doc(d);
    return found.n;
}

static void assert_at(size_t i, uint32_t line, uint32_t col, const char *in_message)
{
    assert_true(i < found.n);
    assert_int_equal(found.items[i].loc.line, line);
    assert_int_equal(found.items[i].loc.col, col);
    if (in_message && !strstr(found.items[i].message, in_message))
        fail_msg("message `%s` lacks `%s`", found.items[i].message, in_message);
}

#define CUDA_IMAGE "nvcr.io/nvidia/pytorch:24.05-py3"

/* ---- finding messages (rules/check.c formats the common conversions by hand) ---- */

/* gl_report's message must be vsnprintf's, whichever way it was made. */
#define SAME_MESSAGE(c, ...)                                                                   \
    do {                                                                                   \
        char want_[1024];                                                                  \
        snprintf(want_, sizeof want_, __VA_ARGS__);                                        \
        struct gl_finding *f_ = gl_report((c), (struct gl_loc){1, 1}, NULL, __VA_ARGS__);  \
        assert_string_equal(f_->message, want_);                                           \
    } while (0)

static void test_report_message(void **state)
{
    (void)state;
    struct gl_doc *d = new_doc();
    struct gl_check c = {.doc = d, .cfg = &cfg, .rule = gl_rule_find("GL406"), .out = &found};
    char longer[300];
    memset(longer, 'x', sizeof longer - 1);
    longer[sizeof longer - 1] = 0;
    const char *volatile none = NULL; /* not known to be NULL where it is formatted */
    SAME_MESSAGE(&c, "plain words, no conversion");
    SAME_MESSAGE(&c, "`%s` and `%s`%s", "a", "", "tail");
    SAME_MESSAGE(&c, "%d %d %d %u %u", -2147483647 - 1, -5, 0, 0u, 4294967295u);
    SAME_MESSAGE(&c, "%ld %ld %zu %zu %%", -9223372036854775807L - 1, 42L, (size_t)0,
                 (size_t)-1);
    SAME_MESSAGE(&c, "%.*s|%5s|%llu|%.1f", 3, "abcdef", "x", 18446744073709551615ull, 1.25);
    SAME_MESSAGE(&c, "%s then %d", longer, 7); /* past the small buffer */
    SAME_MESSAGE(&c, "%s%s", longer + 45, "y"); /* 255 bytes: the longest that fits */
    SAME_MESSAGE(&c, "%s%s", longer + 44, "y"); /* 256: one over */
    SAME_MESSAGE(&c, "[%s]", none);
    SAME_MESSAGE(&c, "ends with a percent %%");
    gl_check_end(&c);
    free_doc(d);
}

/* ---- launch_paths ---- */

static void test_normalize(void **state)
{
    (void)state;
    struct gl_arena a;
    gl_arena_init(&a);
    assert_string_equal(gl_path_normalize(&a, "/a//b/./c/../d/"), "/a/b/d");
    assert_string_equal(gl_path_normalize(&a, "/"), "/");
    assert_string_equal(gl_path_normalize(&a, "/.."), "/");
    assert_string_equal(gl_path_normalize(&a, "/a/.."), "/");
    assert_null(gl_path_normalize(&a, "rel/x"));
    gl_arena_free(&a);
}

static void test_longest_mount_prefix(void **state)
{
    (void)state;
    struct gl_doc *d = new_doc();
    struct gl_launch *l = add_launch(d, GL_LAUNCH_DOCKER_RUN, 1, "ubuntu:22.04");
    add_mount(d, l, GL_MOUNT_BIND, "/data", true, 5);
    add_mount(d, l, GL_MOUNT_BIND, "/data/out/", false, 9);
    add_mount(d, l, GL_MOUNT_BIND, "/dat", false, 13);
    add_mount(d, l, GL_MOUNT_BIND, "/dat", false, 17); /* the same target again: it wins */
    add_mount(d, l, GL_MOUNT_BIND, "relative", false, 21);
    struct gl_launch_facts f;
    gl_launch_facts_init(&f, d, &cfg);
    assert_int_equal(gl_launch_mount_for(&f, 0, "/data/out/x")->loc.col, 9);
    assert_int_equal(gl_launch_mount_for(&f, 0, "/data/out")->loc.col, 9);
    assert_int_equal(gl_launch_mount_for(&f, 0, "/data/outside")->loc.col, 5);
    assert_int_equal(gl_launch_mount_for(&f, 0, "/dat/x")->loc.col, 17);
    assert_null(gl_launch_mount_for(&f, 0, "/datasets"));
    assert_null(gl_launch_mount_for(&f, 0, "/"));
    assert_null(gl_launch_mount_for(&f, 0, "relative"));
    gl_launch_facts_free(&f);
    add_mount(d, l, GL_MOUNT_VOLUME, "/", false, 25);
    gl_launch_facts_init(&f, d, &cfg);
    assert_int_equal(gl_launch_mount_for(&f, 0, "/datasets")->loc.col, 25);
    assert_int_equal(gl_launch_mount_for(&f, 0, "/")->loc.col, 25);
    gl_launch_facts_free(&f);
    free_doc(d);
}

/* A launch with 200k mounts and 200k dataset arguments, and 100k launches sharing GPU
 * devices in one group: every rule stays far from quadratic. */
static void test_hostile_sizes(void **state)
{
    (void)state;
    enum { N = 200000 };
    struct gl_doc *d = new_doc();
    struct gl_launch *l = add_launch(d, GL_LAUNCH_DOCKER_RUN, 1, CUDA_IMAGE);
    for (size_t i = 0; i < N; i++)
        add_mount(d, l, GL_MOUNT_BIND, gl_arena_printf(&d->arena, "/m/%zu", i), false, 3);
    l->argv = gl_arena_alloc(&d->arena, 2 * N * sizeof *l->argv);
    for (size_t i = 0; i < N; i++) {
        l->argv[2 * i] = gl_word_make("--data", (struct gl_loc){1, 5}, false);
        l->argv[2 * i + 1] =
            gl_word_make(gl_arena_printf(&d->arena, "/x/%zu/y", i), (struct gl_loc){1, 9}, false);
    }
    l->nargv = 2 * N;
    assert_int_equal(run("GL401", d), 1);

    d = new_doc();
    for (uint32_t i = 0; i < N / 2; i++) {
        struct gl_launch *s = add_launch(d, GL_LAUNCH_COMPOSE, i + 1, NULL);
        s->group = "g";
        s->profile = gl_arena_printf(&d->arena, "p%u", i); /* never at the same time */
        add_gpu(d, s, GL_GPU_COMPOSE_GPUS, "all", "all", 3);
        add_env(d, s, "A", "b", 5);
    }
    assert_int_equal(run("GL406", d), 0);
}

/* A serving image runs a server unless its command is a load generator (an entrypoint
 * given on the command line, a pod's command:). */
static void test_serving_image_client(void **state)
{
    (void)state;
    struct gl_doc *d = new_doc();
    struct gl_launch *l = add_launch(d, GL_LAUNCH_DOCKER_RUN, 1, "vllm/vllm-openai:v0.9.0");
    set_argv(d, l, "--model", "m", NULL);
    assert_true(gl_launch_serving(d, l));
    set_argv(d, l, "vllm", "bench", "serve", "--model", "m", NULL);
    assert_false(gl_launch_serving(d, l));
    assert_true(gl_launch_serving_client(l));
    set_argv(d, l, "python3", "-m", "sglang.bench_serving", NULL);
    assert_false(gl_launch_serving(d, l));
    set_argv(d, l, "vllm", "serve", "m", NULL);
    assert_true(gl_launch_serving(d, l));
    l = add_launch(d, GL_LAUNCH_DOCKER_RUN, 2, CUDA_IMAGE);
    set_argv(d, l, "tritonserver", "--model-repository=/m", NULL);
    assert_true(gl_launch_serving(d, l));
    set_argv(d, l, "vllm", "bench", "serve", NULL);
    assert_false(gl_launch_serving(d, l));
    free_doc(d);
}

static void test_pytorch_style(void **state)
{
    (void)state;
    struct gl_doc *d = new_doc();
    struct gl_launch *l = add_launch(d, GL_LAUNCH_DOCKER_RUN, 1, CUDA_IMAGE);
    set_argv(d, l, "python3.10", "train.py", NULL);
    assert_true(gl_launch_pytorch_style(l));
    set_argv(d, l, "/usr/bin/python", "-m", "x", NULL);
    assert_true(gl_launch_pytorch_style(l));
    set_argv(d, l, "env", "A=1", "torchrun", "--nproc_per_node=8", "t.py", NULL);
    assert_true(gl_launch_pytorch_style(l));
    set_argv(d, l, "mpirun", "-np", "4", "python", "t.py", NULL);
    assert_true(gl_launch_pytorch_style(l));
    set_argv(d, l, "bash", "-c", "cd /w && python t.py", NULL);
    assert_true(gl_launch_pytorch_style(l));
    set_argv(d, l, "bash", "-lc", "echo python", NULL);
    assert_false(gl_launch_pytorch_style(l));
    /* the script past an end-of-options marker (Kubernetes command: [bash, -c, --]) */
    set_argv(d, l, "/bin/bash", "-c", "--", "cd /w && python t.py", NULL);
    assert_true(gl_launch_pytorch_style(l));
    set_argv(d, l, "sh", "-c", "-", "echo python", NULL);
    assert_false(gl_launch_pytorch_style(l));
    set_argv(d, l, "pythonista", NULL);
    assert_false(gl_launch_pytorch_style(l));
    set_argv(d, l, "nvidia-smi", NULL);
    assert_false(gl_launch_pytorch_style(l));
    set_argv(d, l, "$CMD", "python", NULL);
    assert_false(gl_launch_pytorch_style(l));
    set_argv(d, l, NULL);
    assert_false(gl_launch_pytorch_style(l));
    free_doc(d);
}

static void test_paths_spellings_and_values(void **state)
{
    (void)state;
    struct gl_doc *d = new_doc();
    struct gl_launch *l = add_launch(d, GL_LAUNCH_DOCKER_RUN, 1, CUDA_IMAGE);
    set_argv(d, l, "python", "t.py", "--data_dir", "/d1", "--output-dir=/o1", "--save_dir",
             "s3://bucket/x", "--dataset", "cifar10", "--ckpt", "$X", "--logdir", "./logs",
             "--data-path", "~/d", NULL);
    add_env(d, l, "DATA_DIR", "/d2", 200);
    add_env(d, l, "OUTPUT_DIR", NULL, 220);
    struct gl_launch_facts f;
    gl_launch_facts_init(&f, d, &cfg);
    struct gl_launch_path *p;
    /* a launch that mounts nothing: an output path relative to its unknown workdir is
     * under no mount wherever that is, and stays as written (a dataset one is not kept) */
    size_t n = gl_launch_paths(&f, 0, &p);
    assert_int_equal(n, 4);
    assert_string_equal(p[2].path, "./logs");
    assert_int_equal(p[2].role, GL_PATH_CHECKPOINT);
    l->kind = GL_LAUNCH_APPTAINER; /* (it binds the caller's directory itself) */
    assert_int_equal(gl_launch_paths(&f, 0, &p), 3);
    l->kind = GL_LAUNCH_DOCKER_RUN;
    add_mount(d, l, GL_MOUNT_BIND, "/srv", false, 240);
    n = gl_launch_paths(&f, 0, &p);
    assert_int_equal(n, 3);
    assert_string_equal(p[0].path, "/d1");
    assert_int_equal(p[0].role, GL_PATH_DATASET);
    assert_int_equal(p[0].loc.col, 130); /* the value word */
    assert_string_equal(p[1].path, "/o1");
    assert_int_equal(p[1].role, GL_PATH_CHECKPOINT);
    assert_int_equal(p[1].loc.col, 140); /* the --flag=value word */
    assert_string_equal(p[2].path, "/d2");
    assert_true(p[2].from_env);
    /* with a workdir, ./logs resolves */
    l->workdir = "/workspace";
    n = gl_launch_paths(&f, 0, &p);
    assert_int_equal(n, 4);
    assert_string_equal(p[2].path, "/workspace/logs");
    /* Hydra overrides naming the output directory (dotted or +/++ keys) are checkpoint
     * paths; other keys, undotted ones without `+`, relative values are not */
    l->workdir = NULL;
    set_argv(d, l, "python", "pretrain.py", "exp_manager.exp_dir=/r1",
             "++trainer.default_root_dir=/r2", "+cb.dirpath=/r3", "exp_dir=/no1",
             "model.exp_dirs=/no2", "exp_manager.name=/no3", "a.b-c.exp_dir=/no4",
             "x.output_dir=rel", "++=/no5", NULL);
    n = gl_launch_paths(&f, 0, &p);
    assert_int_equal(n, 4); /* and DATA_DIR */
    assert_string_equal(p[0].path, "/r1");
    assert_string_equal(p[0].name, "exp_manager.exp_dir");
    assert_int_equal(p[0].role, GL_PATH_CHECKPOINT);
    assert_string_equal(p[1].path, "/r2");
    assert_string_equal(p[2].path, "/r3");
    gl_launch_facts_free(&f);
    free_doc(d);
}

static void collect(const char *path, void *ctx)
{
    char *buf = ctx;
    strcat(buf, path);
    strcat(buf, " ");
}

/* The paths launch l of d writes, its commands starting at starts[0..n), into buf. */
static void written(struct gl_doc *d, struct gl_launch *l, const size_t *starts, size_t n,
                    char *buf)
{
    l->next_command = gl_arena_alloc(&d->arena, l->nargv * sizeof *l->next_command);
    for (size_t i = 0; i < n; i++)
        l->next_command[starts[i]] = true;
    struct gl_launch_facts f;
    gl_launch_facts_init(&f, d, &cfg);
    gl_launch_each_written(&f, 0, collect, buf);
    gl_launch_facts_free(&f);
}

/* The paths a launch's own commands write into. */
static void test_written_paths(void **state)
{
    (void)state;
    struct gl_doc *d = new_doc();
    struct gl_launch *l = add_launch(d, GL_LAUNCH_DOCKER_RUN, 1, CUDA_IMAGE);
    set_argv(d, l, "mkdir", "-p", "/a", "/b/", "unzip", "x.zip", "-d", "/c", "tar", "-xf",
             "t.tar", "--directory=/d", "wget", "-P", "/e", "U", "curl", "-o", "/f", "U",
             "cp", "-r", "s", "/g", "git", "clone", "U", "/h", "git", "log", "/no1", "cp",
             "/no2", "mv", "$S", "/i", "huggingface-cli", "download", "r", "--local-dir",
             "rel", NULL);
    static const size_t starts[] = {4, 8, 12, 16, 20, 24, 28, 31, 33, 36};
    char buf[256] = "";
    written(d, l, starts, sizeof starts / sizeof *starts, buf);
    assert_string_equal(buf, "/a /b /c /d /e /f /g /h /i ");
    free_doc(d);
}

/* tar writes into its -C directory only when it extracts: one that creates an archive
   reads there (a backup of the dataset mount). */
static void test_tar_extracts_only(void **state)
{
    (void)state;
    struct gl_doc *d = new_doc();
    struct gl_launch *l = add_launch(d, GL_LAUNCH_DOCKER_RUN, 1, CUDA_IMAGE);
    set_argv(d, l, "tar", "-czf", "/out/b.tgz", "-C", "/no1", ".", "tar", "--create",
             "--directory=/no2", "-f", "b.tar", "tar", "xf", "t.tar", "-C", "/a", "tar",
             "--extract", "-f", "t.tar", "--directory", "/b", "tar", "-x", "-C", "/c", NULL);
    static const size_t starts[] = {6, 11, 16, 22};
    char buf[256] = "";
    written(d, l, starts, sizeof starts / sizeof *starts, buf);
    assert_string_equal(buf, "/a /b /c ");
    free_doc(d);
}

/* The paths the commands of `line` write: its words split at spaces, a word ";" between
   two commands. */
static const char *written_line(const char *line, char *buf)
{
    struct gl_doc *d = new_doc();
    struct gl_launch *l = add_launch(d, GL_LAUNCH_DOCKER_RUN, 1, CUDA_IMAGE);
    char *copy = gl_arena_strdup(&d->arena, line);
    size_t starts[16] = {0}, n = 1;
    l->argv = gl_arena_alloc(&d->arena, (strlen(line) / 2 + 2) * sizeof *l->argv);
    for (char *w = strtok(copy, " "); w; w = strtok(NULL, " ")) {
        if (!strcmp(w, ";")) {
            starts[n++] = l->nargv;
            continue;
        }
        l->argv[l->nargv] = gl_word_make(w, (struct gl_loc){1, 1}, w[0] == '$');
        l->nargv++;
    }
    buf[0] = '\0';
    written(d, l, starts + 1, n - 1, buf);
    free_doc(d);
    return buf;
}

/* An option's value is never an operand, wherever the option stands (git and getopt read
   options after operands), attached (`-oFILE`, `-tDIR`, `--name=V`) or at the end of a
   bundle (`-sSLo FILE`); a target option (`cp -t DIR`) names the destination, so the last
   operand is a source; curl joins -o with --output-dir (and takes no `--name=V`). The
   option tables are the tools' own (launch_write_opts.h). */
static void test_written_option_values(void **state)
{
    (void)state;
    static const struct {
        const char *line, *want;
    } cases[] = {
        {"git clone U /a --depth 1 ; git clone --depth 1 -b /no1 U", "/a "},
        {"git clone U --reference /no1 ; git -C /no2 clone U /b", "/b "},
        {"git clone --depth=1 -bmain U /c ; git -c x=y clone -- U /d", "/c /d "},
        {"curl --output-dir /e -o f U ; curl --output-dir /f -O U", "/e/f /f "},
        {"curl -sSLo /g U ; curl -o/h U ; curl --output=/no1 U ; curl --output-dir /no2 U",
         "/g /h "},
        {"curl -H /no1 U -o /i ; curl -fsSLO --output-dir /j U", "/i /j "},
        {"cp -t /k a b ; cp --target-directory=/l a /no1 ; mv -t/m a /no2", "/k /l /m "},
        {"cp --target-directory /n a ; mv a b -t /o ; cp -S /no1 a /p", "/n /o /p "},
        {"install -m 0755 a /q ; install -d /r /s ; install -Dm644 a /t", "/q /r /s /t "},
        {"install --directory /u ; install -o /no1 a", "/u "},
        {"rsync -a src /v --exclude-from /no1 ; rsync -e ssh a /w", "/v /w "},
        {"wget -P/x U ; tar -xzf t.tar -C/y ; unzip -q x.zip -d/z", "/x /y /z "},
        {"mkdir -m 0755 /a ; mkdir --mode=0700 /b", "/a /b "},
        {"cp -t $D a /no1 ; git clone U $D --depth 1 ; curl --output-dir $D -o /no2 U", ""},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        char buf[256];
        if (strcmp(written_line(cases[i].line, buf), cases[i].want))
            fail_msg("%s: wrote '%s', not '%s'", cases[i].line, buf, cases[i].want);
    }
}

/* ---- GL401..GL405 ---- */

static struct gl_launch *train(struct gl_doc *d, const char *flag, const char *path)
{
    struct gl_launch *l = add_launch(d, GL_LAUNCH_DOCKER_RUN, 3, CUDA_IMAGE);
    set_argv(d, l, "python", "train.py", flag, path, NULL);
    add_gpu(d, l, GL_GPU_FLAG, "all", "all", 12);
    return l;
}

static void test_gl401(void **state)
{
    (void)state;
    struct gl_doc *d = new_doc();
    train(d, "--data-dir", "/data/imagenet");
    assert_int_equal(run("GL401", d), 1);
    assert_at(0, 3, 130, "/data/imagenet");

    d = new_doc();
    add_mount(d, train(d, "--data-dir", "/data/imagenet"), GL_MOUNT_BIND, "/data", true, 30);
    assert_int_equal(run("GL401", d), 0);

    d = new_doc(); /* relative without a workdir: not judged */
    train(d, "--data", "data/train");
    assert_int_equal(run("GL401", d), 0);

    d = new_doc(); /* relative with a workdir */
    train(d, "--data", "data/train")->workdir = "/ws";
    assert_int_equal(run("GL401", d), 1);
    assert_at(0, 3, 130, "/ws/data/train");

    d = new_doc(); /* opaque options: a mount may hide there */
    train(d, "--data", "/data")->opts_opaque = true;
    assert_int_equal(run("GL401", d), 0);

    d = new_doc(); /* apptainer binds paths itself */
    struct gl_launch *l = add_launch(d, GL_LAUNCH_APPTAINER, 2, "img.sif");
    set_argv(d, l, "python", "t.py", "--data", "/data", NULL);
    assert_int_equal(run("GL401", d), 0);

    d = new_doc(); /* env */
    l = add_launch(d, GL_LAUNCH_K8S, 4, CUDA_IMAGE);
    add_env(d, l, "DATA_DIR", "/datasets/coco", 7);
    assert_int_equal(run("GL401", d), 1);
    assert_at(0, 4, 16, "DATA_DIR");
}

static void test_gl402(void **state)
{
    (void)state;
    struct gl_doc *d = new_doc();
    train(d, "--output_dir", "/out")->remove = true;
    assert_int_equal(run("GL402", d), 1);
    assert_at(0, 3, 130, "--rm");

    d = new_doc();
    add_mount(d, train(d, "--output_dir", "/out/run1"), GL_MOUNT_VOLUME, "/out", false, 30);
    assert_int_equal(run("GL402", d), 0);

    d = new_doc(); /* `--output json` is not a path */
    train(d, "--output", "json");
    assert_int_equal(run("GL402", d), 0);

    d = new_doc(); /* fragments are not judged for what they lack */
    train(d, "--checkpoint-dir", "/ckpt")->fragment = true;
    assert_int_equal(run("GL402", d), 0);
}

static void test_gl403(void **state)
{
    (void)state;
    struct gl_doc *d = new_doc();
    add_mount(d, train(d, "--data", "/data/x"), GL_MOUNT_BIND, "/data", false, 30);
    assert_int_equal(run("GL403", d), 1);
    assert_at(0, 3, 30, "/data");

    d = new_doc();
    add_mount(d, train(d, "--data", "/data/x"), GL_MOUNT_BIND, "/data", true, 30);
    assert_int_equal(run("GL403", d), 0);

    d = new_doc(); /* the same mount takes the output: it must stay writable */
    struct gl_launch *l = train(d, "--data", "/ws/data");
    set_argv(d, l, "python", "t.py", "--data", "/ws/data", "--output_dir", "/ws/out", NULL);
    add_mount(d, l, GL_MOUNT_BIND, "/ws", false, 30);
    assert_int_equal(run("GL403", d), 0);

    d = new_doc(); /* a data-looking mount serving no dataset path */
    l = train(d, "--epochs", "3");
    add_mount(d, l, GL_MOUNT_BIND, "/data", false, 30);
    assert_int_equal(run("GL403", d), 0);
}

static void test_gl404_gl405(void **state)
{
    (void)state;
    struct gl_doc *d = new_doc();
    add_mount(d, train(d, "--save-dir", "/work/run"), GL_MOUNT_BIND, "/work", true, 30);
    assert_int_equal(run("GL404", d), 1);
    assert_at(0, 3, 130, "read-only mount `/work`");

    d = new_doc(); /* a writable mount nested inside wins */
    struct gl_launch *l = train(d, "--save-dir", "/work/run");
    add_mount(d, l, GL_MOUNT_BIND, "/work", true, 30);
    add_mount(d, l, GL_MOUNT_BIND, "/work/run", false, 40);
    assert_int_equal(run("GL404", d), 0);

    d = new_doc();
    l = add_launch(d, GL_LAUNCH_K8S, 8, CUDA_IMAGE);
    set_argv(d, l, "python", "t.py", "--checkpoint-dir", "/ckpt/a", NULL);
    add_mount(d, l, GL_MOUNT_EMPTYDIR, "/ckpt", false, 9);
    assert_int_equal(run("GL405", d), 1);
    assert_at(0, 8, 130, "emptyDir");

    d = new_doc();
    l = add_launch(d, GL_LAUNCH_K8S, 8, CUDA_IMAGE);
    set_argv(d, l, "python", "t.py", "--checkpoint-dir", "/ckpt/a", NULL);
    add_mount(d, l, GL_MOUNT_VOLUME, "/ckpt", false, 9);
    assert_int_equal(run("GL405", d), 0);
}

/* ---- GL406 ---- */

static struct gl_launch *detached(struct gl_doc *d, uint32_t line, const char *device)
{
    struct gl_launch *l = add_launch(d, GL_LAUNCH_DOCKER_RUN, line, CUDA_IMAGE);
    l->detached = true;
    l->group = "t.sh";
    struct gl_gpu_request *g = add_gpu(d, l, GL_GPU_FLAG, device, NULL, 14);
    if (!strcmp(device, "all"))
        g->count = "all";
    else {
        g->device_ids = gl_arena_alloc(&d->arena, sizeof *g->device_ids);
        g->device_ids[0] = device + strlen("device=");
        g->ndevice_ids = 1;
    }
    return l;
}

static void test_gl406(void **state)
{
    (void)state;
    struct gl_doc *d = new_doc();
    struct gl_launch *l = add_launch(d, GL_LAUNCH_DOCKER_RUN, 2, CUDA_IMAGE);
    struct gl_gpu_request *g = add_gpu(d, l, GL_GPU_FLAG, "device=0:10gb", NULL, 14);
    g->memory = "10gb";
    g->memory_loc = (struct gl_loc){2, 24};
    assert_int_equal(run("GL406", d), 1);
    assert_at(0, 2, 24, "10gb");
    assert_int_equal(found.items[0].severity, GL_SEV_ERROR);

    d = new_doc();
    detached(d, 1, "device=0");
    detached(d, 2, "all");
    assert_int_equal(run("GL406", d), 1);
    assert_at(0, 2, 14, "line 1");
    assert_int_equal(found.items[0].severity, GL_SEV_WARNING);

    d = new_doc(); /* different devices */
    detached(d, 1, "device=0");
    detached(d, 2, "device=1");
    assert_int_equal(run("GL406", d), 0);

    d = new_doc(); /* foreground runs: group NULL */
    detached(d, 1, "all")->group = NULL;
    detached(d, 2, "all")->group = NULL;
    assert_int_equal(run("GL406", d), 0);

    d = new_doc(); /* different profiles */
    detached(d, 1, "all")->profile = "a";
    detached(d, 2, "all")->profile = "b";
    assert_int_equal(run("GL406", d), 0);

    d = new_doc(); /* unresolved ids are unknown, not equal */
    detached(d, 1, "device=$GPU");
    detached(d, 2, "device=$GPU");
    assert_int_equal(run("GL406", d), 0);

    d = new_doc(); /* MIG and framework caps */
    detached(d, 1, "device=MIG-abc");
    detached(d, 2, "device=MIG-abc");
    assert_int_equal(run("GL406", d), 0);
    d = new_doc();
    l = detached(d, 1, "all");
    set_argv(d, l, "vllm", "serve", "m", "--gpu-memory-utilization", "0.4", NULL);
    l = detached(d, 2, "all");
    set_argv(d, l, "vllm", "serve", "m", "--gpu-memory-utilization=0.4", NULL);
    assert_int_equal(run("GL406", d), 0);

    d = new_doc(); /* k8s GPUs are exclusive */
    for (uint32_t line = 1; line <= 2; line++) {
        l = add_launch(d, GL_LAUNCH_K8S, line, CUDA_IMAGE);
        l->group = "t.yaml";
        add_gpu(d, l, GL_GPU_K8S_RESOURCE, "nvidia.com/gpu", "1", 3);
    }
    assert_int_equal(run("GL406", d), 0);
}

/* ---- GL407..GL409 ---- */

static void test_gl407(void **state)
{
    (void)state;
    struct gl_doc *d = new_doc();
    add_launch(d, GL_LAUNCH_DOCKER_RUN, 5, CUDA_IMAGE);
    assert_int_equal(run("GL407", d), 1);
    assert_at(0, 5, 20, CUDA_IMAGE);

    d = new_doc();
    add_launch(d, GL_LAUNCH_DOCKER_RUN, 5, "pytorch/pytorch:2.3.0-cuda12.1-cudnn8-runtime");
    assert_int_equal(run("GL407", d), 1);

    d = new_doc();
    add_gpu(d, add_launch(d, GL_LAUNCH_DOCKER_RUN, 5, CUDA_IMAGE), GL_GPU_FLAG, "all", "all", 3);
    assert_int_equal(run("GL407", d), 0);

    d = new_doc();
    add_launch(d, GL_LAUNCH_K8S, 5, CUDA_IMAGE)->secondary_role = true;
    assert_int_equal(run("GL407", d), 0);

    d = new_doc();
    add_launch(d, GL_LAUNCH_K8S, 5, "nvcr.io/nvidia/k8s-device-plugin:v0.15.0");
    assert_int_equal(run("GL407", d), 0);

    d = new_doc();
    add_launch(d, GL_LAUNCH_COMPOSE, 5, CUDA_IMAGE)->fragment = true;
    assert_int_equal(run("GL407", d), 0);

    d = new_doc();
    add_launch(d, GL_LAUNCH_DOCKER_RUN, 5, "ubuntu:22.04");
    assert_int_equal(run("GL407", d), 0);
}

static void test_gl408_gl409(void **state)
{
    (void)state;
    struct gl_doc *d = new_doc();
    add_launch(d, GL_LAUNCH_APPTAINER, 2, CUDA_IMAGE);
    assert_int_equal(run("GL408", d), 1);
    assert_at(0, 2, 20, "--nv");

    d = new_doc();
    add_launch(d, GL_LAUNCH_APPTAINER, 2, CUDA_IMAGE)->apptainer_nv = true;
    assert_int_equal(run("GL408", d), 0);

    d = new_doc(); /* a .sif is not judged */
    add_launch(d, GL_LAUNCH_APPTAINER, 2, "pytorch.sif");
    assert_int_equal(run("GL408", d), 0);

    d = new_doc();
    add_launch(d, GL_LAUNCH_APPTAINER, 2, "./sandbox/")->apptainer_sandbox = true;
    assert_int_equal(run("GL409", d), 1);
    assert_at(0, 2, 20, "./sandbox/");

    d = new_doc();
    add_launch(d, GL_LAUNCH_APPTAINER, 2, "pytorch.sif");
    assert_int_equal(run("GL409", d), 0);
}

/* ---- GL410, GL411 ---- */

static struct gl_launch *gpu_python(struct gl_doc *d, enum gl_launch_kind kind)
{
    struct gl_launch *l = add_launch(d, kind, 6, CUDA_IMAGE);
    set_argv(d, l, "python", "train.py", NULL);
    add_gpu(d, l, kind == GL_LAUNCH_APPTAINER ? GL_GPU_APPTAINER_NV : GL_GPU_FLAG, "all", "all", 8);
    return l;
}

static void test_gl410(void **state)
{
    (void)state;
    struct gl_doc *d = new_doc();
    gpu_python(d, GL_LAUNCH_DOCKER_RUN);
    assert_int_equal(run("GL410", d), 1);
    assert_at(0, 6, 1, "64 MiB");

    d = new_doc();
    struct gl_launch *l = gpu_python(d, GL_LAUNCH_DOCKER_RUN);
    l->shm_bytes = 256 << 20;
    l->shm_loc = (struct gl_loc){6, 30};
    assert_int_equal(run("GL410", d), 1);
    assert_at(0, 6, 30, "256 MiB");

    d = new_doc();
    gpu_python(d, GL_LAUNCH_DOCKER_RUN)->ipc = "host";
    assert_int_equal(run("GL410", d), 0);

    d = new_doc();
    gpu_python(d, GL_LAUNCH_DOCKER_RUN)->shm_bytes = (int64_t)8 << 30;
    assert_int_equal(run("GL410", d), 0);

    d = new_doc();
    add_mount(d, gpu_python(d, GL_LAUNCH_K8S), GL_MOUNT_EMPTYDIR_MEMORY, "/dev/shm", false, 3);
    assert_int_equal(run("GL410", d), 0);

    d = new_doc();
    gpu_python(d, GL_LAUNCH_APPTAINER);
    assert_int_equal(run("GL410", d), 0);

    d = new_doc(); /* no GPU */
    l = add_launch(d, GL_LAUNCH_DOCKER_RUN, 6, CUDA_IMAGE);
    set_argv(d, l, "python", "train.py", NULL);
    assert_int_equal(run("GL410", d), 0);

    d = new_doc(); /* not a PyTorch-style command */
    l = gpu_python(d, GL_LAUNCH_DOCKER_RUN);
    set_argv(d, l, "nvidia-smi", NULL);
    assert_int_equal(run("GL410", d), 0);
}

static void test_gl411(void **state)
{
    (void)state;
    struct gl_doc *d = new_doc();
    gpu_python(d, GL_LAUNCH_DOCKER_RUN);
    assert_int_equal(run("GL411", d), 1);
    assert_at(0, 6, 1, "locked-memory");

    d = new_doc();
    gpu_python(d, GL_LAUNCH_DOCKER_RUN)->memlock = "-1";
    assert_int_equal(run("GL411", d), 0);

    d = new_doc();
    gpu_python(d, GL_LAUNCH_APPTAINER);
    assert_int_equal(run("GL411", d), 0);

    d = new_doc();
    gpu_python(d, GL_LAUNCH_K8S);
    assert_int_equal(run("GL411", d), 0);

    d = new_doc(); /* NVIDIA_VISIBLE_DEVICES=void is no GPU */
    struct gl_launch *l = add_launch(d, GL_LAUNCH_DOCKER_RUN, 6, CUDA_IMAGE);
    add_gpu(d, l, GL_GPU_ENV_VISIBLE, "void", NULL, 4);
    assert_int_equal(run("GL411", d), 0);
}

/* ---- GL412, GL413 ---- */

static void test_gl412(void **state)
{
    (void)state;
    struct gl_doc *d = new_doc();
    struct gl_launch *l = add_launch(d, GL_LAUNCH_DOCKER_RUN, 2, CUDA_IMAGE);
    struct gl_gpu_request *g = add_gpu(d, l, GL_GPU_FLAG, "device=0,2", "2", 5);
    static const char *ids[] = {"0"};
    static const struct gl_gpu_field fields[] = { /* unquoted: device=0 and a count 2 */
        {.key = GL_GPU_KEY_DEVICE, .name = "device", .text = "device=0", .len = 8,
         .value = "0", .value_len = 1, .loc = {2, 5}, .value_loc = {2, 12}},
        {.key = GL_GPU_KEY_COUNT, .name = "2", .text = "2", .len = 1, .value = "2",
         .value_len = 1, .loc = {2, 14}, .value_loc = {2, 14}},
    };
    g->device_ids = ids;
    g->ndevice_ids = 1;
    g->csv.fields = fields;
    g->csv.nfields = 2;
    assert_int_equal(run("GL412", d), 1);
    assert_at(0, 2, 14, "device=0,2");

    d = new_doc();
    l = add_launch(d, GL_LAUNCH_K8S, 2, CUDA_IMAGE);
    g = add_gpu(d, l, GL_GPU_K8S_RESOURCE, "nvidia.com/gpu", NULL, 3);
    g->request = "1";
    g->request_loc = (struct gl_loc){9, 27};
    assert_int_equal(run("GL412", d), 1);
    assert_at(0, 9, 27, "must also be in limits");

    d = new_doc();
    l = add_launch(d, GL_LAUNCH_K8S, 2, CUDA_IMAGE);
    g = add_gpu(d, l, GL_GPU_K8S_RESOURCE, "nvidia.com/gpu", "0.5", 3);
    g->limit = "0.5";
    g->limit_loc = (struct gl_loc){7, 27};
    assert_int_equal(run("GL412", d), 1);
    assert_at(0, 7, 27, "whole number");

    d = new_doc();
    l = add_launch(d, GL_LAUNCH_K8S, 2, CUDA_IMAGE);
    g = add_gpu(d, l, GL_GPU_K8S_RESOURCE, "nvidia.com/gpu", "1", 3);
    g->limit = g->request = "1";
    assert_int_equal(run("GL412", d), 0);

    d = new_doc(); /* HAMi memory keys are caps, not counts */
    l = add_launch(d, GL_LAUNCH_K8S, 2, CUDA_IMAGE);
    g = add_gpu(d, l, GL_GPU_K8S_VENDOR, "nvidia.com/gpumem", "3000", 3);
    g->limit = "3000";
    g->request = "1000";
    assert_int_equal(run("GL412", d), 0);
}

static void test_gl413(void **state)
{
    (void)state;
    struct gl_doc *d = new_doc();
    struct gl_launch *l = add_launch(d, GL_LAUNCH_DOCKER_RUN, 2, CUDA_IMAGE);
    l->tool = "nvidia-docker";
    add_gpu(d, l, GL_GPU_RUNTIME, "nvidia", NULL, 1);
    assert_int_equal(run("GL413", d), 1);
    assert_at(0, 2, 1, "nvidia-docker");

    d = new_doc();
    add_gpu(d, add_launch(d, GL_LAUNCH_DOCKER_RUN, 2, CUDA_IMAGE), GL_GPU_RUNTIME, "nvidia",
            NULL, 12);
    assert_int_equal(run("GL413", d), 1);
    assert_at(0, 2, 12, "nvidia");

    d = new_doc();
    add_gpu(d, add_launch(d, GL_LAUNCH_DOCKER_RUN, 2, CUDA_IMAGE), GL_GPU_FLAG, "all", "all", 12);
    assert_int_equal(run("GL413", d), 0);
}

/* ---- configured names ---- */

static void test_configured_names(void **state)
{
    (void)state;
    gl_config_free(&cfg);
    gl_config_init(&cfg);
    char err[128];
    gl_pattern_list_add(&cfg.arena, &cfg.dataset_args, "^--corpus$",
                        gl_pattern_compile("^--corpus$", false, err, sizeof err));
    assert_int_equal(gl_config_finish(&cfg), 0);
    struct gl_doc *d = new_doc();
    train(d, "--corpus", "/c");
    assert_int_equal(run("GL401", d), 1);
    d = new_doc(); /* the default names are replaced */
    train(d, "--data-dir", "/d");
    assert_int_equal(run("GL401", d), 0);
}

/* The default patterns: put in by gl_config_finish as sets of names (nothing compiled);
 * GL303's data path compiled on first use, once. */
static void test_default_patterns(void **state)
{
    (void)state;
    const struct gl_pattern_list *lists[] = {&cfg.dataset_args, &cfg.checkpoint_args,
                                             &cfg.dataset_env, &cfg.checkpoint_env};
    const char *hits[] = {"--data-dir", "-output", "DATASET_PATH", "RESULTS_DIR\n"};
    const char *misses[] = {"--data-dirs", "--input", "data_dir", "OUTPUT"};
    for (size_t i = 0; i < 4; i++) {
        assert_int_equal(lists[i]->n, 1);
        assert_null(lists[i]->items[0]);
        assert_true(gl_pattern_list_match(lists[i], hits[i]));
        assert_false(gl_pattern_list_match(lists[i], misses[i]));
    }
    assert_null(cfg.data_path);
    const struct gl_pattern *dp = gl_config_data_path(&cfg);
    assert_non_null(dp);
    assert_ptr_equal(gl_config_data_path(&cfg), dp); /* compiled once */
    assert_true(gl_pattern_match(dp, "srv/datasets/x", 14));
    assert_true(gl_pattern_match(dp, "w.safetensors", 13));
    assert_false(gl_pattern_match(dp, "src/main.c", 10));
}

/* A list matches as PCRE2 does, whether its pattern is read as a set of names (the
 * defaults' form) or compiled: every name of each pattern, with dashes before and
 * endings after, cut short, changed. */
static void test_name_sets_are_pcre(void **state)
{
    (void)state;
    const char *res[] = {GL_DEFAULT_DATASET_ARGS, GL_DEFAULT_CHECKPOINT_ARGS,
                         GL_DEFAULT_DATASET_ENV,  GL_DEFAULT_CHECKPOINT_ENV,
                         "^(a|b-c|D_1)$",         "^--?(x|yz)$",
                         "^--corpus$",            "^(a|)$",
                         "^(a|b)c$",              "^(a.b|c)$",
                         "^-(a|b)$",              "(a|b)$",
                         "^(a|b)",                "^--?(a|b)$x"};
    const char *pre[] = {"", "-", "--", "---", "x", "-x", " "};
    const char *post[] = {"", "\n", "\n\n", "\r\n", "s", "-", " ", "c"};
    size_t checked = 0, matched = 0;
    for (size_t r = 0; r < sizeof res / sizeof *res; r++) {
        char err[128];
        struct gl_pattern *p = gl_pattern_compile(res[r], false, err, sizeof err);
        assert_non_null(p);
        struct gl_arena a;
        gl_arena_init(&a);
        struct gl_pattern_list l = {0};
        gl_pattern_list_add(&a, &l, res[r], NULL);
        /* the names: the words of the pattern between its brackets and bars */
        char words[512];
        snprintf(words, sizeof words, "%s", res[r]);
        for (char *w = strtok(words, "^()|$?"); w; w = strtok(NULL, "^()|$?")) {
            for (size_t cut = 0; cut < 2; cut++) {
                for (size_t i = 0; i < sizeof pre / sizeof *pre; i++)
                    for (size_t k = 0; k < sizeof post / sizeof *post; k++) {
                        char s[600];
                        int n = snprintf(s, sizeof s, "%s%.*s%s", pre[i],
                                         (int)(strlen(w) - cut), w, post[k]);
                        bool want = gl_pattern_match(p, s, (size_t)n);
                        assert_int_equal(gl_pattern_list_match(&l, s), want);
                        if (n == 0 || s[0] == ' ')
                            continue;
                        s[0] ^= 0x20; /* a letter's case, or another byte */
                        assert_int_equal(gl_pattern_list_match(&l, s),
                                         gl_pattern_match(p, s, (size_t)n));
                        checked += 2;
                        matched += want;
                    }
            }
        }
        assert_false(gl_pattern_list_match(&l, "") != gl_pattern_match(p, "", 0));
        gl_pattern_free(p);
        gl_pattern_list_free(&l);
        gl_arena_free(&a);
    }
    assert_true(checked > 5000);
    assert_true(matched > 100);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_normalize, setup, teardown),
        cmocka_unit_test_setup_teardown(test_longest_mount_prefix, setup, teardown),
        cmocka_unit_test_setup_teardown(test_hostile_sizes, setup, teardown),
        cmocka_unit_test_setup_teardown(test_serving_image_client, setup, teardown),
        cmocka_unit_test_setup_teardown(test_pytorch_style, setup, teardown),
        cmocka_unit_test_setup_teardown(test_paths_spellings_and_values, setup, teardown),
        cmocka_unit_test_setup_teardown(test_written_paths, setup, teardown),
        cmocka_unit_test_setup_teardown(test_tar_extracts_only, setup, teardown),
        cmocka_unit_test_setup_teardown(test_written_option_values, setup, teardown),
        cmocka_unit_test_setup_teardown(test_gl401, setup, teardown),
        cmocka_unit_test_setup_teardown(test_gl402, setup, teardown),
        cmocka_unit_test_setup_teardown(test_gl403, setup, teardown),
        cmocka_unit_test_setup_teardown(test_gl404_gl405, setup, teardown),
        cmocka_unit_test_setup_teardown(test_gl406, setup, teardown),
        cmocka_unit_test_setup_teardown(test_gl407, setup, teardown),
        cmocka_unit_test_setup_teardown(test_gl408_gl409, setup, teardown),
        cmocka_unit_test_setup_teardown(test_gl410, setup, teardown),
        cmocka_unit_test_setup_teardown(test_gl411, setup, teardown),
        cmocka_unit_test_setup_teardown(test_gl412, setup, teardown),
        cmocka_unit_test_setup_teardown(test_gl413, setup, teardown),
        cmocka_unit_test_setup_teardown(test_configured_names, setup, teardown),
        cmocka_unit_test_setup_teardown(test_default_patterns, setup, teardown),
        cmocka_unit_test_setup_teardown(test_name_sets_are_pcre, setup, teardown),
        cmocka_unit_test_setup_teardown(test_report_message, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
