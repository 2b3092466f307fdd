/* SPDX-License-Identifier: Apache-2.0 */
/* config.c: defaults and queries of the run configuration (see config.h). */
#include "linter/core/config.h"


#include <pthread.h>
#include <stdlib.h>
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

/* ---- name sets: patterns `^(A|B)$` and `^--?(A|B)$` matched without PCRE2 ---- */

#define NAME_SET_LENS 64 /* names shorter than this are looked up by their length */

struct name_ref {
    const char *p;
    size_t len;
};

struct gl_name_set {
    bool is_set;   /* the pattern has the form (else it is compiled) */
    bool dashes;   /* `^--?(...)$`: one or two dashes before the name */
    bool by_len;   /* names sorted by length, those of length L at [from[L], from[L + 1]) */
    size_t from[NAME_SET_LENS + 1];
    size_t n;
    struct name_ref names[];
};

static bool name_char(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
           c == '_' || c == '-';
}

/* Read `re` as a name set; is_set false when it has another form. */
static struct gl_name_set *name_set_read(const char *re)
{
    size_t len = strlen(re), alts = 1;
    for (size_t i = 0; i < len; i++)
        alts += re[i] == '|';
    struct gl_name_set *ns = xcalloc(1, sizeof *ns + alts * sizeof ns->names[0]);
    const char *p = re, *end = re + len;
    if (p == end || *p++ != '^')
        return ns;
    if (end - p >= 3 && p[0] == '-' && p[1] == '-' && p[2] == '?') {
        ns->dashes = true;
        p += 3;
    }
    if (end - p < 3 || *p++ != '(' || end[-2] != ')' || end[-1] != '$')
        return ns;
    end -= 2;
    while (p <= end) {
        const char *q = p;
        while (q < end && name_char(*q))
            q++;
        if (q == p || (q < end && *q != '|')) {
            ns->n = 0;
            return ns; /* an empty name or another character: not a plain set */
        }
        ns->names[ns->n].p = p;
        ns->names[ns->n].len = (size_t)(q - p);
        ns->n++;
        p = q + 1;
    }
    ns->is_set = true;
    /* by length (insertion sort: a few names; their order does not matter to a match) */
    for (size_t i = 1; i < ns->n; i++)
        for (size_t k = i; k > 0 && ns->names[k - 1].len > ns->names[k].len; k--) {
            struct name_ref t = ns->names[k];
            ns->names[k] = ns->names[k - 1];
            ns->names[k - 1] = t;
        }
    ns->by_len = !ns->n || ns->names[ns->n - 1].len < NAME_SET_LENS;
    for (size_t L = 0, i = 0; ns->by_len && L <= NAME_SET_LENS; L++) {
        while (i < ns->n && ns->names[i].len < L)
            i++;
        ns->from[L] = i;
    }
    return ns;
}

/* Is s[0..len) one of the names, or one of them and a newline (PCRE2's `$`)? */
static bool name_set_has(const struct gl_name_set *ns, const char *s, size_t len)
{
    if (len && s[len - 1] == '\n')
        len--;
    size_t lo = 0, hi = ns->n;
    if (ns->by_len) {
        if (len >= NAME_SET_LENS)
            return false;
        lo = ns->from[len];
        hi = ns->from[len + 1];
    }
    for (size_t i = lo; i < hi; i++) /* (every name has a first byte) */
        if (ns->names[i].len == len && ns->names[i].p[0] == s[0] &&
            memcmp(ns->names[i].p, s, len) == 0)
            return true;
    return false;
}

static bool name_set_match(const struct gl_name_set *ns, const char *s, size_t len)
{
    if (!ns->dashes)
        return name_set_has(ns, s, len);
    if (!len || s[0] != '-')
        return false;
    return name_set_has(ns, s + 1, len - 1) ||
           (len > 1 && s[1] == '-' && name_set_has(ns, s + 2, len - 2));
}

/* ---- pattern lists ---- */

