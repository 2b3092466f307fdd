/* config_file.c: .gpulint.yaml with libyaml's event parser (see config_file.h). */
#include "linter/config/config_file.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <yaml.h>

#include "knowledge/driver_target.h"
#include "linter/core/glob.h"
#include "linter/core/limits.h"
#include "linter/core/rule.h"

const char gl_config_file_name[] = ".gpulint.yaml";

struct reader {
    yaml_parser_t parser;
    yaml_event_t ev;
    bool have_ev;
    struct gl_config *cfg;
    const char *file;
    const char *text;
    size_t len;
    char *err;
    size_t errlen;
    bool failed;
    /* a line cursor for turning libyaml's character columns into byte columns; marks
     * arrive in file order, so it only moves forward (no quadratic rescans) */
    size_t line_no, line_start;
};

/* ---- positions and errors ---- */

/* The byte offset where 0-based line `line` starts. */
static size_t line_offset(struct reader *r, size_t line)
{
    if (line < r->line_no) {
        r->line_no = 0;
        r->line_start = 0;
    }
    size_t off = r->line_start;
    while (r->line_no < line && off < r->len) {
        char c = r->text[off++];
        if (c == '\n' || (c == '\r' && (off >= r->len || r->text[off] != '\n'))) {
            r->line_no++;
            r->line_start = off;
        }
    }
    return r->line_start;
}

/* The 1-based line and byte column of a libyaml mark (0-based line, character column). */
static struct gl_loc mark_loc(struct reader *r, yaml_mark_t m)
{
    size_t off = line_offset(r, m.line);
    if (m.line == 0 && r->len >= 3 && !memcmp(r->text, "\xEF\xBB\xBF", 3))
        off = 3; /* libyaml does not count the byte-order mark */
    size_t start = r->line_start;
    for (size_t chars = 0; chars < m.column && off < r->len; chars++) {
        off++;
        while (off < r->len && ((unsigned char)r->text[off] & 0xC0) == 0x80)
            off++;
    }
    return (struct gl_loc){(uint32_t)(r->line_no + 1), (uint32_t)(off - start + 1)};
}

