/* SPDX-License-Identifier: Apache-2.0 */
/* config_file.c: .gpulint.yaml read through the YAML reader (parsers/yaml/yaml_tree.h)
 * into the run configuration (see config_file.h). */
#include "linter/config/config_file.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "knowledge/driver_target.h"
#include "knowledge/gpu_target.h"
#include "linter/config/config_pos.h"
#include "linter/core/glob.h"
#include "linter/core/limits.h"
#include "linter/core/rule.h"
#include "parsers/yaml/yaml_tree.h"

const char gl_config_file_name[] = ".gpulint.yaml";

/* The file is loaded whole (yt_load_exact: the tree holds what libyaml read before its
 * first error), then walked in document order: a problem the walk meets before the
 * place where the load stopped is reported, as if the file were read event by event.
 * Settings nest 4 collections deep at most (ignore-paths: [{glob: [ids]}]), so a deeper
 * one is refused where the walk meets its first excess level, before the place where a
 * bound of MAX_DEPTH stops the load: the bound changes no message, and keeps libyaml
 * (quadratic in the depth of flow collections) linear on a hostile file. */
#define MAX_DEPTH 64

struct reader {
    const struct yt_stream *s;
    struct gl_config_pos pos;
    struct gl_config *cfg;
    const char *file;
    char *err;
    size_t errlen;
    bool failed;
};

/* ---- positions and errors ---- */

static struct gl_loc at(struct reader *r, const struct yt_node *n)
{
    return n->past_end ? gl_config_pos_past_end(&r->pos) : gl_config_pos_at(&r->pos, n->start);
}

