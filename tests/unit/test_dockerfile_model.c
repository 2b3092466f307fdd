/* SPDX-License-Identifier: Apache-2.0 */
/* Dockerfile into the model: stages, ARG substitution, final/shipped, refs, env, copies,
 * RUN commands and packages, pragmas. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "linter/core/config.h"
#include "parsers/dockerfile/dockerfile_model.h"
#include "tests/unit/test_support.h"

static struct gl_config cfg;

static struct gl_doc *parse_at(const char *path, const char *text)
{
    static struct gl_doc doc;
    gl_arena_free(&doc.arena);
    test_doc_init(&doc, path, GL_IN_DOCKERFILE, text, strlen(text));
    gl_parse_dockerfile_doc(&doc, &cfg);
    return &doc;
}

static struct gl_doc *parse(const char *text)
{
    return parse_at("Dockerfile", text);
}

static int setup(void **state)
{
    (void)state;
    gl_config_init(&cfg);
    return 0;
}

static void test_stages_and_final(void **state)
{
    (void)state;
    struct gl_doc *d = parse("FROM nvidia/cuda:12.4.1-devel-ubuntu22.04 AS Build\n"
                             "RUN make\n"
                             "FROM ubuntu:22.04 AS other\n"
                             "FROM build AS final\n"
                             "COPY --from=build /a /a\n");
    assert_non_null(d->df);
    assert_int_equal(d->df->nstages, 3);
    assert_string_equal(d->df->stages[0].name, "build");
    assert_int_equal(d->df->stages[2].base_stage, 0);
    assert_int_equal(d->df->final_stage, 2);
    assert_true(d->df->stages[0].shipped);
    assert_false(d->df->stages[1].shipped);
    assert_true(d->df->stages[2].shipped);
    assert_int_equal(d->nrefs, 3); /* COPY --from a stage adds no reference */
    assert_true(d->refs[2].stage);
    assert_loc(d->refs[0].loc, 1, 6);
    assert_loc(d->refs[0].parsed.tag_loc, 1, 18);
    const struct gl_ref *root = gl_df_stage_root_ref(d, 2);
    assert_string_equal(root->text, "nvidia/cuda:12.4.1-devel-ubuntu22.04");
}

static void test_target(void **state)
{
    (void)state;
    cfg.target = "runtime";
    struct gl_doc *d = parse("FROM a:1 AS runtime\nFROM b:1 AS dev\n");
    cfg.target = NULL;
    assert_int_equal(d->df->final_stage, 0);
    assert_true(d->df->stages[0].shipped);
    assert_false(d->df->stages[1].shipped);
}

static void test_global_args_and_build_args(void **state)
{
    (void)state;
    struct gl_doc *d = parse("ARG CUDA=12.4.1\nARG OS=ubuntu22.04\n"
                             "FROM nvidia/cuda:${CUDA}-runtime-${OS}\n");
    assert_string_equal(d->refs[0].text, "nvidia/cuda:12.4.1-runtime-ubuntu22.04");
    assert_true(d->refs[0].ok);
    assert_loc(d->refs[0].loc, 3, 6);

    struct gl_kv ba = {"CUDA", "11.8.0"};
    cfg.build_args = &ba;
    cfg.nbuild_args = 1;
    d = parse("ARG CUDA=12.4.1\nFROM nvidia/cuda:${CUDA}-base-ubuntu22.04\n");
    cfg.nbuild_args = 0;
    assert_string_equal(d->refs[0].text, "nvidia/cuda:11.8.0-base-ubuntu22.04");

    d = parse("ARG BASE\nFROM ${BASE}\n");
    assert_true(d->refs[0].unresolved);
    assert_false(d->refs[0].ok);

    d = parse("FROM ${UNDECLARED:-python:3.11}\n");
    assert_string_equal(d->refs[0].text, "python:3.11");
}

static void test_scratch_and_stage_through_arg(void **state)
{
    (void)state;
    struct gl_doc *d = parse("ARG BASE_IMAGE=cuda\nFROM nvidia/cuda:12.4.1-base-ubuntu22.04 AS cuda\n"
                             "FROM ${BASE_IMAGE} AS x\nFROM scratch\n");
    assert_true(d->refs[1].stage);
    assert_int_equal(d->df->stages[1].base_stage, 0);
    assert_true(d->refs[2].scratch);
}

