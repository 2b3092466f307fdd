/* SPDX-License-Identifier: Apache-2.0 */
/* config_print.c: the merged configuration as a config file (see config_print.h). */
#include "linter/config/config_print.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "linter/core/escape.h"
#include "linter/core/inputs.h"
#include "linter/core/limits.h"

void gl_config_print_scalar(struct gl_buf *b, const char *s)
{
    if (gl_escape_plain(s)) {
        gl_buf_addc(b, '\'');
        for (const char *p = s; *p; p++) {
            if (*p == '\'')
                gl_buf_addc(b, '\'');
            gl_buf_addc(b, *p);
        }
        gl_buf_addc(b, '\'');
        return;
    }
    gl_buf_addc(b, '"');
    gl_escape_str(b, s, GL_ESCAPE_QUOTED);
    gl_buf_addc(b, '"');
}

void gl_config_print_size(struct gl_buf *b, uint64_t bytes)
{
    char text[32];
    gl_buf_adds(b, gl_size_format(bytes, text, sizeof text));
}

/* A comment's text on one line: control characters as visible escapes. */
static void add_comment_text(struct gl_buf *b, const char *s)
{
    gl_escape_str(b, s, GL_ESCAPE_TEXT);
}

static void origin_comment(struct gl_buf *b, const struct gl_config *cfg, enum gl_setting s)
{
    gl_buf_adds(b, "  # ");
    add_comment_text(b, cfg->origin[s] ? cfg->origin[s] : "default");
    gl_buf_addc(b, '\n');
}

/* `key:` and the origin, for a block value on the lines that follow. */
static void block_key(struct gl_buf *b, const struct gl_config *cfg, enum gl_setting s)
{
    gl_buf_printf(b, "%s:", gl_setting_names[s]);
    origin_comment(b, cfg, s);
}

/* A list of strings: `key: []`, or a block of `- item` lines; ids plain, others quoted. */
static void string_list(struct gl_buf *b, const struct gl_config *cfg, enum gl_setting s,
                        const char *const *items, size_t n, bool quote)
{
    if (!n) {
        gl_buf_printf(b, "%s: []", gl_setting_names[s]);
        origin_comment(b, cfg, s);
        return;
    }
    block_key(b, cfg, s);
    for (size_t i = 0; i < n; i++) {
        gl_buf_adds(b, "  - ");
        if (quote)
            gl_config_print_scalar(b, items[i]);
        else
            gl_buf_adds(b, items[i]);
        gl_buf_addc(b, '\n');
    }
}

static void scalar_setting(struct gl_buf *b, const struct gl_config *cfg, enum gl_setting s,
                           const char *value, bool quote)
{
    gl_buf_printf(b, "%s: ", gl_setting_names[s]);
    if (quote)
        gl_config_print_scalar(b, value);
    else
        gl_buf_adds(b, value);
    origin_comment(b, cfg, s);
}

/* A setting with no value: a comment saying what that means. */
static void unset_setting(struct gl_buf *b, enum gl_setting s, const char *meaning)
{
    gl_buf_printf(b, "# %s:  # default: %s\n", gl_setting_names[s], meaning);
}

static void size_setting(struct gl_buf *b, const struct gl_config *cfg, enum gl_setting s,
                         uint64_t bytes)
{
    gl_buf_printf(b, "%s: ", gl_setting_names[s]);
    gl_config_print_size(b, bytes);
    origin_comment(b, cfg, s);
}

static void severity_overrides(struct gl_buf *b, const struct gl_config *cfg)
{
    if (!cfg->noverrides) {
        gl_buf_printf(b, "%s: {}", gl_setting_names[GL_SET_SEVERITY]);
        origin_comment(b, cfg, GL_SET_SEVERITY);
        return;
    }
    block_key(b, cfg, GL_SET_SEVERITY);
    for (size_t i = 0; i < cfg->noverrides; i++)
        gl_buf_printf(b, "  %s: %s\n", cfg->overrides[i].id,
                      gl_severity_name(cfg->overrides[i].severity));
}

static void ignore_paths(struct gl_buf *b, const struct gl_config *cfg)
{
    const struct gl_path_ignores *pi = &cfg->path_ignores;
    if (!pi->n) {
        gl_buf_printf(b, "%s: []", gl_setting_names[GL_SET_IGNORE_PATHS]);
        origin_comment(b, cfg, GL_SET_IGNORE_PATHS);
        return;
    }
    if (pi->base) {
        gl_buf_adds(b, "# ignore-paths globs are relative to ");
        add_comment_text(b, pi->base);
        gl_buf_addc(b, '\n');
    }
    block_key(b, cfg, GL_SET_IGNORE_PATHS);
    for (size_t i = 0; i < pi->n; i++) {
        const struct gl_path_ignore *item = &pi->items[i];
        gl_buf_adds(b, "  - ");
        gl_config_print_scalar(b, item->glob);
        if (!item->whole) {
            gl_buf_adds(b, ": [");
            for (size_t k = 0; k < item->nrules; k++)
                gl_buf_printf(b, "%s%s", k ? ", " : "", item->rules[k]);
            gl_buf_addc(b, ']');
        }
        gl_buf_addc(b, '\n');
    }
}

