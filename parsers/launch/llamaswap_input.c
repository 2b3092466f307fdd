/* SPDX-License-Identifier: Apache-2.0 */
/*
 * llamaswap_input.c: llama-swap configurations (mostlygeek/llama-swap config.yaml) -> the
 * launches of their models' commands.
 *
 * llama-swap starts one upstream server per model from the model's `cmd:` string, often a
 * `docker run ... --gpus ...` or `podman run` line. Recognition (gl_input_llamaswap), by
 * content only (a .yaml/.yml file no other type claims): the first document is a mapping
 * whose `models:` is a mapping of which some entry is a mapping with a string `cmd:`. A
 * `cmd:` under any other key of any other YAML is not read: the shape decides.
 *
 * Read as llama-swap reads it (internal/config/commands.go, SanitizeCommand): the string
 * is one command, its lines joined (a line whose first non-blank is `#` is a comment, a
 * line's trailing `\` joins it to the next), split into words as a POSIX shell splits
 * them; no pipes, no `;` of its own. So each line break becomes a blank here, a comment
 * line and a `#` comment to its line's end become blanks, keeping every byte at its offset
 * (the scalar's srcmap stays valid). Macros (`${PORT}`, `${MODEL_ID}`, `${env.X}`) are
 * llama-swap's text substitutions: read as the shell's variables, their names made shell
 * names in place (`${docker-gpu}` as `${docker_gpu}`: a `-` or `.` is a `_`); the
 * configuration's `macros:` (top level, then the model's own) whose values are plain text
 * give their values; every other macro is an unknown value (opaque). `cmdStop:` stops what
 * `cmd` started: not read.
 */
#include <ctype.h>
#include <string.h>

#include "linter/core/inputs.h"
#include "parsers/launch/launch_shell.h"
#include "parsers/yaml/yaml_tree.h"

/* A macro name as a shell variable's: `-` and `.` as `_` (the same length). */
static void shell_name(char *t, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (t[i] == '-' || t[i] == '.')
            t[i] = '_';
}

/* Each `${NAME}` of the text whose NAME is a macro's (letters, digits, `_`, `-`, `.`)
 * with a shell variable's name (shell_name). */
static void macro_names(char *t, size_t n)
{
    for (size_t i = 0; i + 3 < n; i++) {
        if (t[i] != '$' || t[i + 1] != '{')
            continue;
        size_t k = i + 2;
        while (k < n && (isalnum((unsigned char)t[k]) || t[k] == '_' || t[k] == '-' || t[k] == '.'))
            k++;
        if (k < n && t[k] == '}' && k > i + 2)
            shell_name(t + i + 2, k - i - 2);
    }
}

/* Do only blanks stand between t[k] and the end of its line (or of the text)? (Scans the
 * blanks alone: a line of many `\` costs one pass.) */
static bool line_end_after(const char *t, size_t n, size_t k)
{
    while (k < n && (t[k] == ' ' || t[k] == '\t' || t[k] == '\r'))
        k++;
    return k == n || t[k] == '\n';
}

/* Blank the comments of a cmd text (its `#` comment lines, a `#` that starts a word to its
 * line's end) and make its line breaks and line-joining `\` blanks: one command. */
static void one_command(char *t, size_t n)
{
    char quote = 0;
    for (size_t i = 0; i < n; i++) {
        bool word_start = i == 0 || t[i - 1] == ' ' || t[i - 1] == '\t' || t[i - 1] == '\n';
        if (!quote && t[i] == '#' && word_start) {
            while (i < n && t[i] != '\n')
                t[i++] = ' ';
        }
        if (i >= n)
            break;
        if (t[i] == '\n') {
            quote = 0; /* (a quote left open on a line: the next line starts anew) */
            t[i] = ' ';
            continue;
        }
        if (!quote && t[i] == '\\' && line_end_after(t, n, i + 1)) {
            t[i] = ' '; /* a line's trailing `\`: the next line goes on */
            continue;
        }
        if (!quote && (t[i] == '\'' || t[i] == '"'))
            quote = t[i];
        else if (quote && t[i] == quote)
            quote = 0;
        else if (quote == '"' && t[i] == '\\' && i + 1 < n && t[i + 1] != '\n')
            i++;
    }
}

/* Assign the plain macros of `macros` (a mapping: name -> scalar without `$`, quotes or
 * `\`) in vars, but those `over` (the model's own, NULL: none) defines again. */
