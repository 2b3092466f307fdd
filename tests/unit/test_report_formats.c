/* SPDX-License-Identifier: Apache-2.0 */
/* test_report_formats.c: the machine-readable reporters on findings built by hand, so the
 * cases no input parser produces yet are covered too: image findings (line 0, platform,
 * layer, path), hostile bytes, duplicates. Also report_text.h and fingerprint.h (escape.h
 * has its own test_escape.c).
 * SARIF output is validated by Microsoft's validator when it is installed
 * (tests/lib/sarif_validator.sh), else that test is skipped. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "linter/core/escape.h"
#include "linter/report/fingerprint.h"
#include "linter/report/report.h"
#include "linter/report/report_text.h"
#include "linter/core/rule.h"

/* ---- report_text.h ---- */

static char *text_of(void (*fn)(struct gl_buf *, const char *), const char *in)
{
    struct gl_buf b;
    gl_buf_init(&b);
    fn(&b, in);
    char *s = xstrdup(gl_buf_str(&b));
    gl_buf_free(&b);
    return s;
}

static void expect_text(void (*fn)(struct gl_buf *, const char *), const char *in,
                        const char *want)
{
    char *got = text_of(fn, in);
    assert_string_equal(got, want);
    free(got);
}

#define FFFD "\xEF\xBF\xBD"

static void test_sentence_and_uri(void **state)
{
    (void)state;
    expect_text(gl_text_sentence, "no tag", "no tag.");
    expect_text(gl_text_sentence, "done.", "done.");
    expect_text(gl_text_sentence, "why?  \n", "why?");
    expect_text(gl_text_sentence, "", ".");
    expect_text(gl_text_uri, "./a dir/Docker file#1%", "a%20dir/Docker%20file%231%25");
    expect_text(gl_text_uri, "/abs/x:y", "file:///abs/x%3Ay");
    expect_text(gl_text_uri, "caf\xC3\xA9", "caf%C3%A9");
    assert_string_equal(gl_text_report_path(".//./x"), "x");
    assert_string_equal(gl_text_report_path("./"), ".");
    assert_string_equal(gl_text_report_path("../x"), "../x");
}

/* ---- findings built by hand ---- */

static void add_finding(struct gl_findings *f, const char *id, const char *file, uint32_t line,
                        uint32_t col, const char *message)
{
    struct gl_finding *x = gl_findings_add(f);
    x->rule = gl_rule_find(id);
    assert_non_null(x->rule);
    x->severity = x->rule->severity;
    x->file = xstrdup(file);
    x->loc.line = line;
    x->loc.col = col;
    x->message = xstrdup(message);
    x->fix = xstrdup("do the <right> thing & more");
}

static void add_image_finding(struct gl_findings *f)
{
    add_finding(f, "GL303", "images/train.tar", 0, 0,
                "layer sha256:abc holds `/data/w\xFF.safetensors` (2 GiB)");
    struct gl_finding *x = &f->items[f->n - 1];
    x->platform = xstrdup("linux/amd64");
    x->layer = xstrdup("sha256:abc");
    x->image_path = xstrdup("/data/w\xFF.safetensors");
}

static void test_fingerprints_ignore_lines(void **state)
{
    (void)state;
    struct gl_findings a = {0}, b = {0};
    add_finding(&a, "GL101", "./Dockerfile", 3, 6, "image `x` uses `latest` (from line 3)");
    add_finding(&a, "GL101", "Dockerfile", 9, 6, "image `x` uses `latest` (from line 3)");
    add_finding(&a, "GL101", "other/Dockerfile", 3, 6, "image `x` uses `latest` (from line 3)");
    add_finding(&b, "GL101", "Dockerfile", 13, 2, "image `x` uses `latest` (from line 13)");
    add_finding(&b, "GL101", "Dockerfile", 19, 2, "image `x` uses `latest` (from line 13)");
    add_finding(&b, "GL101", "other/Dockerfile", 30, 6, "image `x` uses `latest` (from line 3)");
    struct gl_fingerprints fa, fb;
    gl_fingerprints_compute(&a, &fa);
    gl_fingerprints_compute(&b, &fb);
    for (size_t i = 0; i < 3; i++) {
        assert_int_equal(strlen(fa.hex[i]), GL_FINGERPRINT_HEX);
        assert_string_equal(fa.hex[i], fb.hex[i]); /* moved, same finding */
    }
    assert_string_not_equal(fa.hex[0], fa.hex[1]); /* identical twins stay distinct */
    assert_string_not_equal(fa.hex[0], fa.hex[2]); /* another file */
    gl_fingerprints_free(&fa);
    gl_fingerprints_free(&fb);
    gl_findings_free(&a);
    gl_findings_free(&b);
}

