/* SPDX-License-Identifier: Apache-2.0 */
/* test_cuda_derive.c: CUDA facts derived from the model (sources, positions, requirements
 * files) and the GL201 judgement at every boundary of the knowledge table. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ftw.h>
#include <sys/stat.h>
#include <unistd.h>

#include "linter/core/config.h"
#include "knowledge/derive/cuda_derive.h"
#include "knowledge/derive/cuda_derive_internal.h"
#include "parsers/dockerfile/dockerfile_model.h"
#include "rules/gl2xx/cuda_check.h"
#include "tests/unit/test_support.h"

static struct gl_config cfg;
static struct gl_doc doc;

static struct gl_doc *derive(const char *path, const char *text)
{
    gl_arena_free(&doc.arena);
    memset(&doc, 0, sizeof doc);
    gl_arena_init(&doc.arena);
    doc.path = path;
    doc.kind = GL_IN_DOCKERFILE;
    doc.text = text;
    doc.len = strlen(text);
    gl_parse_dockerfile_doc(&doc, &cfg);
    gl_cuda_derive(&doc, &cfg);
    return &doc;
}

static const struct gl_cuda_fact *fact(const struct gl_doc *d, enum gl_cuda_source kind,
                                       size_t nth)
{
    for (size_t i = 0; i < d->ncuda; i++)
        if (d->cuda[i].kind == kind && nth-- == 0)
            return &d->cuda[i];
    return NULL;
}

static void assert_fact(const struct gl_cuda_fact *f, const char *version, uint32_t line,
                        uint32_t col)
{
    assert_non_null(f);
    assert_string_equal(f->version, version);
    assert_int_equal(f->loc.line, line);
    assert_int_equal(f->loc.col, col);
}

static int remove_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st, (void)flag, (void)ftw;
    return remove(path);
}

/* rm -rf of a temporary directory a test made. */
static void remove_tree(const char *dir)
{
    assert_int_equal(nftw(dir, remove_one, 8, FTW_DEPTH | FTW_PHYS), 0);
}

static int setup(void **state)
{
    (void)state;
    gl_config_init(&cfg);
    cfg.kb = gl_kb_builtin();
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    gl_arena_free(&doc.arena);
    gl_config_free(&cfg);
    return 0;
}

static void test_base_tags(void **state)
{
    (void)state;
    struct gl_doc *d = derive("Dockerfile", "FROM nvidia/cuda:12.4.1-cudnn-devel-ubuntu22.04\n"
                                            "FROM nvcr.io/nvidia/cuda:11.8.0-base-ubi8\n"
                                            "FROM nvidia/cuda:10.2-cudnn8-runtime-ubuntu18.04\n"
                                            "FROM nvidia/cuda:12.2.2-base-rockylinux9\n");
    assert_fact(fact(d, GL_CUDA_BASE_TAG, 0), "12.4.1", 1, 18);
    assert_fact(fact(d, GL_CUDA_BASE_TAG, 1), "11.8.0", 2, 26);
    assert_fact(fact(d, GL_CUDA_BASE_TAG, 2), "10.2", 3, 18);
    assert_fact(fact(d, GL_CUDA_BASE_TAG, 3), "12.2.2", 4, 18);
    assert_int_equal(fact(d, GL_CUDA_BASE_TAG, 3)->stage, 3);
}

static void test_ngc_and_tokens(void **state)
{
    (void)state;
    struct gl_doc *d = derive("Dockerfile", "FROM nvcr.io/nvidia/pytorch:24.05-py3\n"
                                            "FROM nvcr.io/nvidia/mxnet:24.05-py3\n"
                                            "FROM pytorch/pytorch:2.3.0-cuda12.1-cudnn8-runtime\n"
                                            "FROM runpod/pytorch:1.0.7-cu1281-torch271\n"
                                            "FROM foo/bar:x-cuda-12.4\n"
                                            "FROM tensorflow/tensorflow:2.15.0-gpu\n"
                                            "FROM nvcr.io/nvidia/l4t-base:r35.1-cuda11.4\n");
    const struct gl_cuda_fact *f = fact(d, GL_CUDA_NGC_TAG, 0);
    assert_fact(f, "12.4.1", 1, 29);
    assert_string_equal(f->label, "NGC pytorch 24.05");
    assert_string_equal(fact(d, GL_CUDA_NGC_TAG, 1)->label, "NGC mxnet 24.05");
    assert_fact(fact(d, GL_CUDA_TAG, 0), "12.1", 3, 32);
    assert_fact(fact(d, GL_CUDA_TAG, 1), "12.8.1", 4, 29);
    assert_fact(fact(d, GL_CUDA_TAG, 2), "12.4", 5, 21);
    assert_null(fact(d, GL_CUDA_TAG, 3)); /* bare -gpu and Jetson give nothing */
}