static void macros(struct yt_stream *s, struct yt_node *map, struct yt_node *over,
                   struct sh_vars *vars)
{
    struct yt_pair *p;
    size_t n = yt_is_map(map) ? yt_pairs(s, map, &p) : 0;
    for (size_t i = 0; i < n; i++) {
        struct yt_node *k = yt_deref(s, p[i].key), *v = p[i].value;
        if (!yt_is_scalar(k) || !yt_is_scalar(v) || yt_is_null(v) ||
            (over && yt_get_n(s, over, k->value, k->len, NULL)))
            continue;
        size_t len = v->len; /* (a folded `>` value ends in a line break) */
        while (len && (v->value[len - 1] == '\n' || v->value[len - 1] == ' '))
            len--;
        bool plain = strcspn(v->value, "$'\"\\\n") >= len;
        char *name = gl_arena_strndup(vars->arena, k->value, k->len);
        shell_name(name, k->len);
        sh_vars_assign(vars, name, k->len, plain ? v->value : NULL, plain ? len : 0, plain);
    }
}

static void model(struct gl_doc *doc, struct yt_stream *s, struct yt_node *root,
                  struct yt_node *m)
{
    struct yt_node *cmd = yt_get(s, m, "cmd", NULL);
    if (!yt_is_scalar(cmd) || yt_is_null(cmd))
        return;
    struct sh_vars vars; /* (each model's command runs on its own) */
    sh_vars_init(&vars, &doc->arena);
    struct yt_node *own = yt_get(s, m, "macros", NULL);
    macros(s, yt_get(s, root, "macros", NULL), yt_is_map(own) ? own : NULL, &vars);
    macros(s, own, NULL, &vars);
    struct gl_srcmap map;
    gl_srcmap_init(&map, &doc->arena);
    yt_scalar_srcmap(s, cmd, &map);
    char *text = gl_arena_strndup(&doc->arena, cmd->value, cmd->len);
    one_command(text, cmd->len);
    macro_names(text, cmd->len);
    gl_launches_from_shell(doc, text, cmd->len, &map, &vars);
}

static struct yt_node *models_of(struct yt_stream *s)
{
    struct yt_node *root = s->ndocs ? s->docs[0] : NULL;
    struct yt_node *models = yt_is_map(root) ? yt_get(s, root, "models", NULL) : NULL;
    return yt_is_map(models) ? models : NULL;
}

static void parse(struct gl_doc *doc, const struct gl_config *cfg)
{
    (void)cfg;
    struct yt_stream s;
    yt_load_doc(&s, doc, doc->text, doc->len);
    struct yt_node *models = models_of(&s);
    struct yt_pair *p;
    size_t n = models ? yt_pairs(&s, models, &p) : 0;
    for (size_t i = 0; i < n && !gl_arena_over(&doc->arena); i++)
        if (yt_is_map(p[i].value))
            model(doc, &s, s.docs[0], p[i].value);
    yt_add_pragmas(doc, &s);
    yt_report(doc, &s);
}

static bool candidate(const char *path, const char *b)
{
    (void)path;
    return yt_yaml_name(b);
}

static bool llamaswap_stream(struct yt_stream *s)
{
    struct yt_node *models = models_of(s);
    struct yt_pair *p;
    size_t n = models ? yt_pairs(s, models, &p) : 0;
    for (size_t i = 0; i < n; i++) {
        struct yt_node *m = p[i].value;
        if (yt_is_map(m) && yt_is_scalar(yt_get(s, m, "cmd", NULL)))
            return true;
    }
    return false;
}

/* A line that starts with `models:` (the top-level key), then the YAML's shape. */
static bool by_content(const char *path, const char *data, size_t len)
{
    (void)path;
    bool key = len >= 7 && !memcmp(data, "models:", 7);
    for (const char *p = data; !key && (p = memchr(p, '\n', (size_t)(data + len - p)));) {
        p++;
        key = (size_t)(data + len - p) >= 7 && !memcmp(p, "models:", 7);
    }
    return key && memmem(data, len, "cmd:", 4) && yt_sniff(data, len, llamaswap_stream);
}

const struct gl_input_type gl_input_llamaswap = {
    .kind = GL_IN_LLAMASWAP,
    .name = "llama-swap",
    .priority = 50,
    .candidate = candidate,
    .by_content = by_content,
    .parse = parse,
};
