/* SPDX-License-Identifier: Apache-2.0 */
/* pkg_install.c: packages installed by a command (see pkg_install.h). */
#include "parsers/shell/pkg_install.h"

#include <string.h>

/* Where the facts go. */
struct pkg_out {
    struct gl_arena *arena;
    struct gl_dockerfile_model *df;
    int instr; /* of every package and removal recorded */
};

/* An option's name with its length, tested by length first (in_opts): an option word is
 * looked up in lists of up to 35 names, most of them starting with "--". */
struct opt_name {
    const char *s;
    size_t len;
};
#define O(name) {name, sizeof(name) - 1}

/* A package manager's command line grammar, as far as gpulint needs it. */
struct manager {
    const char *name;                /* recorded in gl_pkg.manager */
    const char *const *installs;     /* subcommands that install packages */
    const struct opt_name *valued;   /* options that take the next word as their value */
    const struct opt_name *index_opts; /* options whose value is a package index or channel */
    const char *const *removes;      /* subcommands that remove packages */
    char version_sep;                /* '=' for apt and conda ("pkg=1.2"), 0 otherwise */
    enum gl_pkg_family family;       /* recorded in gl_pkg.family */
};

static const char *const apt_installs[] = {"install", NULL};
static const struct opt_name apt_valued[] = {
    O("-o"), O("-t"), O("--target-release"), O("-c"), O("--config-file"), {NULL, 0}};
static const char *const rpm_installs[] = {"install", "groupinstall", "localinstall", NULL};
static const struct opt_name rpm_valued[] = {
    O("--enablerepo"), O("--disablerepo"), O("-x"), O("--exclude"), O("--setopt"),
    O("--releasever"), O("--installroot"), O("-c"), O("--config"), O("--repo"),
    O("--repofrompath"), O("--nodocs="), {NULL, 0}};
static const char *const apk_installs[] = {"add", NULL};
static const struct opt_name apk_valued[] = {
    O("-X"), O("--repository"), O("-t"), O("--virtual"), O("-p"), O("--root"), O("--arch"),
    {NULL, 0}};
static const char *const zypper_installs[] = {"install", "in", NULL};
static const struct opt_name zypper_valued[] = {
    O("-t"), O("--type"), O("-r"), O("--repo"), O("--from"), {NULL, 0}};
static const char *const conda_installs[] = {"install", "create", NULL};
static const struct opt_name conda_valued[] = {
    O("-c"), O("--channel"), O("-n"), O("--name"), O("-p"), O("--prefix"), O("--file"),
    O("--override-channels="), O("-r"), O("--root-prefix"), {NULL, 0}};
static const char *const pip_installs[] = {"install", NULL};
static const struct opt_name pip_valued[] = {
    O("-r"), O("--requirement"), O("-c"), O("--constraint"), O("-i"), O("--index-url"),
    O("--extra-index-url"), O("-f"), O("--find-links"), O("--trusted-host"), O("-t"),
    O("--target"), O("--prefix"), O("--root"), O("-e"), O("--editable"),
    O("--upgrade-strategy"), O("--platform"), O("--python-version"), O("--implementation"),
    O("--abi"), O("--only-binary"), O("--no-binary"), O("--src"), O("--cache-dir"),
    O("--progress-bar"), O("--log"), O("--proxy"), O("--timeout"), O("--retries"), O("-C"),
    O("--config-settings"), O("--python"), O("-p"), O("--torch-backend"), {NULL, 0}};

static const char *const apt_removes[] = {"purge", "remove", "autoremove", NULL};
static const char *const rpm_removes[] = {"remove", "erase", "autoremove", NULL};
static const char *const apk_removes[] = {"del", NULL};
static const char *const zypper_removes[] = {"remove", "rm", NULL};
static const char *const conda_removes[] = {"remove", "uninstall", NULL};
static const char *const pip_removes[] = {"uninstall", NULL};

static const struct opt_name no_index[] = {{NULL, 0}};
static const struct opt_name conda_index[] = {O("-c"), O("--channel"), {NULL, 0}};
static const struct opt_name pip_index[] = {
    O("-i"), O("--index-url"), O("--extra-index-url"), O("-f"), O("--find-links"),
    O("--torch-backend"), {NULL, 0}};

