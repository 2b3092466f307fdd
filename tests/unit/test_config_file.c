/* SPDX-License-Identifier: Apache-2.0 */
/* test_config_file.c: .gpulint.yaml (linter/config/config_file.h): every key, every error with
 * its file:line:col, discovery upward, and the command line applied over the file. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "linter/cli/cli.h"
#include "linter/config/config_file.h"
#include "linter/config/config_print.h"
#include "linter/cli/engine.h"
#include "linter/core/rule.h"
#include "knowledge/kb.h"

static struct gl_config cfg;
static char err[1024];

static int setup(void **state)
{
    (void)state;
    gl_config_init(&cfg);
    err[0] = '\0';
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    gl_config_free(&cfg);
    return 0;
}

static int parse(const char *text)
{
    return gl_config_file_parse(&cfg, "dir/.gpulint.yaml", text, strlen(text), err, sizeof err);
}

/* The text must fail with exactly this message. */
static void assert_error(const char *text, const char *expected)
{
    gl_config_free(&cfg);
    gl_config_init(&cfg);
    assert_int_equal(parse(text), -1);
    if (strncmp(err, expected, strlen(expected)))
        fail_msg("error `%s`, expected it to start with `%s`", err, expected);
}

static void test_empty_files(void **state)
{
    (void)state;
    assert_int_equal(parse(""), 0);
    assert_int_equal(parse("# only a comment\n"), 0);
    assert_int_equal(parse("---\n"), 0);
    assert_string_equal(cfg.config_file, "dir/.gpulint.yaml");
}

static void test_driver(void **state)
{
    (void)state;
    assert_int_equal(parse("driver: R535\n"), 0);
    assert_true(cfg.driver.set);
    assert_string_equal(cfg.driver.version, "535");
    assert_true(cfg.driver.branch_only);
    assert_string_equal(cfg.driver.origin, "config dir/.gpulint.yaml");
    assert_error("driver: 535.104.05x\n", "dir/.gpulint.yaml:1:9: expected a driver version");
    assert_error("driver: [535]\n", "dir/.gpulint.yaml:1:9: expected a driver version (535, R535 "
                                    "or 535.104.05), found a list");
    assert_error("driver:\n", "dir/.gpulint.yaml:1:8: expected a driver version (535, R535 or "
                              "535.104.05), found nothing");
}

static void test_failure_threshold(void **state)
{
    (void)state;
    assert_int_equal(parse("failure-threshold: warning\n"), 0);
    assert_int_equal(cfg.failure_threshold, GL_SEV_WARNING);
    assert_error("\n\nfailure-threshold: fatal\n",
                 "dir/.gpulint.yaml:3:20: expected error, warning, info, style or none, found "
                 "`fatal`");
}

static void test_ignore_enable(void **state)
{
    (void)state;
    assert_int_equal(parse("ignore: [gl101, GL411]\nenable:\n  - GL103\n"), 0);
    assert_int_equal(cfg.nignore, 2);
    assert_string_equal(cfg.ignore[0], "GL101"); /* the rule's own spelling */
    assert_string_equal(cfg.ignore[1], "GL411");
    assert_int_equal(cfg.nenable, 1);
    assert_string_equal(cfg.enable[0], "GL103");
    assert_true(gl_config_rule_enabled(&cfg, "GL103", true));
    assert_false(gl_config_rule_enabled(&cfg, "GL411", false));
    assert_error("ignore: GL101\n", "dir/.gpulint.yaml:1:9: expected a list of rule ids, found "
                                    "a scalar");
    assert_error("enable: [[GL103]]\n", "dir/.gpulint.yaml:1:10: expected rule ids, found a list");
}

static void test_unknown_ids_are_kept_with_byte_columns(void **state)
{
    (void)state;
    /* "é" is two bytes: the column counts bytes, not characters */
    assert_int_equal(parse("ignore: [\"\xC3\xA9\", GL999]\nseverity: {GL998: info}\n"), 0);
    assert_int_equal(cfg.nignore, 0);
    assert_int_equal(cfg.nunknown_ids, 3);
    assert_string_equal(cfg.unknown_ids[1].id, "GL999");
    assert_int_equal(cfg.unknown_ids[1].loc.line, 1);
    assert_int_equal(cfg.unknown_ids[1].loc.col, 16);
    assert_string_equal(cfg.unknown_ids[2].id, "GL998");
    assert_int_equal(cfg.unknown_ids[2].loc.line, 2);
    assert_int_equal(cfg.unknown_ids[2].loc.col, 12);
}