/* Tags the knowledge's image_releases pin by an alias at a release (the alias word is the
 * fact's place) or as one whole tag (the tag's start); a release, suffix, spelling or family
 * the table does not pin gives nothing. */
static void test_alias_tags(void **state)
{
    (void)state;
    static const struct {
        const char *image, *cuda; /* NULL: no fact */
        uint32_t col;
    } cases[] = {
        {"rayproject/ray:2.9.0-py310-gpu", "11.8", 33},
        {"rayproject/ray:2.47.1-gpu-aarch64", "12.1", 28},
        {"vllm/vllm-openai:v0.9.0", "12.8", 23},
        {"rayproject/ray:2.20.0-gpu", NULL, 0},
        {"rayproject/ray:2.47.1-gpu-x86_64", NULL, 0},
        {"rayproject/ray:2.47.1-py3-10-gpu", NULL, 0},
        {"example/ray:2.47.1-gpu", NULL, 0},
        {"vllm/vllm-openai:0.9.0", NULL, 0},
        {"vllm/vllm-openai:v0.8.5", NULL, 0},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char text[128];
        snprintf(text, sizeof text, "FROM %s\n", cases[i].image);
        const struct gl_cuda_fact *f = fact(derive("Dockerfile", text), GL_CUDA_NGC_TAG, 0);
        if (cases[i].cuda)
            assert_fact(f, cases[i].cuda, 1, cases[i].col);
        else
            assert_null(f);
    }
}

static void test_arg_in_from_is_reported_at_from(void **state)
{
    (void)state;
    struct gl_doc *d = derive("Dockerfile", "ARG CUDA_VERSION=12.1.0\n"
                                            "FROM nvidia/cuda:${CUDA_VERSION}-devel-ubuntu22.04\n");
    assert_int_equal(d->ncuda, 1);
    assert_fact(&d->cuda[0], "12.1.0", 2, 6);
}

static void test_env_and_require(void **state)
{
    (void)state;
    struct gl_doc *d = derive("Dockerfile", "FROM ubuntu:22.04\n"
                                            "ENV CUDA_VERSION=12.4.1 NVIDIA_REQUIRE_CUDA=\"cuda>=12.4\"\n"
                                            "ENV CUDA_VERSION=12.x\n");
    assert_fact(fact(d, GL_CUDA_ENV, 0), "12.4.1", 2, 18);
    assert_null(fact(d, GL_CUDA_ENV, 1)); /* malformed: no fact */
    const struct gl_cuda_fact *r = fact(d, GL_CUDA_REQUIRE, 0);
    assert_non_null(r);
    assert_string_equal(r->require, "cuda>=12.4");
}

static void test_packages(void **state)
{
    (void)state;
    struct gl_doc *d = derive(
        "Dockerfile",
        "FROM ubuntu:22.04\n"
        "RUN apt-get install -y cuda-toolkit-12-6 cuda-compat-12-4 cuda-drivers-550\n"
        "RUN pip install torch==2.1.0+cu121 torchvision nvidia-cublas-cu12 \"jax[cuda12]\"\n"
        "RUN pip install torch --index-url https://download.pytorch.org/whl/cu118\n"
        "RUN pip install dgl -f https://data.dgl.ai/wheels/cu117/repo.html\n"
        "RUN conda install -y pytorch-cuda=12.1 cudatoolkit=11.8.0 -c nvidia\n"
        "RUN pip install tensorflow[and-cuda]==2.15.1 torch==2.4.0\n");
    assert_fact(fact(d, GL_CUDA_OS_PACKAGE, 0), "12.6", 2, 37);
    assert_null(fact(d, GL_CUDA_OS_PACKAGE, 1));
    assert_fact(fact(d, GL_CUDA_FRAMEWORK, 0), "12.1", 3, 29);
    assert_fact(fact(d, GL_CUDA_PIP_NVIDIA, 0), "12", 3, 62);
    assert_fact(fact(d, GL_CUDA_FRAMEWORK, 1), "12", 3, 72);
    assert_fact(fact(d, GL_CUDA_FRAMEWORK, 2), "12.1", 6, 35);
    assert_fact(fact(d, GL_CUDA_FRAMEWORK, 3), "11.8.0", 6, 52);
    assert_fact(fact(d, GL_CUDA_FRAMEWORK, 4), "12.2", 7, 39);
    assert_fact(fact(d, GL_CUDA_FRAMEWORK, 5), "11.8", 4, 68);
    assert_null(fact(d, GL_CUDA_FRAMEWORK, 6)); /* DGL index, PyPI-default torch */
}

