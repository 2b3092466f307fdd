/* SPDX-License-Identifier: Apache-2.0 */
/* launch_systemd.c: container launches in systemd units (see launch_systemd.h). */
#include "parsers/launch/systemd/launch_systemd.h"

#include <string.h>

#include "parsers/launch/systemd/quadlet_refs.h"
#include "parsers/launch/systemd/systemd_words.h"

/* The variable a resolved `Image=NAME.image` stands for in the `podman run` text: the
 * scanner reads its value (the image) as a variable's, placed at the unit name. */
#define QUADLET_IMAGE_VAR "GPULINT_QUADLET_IMAGE"

/* The end of the line that starts at p (its '\n', or len). */
static size_t line_end(const char *t, size_t len, size_t p)
{
    const char *nl = memchr(t + p, '\n', len - p);
    return nl ? (size_t)(nl - t) : len;
}

static size_t skip_blanks(const char *t, size_t p, size_t e)
{
    while (p < e && (t[p] == ' ' || t[p] == '\t'))
        p++;
    return p;
}

/* The end of the line's content: before a '\r' and trailing blanks. */
static size_t content_end(const char *t, size_t s, size_t e)
{
    while (e > s && (t[e - 1] == '\r' || t[e - 1] == ' ' || t[e - 1] == '\t'))
        e--;
    return e;
}

static bool comment_line(const char *t, size_t s, size_t e)
{
    s = skip_blanks(t, s, e);
    return s < e && (t[s] == '#' || t[s] == ';');
}

/* Is the line [s, e) the header of a section that runs commands: [Service], a Quadlet
 * [Container] or [Build]? 1 for [Service], 2 for [Container], 3 for [Build], else 0. */
static int run_section(const char *t, size_t s, size_t e)
{
    if (e - s >= 9 && !memcmp(t + s, "[Service]", 9))
        return 1;
    if (e - s >= 7 && !memcmp(t + s, "[Build]", 7))
        return 3;
    return e - s >= 11 && !memcmp(t + s, "[Container]", 11) ? 2 : 0;
}

bool gl_unit_runs(const char *text, size_t len)
{
    for (size_t p = 0; p < len;) {
        size_t e = line_end(text, len, p), s = skip_blanks(text, p, e);
        if (run_section(text, s, e))
            return true;
        p = e + 1;
    }
    return false;
}

/* Is the key [k, k + n) one whose value is a command that starts the service? */
static bool exec_key(const char *k, size_t n)
{
    return (n == 9 && !memcmp(k, "ExecStart", 9)) || (n == 12 && !memcmp(k, "ExecStartPre", 12)) ||
           (n == 13 && !memcmp(k, "ExecStartPost", 13));
}

/* The derived text of the unit's commands, one a line, with its map. */
struct cmds {
    char *text;
    size_t len;
    struct gl_srcmap map;
    const struct gl_srcmap *from; /* the unit text's map; NULL: the text is the file */
    const char *t;                /* the unit text */
    struct gl_text_cursor at;     /* without `from`: where the last look-up was */
    struct sd_words w;            /* the reading of the value being added */
    bool expanded;                /* gl_unit_commands' `expanded` */
    const char *unit_path;        /* gl_unit_commands' `unit_path` */
    struct sh_vars *vars;         /* the unit's variables */
    struct gl_unit_cmds *out;     /* (built_image) */
};

/* The original position of byte `off` of the unit text. */
static struct gl_loc loc_of(struct cmds *c, size_t off)
{
    return c->from ? gl_srcmap_loc(c->from, off) : gl_text_cursor_loc(&c->at, c->t, off);
}

/* Map the next byte of the derived text to byte `off` of the unit text. */
static void map_next(struct cmds *c, size_t off)
{
    struct gl_loc at = loc_of(c, off);
    gl_srcmap_add(&c->map, c->len, at.line, at.col);
}