static void test_env_and_stage_inheritance(void **state)
{
    (void)state;
    struct gl_doc *d = parse("FROM ubuntu:22.04 AS base\nENV CUDA_HOME=/usr/local/cuda A=1\n"
                             "FROM base\nENV PATH=${CUDA_HOME}/bin:$PATH\n"
                             "ENV OLD old form value\n");
    assert_int_equal(d->nenv, 4);
    assert_string_equal(d->env[0].key, "CUDA_HOME");
    assert_loc(d->env[0].key_loc, 2, 5);
    assert_loc(d->env[0].value_loc, 2, 15);
    assert_int_equal(d->env[2].stage, 1);
    assert_null(d->env[2].value); /* $PATH is unknown */
    assert_string_equal(d->env[3].value, "old form value");
}

static void test_copies(void **state)
{
    (void)state;
    struct gl_doc *d = parse("FROM ubuntu:22.04\nCOPY --chown=1:1 data/ model.pt /app/\n"
                             "COPY --from=ghcr.io/astral-sh/uv:0.4 /uv /bin/\n"
                             "ADD https://x.org/w.safetensors /w\nCOPY <<EOF /etc/x\nhi\nEOF\n");
    assert_int_equal(d->df->ncopies, 3);
    assert_string_equal(d->df->copies[0].path, "data/");
    assert_loc(d->df->copies[0].loc, 2, 18);
    assert_string_equal(d->df->copies[1].path, "model.pt");
    assert_true(d->df->copies[2].add);
    assert_true(d->df->copies[2].url);
    assert_int_equal(d->nrefs, 2);
    assert_int_equal(d->refs[1].role, GL_REF_COPY_FROM);
    assert_loc(d->refs[1].loc, 3, 13);
}

static void test_run_words_and_packages(void **state)
{
    (void)state;
    struct gl_doc *d = parse("FROM ubuntu:22.04\n"
                             "RUN apt-get update && \\\n"
                             "    apt-get install -y --no-install-recommends \\\n"
                             "        gcc=4:11.2.0-1ubuntu1 python3-dev\n"
                             "RUN pip install --index-url https://download.pytorch.org/whl/cu121 "
                             "torch==2.1.0+cu121 'jax[cuda12]>=0.4' -r requirements.txt\n"
                             "RUN [\"conda\", \"install\", \"-c\", \"nvidia\", \"pytorch-cuda=12.1\"]\n");
    const struct gl_dockerfile_model *m = d->df;
    assert_int_equal(m->npkgs, 6);
    assert_string_equal(m->pkgs[0].name, "gcc");
    assert_string_equal(m->pkgs[0].version, "4:11.2.0-1ubuntu1");
    assert_loc(m->pkgs[0].loc, 4, 9);
    assert_string_equal(m->pkgs[1].name, "python3-dev");
    assert_loc(m->pkgs[1].loc, 4, 31);
    assert_string_equal(m->pkgs[2].name, "torch");
    assert_string_equal(m->pkgs[2].version, "2.1.0+cu121");
    assert_string_equal(m->pkgs[3].name, "jax");
    assert_string_equal(m->pkgs[3].spec, "jax[cuda12]>=0.4");
    assert_true(m->pkgs[4].requirements);
    assert_string_equal(m->pkgs[4].name, "requirements.txt");
    assert_string_equal(m->pkgs[5].manager, "conda");
    assert_string_equal(m->pkgs[5].name, "pytorch-cuda");
    assert_string_equal(m->pkgs[5].version, "12.1");
    assert_int_equal(m->nindexes, 2);
    assert_string_equal(m->indexes[0].url, "https://download.pytorch.org/whl/cu121");
    assert_string_equal(m->indexes[1].url, "nvidia");
}

/* Files installs read: uv sync's lock and pyproject, conda env files (named or the default),
 * micromamba -f, conda --file, local projects given to pip; not wheels, URLs or names. */