static void test_severity(void **state)
{
    (void)state;
    assert_int_equal(parse("severity:\n  GL401: error\n  gl411: style\n"), 0);
    assert_int_equal(cfg.noverrides, 2);
    assert_int_equal(gl_config_severity(&cfg, "GL401", GL_SEV_WARNING), GL_SEV_ERROR);
    assert_int_equal(gl_config_severity(&cfg, "GL411", GL_SEV_INFO), GL_SEV_STYLE);
    assert_error("severity:\n  GL401: fatal\n", "dir/.gpulint.yaml:2:10: expected error, "
                                                "warning, info or style, found `fatal`");
    assert_error("severity:\n  GL401: none\n", "dir/.gpulint.yaml:2:10: expected error");
    assert_error("severity: [GL401]\n", "dir/.gpulint.yaml:1:11: expected a mapping of rule ids "
                                        "to severities, found a list");
    assert_error("severity:\n  GL401: [error]\n", "dir/.gpulint.yaml:2:10: expected a scalar "
                                                  "value, found a list");
}

static void test_name_patterns(void **state)
{
    (void)state;
    assert_int_equal(parse("dataset-args: ['^--corpus$', '^--shards$']\n"
                           "checkpoint-args: ['^--dump$']\n"
                           "dataset-env: ['^CORPUS$']\n"
                           "checkpoint-env: []\n"),
                     0);
    assert_int_equal(gl_config_finish(&cfg), 0);
    assert_int_equal(cfg.dataset_args.n, 2);
    assert_true(gl_pattern_list_match(&cfg.dataset_args, "--shards"));
    assert_false(gl_pattern_list_match(&cfg.dataset_args, "--data-dir")); /* replaced */
    assert_true(gl_pattern_list_match(&cfg.checkpoint_args, "--dump"));
    assert_true(gl_pattern_list_match(&cfg.dataset_env, "CORPUS"));
    assert_true(cfg.checkpoint_env.set);
    assert_int_equal(cfg.checkpoint_env.n, 0); /* an empty list: no names */
    assert_false(gl_pattern_list_match(&cfg.checkpoint_env, "OUTPUT_DIR"));
    assert_error("dataset-args:\n  - '^--ok$'\n  - '(--unclosed'\n",
                 "dir/.gpulint.yaml:3:5: expected a PCRE2 pattern, `(--unclosed` is invalid at "
                 "offset 11: missing closing parenthesis");
    assert_error("checkpoint-env: {a: b}\n", "dir/.gpulint.yaml:1:17: expected a list of "
                                             "patterns, found a mapping");
}

static void test_defaults_when_unset(void **state)
{
    (void)state;
    assert_int_equal(parse("driver: 550\n"), 0);
    assert_int_equal(gl_config_finish(&cfg), 0);
    assert_true(gl_pattern_list_match(&cfg.dataset_args, "--data-dir"));
    assert_true(gl_pattern_list_match(&cfg.checkpoint_args, "--output-dir"));
    assert_true(gl_pattern_list_match(&cfg.dataset_env, "DATA_DIR"));
    assert_true(gl_pattern_list_match(&cfg.checkpoint_env, "CHECKPOINT_DIR"));
}

static void test_data_paths(void **state)
{
    (void)state;
    assert_int_equal(parse("data-paths: '\\.bin$'\n"), 0);
    assert_int_equal(gl_config_finish(&cfg), 0);
    assert_true(gl_pattern_match(cfg.data_path, "w/model.bin", 11));
    assert_false(gl_pattern_match(cfg.data_path, "data/x", 6)); /* the default is replaced */
    gl_config_free(&cfg);
    gl_config_init(&cfg);
    assert_int_equal(parse("data-paths: ['\\.bin$', '^corpus/']\n"), 0);
    assert_true(gl_pattern_match(cfg.data_path, "corpus/a", 8));
    assert_true(gl_pattern_match(cfg.data_path, "x.bin", 5));
    assert_false(gl_pattern_match(cfg.data_path, "x.txt", 5));
    gl_config_free(&cfg);
    gl_config_init(&cfg);
    assert_int_equal(parse("data-paths: []\n"), 0);
    assert_false(gl_pattern_match(cfg.data_path, "data/x", 6));
    assert_error("data-paths: '*.ckpt'\n", "dir/.gpulint.yaml:1:13: expected a PCRE2 pattern");
}

