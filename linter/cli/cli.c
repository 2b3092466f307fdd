/* SPDX-License-Identifier: Apache-2.0 */
/* cli.c: command-line options into the config (see cli.h). */
#include "linter/cli/cli.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "knowledge/driver_target.h"
#include "knowledge/gpu_target.h"
#include "linter/core/escape.h"
#include "linter/core/inputs.h"
#include "linter/core/limits.h"
#include "linter/core/rule.h"
#include "linter/report/rule_doc.h"
#include "linter/cli/shard.h"

/* Not static: tools/gendocs.c writes the man page's OPTIONS from it (one source). */
const char gl_cli_usage[] =
    "usage: gpulint [OPTIONS] [PATH...]\n"
    "\n"
    "Lint GPU container stacks: Dockerfiles, images (archives, layouts, registries) and the\n"
    "launch specs that run them (shell, Makefiles, Markdown, CI YAML, compose, Kubernetes,\n"
    "Helm, Slurm, apptainer, systemd).\n"
    "A PATH is a file, a directory (walked), or - for stdin. Default: the current directory.\n"
    "An image is also read by transport: docker://HOST/REPO:TAG (or @sha256:...; manifest\n"
    "and config only), oci-archive:PATH, docker-archive:PATH, oci:DIR[:TAG].\n"
    "\n"
    "Options:\n"
    "  -f, --format FORMAT         tty (default), json, sarif, checkstyle or gitlab\n"
    "  -o, --output FILE           write the report to FILE\n"
    "      --failure-threshold SEV exit 1 on findings at or above SEV:\n"
    "                              error (default), warning, info, style, none\n"
    "      --driver VERSION        target driver: 535, R535, 535.104.05 or host\n"
    "      --gpu NAME              target GPU (repeatable): H100, A100, L4, B200, RTX 4090,\n"
    "                              a family (Hopper), sm_90, 9.0, 90 or host; the GPU\n"
    "                              architecture rules (GL208-GL210) need one\n"
    "      --knowledge FILE        use FILE as the CUDA knowledge table (cuda_facts.yaml)\n"
    "      --print-knowledge       print the CUDA knowledge table in use, with its date\n"
    "      --config FILE           read FILE (default: the nearest .gpulint.yaml upward\n"
    "                              from the working directory); options given here win\n"
    "      --no-config             read no config file\n"
    "      --print-config          print the merged configuration as YAML that --config\n"
    "                              reads, each value with where it came from\n"
    "      --ignore ID             turn rule ID off (repeatable, or ID,ID)\n"
    "      --enable ID             turn an optional rule on (repeatable, or ID,ID)\n"
    "  -t, --type TYPE             read named files and stdin as TYPE (%s)\n"
    "      --build-arg K=V         a Dockerfile build argument (repeatable)\n"
    "      --target STAGE          the Dockerfile stage that is built and shipped\n"
    "      --helm PATH             the helm that renders Helm charts (default: helm on\n"
    "                              PATH; without one, a chart is GL903, not linted)\n"
    "      --helm-values FILE      a values file for every chart (helm template -f FILE;\n"
    "                              repeatable)\n"
    "  -j, --jobs N                threads that read inputs and image layers (default: the\n"
    "                              number of cores; at most 8 for text inputs; fewer\n"
    "                              under an address-space limit, ulimit -v)\n"
    "      --platform OS/ARCH      lint only this platform of a multi-platform image\n"
    "                              (default: every platform)\n"
    "      --cache-dir DIR         the layer-index cache (default: $XDG_CACHE_HOME/gpulint\n"
    "                              or ~/.cache/gpulint)\n"
    "      --no-cache              neither read nor write the layer-index cache\n"
    "      --cache-max SIZE        the most the layer-index cache keeps on disk (256MiB);\n"
    "                              least recently used entries go first\n"
    "      --trust-digests         do not hash image layers to check their digests\n"
    "                              (faster on few cores; nothing is then cached)\n"
    "      --verify-digests        hash uncompressed layers too (by default they are\n"
    "                              indexed by seeking, unchecked and not cached)\n"
    "      --images-from FILE      also lint each line of FILE (a reference such as\n"
    "                              docker://HOST/REPO:TAG, or a path; - for stdin)\n"
    "      --shard K/N             lint only the named inputs of shard K (0..N-1) of a\n"
    "                              stable split in N by name\n"
    "      --creds USER[:PASS]     credentials for docker:// registries (default: the\n"
    "                              auth files skopeo reads; see the man page)\n"
    "      --tls-verify=false      do not verify registry certificates (and fall back\n"
    "                              to plain http)\n"
    "      --cert-dir DIR          registry TLS files: DIR/ca.crt, DIR/NAME.cert+.key\n"
    "      --timeout SECONDS       per registry request (default 30); a layer stream\n"
    "                              fails when it stalls that long\n"
    "      --layers                docker:// inputs: stream the layers too (each checked\n"
    "                              against its digest, cached as an archive's)\n"
    "      --inspect-images        fetch the registry config of every image an input\n"
    "                              names whose CUDA the tables cannot tell, and judge\n"
    "                              its CUDA_VERSION / NVIDIA_REQUIRE_CUDA (network)\n"
    "      --limit NAME=VALUE      change a resource limit (repeatable); --print-config\n"
    "                              lists them with their defaults\n"
    "      --no-color              no colour in the tty report\n"
    "      --list-rules            print the rule catalog\n"
    "      --explain ID            print a rule's rationale and an example\n"
    "      --version               print the version\n"
    "  -h, --help                  print this help\n"
    "\n"
    "Exit status: 0 no finding at or above the threshold, 1 findings at or above it,\n"
    "2 usage error, unreadable path, or a report that could not be written.\n";