/* Append t[s, e) (on one line of the unit text) as the shell text that reads as systemd
 * reads it (c->w, systemd_words.h): specifiers (`%n`) become `$n`, unknown variables of
 * the same length; a byte systemd takes as itself is escaped, each escape mapped to the
 * byte it stands for. Returns e, or where the arena went past its limit. */
static size_t add_piece(struct cmds *c, const char *t, size_t s, size_t e)
{
    if (s >= e)
        return e;
    map_next(c, s);
    for (size_t i = s, used; i < e; i += used) {
        used = 1;
        if (c->w.in_word || c->w.quote || c->w.any_word) {
            size_t k = i; /* (most bytes: a word's letters, digits, `/`, `-`, ...) */
            while (k < e && sd_plain_byte(t[k]))
                k++;
            if (k > i) {
                memcpy(c->text + c->len, t + i, k - i);
                c->len += k - i;
                c->w.in_word = true;
                used = k - i;
                continue;
            }
        }
        if (!c->w.quote && (t[i] == ' ' || t[i] == '\t')) {
            c->w.in_word = false;
            c->text[c->len++] = t[i];
            continue;
        }
        char out[2];
        size_t n = sd_word_byte(&c->w, t, i, e, out, &used);
        if (n == used) { /* (the same length: the map goes on) */
            memcpy(c->text + c->len, out, n);
            c->len += n;
            continue;
        }
        if (gl_arena_over(c->map.arena))
            return i;
        if (n == 2) { /* `\X` for X: both at X */
            map_next(c, i);
            c->text[c->len++] = out[0];
        }
        if (n) {
            map_next(c, i + used - 1);
            c->text[c->len++] = out[n - 1];
        }
    }
    return e;
}

/* Append `lit`, a word the unit does not write (`podman run`, a flag a Quadlet key stands
 * for), placed at byte `at` of the unit text. */
static void add_synth(struct cmds *c, const char *lit, size_t at)
{
    struct gl_loc l = loc_of(c, at);
    gl_srcmap_add(&c->map, c->len, l.line, l.col);
    size_t n = strlen(lit);
    memcpy(c->text + c->len, lit, n);
    c->len += n;
}

/* The `podman run` flag a Quadlet [Container] key stands for (podman-systemd.unit(5)):
 * "" for PodmanArgs (its value is flags already), NULL for a key not read. */
static const char *quadlet_flag(const char *k, size_t n)
{
    static const struct {
        const char *key, *flag;
    } keys[] = {{"AddDevice", "--device "}, {"Volume", "-v "},       {"Mount", "--mount "},
                {"ShmSize", "--shm-size "}, {"Tmpfs", "--tmpfs "},   {"Ulimit", "--ulimit "},
                {"Network", "--network "},  {"PodmanArgs", ""},      {"Environment", "-e "},
                {"GroupAdd", "--group-add "}, {"Pod", "--pod "}};
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
        if (strlen(keys[i].key) == n && !memcmp(keys[i].key, k, n))
            return keys[i].flag;
    return NULL;
}

/* The end of the Environment= word that starts at t[s] (before e): the first blank
 * outside quotes (" or ') and escapes (`\X`); *open: a quote is still open there. */
static size_t env_word_end(const char *t, size_t s, size_t e, bool *open)
{
    char quote = 0;
    for (; s < e && (quote || (t[s] != ' ' && t[s] != '\t')); s++) {
        if (t[s] == '\\' && s + 1 < e)
            s++;
        else if (!quote && (t[s] == '"' || t[s] == '\''))
            quote = t[s];
        else if (quote && t[s] == quote)
            quote = 0;
    }
    *open = quote != 0;
    return s;
}

/* Assign the variables of one Environment= value t[s, e), the first line of its value
 * (`more`: continued on the next, past a `\` not in t[s, e)): blank-separated NAME=VALUE
 * words, quotes (" or ') removed, an escaped quote or `\` its byte, as systemd reads them
 * (systemd.exec(5), Environment=). A value with another escape or a specifier (`%n`) is
 * one gpulint does not know (opaque). A quote left open ends the reading: systemd ignores
 * the rest of the line, or the word goes on in the next line (unread: opaque). Returns e,
 * or the start of the word at which the arena went past its limit (the reading stops
 * there). */
