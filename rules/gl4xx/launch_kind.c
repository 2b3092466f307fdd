/* SPDX-License-Identifier: Apache-2.0 */
/* launch_kind.c: smoke tests, serving launches, runtime templates, Jetson (see
 * launch_kind.h). */
#include "rules/gl4xx/launch_kind.h"

#include <ctype.h>
#include <string.h>

#include "knowledge/derive/cuda_derive.h"
#include "rules/gl4xx/launch_argv.h"

static bool kind_is(const struct gl_launch *l, const char *const *kinds)
{
    for (size_t i = 0; l->object_kind && kinds[i]; i++)
        if (!strcmp(l->object_kind, kinds[i]))
            return true;
    return false;
}

/* Is [s, s+n) a call with no arguments of a module's initialiser or report, `wp.init()`,
 * `hvd.init()`, `torch.cuda.init()`, `warp.print_diagnostics()`: a dotted name (one dot at
 * least) whose last part is `init` or starts `print_`, then `()` and blanks? Such a call
 * starts the runtime and prints the devices it finds: NVIDIA/warp's install guide checks
 * its image with `python3 -c "import warp as wp; wp.init()"`. */
static bool device_report_call(const char *s, size_t n)
{
    size_t i = 0, dots = 0, last = 0;
    while (i < n && (isalnum((unsigned char)s[i]) || s[i] == '_' || s[i] == '.')) {
        if (s[i] == '.') {
            dots++;
            last = i + 1;
        }
        i++;
    }
    if (!dots || last == i || i + 2 > n || s[i] != '(' || s[i + 1] != ')')
        return false;
    bool report = (i - last == 4 && !strncmp(s + last, "init", 4)) ||
                  (i - last > 6 && !strncmp(s + last, "print_", 6));
    for (i += 2; i < n; i++)
        if (s[i] != ' ' && s[i] != '\t')
            return false;
    return report;
}

/* Is the Python program `s` (a -c argument) only imports, prints, asserts and calls of
 * device_report_call? Statements are split at `;` and newlines; a string holding either
 * would only make it "not a smoke test", which is the safe side. */
static bool python_prints_only(const char *s)
{
    static const char *const starts[] = {"import ", "from ", "print(", "print (", "assert ",
                                         NULL};
    bool any = false;
    while (*s) {
        while (*s == ' ' || *s == '\t' || *s == ';' || *s == '\n')
            s++;
        if (!*s)
            break;
        size_t n = strcspn(s, ";\n"), k = 0;
        while (starts[k] && strncmp(s, starts[k], strlen(starts[k])))
            k++;
        if (!starts[k] && !device_report_call(s, n))
            return false;
        any = true;
        s += n;
    }
    return any;
}

/* The smoke test of argv[i, end) (i the command word): nvidia-smi, deviceQuery, `watch
 * nvidia-smi`, `python -c "import torch; print(...)"`, a NIM's `list-model-profiles` (it
 * reads the GPUs to print the engine profiles they can run, and serves nothing). */
static bool smoke_command(const struct gl_launch *l, size_t i, size_t end)
{
    static const char *const tools[] = {"nvidia-smi", "deviceQuery", "deviceQueryDrv",
                                        "bandwidthTest", "list-model-profiles", NULL};
    static const char *const pythons[] = {"python", "python3", NULL};
    const char *cmd = l->argv[i].text;
    /* `watch [-n N] nvidia-smi`: the same smoke test, repeated */
    static const char *const watch[] = {"watch", NULL};
    if (gl_word_named(cmd, watch) && !l->argv[i].opaque) {
        size_t k = i + 1;
        while (k < l->nargv && l->argv[k].text && l->argv[k].text[0] == '-' && !l->argv[k].opaque)
            k += !strcmp(l->argv[k].text, "-n") || !strcmp(l->argv[k].text, "--interval") ? 2 : 1;
        return k + 1 == end && !l->argv[k].opaque && gl_word_named(l->argv[k].text, tools);
    }
    if (gl_word_named(cmd, tools))
        return true;
    if (!gl_word_named(cmd, pythons) || end != i + 3) /* python -c PROGRAM */
        return false;
    const struct gl_word *opt = &l->argv[i + 1], *prog = &l->argv[i + 2];
    return !opt->opaque && !prog->opaque && opt->text && prog->text &&
           !strcmp(opt->text, "-c") && python_prints_only(prog->text);
}