enum { OPT_THRESHOLD = 256, OPT_DRIVER, OPT_IGNORE, OPT_ENABLE, OPT_BUILD_ARG, OPT_TARGET,
       OPT_NO_COLOR, OPT_LIST_RULES, OPT_EXPLAIN, OPT_VERSION, OPT_CONFIG, OPT_NO_CONFIG,
       OPT_PLATFORM, OPT_CACHE_DIR, OPT_NO_CACHE, OPT_TRUST_DIGESTS, OPT_CACHE_MAX, OPT_LIMIT,
       OPT_KNOWLEDGE, OPT_PRINT_KNOWLEDGE, OPT_PRINT_CONFIG, OPT_HELM, OPT_HELM_VALUES, OPT_CREDS,
       OPT_TLS_VERIFY, OPT_CERT_DIR, OPT_TIMEOUT, OPT_VERIFY_DIGESTS, OPT_IMAGES_FROM,
       OPT_SHARD, OPT_GPU, OPT_LAYERS, OPT_INSPECT_IMAGES };

static const struct option long_options[] = {
    {"format", required_argument, 0, 'f'},
    {"output", required_argument, 0, 'o'},
    {"failure-threshold", required_argument, 0, OPT_THRESHOLD},
    {"driver", required_argument, 0, OPT_DRIVER},
    {"gpu", required_argument, 0, OPT_GPU},
    {"ignore", required_argument, 0, OPT_IGNORE},
    {"enable", required_argument, 0, OPT_ENABLE},
    {"type", required_argument, 0, 't'},
    {"build-arg", required_argument, 0, OPT_BUILD_ARG},
    {"target", required_argument, 0, OPT_TARGET},
    {"jobs", required_argument, 0, 'j'},
    {"no-color", no_argument, 0, OPT_NO_COLOR},
    {"list-rules", no_argument, 0, OPT_LIST_RULES},
    {"explain", required_argument, 0, OPT_EXPLAIN},
    {"version", no_argument, 0, OPT_VERSION},
    {"config", required_argument, 0, OPT_CONFIG},
    {"no-config", no_argument, 0, OPT_NO_CONFIG},
    {"platform", required_argument, 0, OPT_PLATFORM},
    {"cache-dir", required_argument, 0, OPT_CACHE_DIR},
    {"no-cache", no_argument, 0, OPT_NO_CACHE},
    {"trust-digests", no_argument, 0, OPT_TRUST_DIGESTS},
    {"verify-digests", no_argument, 0, OPT_VERIFY_DIGESTS},
    {"cache-max", required_argument, 0, OPT_CACHE_MAX},
    {"limit", required_argument, 0, OPT_LIMIT},
    {"knowledge", required_argument, 0, OPT_KNOWLEDGE},
    {"print-knowledge", no_argument, 0, OPT_PRINT_KNOWLEDGE},
    {"print-config", no_argument, 0, OPT_PRINT_CONFIG},
    {"helm", required_argument, 0, OPT_HELM},
    {"helm-values", required_argument, 0, OPT_HELM_VALUES},
    {"creds", required_argument, 0, OPT_CREDS},
    {"images-from", required_argument, 0, OPT_IMAGES_FROM},
    {"shard", required_argument, 0, OPT_SHARD},
    {"tls-verify", optional_argument, 0, OPT_TLS_VERIFY},
    {"cert-dir", required_argument, 0, OPT_CERT_DIR},
    {"timeout", required_argument, 0, OPT_TIMEOUT},
    {"layers", no_argument, 0, OPT_LAYERS},
    {"inspect-images", no_argument, 0, OPT_INSPECT_IMAGES},
    {"help", no_argument, 0, 'h'},
    {0, 0, 0, 0},
};