/* The managers' rows, by name (cmd_names[] below refers to them). */
enum {
    ROW_APT_GET, ROW_APT, ROW_APTITUDE, ROW_YUM, ROW_DNF, ROW_MICRODNF, ROW_TDNF, ROW_APK,
    ROW_ZYPPER, ROW_CONDA, ROW_MAMBA, ROW_MICROMAMBA, ROW_PIP, ROW_UV,
};
static const struct manager managers[] = {
    [ROW_APT_GET] = {"apt-get", apt_installs, apt_valued, no_index, apt_removes, '=', GL_PKG_APT},
    [ROW_APT] = {"apt", apt_installs, apt_valued, no_index, apt_removes, '=', GL_PKG_APT},
    [ROW_APTITUDE] = {"aptitude", apt_installs, apt_valued, no_index, apt_removes, '=',
                      GL_PKG_APT},
    [ROW_YUM] = {"yum", rpm_installs, rpm_valued, no_index, rpm_removes, 0, GL_PKG_RPM},
    [ROW_DNF] = {"dnf", rpm_installs, rpm_valued, no_index, rpm_removes, 0, GL_PKG_RPM},
    [ROW_MICRODNF] = {"microdnf", rpm_installs, rpm_valued, no_index, rpm_removes, 0,
                      GL_PKG_RPM},
    [ROW_TDNF] = {"tdnf", rpm_installs, rpm_valued, no_index, rpm_removes, 0, GL_PKG_RPM},
    [ROW_APK] = {"apk", apk_installs, apk_valued, no_index, apk_removes, 0, GL_PKG_APK},
    [ROW_ZYPPER] = {"zypper", zypper_installs, zypper_valued, no_index, zypper_removes, 0,
                    GL_PKG_ZYPPER},
    [ROW_CONDA] = {"conda", conda_installs, conda_valued, conda_index, conda_removes, '=',
                   GL_PKG_CONDA},
    [ROW_MAMBA] = {"mamba", conda_installs, conda_valued, conda_index, conda_removes, '=',
                   GL_PKG_CONDA},
    [ROW_MICROMAMBA] = {"micromamba", conda_installs, conda_valued, conda_index,
                        conda_removes, '=', GL_PKG_CONDA},
    [ROW_PIP] = {"pip", pip_installs, pip_valued, pip_index, pip_removes, 0, GL_PKG_PIP},
    [ROW_UV] = {"uv", pip_installs, pip_valued, pip_index, pip_removes, 0, GL_PKG_PIP},
};
_Static_assert(sizeof managers / sizeof managers[0] == ROW_UV + 1, "a row for every manager");

/* What a command's base name is to the scan. */
enum cmd_kind {
    CMD_PREFIX,  /* env, exec, time, nice, nohup, command: the real command follows */
    CMD_SUDO,    /* sudo: a prefix whose -u/-g take a value */
    CMD_RM,      /* rm */
    CMD_UV,      /* uv (uv pip, uv sync) */
    CMD_PYTHON,  /* python, python3, python3.11 (python -m pip) */
    CMD_MANAGER, /* a package manager: managers[row] (pip, pip3, pip3.11 too) */
};

struct cmd_name {
    unsigned char kind; /* enum cmd_kind */
    unsigned char row;  /* of managers[], for CMD_MANAGER and CMD_UV */
};

/* Are a[0, n) and b[0, n) the same bytes? For the short names and options here: a loop
 * the compiler keeps inline, not a call of memcmp whose length it does not know. */
static inline bool same_bytes(const char *a, const char *b, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (a[i] != b[i])
            return false;
    return true;
}

/* Is b[0, n) all digits and dots (the version of pip3.11, python3)? */
static bool version_tail(const char *b, size_t from, size_t n)
{
    for (size_t i = from; i < n; i++)
        if (!(b[i] >= '0' && b[i] <= '9') && b[i] != '.')
            return false;
    return true;
}

/* The known name b[0, n) is, or NULL (most commands: cd, echo, wget, git, ...). Asked of
 * every command (23,000 on the benchmark corpus): a switch on the length and the first
 * byte, then one compare of the rest (a memcmp of a constant length, which the compiler
 * does in a load or two), not a loop over the names of the length. */