/* Build arguments; one without a value (`--build-arg K` with K not in the environment)
 * is printed as a comment, since a config file cannot say "no value". */
static void build_args(struct gl_buf *b, const struct gl_config *cfg)
{
    size_t with_value = 0;
    for (size_t i = 0; i < cfg->nbuild_args; i++)
        with_value += cfg->build_args[i].value != NULL;
    if (!with_value) {
        gl_buf_printf(b, "%s: {}", gl_setting_names[GL_SET_BUILD_ARGS]);
        origin_comment(b, cfg, GL_SET_BUILD_ARGS);
    } else {
        block_key(b, cfg, GL_SET_BUILD_ARGS);
    }
    for (size_t i = 0; i < cfg->nbuild_args; i++) {
        const struct gl_kv *kv = &cfg->build_args[i];
        gl_buf_adds(b, kv->value ? "  " : "  # ");
        gl_config_print_scalar(b, kv->key);
        if (kv->value) {
            gl_buf_adds(b, ": ");
            gl_config_print_scalar(b, kv->value);
        } else {
            gl_buf_adds(b, ":  (not in the environment: no value)");
        }
        gl_buf_addc(b, '\n');
    }
}

/* A path as an absolute one (into abs), so the printed file reads it from anywhere. */
static const char *absolute(struct gl_buf *abs, const char *path)
{
    char cwd[PATH_MAX];
    gl_buf_init(abs);
    if (path[0] != '/' && getcwd(cwd, sizeof cwd))
        gl_buf_printf(abs, "%s/", cwd);
    gl_buf_adds(abs, path);
    return gl_buf_str(abs);
}

static void knowledge(struct gl_buf *b, const struct gl_config *cfg)
{
    if (!cfg->knowledge_path) {
        unset_setting(b, GL_SET_KNOWLEDGE, "the built-in CUDA knowledge table");
        return;
    }
    struct gl_buf abs;
    scalar_setting(b, cfg, GL_SET_KNOWLEDGE, absolute(&abs, cfg->knowledge_path), true);
    gl_buf_free(&abs);
}

/* `helm:` (a name is looked up in PATH, a path made absolute) and `helm-values:`. */
static void helm(struct gl_buf *b, const struct gl_config *cfg)
{
    if (!cfg->helm) {
        unset_setting(b, GL_SET_HELM, "the first helm on PATH");
    } else {
        struct gl_buf abs;
        gl_buf_init(&abs);
        scalar_setting(b, cfg, GL_SET_HELM,
                       strchr(cfg->helm, '/') ? absolute(&abs, cfg->helm) : cfg->helm, true);
        gl_buf_free(&abs);
    }
    const char **files = xcalloc(cfg->nhelm_values + 1, sizeof *files);
    struct gl_buf *abs = xcalloc(cfg->nhelm_values + 1, sizeof *abs);
    for (size_t i = 0; i < cfg->nhelm_values; i++)
        files[i] = absolute(&abs[i], cfg->helm_values[i]);
    string_list(b, cfg, GL_SET_HELM_VALUES, files, cfg->nhelm_values, true);
    for (size_t i = 0; i < cfg->nhelm_values; i++)
        gl_buf_free(&abs[i]);
    free(abs);
    free(files);
}

/* Every limit with its value; a changed one with where, a default one with what it bounds. */
static void limits(struct gl_buf *b)
{
    gl_buf_printf(b, "%s:\n", gl_setting_names[GL_SET_LIMITS]);
    for (size_t i = 0; i < GL_LIMIT_COUNT; i++) {
        char value[32];
        const char *origin = gl_limit_origin((enum gl_limit_id)i);
        gl_buf_printf(b, "  %s: %s", gl_limit_defs[i].name,
                      gl_limit_format((enum gl_limit_id)i, value, sizeof value));
        gl_buf_adds(b, "  # ");
        add_comment_text(b, origin ? origin : "default");
        gl_buf_adds(b, ": ");
        gl_buf_adds(b, gl_limit_defs[i].what);
        gl_buf_addc(b, '\n');
    }
}

static void pattern_list(struct gl_buf *b, const struct gl_config *cfg, enum gl_setting s,
                         const struct gl_pattern_list *l)
{
    string_list(b, cfg, s, l->sources, l->n, true);
}