/* Append each comma-separated id of `arg` to a config list; unknown ids are a usage error. */
static int add_ids(struct gl_config *cfg, const char ***list, size_t *n, const char *opt,
                   const char *arg)
{
    char *copy = gl_arena_strdup(&cfg->arena, arg), *save = NULL;
    for (char *id = strtok_r(copy, ",", &save); id; id = strtok_r(NULL, ",", &save)) {
        const struct gl_rule *rule = gl_rule_find(id);
        if (!rule) {
            gl_eprintf("%s: no rule `%s` (see --list-rules)", opt, id);
            return 2;
        }
        const char **grown = gl_arena_alloc(&cfg->arena, (*n + 1) * sizeof *grown);
        if (*n)
            memcpy(grown, *list, *n * sizeof *grown);
        grown[(*n)++] = rule->id; /* the rule's own spelling, as the config file keeps it */
        *list = grown;
    }
    return 0;
}

/* Record that option `opt` set (or added to) setting `s`. */
static void from_option(struct gl_config *cfg, enum gl_setting s, const char *opt)
{
    char origin[64];
    snprintf(origin, sizeof origin, "command line (%s)", opt);
    gl_config_note_origin(cfg, s, origin);
}

static int add_build_arg(struct gl_config *cfg, const char *arg)
{
    const char *eq = strchr(arg, '=');
    struct gl_kv *grown = gl_arena_alloc(&cfg->arena, (cfg->nbuild_args + 1) * sizeof *grown);
    if (cfg->nbuild_args)
        memcpy(grown, cfg->build_args, cfg->nbuild_args * sizeof *grown);
    struct gl_kv *kv = &grown[cfg->nbuild_args++];
    if (eq) {
        kv->key = gl_arena_strndup(&cfg->arena, arg, (size_t)(eq - arg));
        kv->value = gl_arena_strdup(&cfg->arena, eq + 1);
    } else {
        /* `--build-arg K` takes K from the environment, as docker build does */
        kv->key = gl_arena_strdup(&cfg->arena, arg);
        const char *v = getenv(arg);
        kv->value = v ? gl_arena_strdup(&cfg->arena, v) : NULL;
    }
    cfg->build_args = grown;
    return 0;
}

static int parse_format(struct gl_config *cfg, const char *s)
{
    if (!strcmp(s, "tty"))
        cfg->format = GL_FMT_TTY;
    else if (!strcmp(s, "json"))
        cfg->format = GL_FMT_JSON;
    else if (!strcmp(s, "sarif"))
        cfg->format = GL_FMT_SARIF;
    else if (!strcmp(s, "checkstyle"))
        cfg->format = GL_FMT_CHECKSTYLE;
    else if (!strcmp(s, "gitlab"))
        cfg->format = GL_FMT_GITLAB;
    else {
        gl_eprintf("--format: unknown format `%s` (tty, json, sarif, checkstyle, gitlab)", s);
        return 2;
    }
    return 0;
}