static const struct cmd_name *command_named(const char *b, size_t n)
{
    static const struct cmd_name prefix = {CMD_PREFIX, 0}, sudo = {CMD_SUDO, 0},
                                 rm = {CMD_RM, 0}, uv = {CMD_UV, ROW_UV},
                                 python = {CMD_PYTHON, 0};
    static const struct cmd_name mgr[] = {
#define M(row) [row] = {CMD_MANAGER, row}
        M(ROW_APT_GET), M(ROW_APT), M(ROW_APTITUDE), M(ROW_YUM), M(ROW_DNF), M(ROW_MICRODNF),
        M(ROW_TDNF), M(ROW_APK), M(ROW_ZYPPER), M(ROW_CONDA), M(ROW_MAMBA), M(ROW_MICROMAMBA),
        M(ROW_PIP), M(ROW_UV),
#undef M
    };
    /* b is lit (a string literal of the length switched on): the name is `name` */
#define IS(lit, name)                                                                     \
    do {                                                                                  \
        if (!memcmp(b, lit, sizeof(lit) - 1))                                             \
            return &(name);                                                               \
    } while (0)
    switch (n) {
    case 2:
        switch (b[0]) {
        case 'r': IS("rm", rm); break;
        case 'u': IS("uv", uv); break;
        }
        return NULL;
    case 3:
        switch (b[0]) {
        case 'e': IS("env", prefix); break;
        case 'a': IS("apt", mgr[ROW_APT]); IS("apk", mgr[ROW_APK]); break;
        case 'y': IS("yum", mgr[ROW_YUM]); break;
        case 'd': IS("dnf", mgr[ROW_DNF]); break;
        case 'p': IS("pip", mgr[ROW_PIP]); break;
        }
        return NULL;
    case 4:
        switch (b[0]) {
        case 's': IS("sudo", sudo); break;
        case 'e': IS("exec", prefix); break;
        case 't': IS("time", prefix); IS("tdnf", mgr[ROW_TDNF]); break;
        case 'n': IS("nice", prefix); break;
        }
        break; /* pip3 */
    case 5:
        switch (b[0]) {
        case 'n': IS("nohup", prefix); break;
        case 'c': IS("conda", mgr[ROW_CONDA]); break;
        case 'm': IS("mamba", mgr[ROW_MAMBA]); break;
        }
        break; /* pip3. */
    case 6:
        switch (b[0]) {
        case 'p': IS("python", python); break;
        case 'z': IS("zypper", mgr[ROW_ZYPPER]); break;
        }
        break;
    case 7:
        switch (b[0]) {
        case 'c': IS("command", prefix); break;
        case 'a': IS("apt-get", mgr[ROW_APT_GET]); break;
        }
        break;
    case 8:
        switch (b[0]) {
        case 'a': IS("aptitude", mgr[ROW_APTITUDE]); break;
        case 'm': IS("microdnf", mgr[ROW_MICRODNF]); break;
        }
        break;
    case 10:
        if (b[0] == 'm')
            IS("micromamba", mgr[ROW_MICROMAMBA]);
        break;
    default:
        if (n < 2)
            return NULL;
        break;
    }
#undef IS
    if (n > 3 && b[0] == 'p' && !memcmp(b, "pip", 3) && version_tail(b, 3, n))
        return &mgr[ROW_PIP]; /* pip3, pip3.11 */
    if (n > 6 && b[0] == 'p' && !memcmp(b, "python", 6) && version_tail(b, 6, n))
        return &python; /* python3, python3.11 */
    return NULL;
}

static bool in_list(const char *const *list, const char *w)
{
    for (; *list; list++)
        if (gl_streq(*list, w))
            return true;
    return false;
}

/* Is w[0, wlen) one of the options of `list`? */
static bool in_opts(const struct opt_name *list, const char *w, size_t wlen)
{
    for (; list->s; list++)
        if (list->len == wlen && same_bytes(list->s, w, wlen))
            return true;
    return false;
}

/* The command a word names: its base name ("/usr/bin/pip3" -> "pip3"), its length and
 * what the scan knows it as (NULL: nothing). */
struct command {
    const char *base;
    size_t len;
    const struct cmd_name *name;
};

static inline struct command command_of(const struct gl_word *w)
{
    /* the base name, after the last '/' (a command word is a few bytes: no memrchr call) */
    const char *t = w->text, *end = t + gl_word_size(w), *b = end;
    while (b != t && b[-1] != '/')
        b--;
    return (struct command){b, (size_t)(end - b), command_named(b, (size_t)(end - b))};
}

/* Skip prefixes that run the real command: sudo [-opts], env [A=B], time, nice, exec.
 * `first`: the command of w[0] (not opaque). *cmd: the command of the word it stops at,
 * base NULL when there is none or it is opaque. */