bool gl_command_python_tool(const struct gl_launch *l, size_t i, size_t end)
{
    static const char *const tools[] = {"pip", "pip3", "venv", "virtualenv", "ensurepip",
                                        "build", "twine", "wheel", "pre_commit", "flake8",
                                        "mypy", "black", "ruff", "isort", "pylint", "pyflakes",
                                        "pycodestyle", "pydocstyle", "json.tool", "http.server",
                                        "pip_audit", "cibuildwheel", "setuptools_scm", NULL};
    static const char *const versions[] = {"-V", "-VV", "--version", NULL};
    static const char *const setup[] = {"setup.py", NULL};
    if (smoke_command(l, i, end))
        return true;
    if (i + 1 >= end || !gl_word_known(&l->argv[i + 1]))
        return false;
    const char *a = l->argv[i + 1].text;
    if (!strcmp(a, "-m"))
        return i + 2 < end && gl_word_known(&l->argv[i + 2]) &&
               gl_word_named(l->argv[i + 2].text, tools);
    return gl_word_named(a, versions) || gl_word_named(a, setup);
}

/* Does the command of argv[i, end) only install software: an OS package manager (apt-get,
 * apt, yum, dnf, microdnf, apk, zypper), pip, `uv pip`, or `conda`/`mamba`/`micromamba`
 * install or create? (not `conda run` or `uv run`, which start a program) */
static bool install_command(const struct gl_launch *l, size_t i, size_t end)
{
    static const char *const managers[] = {"apt-get", "apt", "yum", "dnf", "microdnf", "apk",
                                           "zypper", "pip", "pip3", NULL};
    static const char *const condas[] = {"conda", "mamba", "micromamba", NULL};
    static const char *const conda_subs[] = {"install", "create", NULL};
    static const char *const uv[] = {"uv", NULL}, *const uv_subs[] = {"pip", NULL};
    const char *cmd = l->argv[i].text;
    if (gl_word_named(cmd, managers))
        return true;
    bool sub_known = i + 1 < end && gl_word_known(&l->argv[i + 1]);
    return sub_known && ((gl_word_named(cmd, condas) &&
                          gl_word_named(l->argv[i + 1].text, conda_subs)) ||
                         (gl_word_named(cmd, uv) && gl_word_named(l->argv[i + 1].text, uv_subs)));
}

bool gl_launch_smoke_test(const struct gl_launch *l)
{
    /* commands that only wait or print beside a smoke test (`nvidia-smi && sleep 3600`),
     * and installs before it (`apt-get install -y python3-pip && pip3 install torch &&
     * python3 -c 'import torch; print(torch.cuda.is_available())'`: NeMo-Agent-Toolkit's
     * driver check) */
    static const char *const idle[] = {"sleep", "echo", "printf", "true", ":", "date", NULL};
    if (l->argv_opaque)
        return false;
    bool smoke = false;
    for (size_t s = 0; s < l->nargv; s = gl_launch_next_command(l, s)) {
        size_t end = gl_launch_next_command(l, s), i = gl_command_word(l, s);
        if (i >= end)
            return false;
        if (gl_command_shell_prefix(l, i, end) || gl_word_named(l->argv[i].text, idle) ||
            install_command(l, i, end))
            continue;
        if (!smoke_command(l, i, end))
            return false;
        smoke = true;
    }
    return smoke;
}

/* Does `make` in argv[i, end) only build: options (`-j 8`, `-C dir`, `-f file`), VAR=value
 * words, and no target but all, install, build or clean (a `run` or `test` target may run
 * the program it built)? */