/* A reference met again (derive remembers what a reference's text says, per thread):
 * each fact still stands at its own reference, with its own stage and label. */
static void test_same_reference_again(void **state)
{
    (void)state;
    for (int round = 0; round < 2; round++) {
        struct gl_doc *d = derive("Dockerfile",
                                  "ARG V=12.4.1\n"
                                  "FROM   nvidia/cuda:12.4.1-base-ubuntu22.04 AS b\n"
                                  "FROM nvidia/cuda:${V}-base-ubuntu22.04\n"
                                  "FROM pytorch/pytorch:2.3.0-cuda12.1-cudnn8-runtime\n");
        assert_fact(fact(d, GL_CUDA_BASE_TAG, 0), "12.4.1", 2, 20);
        assert_int_equal(fact(d, GL_CUDA_BASE_TAG, 0)->stage, 0);
        assert_fact(fact(d, GL_CUDA_BASE_TAG, 1), "12.4.1", 3, 6); /* through the ARG */
        assert_int_equal(fact(d, GL_CUDA_BASE_TAG, 1)->stage, 1);
        assert_string_equal(fact(d, GL_CUDA_BASE_TAG, 1)->label,
                            "base tag nvidia/cuda:12.4.1-base-ubuntu22.04");
        const struct gl_cuda_fact *t = fact(d, GL_CUDA_TAG, 0);
        assert_fact(t, "12.1", 4, 32);
        assert_string_equal(t->torch, "2.3.0");
        d = derive("Dockerfile", "FROM docker.io/nvidia/cuda:12.4.1-base-ubuntu22.04\n");
        assert_fact(fact(d, GL_CUDA_BASE_TAG, 0), "12.4.1", 1, 28);
    }
}

/* Package names as pip compares them: case and '_' do not matter; a byte outside ASCII
 * ends the name (so no torch fact for "törch"). */
static void test_spec_names(void **state)
{
    (void)state;
    struct gl_doc *d = derive("Dockerfile",
                              "FROM ubuntu:22.04\n"
                              "RUN pip install Nvidia_Cublas_cu12 TORCH==2.1.0+cu121\n"
                              "RUN pip install t\xc3\xb6rch==2.1.0+cu118\n");
    assert_fact(fact(d, GL_CUDA_PIP_NVIDIA, 0), "12", 2, 31);
    assert_fact(fact(d, GL_CUDA_FRAMEWORK, 0), "12.1", 2, 48);
    assert_null(fact(d, GL_CUDA_FRAMEWORK, 1));
    assert_null(fact(d, GL_CUDA_PIP_NVIDIA, 1));
}

static void test_requirements_file(void **state)
{
    (void)state;
    char dir[] = "/tmp/gpulint-reqs-XXXXXX";
    assert_non_null(mkdtemp(dir));
    char path[256], df[256], out[256];
    snprintf(path, sizeof path, "%s/requirements.txt", dir);
    test_write_file(path, "# pinned\n--extra-index-url https://download.pytorch.org/whl/cu121\n"
                     "numpy\n  torch==2.1.0+cu121  # gpu\n");
    snprintf(out, sizeof out, "%s/../gpulint-outside.txt", dir);
    test_write_file(out, "torch==2.1.0+cu118\n");
    snprintf(df, sizeof df, "%s/Dockerfile", dir);
    struct gl_doc *d = derive(df, "FROM nvidia/cuda:11.8.0-runtime-ubuntu22.04\n"
                                  "RUN pip install -r requirements.txt\n"
                                  "RUN pip install -r ../gpulint-outside.txt -r /etc/passwd\n");
    const struct gl_cuda_fact *f = fact(d, GL_CUDA_FRAMEWORK, 0);
    assert_fact(f, "12.1", 4, 15);
    assert_non_null(f->file);
    assert_true(strstr(f->file, "requirements.txt") != NULL);
    assert_int_equal(f->via_loc.line, 2);
    assert_int_equal(f->via_loc.col, 20);
    assert_fact(fact(d, GL_CUDA_FRAMEWORK, 1), "12.1", 2, 52);
    assert_null(fact(d, GL_CUDA_FRAMEWORK, 2)); /* nothing from outside the context */
    unlink(path);
    unlink(out);
    rmdir(dir);
}