static void test_knowledge_and_build_args(void **state)
{
    (void)state;
    assert_int_equal(parse("knowledge: kb/cuda.yaml\nbuild-args:\n  CUDA: \"12.4.1\"\n"
                           "  BASE: ubuntu\n"),
                     0);
    assert_string_equal(cfg.knowledge_path, "dir/kb/cuda.yaml");
    assert_int_equal(cfg.nbuild_args, 2);
    assert_string_equal(cfg.build_args[0].key, "CUDA");
    assert_string_equal(cfg.build_args[0].value, "12.4.1");
    gl_config_free(&cfg);
    gl_config_init(&cfg);
    assert_int_equal(parse("knowledge: /etc/cuda.yaml\n"), 0);
    assert_string_equal(cfg.knowledge_path, "/etc/cuda.yaml");
    assert_error("knowledge: {}\n", "dir/.gpulint.yaml:1:12: expected a file path, found a "
                                    "mapping");
    assert_error("build-args: [A=1]\n", "dir/.gpulint.yaml:1:13: expected a mapping of build "
                                        "argument names to values, found a list");
    assert_error("build-args:\n  A=B: 1\n", "dir/.gpulint.yaml:2:3: expected a build argument "
                                            "name, found `A=B`");
}

static void test_structure_errors(void **state)
{
    (void)state;
    assert_error("drivers: 535\n", "dir/.gpulint.yaml:1:1: unknown setting `drivers`");
    assert_error("driver: 535\ndriver: 550\n", "dir/.gpulint.yaml:2:1: setting `driver` is "
                                               "given twice");
    assert_error("- GL101\n", "dir/.gpulint.yaml:1:1: expected a mapping of settings");
    assert_error("x: &a [GL101]\nignore: *a\n", "dir/.gpulint.yaml:1:1: unknown setting `x`");
    assert_error("ignore: &a [GL101]\nenable: *a\n", "dir/.gpulint.yaml:2:9: expected a value, "
                                                     "found an alias");
    assert_error("driver: 535\n---\ndriver: 550\n", "dir/.gpulint.yaml:2:1: expected one YAML "
                                                    "document");
    assert_error("ignore: [GL101\n", "dir/.gpulint.yaml:2:1: invalid YAML: did not find "
                                     "expected ',' or ']'");
    assert_error("driver: 5\xff\n", "dir/.gpulint.yaml:1:10: invalid YAML: invalid leading "
                                    "UTF-8 octet");
    static const char nul[] = "driver: 5\0x\n";
    gl_config_free(&cfg);
    gl_config_init(&cfg);
    assert_int_equal(gl_config_file_parse(&cfg, "f", nul, sizeof nul - 1, err, sizeof err), -1);
    assert_true(strstr(err, "f:1:10: invalid YAML: control characters are not allowed") == err);
    assert_error("{a: {b: {c: [[[[", "dir/.gpulint.yaml:1:2: unknown setting `a`");
    assert_error("ignore-paths: x\n", "dir/.gpulint.yaml:1:15: expected a list of path patterns");
}