static void test_install_files(void **state)
{
    (void)state;
    struct gl_doc *d = parse("FROM ubuntu:22.04\n"
                             "RUN uv sync --frozen --project=svc && conda env create\n"
                             "RUN mamba env update -n base --file env.yaml && micromamba create -y -f m.yml\n"
                             "RUN conda install --file specs.txt && pip install -e \".[dev]\" ./pkg/\n"
                             "RUN pip install ./dist/x-1.0-py3-none-any.whl git+https://h/r.git /srv\n"
                             "RUN uv sync $UV_ARGS\n");
    const struct gl_dockerfile_model *m = d->df;
    static const char *const want[] = {"svc/uv.lock", "svc/pyproject.toml", "environment.yml",
                                       "env.yaml", "m.yml", "specs.txt", "./pyproject.toml",
                                       "./pkg/pyproject.toml", "./dist/x-1.0-py3-none-any.whl",
                                       "git+https://h/r.git", "/srv/pyproject.toml"};
    assert_int_equal(m->npkgs, sizeof want / sizeof want[0]);
    for (size_t i = 0; i < m->npkgs; i++) {
        assert_string_equal(m->pkgs[i].name, want[i]);
        assert_int_equal(m->pkgs[i].requirements, i < 8 || i == 10);
    }
    assert_string_equal(m->pkgs[0].manager, "uv");
    assert_loc(m->pkgs[0].loc, 2, 8);
    assert_string_equal(m->pkgs[2].manager, "conda");
    assert_loc(m->pkgs[3].loc, 3, 37);
    assert_string_equal(m->pkgs[4].manager, "micromamba");
    assert_loc(m->pkgs[6].loc, 4, 54);
    assert_string_equal(m->pkgs[6].extras, "dev,"); /* (.[dev]) */
    assert_null(m->pkgs[1].extras);
}

/* The extras a project install chooses, and the context files a RUN bind-mounts. */
static void test_extras_and_binds(void **state)
{
    (void)state;
    struct gl_doc *d = parse("FROM ubuntu:22.04\n"
                             "ARG ACCEL=gpu\nARG OTHER\nWORKDIR /app\n"
                             "RUN --mount=type=cache,target=/c "
                             "--mount=type=bind,src=pyproject.toml,dst=pyproject.toml "
                             "--mount=type=bind,from=build,source=/o,target=/o \\\n"
                             "    uv sync --extra $ACCEL --extra=io --frozen\n"
                             "RUN uv sync --extra $OTHER && uv sync --all-extras && "
                             "pip install '.[a, b]'\n");
    const struct gl_dockerfile_model *m = d->df;
    assert_int_equal(m->npkgs, 7);
    assert_string_equal(m->pkgs[1].name, "./pyproject.toml");
    assert_string_equal(m->pkgs[1].extras, "gpu,io,");
    assert_string_equal(m->pkgs[3].extras, "*"); /* (an extra not known) */
    assert_string_equal(m->pkgs[5].extras, "*");
    assert_string_equal(m->pkgs[6].extras, "a,b,");
    assert_int_equal(m->nbinds, 1); /* (not the cache, not the one from another stage) */
    assert_string_equal(m->binds[0].path, "pyproject.toml");
    assert_string_equal(m->binds[0].dest, "pyproject.toml");
    assert_string_equal(m->binds[0].workdir, "/app");
    assert_int_equal(m->binds[0].instr, 4);
}

/* A RUN's mount spec is read as BuildKit reads it (parsers/shell/mount_spec.h): CSV quotes
 * (inside a quoted flag) keep a comma in a source, keys in any case and their aliases,
 * the last of a key; a spec that is not CSV mounts nothing. */