static size_t environment(struct sh_vars *vars, struct gl_arena *a, const char *t, size_t s,
                          size_t e, bool more)
{
    while ((s = skip_blanks(t, s, e)) < e) {
        if (gl_arena_over(a))
            return s;
        bool open, known = true;
        size_t end = env_word_end(t, s, e, &open), n = 0;
        if (open && !more)
            return e;
        char *w = gl_arena_take(a, end - s + 1); /* (the word's bytes, not the line's) */
        char quote = 0;
        for (; s < end; s++) {
            if (t[s] == '\\' && s + 1 < end) {
                known &= t[s + 1] == '\\' || t[s + 1] == '"' || t[s + 1] == '\'';
                w[n++] = t[++s];
            } else if (!quote && (t[s] == '"' || t[s] == '\'')) {
                quote = t[s];
            } else if (quote && t[s] == quote) {
                quote = 0;
            } else {
                known &= t[s] != '%' && t[s] != '\\';
                w[n++] = t[s];
            }
        }
        const char *eq = memchr(w, '=', n);
        if (eq && eq > w)
            sh_vars_assign(vars, w, (size_t)(eq - w), eq + 1, n - (size_t)(eq - w) - 1,
                           known && !open);
        if (open)
            return e;
    }
    return e;
}

/* The value of one logical line from its first physical line [s, e) on: pieces into c
 * (when c is set) until a line that does not end in `\`; returns where the next line
 * starts. */
static size_t value_lines(const char *t, size_t len, size_t s, size_t e, struct cmds *c)
{
    for (;;) {
        size_t ce = content_end(t, s, e);
        bool more = ce > s && t[ce - 1] == '\\';
        if (c) {
            size_t at = add_piece(c, t, s, more ? ce - 1 : ce);
            if (gl_arena_over(c->map.arena))
                return at; /* (past parse-memory: the reading stops at this byte) */
        }
        if (!more || e >= len)
            return e < len ? e + 1 : len;
        if (c) {
            c->text[c->len++] = ' ';
            sd_words_blank(&c->w);
        }
        /* the next line that is not a comment continues the value */
        size_t p = e + 1;
        for (;;) {
            e = line_end(t, len, p);
            if (!comment_line(t, p, e) || e >= len)
                break;
            p = e + 1;
        }
        s = skip_blanks(t, p, e);
    }
}

/* Skip an ExecStart value's prefixes: `-`, `@`, `:`, `+`, `!` (and `!!`). */
static size_t exec_prefixes(const char *t, size_t s, size_t e)
{
    while (s < e && strchr("-@:+!", t[s]))
        s++;
    return skip_blanks(t, s, e);
}

/* A Quadlet [Container] section being read: its `podman run` is written when it ends,
 * its Image= and Exec= (the last of each) after the flags. */
struct quadlet {
    bool open;
    bool broken;                /* a PodmanArgs= quote left open: Quadlet refuses the unit */
    size_t header, header_map;  /* the text's length and its map's at the header */
    size_t image, image_end;    /* the Image= value (image_end 0: none) */
    size_t exec, exec_end;      /* the Exec= value's first line (exec_end 0: none) */
};

/* Start reading a value (sd_words_begin), in a heredoc the script expands or not. */
static void words_begin(struct cmds *c, enum sd_mode mode)
{
    sd_words_begin(&c->w, mode);
    c->w.expanded = c->expanded;
}

/* Drop what was added since the text was `len` bytes long and its map `n` pieces. */
static void drop_since(struct cmds *c, size_t len, size_t n)
{
    c->len = len;
    c->map.n = n;
}