static bool make_builds(const struct gl_launch *l, size_t i, size_t end)
{
    static const char *const targets[] = {"all", "install", "build", "clean", NULL};
    for (size_t k = i + 1; k < end; k++) {
        const struct gl_word *w = &l->argv[k];
        if (!gl_word_known(w))
            return false;
        if (w->text[0] == '-') {
            const struct gl_word *v = k + 1 < end ? &l->argv[k + 1] : NULL;
            bool count = v && gl_word_known(v) && v->text[0] &&
                         strspn(v->text, "0123456789") == strlen(v->text);
            k += !strcmp(w->text, "-C") || !strcmp(w->text, "-f") ||
                 (!strcmp(w->text, "-j") && count);
        } else if (!gl_word_assignment(w->text, strlen(w->text)) &&
                   !gl_word_named(w->text, targets)) {
            return false;
        }
    }
    return true;
}

/* Does the command of argv[i, end) run python (or python3) on `-m MODULE` of `modules` or
 * on a script of `scripts` (by its base name)? */
static bool python_runs(const struct gl_launch *l, size_t i, size_t end,
                        const char *const *modules, const char *const *scripts)
{
    static const char *const pythons[] = {"python", "python3", NULL};
    if (!gl_word_named(l->argv[i].text, pythons) || i + 1 >= end ||
        !gl_word_known(&l->argv[i + 1]))
        return false;
    const char *a = l->argv[i + 1].text;
    if (!strcmp(a, "-m"))
        return i + 2 < end && gl_word_known(&l->argv[i + 2]) &&
               gl_word_named(l->argv[i + 2].text, modules);
    return gl_word_named(a, scripts);
}

/* Is the command of argv[i, end) a compile: make (make_builds), cmake, ninja, nvcc, meson,
 * pip, or python running `setup.py` or `-m pip` / `-m build` / `-m wheel`? */
static bool build_command(const struct gl_launch *l, size_t i, size_t end)
{
    static const char *const compilers[] = {"cmake", "ninja", "nvcc", "meson", "pip", "pip3",
                                            NULL};
    static const char *const makes[] = {"make", "gmake", NULL};
    static const char *const modules[] = {"pip", "build", "wheel", NULL};
    static const char *const setup[] = {"setup.py", NULL};
    const char *cmd = l->argv[i].text;
    if (gl_word_named(cmd, makes))
        return make_builds(l, i, end);
    if (gl_word_named(cmd, compilers))
        return true;
    return python_runs(l, i, end, modules, setup);
}

typedef bool (*command_test)(const struct gl_launch *l, size_t i, size_t end);

/* Is the last command of the launch one that `test` passes, with no python, torchrun,
 * deepspeed, accelerate, mpirun or pytest job before it that `test` does not pass? */
static bool ends_in(const struct gl_launch *l, command_test test)
{
    static const char *const jobs[] = {"python", "python3", "torchrun", "deepspeed",
                                       "accelerate", "mpirun", "pytest", NULL};
    if (l->argv_opaque)
        return false;
    size_t last = l->nargv, last_end = l->nargv;
    for (size_t s = 0; s < l->nargv; s = gl_launch_next_command(l, s)) {
        size_t end = gl_launch_next_command(l, s), i = gl_command_word(l, s);
        if (i >= end || !gl_word_known(&l->argv[i]))
            return false;
        if (gl_command_shell_prefix(l, i, end))
            continue;
        if (last < l->nargv && gl_word_named(l->argv[last].text, jobs) &&
            !test(l, last, last_end))
            return false; /* a job ran before the last command */
        last = i;
        last_end = end;
    }
    return last < l->nargv && test(l, last, last_end);
}

bool gl_launch_build_only(const struct gl_launch *l) { return ends_in(l, build_command); }

/* Is the command of argv[i, end) a load generator of a serving engine, a client of a server
 * elsewhere: `python -m sglang.bench_serving`, a `benchmark_serving.py` or
 * `bench_serving.py` script, `vllm bench serve`, `genai-perf`, `guidellm`? */