static void test_bind_spec_csv(void **state)
{
    (void)state;
    struct gl_doc *d = parse("FROM ubuntu:22.04\nWORKDIR /w\n"
                             "RUN --mount='type=bind,\"source=req,dev.txt\",target=/r.txt' "
                             "--mount=Type=BIND,SRC=one,src=two,Destination=/d,dst=/e "
                             "--mount='type=bind,source=x,target=/x,\"id=y' "
                             "--mount=type=bind,src=a,dst=/a,from=stage "
                             "--mount=type=cache,src=c,dst=/c pip install -r /r.txt\n");
    static const char *const want[][2] = {{"req,dev.txt", "/r.txt"}, {"two", "/e"}};
    const struct gl_dockerfile_model *m = d->df;
    assert_int_equal(m->nbinds, 2);
    for (size_t k = 0; k < 2; k++) { /* (path -> dest, each of the RUN) */
        assert_string_equal(m->binds[k].path, want[k][0]);
        assert_string_equal(m->binds[k].dest, want[k][1]);
        assert_int_equal(m->binds[k].instr, 2);
    }
    assert_int_equal(m->binds[1].loc.line, 3);
    assert_int_equal(m->binds[1].loc.col, 60); /* (the flag) */
}

/* What RUN lines remove, WORKDIR, COPY destinations, uv's --torch-backend. */
static void test_removals_workdir(void **state)
{
    (void)state;
    struct gl_doc *d = parse("FROM ubuntu:22.04\n"
                             "WORKDIR /app\n"
                             "COPY req.txt ./deps/\n"
                             "WORKDIR sub\n"
                             "RUN rm -rf -- /tmp/x -y && apt-get purge -y gcc=4:11 && pip uninstall -y Torch\n"
                             "RUN uv pip install --torch-backend cu126 torch && apk del --purge .deps\n");
    const struct gl_dockerfile_model *m = d->df;
    assert_int_equal(m->ncopies, 1);
    assert_string_equal(m->copies[0].dest, "./deps/");
    assert_string_equal(m->copies[0].workdir, "/app");
    assert_int_equal(gl_df_copy_size(d, &m->copies[0]), -1);
    assert_int_equal(m->nremovals, 5);
    assert_string_equal(m->removals[0].manager, "rm");
    assert_string_equal(m->removals[0].name, "/tmp/x");
    assert_string_equal(m->removals[1].name, "-y"); /* after `--`, a path */
    assert_string_equal(m->removals[2].manager, "apt-get");
    assert_string_equal(m->removals[2].name, "gcc");
    assert_loc(m->removals[2].loc, 5, 45);
    assert_string_equal(m->removals[2].workdir, "/app/sub");
    assert_int_equal(m->removals[2].instr, 4);
    assert_string_equal(m->removals[3].name, "Torch");
    assert_string_equal(m->removals[4].name, ".deps");
    assert_int_equal(m->nindexes, 1);
    assert_string_equal(m->indexes[0].option, "--torch-backend");
    assert_string_equal(m->indexes[0].url, "cu126");
    assert_int_equal(m->npkgs, 1); /* cu126 is the option's value, not a package */
    assert_string_equal(m->pkgs[0].workdir, "/app/sub");
}

static void test_run_heredoc_script(void **state)
{
    (void)state;
    struct gl_doc *d = parse("FROM ubuntu:22.04\nRUN <<EOF\nset -e\n  apt-get install -y cmake\nEOF\n"
                             "RUN python3 <<EOF\nimport os\nEOF\n");
    assert_int_equal(d->df->npkgs, 1);
    assert_string_equal(d->df->pkgs[0].name, "cmake");
    assert_loc(d->df->pkgs[0].loc, 4, 22);
}

static void test_sh_c_and_opaque(void **state)
{
    (void)state;
    struct gl_doc *d = parse("FROM ubuntu:22.04\nARG PKGS\n"
                             "RUN sh -c 'apt-get install -y gcc' && apt-get install -y $PKGS\n");
    assert_int_equal(d->df->npkgs, 1);
    assert_loc(d->df->pkgs[0].loc, 3, 31);
}

static void test_pragmas(void **state)
{
    (void)state;
    struct gl_doc *d = parse("# gpulint global ignore=GL303\nFROM ubuntu:22.04\n"
                             "# gpulint ignore=GL302,GL203 because\nRUN apt-get install \\\n  gcc\n");
    assert_int_equal(d->nignores, 2);
    assert_int_equal(d->ignores[0].first, 0);
    assert_int_equal(d->ignores[1].first, 4);
    assert_int_equal(d->ignores[1].last, 5);
    assert_int_equal(d->ignores[1].nids, 2);
    assert_string_equal(d->ignores[1].ids[1], "GL203");
    assert_loc(d->ignores[1].id_locs[1], 3, 24);
}