static void test_ignore_paths(void **state)
{
    (void)state;
    assert_int_equal(parse("ignore-paths:\n"
                           "  - vendor\n"
                           "  - '**/*.tar'\n"
                           "  - old.Dockerfile: [GL101, gl103]\n"
                           "  - {legacy/**: GL302}\n"),
                     0);
    const struct gl_path_ignores *pi = &cfg.path_ignores;
    assert_int_equal(pi->n, 4);
    assert_string_equal(pi->items[0].glob, "vendor");
    assert_true(pi->items[0].whole);
    assert_true(pi->items[1].whole);
    assert_false(pi->items[2].whole);
    assert_int_equal(pi->items[2].nrules, 2);
    assert_string_equal(pi->items[2].rules[1], "GL103"); /* the rule's own spelling */
    assert_string_equal(pi->items[3].glob, "legacy/**");
    assert_int_equal(pi->items[3].nrules, 1);
    /* relative to the config file's directory: dir/ below the working directory */
    assert_true(gl_path_ignored(pi, "dir/vendor"));
    assert_true(gl_path_ignored(pi, "./dir/vendor/a/Dockerfile"));
    assert_false(gl_path_ignored(pi, "vendor"));
    assert_true(gl_path_ignored(pi, "dir/x/y/image.tar"));
    assert_true(gl_path_rule_ignored(pi, "dir/old.Dockerfile", "GL101"));
    assert_false(gl_path_rule_ignored(pi, "dir/old.Dockerfile", "GL302"));
    assert_true(gl_path_rule_ignored(pi, "dir/legacy/a/Dockerfile", "GL302"));

    gl_config_free(&cfg);
    gl_config_init(&cfg);
    assert_int_equal(parse("ignore-paths:\n  svc/*.yaml: [GL410, GL999]\n  '**': GL998\n"), 0);
    assert_int_equal(cfg.path_ignores.n, 2);
    assert_int_equal(cfg.path_ignores.items[0].nrules, 1);
    assert_int_equal(cfg.path_ignores.items[1].nrules, 0); /* drops nothing */
    assert_int_equal(cfg.nunknown_ids, 2);                  /* GL902 for each */
    assert_string_equal(cfg.unknown_ids[0].id, "GL999");
    assert_int_equal(cfg.unknown_ids[0].loc.line, 2);
    assert_int_equal(cfg.unknown_ids[0].loc.col, 23);
    assert_false(gl_path_ignored(&cfg.path_ignores, "dir/x"));

    assert_error("ignore-paths:\n  - 'x/[ab'\n", "dir/.gpulint.yaml:2:5: expected a `]` closing "
                                                 "the `[` set in the path pattern `x/[ab` (at "
                                                 "byte 3)");
    assert_error("ignore-paths: ['']\n", "dir/.gpulint.yaml:1:16: expected a path pattern, "
                                         "found nothing");
    assert_error("ignore-paths:\n  -\n", "dir/.gpulint.yaml:2:4: expected a path pattern or "
                                         "`pattern: [rule ids]`, found nothing");
    assert_error("ignore-paths:\n  - [a]\n", "dir/.gpulint.yaml:2:5: expected a path pattern or "
                                            "`pattern: [rule ids]`, found a list");
    assert_error("ignore-paths:\n  a:\n", "dir/.gpulint.yaml:2:5: expected a list of rule ids, "
                                          "found nothing");
    assert_error("ignore-paths:\n  a: {GL101: x}\n", "dir/.gpulint.yaml:2:6: expected a list of "
                                                    "rule ids, found a mapping");
    assert_error("ignore-paths:\n  [a]: [GL101]\n", "dir/.gpulint.yaml:2:3: expected a path "
                                                    "pattern, found a list");
    assert_error("ignore-paths:\n", "dir/.gpulint.yaml:1:14: expected a list of path patterns (or "
                                    "a mapping of path patterns to rule ids), found nothing");
}

static void test_sizes(void **state)
{
    (void)state;
    assert_int_equal(cfg.data_file_bytes, 100u << 20); /* the defaults */
    assert_int_equal(cfg.data_total_bytes, 1u << 30);
    assert_int_equal(parse("data-file-size: 500MB\ndata-total-size: 2GiB\n"), 0);
    assert_int_equal(cfg.data_file_bytes, 500000000u);
    assert_int_equal(cfg.data_total_bytes, (uint64_t)2 << 30);
    static const struct {
        const char *text;
        uint64_t bytes;
    } ok[] = {{"1048576", 1048576}, {"100MiB", 100u << 20}, {"64 KiB", 64 << 10},
              {"1gib", 1u << 30},   {"3B", 3},              {"2TiB", (uint64_t)2 << 40},
              {"7k", 7000}};
    for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++) {
        char text[64];
        snprintf(text, sizeof text, "data-file-size: %s\n", ok[i].text);
        gl_config_free(&cfg);
        gl_config_init(&cfg);
        assert_int_equal(parse(text), 0);
        assert_int_equal(cfg.data_file_bytes, ok[i].bytes);
    }
    assert_error("data-file-size: 100 MiBs\n", "dir/.gpulint.yaml:1:17: expected a size of at "
                                               "least 1 byte (100MiB, 1GiB, 500MB or a number of "
                                               "bytes), found `100 MiBs`");
    assert_error("\ndata-total-size: 0\n", "dir/.gpulint.yaml:2:18: expected a size of at least 1");
    assert_error("data-total-size: -5\n", "dir/.gpulint.yaml:1:18: expected a size");
    assert_error("data-total-size: 1.5GiB\n", "dir/.gpulint.yaml:1:18: expected a size");
    assert_error("data-total-size: 99999999999999999999\n", "dir/.gpulint.yaml:1:18: expected a size");
    assert_error("data-total-size: 20000000TiB\n", "dir/.gpulint.yaml:1:18: expected a size");
    assert_error("data-file-size: [1]\n", "dir/.gpulint.yaml:1:17: expected a size (100MiB, 1GiB, "
                                          "500MB or bytes), found a list");
}