static bool client_command(const struct gl_launch *l, size_t i, size_t end)
{
    static const char *const modules[] = {"sglang.bench_serving", "vllm.benchmarks.serve",
                                          NULL};
    static const char *const scripts[] = {"benchmark_serving.py", "bench_serving.py", NULL};
    static const char *const tools[] = {"genai-perf", "guidellm", NULL};
    const char *cmd = l->argv[i].text;
    if (gl_word_named(cmd, tools))
        return true;
    if (!strcmp(cmd, "vllm"))
        return i + 2 < end && gl_word_known(&l->argv[i + 1]) &&
               gl_word_known(&l->argv[i + 2]) && !strcmp(l->argv[i + 1].text, "bench") &&
               !strcmp(l->argv[i + 2].text, "serve");
    return python_runs(l, i, end, modules, scripts);
}

bool gl_launch_serving_client(const struct gl_launch *l) { return ends_in(l, client_command); }

/* The parsed image the launch starts, when it is known (no variable left), else NULL. */
static const struct gl_imageref *known_image(const struct gl_doc *doc, const struct gl_launch *l)
{
    const struct gl_ref *r = gl_launch_ref(doc, l);
    return r && r->ok && !r->unresolved && r->parsed.path ? &r->parsed : NULL;
}

static bool image_named(const struct gl_doc *doc, const struct gl_launch *l,
                        const char *const *last, const char *const *first)
{
    const struct gl_imageref *ref = known_image(doc, l);
    if (!ref)
        return false;
    const char *path = ref->path, *slash = strchr(path, '/'), *end = strrchr(path, '/');
    const char *tail = end ? end + 1 : path;
    for (size_t i = 0; last[i]; i++)
        if (!strcmp(tail, last[i]))
            return true;
    for (size_t i = 0; first[i] && slash; i++)
        if (strlen(first[i]) == (size_t)(slash - path) && !strncmp(path, first[i], slash - path))
            return true;
    return false;
}

bool gl_launch_serving(const struct gl_doc *doc, const struct gl_launch *l)
{
    static const char *const kinds[] = {"ServingRuntime", "ClusterServingRuntime",
                                        "InferenceService", NULL};
    static const char *const images[] = {"tritonserver", "torchserve", "vllm-openai",
                                         "text-generation-inference", "sglang", "ollama",
                                         NULL};
    static const char *const namespaces[] = {"kserve", NULL};
    static const char *const commands[] = {"tritonserver", "torchserve",
                                           "text-generation-launcher", NULL};
    if (kind_is(l, kinds))
        return true;
    /* a serving image can run a load generator instead (`--entrypoint vllm IMG bench
     * serve`, a pod's `command:`): a client of a server elsewhere */
    if (image_named(doc, l, images, namespaces))
        return !gl_launch_serving_client(l);
    size_t i = gl_launch_command_index(l);
    return i < l->nargv && gl_word_named(l->argv[i].text, commands);
}

/* Is the command of argv[i, end) a model server built on PyTorch: `vllm serve` or `vllm
 * run-batch` (not `vllm bench`, `vllm chat`: clients), `trtllm-serve`? */
static const char *const vllm_cli[] = {"vllm", NULL};

static bool engine_command(const struct gl_launch *l, size_t i, size_t end)
{
    static const char *const runs[] = {"serve", "run-batch", NULL};
    static const char *const servers[] = {"trtllm-serve", NULL};
    if (gl_word_named(l->argv[i].text, servers))
        return true;
    return gl_word_named(l->argv[i].text, vllm_cli) && i + 1 < end &&
           gl_word_known(&l->argv[i + 1]) && gl_word_named(l->argv[i + 1].text, runs);
}

/* Is `w` a Hugging Face model id (`Qwen/Qwen3-8B`, `meta-llama/Llama-3.1-8B`: one slash
 * between two names), not a path or a script? */
static bool model_id(const char *w)
{
    const char *slash = strchr(w, '/');
    size_t n = strlen(w);
    return isalnum((unsigned char)w[0]) && slash && !strchr(slash + 1, '/') && slash[1] &&
           !(n > 3 && (!strcmp(w + n - 3, ".sh") || !strcmp(w + n - 3, ".py")));
}

