/* SPDX-License-Identifier: Apache-2.0 */
/* limits.c: the named resource limits (see limits.h). */
#include "linter/core/limits.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/resource.h>

#define KiB (UINT64_C(1) << 10)
#define MiB (UINT64_C(1) << 20)

const struct gl_limit_def gl_limit_defs[GL_LIMIT_COUNT] = {
    [GL_LIMIT_INPUT_SIZE] = {"input-size", GL_LIMIT_BYTES, 16 * MiB,
                             "bytes read of one text input (a file, stdin) or of a file an "
                             "option names"},
    [GL_LIMIT_PARSE_MEMORY] = {"parse-memory", GL_LIMIT_BYTES, 32 * MiB,
                               "memory the parse of one text input (or a --knowledge table) "
                               "may use"},
    [GL_LIMIT_YAML_ALIAS_NODES] = {"yaml-alias-nodes", GL_LIMIT_NUMBER, 1000000,
                                   "YAML nodes reached through aliases, per file (and "
                                   "one per 16 bytes of their text)"},
    [GL_LIMIT_NESTING_DEPTH] = {"nesting-depth", GL_LIMIT_NUMBER, 10000,
                                "nested YAML or JSON collections"},
    [GL_LIMIT_IMAGE_JSON_SIZE] = {"image-json-size", GL_LIMIT_BYTES, 4 * MiB,
                                  "bytes of one image manifest, index or config"},
    [GL_LIMIT_IMAGE_INDEX_DEPTH] = {"image-index-depth", GL_LIMIT_NUMBER, 4,
                                    "image indexes nested in indexes"},
    [GL_LIMIT_IMAGE_MANIFESTS] = {"image-manifests", GL_LIMIT_NUMBER, 128,
                                  "distinct manifests (platforms) of one image"},
    [GL_LIMIT_IMAGE_LAYERS] = {"image-layers", GL_LIMIT_NUMBER, 1000,
                               "layers of one image manifest"},
    [GL_LIMIT_ARCHIVE_ENTRIES] = {"archive-entries", GL_LIMIT_NUMBER, 200000,
                                  "entries of one image archive (the outer tar)"},
    [GL_LIMIT_LAYER_ENTRIES] = {"layer-entries", GL_LIMIT_NUMBER, 4u << 20,
                                "entries of one image layer"},
    [GL_LIMIT_IMAGE_FILES] = {"image-files", GL_LIMIT_NUMBER, 1u << 20,
                              "files kept in one image platform's merged view"},
    [GL_LIMIT_IMAGE_MEMORY] = {"image-memory", GL_LIMIT_BYTES, 32 * MiB,
                               "memory an image's layer indexes and file views hold at once"},
    [GL_LIMIT_NAME_LENGTH] = {"name-length", GL_LIMIT_BYTES, 4 * KiB,
                              "bytes of one path inside an image archive, layout or layer, or of one tag"},
    [GL_LIMIT_CAPTURE_SIZE] = {"capture-size", GL_LIMIT_BYTES, 64 * KiB,
                               "bytes of one image file read for its content"},
    [GL_LIMIT_EXPANSION_SIZE] = {"expansion-size", GL_LIMIT_BYTES, 1 * MiB,
                                 "bytes variable expansions may add, per file"},
    [GL_LIMIT_CACHE_SIZE] = {"cache-size", GL_LIMIT_BYTES, 256 * MiB,
                             "bytes the layer-index cache keeps on disk (--cache-max)"},
    [GL_LIMIT_PROJECT_IMAGES] = {"project-images", GL_LIMIT_NUMBER, 10000,
                                 "distinct image names a run's build commands and "
                                 "kustomizations make (beyond: not matched)"},
    [GL_LIMIT_FINDINGS_MEMORY] = {"findings-memory", GL_LIMIT_BYTES, 1 * MiB,
                                  "memory a run's findings take before they are written, "
                                  "sorted, to a temporary file (beyond: written, not an error)"},
};

static uint64_t values[GL_LIMIT_COUNT];
static char *origins[GL_LIMIT_COUNT];
static bool ready;

static void init_once(void)
{
    if (ready)
        return;
    for (size_t i = 0; i < GL_LIMIT_COUNT; i++)
        values[i] = gl_limit_defs[i].def;
    ready = true;
}

uint64_t gl_limit(enum gl_limit_id id)
{
    if (!ready) /* set before any worker thread starts (gl_limit_set, gl_limits_reset) */
        return gl_limit_defs[id].def;
    return values[id];
}

enum gl_limit_id gl_limit_named(const char *name)
{
    for (size_t i = 0; i < GL_LIMIT_COUNT; i++)
        if (!strcmp(name, gl_limit_defs[i].name))
            return (enum gl_limit_id)i;
    return GL_LIMIT_COUNT;
}

static int parse_number(const char *text, uint64_t *out)
{
    uint64_t n = 0;
    if (*text < '0' || *text > '9')
        return -1;
    for (const char *p = text; *p; p++) {
        if (*p < '0' || *p > '9' || n > (UINT64_MAX - 9) / 10)
            return -1;
        n = n * 10 + (uint64_t)(*p - '0');
    }
    if (n == 0)
        return -1;
    *out = n;
    return 0;
}