/* CUDA-suffixed Python wheels, Paddle and uv torch-backend indexes, ONNX Runtime's table. */
static void test_python_wheels(void **state)
{
    (void)state;
    struct gl_doc *d = derive(
        "Dockerfile",
        "FROM ubuntu:22.04\n"
        "RUN pip install cupy-cuda12x cupy-cuda102 tensorrt-cu12==10.0.1 onnxruntime-gpu==1.17.1\n"
        "RUN pip install paddlepaddle-gpu==3.0.0 -i https://www.paddlepaddle.org.cn/packages/stable/cu126/\n"
        "RUN uv pip install --torch-backend cu121 torch\n"
        "RUN pip install onnxruntime-gpu==1.17.1 -i https://x/_packaging/onnxruntime-cuda-12/pypi/simple\n"
        "RUN pip install onnxruntime-gpu==1.30.0 onnxruntime-gpu cupy-cuda1x paddlepaddle-gpu==2.4.2.post107\n"
        "RUN pip install paddlepaddle-gpu==2.5.1.post120\n"
        "RUN pip install torch -f https://example.org/cu118/\n");
    assert_fact(fact(d, GL_CUDA_FRAMEWORK, 0), "12", 2, 22);
    assert_fact(fact(d, GL_CUDA_FRAMEWORK, 1), "10.2", 2, 35);
    assert_fact(fact(d, GL_CUDA_FRAMEWORK, 2), "12", 2, 52);
    assert_fact(fact(d, GL_CUDA_FRAMEWORK, 3), "11", 2, 82);
    assert_fact(fact(d, GL_CUDA_FRAMEWORK, 4), "12", 5, 34);
    assert_fact(fact(d, GL_CUDA_FRAMEWORK, 5), "12.0", 7, 41);
    assert_fact(fact(d, GL_CUDA_FRAMEWORK, 6), "12.6", 3, 92);
    assert_string_equal(fact(d, GL_CUDA_FRAMEWORK, 6)->framework, "paddle");
    assert_fact(fact(d, GL_CUDA_FRAMEWORK, 7), "12.1", 4, 36);
    assert_string_equal(fact(d, GL_CUDA_FRAMEWORK, 7)->framework, "torch");
    /* unknown ORT, unpinned ORT, cupy-cuda1x, post107 (CUDA 10.0 + cuDNN 7), a
     * non-PyTorch index for torch: none */
    assert_null(fact(d, GL_CUDA_FRAMEWORK, 8));
}