static size_t skip_prefixes(const struct gl_word *w, size_t n, struct command first,
                            struct command *cmd)
{
    cmd->base = NULL;
    size_t i = 0;
    struct command c = first;
    for (;;) {
        if (!c.name || (c.name->kind != CMD_PREFIX && c.name->kind != CMD_SUDO)) {
            *cmd = c;
            break;
        }
        bool sudo = c.name->kind == CMD_SUDO;
        i++;
        while (i < n && !w[i].opaque &&
               (w[i].text[0] == '-' || (strchr(w[i].text, '=') && w[i].text[0] != '='))) {
            /* sudo -u user: the user is a value */
            if (sudo && (gl_streq(w[i].text, "-u") || gl_streq(w[i].text, "-g")))
                i++;
            i++;
        }
        if (i >= n || w[i].opaque)
            break;
        c = command_of(&w[i]);
    }
    return i;
}

/* The manager of the command at w[*i] (NULL: none): `uv pip`, `python -m pip` and
 * `python -m uv pip` advance *i to their `pip`. */
static const struct manager *find_manager(const struct gl_word *w, size_t n, size_t *i,
                                          const struct cmd_name *name)
{
    switch (name->kind) {
    case CMD_MANAGER:
        return &managers[name->row];
    case CMD_PYTHON:
        if (*i + 2 < n && gl_streq(w[*i + 1].text, "-m") && gl_streq(w[*i + 2].text, "pip")) {
            *i += 2;
            return &managers[ROW_PIP];
        }
        if (*i + 3 < n && gl_streq(w[*i + 1].text, "-m") && gl_streq(w[*i + 2].text, "uv") &&
            gl_streq(w[*i + 3].text, "pip")) {
            *i += 3;
            return &managers[ROW_UV];
        }
        return NULL;
    case CMD_UV:
        if (*i + 1 < n && gl_streq(w[*i + 1].text, "pip")) {
            *i += 1;
            return &managers[name->row];
        }
        return NULL;
    default:
        return NULL;
    }
}

static void add_index(const struct pkg_out *out, int stage, const struct manager *mgr,
                      const char *option, const struct gl_word *w, const char *url, size_t off)
{
    struct gl_dockerfile_model *m = out->df;
    struct gl_pkg_index *x = GL_APPEND(out->arena, m->indexes, m->nindexes, m->capindexes);
    x->manager = mgr->name;
    x->family = (uint8_t)mgr->family;
    x->option = gl_arena_strdup(out->arena, option);
    x->url = url;
    x->loc = (struct gl_loc){w->loc.line, w->loc.col + (uint32_t)off};
    x->stage = stage;
}

/* The bytes split_spec stops at: the end, extras, version operators, a marker's ';'. */
static const bool spec_stop[256] = {
    [0] = true, ['['] = true, ['='] = true, ['<'] = true, ['>'] = true, ['~'] = true,
    ['!'] = true, [';'] = true,
};

/* Split "name==1.2", "name[extra]>=1", "name=1.2" (n bytes, its strlen) into name and
 * version; the name's length. A spec that is all name is its own name (the word's text; the
 * arena charged as for a copy). */
static size_t split_spec(const struct pkg_out *out, const struct manager *mgr,
                         struct gl_pkg *p, const char *spec, size_t n)
{
    const size_t none = (size_t)-1;
    size_t i = 0, cut = none, vstart = none;
    const unsigned char *u = (const unsigned char *)spec;
    for (;; i++) {
        /* most of a spec: name bytes, four a step while the word has them, then to the
           stop (the NUL at n at the latest) */
        while (i + 4 <= n && !(spec_stop[u[i]] | spec_stop[u[i + 1]] | spec_stop[u[i + 2]] |
                               spec_stop[u[i + 3]]))
            i += 4;
        while (!spec_stop[u[i]])
            i++;
        char c = spec[i];
        if (!c)
            break;
        if (c == '[') {
            if (cut != none)
                continue;
            cut = i; /* extras: jax[cuda12] */
            const char *close = strchr(spec + i, ']');
            if (!close)
                break;
            i = (size_t)(close - spec);
            continue;
        }
        if (c == ';' && mgr->version_sep)
            continue; /* apt and conda: no environment markers */
        if (cut == none)
            cut = i;
        vstart = i;
        while (spec[vstart] && strchr("=<>~! ", spec[vstart]))
            vstart++;
        break;
    }
    if (cut == none) { /* i is at the NUL */
        p->name = spec;
        gl_arena_charge(out->arena, i + 1);
        return i;
    }
    p->name = gl_arena_strndup(out->arena, spec, cut);
    if (vstart != none && spec[vstart]) {
        size_t vend = vstart;
        while (spec[vend] && spec[vend] != ',' && spec[vend] != ';' && spec[vend] != ' ')
            vend++;
        p->version = gl_arena_strndup(out->arena, spec + vstart, vend - vstart);
    }
    return cut;
}