/* The 1-based line and byte column of a byte offset (reader errors give those). */
static struct gl_loc offset_loc(const char *text, size_t len, size_t off)
{
    struct gl_loc loc = {1, 1};
    size_t line_start = 0;
    for (size_t i = 0; i < off && i < len; i++)
        if (text[i] == '\n') {
            loc.line++;
            line_start = i + 1;
        }
    loc.col = (uint32_t)((off < len ? off : len) - line_start + 1);
    return loc;
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

/* ---- events ---- */

static struct gl_loc ev_loc(struct reader *r) { return mark_loc(r, r->ev.start_mark); }

/* The next event; false (with the error set) on a YAML error or an alias. */
static bool next(struct reader *r)
{
    if (r->failed)
        return false;
    if (r->have_ev)
        yaml_event_delete(&r->ev);
    r->have_ev = false;
    if (!yaml_parser_parse(&r->parser, &r->ev)) {
        const yaml_parser_t *p = &r->parser;
        struct gl_loc loc = p->error == YAML_READER_ERROR
                                ? offset_loc(r->text, r->len, p->problem_offset)
                                : mark_loc(r, p->problem_mark);
        fail_at(r, loc, "invalid YAML: %s%s%s", p->problem ? p->problem : "syntax error",
                p->context ? " " : "", p->context ? p->context : "");
        return false;
    }
    r->have_ev = true;
    if (r->ev.type == YAML_ALIAS_EVENT) {
        fail_at(r, ev_loc(r), "expected a value, found an alias (aliases are not allowed)");
        return false;
    }
    return true;
}

static const char *scalar_text(struct reader *r)
{
    return gl_arena_strndup(&r->cfg->arena, (const char *)r->ev.data.scalar.value,
                            r->ev.data.scalar.length);
}

/* Is the current scalar a YAML null (`key:` with nothing, `~`, `null`) written plain? */
static bool scalar_null(const struct reader *r)
{
    const yaml_event_t *e = &r->ev;
    if (e->data.scalar.style != YAML_PLAIN_SCALAR_STYLE)
        return false;
    const char *v = (const char *)e->data.scalar.value;
    return e->data.scalar.length == 0 || !strcmp(v, "~") || !strcmp(v, "null") ||
           !strcmp(v, "Null") || !strcmp(v, "NULL");
}

static const char *event_name(const yaml_event_t *e)
{
    switch (e->type) {
    case YAML_SEQUENCE_START_EVENT: return "a list";
    case YAML_MAPPING_START_EVENT: return "a mapping";
    case YAML_SCALAR_EVENT: return "a scalar";
    default: return "the end of a block";
    }
}

/* What stands where a list or mapping was expected: "nothing" for an empty value. */
static const char *found_collection(const struct reader *r)
{
    return r->ev.type == YAML_SCALAR_EVENT && scalar_null(r) ? "nothing" : event_name(&r->ev);
}

/* One scalar value; NULL (with the error set) otherwise. */
static const char *read_scalar(struct reader *r, const char *what, struct gl_loc *loc)
{
    if (!next(r))
        return NULL;
    *loc = ev_loc(r);
    if (r->ev.type != YAML_SCALAR_EVENT || scalar_null(r)) {
        fail_at(r, *loc, "expected %s, found %s", what,
                r->ev.type == YAML_SCALAR_EVENT ? "nothing" : event_name(&r->ev));
        return NULL;
    }
    return scalar_text(r);
}

typedef bool (*item_fn)(struct reader *r, const char *value, struct gl_loc loc, void *ctx);
typedef bool (*pair_fn)(struct reader *r, const char *key, struct gl_loc key_loc,
                        const char *value, struct gl_loc value_loc, void *ctx);

/* A list of scalars (a lone scalar too when `scalar_ok`), each handed to `item`. */
static bool read_list(struct reader *r, const char *what, bool scalar_ok, item_fn item,
                      void *ctx)
{
    if (!next(r))
        return false;
    struct gl_loc loc = ev_loc(r);
    if (scalar_ok && r->ev.type == YAML_SCALAR_EVENT && !scalar_null(r))
        return item(r, scalar_text(r), loc, ctx);
    if (r->ev.type != YAML_SEQUENCE_START_EVENT) {
        fail_at(r, loc, "expected a list of %s, found %s", what,
                found_collection(r));
        return false;
    }
    for (;;) {
        if (!next(r))
            return false;
        if (r->ev.type == YAML_SEQUENCE_END_EVENT)
            return true;
        loc = ev_loc(r);
        if (r->ev.type != YAML_SCALAR_EVENT || scalar_null(r)) {
            fail_at(r, loc, "expected %s, found %s", what,
                    r->ev.type == YAML_SCALAR_EVENT ? "nothing" : event_name(&r->ev));
            return false;
        }
        if (!item(r, scalar_text(r), loc, ctx))
            return false;
    }
}

/* A mapping of scalar keys to scalar values, each pair handed to `pair`. */
static bool read_map(struct reader *r, const char *what, pair_fn pair, void *ctx)
{
    if (!next(r))
        return false;
    if (r->ev.type != YAML_MAPPING_START_EVENT) {
        fail_at(r, ev_loc(r), "expected a mapping of %s, found %s", what,
                found_collection(r));
        return false;
    }
    for (;;) {
        if (!next(r))
            return false;
        if (r->ev.type == YAML_MAPPING_END_EVENT)
            return true;
        struct gl_loc key_loc = ev_loc(r);
        if (r->ev.type != YAML_SCALAR_EVENT) {
            fail_at(r, key_loc, "expected a key of %s, found %s", what, event_name(&r->ev));
            return false;
        }
        const char *key = scalar_text(r);
        struct gl_loc value_loc;
        const char *value = read_scalar(r, "a scalar value", &value_loc);
        if (!value || !pair(r, key, key_loc, value, value_loc, ctx))
            return false;
    }
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

static bool read_data_paths(struct reader *r, struct gl_loc key_loc)
{
    struct data_paths dp = {0};
    gl_buf_init(&dp.joined);
    bool ok = read_list(r, "patterns", true, add_data_path, &dp);
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

/* The pairs of a mapping `glob: [rule ids]` (its MAPPING-START already read). A glob whose
 * ids all name no rule drops nothing (the ids are reported as GL902). */
static bool read_path_rules(struct reader *r)
{
    for (;;) {
        if (!next(r))
            return false;
        if (r->ev.type == YAML_MAPPING_END_EVENT)
            return true;
        struct gl_loc loc = ev_loc(r);
        if (r->ev.type != YAML_SCALAR_EVENT || scalar_null(r)) {
            fail_at(r, loc, "expected a path pattern, found %s",
                    r->ev.type == YAML_SCALAR_EVENT ? "nothing" : event_name(&r->ev));
            return false;
        }
        const char *glob = checked_glob(r, scalar_text(r), loc);
        if (!glob)
            return false;
        struct gl_path_ignore *item =
            gl_path_ignores_add(&r->cfg->path_ignores, &r->cfg->arena, glob, false);
        if (!read_list(r, "rule ids", true, add_path_rule, item))
            return false;
    }
}

/* `ignore-paths:` a list of globs (paths not linted) whose items may also be `glob: [rule
 * ids]` pairs, or a mapping of globs to rule ids (those rules' findings are dropped). */
static bool read_ignore_paths(struct reader *r)
{
    struct gl_config *cfg = r->cfg;
    if (!cfg->path_ignores.base && !cfg->path_ignores.cwd)
        gl_path_ignores_set_base(&cfg->path_ignores, &cfg->arena, r->file);
    if (!next(r))
        return false;
    if (r->ev.type == YAML_MAPPING_START_EVENT)
        return read_path_rules(r);
    if (r->ev.type != YAML_SEQUENCE_START_EVENT) {
        fail_at(r, ev_loc(r), "expected a list of path patterns (or a mapping of path "
                              "patterns to rule ids), found %s",
                found_collection(r));
        return false;
    }
    for (;;) {
        if (!next(r))
            return false;
        if (r->ev.type == YAML_SEQUENCE_END_EVENT)
            return true;
        struct gl_loc loc = ev_loc(r);
        if (r->ev.type == YAML_MAPPING_START_EVENT) {
            if (!read_path_rules(r))
                return false;
        } else if (r->ev.type == YAML_SCALAR_EVENT && !scalar_null(r)) {
            if (!add_whole_path(r, scalar_text(r), loc, NULL))
                return false;
        } else {
            fail_at(r, loc, "expected a path pattern or `pattern: [rule ids]`, found %s",
                    r->ev.type == YAML_SCALAR_EVENT ? "nothing" : event_name(&r->ev));
            return false;
        }
    }
}

/* ---- sizes ---- */

static bool read_size(struct reader *r, uint64_t *out)
{
    struct gl_loc loc;
    const char *v = read_scalar(r, "a size (100MiB, 1GiB, 500MB or bytes)", &loc);
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
static bool read_setting(struct reader *r, enum gl_setting s, struct gl_loc key_loc)
{
    struct gl_config *cfg = r->cfg;
    struct gl_loc loc;
    const char *v;
    switch (s) {
    case GL_SET_DRIVER:
        if (!(v = read_scalar(r, "a driver version (535, R535 or 535.104.05)", &loc)))
            return false;
        if (gl_driver_target_parse(&cfg->driver, v,
                                 gl_arena_printf(&cfg->arena, "config %s", r->file)) != 0) {
            fail_at(r, loc, "expected a driver version (535, R535 or 535.104.05), found `%s`", v);
            return false;
        }
        return true;
    case GL_SET_FAILURE_THRESHOLD:
        if (!(v = read_scalar(r, "a severity", &loc)))
            return false;
        if (gl_severity_parse(v, &cfg->failure_threshold) != 0) {
            fail_at(r, loc, "expected error, warning, info, style or none, found `%s`", v);
            return false;
        }
        return true;
    case GL_SET_IGNORE: return read_list(r, "rule ids", false, add_listed_id, NULL);
    case GL_SET_ENABLE: return read_list(r, "rule ids", false, add_listed_id, cfg);
    case GL_SET_SEVERITY: return read_map(r, "rule ids to severities", add_override, NULL);
    case GL_SET_DATASET_ARGS:
    case GL_SET_CHECKPOINT_ARGS:
    case GL_SET_DATASET_ENV:
    case GL_SET_CHECKPOINT_ENV: {
        struct gl_pattern_list *l = s == GL_SET_DATASET_ARGS      ? &cfg->dataset_args
                                    : s == GL_SET_CHECKPOINT_ARGS ? &cfg->checkpoint_args
                                    : s == GL_SET_DATASET_ENV     ? &cfg->dataset_env
                                                             : &cfg->checkpoint_env;
        l->set = true; /* an empty list means "no names" */
        return read_list(r, "patterns", false, add_name_pattern, l);
    }
    case GL_SET_DATA_PATHS: return read_data_paths(r, key_loc);
    case GL_SET_KNOWLEDGE:
        if (!(v = read_scalar(r, "a file path", &loc)))
            return false;
        cfg->knowledge_path = beside_file(r, v);
        return true;
    case GL_SET_BUILD_ARGS: return read_map(r, "build argument names to values", add_build_arg, NULL);
    case GL_SET_HELM:
        if (!(v = read_scalar(r, "a program (helm, or a path to it)", &loc)))
            return false;
        cfg->helm = strchr(v, '/') ? beside_file(r, v) : v;
        return true;
    case GL_SET_HELM_VALUES: return read_list(r, "values files", true, add_helm_values, NULL);
    case GL_SET_IGNORE_PATHS: return read_ignore_paths(r);
    case GL_SET_DATA_FILE_SIZE: return read_size(r, &cfg->data_file_bytes);
    case GL_SET_DATA_TOTAL_SIZE: return read_size(r, &cfg->data_total_bytes);
    case GL_SET_LIMITS: return read_map(r, "limit names to values", add_limit, NULL);
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

static bool read_settings(struct reader *r)
{
    bool seen[GL_SET_COUNT] = {0};
    for (;;) {
        if (!next(r))
            return false;
        if (r->ev.type == YAML_MAPPING_END_EVENT)
            return true;
        struct gl_loc key_loc = ev_loc(r);
        if (r->ev.type != YAML_SCALAR_EVENT) {
            fail_at(r, key_loc, "expected a setting name, found %s", event_name(&r->ev));
            return false;
        }
        const char *key = scalar_text(r);
        size_t s = 0;
        while (s < GL_SET_COUNT && strcmp(key, gl_setting_names[s]))
            s++;
        if (s == GL_SET_COUNT) {
            fail_at(r, key_loc, "unknown setting `%s` (expected %s)", key,
                    setting_list(&r->cfg->arena));
            return false;
        }
        if (seen[s]) {
            fail_at(r, key_loc, "setting `%s` is given twice", key);
            return false;
        }
        seen[s] = true;
        if (!read_setting(r, (enum gl_setting)s, key_loc))
            return false;
        gl_config_note_origin(r->cfg, (enum gl_setting)s,
                              gl_arena_printf(&r->cfg->arena, "%s:%u", r->file,
                                              (unsigned)key_loc.line));
    }
}

static bool read_document(struct reader *r)
{
    if (!next(r) || r->ev.type != YAML_STREAM_START_EVENT || !next(r))
        return false;
    if (r->ev.type == YAML_STREAM_END_EVENT)
        return true; /* empty, or only comments */
    if (!next(r)) /* past DOCUMENT-START */
        return false;
    if (r->ev.type == YAML_SCALAR_EVENT && scalar_null(r)) {
        /* an empty document */
    } else if (r->ev.type != YAML_MAPPING_START_EVENT) {
        fail_at(r, ev_loc(r), "expected a mapping of settings (`key: value` lines), found %s",
                event_name(&r->ev));
        return false;
    } else if (!read_settings(r)) {
        return false;
    }
    if (!next(r) || !next(r)) /* DOCUMENT-END, then STREAM-END */
        return false;
    if (r->ev.type != YAML_STREAM_END_EVENT) {
        fail_at(r, ev_loc(r), "expected one YAML document, found another");
        return false;
    }
    return true;
}

int gl_config_file_parse(struct gl_config *cfg, const char *file, const char *text, size_t len,
                         char *err, size_t errlen)
{
    struct reader r = {.cfg = cfg, .file = file, .text = text, .len = len, .err = err,
                       .errlen = errlen};
    if (errlen)
        err[0] = '\0';
    if (!yaml_parser_initialize(&r.parser)) {
        snprintf(err, errlen, "%s: cannot start the YAML parser", file);
        return -1;
    }
    yaml_parser_set_input_string(&r.parser, (const unsigned char *)text, len);
    yaml_parser_set_encoding(&r.parser, YAML_UTF8_ENCODING);
    bool ok = read_document(&r) && !r.failed;
    if (!ok && !r.failed)
        snprintf(err, errlen, "%s: invalid YAML", file);
    if (r.have_ev)
        yaml_event_delete(&r.ev);
    yaml_parser_delete(&r.parser);
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
