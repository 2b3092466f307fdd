/* SPDX-License-Identifier: Apache-2.0 */
/* libFuzzer target: bytes as a CUDA knowledge file (--knowledge, knowledge/kb.h).
 * When it loads: the table printed as --print-knowledge does, the driver target resolved
 * against it, and a GPU Dockerfile and launch linted with it, so that every rule meets
 * hostile table contents. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "linter/core/config.h"
#include "knowledge/driver_target.h"
#include "linter/cli/engine.h"
#include "linter/core/inputs.h"
#include "knowledge/kb.h"

static FILE *sink;

static const char dockerfile[] =
    "FROM nvidia/cuda:12.4.1-cudnn-devel-ubuntu22.04 AS build\n"
    "RUN pip install torch==2.3.0+cu121 nvidia-cublas-cu12 jax[cuda12] tensorflow==2.15.1\n"
    "FROM nvcr.io/nvidia/pytorch:24.05-py3\n"
    "ENV NVIDIA_REQUIRE_CUDA=\"cuda>=12.4 brand=tesla,driver>=470,driver<471\"\n"
    "COPY --from=build /usr/local/cuda /usr/local/cuda\n";
static const char runline[] =
    "docker run --gpus all -v /data:/data nvidia/cuda:11.8.0-runtime-ubuntu22.04 python t.py\n";

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    sink = fopen("/dev/null", "w");
    if (!sink)
        abort();
    return 0;
}

static void lint_with(const struct gl_kb *kb, const char *driver)
{
    struct gl_config cfg;
    gl_config_init(&cfg);
    gl_driver_target_parse(&cfg.driver, driver, "--driver");
    gl_config_finish(&cfg);
    cfg.kb = kb;
    char note[512];
    if (gl_driver_target_resolve(&cfg.driver, kb, &cfg.arena, note, sizeof note) == 0) {
        struct gl_run run;
        gl_run_init(&run, &cfg);
        gl_lint_buffer(&run, "Dockerfile", dockerfile, strlen(dockerfile),
                       gl_input_type_named("dockerfile")->kind, true);
        gl_lint_buffer(&run, "run.sh", runline, strlen(runline),
                       gl_input_type_named("shell")->kind, true);
        gl_run_free(&run);
    }
    gl_config_free(&cfg);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct gl_kb *kb = NULL;
    struct gl_kb_error err;
    if (gl_kb_load_text((const char *)data, size, &kb, &err) != 0)
        return 0;
    gl_kb_print(kb, sink);
    lint_with(kb, "R535");
    lint_with(kb, "550.54.15");
    gl_kb_free(kb);
    return 0;
}
