/* SPDX-License-Identifier: Apache-2.0 */
/* config.c: defaults and queries of the run configuration (see config.h). */
#include "linter/core/config.h"


#include <stdio.h>
#include <string.h>

const char *const gl_setting_names[GL_SET_COUNT] = {
    "driver", "gpu", "failure-threshold", "ignore", "enable", "severity", "ignore-paths",
    "data-paths", "data-file-size", "data-total-size", "waste-size", "dataset-args", "checkpoint-args",
    "dataset-env", "checkpoint-env", "knowledge", "build-args", "helm", "helm-values",
    "limits",
};

void gl_config_init(struct gl_config *cfg)
{
    memset(cfg, 0, sizeof *cfg);
    cfg->failure_threshold = GL_SEV_ERROR;
    cfg->format = GL_FMT_TTY;
    cfg->jobs = 0;
    cfg->data_file_bytes = GL_DEFAULT_DATA_FILE_BYTES;
    cfg->data_total_bytes = GL_DEFAULT_DATA_TOTAL_BYTES;
    cfg->waste_bytes = GL_DEFAULT_WASTE_BYTES;
    gl_arena_init(&cfg->arena);
}

void gl_config_add_helm_values(struct gl_config *cfg, const char *path)
{
    *GL_APPEND(&cfg->arena, cfg->helm_values, cfg->nhelm_values, cfg->caphelm_values) =
        gl_arena_strdup(&cfg->arena, path);
}

void gl_config_note_origin(struct gl_config *cfg, enum gl_setting s, const char *origin)
{
    const char *old = cfg->origin[s];
    bool adds_up = s == GL_SET_IGNORE || s == GL_SET_ENABLE || s == GL_SET_BUILD_ARGS ||
                   s == GL_SET_HELM_VALUES;
    if (adds_up && old && strstr(old, origin))
        return; /* named already (a repeated option) */
    cfg->origin[s] = adds_up && old ? gl_arena_printf(&cfg->arena, "%s, %s", old, origin)
                                    : gl_arena_strdup(&cfg->arena, origin);
}

static void pattern_list_free(struct gl_pattern_list *l)
{
    for (size_t i = 0; i < l->n; i++)
        gl_pattern_free(l->items[i]);
}

void gl_pattern_list_add(struct gl_arena *a, struct gl_pattern_list *l, const char *source,
                         struct gl_pattern *p)
{
    const char **sources = gl_arena_alloc(a, (l->n + 1) * sizeof *sources);
    struct gl_pattern **items = gl_arena_alloc(a, (l->n + 1) * sizeof *items);
    if (l->n) {
        memcpy(sources, l->sources, l->n * sizeof *sources);
        memcpy(items, l->items, l->n * sizeof *items);
    }
    sources[l->n] = source;
    items[l->n] = p;
    l->sources = sources;
    l->items = items;
    l->n++;
    l->set = true;
}

bool gl_pattern_list_match(const struct gl_pattern_list *l, const char *s)
{
    size_t len = strlen(s);
    for (size_t i = 0; i < l->n; i++)
        if (gl_pattern_match(l->items[i], s, len))
            return true;
    return false;
}

/* Compile `re` into an unset list. 0, or -1 with a message printed. */
static int pattern_list_default(struct gl_config *cfg, struct gl_pattern_list *l,
                                const char *what, const char *re)
{
    if (l->set)
        return 0;
    char err[256];
    struct gl_pattern *p = gl_pattern_compile(re, false, err, sizeof err);
    if (!p) {
        fprintf(stderr, "gpulint: %s pattern: %s\n", what, err);
        return -1;
    }
    gl_pattern_list_add(&cfg->arena, l, re, p);
    return 0;
}

void gl_config_free(struct gl_config *cfg)
{
    gl_pattern_free(cfg->data_path);
    pattern_list_free(&cfg->dataset_args);
    pattern_list_free(&cfg->checkpoint_args);
    pattern_list_free(&cfg->dataset_env);
    pattern_list_free(&cfg->checkpoint_env);
    gl_arena_free(&cfg->arena);
}

int gl_config_finish(struct gl_config *cfg)
{
    char err[256];
    if (!cfg->data_path &&
        !(cfg->data_path = gl_pattern_compile(GL_DEFAULT_DATA_PATH_PATTERN, false, err, sizeof err))) {
        fprintf(stderr, "gpulint: dataset path pattern: %s\n", err);
        return -1;
    }
    if (pattern_list_default(cfg, &cfg->dataset_args, "dataset-args", GL_DEFAULT_DATASET_ARGS) ||
        pattern_list_default(cfg, &cfg->checkpoint_args, "checkpoint-args",
                             GL_DEFAULT_CHECKPOINT_ARGS) ||
        pattern_list_default(cfg, &cfg->dataset_env, "dataset-env", GL_DEFAULT_DATASET_ENV) ||
        pattern_list_default(cfg, &cfg->checkpoint_env, "checkpoint-env",
                             GL_DEFAULT_CHECKPOINT_ENV))
        return -1;
    return 0;
}

static bool listed(const char **ids, size_t n, const char *id)
{
    for (size_t i = 0; i < n; i++)
        if (gl_streq_nocase(ids[i], id))
            return true;
    return false;
}

bool gl_config_rule_enabled(const struct gl_config *cfg, const char *id, bool optional)
{
    if (listed(cfg->ignore, cfg->nignore, id))
        return false;
    return !optional || listed(cfg->enable, cfg->nenable, id);
}

enum gl_severity gl_config_severity(const struct gl_config *cfg, const char *id,
                                    enum gl_severity sev)
{
    for (size_t i = 0; i < cfg->noverrides; i++)
        if (gl_streq_nocase(cfg->overrides[i].id, id))
            return cfg->overrides[i].severity;
    return sev;
}