/* Stage names past the few the model scans (then looked up in a table): a name given
 * again is the later stage's (BuildKit's addState), case does not matter, before and after
 * the switch. */
static void test_many_stage_names(void **state)
{
    (void)state;
    char text[4096];
    size_t n = 0;
    for (int i = 0; i < 70; i++) /* (more than the 64 the model scans) */
        n += (size_t)snprintf(text + n, sizeof text - n, "FROM ubuntu:22.04 AS S%d\n", i);
    n += (size_t)snprintf(text + n, sizeof text - n,
                          "FROM s1 AS s2\n"             /* 70: s2 is now stage 70 */
                          "FROM S69\n"                  /* 71 */
                          "FROM s2\n"                   /* 72 */
                          "COPY --from=s70 /a /a\n"     /* no such stage: an image */
                          "COPY --from=S0 /b /b\n");
    struct gl_doc *d = parse(text);
    const struct gl_dockerfile_model *m = d->df;
    assert_int_equal(m->nstages, 73);
    assert_int_equal(m->stages[70].base_stage, 1);
    assert_int_equal(m->stages[71].base_stage, 69);
    assert_int_equal(m->stages[72].base_stage, 70);
    assert_int_equal(d->nrefs, 74); /* 73 FROMs and the image s70 */
    assert_string_equal(d->refs[73].text, "s70");

    d = parse("FROM ubuntu AS a\nFROM A AS b\nFROM b AS A\nFROM a\nCOPY --from=B /x /x\n");
    assert_int_equal(d->df->stages[1].base_stage, 0);
    assert_int_equal(d->df->stages[2].base_stage, 1);
    assert_int_equal(d->df->stages[3].base_stage, 2); /* (`a` again, lowered) */
    assert_int_equal(d->nrefs, 4);
    d = parse("FROM ubuntu AS build\nFROM alpine AS build\nFROM build\n");
    assert_int_equal(d->df->stages[2].base_stage, 1);
}

static void write_bytes(const char *dir, const char *name, size_t n)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    for (size_t i = 0; i < n; i++)
        fputc('x', f);
    fclose(f);
}

/* COPY sources' sizes from the build context: a regular file however it is spelled, and
 * -1 for a symbolic link (not followed), a directory, a missing file; each path is asked
 * of the file system once per doc (gl_doc_probe), and its answers are those of lstat and
 * stat, for every spelling of the path. */