static int parse_driver(struct gl_config *cfg, const char *s)
{
    if (gl_driver_target_parse(&cfg->driver, s, "--driver") != 0) {
        gl_eprintf("--driver: `%s` is not a driver version (535, R535, 535.104.05 or host)", s);
        return 2;
    }
    return 0;
}

/* --gpu NAME: the command line's names replace the config file's list. The name is
 * checked against the knowledge table once it is loaded (gl_gpu_targets_resolve). */
static int add_gpu(struct gl_config *cfg, const char *s)
{
    const char *origin = cfg->origin[GL_SET_GPU];
    if (!origin || strncmp(origin, "command line", 12))
        gl_gpu_targets_clear(&cfg->gpu);
    if (gl_gpu_targets_add(&cfg->gpu, &cfg->arena, s) != 0) {
        gl_eprintf("--gpu: `%s` is not a GPU name (H100, A100, RTX 4090, Hopper, sm_90, 9.0, "
                   "90 or host)", s);
        return 2;
    }
    return 0;
}

/* One limit from the command line; `opt` names the option in messages and origins. */
static int set_limit(enum gl_limit_id id, const char *value, const char *opt)
{
    char origin[64];
    snprintf(origin, sizeof origin, "command line (%s)", opt);
    if (gl_limit_set(id, value, origin) == 0)
        return 0;
    gl_eprintf("%s: `%s` is not %s", opt, value,
               gl_limit_defs[id].unit == GL_LIMIT_BYTES
                   ? "a size of at least 1 byte (16MiB, 1GiB, 500MB or bytes)"
                   : "a whole number of at least 1");
    return 2;
}

/* --limit NAME=VALUE */
static int parse_limit(const char *arg)
{
    const char *eq = strchr(arg, '=');
    char name[64];
    size_t n = eq ? (size_t)(eq - arg) : 0;
    enum gl_limit_id id = GL_LIMIT_COUNT;
    if (eq && n < sizeof name) {
        memcpy(name, arg, n);
        name[n] = '\0';
        id = gl_limit_named(name);
    }
    if (id == GL_LIMIT_COUNT) {
        char names[512];
        gl_eprintf("--limit: expected NAME=VALUE with NAME one of %s",
                   gl_limit_names(names, sizeof names));
        return 2;
    }
    return set_limit(id, eq + 1, "--limit");
}

/* How many long options start with the name in `arg` ("--name" or "--name=value"). */
static int long_option_matches(const char *arg)
{
    const char *name = arg + 2;
    size_t len = strcspn(name, "=");
    int n = 0;
    for (const struct option *o = long_options; o->name; o++)
        n += strncmp(o->name, name, len) == 0;
    return n;
}

/* getopt's own message for a bad option, through gl_eprintf (getopt would print the
 * option's bytes raw): `c` is ':' for a missing argument, '?' for an unknown option. */
static void option_error(int c, char **argv)
{
    const char *arg = argv[optind - 1];
    bool is_long = arg[0] == '-' && arg[1] == '-';
    if (c == ':' && is_long)
        gl_eprintf("option '%s' requires an argument", arg);
    else if (c == ':')
        gl_eprintf("option requires an argument -- '%c'", optopt);
    else if (!is_long)
        gl_eprintf("invalid option -- '%c'", optopt);
    else if (optopt)
        gl_eprintf("option '%s' doesn't allow an argument", arg);
    else if (long_option_matches(arg) > 1)
        gl_eprintf("option '%s' is ambiguous", arg);
    else
        gl_eprintf("unrecognized option '%s'", arg);
    fputs("Try `gpulint --help`.\n", stderr);
}