/* An Image= that names a `.image` or `.build` unit beside the unit file: its image (see
 * quadlet_refs.h) as the value of QUADLET_IMAGE_VAR, written at the name; a `.build`
 * unit's is an image the project builds (out->built_image). False when unknown. */
static bool unit_image(struct cmds *c, const char *t, size_t len, const struct quadlet *q)
{
    size_t e = content_end(t, q->image, line_end(t, len, q->image));
    struct quadlet_image img;
    if (!c->unit_path ||
        !quadlet_sibling_image(c->map.arena, c->unit_path, t + q->image, e - q->image, &img))
        return false;
    add_synth(c, "$" QUADLET_IMAGE_VAR, q->image);
    sh_vars_assign(c->vars, QUADLET_IMAGE_VAR, strlen(QUADLET_IMAGE_VAR), img.text,
                   strlen(img.text), true);
    if (img.built) {
        c->out->built_image = img.text;
        c->out->built_loc = loc_of(c, q->image);
    }
    return true;
}

static void quadlet_end(struct cmds *c, const char *t, size_t len, struct quadlet *q)
{
    if (!q->open)
        return;
    q->open = false;
    /* (no Image=: no container; a quote left open in PodmanArgs= or Exec=: the unit
       Quadlet refuses to make) */
    if ((!q->image && !q->image_end) || q->broken) {
        drop_since(c, q->header, q->header_map);
        return;
    }
    if (!q->image_end && unit_image(c, t, len, q)) {
        /* (the other unit's image, as a variable's value at the name) */
    } else if (!q->image_end) { /* a `.image` or `.build` unit's image: unknown, one word */
        add_synth(c, "$QUADLET_UNIT/", q->image);
        q->image_end = content_end(t, q->image, line_end(t, len, q->image));
        words_begin(c, SD_VALUE);
        add_piece(c, t, q->image, q->image_end);
    } else {
        words_begin(c, SD_VALUE);
        add_piece(c, t, q->image, q->image_end);
    }
    if (q->exec_end) {
        c->text[c->len++] = ' ';
        words_begin(c, SD_ARGS);
        value_lines(t, len, q->exec, q->exec_end, c);
        if (sd_words_unbalanced(&c->w)) {
            drop_since(c, q->header, q->header_map);
            return;
        }
    }
    c->text[c->len++] = '\n';
}

