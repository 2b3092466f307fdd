/* SPDX-License-Identifier: Apache-2.0 */
/*
 * config.h: the configuration a run uses, merged from defaults, the config file and the
 * command line (later sources win).
 *
 * Rules read it through gl_check.cfg; only linter/ writes it.
 */
#ifndef GPULINT_CONFIG_H
#define GPULINT_CONFIG_H

#include "linter/core/finding.h"
#include "linter/core/model.h"
#include "linter/core/path_ignore.h"
#include "linter/core/pattern.h"

struct gl_kb;

/* A `--build-arg K=V` (or a config list entry). */
struct gl_kv {
    const char *key, *value;
};

/* The target driver given by --driver or the config file (set and resolved by
 * knowledge/driver_target.h, which knows driver versions). */
struct gl_driver_target {
    bool set;
    const char *text;        /* as given: "535", "R535", "535.104.05", "host" */
    const char *version;     /* the version compared: "535" for a branch, "535.104.05" */
    bool branch_only;        /* only a branch was given (R535): its first release is assumed */
    const char *origin;      /* "--driver", "host (/proc/driver/nvidia/version)", ... */
};

/* The target GPUs given by --gpu (repeatable) or the config's `gpu:` list (read and
 * resolved by knowledge/gpu_target.h, which knows GPU names). `names` are as given; after
 * resolution `sms` holds each distinct compute capability they mean, in the order given:
 * the architecture rules (GL208-GL210) judge every one of them. */
#define GL_GPU_TARGETS_MAX 64
struct gl_gpu_target_sm {
    unsigned sm;             /* SM number: 90 for compute capability 9.0 */
    const char *name;        /* the name that asked for it, as given: "H100", "sm_90", "host" */
    const char *family;      /* the knowledge table's family: "Hopper"; NULL if none */
};
struct gl_gpu_targets {
    const char **names;      size_t nnames, capnames;
    struct gl_gpu_target_sm sms[GL_GPU_TARGETS_MAX];
    size_t nsms;             /* 0: no target GPU (the architecture rules are inactive) */
};

/* A list of PCRE2 patterns (config `dataset-args:` and friends). `set` once the list
 * was given (an empty list then means "none"); gl_config_finish puts the default into
 * an unset list. A name matches when any pattern matches it (unanchored search: the
 * defaults carry their own anchors).
 *
 * A configured pattern is compiled when the config file is read. A default is put in as
 * its source and read at once: a plain set of names, `^(A|B|...)$` or `^--?(A|B|...)$`
 * with names of letters, digits, `_` and `-` (every default's form), is matched as that
 * set (its names, after one or two dashes for the second form, then the end or a last
 * newline, as PCRE2's `$` has it) and never compiled; another form is compiled then.
 * Compiling and matching the four defaults with PCRE2 cost more than linting a launch
 * file. Matching only reads a list (inputs are linted on several threads). */
struct gl_name_set;
struct gl_pattern_list {
    bool set;
    const char **sources;
    struct gl_pattern **items;  /* NULL: sources[i] is a set of names (or did not compile) */
    struct gl_name_set **names; /* sources[i] read as a name set; NULL: a pattern given
                                   compiled */
    size_t n;
};

/* Append a compiled pattern (owned by the list from now on; `source` is kept as given),
 * or with p NULL the source alone, read as a set of names or else compiled. */
void gl_pattern_list_add(struct gl_arena *a, struct gl_pattern_list *l, const char *source,
                         struct gl_pattern *p);
/* Does any pattern of the list match `s`? (Only reads the list: any thread.) */
bool gl_pattern_list_match(const struct gl_pattern_list *l, const char *s);
/* Free what the list owns (its compiled patterns and name sets; not its arena arrays). */
void gl_pattern_list_free(struct gl_pattern_list *l);

struct gl_config_unknown_id {
    const char *id;
    struct gl_loc loc;           /* in cfg->config_file */
};

struct gl_rule_override {
    const char *id;
    enum gl_severity severity;
};

/* The settings a config file can give, in the order --print-config prints them; their
 * names (gl_setting_names) are the config file's keys. */