int gl_cli_parse(int argc, char **argv, struct gl_config *cfg, struct gl_cli *cli)
{
    memset(cli, 0, sizeof *cli);
    const char *no_color = getenv("NO_COLOR");
    const char *ci = getenv("CI");
    cfg->color = isatty(STDOUT_FILENO) && !(no_color && *no_color) &&
                 !(ci && !strcmp(ci, "true"));
    int c, rc = 0;
    const char *images_from = NULL;
    unsigned shard_k = 0, shard_n = 0;
    optind = 1;
    opterr = 0; /* option_error says it */
    while (rc == 0 && (c = getopt_long(argc, argv, ":f:o:t:j:h", long_options, NULL)) != -1) {
        switch (c) {
        case 'f': rc = parse_format(cfg, optarg); break;
        case 'o': cfg->output = optarg; break;
        case OPT_THRESHOLD:
            if (gl_severity_parse(optarg, &cfg->failure_threshold) != 0) {
                gl_eprintf("--failure-threshold: `%s` is not one of error, warning, info, "
                           "style, none", optarg);
                rc = 2;
            }
            from_option(cfg, GL_SET_FAILURE_THRESHOLD, "--failure-threshold");
            break;
        case OPT_DRIVER:
            rc = parse_driver(cfg, optarg);
            from_option(cfg, GL_SET_DRIVER, "--driver");
            break;
        case OPT_GPU:
            rc = add_gpu(cfg, optarg);
            from_option(cfg, GL_SET_GPU, "--gpu");
            break;
        case OPT_IGNORE:
            rc = add_ids(cfg, &cfg->ignore, &cfg->nignore, "--ignore", optarg);
            from_option(cfg, GL_SET_IGNORE, "--ignore");
            break;
        case OPT_ENABLE:
            rc = add_ids(cfg, &cfg->enable, &cfg->nenable, "--enable", optarg);
            from_option(cfg, GL_SET_ENABLE, "--enable");
            break;
        case 't': {
            const struct gl_input_type *t = gl_input_type_named(optarg);
            if (!t) {
                gl_eprintf("--type: unknown type `%s` (%s)", optarg, gl_input_type_names());
                rc = 2;
            } else {
                cfg->type = t->kind;
            }
            break;
        }
        case OPT_BUILD_ARG:
            rc = add_build_arg(cfg, optarg);
            from_option(cfg, GL_SET_BUILD_ARGS, "--build-arg");
            break;
        case OPT_TARGET: cfg->target = optarg; break;
        case 'j': {
            char *end;
            long n = strtol(optarg, &end, 10);
            if (*end || n < 1 || n > 1024) {
                gl_eprintf("--jobs: `%s` is not a number from 1 to 1024", optarg);
                rc = 2;
            }
            cfg->jobs = (int)n;
            break;
        }
        case OPT_NO_COLOR: cfg->color = false; break;
        case OPT_LIST_RULES: cli->command = GL_CMD_LIST_RULES; break;
        case OPT_EXPLAIN: cli->command = GL_CMD_EXPLAIN; cli->explain_id = optarg; break;
        case OPT_VERSION: cli->command = GL_CMD_VERSION; break;
        case OPT_CONFIG: cfg->config_file = optarg; break;
        case OPT_NO_CONFIG: cfg->no_config = true; break;
        case OPT_PLATFORM: cfg->platform = optarg; break;
        case OPT_CACHE_DIR: cfg->cache_dir = optarg; break;
        case OPT_NO_CACHE: cfg->no_cache = true; break;
        case OPT_TRUST_DIGESTS: cfg->trust_digests = true; break;
        case OPT_VERIFY_DIGESTS: cfg->verify_digests = true; break;
        case OPT_LAYERS: cfg->registry_layers = true; break;
        case OPT_INSPECT_IMAGES: cfg->inspect_images = true; break;
        case OPT_CACHE_MAX: rc = set_limit(GL_LIMIT_CACHE_SIZE, optarg, "--cache-max"); break;
        case OPT_LIMIT: rc = parse_limit(optarg); break;
        case OPT_KNOWLEDGE:
            cfg->knowledge_path = optarg;
            from_option(cfg, GL_SET_KNOWLEDGE, "--knowledge");
            break;
        case OPT_PRINT_KNOWLEDGE: cfg->print_knowledge = true; break;
        case OPT_PRINT_CONFIG: cfg->print_config = true; break;
        case OPT_HELM:
            cfg->helm = optarg;
            from_option(cfg, GL_SET_HELM, "--helm");
            break;
        case OPT_HELM_VALUES:
            gl_config_add_helm_values(cfg, optarg);
            from_option(cfg, GL_SET_HELM_VALUES, "--helm-values");
            break;
        case OPT_CREDS: cfg->creds = optarg; break;
        case OPT_IMAGES_FROM: images_from = optarg; break;
        case OPT_SHARD:
            if (gl_shard_parse(optarg, &shard_k, &shard_n) != 0) {
                gl_eprintf("--shard: `%s` is not K/N with 0 <= K < N", optarg);
                rc = 2;
            }
            break;
        case OPT_TLS_VERIFY:
            if (optarg && strcmp(optarg, "true") && strcmp(optarg, "false")) {
                gl_eprintf("--tls-verify: `%s` is neither true nor false", optarg);
                rc = 2;
            }
            cfg->tls_no_verify = optarg && !strcmp(optarg, "false");
            break;
        case OPT_CERT_DIR: cfg->cert_dir = optarg; break;
        case OPT_TIMEOUT: {
            char *end;
            double sec = strtod(optarg, &end);
            if (*end || !(sec > 0 && sec <= 3600)) {
                gl_eprintf("--timeout: `%s` is not a number of seconds from 0 to 3600", optarg);
                rc = 2;
            }
            cfg->timeout_ms = (long)(sec * 1000);
            break;
        }
        case 'h': cli->command = GL_CMD_HELP; break;
        default: rc = 2; break;
        }
    }
    if (rc) {
        if (c == '?' || c == ':')
            option_error(c, argv);
        return 2;
    }
    cli->paths = (const char **)argv + optind;
    cli->npaths = (size_t)(argc - optind);
    cli->named = cli->npaths > 0 || images_from || shard_n;
    cli->images_from = images_from;
    cli->shard_k = shard_k;
    cli->shard_n = shard_n;
    return 0;
}