/* An RPM name's architecture suffix (`cuda-compiler-12-3.x86_64`, `glog-devel.noarch`:
 * yum, dnf and zypper take NAME.ARCH), dropped from the package's name (n bytes). */
static void drop_rpm_arch(const struct pkg_out *out, struct gl_pkg *p, size_t n)
{
    static const struct opt_name arches[] = {
        O(".x86_64"), O(".noarch"), O(".aarch64"), O(".i686"), O(".i386"), O(".ppc64le"),
        O(".s390x"), O(".armv7hl"), O(".src")};
    /* each suffix is a '.' and up to 7 bytes that hold none: only the name's tail from its
       last '.' can be one, when that '.' is among its last 8 bytes and not its first */
    const char *t = p->name;
    size_t k = n;
    while (k && n - k < 8 && t[k - 1] != '.')
        k--;
    if (k < 2 || t[k - 1] != '.')
        return;
    for (size_t i = 0; i < sizeof arches / sizeof arches[0]; i++)
        if (arches[i].len == n - (k - 1) && same_bytes(t + k - 1, arches[i].s, arches[i].len)) {
            p->name = gl_arena_strndup(out->arena, t, k - 1);
            return;
        }
}

static void add_pkg(const struct pkg_out *out, int stage, const struct manager *mgr,
                    const struct gl_word *w, bool group, bool requirements)
{
    if (gl_arena_over(out->arena)) /* the limit parse-memory: no more facts */
        return;
    struct gl_dockerfile_model *m = out->df;
    struct gl_pkg *p = GL_APPEND(out->arena, m->pkgs, m->npkgs, m->cappkgs);
    p->manager = mgr->name;
    p->family = (uint8_t)mgr->family;
    p->instr = out->instr;
    p->spec = w->text;
    p->loc = w->loc;
    p->stage = stage;
    p->group = group;
    p->requirements = requirements;
    if (requirements || group) {
        p->name = w->text;
        return;
    }
    size_t n = split_spec(out, mgr, p, w->text, gl_word_size(w));
    if (mgr->family == GL_PKG_RPM || mgr->family == GL_PKG_ZYPPER)
        drop_rpm_arch(out, p, n);
}

static void add_removal(const struct pkg_out *out, int stage, const char *manager,
                        enum gl_pkg_family family, const struct gl_word *w)
{
    if (gl_arena_over(out->arena)) /* the limit parse-memory: no more facts */
        return;
    struct gl_dockerfile_model *m = out->df;
    struct gl_removal *r = GL_APPEND(out->arena, m->removals, m->nremovals, m->capremovals);
    *r = (struct gl_removal){.manager = manager, .name = w->text, .loc = w->loc,
                             .stage = stage, .instr = out->instr, .family = (uint8_t)family};
}

/* `rm [-rf] PATH...`: every path (after `--`, words starting with '-' too). */
static void scan_rm(const struct pkg_out *out, int stage, const struct gl_word *w, size_t n,
                    size_t i)
{
    bool opts = true;
    for (i++; i < n; i++) {
        if (w[i].opaque || !*w[i].text)
            continue;
        if (opts && gl_streq(w[i].text, "--")) {
            opts = false;
            continue;
        }
        if (opts && w[i].text[0] == '-')
            continue;
        add_removal(out, stage, "rm", GL_PKG_RM, &w[i]);
    }
}