enum gl_setting {
    GL_SET_DRIVER, GL_SET_GPU, GL_SET_FAILURE_THRESHOLD, GL_SET_IGNORE, GL_SET_ENABLE, GL_SET_SEVERITY,
    GL_SET_IGNORE_PATHS, GL_SET_DATA_PATHS, GL_SET_DATA_FILE_SIZE, GL_SET_DATA_TOTAL_SIZE,
    GL_SET_WASTE_SIZE,    GL_SET_DATASET_ARGS, GL_SET_CHECKPOINT_ARGS, GL_SET_DATASET_ENV, GL_SET_CHECKPOINT_ENV,
    GL_SET_KNOWLEDGE, GL_SET_BUILD_ARGS, GL_SET_HELM, GL_SET_HELM_VALUES, GL_SET_LIMITS,
    GL_SET_COUNT
};
extern const char *const gl_setting_names[GL_SET_COUNT];

enum gl_format { GL_FMT_TTY, GL_FMT_JSON, GL_FMT_SARIF, GL_FMT_CHECKSTYLE, GL_FMT_GITLAB };

struct gl_config {
    enum gl_severity failure_threshold;
    enum gl_format format;
    const char *output;      /* --output FILE, NULL for stdout */
    bool color;              /* tty colour: a terminal, no NO_COLOR, not CI */
    enum gl_input_kind type; /* --type: how to read named files and stdin; 0 = sniff */
    int jobs;

    const char **ignore;     size_t nignore;       /* --ignore / config ignore */
    const char **enable;     size_t nenable;       /* --enable / config enable */
    struct gl_rule_override *overrides; size_t noverrides;

    struct gl_kv *build_args; size_t nbuild_args;  /* --build-arg */
    const char *target;      /* --target stage */

    struct gl_driver_target driver;
    struct gl_gpu_targets gpu;  /* --gpu / config `gpu:` */
    const struct gl_kb *kb;  /* the CUDA knowledge base in use */

    const char *platform;    /* --platform for image indexes; NULL = every platform */
    const char *cache_dir;
    bool no_cache;
    bool trust_digests;      /* --trust-digests: layers are not hashed, nor cached */
    bool verify_digests;     /* --verify-digests: plain (uncompressed) layers are hashed,
                                checked and cached too, not indexed by seeking */

    /* Registries (parsers/registry/): `docker://` inputs. */
    const char *creds;       /* --creds USER[:PASS]: NULL = the auth files */
    bool tls_no_verify;      /* --tls-verify=false: no certificate check, http fallback */
    const char *cert_dir;    /* --cert-dir DIR: ca.crt, client *.cert + *.key */
    bool registry_layers;    /* --layers: read the layers too, not only the configs */
    bool inspect_images;     /* --inspect-images: look up the configs of the images inputs
                                name whose CUDA the tables cannot tell */
    long timeout_ms;         /* --timeout SECONDS: per request (0 = the default, 30 s) */
    const char *only_tag;    /* oci:DIR:TAG: the images of that tag only */

    /* Compiled patterns (GL303's default is compiled on its first use). */
    struct gl_pattern *data_path;      /* GL303: dataset/weight paths copied into an image;
                                          read it with gl_config_data_path */
    bool data_path_default;            /* gl_config_finish found none set: the default */
    const char **data_path_sources;    /* the patterns data_path was joined from, as given */
    size_t ndata_path_sources;         /*   (none while data_path is the default) */
    /* GL303 on image files: one data file of at least data_file_bytes, or data files of
     * data_total_bytes in all (gl_config_init: the defaults below). */
    uint64_t data_file_bytes, data_total_bytes;
    /* GL304: bytes a later layer removes or overwrites that make a finding (`waste-size:`) */
    uint64_t waste_bytes;
    /* config `ignore-paths:`: paths not linted, or some rules' findings dropped there */
    struct gl_path_ignores path_ignores;
    /* GL4xx: names of launch arguments (`--data-dir`) and env vars (`DATA_DIR`) whose
     * values are dataset or checkpoint/output paths (see gl_pattern_list below). */
    struct gl_pattern_list dataset_args, checkpoint_args, dataset_env, checkpoint_env;