static void test_copy_sizes_and_probes(void **state)
{
    (void)state;
    char dir[] = "/tmp/gpulint-ctx-XXXXXX", path[512], df[512], link[512];
    assert_non_null(mkdtemp(dir));
    write_bytes(dir, "model.pt", 300);
    write_bytes(dir, "req.txt", 7);
    snprintf(path, sizeof path, "%s/data", dir);
    assert_int_equal(mkdir(path, 0700), 0);
    snprintf(link, sizeof link, "%s/weights.pt", dir);
    assert_int_equal(symlink("model.pt", link), 0);
    snprintf(link, sizeof link, "%s/dangling.pt", dir);
    assert_int_equal(symlink("nowhere.pt", link), 0);
    snprintf(df, sizeof df, "%s/Dockerfile", dir);
    struct gl_doc *d = parse_at(df, "FROM ubuntu:22.04\n"
                                    "COPY model.pt ./model.pt .//model.pt /w/\n"
                                    "COPY weights.pt dangling.pt data data/ . missing.pt /w/\n"
                                    "COPY req.txt ./req.txt /r/\n");
    const struct gl_dockerfile_model *m = d->df;
    assert_int_equal(m->ncopies, 11);
    /* nothing asked while parsing; "." and "data/" are directories by their spelling */
    assert_int_equal(d->nprobes, 0);
    for (size_t i = 0; i < 11; i++)
        assert_int_equal(m->copies[i].size, i == 6 || i == 7 ? -1 : GL_COPY_SIZE_ASK);
    const int64_t want[] = {300, 300, 300, -1, -1, -1, -1, -1, -1, 7, 7};
    for (size_t i = 0; i < 11; i++)
        assert_int_equal(gl_df_copy_size(d, &m->copies[i]), want[i]);
    assert_int_equal(d->nprobes, 6); /* six entries asked, each once */
    assert_int_equal(gl_df_copy_size(d, &m->copies[9]), 7);
    assert_int_equal(d->nprobes, 6);

    /* the memo gives what the calls give, under any spelling */
    struct { const char *name; bool follow; bool found; uint32_t type; int64_t size; } cases[] = {
        {"model.pt", false, true, S_IFREG, 300},   {"./model.pt", true, true, S_IFREG, 300},
        {"weights.pt", false, true, S_IFLNK, -2},  {"./weights.pt", true, true, S_IFREG, 300},
        {"dangling.pt", false, true, S_IFLNK, -2}, {"dangling.pt", true, false, 0, 0},
        {"missing.pt", true, false, 0, 0},         {"data/.", false, true, S_IFDIR, -2},
        {"data//", true, true, S_IFDIR, -2},       {"model.pt/", false, false, 0, 0},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char *p = gl_arena_cat3(&d->arena, dir, strlen(dir), "/", 1, cases[i].name,
                                strlen(cases[i].name));
        struct gl_probe pr = {0};
        bool found = gl_doc_probe(d, p, cases[i].follow, &pr);
        struct stat st;
        assert_int_equal(found, (cases[i].follow ? stat(p, &st) : lstat(p, &st)) == 0);
        assert_int_equal(found, cases[i].found);
        if (!found)
            continue;
        assert_int_equal(pr.mode & S_IFMT, cases[i].type);
        assert_int_equal(pr.mode, st.st_mode);
        assert_int_equal(pr.size, st.st_size);
        if (cases[i].size != -2)
            assert_int_equal(pr.size, cases[i].size);
    }
    /* asked once: a file gone since is still answered from the memo */
    snprintf(path, sizeof path, "%s/model.pt", dir);
    unlink(path);
    struct gl_probe pr;
    assert_true(gl_doc_probe(d, gl_arena_strdup(&d->arena, path), false, &pr));
    assert_int_equal(pr.size, 300);
    unlink(link);
    snprintf(link, sizeof link, "%s/weights.pt", dir);
    unlink(link);
    snprintf(path, sizeof path, "%s/req.txt", dir);
    unlink(path);
    snprintf(path, sizeof path, "%s/data", dir);
    rmdir(path);
    rmdir(dir);
}

/* The next Dockerfile of a directory asks the file system nothing it asked for the one
 * before (gl_stat_memo): a file made between the two is not seen, the run reads one
 * snapshot of the tree. A path never asked before is asked; a stat that follows a link is
 * remembered apart from the lstat of the same path. */
static void test_probes_shared_by_a_directory(void **state)
{
    (void)state;
    char dir[] = "/tmp/gpulint-memo-XXXXXX", df[512], req[512], link[512];
    assert_non_null(mkdtemp(dir));
    snprintf(df, sizeof df, "%s/Dockerfile", dir);
    snprintf(req, sizeof req, "%s/requirements.txt", dir);
    snprintf(link, sizeof link, "%s/req.lnk", dir);
    assert_int_equal(symlink("requirements.txt", link), 0);
    struct gl_probe pr;
    struct gl_doc *d = parse_at(df, "FROM ubuntu:22.04\n");
    assert_false(gl_doc_probe(d, gl_arena_strdup(&d->arena, req), false, &pr));
    assert_false(gl_doc_probe(d, gl_arena_strdup(&d->arena, link), true, &pr));
    write_bytes(dir, "requirements.txt", 9);
    d = parse_at(df, "FROM ubuntu:22.04\n"); /* the next file, a new doc */
    assert_int_equal(d->nprobes, 0);
    assert_false(gl_doc_probe(d, gl_arena_strdup(&d->arena, req), false, &pr));
    assert_false(gl_doc_probe(d, gl_arena_strdup(&d->arena, link), true, &pr));
    assert_true(gl_doc_probe(d, gl_arena_strdup(&d->arena, link), false, &pr));
    assert_true(S_ISLNK(pr.mode));
    char other[512];
    snprintf(other, sizeof other, "%s/./requirements.txt", dir); /* never asked */
    d = parse_at(df, "FROM ubuntu:22.04\n");
    assert_true(gl_doc_probe(d, gl_arena_strdup(&d->arena, other), false, &pr));
    assert_int_equal(pr.size, 9);
    unlink(req);
    unlink(link);
    rmdir(dir);
}