/* The packages of a removal subcommand: its words that are not options or their values. */
static void scan_removal(const struct pkg_out *out, int stage, const struct manager *mgr,
                         const struct gl_word *w, size_t n, size_t i)
{
    bool automatic = !strcmp(w[i].text, "autoremove");
    const struct gl_word *at = &w[i];
    for (i++; i < n; i++) {
        const char *t = w[i].text;
        if (w[i].opaque || !*t)
            continue;
        if (t[0] == '-') {
            if (!strcmp(t, "--auto-remove") || !strcmp(t, "--autoremove"))
                automatic = true, at = &w[i];
            if (in_opts(mgr->valued, t, gl_word_size(&w[i])))
                i++;
            continue;
        }
        size_t cut = mgr->version_sep ? strcspn(t, "=") : strcspn(t, "=<>~!");
        struct gl_word name =
            gl_word_make(gl_arena_strndup(out->arena, t, cut), w[i].loc, false);
        add_removal(out, stage, mgr->name, mgr->family, &name);
    }
    struct gl_dockerfile_model *m = out->df;
    size_t before = m->nremovals;
    if (automatic) {
        struct gl_word all = {"", 0, at->loc, false};
        add_removal(out, stage, mgr->name, mgr->family, &all);
    }
    if (m->nremovals > before)
        m->removals[before].automatic = true;
}

/* A file a command installs from (a requirements-style entry): name is the file's path as
 * the command names it, relative to the command's directory, at loc. */
static struct gl_pkg *add_file(const struct pkg_out *out, int stage, const struct manager *mgr,
                               const char *name, struct gl_loc loc)
{
    if (gl_arena_over(out->arena)) /* the limit parse-memory: no more facts */
        return NULL;
    struct gl_dockerfile_model *m = out->df;
    struct gl_pkg *p = GL_APPEND(out->arena, m->pkgs, m->npkgs, m->cappkgs);
    p->manager = mgr->name;
    p->family = (uint8_t)mgr->family;
    p->instr = out->instr;
    p->spec = p->name = name;
    p->loc = loc;
    p->stage = stage;
    p->requirements = true;
    return p;
}

/* A local project directory given to pip/uv (".", "./pkg", "/app", ".[gpu]"): its
 * pyproject.toml as a file the command installs from. False for anything else (a package
 * name, a wheel or sdist file, a VCS or URL requirement). Without `deps` (the command has
 * --no-deps) the project installs none of its dependencies, so its file adds nothing: true,
 * and no file. */
static bool add_project(const struct pkg_out *out, int stage, const struct manager *mgr,
                        const char *t, struct gl_loc loc, bool deps)
{
    if (t[0] != '.' && t[0] != '/') /* what every local form below starts with */
        return false;
    size_t n = strcspn(t, "[");
    bool local = (n == 1 && t[0] == '.') || gl_has_prefix(t, "./") || gl_has_prefix(t, "/") ||
                 gl_has_prefix(t, "../");
    if (!local || strchr(t, ':') || strchr(t, '$'))
        return false;
    static const char *const files[] = {".whl", ".tar.gz", ".zip", ".tgz", ".txt", ".toml"};
    const char *dir = gl_arena_strndup(out->arena, t, n);
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++)
        if (gl_has_suffix(dir, files[i]))
            return false;
    if (!deps)
        return true;
    size_t dl = strlen(dir);
    while (dl > 1 && dir[dl - 1] == '/')
        dl--;
    static const char pyproject[] = "/pyproject.toml";
    struct gl_pkg *p = add_file(
        out, stage, mgr, gl_arena_cat3(out->arena, dir, dl, pyproject, sizeof pyproject - 1, "", 0),
        loc);
    if (p && t[n] == '[') { /* `.[a, b]`: "a,b," */
        struct gl_buf ex;
        gl_buf_init(&ex);
        for (const char *e = t + n + 1; *e && *e != ']'; e++)
            if (*e != ' ')
                gl_buf_addc(&ex, *e);
        if (ex.len)
            gl_buf_addc(&ex, ',');
        p->extras = ex.len ? gl_arena_strdup(out->arena, gl_buf_str(&ex)) : NULL;
        gl_buf_free(&ex);
    }
    return true;
}

/* The value of option `opt` at w[*i] ("--file F", "--file=F"); advances *i past it. */
static const struct gl_word *opt_value(const struct gl_word *w, size_t n, size_t *i,
                                       const char *opt, struct gl_word *buf)
{
    const char *t = w[*i].text;
    size_t ol = strlen(opt);
    if (strncmp(t, opt, ol))
        return NULL;
    if (t[ol] == '=' && !w[*i].opaque) {
        /* a suffix of the word's text: its strlen is the rest of the word's */
        *buf = (struct gl_word){t + ol + 1, gl_word_tail_len(&w[*i], ol + 1),
                                {w[*i].loc.line, w[*i].loc.col + (uint32_t)ol + 1}, false};
        return buf;
    }
    if (t[ol] || *i + 1 >= n)
        return NULL;
    (*i)++;
    return w[*i].opaque ? NULL : &w[*i];
}