void gl_pattern_list_free(struct gl_pattern_list *l)
{
    for (size_t i = 0; i < l->n; i++) {
        gl_pattern_free(l->items[i]);
        free(l->names[i]);
    }
}

void gl_pattern_list_add(struct gl_arena *a, struct gl_pattern_list *l, const char *source,
                         struct gl_pattern *p)
{
    const char **sources = gl_arena_alloc(a, (l->n + 1) * sizeof *sources);
    struct gl_pattern **items = gl_arena_alloc(a, (l->n + 1) * sizeof *items);
    struct gl_name_set **names = gl_arena_alloc(a, (l->n + 1) * sizeof *names);
    if (l->n) {
        memcpy(sources, l->sources, l->n * sizeof *sources);
        memcpy(items, l->items, l->n * sizeof *items);
        memcpy(names, l->names, l->n * sizeof *names);
    }
    sources[l->n] = source;
    items[l->n] = p;
    /* a source alone is read now, as a set of names or else compiled: matching only reads
       the list (inputs are linted on several threads) */
    names[l->n] = p ? NULL : name_set_read(source);
    if (!p && !names[l->n]->is_set)
        items[l->n] = gl_pattern_compile(source, false, NULL, 0);
    l->sources = sources;
    l->items = items;
    l->names = names;
    l->n++;
    l->set = true;
}

bool gl_pattern_list_match(const struct gl_pattern_list *l, const char *s)
{
    size_t len = strlen(s);
    for (size_t i = 0; i < l->n; i++) {
        if (l->names[i] && l->names[i]->is_set) {
            if (name_set_match(l->names[i], s, len))
                return true;
        } else if (l->items[i] && gl_pattern_match(l->items[i], s, len)) {
            return true; /* (a source that did not compile matches nothing) */
        }
    }
    return false;
}

/* The default `re` into an unset list (a set of names: nothing compiled). */
static void pattern_list_default(struct gl_config *cfg, struct gl_pattern_list *l,
                                 const char *re)
{
    if (!l->set)
        gl_pattern_list_add(&cfg->arena, l, re, NULL);
}

void gl_config_free(struct gl_config *cfg)
{
    gl_pattern_free(cfg->data_path);
    gl_pattern_list_free(&cfg->dataset_args);
    gl_pattern_list_free(&cfg->checkpoint_args);
    gl_pattern_list_free(&cfg->dataset_env);
    gl_pattern_list_free(&cfg->checkpoint_env);
    gl_arena_free(&cfg->arena);
}

int gl_config_finish(struct gl_config *cfg)
{
    cfg->data_path_default = !cfg->data_path;
    pattern_list_default(cfg, &cfg->dataset_args, GL_DEFAULT_DATASET_ARGS);
    pattern_list_default(cfg, &cfg->checkpoint_args, GL_DEFAULT_CHECKPOINT_ARGS);
    pattern_list_default(cfg, &cfg->dataset_env, GL_DEFAULT_DATASET_ENV);
    pattern_list_default(cfg, &cfg->checkpoint_env, GL_DEFAULT_CHECKPOINT_ENV);
    return 0;
}

const struct gl_pattern *gl_config_data_path(const struct gl_config *cfg)
{
    if (!cfg->data_path_default)
        return cfg->data_path;
    /* the config is the caller's; only this cache of it is written, once, by whichever
       thread asks first (inputs are linted on several threads) */
    static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
    struct gl_pattern **slot = &((struct gl_config *)cfg)->data_path;
    struct gl_pattern *p = __atomic_load_n(slot, __ATOMIC_ACQUIRE);
    if (p)
        return p;
    pthread_mutex_lock(&lock);
    p = *slot;
    if (!p) {
        p = gl_pattern_compile(GL_DEFAULT_DATA_PATH_PATTERN, false, NULL, 0);
        __atomic_store_n(slot, p, __ATOMIC_RELEASE);
    }
    pthread_mutex_unlock(&lock);
    return p;
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