static void test_origins(void **state)
{
    (void)state;
    assert_int_equal(parse("# a comment\ndriver: 535\nignore: [GL101]\ndata-file-size: 1MiB\n"),
                     0);
    assert_string_equal(cfg.origin[GL_SET_DRIVER], "dir/.gpulint.yaml:2");
    assert_string_equal(cfg.origin[GL_SET_DATA_FILE_SIZE], "dir/.gpulint.yaml:4");
    assert_null(cfg.origin[GL_SET_FAILURE_THRESHOLD]);
    char *argv[] = {"gpulint", "--driver", "550", "--ignore", "GL102", "--ignore", "gl103",
                    "--failure-threshold", "info", "--build-arg", "A=1", NULL};
    struct gl_cli cli;
    assert_int_equal(gl_cli_parse(11, argv, &cfg, &cli), 0);
    assert_string_equal(cfg.origin[GL_SET_DRIVER], "command line (--driver)");
    assert_string_equal(cfg.origin[GL_SET_IGNORE], "dir/.gpulint.yaml:3, command line (--ignore)");
    assert_string_equal(cfg.origin[GL_SET_FAILURE_THRESHOLD], "command line (--failure-threshold)");
    assert_string_equal(cfg.origin[GL_SET_BUILD_ARGS], "command line (--build-arg)");
    assert_string_equal(cfg.ignore[2], "GL103"); /* the rule's own spelling */
}

/* --print-config's text for cfg. */
static char *printed(const struct gl_config *c)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    assert_non_null(f);
    gl_config_print(f, c);
    fclose(f);
    return text;
}

/* The text without comments (the origins) and blank lines. */
static void strip_comments(char *text)
{
    char *out = text;
    for (char *line = text; *line;) {
        char *end = strchr(line, '\n');
        size_t n = end ? (size_t)(end - line) : strlen(line);
        char *hash = strstr(line, "  #");
        if (hash && hash < line + n)
            n = (size_t)(hash - line);
        if (n && line[0] != '#') {
            memmove(out, line, n);
            out += n;
            *out++ = '\n';
        }
        line += (end ? (size_t)(end - line) + 1 : strlen(line));
    }
    *out = '\0';
}