/* Run a reporter over `findings` into a heap string. */
static char *render(void (*report)(FILE *, const struct gl_run *), struct gl_findings *findings)
{
    struct gl_config cfg;
    gl_config_init(&cfg);
    struct gl_run run;
    gl_run_init(&run, &cfg);
    run.findings = *findings;
    run.files = 2;
    char *text = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&text, &len);
    report(out, &run);
    fclose(out);
    memset(&run.findings, 0, sizeof run.findings); /* the caller still owns them */
    gl_run_free(&run);
    gl_config_free(&cfg);
    return text;
}

/* Every line of a report is printable as it is: no raw control byte (but the newlines
 * between lines), DEL, C1 or bidi character, no invalid UTF-8 (escape.h's own test). */
static void assert_printable(const char *text)
{
    for (const char *line = text; *line;) {
        size_t n = strcspn(line, "\n");
        char *copy = xstrndup(line, n);
        if (!gl_escape_plain(copy))
            fail_msg("a raw control, bidi or invalid byte in: %s", copy);
        free(copy);
        line += n + (line[n] == '\n');
    }
}

static void sample_findings(struct gl_findings *f)
{
    add_finding(f, "GL101", "./odd dir/Dockerfile", 2, 6, "image `nvidia/cuda` has \"no\" tag");
    f->items[0].severity = GL_SEV_ERROR; /* as GL101 reports nvidia/cuda */
    add_finding(f, "GL103", "./odd dir/Dockerfile", 2, 6, "not pinned \x01<by> digest");
    add_image_finding(f);
}

static void test_sarif_image_finding(void **state)
{
    (void)state;
    struct gl_findings f = {0};
    sample_findings(&f);
    char *text = render(gl_report_sarif, &f);
    json_object *root = json_tokener_parse(text);
    assert_non_null(root);
    json_object *results = json_object_object_get(
        json_object_array_get_idx(json_object_object_get(root, "runs"), 0), "results");
    assert_int_equal(json_object_array_length(results), 3);
    json_object *img = json_object_array_get_idx(results, 2);
    json_object *loc = json_object_array_get_idx(json_object_object_get(img, "locations"), 0);
    json_object *phys = json_object_object_get(loc, "physicalLocation");
    assert_string_equal(json_object_get_string(json_object_object_get(
                            json_object_object_get(phys, "artifactLocation"), "uri")),
                        "images/train.tar");
    assert_int_equal(json_object_get_int(json_object_object_get(
                         json_object_object_get(phys, "region"), "startLine")), 1);
    json_object *logical = json_object_array_get_idx(json_object_object_get(loc, "logicalLocations"), 0);
    assert_string_equal(json_object_get_string(json_object_object_get(logical, "fullyQualifiedName")),
                        "linux/amd64 sha256:abc /data/w" FFFD ".safetensors");
    json_object *first = json_object_array_get_idx(results, 0);
    json_object *uri = json_object_object_get(json_object_object_get(
        json_object_object_get(json_object_array_get_idx(json_object_object_get(first, "locations"), 0),
                               "physicalLocation"), "artifactLocation"), "uri");
    assert_string_equal(json_object_get_string(uri), "odd%20dir/Dockerfile");
    assert_string_equal(json_object_get_string(json_object_object_get(first, "level")), "error");
    json_object_put(root);

    /* Microsoft's validator, when installed: zero errors, zero warnings */
    if (system("bash -c '. tests/lib/sarif_validator.sh && sarif_validator_find'") != 0) {
        free(text);
        gl_findings_free(&f);
        skip();
    }
    char path[] = "/tmp/gpulint-XXXXXX.sarif"; /* the validator skips other names */
    int fd = mkstemps(path, 6);
    assert_true(fd >= 0);
    assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
    close(fd);
    char cmd[256];
    snprintf(cmd, sizeof cmd,
             "bash -c '. tests/lib/sarif_validator.sh && sarif_validator_find && sarif_validate %s'",
             path);
    int rc = system(cmd);
    unlink(path);
    free(text);
    gl_findings_free(&f);
    assert_int_equal(rc, 0);
}