static void fail_at(struct reader *r, struct gl_loc loc, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void fail_at(struct reader *r, struct gl_loc loc, const char *fmt, ...)
{
    if (r->failed)
        return;
    r->failed = true;
    int n = snprintf(r->err, r->errlen, "%s:%u:%u: ", r->file, (unsigned)loc.line,
                     (unsigned)loc.col);
    if (n < 0 || (size_t)n >= r->errlen)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(r->err + n, r->errlen - (size_t)n, fmt, ap);
    va_end(ap);
}

static bool fail_alias(struct reader *r, struct gl_loc loc)
{
    fail_at(r, loc, "expected a value, found an alias (aliases are not allowed)");
    return false;
}

/* The walk reached the place where the load stopped: its error. */
static bool fail_stream(struct reader *r)
{
    const struct yt_stream *s = r->s;
    const struct yt_cause *c = &s->cause;
    if (!s->error)
        return false; /* not reached: only an error stops a load short */
    struct gl_loc loc = c->kind == YT_ERR_READER ? s->error_loc /* a byte offset already */
                        : c->past_end            ? gl_config_pos_past_end(&r->pos)
                                                 : gl_config_pos_at(&r->pos, c->off);
    if (c->kind == YT_ERR_UNDEFINED_ALIAS) /* an alias all the same */
        return fail_alias(r, loc);
    const char *problem = c->kind == YT_ERR_LIMIT ? s->error_msg : c->problem;
    fail_at(r, loc, "invalid YAML: %s%s%s", problem ? problem : "syntax error",
            c->context ? " " : "", c->context ? c->context : "");
    return false;
}

/* ---- the tree ---- */

/* What reading the next node meets: false (with the error set) where the load stopped
 * (n is NULL) or at an alias. */
static bool arrived(struct reader *r, const struct yt_node *n)
{
    if (!n)
        return fail_stream(r);
    if (n->kind == YT_ALIAS)
        return fail_alias(r, at(r, n));
    return true;
}

/* After the last item or pair of a collection: its end, or where the load stopped. */
static bool ended(struct reader *r, const struct yt_node *n)
{
    return n->complete || fail_stream(r);
}

static const char *scalar_text(struct reader *r, const struct yt_node *n)
{
    return gl_arena_strndup(&r->cfg->arena, n->value, n->len);
}

static const char *node_name(const struct yt_node *n)
{
    return n->kind == YT_SEQ ? "a list" : n->kind == YT_MAP ? "a mapping" : "a scalar";
}

/* What stands where something else was expected: "nothing" for a null. */
static const char *found(const struct yt_node *n)
{
    return yt_is_null(n) ? "nothing" : node_name(n);
}

typedef bool (*node_fn)(struct reader *r, struct yt_node *n, void *ctx);
typedef bool (*entry_fn)(struct reader *r, struct yt_node *key, struct yt_node *value,
                         void *ctx);

/* Each item of a sequence, then its end. */
static bool each_item(struct reader *r, struct yt_node *seq, node_fn fn, void *ctx)
{
    for (size_t i = 0; i < seq->nitems; i++)
        if (!arrived(r, seq->items[i]) || !fn(r, seq->items[i], ctx))
            return false;
    return ended(r, seq);
}

/* Each pair of a mapping, then its end. A key the load stopped after comes with a NULL
 * value (reading it meets the load's error). */
static bool each_pair(struct reader *r, struct yt_node *map, entry_fn fn, void *ctx)
{
    for (size_t i = 0; i < map->npairs; i++)
        if (!arrived(r, map->pairs[i].key) ||
            !fn(r, map->pairs[i].key, map->pairs[i].value, ctx))
            return false;
    struct yt_node *key = map->complete ? NULL : yt_pending_key(r->s, map);
    if (key && (!arrived(r, key) || !fn(r, key, NULL, ctx)))
        return false;
    return ended(r, map);
}

/* One scalar value; NULL (with the error set) otherwise. */
static const char *read_scalar(struct reader *r, const struct yt_node *n, const char *what,
                               struct gl_loc *loc)
{
    if (!arrived(r, n))
        return NULL;
    *loc = at(r, n);
    if (n->kind != YT_SCALAR || yt_is_null(n)) {
        fail_at(r, *loc, "expected %s, found %s", what, found(n));
        return NULL;
    }
    return scalar_text(r, n);
}

typedef bool (*item_fn)(struct reader *r, const char *value, struct gl_loc loc, void *ctx);
typedef bool (*pair_fn)(struct reader *r, const char *key, struct gl_loc key_loc,
                        const char *value, struct gl_loc value_loc, void *ctx);

/* read_list's walk: what the items are, and who takes each. */
struct list_walk {
    const char *what;
    item_fn item;
    void *ctx;
};

static bool list_item(struct reader *r, struct yt_node *n, void *ctx)
{
    const struct list_walk *w = ctx;
    struct gl_loc loc;
    const char *v = read_scalar(r, n, w->what, &loc);
    return v && w->item(r, v, loc, w->ctx);
}

/* A list of scalars (a lone scalar too when `scalar_ok`), each handed to `item`. */
static bool read_list(struct reader *r, struct yt_node *n, const char *what, bool scalar_ok,
                      item_fn item, void *ctx)
{
    if (!arrived(r, n))
        return false;
    struct gl_loc loc = at(r, n);
    if (scalar_ok && n->kind == YT_SCALAR && !yt_is_null(n))
        return item(r, scalar_text(r, n), loc, ctx);
    if (n->kind != YT_SEQ) {
        fail_at(r, loc, "expected a list of %s, found %s", what, found(n));
        return false;
    }
    struct list_walk w = {what, item, ctx};
    return each_item(r, n, list_item, &w);
}

/* read_map's walk: what the pairs are, and who takes each. */
struct map_walk {
    const char *what;
    pair_fn pair;
    void *ctx;
};

static bool map_entry(struct reader *r, struct yt_node *key, struct yt_node *value, void *ctx)
{
    const struct map_walk *w = ctx;
    struct gl_loc key_loc = at(r, key), value_loc;
    if (key->kind != YT_SCALAR) {
        fail_at(r, key_loc, "expected a key of %s, found %s", w->what, node_name(key));
        return false;
    }
    const char *k = scalar_text(r, key);
    const char *v = read_scalar(r, value, "a scalar value", &value_loc);
    return v && w->pair(r, k, key_loc, v, value_loc, w->ctx);
}

/* A mapping of scalar keys to scalar values, each pair handed to `pair`. */
static bool read_map(struct reader *r, struct yt_node *n, const char *what, pair_fn pair,
                     void *ctx)
{
    if (!arrived(r, n))
        return false;
    if (n->kind != YT_MAP) {
        fail_at(r, at(r, n), "expected a mapping of %s, found %s", what, found(n));
        return false;
    }
    struct map_walk w = {what, pair, ctx};
    return each_pair(r, n, map_entry, &w);
}

/* ---- settings ---- */

/* A rule id: the rule's own spelling, or NULL after recording it as unknown (GL902). */
static const char *rule_id(struct reader *r, const char *id, struct gl_loc loc)
{
    const struct gl_rule *rule = gl_rule_find(id);
    if (rule)
        return rule->id;
    struct gl_config *cfg = r->cfg;
    struct gl_config_unknown_id *u =
        GL_APPEND(&cfg->arena, cfg->unknown_ids, cfg->nunknown_ids, cfg->capunknown_ids);
    u->id = id;
    u->loc = loc;
    return NULL;
}

static bool add_listed_id(struct reader *r, const char *value, struct gl_loc loc, void *ctx)
{
    const char *id = rule_id(r, value, loc);
    if (!id)
        return true;
    struct gl_config *cfg = r->cfg;
    bool enable = ctx != NULL;
    const char ***list = enable ? &cfg->enable : &cfg->ignore;
    size_t *n = enable ? &cfg->nenable : &cfg->nignore;
    const char **grown = gl_arena_alloc(&cfg->arena, (*n + 1) * sizeof *grown);
    if (*n)
        memcpy(grown, *list, *n * sizeof *grown);
    grown[(*n)++] = id;
    *list = grown;
    return true;
}

static bool add_override(struct reader *r, const char *key, struct gl_loc key_loc,
                         const char *value, struct gl_loc value_loc, void *ctx)
{
    (void)ctx;
    enum gl_severity sev;
    if (gl_severity_parse(value, &sev) != 0 || sev == GL_SEV_NONE) {
        fail_at(r, value_loc, "expected error, warning, info or style, found `%s`", value);
        return false;
    }
    const char *id = rule_id(r, key, key_loc);
    if (!id)
        return true;
    struct gl_config *cfg = r->cfg;
    struct gl_rule_override *grown =
        gl_arena_alloc(&cfg->arena, (cfg->noverrides + 1) * sizeof *grown);
    if (cfg->noverrides)
        memcpy(grown, cfg->overrides, cfg->noverrides * sizeof *grown);
    grown[cfg->noverrides++] = (struct gl_rule_override){id, sev};
    cfg->overrides = grown;
    return true;
}

static bool add_build_arg(struct reader *r, const char *key, struct gl_loc key_loc,
                          const char *value, struct gl_loc value_loc, void *ctx)
{
    (void)ctx;
    (void)value_loc;
    if (!*key || strchr(key, '=')) {
        fail_at(r, key_loc, "expected a build argument name, found `%s`", key);
        return false;
    }
    struct gl_config *cfg = r->cfg;
    struct gl_kv *grown = gl_arena_alloc(&cfg->arena, (cfg->nbuild_args + 1) * sizeof *grown);
    if (cfg->nbuild_args)
        memcpy(grown, cfg->build_args, cfg->nbuild_args * sizeof *grown);
    grown[cfg->nbuild_args++] = (struct gl_kv){key, value};
    cfg->build_args = grown;
    return true;
}

static bool add_limit(struct reader *r, const char *key, struct gl_loc key_loc,
                      const char *value, struct gl_loc value_loc, void *ctx)
{
    (void)ctx;
    enum gl_limit_id id = gl_limit_named(key);
    if (id == GL_LIMIT_COUNT) {
        char names[512];
        fail_at(r, key_loc, "expected a limit name (%s), found `%s`",
                gl_limit_names(names, sizeof names), key);
        return false;
    }
    const char *origin = gl_arena_printf(&r->cfg->arena, "%s:%u", r->file,
                                         (unsigned)key_loc.line);
    if (gl_limit_set(id, value, origin) != 0) {
        fail_at(r, value_loc, "expected %s for limit `%s`, found `%s`",
                gl_limit_defs[id].unit == GL_LIMIT_BYTES
                    ? "a size of at least 1 byte (16MiB, 1GiB, 500MB or bytes)"
                    : "a whole number of at least 1",
                key, value);
        return false;
    }
    return true;
}

/* Compile a pattern; NULL with the error set (at the pattern) when it is bad. */
static struct gl_pattern *compile_at(struct reader *r, const char *re, struct gl_loc loc)
{
    char msg[256];
    struct gl_pattern *p = gl_pattern_compile(re, false, msg, sizeof msg);
    if (!p)
        fail_at(r, loc, "expected a PCRE2 pattern, `%s` is invalid %s", re, msg);
    return p;
}

static bool add_name_pattern(struct reader *r, const char *value, struct gl_loc loc, void *ctx)
{
    struct gl_pattern *p = compile_at(r, value, loc);
    if (!p)
        return false;
    gl_pattern_list_add(&r->cfg->arena, ctx, value, p);
    return true;
}

/* data-paths: each pattern is checked alone, then all are joined as alternatives. */
struct data_paths {
    struct gl_buf joined;
    const char **sources;
    size_t n, cap;
};

static bool add_data_path(struct reader *r, const char *value, struct gl_loc loc, void *ctx)
{
    struct data_paths *dp = ctx;
    struct gl_pattern *p = compile_at(r, value, loc);
    if (!p)
        return false;
    gl_pattern_free(p);
    gl_buf_printf(&dp->joined, "%s(?:%s)", dp->joined.len ? "|" : "", value);
    *GL_APPEND(&r->cfg->arena, dp->sources, dp->n, dp->cap) = value;
    return true;
}

static bool read_data_paths(struct reader *r, struct yt_node *n, struct gl_loc key_loc)
{
    struct data_paths dp = {0};
    gl_buf_init(&dp.joined);
    bool ok = read_list(r, n, "patterns", true, add_data_path, &dp);
    if (ok) {
        r->cfg->data_path_sources = dp.sources;
        r->cfg->ndata_path_sources = dp.n;
        struct gl_pattern *p =
            dp.joined.len ? compile_at(r, gl_buf_str(&dp.joined), key_loc) : NULL;
        if (dp.joined.len && !p)
            ok = false;
        if (ok) {
            gl_pattern_free(r->cfg->data_path);
            /* an empty list matches nothing: a pattern that never matches */
            r->cfg->data_path = p ? p : gl_pattern_compile("(*FAIL)", false, NULL, 0);
        }
    }
    gl_buf_free(&dp.joined);
    return ok;
}

/* `knowledge:`, `helm:` and `helm-values:` paths relative to the config file's directory. */
static const char *beside_file(struct reader *r, const char *path)
{
    const char *slash = strrchr(r->file, '/');
    if (path[0] == '/' || !slash)
        return path;
    return gl_arena_printf(&r->cfg->arena, "%.*s/%s", (int)(slash - r->file), r->file, path);
}

/* `helm-values:` files, relative to the config file's directory. */
static bool add_gpu(struct reader *r, const char *value, struct gl_loc loc, void *ctx)
{
    (void)ctx;
    if (gl_gpu_targets_add(&r->cfg->gpu, &r->cfg->arena, value) != 0) {
        fail_at(r, loc, "expected a GPU name (H100, A100, RTX 4090, Hopper, sm_90, 9.0, 90 or "
                        "host), found `%s`", value);
        return false;
    }
    return true;
}

static bool add_helm_values(struct reader *r, const char *value, struct gl_loc loc, void *ctx)
{
    (void)loc;
    (void)ctx;
    gl_config_add_helm_values(r->cfg, beside_file(r, value));
    return true;
}

/* ---- ignore-paths ---- */

/* A glob; NULL (with the error set at it) when it is malformed. */
static const char *checked_glob(struct reader *r, const char *glob, struct gl_loc loc)
{
    size_t bad;
    const char *why;
    if (gl_glob_check(glob, &bad, &why) == 0)
        return glob;
    fail_at(r, loc, "expected %s in the path pattern `%s` (at byte %zu)", why, glob, bad + 1);
    return NULL;
}

static bool add_whole_path(struct reader *r, const char *value, struct gl_loc loc, void *ctx)
{
    (void)ctx;
    if (!checked_glob(r, value, loc))
        return false;
    gl_path_ignores_add(&r->cfg->path_ignores, &r->cfg->arena, value, true);
    return true;
}

static bool add_path_rule(struct reader *r, const char *value, struct gl_loc loc, void *ctx)
{
    const char *id = rule_id(r, value, loc);
    if (id)
        gl_path_ignore_add_rule(ctx, &r->cfg->arena, id);
    return true;
}

static bool path_rule_entry(struct reader *r, struct yt_node *key, struct yt_node *value,
                            void *ctx)
{
    (void)ctx;
    struct gl_loc loc;
    const char *glob = read_scalar(r, key, "a path pattern", &loc);
    if (!glob || !checked_glob(r, glob, loc))
        return false;
    struct gl_path_ignore *item =
        gl_path_ignores_add(&r->cfg->path_ignores, &r->cfg->arena, glob, false);
    return read_list(r, value, "rule ids", true, add_path_rule, item);
}

/* The pairs of a mapping `glob: [rule ids]`. A glob whose ids all name no rule drops
 * nothing (the ids are reported as GL902). */
static bool read_path_rules(struct reader *r, struct yt_node *map)
{
    return each_pair(r, map, path_rule_entry, NULL);
}

static bool ignore_paths_item(struct reader *r, struct yt_node *n, void *ctx)
{
    (void)ctx;
    if (n->kind == YT_MAP)
        return read_path_rules(r, n);
    if (n->kind == YT_SCALAR && !yt_is_null(n))
        return add_whole_path(r, scalar_text(r, n), at(r, n), NULL);
    fail_at(r, at(r, n), "expected a path pattern or `pattern: [rule ids]`, found %s", found(n));
    return false;
}

/* `ignore-paths:` a list of globs (paths not linted) whose items may also be `glob: [rule
 * ids]` pairs, or a mapping of globs to rule ids (those rules' findings are dropped). */
static bool read_ignore_paths(struct reader *r, struct yt_node *n)
{
    struct gl_config *cfg = r->cfg;
    if (!cfg->path_ignores.base && !cfg->path_ignores.cwd)
        gl_path_ignores_set_base(&cfg->path_ignores, &cfg->arena, r->file);
    if (!arrived(r, n))
        return false;
    if (n->kind == YT_MAP)
        return read_path_rules(r, n);
    if (n->kind != YT_SEQ) {
        fail_at(r, at(r, n), "expected a list of path patterns (or a mapping of path "
                             "patterns to rule ids), found %s",
                found(n));
        return false;
    }
    return each_item(r, n, ignore_paths_item, NULL);
}

/* ---- sizes ---- */

static bool read_size(struct reader *r, struct yt_node *n, uint64_t *out)
{
    struct gl_loc loc;
    const char *v = read_scalar(r, n, "a size (100MiB, 1GiB, 500MB or bytes)", &loc);
    if (!v)
        return false;
    if (gl_size_parse(v, out) != 0) {
        fail_at(r, loc, "expected a size of at least 1 byte (100MiB, 1GiB, 500MB or a number "
                        "of bytes), found `%s`", v);
        return false;
    }
    return true;
}

/* Read the value of one setting. */
static bool read_setting(struct reader *r, enum gl_setting s, struct gl_loc key_loc,
                         struct yt_node *n)
{
    struct gl_config *cfg = r->cfg;
    struct gl_loc loc;
    const char *v;
    switch (s) {
    case GL_SET_DRIVER:
        if (!(v = read_scalar(r, n, "a driver version (535, R535 or 535.104.05)", &loc)))
            return false;
        if (gl_driver_target_parse(&cfg->driver, v,
                                 gl_arena_printf(&cfg->arena, "config %s", r->file)) != 0) {
            fail_at(r, loc, "expected a driver version (535, R535 or 535.104.05), found `%s`", v);
            return false;
        }
        return true;
    case GL_SET_GPU:
        gl_gpu_targets_clear(&cfg->gpu);
        return read_list(r, n, "GPU names", true, add_gpu, NULL);
    case GL_SET_FAILURE_THRESHOLD:
        if (!(v = read_scalar(r, n, "a severity", &loc)))
            return false;
        if (gl_severity_parse(v, &cfg->failure_threshold) != 0) {
            fail_at(r, loc, "expected error, warning, info, style or none, found `%s`", v);
            return false;
        }
        return true;
    case GL_SET_IGNORE: return read_list(r, n, "rule ids", false, add_listed_id, NULL);
    case GL_SET_ENABLE: return read_list(r, n, "rule ids", false, add_listed_id, cfg);
    case GL_SET_SEVERITY: return read_map(r, n, "rule ids to severities", add_override, NULL);
    case GL_SET_DATASET_ARGS:
    case GL_SET_CHECKPOINT_ARGS:
    case GL_SET_DATASET_ENV:
    case GL_SET_CHECKPOINT_ENV: {
        struct gl_pattern_list *l = s == GL_SET_DATASET_ARGS      ? &cfg->dataset_args
                                    : s == GL_SET_CHECKPOINT_ARGS ? &cfg->checkpoint_args
                                    : s == GL_SET_DATASET_ENV     ? &cfg->dataset_env
                                                             : &cfg->checkpoint_env;
        l->set = true; /* an empty list means "no names" */
        return read_list(r, n, "patterns", false, add_name_pattern, l);
    }
    case GL_SET_DATA_PATHS: return read_data_paths(r, n, key_loc);
    case GL_SET_KNOWLEDGE:
        if (!(v = read_scalar(r, n, "a file path", &loc)))
            return false;
        cfg->knowledge_path = beside_file(r, v);
        return true;
    case GL_SET_BUILD_ARGS:
        return read_map(r, n, "build argument names to values", add_build_arg, NULL);
    case GL_SET_IGNORE_PATHS: return read_ignore_paths(r, n);
    case GL_SET_DATA_FILE_SIZE: return read_size(r, n, &cfg->data_file_bytes);
    case GL_SET_DATA_TOTAL_SIZE: return read_size(r, n, &cfg->data_total_bytes);
    case GL_SET_WASTE_SIZE: return read_size(r, n, &cfg->waste_bytes);
    case GL_SET_LIMITS: return read_map(r, n, "limit names to values", add_limit, NULL);
    case GL_SET_HELM:
        if (!(v = read_scalar(r, n, "a program (helm, or a path to it)", &loc)))
            return false;
        cfg->helm = strchr(v, '/') ? beside_file(r, v) : v;
        return true;
    case GL_SET_HELM_VALUES:
        return read_list(r, n, "values files", true, add_helm_values, NULL);
    case GL_SET_COUNT: break;
    }
    return false;
}

/* "driver, failure-threshold, ... or build-args", for the unknown-setting message. */
static const char *setting_list(struct gl_arena *a)
{
    struct gl_buf b;
    gl_buf_init(&b);
    for (size_t i = 0; i < GL_SET_COUNT; i++)
        gl_buf_printf(&b, "%s%s", i == 0 ? "" : i + 1 == GL_SET_COUNT ? " or " : ", ",
                      gl_setting_names[i]);
    const char *s = gl_arena_strdup(a, gl_buf_str(&b));
    gl_buf_free(&b);
    return s;
}

static bool setting_entry(struct reader *r, struct yt_node *key, struct yt_node *value,
                          void *ctx)
{
    bool *seen = ctx;
    struct gl_loc key_loc = at(r, key);
    if (key->kind != YT_SCALAR) {
        fail_at(r, key_loc, "expected a setting name, found %s", node_name(key));
        return false;
    }
    const char *name = scalar_text(r, key);
    size_t s = 0;
    while (s < GL_SET_COUNT && strcmp(name, gl_setting_names[s]))
        s++;
    if (s == GL_SET_COUNT) {
        fail_at(r, key_loc, "unknown setting `%s` (expected %s)", name,
                setting_list(&r->cfg->arena));
        return false;
    }
    if (seen[s]) {
        fail_at(r, key_loc, "setting `%s` is given twice", name);
        return false;
    }
    seen[s] = true;
    if (!read_setting(r, (enum gl_setting)s, key_loc, value))
        return false;
    gl_config_note_origin(r->cfg, (enum gl_setting)s,
                          gl_arena_printf(&r->cfg->arena, "%s:%u", r->file,
                                          (unsigned)key_loc.line));
    return true;
}

/* One document: a mapping of settings, or nothing at all. */
static bool read_document(struct reader *r)
{
    const struct yt_stream *s = r->s;
    if (!s->ndoc_starts)
        return !s->error || fail_stream(r); /* empty, or only comments */
    struct yt_node *root = s->ndocs ? s->docs[0] : NULL;
    bool seen[GL_SET_COUNT] = {0};
    if (!arrived(r, root))
        return false;
    if (yt_is_null(root)) {
        /* an empty document */
    } else if (root->kind != YT_MAP) {
        fail_at(r, at(r, root), "expected a mapping of settings (`key: value` lines), found %s",
                node_name(root));
        return false;
    } else if (!each_pair(r, root, setting_entry, seen)) {
        return false;
    }
    if (s->ndoc_starts > 1) {
        fail_at(r, gl_config_pos_at(&r->pos, s->doc_starts[1]),
                "expected one YAML document, found another");
        return false;
    }
    return !s->error || fail_stream(r);
}

int gl_config_file_parse(struct gl_config *cfg, const char *file, const char *text, size_t len,
                         char *err, size_t errlen)
{
    struct gl_arena tree;
    gl_arena_init(&tree);
    struct yt_stream s;
    yt_load_exact(&s, &tree, text, len, MAX_DEPTH);
    struct reader r = {.s = &s, .cfg = cfg, .file = file, .err = err, .errlen = errlen};
    gl_config_pos_init(&r.pos, &s);
    if (errlen)
        err[0] = '\0';
    bool ok = read_document(&r) && !r.failed;
    if (!ok && !r.failed)
        snprintf(err, errlen, "%s: invalid YAML", file);
    gl_arena_free(&tree);
    if (ok)
        cfg->config_file = gl_arena_strdup(&cfg->arena, file);
    return ok ? 0 : -1;
}

int gl_config_file_load(struct gl_config *cfg, const char *file, char *err, size_t errlen)
{
    char *text;
    size_t len;
    int e = gl_read_file(file, &text, &len);
    if (e) {
        snprintf(err, errlen, "%s: %s", file, strerror(e));
        return -1;
    }
    int rc = gl_config_file_parse(cfg, file, text, len, err, errlen);
    free(text);
    return rc;
}

char *gl_config_file_find(const char *dir)
{
    if (!dir || !*dir)
        return NULL;
    struct gl_buf path;
    gl_buf_init(&path);
    char *cur = xstrdup(dir);
    for (;;) {
        size_t n = strlen(cur);
        while (n > 1 && cur[n - 1] == '/')
            cur[--n] = '\0';
        path.len = 0;
        gl_buf_printf(&path, "%s%s%s", cur, n && cur[n - 1] == '/' ? "" : "/",
                      gl_config_file_name);
        struct stat st;
        if (stat(gl_buf_str(&path), &st) == 0 && S_ISREG(st.st_mode)) {
            char *found = xstrdup(gl_buf_str(&path));
            gl_buf_free(&path);
            free(cur);
            return found;
        }
        char *slash = strrchr(cur, '/');
        if (!slash || (slash == cur && cur[1] == '\0'))
            break;
        if (slash == cur)
            cur[1] = '\0'; /* the parent is / */
        else
            *slash = '\0';
    }
    gl_buf_free(&path);
    free(cur);
    return NULL;
}