int gl_limit_set(enum gl_limit_id id, const char *text, const char *origin)
{
    uint64_t v;
    int rc = gl_limit_defs[id].unit == GL_LIMIT_BYTES ? gl_size_parse(text, &v)
                                                      : parse_number(text, &v);
    if (rc != 0)
        return -1;
    init_once();
    values[id] = v;
    free(origins[id]);
    origins[id] = origin ? strdup(origin) : NULL;
    return 0;
}

const char *gl_limit_names(char *buf, size_t cap)
{
    size_t used = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < GL_LIMIT_COUNT && used < cap; i++) {
        int n = snprintf(buf + used, cap - used, "%s%s", i ? ", " : "", gl_limit_defs[i].name);
        if (n < 0)
            break;
        used += (size_t)n;
    }
    return buf;
}

const char *gl_limit_origin(enum gl_limit_id id) { return origins[id]; }

void gl_limits_fit_address_space(void)
{
    struct rlimit rl;
    if (getrlimit(RLIMIT_AS, &rl) != 0 || rl.rlim_cur == RLIM_INFINITY)
        return;
    uint64_t room = rl.rlim_cur > 36 * MiB ? (rl.rlim_cur - 32 * MiB) & ~(MiB - 1) : 4 * MiB;
    init_once();
    static const enum gl_limit_id fit[] = {GL_LIMIT_PARSE_MEMORY, GL_LIMIT_IMAGE_MEMORY};
    for (size_t i = 0; i < sizeof fit / sizeof fit[0]; i++) {
        if (origins[fit[i]] || room >= values[fit[i]])
            continue;
        values[fit[i]] = room;
        origins[fit[i]] = strdup("the address-space limit (ulimit -v)");
    }
}

void gl_limits_reset(void)
{
    for (size_t i = 0; i < GL_LIMIT_COUNT; i++) {
        free(origins[i]);
        origins[i] = NULL;
    }
    ready = false;
    init_once();
}

const char *gl_limit_format(enum gl_limit_id id, char *buf, size_t cap)
{
    if (gl_limit_defs[id].unit == GL_LIMIT_BYTES)
        return gl_size_format(gl_limit(id), buf, cap);
    snprintf(buf, cap, "%llu", (unsigned long long)gl_limit(id));
    return buf;
}

const char *gl_limit_message(enum gl_limit_id id, char *buf, size_t cap)
{
    char value[32];
    const struct gl_limit_def *d = &gl_limit_defs[id];
    snprintf(buf, cap, "the limit `%s` (%s) was reached; raise it with --limit %s=%s", d->name,
             gl_limit_format(id, value, sizeof value), d->name,
             d->unit == GL_LIMIT_BYTES ? "SIZE" : "N");
    return buf;
}

bool gl_limit_said(const char *message)
{
    return message && !strncmp(message, "the limit `", strlen("the limit `"));
}

int gl_size_parse(const char *text, uint64_t *bytes)
{
    static const struct {
        const char *unit;
        uint64_t factor;
    } units[] = {
        {"", 1}, {"B", 1},
        {"K", 1000}, {"KB", 1000}, {"KiB", UINT64_C(1) << 10},
        {"M", 1000000}, {"MB", 1000000}, {"MiB", UINT64_C(1) << 20},
        {"G", 1000000000}, {"GB", 1000000000}, {"GiB", UINT64_C(1) << 30},
        {"T", UINT64_C(1000000000000)}, {"TB", UINT64_C(1000000000000)},
        {"TiB", UINT64_C(1) << 40},
    };
    const char *p = text;
    uint64_t n = 0;
    if (*p < '0' || *p > '9')
        return -1;
    for (; *p >= '0' && *p <= '9'; p++) {
        if (n > (UINT64_MAX - 9) / 10)
            return -1;
        n = n * 10 + (uint64_t)(*p - '0');
    }
    if (*p == ' ')
        p++;
    for (size_t i = 0; i < sizeof units / sizeof units[0]; i++) {
        if (strcasecmp(p, units[i].unit))
            continue;
        if (n == 0 || n > UINT64_MAX / units[i].factor)
            return -1;
        *bytes = n * units[i].factor;
        return 0;
    }
    return -1;
}

const char *gl_size_format(uint64_t bytes, char *buf, size_t cap)
{
    static const struct {
        const char *unit;
        unsigned shift;
    } units[] = {{"TiB", 40}, {"GiB", 30}, {"MiB", 20}, {"KiB", 10}};
    for (size_t i = 0; i < sizeof units / sizeof units[0]; i++) {
        uint64_t f = UINT64_C(1) << units[i].shift;
        if (bytes && bytes % f == 0) {
            snprintf(buf, cap, "%llu%s", (unsigned long long)(bytes / f), units[i].unit);
            return buf;
        }
    }
    snprintf(buf, cap, "%llu", (unsigned long long)bytes);
    return buf;
}