static void test_print_config_round_trip(void **state)
{
    (void)state;
    const char *text = "driver: R535\n"
                       "ignore: [GL101]\n"
                       "severity: {GL401: error}\n"
                       "ignore-paths:\n"
                       "  - vendor\n"
                       "  - \"it's/*.yaml\": [GL410]\n"
                       "data-paths: ['\\.bin$', \"tab\\there\"]\n"
                       "data-total-size: 3000000\n"
                       "checkpoint-env: []\n"
                       "build-args: {CUDA: '12.4.1'}\n";
    assert_int_equal(parse(text), 0);
    char *argv[] = {"gpulint", "--enable", "GL103", "--failure-threshold", "warning", NULL};
    struct gl_cli cli;
    assert_int_equal(gl_cli_parse(5, argv, &cfg, &cli), 0);
    assert_int_equal(gl_config_finish(&cfg), 0);
    char *first = printed(&cfg);
    /* every setting, with its origin */
    static const char *const expected_lines[] = {
        "driver: 'R535'  # dir/.gpulint.yaml:1\n",
        "failure-threshold: warning  # command line (--failure-threshold)\n",
        "ignore:  # dir/.gpulint.yaml:2\n  - GL101\n",
        "enable:  # command line (--enable)\n  - GL103\n",
        "severity:  # dir/.gpulint.yaml:3\n  GL401: error\n",
        "ignore-paths:  # dir/.gpulint.yaml:4\n  - 'vendor'\n  - 'it''s/*.yaml': [GL410]\n",
        "data-paths:  # dir/.gpulint.yaml:7\n  - '\\.bin$'\n  - \"tab\\x09here\"\n",
        "data-file-size: 100MiB  # default\n",
        "data-total-size: 3000000  # dir/.gpulint.yaml:8\n",
        "dataset-args:  # default\n  - '^--?(data|",
        "checkpoint-env: []  # dir/.gpulint.yaml:9\n",
        "# knowledge:  # default: the built-in CUDA knowledge table\n",
        "build-args:  # dir/.gpulint.yaml:10\n  'CUDA': '12.4.1'\n",
    };
    for (size_t i = 0; i < sizeof expected_lines / sizeof expected_lines[0]; i++)
        if (!strstr(first, expected_lines[i]))
            fail_msg("--print-config lacks `%s`:\n%s", expected_lines[i], first);

    /* read back: the same settings */
    struct gl_config again;
    gl_config_init(&again);
    assert_int_equal(gl_config_file_parse(&again, "dir/printed.yaml", first, strlen(first), err,
                                          sizeof err),
                     0);
    assert_int_equal(gl_config_finish(&again), 0);
    char *second = printed(&again);
    assert_non_null(strstr(second, "failure-threshold: warning  # dir/printed.yaml:"));
    strip_comments(first);
    strip_comments(second);
    assert_string_equal(first, second);
    assert_true(gl_pattern_match(again.data_path, "tab\there", 8));
    free(first);
    free(second);
    gl_config_free(&again);
}

static void test_print_config_defaults_read_back(void **state)
{
    (void)state;
    assert_int_equal(gl_config_finish(&cfg), 0);
    char *text = printed(&cfg);
    assert_non_null(strstr(text, "# driver:  # default: none"));
    struct gl_config again;
    gl_config_init(&again);
    assert_int_equal(gl_config_file_parse(&again, "p.yaml", text, strlen(text), err, sizeof err), 0);
    assert_int_equal(gl_config_finish(&again), 0);
    assert_true(gl_pattern_match(again.data_path, "data/x", 6));
    assert_true(gl_pattern_list_match(&again.dataset_args, "--data-dir"));
    assert_int_equal(again.data_total_bytes, 1u << 30);
    free(text);
    gl_config_free(&again);
}

/* Findings of one Dockerfile linted with cfg: does rule `id` fire? */
static bool fires(const char *id, const char *dockerfile)
{
    cfg.kb = gl_kb_builtin();
    struct gl_run run;
    gl_run_init(&run, &cfg);
    gl_lint_buffer(&run, "Dockerfile", dockerfile, strlen(dockerfile), GL_IN_DOCKERFILE, true);
    bool found = false;
    for (size_t i = 0; i < run.findings.n; i++)
        if (!strcmp(run.findings.items[i].rule->id, id))
            found = true;
    gl_run_free(&run);
    return found;
}

static void test_enable_optional_rule(void **state)
{
    (void)state;
    const char *df = "FROM nvidia/cuda:12.4.1-runtime-ubuntu22.04\n";
    assert_int_equal(gl_config_finish(&cfg), 0);
    assert_false(fires("GL103", df)); /* optional: off by default */
    gl_config_free(&cfg);
    gl_config_init(&cfg);
    assert_int_equal(parse("enable: [GL103]\n"), 0);
    assert_int_equal(gl_config_finish(&cfg), 0);
    assert_true(fires("GL103", df));
    gl_config_free(&cfg);
    gl_config_init(&cfg);
    assert_int_equal(parse("enable: [GL103]\nignore-paths: {Dockerfile: [GL103]}\n"), 0);
    assert_int_equal(gl_config_finish(&cfg), 0);
    /* the glob is relative to the config file's directory, dir/: ./Dockerfile is not in it */
    assert_true(fires("GL103", df));
    gl_config_free(&cfg);
    gl_config_init(&cfg);
    const char *here = "enable: [GL103]\nignore-paths: {Dockerfile: GL103}\n";
    assert_int_equal(gl_config_file_parse(&cfg, ".gpulint.yaml", here, strlen(here), err,
                                          sizeof err),
                     0); /* in the working directory: the glob names ./Dockerfile */
    assert_int_equal(gl_config_finish(&cfg), 0);
    assert_false(fires("GL103", df));
}