static void test_parse_error(void **state)
{
    (void)state;
    struct gl_doc *d = parse("FROM ubuntu\nENV ONLYKEY\n");
    assert_true(d->error.set);
    assert_int_equal(d->error.loc.line, 2);
}

/* FROM flags: what BuildKit's BFlags.Parse and containerd's platforms.Parse refuse is a
 * parse error at the bad byte (col 0: none); values with variables are not judged (quotes
 * are removed first: 'li nux' is judged as li nux). */
static void test_from_flags(void **state)
{
    (void)state;
    static const struct {
        const char *line;
        unsigned col;
    } cases[] = {
        {"FROM --platform=linux/amd64 a", 0},
        {"FROM --platform=linux/arm64/v8 a", 0},
        {"FROM --platform=LINUX a", 0},
        {"FROM --platform=armhf a", 0},
        {"FROM --platform=i386 a", 0},
        {"FROM --platform=solaris/sparc64 a", 0},
        {"FROM --platform=foo/bar a", 0},
        {"FROM --platform=windows(10.0)/amd64 a", 0},
        {"FROM --platform=$P a", 0},
        {"FROM --platform=${P}x a", 0},
        {"FROM --platform='li nux' a", 20},
        {"FROM --frm=$X a", 0},
        {"FROM --platform={{.Arch}} a", 0},
        {"FROM --platform=linux/amd64 -- a", 0},
        {"FROM --platfrom=linux/amd64 a", 6},
        {"FROM --platform=linux/amd64 --x a", 29},
        {"FROM --platform a", 16},
        {"FROM --platform=a --platform=b a", 19},
        {"FROM --platform= a", 17},
        {"FROM --platform=x86 a", 17},
        {"FROM --platform=linux/ a", 23},
        {"FROM --platform=/amd64 a", 17},
        {"FROM --platform=linux/amd64/v8/x a", 31},
        {"FROM --platform=linux/amd64+x a", 28},
        {"FROM --platform=*/amd64 a", 17},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        char text[128];
        snprintf(text, sizeof text, "%s\n", cases[i].line);
        struct gl_doc *d = parse(text);
        if (d->error.set != (cases[i].col != 0) ||
            (cases[i].col && (d->error.loc.line != 1 || d->error.loc.col != cases[i].col)))
            fail_msg("%s: error %d at %u", cases[i].line, d->error.set, (unsigned)d->error.loc.col);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_stages_and_final),
        cmocka_unit_test(test_target),
        cmocka_unit_test(test_global_args_and_build_args),
        cmocka_unit_test(test_scratch_and_stage_through_arg),
        cmocka_unit_test(test_env_and_stage_inheritance),
        cmocka_unit_test(test_copies),
        cmocka_unit_test(test_run_words_and_packages),
        cmocka_unit_test(test_install_files),
        cmocka_unit_test(test_extras_and_binds),
        cmocka_unit_test(test_bind_spec_csv),
        cmocka_unit_test(test_run_heredoc_script),
        cmocka_unit_test(test_sh_c_and_opaque),
        cmocka_unit_test(test_pragmas),
        cmocka_unit_test(test_removals_workdir),
        cmocka_unit_test(test_copy_sizes_and_probes),
        cmocka_unit_test(test_probes_shared_by_a_directory),
        cmocka_unit_test(test_many_stage_names),
        cmocka_unit_test(test_parse_error),
        cmocka_unit_test(test_from_flags),
    };
    return cmocka_run_group_tests(tests, setup, NULL);
}