/* `uv sync [--project DIR | --directory DIR] [--extra X]... [--all-extras]`: the project's
 * uv.lock and pyproject.toml (with the extras it installs). */
static void scan_uv_sync(const struct pkg_out *out, int stage, const struct gl_word *w, size_t n,
                         size_t i)
{
    const char *dir = ".";
    struct gl_loc at = w[i].loc;
    struct gl_buf ex; /* the extras, each followed by ',' (gl_pkg.extras) */
    gl_buf_init(&ex);
    bool all = false;
    for (i++; i < n; i++) {
        struct gl_word buf;
        if (!w[i].opaque && gl_streq(w[i].text, "--extra") && i + 1 < n && w[i + 1].opaque) {
            all = true; /* (an extra not known: any of them) */
            i++;
            continue;
        }
        const struct gl_word *v = opt_value(w, n, &i, "--project", &buf);
        v = v ? v : opt_value(w, n, &i, "--directory", &buf);
        if (v)
            dir = strchr(v->text, '$') ? NULL : v->text;
        else if ((v = opt_value(w, n, &i, "--extra", &buf)) && !strchr(v->text, ',')) {
            gl_buf_adds(&ex, v->text);
            gl_buf_addc(&ex, ',');
        }
        all = all || !strcmp(w[i].text, "--all-extras");
        if (w[i].opaque)
            dir = NULL;
        if (!dir) {
            gl_buf_free(&ex);
            return;
        }
    }
    const char *extras = all ? "*" : ex.len ? gl_arena_strdup(out->arena, gl_buf_str(&ex)) : NULL;
    gl_buf_free(&ex);
    const struct manager *uv = &managers[ROW_UV];
    /* dir "/uv.lock" and dir "/pyproject.toml" (joined, not formatted: no vsnprintf) */
    static const char lock[] = "/uv.lock", project[] = "/pyproject.toml";
    size_t dl = strlen(dir);
    add_file(out, stage, uv, gl_arena_cat3(out->arena, dir, dl, lock, sizeof lock - 1, "", 0), at);
    struct gl_pkg *p =
        add_file(out, stage, uv,
                 gl_arena_cat3(out->arena, dir, dl, project, sizeof project - 1, "", 0), at);
    if (p)
        p->extras = extras;
}

/* `conda env create|update [-f FILE]` (conda and mamba read environment.yml without -f). */
static void scan_env_create(const struct pkg_out *out, int stage, const struct manager *mgr,
                            const struct gl_word *w, size_t n, size_t i)
{
    struct gl_loc at = w[i].loc;
    for (i++; i < n; i++) {
        struct gl_word buf;
        const struct gl_word *v = opt_value(w, n, &i, "--file", &buf);
        v = v ? v : opt_value(w, n, &i, "-f", &buf);
        if (v) {
            add_file(out, stage, mgr, v->text, v->loc);
            return;
        }
        if (w[i].opaque)
            return;
    }
    if (strcmp(mgr->name, "micromamba"))
        add_file(out, stage, mgr, "environment.yml", at);
}

/* The command w[0, n) whose first word is the known command `first`. (noinline: its frame
 * is large, and most commands are not known: gl_pkg_install_scan returns first) */
