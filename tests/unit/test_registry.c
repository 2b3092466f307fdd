/* SPDX-License-Identifier: Apache-2.0 */
/* test_registry.c: the registry reader's pieces that need no network:
 * WWW-Authenticate challenges (registry_auth.h), base64 and the auth files
 * (registry_creds.h), --shard (linter/cli/shard.h). The HTTP paths are tested end to end
 * by tests/registry.sh against the real distribution registry. */
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

#include "linter/cli/shard.h"
#include "parsers/registry/registry_auth.h"
#include "parsers/registry/registry_creds.h"

static void test_challenges(void **state)
{
    (void)state;
    struct gl_arena a;
    gl_arena_init(&a);
    struct gl_reg_challenge c;
    /* Docker Hub's own challenge */
    assert_int_equal(gl_reg_challenge_parse(&a, "Bearer realm=\"https://auth.docker.io/token\","
                                                "service=\"registry.docker.io\","
                                                "scope=\"repository:library/ubuntu:pull\"",
                                            &c), 0);
    assert_string_equal(c.scheme, "Bearer");
    assert_string_equal(c.realm, "https://auth.docker.io/token");
    assert_string_equal(c.service, "registry.docker.io");
    assert_string_equal(c.scope, "repository:library/ubuntu:pull");
    /* token values, blanks, escapes, unknown parameters, case of the names */
    assert_int_equal(gl_reg_challenge_parse(&a, "  Basic  Realm=x ,  charset=\"UTF-8\", "
                                                "service=\"a\\\"b\"", &c), 0);
    assert_string_equal(c.scheme, "Basic");
    assert_string_equal(c.realm, "x");
    assert_string_equal(c.service, "a\"b");
    assert_null(c.scope);
    /* no scheme; an unterminated quote ends the header */
    assert_int_equal(gl_reg_challenge_parse(&a, "   ", &c), -1);
    assert_int_equal(gl_reg_challenge_parse(&a, "Bearer realm=\"http://x", &c), 0);
    assert_string_equal(c.realm, "http://x");
    gl_arena_free(&a);
}

static void test_base64(void **state)
{
    (void)state;
    struct gl_arena a;
    gl_arena_init(&a);
    const char *in[] = {"", "a", "ab", "abc", "alice:S3cret:with:colons", "\xff\xfe"};
    const char *out[] = {"", "YQ==", "YWI=", "YWJj", "YWxpY2U6UzNjcmV0OndpdGg6Y29sb25z", "//4="};
    for (size_t i = 0; i < sizeof in / sizeof in[0]; i++) {
        assert_string_equal(gl_base64_encode(&a, in[i], strlen(in[i])), out[i]);
        assert_string_equal(gl_base64_decode(&a, out[i]), in[i]);
    }
    assert_null(gl_base64_decode(&a, "no*base64"));
    gl_arena_free(&a);
}

static int mkdir_p_for_test(const char *dir) { return mkdir(dir, 0700); }

/* Write text to dir/name; the path. */
static const char *write_file(struct gl_arena *a, const char *dir, const char *name,
                              const char *text)
{
    const char *p = gl_arena_printf(a, "%s/%s", dir, name);
    FILE *f = fopen(p, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
    return p;
}

static void test_auth_files(void **state)
{
    (void)state;
    struct gl_arena a;
    gl_arena_init(&a);
    char dir[] = "/tmp/gpulint-creds.XXXXXX";
    assert_non_null(mkdtemp(dir));
    /* YWxpY2U6cHc= is alice:pw, Ym9iOnB3Mg== bob:pw2 */
    const char *f = write_file(&a, dir, "auth.json",
                               "{\"auths\":{\"reg.example/team\":{\"auth\":\"Ym9iOnB3Mg==\"},"
                               "\"reg.example\":{\"auth\":\"YWxpY2U6cHc=\"},"
                               "\"https://index.docker.io/v1/\":{\"username\":\"hub\","
                               "\"password\":\"hubpw\"}},"
                               "\"credHelpers\":{\"helped.example\":\"ecr-login\"}}");
    setenv("REGISTRY_AUTH_FILE", f, 1);
    setenv("HOME", dir, 1);
    unsetenv("DOCKER_CONFIG");
    struct gl_reg_creds c;
    gl_reg_creds_find(&a, NULL, "reg.example", "team/app", &c); /* most specific key */
    assert_string_equal(c.user, "bob");
    assert_string_equal(c.pass, "pw2");
    assert_string_equal(c.source, f);
    gl_reg_creds_find(&a, NULL, "reg.example", "other/app", &c);
    assert_string_equal(c.user, "alice");
    gl_reg_creds_find(&a, NULL, "docker.io", "library/ubuntu", &c); /* Docker Hub's key */
    assert_string_equal(c.user, "hub");
    assert_string_equal(c.pass, "hubpw");
    gl_reg_creds_find(&a, NULL, "helped.example", "x", &c);
    assert_null(c.user);
    assert_non_null(strstr(c.helper_note, "credential helper"));
    gl_reg_creds_find(&a, "carol:p:w", "reg.example", "team/app", &c); /* --creds wins */
    assert_string_equal(c.user, "carol");
    assert_string_equal(c.pass, "p:w");
    assert_string_equal(c.source, "--creds");
    gl_reg_creds_find(&a, "dave", "reg.example", "x", &c);
    assert_string_equal(c.pass, "");
    /* a broken file is no credentials, not a crash; ~/.docker/config.json is next */
    write_file(&a, dir, "auth.json", "{\"auths\":");
    char *docker = gl_arena_printf(&a, "%s/.docker", dir);
    assert_int_equal(mkdir_p_for_test(docker), 0);
    write_file(&a, docker, "config.json", "{\"auths\":{\"https://reg.example\":"
                                          "{\"auth\":\"YWxpY2U6cHc=\"}}}");
    gl_reg_creds_find(&a, NULL, "reg.example", "x", &c);
    assert_string_equal(c.user, "alice");
    assert_non_null(strstr(c.source, ".docker/config.json"));
    unsetenv("REGISTRY_AUTH_FILE");
    char *cmd = gl_arena_printf(&a, "rm -rf '%s'", dir);
    assert_int_equal(system(cmd), 0);
    gl_arena_free(&a);
}

static void test_shard(void **state)
{
    (void)state;
    unsigned k, n;
    assert_int_equal(gl_shard_parse("0/1", &k, &n), 0);
    assert_int_equal(gl_shard_parse("3/4", &k, &n), 0);
    assert_int_equal(k, 3);
    assert_int_equal(n, 4);
    const char *bad[] = {"4/4", "-1/2", "1", "1/", "/2", "a/b", "0/0", "0/65537", "1/2x", ""};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        assert_int_equal(gl_shard_parse(bad[i], &k, &n), -1);
    /* every name in exactly one shard, in its order */
    const char *names[40], *copy[40];
    char buf[40][32];
    for (int i = 0; i < 40; i++) {
        snprintf(buf[i], sizeof buf[i], "docker://r/img%d:1", i);
        names[i] = buf[i];
    }
    size_t total = 0;
    for (unsigned s = 0; s < 3; s++) {
        memcpy(copy, names, sizeof names);
        size_t m = gl_shard_keep(copy, 40, s, 3);
        assert_true(m < 40);
        for (size_t j = 1; j < m; j++)
            assert_true(strcmp(copy[j - 1], copy[j]) != 0);
        total += m;
    }
    assert_int_equal(total, 40);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_challenges), cmocka_unit_test(test_base64),
        cmocka_unit_test(test_auth_files), cmocka_unit_test(test_shard),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