    const char *knowledge_path; /* config `knowledge:` or --knowledge: a CUDA knowledge file,
                                   NULL = built in */
    bool print_knowledge;       /* --print-knowledge: print the table in use and exit */
    bool print_config;          /* --print-config: print this configuration and exit */

    /* Helm charts (linter/cli/chart.h): the helm to run (--helm, config `helm:`; NULL:
     * the first on PATH), and values files given to `helm template -f` in order
     * (--helm-values, config `helm-values:`; they add up). */
    const char *helm;
    const char **helm_values; size_t nhelm_values, caphelm_values;

    const char *config_file;    /* the .gpulint.yaml in use (--config FILE, or the nearest
                                   one upward from the working directory), NULL when none */
    bool no_config;             /* --no-config: read no config file */
    /* Rule ids the config file names that no rule has: reported as GL902 findings. */
    struct gl_config_unknown_id *unknown_ids; size_t nunknown_ids, capunknown_ids;
    /* Where each setting's value came from, for --print-config: NULL for the default,
     * "FILE:LINE" (the key in the config file), "command line (--driver)"; settings whose
     * lists add up (ignore, enable, build-args) name every source, comma separated. */
    const char *origin[GL_SET_COUNT];

    struct gl_arena arena;   /* strings owned by the config */
};

void gl_config_init(struct gl_config *cfg);
void gl_config_free(struct gl_config *cfg);
/* After every source is merged: fill defaults (GL303's default pattern is compiled on
 * first use). 0, or -1 with a message printed (a bad pattern). */
int gl_config_finish(struct gl_config *cfg);
/* GL303's data path pattern: the configured one, or the default compiled on first use
 * (once, by whichever thread asks first); NULL before gl_config_finish. */
const struct gl_pattern *gl_config_data_path(const struct gl_config *cfg);

/* Append a --helm-values file (copied into the config's arena). */
void gl_config_add_helm_values(struct gl_config *cfg, const char *path);

/* Record where setting `s` got (part of) its value; `origin` is copied. */
void gl_config_note_origin(struct gl_config *cfg, enum gl_setting s, const char *origin);

/* GL303's default size thresholds. */
#define GL_DEFAULT_DATA_FILE_BYTES (UINT64_C(100) << 20)
#define GL_DEFAULT_DATA_TOTAL_BYTES (UINT64_C(1) << 30)
/* GL304's default threshold. */
#define GL_DEFAULT_WASTE_BYTES (UINT64_C(10) << 20)

/* Default patterns (PCRE2). */
#define GL_DEFAULT_DATA_PATH_PATTERN                                                       \
    "(^|/)(data|datasets|checkpoints)(/|$)"                                                \
    "|\\.(ckpt|pt|pth|safetensors|parquet|tfrecord|npy|h5|arrow|onnx|gguf|plan|engine)$"

/* Default launch path names, matched against an argument name as written (`--data_dir`)
 * and with `_` and `-` swapped, so each spelling is covered. */
#define GL_DEFAULT_DATASET_ARGS                                                            \
    "^--?(data|data-dir|data-path|data-root|dataset|dataset-dir|dataset-path|train-dir|"   \
    "train-data|train-data-dir|val-dir|eval-dir)$"
#define GL_DEFAULT_CHECKPOINT_ARGS                                                         \
    "^--?(out|output|out-dir|output-dir|output-path|save-dir|save-path|checkpoint-dir|"    \
    "checkpoints-dir|ckpt|ckpt-dir|logdir|log-dir|model-dir|results-dir)$"
#define GL_DEFAULT_DATASET_ENV "^(DATA_DIR|DATASET_DIR|DATA_PATH|DATASET_PATH|DATA_ROOT)$"
#define GL_DEFAULT_CHECKPOINT_ENV                                                          \
    "^(CHECKPOINT_DIR|CKPT_DIR|OUTPUT_DIR|OUT_DIR|SAVE_DIR|RESULTS_DIR)$"

/* Is the rule on for this run (optional rules need --enable; --ignore turns any off)? */
bool gl_config_rule_enabled(const struct gl_config *cfg, const char *id, bool optional);
/* The rule's severity after config overrides (`sev` is what the rule chose). */
enum gl_severity gl_config_severity(const struct gl_config *cfg, const char *id,
                                    enum gl_severity sev);

#endif