static __attribute__((noinline)) void scan_command(const struct pkg_out *out, int stage,
                                                   const struct gl_word *w, size_t n,
                                                   struct command first)
{
    struct command cmd; /* of w[i], found once */
    size_t i = skip_prefixes(w, n, first, &cmd);
    if (!cmd.base || !cmd.name)
        return; /* no command word, an opaque one, or one unknown here (most commands) */
    if (cmd.name->kind == CMD_RM) {
        scan_rm(out, stage, w, n, i);
        return;
    }
    if (i + 1 < n && cmd.name->kind == CMD_UV && !w[i + 1].opaque &&
        gl_streq(w[i + 1].text, "sync")) {
        scan_uv_sync(out, stage, w, n, i + 1);
        return;
    }
    const struct manager *mgr = find_manager(w, n, &i, cmd.name);
    if (!mgr)
        return;
    bool conda = mgr->version_sep == '=' && mgr->index_opts == conda_index;
    i++;
    /* options before the subcommand (apt-get -y install, conda -q install) */
    bool group = false;
    for (; i < n && !w[i].opaque; i++) {
        const char *t = w[i].text;
        if (t[0] == '-') {
            if (in_opts(mgr->valued, t, gl_word_size(&w[i])))
                i++;
            continue;
        }
        if (in_list(mgr->installs, t)) {
            group = gl_streq(t, "groupinstall");
            break;
        }
        if (gl_streq(t, "group") && i + 1 < n && gl_streq(w[i + 1].text, "install")) {
            group = true;
            i++;
            break;
        }
        if (gl_streq(t, "env") && i + 1 < n &&
            (gl_streq(w[i + 1].text, "create") || gl_streq(w[i + 1].text, "update"))) {
            if (conda) /* conda env create -f environment.yml: a file, not packages */
                scan_env_create(out, stage, mgr, w, n, i + 1);
            return;
        }
        if (in_list(mgr->removes, t))
            scan_removal(out, stage, mgr, w, n, i);
        return;     /* another subcommand: update, ... */
    }
    if (i >= n)
        return;
    bool deps = true; /* pip/uv --no-deps: a local project's dependencies are not installed */
    for (size_t k = i + 1; k < n; k++)
        if (!w[k].opaque && (gl_streq(w[k].text, "--no-deps") ||
                             gl_streq(w[k].text, "--no-dependencies")))
            deps = false;
    for (i++; i < n; i++) {
        const struct gl_word *x = &w[i];
        if (x->opaque)
            continue;
        const char *t = x->text;
        if (t[0] == '-' && t[1]) {
            const char *eq = strchr(t, '=');
            char opt[64]; /* the option's name, read below only when takes or conda */
            size_t olen = eq ? (size_t)(eq - t) : gl_word_size(x);
            bool fits = olen < sizeof opt; /* a longer name is no option of the lists */
            bool takes = fits && in_opts(mgr->valued, t, olen);
            opt[0] = 0;
            if (fits && (takes || conda))
                memcpy(opt, t, olen), opt[olen] = 0;
            const struct gl_word *val = NULL;
            const char *vtext = NULL;
            size_t voff = 0;
            if (eq) {
                val = x, vtext = eq + 1, voff = olen + 1;
            } else if (takes && i + 1 < n) {
                val = &w[++i], vtext = val->text;
            }
            bool mm_file = conda && gl_streq(mgr->name, "micromamba") && gl_streq(opt, "-f");
            if (mm_file && !eq && i + 1 < n)
                val = &w[++i], vtext = val->text; /* micromamba -f FILE (--file) */
            if (val && !val->opaque && (takes || mm_file)) {
                if (conda && (!strcmp(opt, "--file") || mm_file)) {
                    struct gl_word fw = {vtext, gl_word_tail_len(val, voff),
                                         {val->loc.line, val->loc.col + (uint32_t)voff}, false};
                    add_file(out, stage, mgr, fw.text, fw.loc);
                }
                if (!conda && (!strcmp(opt, "-e") || !strcmp(opt, "--editable")))
                    add_project(out, stage, mgr, vtext,
                                (struct gl_loc){val->loc.line, val->loc.col + (uint32_t)voff},
                                deps);
                if (in_opts(mgr->index_opts, opt, olen))
                    add_index(out, stage, mgr, opt, val, vtext, voff);
                if (gl_streq(opt, "-r") || gl_streq(opt, "--requirement")) {
                    struct gl_word rw = {vtext, gl_word_tail_len(val, voff),
                                         {val->loc.line, val->loc.col + (uint32_t)voff}, false};
                    add_pkg(out, stage, mgr, &rw, false, true);
                }
            }
            continue;
        }
        if (!*t)
            continue;
        if (!conda && mgr->index_opts == pip_index &&
            add_project(out, stage, mgr, t, x->loc, deps))
            continue;
        add_pkg(out, stage, mgr, x, group, false);
    }
}

void gl_pkg_install_scan(struct gl_arena *a, struct gl_dockerfile_model *m, int stage,
                         int instr, const struct gl_word *words, size_t nwords)
{
    if (!m || !nwords || gl_arena_over(a) || words[0].opaque)
        return;
    struct command first = command_of(&words[0]);
    if (!first.name)
        return; /* a command unknown here (most commands): nothing it installs or removes */
    const struct pkg_out out = {a, m, instr};
    scan_command(&out, stage, words, nwords, first);
}
