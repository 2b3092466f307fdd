/* config.c: defaults and queries of the run configuration (see config.h). */
#include "linter/config.h"

#include <stdio.h>
#include <string.h>

void gl_config_init(struct gl_config *cfg)
{
    memset(cfg, 0, sizeof *cfg);
    cfg->failure_threshold = GL_SEV_ERROR;
    cfg->format = GL_FMT_TTY;
    cfg->jobs = 0;
    gl_arena_init(&cfg->arena);
}

void gl_config_free(struct gl_config *cfg)
{
    gl_pattern_free(cfg->data_path);
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