static void command_line_only(struct gl_buf *b, const struct gl_config *cfg)
{
    static const char *const formats[] = {"tty", "json", "sarif", "checkstyle", "gitlab"};
    const struct gl_input_type *type = cfg->type ? gl_input_type_of(cfg->type) : NULL;
    gl_buf_adds(b, "\n# Set on the command line only (not read from a config file):\n");
    gl_buf_printf(b, "#   --format %s\n", formats[cfg->format]);
    gl_buf_adds(b, "#   --output ");
    add_comment_text(b, cfg->output ? cfg->output : "(standard output)");
    gl_buf_printf(b, "\n#   --type %s\n", type ? type->name : "(by name and content)");
    gl_buf_adds(b, "#   --target ");
    add_comment_text(b, cfg->target ? cfg->target : "(the last stage)");
    if (cfg->jobs > 0)
        gl_buf_printf(b, "\n#   --jobs %d\n", cfg->jobs);
    else
        gl_buf_adds(b, "\n#   --jobs (the number of cores)\n");
    gl_buf_adds(b, "#   --platform ");
    add_comment_text(b, cfg->platform ? cfg->platform : "(every platform)");
    gl_buf_adds(b, "\n#   --cache-dir ");
    add_comment_text(b, cfg->no_cache    ? "(--no-cache: no cache)"
                        : cfg->cache_dir ? cfg->cache_dir
                                         : "($XDG_CACHE_HOME/gpulint or ~/.cache/gpulint)");
    gl_buf_adds(b, cfg->trust_digests ? "\n#   --trust-digests (layers are not hashed)\n"
                                      : "\n#   (layer digests are checked)\n");
}

void gl_config_print(FILE *out, const struct gl_config *cfg)
{
    struct gl_buf b;
    gl_buf_init(&b);
    gl_buf_adds(&b, "# gpulint configuration: the defaults, then ");
    add_comment_text(&b, cfg->config_file ? cfg->config_file : "no config file");
    gl_buf_adds(&b, ", then the command line.\n"
                    "# Each value ends with where it came from; `gpulint --config FILE` reads "
                    "this back.\n");
    for (int s = 0; s < GL_SET_COUNT; s++) {
        switch ((enum gl_setting)s) {
        case GL_SET_DRIVER:
            if (cfg->driver.text)
                scalar_setting(&b, cfg, GL_SET_DRIVER, cfg->driver.text, true);
            else
                unset_setting(&b, GL_SET_DRIVER, "none (the CUDA/driver checks are skipped)");
            break;
        case GL_SET_GPU:
            if (cfg->gpu.nnames)
                string_list(&b, cfg, GL_SET_GPU, cfg->gpu.names, cfg->gpu.nnames, true);
            else
                unset_setting(&b, GL_SET_GPU, "none (the GPU architecture checks are skipped)");
            break;
        case GL_SET_FAILURE_THRESHOLD:
            scalar_setting(&b, cfg, GL_SET_FAILURE_THRESHOLD,
                           gl_severity_name(cfg->failure_threshold), false);
            break;
        case GL_SET_IGNORE:
            string_list(&b, cfg, GL_SET_IGNORE, cfg->ignore, cfg->nignore, false);
            break;
        case GL_SET_ENABLE:
            string_list(&b, cfg, GL_SET_ENABLE, cfg->enable, cfg->nenable, false);
            break;
        case GL_SET_SEVERITY: severity_overrides(&b, cfg); break;
        case GL_SET_IGNORE_PATHS: ignore_paths(&b, cfg); break;
        case GL_SET_DATA_PATHS:
            if (cfg->origin[GL_SET_DATA_PATHS]) {
                string_list(&b, cfg, GL_SET_DATA_PATHS, cfg->data_path_sources,
                            cfg->ndata_path_sources, true);
            } else {
                const char *def = GL_DEFAULT_DATA_PATH_PATTERN;
                string_list(&b, cfg, GL_SET_DATA_PATHS, &def, 1, true);
            }
            break;
        case GL_SET_DATA_FILE_SIZE:
            size_setting(&b, cfg, GL_SET_DATA_FILE_SIZE, cfg->data_file_bytes);
            break;
        case GL_SET_DATA_TOTAL_SIZE:
            size_setting(&b, cfg, GL_SET_DATA_TOTAL_SIZE, cfg->data_total_bytes);
            break;
        case GL_SET_WASTE_SIZE:
            size_setting(&b, cfg, GL_SET_WASTE_SIZE, cfg->waste_bytes);
            break;
        case GL_SET_DATASET_ARGS:
            pattern_list(&b, cfg, GL_SET_DATASET_ARGS, &cfg->dataset_args);
            break;
        case GL_SET_CHECKPOINT_ARGS:
            pattern_list(&b, cfg, GL_SET_CHECKPOINT_ARGS, &cfg->checkpoint_args);
            break;
        case GL_SET_DATASET_ENV:
            pattern_list(&b, cfg, GL_SET_DATASET_ENV, &cfg->dataset_env);
            break;
        case GL_SET_CHECKPOINT_ENV:
            pattern_list(&b, cfg, GL_SET_CHECKPOINT_ENV, &cfg->checkpoint_env);
            break;
        case GL_SET_KNOWLEDGE: knowledge(&b, cfg); break;
        case GL_SET_BUILD_ARGS: build_args(&b, cfg); break;
        case GL_SET_HELM: helm(&b, cfg); break;
        case GL_SET_HELM_VALUES: break; /* printed with helm: */
        case GL_SET_LIMITS: limits(&b); break;
        case GL_SET_COUNT: break;
        }
    }
    command_line_only(&b, cfg);
    fwrite(b.data, 1, b.len, out);
    gl_buf_free(&b);
}