static void test_deep_nesting_is_linear(void **state)
{
    (void)state;
    size_t n = 1 << 20;
    char *text = malloc(n + 16);
    memcpy(text, "ignore: ", 8);
    memset(text + 8, '[', n);
    text[8 + n] = '\0';
    assert_error(text, "dir/.gpulint.yaml:1:10: expected rule ids, found a list");
    free(text);
}

static void test_find_upward(void **state)
{
    (void)state;
    char root[] = "/tmp/gl_cfgfind_XXXXXX";
    assert_non_null(mkdtemp(root));
    char sub[128], file[128];
    snprintf(sub, sizeof sub, "%s/a/b", root);
    snprintf(file, sizeof file, "%s/.gpulint.yaml", root);
    char a[128];
    snprintf(a, sizeof a, "%s/a", root);
    assert_int_equal(mkdir(a, 0700), 0);
    assert_int_equal(mkdir(sub, 0700), 0);
    FILE *f = fopen(file, "w");
    assert_non_null(f);
    fputs("driver: 535\n", f);
    fclose(f);
    char *found = gl_config_file_find(sub);
    assert_non_null(found);
    assert_string_equal(found, file);
    free(found);
    strcat(sub, "///");
    found = gl_config_file_find(sub);
    assert_string_equal(found, file);
    free(found);
    unlink(file);
    found = gl_config_file_find(sub);
    /* nothing in the tree (a .gpulint.yaml in /tmp or / would be found: none is expected) */
    if (found)
        assert_true(strncmp(found, root, strlen(root)) != 0);
    free(found);
    rmdir(sub);
    rmdir(a);
    rmdir(root);
}

static void test_command_line_wins(void **state)
{
    (void)state;
    assert_int_equal(parse("driver: 535\nfailure-threshold: info\nignore: [GL101]\n"), 0);
    char *argv[] = {"gpulint", "--driver", "550", "--failure-threshold", "error", "--ignore",
                    "GL102", "x", NULL};
    struct gl_cli cli;
    assert_int_equal(gl_cli_parse(8, argv, &cfg, &cli), 0);
    assert_string_equal(cfg.driver.version, "550");
    assert_string_equal(cfg.driver.origin, "--driver");
    assert_int_equal(cfg.failure_threshold, GL_SEV_ERROR);
    assert_int_equal(cfg.nignore, 2); /* lists add up */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_empty_files, setup, teardown),
        cmocka_unit_test_setup_teardown(test_driver, setup, teardown),
        cmocka_unit_test_setup_teardown(test_failure_threshold, setup, teardown),
        cmocka_unit_test_setup_teardown(test_ignore_enable, setup, teardown),
        cmocka_unit_test_setup_teardown(test_unknown_ids_are_kept_with_byte_columns, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_severity, setup, teardown),
        cmocka_unit_test_setup_teardown(test_name_patterns, setup, teardown),
        cmocka_unit_test_setup_teardown(test_defaults_when_unset, setup, teardown),
        cmocka_unit_test_setup_teardown(test_data_paths, setup, teardown),
        cmocka_unit_test_setup_teardown(test_knowledge_and_build_args, setup, teardown),
        cmocka_unit_test_setup_teardown(test_structure_errors, setup, teardown),
        cmocka_unit_test_setup_teardown(test_deep_nesting_is_linear, setup, teardown),
        cmocka_unit_test_setup_teardown(test_find_upward, setup, teardown),
        cmocka_unit_test_setup_teardown(test_command_line_wins, setup, teardown),
        cmocka_unit_test_setup_teardown(test_ignore_paths, setup, teardown),
        cmocka_unit_test_setup_teardown(test_sizes, setup, teardown),
        cmocka_unit_test_setup_teardown(test_origins, setup, teardown),
        cmocka_unit_test_setup_teardown(test_print_config_round_trip, setup, teardown),
        cmocka_unit_test_setup_teardown(test_print_config_defaults_read_back, setup, teardown),
        cmocka_unit_test_setup_teardown(test_enable_optional_rule, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