bool gl_unit_commands(struct gl_arena *a, const char *text, size_t len,
                      const struct gl_srcmap *map, bool expanded, const char *unit_path,
                      struct sh_vars *vars, struct gl_unit_cmds *out)
{
    size_t lines = 1;
    for (const char *p = text; (p = memchr(p, '\n', (size_t)(text + len - p))) != NULL; p++)
        lines++;
    /* (two bytes a byte of the unit: a byte and its escape; a Quadlet key's flag, `podman
       run ` and the separators take no more than twice the bytes of their key or header) */
    struct cmds c = {.text = gl_arena_take(a, 2 * len + lines + 16 + sizeof QUADLET_IMAGE_VAR),
                     .from = map, .t = text, .at = GL_TEXT_CURSOR_INIT, .expanded = expanded,
                     .unit_path = unit_path, .vars = vars, .out = out};
    *out = (struct gl_unit_cmds){0};
    if (!c.text)
        return false;
    gl_srcmap_init(&c.map, a);
    int section = 0; /* 1 [Service], 2 the first [Container], 3 [Build], else 0 */
    bool quadlet_seen = false, tagging = false; /* (tagging: a [Build]'s build is open) */
    struct quadlet q = {0};
    size_t p = 0;
    for (; p < len && !gl_arena_over(a);) {
        size_t e = line_end(text, len, p), s = skip_blanks(text, p, e);
        if (s < e && text[s] == '[') {
            quadlet_end(&c, text, len, &q);
            if (tagging)
                c.text[c.len++] = '\n';
            tagging = false;
            section = run_section(text, s, e);
            if (section == 2 && !quadlet_seen) {
                quadlet_seen = true;
                q = (struct quadlet){.open = true, .header = c.len, .header_map = c.map.n};
                add_synth(&c, "podman run ", s);
            } else if (section == 2) {
                section = 0; /* (a unit runs one container) */
            }
            p = e < len ? e + 1 : len;
            continue;
        }
        const char *eq = s < e && !comment_line(text, s, e) ? memchr(text + s, '=', e - s) : NULL;
        if (!section || !eq) {
            p = value_lines(text, len, s, e, NULL);
            continue;
        }
        size_t k = s, kn = (size_t)(eq - text) - s;
        while (kn && (text[k + kn - 1] == ' ' || text[k + kn - 1] == '\t'))
            kn--;
        size_t v = skip_blanks(text, (size_t)(eq - text) + 1, e);
        const char *flag = section == 2 ? quadlet_flag(text + k, kn) : NULL;
        if (section == 2 && kn == 5 && !memcmp(text + k, "Image", 5)) {
            size_t ie = content_end(text, v, e);
            bool unit = (ie - v > 6 && !memcmp(text + ie - 6, ".image", 6)) ||
                        (ie - v > 6 && !memcmp(text + ie - 6, ".build", 6));
            q.image = v;
            q.image_end = unit ? 0 : ie; /* (`x.image`, `x.build`: another unit's image) */
            p = value_lines(text, len, s, e, NULL);
        } else if (section == 2 && kn == 4 && !memcmp(text + k, "Exec", 4)) {
            q.exec = v;
            q.exec_end = e;
            p = value_lines(text, len, s, e, NULL);
        } else if (flag && v < content_end(text, v, e) &&
                   (!*flag || !memchr(text + v, ' ', content_end(text, v, e) - v))) {
            /* (one value a key but PodmanArgs: `Environment=A=1 B=2` is no one word, and
               a word after `-e A=1` would be taken for the image) */
            add_synth(&c, flag, v);
            words_begin(&c, *flag ? SD_VALUE : SD_ARGS); /* (PodmanArgs: words) */
            p = value_lines(text, len, v, e, &c);
            q.broken |= sd_words_unbalanced(&c.w);
            c.text[c.len++] = ' ';
        } else if (section == 3 && kn == 8 && !memcmp(text + k, "ImageTag", 8) &&
                   v < content_end(text, v, e)) {
            /* (what the unit runs: one `podman build`, a -t for each tag) */
            add_synth(&c, tagging ? "-t " : "podman build -t ", v);
            tagging = true;
            p = value_lines(text, len, v, e, &c);
            c.text[c.len++] = ' ';
        } else if (section == 1 && exec_key(text + k, kn)) {
            size_t start = c.len, start_map = c.map.n;
            words_begin(&c, SD_COMMAND);
            p = value_lines(text, len, exec_prefixes(text, v, e), e, &c);
            if (sd_words_unbalanced(&c.w)) /* (systemd ignores the line) */
                drop_since(&c, start, start_map);
            else
                c.text[c.len++] = '\n';
        } else if (section == 1 && kn == 11 && !memcmp(text + k, "Environment", 11)) {
            size_t ce = content_end(text, v, e);
            bool more = ce > v && text[ce - 1] == '\\'; /* (as value_lines reads it) */
            size_t end = more ? ce - 1 : ce, at = environment(vars, a, text, v, end, more);
            p = at < end ? at : value_lines(text, len, s, e, NULL);
        } else {
            if (kn == 15 && !memcmp(text + k, "EnvironmentFile", 15))
                vars->sourced = true;
            p = value_lines(text, len, s, e, NULL);
        }
    }
    if (!gl_arena_over(a))
        quadlet_end(&c, text, len, &q);
    if (tagging)
        c.text[c.len++] = '\n';
    c.text[c.len] = '\0';
    out->text = c.text;
    out->len = c.len;
    out->map = c.map;
    if (gl_arena_over(a))
        out->stop = loc_of(&c, p < len ? p : len);
    return c.len && !gl_arena_over(a);
}