static void test_checkstyle_escapes_and_image_finding(void **state)
{
    (void)state;
    struct gl_findings f = {0};
    sample_findings(&f);
    char *text = render(gl_report_checkstyle, &f);
    assert_non_null(strstr(text, "<file name=\"odd dir/Dockerfile\">"));
    assert_non_null(strstr(text, "has &quot;no&quot; tag (fix: do the &lt;right&gt; thing &amp; more)"));
    assert_non_null(strstr(text, "not pinned \\x01&lt;by&gt; digest"));
    assert_non_null(strstr(text, "<file name=\"images/train.tar\">\n    <error severity=\"warning\""));
    assert_printable(text);
    free(text);
    gl_findings_free(&f);
}

static void test_gitlab_image_finding(void **state)
{
    (void)state;
    struct gl_findings f = {0};
    sample_findings(&f);
    char *text = render(gl_report_gitlab, &f);
    json_object *arr = json_tokener_parse(text);
    assert_non_null(arr);
    assert_int_equal(json_object_array_length(arr), 3);
    json_object *img = json_object_array_get_idx(arr, 2);
    json_object *loc = json_object_object_get(img, "location");
    assert_string_equal(json_object_get_string(json_object_object_get(loc, "path")), "images/train.tar");
    assert_int_equal(json_object_get_int(json_object_object_get(json_object_object_get(loc, "lines"), "begin")), 1);
    assert_string_equal(json_object_get_string(json_object_object_get(img, "severity")), "major");
    assert_string_equal(json_object_get_string(json_object_object_get(
                            json_object_array_get_idx(arr, 0), "severity")), "critical");
    assert_int_equal(strlen(json_object_get_string(json_object_object_get(img, "fingerprint"))),
                     GL_FINGERPRINT_HEX);
    json_object_put(arr);
    free(text);
    gl_findings_free(&f);
}

/* A finding whose file, message and fix hold every kind of hostile byte. */
static void hostile_findings(struct gl_findings *f)
{
    add_finding(f, "GL205", "we\x1b[31mird\rname\xE2\x80\xAE", 2, 32,
                "NVIDIA_DRIVER_CAPABILITIES=util\x1b]0;pwn\x07ity \xC2\x9B" "2J \xE2\x81\xA6\x7f\xFF\b");
}

static void tty_plain(FILE *out, const struct gl_run *run) { gl_report_tty(out, run, false); }

/* tty: every hostile byte visible as an escape. JSON: none raw in the file, and the
 * parsed strings are the exact values (invalid UTF-8 as U+FFFD). */
static void test_hostile_bytes_in_tty_and_json(void **state)
{
    (void)state;
    struct gl_findings f = {0};
    hostile_findings(&f);
    char *tty = render(tty_plain, &f), *json = render(gl_report_json, &f);
    assert_printable(tty);
    assert_non_null(strstr(tty, "we\\x1b[31mird\\x0dname\\u202e:2:32: error: "
                                "NVIDIA_DRIVER_CAPABILITIES=util\\x1b]0;pwn\\x07ity \\u009b2J "
                                "\\u2066\\x7f\\xff\\x08 [GL205 "));
    assert_printable(json);
    assert_non_null(strstr(json, "\\u009b2J \\u2066\\u007f" FFFD "\\b"));
    json_object *root = json_tokener_parse(json);
    assert_non_null(root);
    json_object *f0 = json_object_array_get_idx(json_object_object_get(root, "findings"), 0);
    assert_string_equal(json_object_get_string(json_object_object_get(f0, "file")),
                        "we\x1b[31mird\rname\xE2\x80\xAE");
    assert_string_equal(json_object_get_string(json_object_object_get(f0, "message")),
                        "NVIDIA_DRIVER_CAPABILITIES=util\x1b]0;pwn\x07ity \xC2\x9B" "2J "
                        "\xE2\x81\xA6\x7f" FFFD "\b");
    json_object_put(root);
    free(tty);
    free(json);
    gl_findings_free(&f);
}