/* `pip install -r` of a path a COPY put there: the context file it came from. */
static void test_requirements_copied(void **state)
{
    (void)state;
    char dir[] = "/tmp/gpulint-reqcopy-XXXXXX", path[512];
    assert_non_null(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/deps", dir);
    assert_int_equal(mkdir(path, 0700), 0);
    snprintf(path, sizeof path, "%s/deps/gpu.txt", dir);
    test_write_file(path, "cupy-cuda11x\n");
    char df[512];
    snprintf(df, sizeof df, "%s/Dockerfile", dir);
    struct gl_doc *d = derive(df, "FROM ubuntu:22.04\n"
                                  "WORKDIR /app\n"
                                  "COPY deps/gpu.txt ./req/\n"
                                  "RUN pip install -r req/gpu.txt\n"
                                  "COPY deps /opt/deps\n"
                                  "RUN pip install -r /opt/deps/gpu.txt\n"
                                  "RUN pip install -r /nowhere/gpu.txt\n");
    assert_fact(fact(d, GL_CUDA_FRAMEWORK, 0), "11", 1, 6);
    assert_int_equal(fact(d, GL_CUDA_FRAMEWORK, 0)->via_loc.line, 4);
    assert_fact(fact(d, GL_CUDA_FRAMEWORK, 1), "11", 1, 6);
    assert_int_equal(fact(d, GL_CUDA_FRAMEWORK, 1)->via_loc.line, 6);
    assert_null(fact(d, GL_CUDA_FRAMEWORK, 2));
    remove_tree(dir);
}

/* A requirements file the Dockerfile copies in as a symbolic link (the model asked lstat
 * of it: a link; the reader follows it) and, copied under another spelling, a file that
 * is not there (asked once, missing for both). */
static void test_requirements_through_link(void **state)
{
    (void)state;
    char dir[] = "/tmp/gpulint-reqlink-XXXXXX", path[512], df[512];
    assert_non_null(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/real.txt", dir);
    test_write_file(path, "cupy-cuda12x\n");
    snprintf(path, sizeof path, "%s/requirements.txt", dir);
    assert_int_equal(symlink("real.txt", path), 0);
    snprintf(df, sizeof df, "%s/Dockerfile", dir);
    struct gl_doc *d = derive(df, "FROM ubuntu:22.04\n"
                                  "COPY ./requirements.txt ./gone.txt /app/\n"
                                  "RUN pip install -r /app/requirements.txt -r /app/gone.txt\n");
    assert_int_equal(gl_df_copy_size(d, &d->df->copies[0]), -1); /* a link: not sized */
    const struct gl_cuda_fact *f = fact(d, GL_CUDA_FRAMEWORK, 0);
    assert_fact(f, "12", 1, 6);
    assert_int_equal(f->via_loc.line, 3);
    assert_true(strstr(f->file, "requirements.txt") != NULL);
    assert_null(fact(d, GL_CUDA_FRAMEWORK, 1));
    remove_tree(dir);
}

/* Project files where the Dockerfile copies them: pyproject.toml (uv indexes and sources,
 * alternatives opaque), uv.lock (forks opaque), conda environment files, conda --file, a
 * `cd` in the RUN; nothing from files never copied in. */
static void test_project_files(void **state)
{
    (void)state;
    char dir[] = "/tmp/gpulint-proj-XXXXXX", path[512], df[512];
    assert_non_null(mkdtemp(dir));
    const char *files[][2] = {
        {"pyproject.toml",
         "[project]\nname = \"x\"\ndependencies = [\n  \"jax[cuda12]>=0.4\",  # ] in a string\n"
         "  \"torch>=2.4\",\n]\n\n[tool.uv.sources]\ntorch = [\n"
         "  { index = \"pytorch-cu124\", marker = \"sys_platform == 'linux'\" },\n]\n\n"
         "[[tool.uv.index]]\nname = \"pytorch-cu124\"\nexplicit = true\n"
         "url = \"https://download.pytorch.org/whl/cu124\"\n\n"
         "[[tool.uv.index]]\nname = \"pytorch-cu118\"\nurl = \"https://download.pytorch.org/whl/cu118\"\n"
         "explicit = true\n"},
        {"alt/pyproject.toml",
         "[project]\ndependencies = [\"torch\"]\n[tool.uv]\n"
         "extra-index-url = [\"https://download.pytorch.org/whl/cu118\", "
         "\"https://download.pytorch.org/whl/cu124\"]\n"},
        {"uv.lock",
         "version = 1\n\n[[package]]\nname = \"torch\"\nversion = \"2.5.1+cu124\"\n"
         "source = { registry = \"https://download.pytorch.org/whl/cu124\" }\n\n"
         "[[package]]\nname = \"cupy-cuda12x\"\nversion = \"13.3.0\"\n\n"
         "[[package]]\nname = \"torchvision\"\nversion = \"0.20.1+cu124\"\n\n"
         "[[package]]\nname = \"torchvision\"\nversion = \"0.20.1+cpu\"\n"},
        {"env/environment.yml",
         "name: x\ndependencies:\n  - python=3.10\n  - \"pytorch-cuda=12.1\"\n"
         "  - nvidia::cuda-toolkit=12.1\n  - pip:\n"
         "    - --extra-index-url https://download.pytorch.org/whl/cu121\n"
         "    - torch==2.3.1\n"},
        {"specs.txt", "cudatoolkit=11.8\n"},
    };
    snprintf(path, sizeof path, "%s/alt", dir);
    assert_int_equal(mkdir(path, 0700), 0);
    snprintf(path, sizeof path, "%s/env", dir);
    assert_int_equal(mkdir(path, 0700), 0);
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        snprintf(path, sizeof path, "%s/%s", dir, files[i][0]);
        test_write_file(path, files[i][1]);
    }
    snprintf(df, sizeof df, "%s/Dockerfile", dir);
    struct gl_doc *d = derive(df, "FROM ubuntu:22.04\n"
                                  "WORKDIR /app\n"
                                  "COPY pyproject.toml uv.lock ./\n"
                                  "RUN uv sync --frozen\n"
                                  "COPY env/environment.yml /tmp/\n"
                                  "RUN conda env create -f /tmp/environment.yml\n"
                                  "COPY alt /alt\n"
                                  "RUN cd /alt && pip install .\n"
                                  "COPY specs.txt .\n"
                                  "RUN micromamba install -y -f specs.txt\n"
                                  "RUN cd sub && pip install -r requirements.txt\n"
                                  "RUN pip install -e /never-copied\n");
    /* uv.lock: torch's local version (at its '+'), cupy; torchvision is forked */
    const struct gl_cuda_fact *f = fact(d, GL_CUDA_FRAMEWORK, 0);
    assert_fact(f, "12.4", 5, 17);
    assert_true(strstr(f->file, "uv.lock") != NULL);
    assert_int_equal(f->via_loc.line, 4);
    assert_string_equal(f->torch, "2.5.1");
    assert_fact(fact(d, GL_CUDA_FRAMEWORK, 1), "12", 9, 14);
    /* pyproject.toml: jax[cuda12], then the one explicit index sources name for torch */
    f = fact(d, GL_CUDA_FRAMEWORK, 2);
    assert_fact(f, "12", 4, 8);
    assert_true(strstr(f->file, "pyproject.toml") != NULL);
    assert_fact(fact(d, GL_CUDA_FRAMEWORK, 3), "12.4", 16, 41);
    /* environment.yml: pytorch-cuda (quoted), channel-prefixed cuda-toolkit, the pip index */
    assert_fact(fact(d, GL_CUDA_FRAMEWORK, 4), "12.1", 4, 19);
    assert_fact(fact(d, GL_CUDA_FRAMEWORK, 5), "12.1", 5, 26);
    assert_fact(fact(d, GL_CUDA_FRAMEWORK, 6), "12.1", 7, 58);
    assert_int_equal(fact(d, GL_CUDA_FRAMEWORK, 6)->via_loc.line, 6);
    /* alt/pyproject.toml after `cd /alt`: two CUDA releases for torch, opaque; specs.txt */
    f = fact(d, GL_CUDA_FRAMEWORK, 7);
    assert_fact(f, "11.8", 1, 13);
    assert_true(strstr(f->file, "specs.txt") != NULL);
    assert_null(fact(d, GL_CUDA_FRAMEWORK, 8));
    remove_tree(dir);
}

/* Installed distributions (an image's dist-info METADATA) as pins. */
static void test_dists(void **state)
{
    (void)state;
    struct gl_doc *d = derive("Dockerfile", "FROM scratch\n");
    size_t n0 = d->ncuda;
    const struct gl_cuda_fact *f = gl_cuda_derive_dist(d, NULL, "torch", "2.5.1+cu124", "L");
    assert_fact(f, "12.4", 0, 0);
    assert_string_equal(f->torch, "2.5.1");
    assert_string_equal(f->label, "L");
    assert_fact(gl_cuda_derive_dist(d, NULL, "nvidia-cudnn-cu13", "9.19.0.56", "L"), "13", 0, 0);
    assert_fact(gl_cuda_derive_dist(d, NULL, "nvidia-cuda-runtime", "13.0.96", "L"), "13", 0, 0);
    assert_fact(gl_cuda_derive_dist(d, NULL, "cupy-cuda12x", "13.3.0", "L"), "12", 0, 0);
    assert_int_equal(d->ncuda, n0 + 4);
    assert_null(gl_cuda_derive_dist(d, NULL, "torch", "2.5.1", "L")); /* PyPI's default */
    assert_null(gl_cuda_derive_dist(d, NULL, "nvidia-ml-py", "13.580.82", "L")); /* NVML */
    assert_null(gl_cuda_derive_dist(d, NULL, "nvidia-cufft", "12.0.0.61", "L"));
    assert_null(gl_cuda_derive_dist(d, NULL, "torch; x", "2.5.1+cu124", "L"));
    assert_null(gl_cuda_derive_dist(d, NULL, "torch", "2.5.1+cu124, 1", "L"));
    assert_null(gl_cuda_derive_dist(d, NULL, "", "", "L"));
    assert_null(gl_cuda_derive_dist(d, NULL, NULL, "1", "L"));
    assert_int_equal(d->ncuda, n0 + 4);
}

static void test_token_versions(void **state)
{
    (void)state;
    char v[16];
    size_t off;
    assert_true(gl_cuda_token_version("cuda12", 6, v, sizeof v, &off));
    assert_string_equal(v, "12");
    assert_true(gl_cuda_token_version("cu102", 5, v, sizeof v, &off));
    assert_string_equal(v, "10.2");
    assert_false(gl_cuda_token_version("cuda12..1", 9, v, sizeof v, &off));
    assert_false(gl_cuda_token_version("cu921", 5, v, sizeof v, &off));
    assert_false(gl_cuda_token_version("cuda", 4, v, sizeof v, &off));
    /* cudaXYZ[W]: the digits of cuXYZ after "cuda" (sglang's tags), at offset 4 */
    assert_true(gl_cuda_token_version("cuda129", 7, v, sizeof v, &off));
    assert_string_equal(v, "12.9");
    assert_int_equal(off, 4);
    assert_true(gl_cuda_token_version("cuda-1281", 9, v, sizeof v, &off));
    assert_string_equal(v, "12.8.1");
    assert_int_equal(off, 5);
    assert_false(gl_cuda_token_version("cuda929", 7, v, sizeof v, &off)); /* no CUDA 92 */
    /* another product's version behind `cuda-` (text-embeddings-inference:cuda-1.9): no
     * container holds a CUDA before 6.5 */
    assert_false(gl_cuda_token_version("cuda-1.9", 8, v, sizeof v, &off));
    assert_false(gl_cuda_token_version("cuda2.0", 7, v, sizeof v, &off));
    assert_true(gl_cuda_token_version("cuda-7.5", 8, v, sizeof v, &off));
    assert_string_equal(v, "7.5");
    assert_false(gl_cuda_token_version("cuda12345", 9, v, sizeof v, &off));
}

static enum gl_judge_verdict judge(const char *cuda, const char *driver)
{
    struct gl_judgement j;
    gl_cuda_judge(gl_kb_builtin(), cuda, driver, NULL, &j);
    return j.verdict;
}

static void test_judge_boundaries(void **state)
{
    (void)state;
    assert_int_equal(judge("12.4.1", "550.54.15"), GL_JUDGE_OK);   /* exactly at minimum */
    assert_int_equal(judge("12.4.1", "550.54.14"), GL_JUDGE_MVC);  /* one patch below */
    assert_int_equal(judge("12.4.1", "525.60.13"), GL_JUDGE_MVC);  /* exactly at the floor */
    assert_int_equal(judge("12.4.1", "525.60.12"), GL_JUDGE_FAIL); /* below the floor */
    assert_int_equal(judge("12.9.1", "580.65.06"), GL_JUDGE_OK);   /* 12.x on R580 */
    assert_int_equal(judge("13.0.0", "575.64"), GL_JUDGE_FAIL);    /* 13.x on R575 */
    assert_int_equal(judge("10.2", "418.87.01"), GL_JUDGE_FAIL);   /* 10.x: no MVC */
    assert_int_equal(judge("10.1", "418.39"), GL_JUDGE_OK);
    assert_int_equal(judge("13.9.0", "535.104.05"), GL_JUDGE_FAIL); /* newer: floor decides */
    assert_int_equal(judge("13.9.0", "595.45.04"), GL_JUDGE_UNKNOWN); /* never guessed */
    assert_int_equal(judge("14.0", "595.45.04"), GL_JUDGE_FAIL);   /* new major, exact max */
    assert_int_equal(judge("12", "525.60.13"), GL_JUDGE_OK);       /* major only: floor */
    assert_int_equal(judge("13", "570.26"), GL_JUDGE_FAIL);
    assert_int_equal(judge("9.0", "535.104.05"), GL_JUDGE_OK);     /* older than the table */
    assert_int_equal(judge("12.x", "535.104.05"), GL_JUDGE_UNKNOWN); /* malformed */
    assert_int_equal(judge("12.4.1", "garbage"), GL_JUDGE_UNKNOWN);
    struct gl_judgement j;
    gl_cuda_judge(gl_kb_builtin(), "13.9.0", "535.104.05", NULL, &j);
    assert_true(j.newer_than_table);
}

static void test_judge_ngc_forward_compat(void **state)
{
    (void)state;
    const struct gl_kb *kb = gl_kb_builtin();
    const struct gl_kb_ngc_release *rel = gl_kb_ngc_release(kb, "24.05-py3");
    assert_non_null(rel);
    struct gl_judgement j;
    gl_cuda_judge(kb, rel->cuda, "535.104.05", rel, &j);
    assert_int_equal(j.verdict, GL_JUDGE_FWD_COMPAT);
    assert_string_equal(j.fwd_driver, "535.86");
    gl_cuda_judge(kb, rel->cuda, "535.54.03", rel, &j); /* below the listed 535.86 */
    assert_int_equal(j.verdict, GL_JUDGE_MVC);
}

/* NGC month tags: YY.MM, a patch of the month, a release candidate of it; post releases */
static void test_ngc_month_tags(void **state)
{
    (void)state;
    const char *yes[] = {"24.05", "24.05-py3", "25.04.01", "24.01.01-py3", "25.04.rc2",
                         "25.04.rc2-py3"};
    const char *no[] = {"24.5", "24.05.", "25.04.rc", "25.04.rcx", "25.04.rc2x", "25.04.x1",
                        "latest", "25.12.post1", "25.12.post1-py3"};
    for (size_t i = 0; i < sizeof yes / sizeof yes[0]; i++)
        assert_true(gl_ngc_month_tag(yes[i]));
    for (size_t i = 0; i < sizeof no / sizeof no[0]; i++)
        assert_false(gl_ngc_month_tag(no[i]));
    const struct gl_kb *kb = gl_kb_builtin();
    assert_ptr_equal(gl_kb_ngc_release(kb, "25.04.rc2"), gl_kb_ngc_release(kb, "25.04"));
    /* a post release is no month (no notes give its CUDA), but is told apart for GL204 */
    assert_null(gl_kb_ngc_release(kb, "25.12.post1-py3"));
    const char *post[] = {"25.12.post1", "25.12.post1-py3", "24.01.post12"};
    const char *not_post[] = {"25.12.post", "25.12.postx", "25.12.post1x", "25.12-post1",
                              "2512.post1", "25.12.post1.1"};
    for (size_t i = 0; i < sizeof post / sizeof post[0]; i++)
        assert_true(gl_ngc_post_release(post[i]));
    for (size_t i = 0; i < sizeof not_post / sizeof not_post[0]; i++)
        assert_false(gl_ngc_post_release(not_post[i]));
}


/* cd_alts_drop counts rivals by group (branch, instruction) instead of comparing pairs:
 * the same facts are dropped as the pairs' definition gives (two facts of one branch and
 * instruction, of different arms, whose releases disagree: majors differ, or minors when
 * both give one), on random facts. */
static bool disagree(const char *a, const char *b)
{
    long am = strtol(a, NULL, 10), bm = strtol(b, NULL, 10);
    const char *ad = strchr(a, '.'), *bd = strchr(b, '.');
    long an = ad ? strtol(ad + 1, NULL, 10) : -1, bn = bd ? strtol(bd + 1, NULL, 10) : -1;
    return am != bm || (an >= 0 && bn >= 0 && an != bn);
}

static void test_alts_drop_as_pairs(void **state)
{
    (void)state;
    static const char *const versions[] = {"11", "11.8", "12", "12.1", "12.4.1", "12.1.0",
                                           "13.0", "x", NULL};
    srand(18);
    for (int round = 0; round < 300; round++) {
        size_t n = 1 + (size_t)(rand() % 40);
        struct gl_doc d;
        memset(&d, 0, sizeof d);
        gl_arena_init(&d.arena);
        struct gl_cuda_fact *f = gl_arena_alloc(&d.arena, n * sizeof *f);
        uint32_t branch[40];
        uint8_t arm[40];
        bool drop[40] = {false};
        for (size_t i = 0; i < n; i++) {
            f[i].version = versions[rand() % 9];
            f[i].instr = rand() % 2;
            f[i].loc.line = (uint32_t)i; /* (the fact's identity after the drop) */
            branch[i] = (uint32_t)(rand() % 3);
            arm[i] = (uint8_t)(rand() % 4);
        }
        for (size_t i = 0; i < n; i++)
            for (size_t j = 0; j < n; j++)
                if (i != j && branch[i] && branch[i] == branch[j] && arm[i] != arm[j] &&
                    f[i].instr == f[j].instr && f[i].version && f[j].version &&
                    disagree(f[i].version, f[j].version))
                    drop[i] = true;
        d.cuda = f;
        struct cd_alts al;
        cd_alts_init(&al, &d);
        for (size_t i = 0; i < n; i++) {
            d.ncuda = i + 1;
            cd_alts_note(&al, i, branch[i], arm[i]);
        }
        cd_alts_drop(&al);
        size_t kept = 0;
        for (size_t i = 0; i < n; i++)
            if (!drop[i]) {
                assert_true(kept < d.ncuda);
                assert_int_equal(d.cuda[kept++].loc.line, i);
            }
        assert_int_equal(d.ncuda, kept);
        gl_arena_free(&d.arena);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ngc_month_tags),
        cmocka_unit_test(test_base_tags),
        cmocka_unit_test(test_ngc_and_tokens),
        cmocka_unit_test(test_alias_tags),
        cmocka_unit_test(test_arg_in_from_is_reported_at_from),
        cmocka_unit_test(test_env_and_require),
        cmocka_unit_test(test_packages),
        cmocka_unit_test(test_spec_names),
        cmocka_unit_test(test_same_reference_again),
        cmocka_unit_test(test_requirements_file),
        cmocka_unit_test(test_python_wheels),
        cmocka_unit_test(test_requirements_copied),
        cmocka_unit_test(test_requirements_through_link),
        cmocka_unit_test(test_project_files),
        cmocka_unit_test(test_dists),
        cmocka_unit_test(test_token_versions),
        cmocka_unit_test(test_judge_boundaries),
        cmocka_unit_test(test_judge_ngc_forward_compat),
        cmocka_unit_test(test_alts_drop_as_pairs),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