int gl_cli_named_inputs(struct gl_cli *cli, struct gl_config *cfg)
{
    const char *images_from = cli->images_from;
    if (images_from) {
        const char **copy = gl_arena_alloc(&cfg->arena, (cli->npaths + 1) * sizeof *copy);
        memcpy(copy, cli->paths, cli->npaths * sizeof *copy);
        cli->paths = copy;
        int e = gl_images_from(&cfg->arena, images_from, &cli->paths, &cli->npaths);
        if (e) {
            gl_eprintf("--images-from %s: %s", images_from, strerror(e));
            return 2;
        }
    }
    if (cli->shard_n) {
        if (!images_from) { /* argv's own array is not rearranged */
            const char **copy = gl_arena_alloc(&cfg->arena, (cli->npaths + 1) * sizeof *copy);
            memcpy(copy, cli->paths, cli->npaths * sizeof *copy);
            cli->paths = copy;
        }
        cli->npaths = gl_shard_keep(cli->paths, cli->npaths, cli->shard_k, cli->shard_n);
    }
    return 0;
}

static void list_rules(FILE *out)
{
    for (size_t i = 0; i < gl_rule_count; i++) {
        const struct gl_rule *r = gl_rule_table[i];
        fprintf(out, "%s  %-38s %-8s%s %s\n", r->id, r->name, gl_severity_name(r->severity),
                r->optional ? " (optional)" : "", r->summary);
    }
}

static int explain(FILE *out, const char *id)
{
    const struct gl_rule *r = gl_rule_find(id);
    if (!r) {
        gl_eprintf("--explain: no rule `%s` (see --list-rules)", id);
        return 2;
    }
    struct gl_buf text;
    gl_buf_init(&text);
    gl_rule_doc_text(&text, r); /* the same text as docs/rules/ and SARIF help */
    fwrite(gl_buf_str(&text), 1, text.len, out);
    gl_buf_free(&text);
    return 0;
}

int gl_cli_run_command(const struct gl_cli *cli, const struct gl_config *cfg)
{
    (void)cfg;
    switch (cli->command) {
    case GL_CMD_HELP: printf(gl_cli_usage, gl_input_type_names()); return 0;
    case GL_CMD_VERSION:
        printf("gpulint %s (CUDA knowledge table of %s)\n", GPULINT_VERSION,
               gl_kb_date(gl_kb_builtin()));
        return 0;
    case GL_CMD_LIST_RULES: list_rules(stdout); return 0;
    case GL_CMD_EXPLAIN: return explain(stdout, cli->explain_id);
    case GL_CMD_LINT: break;
    }
    return 0;
}