/* tty: an image finding is at `file: platform layer <short digest> /path`, its message
 * less the words that repeat that place (only the tty leaves them out); a line-0 finding
 * with no place in the image is at `file:` alone. Never `:0:0`. */
static void test_tty_image_findings(void **state)
{
    (void)state;
    static const char said[] = " (linux/amd64, layer sha256:0123456789ab)";
    const char *msg = "the image ships the NVIDIA driver: `/usr/bin/nvidia-smi`"
                      " (linux/amd64, layer sha256:0123456789ab) and more driver files";
    struct gl_findings f = {0};
    add_finding(&f, "GL203", "./img.tar", 0, 0, msg);
    struct gl_finding *x = &f.items[0];
    x->platform = xstrdup("linux/amd64");
    x->layer = xstrdup("sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef");
    x->image_path = xstrdup("usr/bin/nvidia-smi");
    x->said_at = (size_t)(strstr(msg, said) - msg);
    x->said_len = sizeof said - 1;
    add_finding(&f, "GL900", "img.tar", 0, 0, "cannot parse: platform linux/arm64: layer `x` lacks");
    x = &f.items[1];
    x->platform = xstrdup("linux/arm64");
    x->said_at = strlen("cannot parse: ");
    x->said_len = strlen("platform linux/arm64: ");
    add_finding(&f, "GL900", "bad.tar", 0, 0, "cannot parse: not an image");
    add_image_finding(&f); /* no words to leave out: the message is whole */

    static const char *const tty_lines[] = {
        "img.tar: linux/amd64 layer sha256:0123456789ab /usr/bin/nvidia-smi: error: the image "
        "ships the NVIDIA driver: `/usr/bin/nvidia-smi` and more driver files [GL203 driver-in-image]\n",
        "\nimg.tar: linux/arm64: error: cannot parse: layer `x` lacks [GL900 ",
        "\nbad.tar: error: cannot parse: not an image [GL900 ",
        "\nimages/train.tar: linux/amd64 layer sha256:abc /data/w\\xff.safetensors: warning: "
        "layer sha256:abc holds `/data/w\\xff.safetensors` (2 GiB) [GL303 ",
    };
    /* the other reports keep the message whole (and JSON its line 0) */
    static const char *const json_parts[] = {
        "`/usr/bin/nvidia-smi` (linux/amd64, layer sha256:0123456789ab) and",
        "cannot parse: platform linux/arm64: layer",
        "\"line\": 0,",
    };
    char *tty = render(tty_plain, &f), *json = render(gl_report_json, &f);
    assert_printable(tty);
    for (size_t i = 0; i < sizeof tty_lines / sizeof *tty_lines; i++)
        if (!strstr(tty, tty_lines[i]))
            fail_msg("the tty report lacks %s in:\n%s", tty_lines[i], tty);
    assert_null(strstr(tty, ":0:"));
    for (size_t i = 0; i < sizeof json_parts / sizeof *json_parts; i++)
        if (!strstr(json, json_parts[i]))
            fail_msg("the JSON report lacks %s", json_parts[i]);
    free(tty);
    free(json);
    gl_findings_free(&f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sentence_and_uri),
        cmocka_unit_test(test_fingerprints_ignore_lines),
        cmocka_unit_test(test_sarif_image_finding),
        cmocka_unit_test(test_checkstyle_escapes_and_image_finding),
        cmocka_unit_test(test_gitlab_image_finding),
        cmocka_unit_test(test_hostile_bytes_in_tty_and_json),
        cmocka_unit_test(test_tty_image_findings),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