const char *gl_launch_pytorch_server(const struct gl_doc *doc, const struct gl_launch *l)
{
    static const char *const images[] = {"vllm-openai", "vllm-omni", NULL};
    static const char *const none[] = {NULL};
    for (size_t s = 0; s < l->nargv; s = gl_launch_next_command(l, s)) {
        size_t end = gl_launch_next_command(l, s), i = gl_command_word(l, s);
        if (i < end && engine_command(l, i, end))
            return gl_word_named(l->argv[i].text, vllm_cli) ? "vllm serve" : l->argv[i].text;
    }
    /* the image's own entrypoint (vllm serve; python3 -m vllm.entrypoints.openai.api_server
     * before v0.6; vllm-omni's `vllm serve --omni`) with its arguments: an option or the
     * model id first, or none */
    if (!image_named(doc, l, images, none) || l->argv_opaque ||
        (l->object_kind && !strncmp(l->object_kind, "Ray", 3)))
        return NULL; /* (KubeRay's pods run the `ray start` their operator writes) */
    if (l->nargv && (!gl_word_known(&l->argv[0]) ||
                     (l->argv[0].text[0] != '-' && !model_id(l->argv[0].text))))
        return NULL;
    return "vllm serve";
}

bool gl_serving_model_arg(const char *name)
{
    static const char *const names[] = {"--model-dir", "--model_dir", "--model-repository",
                                        "--model_repository", "--model-store",
                                        "--model_store", NULL};
    for (size_t i = 0; names[i]; i++)
        if (!strcmp(name, names[i]))
            return true;
    return false;
}

bool gl_launch_runtime_template(const struct gl_launch *l)
{
    static const char *const kinds[] = {"TrainingRuntime", "ClusterTrainingRuntime",
                                        "ServingRuntime", "ClusterServingRuntime", NULL};
    return kind_is(l, kinds);
}

bool gl_launch_compile_image(const struct gl_doc *doc, const struct gl_launch *l)
{
    const struct gl_imageref *ref = known_image(doc, l);
    if (!ref)
        return false;
    const char *path = ref->path, *slash = strrchr(path, '/');
    bool dev_container = l->tool && !strcmp(l->tool, "devcontainer");
    return (dev_container && ref->tag && gl_imageref_tag_has_token(ref->tag, "devel")) ||
           gl_has_suffix(path, "-builder") || !strcmp(slash ? slash + 1 : path, "builder");
}

bool gl_launch_tool_image(const struct gl_doc *doc, const struct gl_launch *l)
{
    const struct gl_imageref *ref = known_image(doc, l);
    if (!ref)
        return false;
    const char *tag = ref->tag, *path = ref->path;
    return (tag && (gl_imageref_tag_has_token(tag, "sdk") ||
                    gl_imageref_tag_has_token(tag, "client"))) ||
           gl_has_suffix(path, "-sdk") || gl_has_suffix(path, "-client") ||
           gl_launch_compile_image(doc, l);
}

/* Does the launch bind a host file only a Jetson has: L4T's release file
 * `/etc/nv_tegra_release`, or the Argus camera daemon's `/tmp/argus_socket`? */
static bool mounts_tegra_file(const struct gl_launch *l)
{
    for (size_t i = 0; i < l->nmounts; i++) {
        const char *src = l->mounts[i].source;
        if (l->mounts[i].type == GL_MOUNT_BIND && src &&
            (!strcmp(src, "/etc/nv_tegra_release") || !strcmp(src, "/tmp/argus_socket")))
            return true;
    }
    return false;
}

bool gl_launch_jetson(const struct gl_doc *doc, const struct gl_launch *l)
{
    if ((doc->jetson_tools || l->jetson_section) && l->kind == GL_LAUNCH_DOCKER_RUN)
        return true; /* a text that runs jetson-containers, a section about Jetson */
    const struct gl_imageref *ref = known_image(doc, l);
    return (ref && gl_cuda_ref_is_jetson(ref)) || mounts_tegra_file(l);
}
