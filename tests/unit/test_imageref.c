/* SPDX-License-Identifier: Apache-2.0 */
/* test_imageref.c: image reference parsing (linter/core/imageref.h).
 * Most cases come from distribution/reference's own tests (normalize_test.go,
 * reference_test.go), read through ParseNormalizedNamed; the rest are GPU references. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "linter/core/ref/docker_official.h"
#include "linter/core/ref/imageref.h"

#define HEX16 "ffffffffffffffff"
#define HEX64 HEX16 HEX16 HEX16 HEX16
#define HEX128 HEX64 HEX64
#define DBCC "dbcc1c35ac38df41fd2f5e4130b32ffdb93ebae8b3dbe638c23575912276fc9c"

struct ok_case {
    const char *in, *domain, *path, *tag, *digest, *familiar;
};

static const struct ok_case ok_cases[] = {
    /* normalize_test.go TestValidateReferenceName / TestValidateRemoteName */
    {"docker/docker", "docker.io", "docker/docker", NULL, NULL, "docker/docker"},
    {"library/debian", "docker.io", "library/debian", NULL, NULL, "debian"},
    {"debian", "docker.io", "library/debian", NULL, NULL, "debian"},
    {"docker.io/docker/docker", "docker.io", "docker/docker", NULL, NULL, "docker/docker"},
    {"docker.io/library/debian", "docker.io", "library/debian", NULL, NULL, "debian"},
    {"docker.io/debian", "docker.io", "library/debian", NULL, NULL, "debian"},
    {"index.docker.io/docker/docker", "docker.io", "docker/docker", NULL, NULL, "docker/docker"},
    {"index.docker.io/library/debian", "docker.io", "library/debian", NULL, NULL, "debian"},
    {"index.docker.io/debian", "docker.io", "library/debian", NULL, NULL, "debian"},
    {"127.0.0.1:5000/docker/docker", "127.0.0.1:5000", "docker/docker", NULL, NULL,
     "127.0.0.1:5000/docker/docker"},
    {"127.0.0.1:5000/library/debian", "127.0.0.1:5000", "library/debian", NULL, NULL,
     "127.0.0.1:5000/library/debian"},
    {"127.0.0.1:5000/debian", "127.0.0.1:5000", "debian", NULL, NULL, "127.0.0.1:5000/debian"},
    {"192.168.0.1", "docker.io", "library/192.168.0.1", NULL, NULL, "192.168.0.1"},
    {"192.168.0.1:80", "docker.io", "library/192.168.0.1", "80", NULL, "192.168.0.1"},
    {"192.168.0.1:8/debian", "192.168.0.1:8", "debian", NULL, NULL, "192.168.0.1:8/debian"},
    {"192.168.0.2:25000/debian", "192.168.0.2:25000", "debian", NULL, NULL,
     "192.168.0.2:25000/debian"},
    {"thisisthesongthatneverendsitgoesonandonandonthisisthesongthatnev", "docker.io",
     "library/thisisthesongthatneverendsitgoesonandonandonthisisthesongthatnev", NULL, NULL,
     "thisisthesongthatneverendsitgoesonandonandonthisisthesongthatnev"},
    {"[fc00::1]:5000/docker", "[fc00::1]:5000", "docker", NULL, NULL, "[fc00::1]:5000/docker"},
    {"[fc00::1]:5000/docker/docker", "[fc00::1]:5000", "docker/docker", NULL, NULL,
     "[fc00::1]:5000/docker/docker"},
    {"[fc00:1:2:3:4:5:6:7]:5000/library/debian", "[fc00:1:2:3:4:5:6:7]:5000", "library/debian",
     NULL, NULL, "[fc00:1:2:3:4:5:6:7]:5000/library/debian"},
    {"docker.io/1a3f5e7d9c1b3a5f7e9d1c3b5a7f9e1d3c5b7a9f1e3d5d7c9b1a3f5e7d9c1b3a", "docker.io",
     "library/1a3f5e7d9c1b3a5f7e9d1c3b5a7f9e1d3c5b7a9f1e3d5d7c9b1a3f5e7d9c1b3a", NULL, NULL,
     "1a3f5e7d9c1b3a5f7e9d1c3b5a7f9e1d3c5b7a9f1e3d5d7c9b1a3f5e7d9c1b3a"},
    {"Docker/docker", "Docker", "docker", NULL, NULL, "Docker/docker"},
    {"DOCKER/docker", "DOCKER", "docker", NULL, NULL, "DOCKER/docker"},
    {"UPPER/case", "UPPER", "case", NULL, NULL, "UPPER/case"}, /* uppercase => a domain */
    {"docker-rules/docker", "docker.io", "docker-rules/docker", NULL, NULL, "docker-rules/docker"},
    {"docker---rules/docker", "docker.io", "docker---rules/docker", NULL, NULL,
     "docker---rules/docker"},
    {"doc/docker", "docker.io", "doc/docker", NULL, NULL, "doc/docker"},
    {"d/docker", "docker.io", "d/docker", NULL, NULL, "d/docker"},
    {"jess/t", "docker.io", "jess/t", NULL, NULL, "jess/t"},
    {"dock__er/docker", "docker.io", "dock__er/docker", NULL, NULL, "dock__er/docker"},
    /* TestParseRepositoryInfo */
    {"fooo/bar", "docker.io", "fooo/bar", NULL, NULL, "fooo/bar"},
    {"index.docker.io/fooo/bar", "docker.io", "fooo/bar", NULL, NULL, "fooo/bar"},
    {"nonlibrary/ubuntu", "docker.io", "nonlibrary/ubuntu", NULL, NULL, "nonlibrary/ubuntu"},
    {"other/library", "docker.io", "other/library", NULL, NULL, "other/library"},
    {"127.0.0.1:8000/private/moonbase", "127.0.0.1:8000", "private/moonbase", NULL, NULL,
     "127.0.0.1:8000/private/moonbase"},
    {"example.com/privatebase", "example.com", "privatebase", NULL, NULL,
     "example.com/privatebase"},
    {"example.com:8000/private/moonbase", "example.com:8000", "private/moonbase", NULL, NULL,
     "example.com:8000/private/moonbase"},
    {"ubuntu-12.04-base", "docker.io", "library/ubuntu-12.04-base", NULL, NULL,
     "ubuntu-12.04-base"},
    {"index.docker.io/library/ubuntu-12.04-base", "docker.io", "library/ubuntu-12.04-base", NULL,
     NULL, "ubuntu-12.04-base"},
    {"library/foo/bar", "docker.io", "library/foo/bar", NULL, NULL, "library/foo/bar"},
    {"docker.io/library/foo/bar", "docker.io", "library/foo/bar", NULL, NULL, "library/foo/bar"},
    {"store/foo/bar", "docker.io", "store/foo/bar", NULL, NULL, "store/foo/bar"},
    {"Foo/bar", "Foo", "bar", NULL, NULL, "Foo/bar"},
    /* TestParseReferenceWithTagAndDigest, TestParseAnyReference */
    {"busybox:latest@sha256:86e0e091d0da6bde2456dbb48306f3956bbeb2eae1b5b9a43045843f69fe4aaa",
     "docker.io", "library/busybox", "latest",
     "sha256:86e0e091d0da6bde2456dbb48306f3956bbeb2eae1b5b9a43045843f69fe4aaa", "busybox"},
    {"redis:latest", "docker.io", "library/redis", "latest", NULL, "redis"},
    {"redis@sha256:" DBCC, "docker.io", "library/redis", NULL, "sha256:" DBCC, "redis"},
    {"dmcgowan/myapp@sha256:" DBCC, "docker.io", "dmcgowan/myapp", NULL, "sha256:" DBCC,
     "dmcgowan/myapp"},
    {"docker.io/mcgowan/myapp:latest", "docker.io", "mcgowan/myapp", "latest", NULL,
     "mcgowan/myapp"},
    {"dbcc1c35ac38df41fd2f5e4130b32ffdb93ebae8b3dbe638c23575912276fc9", "docker.io",
     "library/dbcc1c35ac38df41fd2f5e4130b32ffdb93ebae8b3dbe638c23575912276fc9", NULL, NULL,
     "dbcc1c35ac38df41fd2f5e4130b32ffdb93ebae8b3dbe638c23575912276fc9"},
    {"dbcc1", "docker.io", "library/dbcc1", NULL, NULL, "dbcc1"},
    /* TestNormalizedSplitHostname */
    {"test.com/foo", "test.com", "foo", NULL, NULL, "test.com/foo"},
    {"test_com/foo", "docker.io", "test_com/foo", NULL, NULL, "test_com/foo"},
    {"test.com:8080/foo", "test.com:8080", "foo", NULL, NULL, "test.com:8080/foo"},
    {"test-com:8080/foo", "test-com:8080", "foo", NULL, NULL, "test-com:8080/foo"},
    {"xn--n3h.com/foo", "xn--n3h.com", "foo", NULL, NULL, "xn--n3h.com/foo"},
    {"xn--n3h.com:18080/foo", "xn--n3h.com:18080", "foo", NULL, NULL, "xn--n3h.com:18080/foo"},
    /* reference_test.go TestReferenceParse, normalized */
    {"test_com", "docker.io", "library/test_com", NULL, NULL, "test_com"},
    {"test.com:tag", "docker.io", "library/test.com", "tag", NULL, "test.com"},
    {"test.com:5000", "docker.io", "library/test.com", "5000", NULL, "test.com"},
    {"test.com/repo:tag", "test.com", "repo", "tag", NULL, "test.com/repo"},
    {"test:5000/repo", "test:5000", "repo", NULL, NULL, "test:5000/repo"},
    {"test:5000/repo@sha256:" HEX64, "test:5000", "repo", NULL, "sha256:" HEX64,
     "test:5000/repo"},
    {"test:5000/repo:tag@sha256:" HEX64, "test:5000", "repo", "tag", "sha256:" HEX64,
     "test:5000/repo"},
    {"lowercase:Uppercase", "docker.io", "library/lowercase", "Uppercase", NULL, "lowercase"},
    {"sub-dom1.foo.com/bar/baz/quux:some-long-tag", "sub-dom1.foo.com", "bar/baz/quux",
     "some-long-tag", NULL, "sub-dom1.foo.com/bar/baz/quux"},
    {"b.gcr.io/test.example.com/my-app:test.example.com", "b.gcr.io", "test.example.com/my-app",
     "test.example.com", NULL, "b.gcr.io/test.example.com/my-app"},
    {"xn--7o8h.com/myimage:xn--7o8h.com@sha512:" HEX128, "xn--7o8h.com", "myimage",
     "xn--7o8h.com", "sha512:" HEX128, "xn--7o8h.com/myimage"},
    {"foo_bar.com:8080", "docker.io", "library/foo_bar.com", "8080", NULL, "foo_bar.com"},
    {"foo/foo_bar.com:8080", "docker.io", "foo/foo_bar.com", "8080", NULL, "foo/foo_bar.com"},
    {"192.168.1.1/repo", "192.168.1.1", "repo", NULL, NULL, "192.168.1.1/repo"},
    {"192.168.1.1:5000/repo:5050", "192.168.1.1:5000", "repo", "5050", NULL,
     "192.168.1.1:5000/repo"},
    {"[2001:db8::1]/repo", "[2001:db8::1]", "repo", NULL, NULL, "[2001:db8::1]/repo"},
    {"[2001:db8:1:2:3:4:5:6]/repo:tag", "[2001:db8:1:2:3:4:5:6]", "repo", "tag", NULL,
     "[2001:db8:1:2:3:4:5:6]/repo"},
    {"[2001:db8::]:5000/repo", "[2001:db8::]:5000", "repo", NULL, NULL, "[2001:db8::]:5000/repo"},
    {"[::1]:5000/repo", "[::1]:5000", "repo", NULL, NULL, "[::1]:5000/repo"},
    /* the grammar quirk: looks like a domain, is a path component => no domain at all */
    {"foo_bar.com/x", NULL, "foo_bar.com/x", NULL, NULL, "foo_bar.com/x"},
    /* GPU references and friends */
    {"nvidia/cuda:12.4.1-cudnn-devel-ubuntu22.04", "docker.io", "nvidia/cuda",
     "12.4.1-cudnn-devel-ubuntu22.04", NULL, "nvidia/cuda"},
    {"nvcr.io/nvidia/pytorch:24.05-py3", "nvcr.io", "nvidia/pytorch", "24.05-py3", NULL,
     "nvcr.io/nvidia/pytorch"},
    {"localhost:5000/foo/bar:tag@sha256:" HEX64, "localhost:5000", "foo/bar", "tag",
     "sha256:" HEX64, "localhost:5000/foo/bar"},
    {"ubuntu@sha256:" DBCC, "docker.io", "library/ubuntu", NULL, "sha256:" DBCC, "ubuntu"},
    {"docker.io/library/ubuntu", "docker.io", "library/ubuntu", NULL, NULL, "ubuntu"},
    {"index.docker.io/ubuntu", "docker.io", "library/ubuntu", NULL, NULL, "ubuntu"},
    {"a/b/c/d/e:1.0", "docker.io", "a/b/c/d/e", "1.0", NULL, "a/b/c/d/e"},
    {"localhost/foo", "localhost", "foo", NULL, NULL, "localhost/foo"},
    {"localhost:5000", "docker.io", "library/localhost", "5000", NULL, "localhost"},
    {"[::1]:5000/foo", "[::1]:5000", "foo", NULL, NULL, "[::1]:5000/foo"},
    {"pytorch/pytorch:2.1.0-cuda12.1-cudnn8-devel", "docker.io", "pytorch/pytorch",
     "2.1.0-cuda12.1-cudnn8-devel", NULL, "pytorch/pytorch"},
    {"ghcr.io/org/img:_under", "ghcr.io", "org/img", "_under", NULL, "ghcr.io/org/img"},
    {"registry.example.com:443/a.b/c__d/e--f:v1@sha384:" HEX64 HEX16 HEX16,
     "registry.example.com:443", "a.b/c__d/e--f", "v1", "sha384:" HEX64 HEX16 HEX16,
     "registry.example.com:443/a.b/c__d/e--f"},
};

struct bad_case {
    const char *in;
    size_t offset;
    const char *message_part;
};

static const struct bad_case bad_cases[] = {
    /* normalize_test.go invalid names */
    {"https://github.com/docker/docker", 6, "registry host"},
    {"docker/Docker", 7, "must be lowercase"},
    {"-docker", 0, "path component"},
    {"-docker/docker", 0, "path component"},
    {"-docker.io/docker/docker", 0, "registry host"},
    {"docker///docker", 7, "path component"},
    {"docker.io/docker/Docker", 17, "must be lowercase"},
    {"docker.io/docker///docker", 17, "path component"},
    {"[fc00::1]", 0, "path component"},
    {"[fc00::1]:5000", 0, "path component"},
    {"fc00::1:5000/debian", 5, "registry host"},
    {"[fe80::1%eth0]:5000/debian", 8, "registry host"},
    {"[2001:db8:3:4::192.0.2.33]:5000/debian", 18, "registry host"},
    {"1a3f5e7d9c1b3a5f7e9d1c3b5a7f9e1d3c5b7a9f1e3d5d7c9b1a3f5e7d9c1b3a", 0, "64-byte hex"},
    {"docker-/docker", 7, "separator"},
    {"-docker-/docker", 0, "path component"},
    {"____/____", 0, "path component"},
    {"_docker/_docker", 0, "path component"},
    {"dock..er/docker", 5, "registry host"}, /* "." makes it a would-be domain */
    {"dock..er/docker", 5, "registry host"}, /* "." makes it a would-be domain */
    {"dock..er/docker", 5, "registry host"}, /* "." makes it a would-be domain */
    {"docker/", 7, "path component"},
    {"this_is_not_a_valid_namespace_because_its_lenth_is_greater_than_255_this_is_not_a_valid_"
     "namespace_because_its_lenth_is_greater_than_255_this_is_not_a_valid_namespace_because_its_"
     "lenth_is_greater_than_255_this_is_not_a_valid_namespace_because_its_lenth_is_greater_than_"
     "255/docker",
     255, "255 characters"},
    /* reference_test.go invalid references */
    {"", 0, "at least one component"},
    {":justtag", 0, "path component"},
    {"@sha256:" HEX64, 0, "path component"},
    {"repo@sha256:ffffffffffffffffffffffffffffffffff", 12, "digest length"},
    {"validname@invaliddigest:" HEX64, 10, "unsupported digest algorithm"},
    {"Uppercase:tag", 0, "must be lowercase"},
    {"test:5000/Uppercase/lowercase:tag", 10, "must be lowercase"},
    {"aa/asdf$$^/aa", 7, "after the name"},
    {"[2001:db8::1]", 0, "path component"},
    {"[2001:db8::1]:5000", 0, "path component"},
    {"[2001:db8::1]:tag", 0, "path component"},
    {"[fe80::1%eth0]:5000/repo", 8, "registry host"},
    {"[fe80::1%@invalidzone]:5000/repo", 8, "registry host"},
    /* more */
    {"UPPER", 0, "must be lowercase"},
    {"foo:", 4, "tag must not be empty"},
    {"foo:@sha256:" HEX64, 4, "tag must not be empty"},
    {"foo@sha256:abc", 14, "at least 32 hex"},
    {"foo@sha256:" HEX64 "0", 11, "digest length"},
    {"foo@sha256:FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF", 11,
     "must be lowercase"},
    {"foo@SHA256:" HEX64, 4, "must be lowercase"}, /* remote "foo@SHA256" (ParseNormalizedNamed) */
    {"foo:t@SHA256:" HEX64, 6, "unsupported digest algorithm"},
    {"foo@md5:" HEX64, 4, "unsupported digest algorithm"},
    {"foo@sha256:" HEX64 " ", 75, "invalid reference format"},
    {"foo:tag@", 8, "digest algorithm"},
    {"foo@sha256", 10, "digest algorithm"},
    {"foo@1sha:" HEX64, 4, "digest algorithm"},
    {"foo bar", 3, "after the name"},
    {"foo:-tag", 4, "tag may only hold"},
    {"foo:.tag", 4, "tag may only hold"},
    {"foo:ta g", 6, "tag may only hold"},
    {"foo:ta/g", 4, "registry host"}, /* a "/" makes "foo:ta" a would-be host:port */
    {"foo:5000/", 9, "path component"},
    {"foo.com:/bar", 8, "registry host"},
    {"foo-.com/bar", 3, "registry host"},
    {"foo.com./bar", 8, "registry host"},
    {"[]:5000/bar", 1, "registry host"},
    {"[::1]x/bar", 5, "registry host"},
    {"nvcr.io/nvidia/PyTorch:24.05-py3", 15, "must be lowercase"},
    {"nvcr.io//pytorch", 8, "path component"},
    {"nvidia/cuda:12.4.1\xc3\xa9", 18, "tag may only hold"},
    {"a___b", 3, "separator"},
    {"a.", 2, "separator"},
};

static void check_str(const char *what, const char *input, const char *got, const char *want)
{
    if ((got == NULL) != (want == NULL) || (got && strcmp(got, want) != 0))
        fail_msg("%s: %s: got %s, want %s", input, what, got ? got : "(null)",
                 want ? want : "(null)");
}

/* Parse `in`, which must be a valid reference, at 1:1. */
static void parse_ok(struct gl_arena *a, const char *in, struct gl_imageref *ref)
{
    struct gl_imageref_error err;
    if (gl_imageref_parse(a, in, strlen(in), (struct gl_loc){1, 1}, ref, &err) != 0)
        fail_msg("%s: unexpected error at %zu: %s", in, err.offset, err.message);
}

static void test_valid_table(void **state)
{
    (void)state;
    struct gl_arena a;
    gl_arena_init(&a);
    for (size_t i = 0; i < sizeof ok_cases / sizeof ok_cases[0]; i++) {
        const struct ok_case *c = &ok_cases[i];
        struct gl_imageref ref;
        struct gl_imageref_error err;
        struct gl_loc at = {1, 1};
        if (gl_imageref_parse(&a, c->in, strlen(c->in), at, &ref, &err) != 0)
            fail_msg("%s: unexpected error at %zu: %s", c->in, err.offset, err.message);
        check_str("raw", c->in, ref.raw, c->in);
        check_str("domain", c->in, ref.domain, c->domain);
        check_str("path", c->in, ref.path, c->path);
        check_str("tag", c->in, ref.tag, c->tag);
        check_str("digest", c->in, ref.digest, c->digest);
        check_str("familiar", c->in, ref.familiar, c->familiar);
    }
    gl_arena_free(&a);
}

/* A known public mirror names its upstream image (registry_mirrors.h): the domain, path
 * and familiar name are the upstream's, `via` keeps the mirror; a host that is no known
 * mirror, and a prefix proxy not followed by a registry host, stay as written. */
static void test_mirrors(void **state)
{
    (void)state;
    static const struct {
        const char *in, *domain, *path, *familiar, *via;
    } cases[] = {
        {"docker.m.daocloud.io/nvidia/cuda:12.8.1-devel-ubuntu22.04", "docker.io",
         "nvidia/cuda", "nvidia/cuda", "docker.m.daocloud.io"},
        {"docker.1ms.run/golang:1.24", "docker.io", "library/golang", "golang",
         "docker.1ms.run"},
        {"mirror.gcr.io/library/ubuntu:22.04", "docker.io", "library/ubuntu", "ubuntu",
         "mirror.gcr.io"},
        {"nvcr.m.daocloud.io/nvidia/pytorch:24.05-py3", "nvcr.io", "nvidia/pytorch",
         "nvcr.io/nvidia/pytorch", "nvcr.m.daocloud.io"},
        {"m.daocloud.io/docker.io/library/busybox", "docker.io", "library/busybox", "busybox",
         "m.daocloud.io/docker.io"},
        {"m.daocloud.io/docker.io/vllm/vllm-openai:v0.6.0", "docker.io", "vllm/vllm-openai",
         "vllm/vllm-openai", "m.daocloud.io/docker.io"},
        {"m.daocloud.io/index.docker.io/busybox", "docker.io", "library/busybox", "busybox",
         "m.daocloud.io/index.docker.io"},
        {"m.daocloud.io/nvcr.io/nvidia/tritonserver:24.08-py3", "nvcr.io",
         "nvidia/tritonserver", "nvcr.io/nvidia/tritonserver", "m.daocloud.io/nvcr.io"},
        /* not mirrors, or not through one */
        {"m.daocloud.io/library/busybox", "m.daocloud.io", "library/busybox",
         "m.daocloud.io/library/busybox", NULL},
        {"m.daocloud.io/busybox", "m.daocloud.io", "busybox", "m.daocloud.io/busybox", NULL},
        {"registry.example.com/nvidia/cuda:12.4.1-base-ubuntu22.04", "registry.example.com",
         "nvidia/cuda", "registry.example.com/nvidia/cuda", NULL},
        {"docker.m.daocloud.io.example.com/nvidia/cuda", "docker.m.daocloud.io.example.com",
         "nvidia/cuda", "docker.m.daocloud.io.example.com/nvidia/cuda", NULL},
    };
    struct gl_arena a;
    gl_arena_init(&a);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct gl_imageref ref;
        const char *in = cases[i].in;
        parse_ok(&a, in, &ref);
        check_str("domain", in, ref.domain, cases[i].domain);
        check_str("path", in, ref.path, cases[i].path);
        check_str("familiar", in, ref.familiar, cases[i].familiar);
        size_t via = gl_imageref_via_len(in, strlen(in));
        if (via != (cases[i].via ? strlen(cases[i].via) : 0) ||
            (via && strncmp(in, cases[i].via, via)))
            fail_msg("%s: via %zu bytes, want %s", in, via, cases[i].via ? cases[i].via : "none");
        check_str("raw", in, ref.raw, in);
    }
    /* what docker refuses is still refused: upper case behind the proxy, an upstream host
     * that is no path component of the mirror's (docker reads the mirror's path), a path
     * over 255 bytes as docker counts it there (the upstream host in it) */
    struct gl_imageref ref;
    static const char *const refused[] = {"m.daocloud.io/docker.io/Nvidia/cuda",
                                          "m.daocloud.io/localhost:5000/x:1",
                                          "m.daocloud.io/[::1]/x", "m.daocloud.io/a-.io/x"};
    for (size_t i = 0; i < sizeof refused / sizeof refused[0]; i++)
        if (gl_imageref_parse(&a, refused[i], strlen(refused[i]), (struct gl_loc){1, 1}, &ref,
                              NULL) == 0)
            fail_msg("%s: parsed, docker refuses it", refused[i]);
    char name[300];
    struct gl_imageref_error err;
    snprintf(name, sizeof name, "m.daocloud.io/docker.io/%.*s", 246, HEX64 HEX64 HEX64 HEX64);
    assert_int_equal(gl_imageref_parse(&a, name, strlen(name), (struct gl_loc){1, 1}, &ref,
                                       &err),
                     -1);
    assert_int_equal(err.offset, 14 + 255); /* the 256th byte of docker's path */
    /* and what docker accepts is accepted: a one-component name of 250 bytes through a
     * Docker Hub mirror is 250 bytes of the mirror's path (no `library/` there) */
    snprintf(name, sizeof name, "docker.m.daocloud.io/%.*s:1", 250, HEX64 HEX64 HEX64 HEX64);
    parse_ok(&a, name, &ref);
    check_str("domain", name, ref.domain, "docker.io");
    assert_int_equal(strlen(ref.path), 8 + 250);
    gl_arena_free(&a);
}

static void test_invalid_table(void **state)
{
    (void)state;
    struct gl_arena a;
    gl_arena_init(&a);
    for (size_t i = 0; i < sizeof bad_cases / sizeof bad_cases[0]; i++) {
        const struct bad_case *c = &bad_cases[i];
        struct gl_imageref ref;
        struct gl_imageref_error err;
        struct gl_loc at = {7, 5};
        if (gl_imageref_parse(&a, c->in, strlen(c->in), at, &ref, &err) == 0)
            fail_msg("%s: parsed, expected an error", c->in);
        if (err.offset != c->offset)
            fail_msg("%s: error offset %zu, want %zu (%s)", c->in, err.offset, c->offset,
                     err.message);
        if (!err.message || !strstr(err.message, c->message_part))
            fail_msg("%s: message \"%s\" lacks \"%s\"", c->in, err.message, c->message_part);
        assert_int_equal(err.loc.line, 7);
        assert_int_equal(err.loc.col, 5 + c->offset);
        assert_null(ref.raw);
        assert_null(ref.path);
    }
    gl_arena_free(&a);
}

static int parse_str(struct gl_arena *a, const char *s, struct gl_imageref *ref,
                     struct gl_imageref_error *err)
{
    struct gl_loc at = {1, 1};
    return gl_imageref_parse(a, s, strlen(s), at, ref, err);
}

/* Names no registry serves: a one-component Docker Hub name that was never an official
 * image; every other reference may come from a registry. */
static void test_local_only(void **state)
{
    (void)state;
    static const struct {
        const char *in;
        bool local;
    } cases[] = {
        {"bart_pyt", true},          {"qwen3-vllm-service:latest", true},
        {"docker.io/triton_trt_llm", true}, {"library/isaac-lab-base", true},
        {"docker.1ms.run/bart_pyt", true}, {"ubuntu", false},
        {"centos:7", false},          {"java", false}, /* deprecated, still served */
        {"zookeeper", false},         {"aerospike:ce", false},
        {"acme/app", false},          {"localhost:5000/app", false},
        {"ghcr.io/app", false},       {"nvidia/cuda:12.4.1-base-ubuntu22.04", false},
        {"ubuntux", true},            {"ubunt", true},
        /* a cluster's own registry (OpenShift image streams) */
        {"image-registry.openshift-image-registry.svc:5000/ns/app:latest", true},
        {"image-registry.openshift-image-registry.svc/ns/app", true},
        {"docker-registry.default.svc:5000/ns/app:v1", true},
        {"image-registry.openshift-image-registry.svc.example.com/ns/app", false},
        {"registry.example.com:5000/ns/app", false},
    };
    struct gl_arena a;
    gl_arena_init(&a);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct gl_imageref ref;
        parse_ok(&a, cases[i].in, &ref);
        if (gl_imageref_local_only(&ref) != cases[i].local)
            fail_msg("%s: local_only %d, want %d", cases[i].in, !cases[i].local,
                     cases[i].local);
        if (gl_imageref_text_local_only(cases[i].in, strlen(cases[i].in)) != cases[i].local)
            fail_msg("%s: text_local_only %d, want %d", cases[i].in, !cases[i].local,
                     cases[i].local);
    }
    assert_true(gl_imageref_valid("gcr.io/cloud-builders/docker", 28));
    assert_true(gl_imageref_valid("python:3.11", 11));
    assert_false(gl_imageref_valid("Start measurements", 18));
    assert_false(gl_imageref_valid("", 0));
    assert_true(gl_docker_official("python", 6));
    assert_false(gl_docker_official("python", 5)); /* "pytho" */
    assert_false(gl_docker_official("pythonx", 7));
    assert_false(gl_docker_official("", 0));
    gl_arena_free(&a);
}

static void test_locations(void **state)
{
    (void)state;
    struct gl_arena a;
    gl_arena_init(&a);
    struct gl_imageref ref;
    struct gl_imageref_error err;
    const char *s = "nvidia/cuda:12.4.1-cudnn-devel-ubuntu22.04";
    assert_int_equal(gl_imageref_parse(&a, s, strlen(s), (struct gl_loc){3, 10}, &ref, &err), 0);
    assert_int_equal(ref.loc.line, 3);
    assert_int_equal(ref.loc.col, 10);
    assert_int_equal(ref.tag_loc.line, 3);
    assert_int_equal(ref.tag_loc.col, 22); /* 10 + 12 */
    assert_int_equal(ref.digest_loc.line, 0);
    assert_int_equal(ref.digest_loc.col, 0);
    struct gl_loc devel = gl_imageref_tag_loc_at(&ref, 13);
    assert_int_equal(devel.col, 35);

    s = "localhost:5000/foo/bar:tag@sha256:" HEX64;
    assert_int_equal(gl_imageref_parse(&a, s, strlen(s), (struct gl_loc){2, 11}, &ref, &err), 0);
    assert_int_equal(ref.tag_loc.line, 2);
    assert_int_equal(ref.tag_loc.col, 11 + 23);
    assert_int_equal(ref.digest_loc.line, 2);
    assert_int_equal(ref.digest_loc.col, 11 + 27);

    s = "ubuntu@sha256:" DBCC;
    assert_int_equal(gl_imageref_parse(&a, s, strlen(s), (struct gl_loc){1, 6}, &ref, &err), 0);
    assert_null(ref.tag);
    assert_int_equal(ref.tag_loc.col, 0);
    assert_int_equal(ref.digest_loc.col, 6 + 7);
    struct gl_loc none = gl_imageref_tag_loc_at(&ref, 0);
    assert_int_equal(none.line, 0);
    gl_arena_free(&a);
}

/* A string of n copies of c, heap-allocated. */
static char *repeat(char c, size_t n)
{
    char *s = malloc(n + 1);
    assert_non_null(s);
    memset(s, c, n);
    s[n] = 0;
    return s;
}

static void test_lengths(void **state)
{
    (void)state;
    struct gl_arena a;
    gl_arena_init(&a);
    struct gl_imageref ref;
    struct gl_imageref_error err;

    /* One component gets "library/": 247 + 8 = 255 is the most. */
    char *name = repeat('a', 247);
    assert_int_equal(parse_str(&a, name, &ref, &err), 0);
    assert_int_equal(strlen(ref.path), 255);
    free(name);
    name = repeat('a', 248);
    assert_int_equal(parse_str(&a, name, &ref, &err), -1);
    assert_int_equal(err.offset, 247);
    assert_non_null(strstr(err.message, "255"));
    free(name);
    name = repeat('a', 256);
    assert_int_equal(parse_str(&a, name, &ref, &err), -1);
    free(name);

    /* With a namespace no prefix is added: 255 ok, 256 not. */
    char buf[600];
    name = repeat('b', 251);
    snprintf(buf, sizeof buf, "foo/%s", name);
    assert_int_equal(parse_str(&a, buf, &ref, &err), 0);
    snprintf(buf, sizeof buf, "foo/%sb", name);
    assert_int_equal(parse_str(&a, buf, &ref, &err), -1);
    assert_int_equal(err.offset, 255);
    /* The domain does not count. */
    snprintf(buf, sizeof buf, "registry.example.com:5000/foo/%s", name);
    assert_int_equal(parse_str(&a, buf, &ref, &err), 0);
    free(name);

    /* reference_test.go: ("a/" x 127) + "a" is 255 long and fine; x 128 is too long. */
    size_t off = 0;
    for (int i = 0; i < 127; i++)
        off += (size_t)snprintf(buf + off, sizeof buf - off, "a/");
    snprintf(buf + off, sizeof buf - off, "a:tag-puts-this-over-max");
    assert_int_equal(parse_str(&a, buf, &ref, &err), 0);
    assert_string_equal(ref.tag, "tag-puts-this-over-max");
    memmove(buf + 2, buf, strlen(buf) + 1);
    memcpy(buf, "a/", 2);
    assert_int_equal(parse_str(&a, buf, &ref, &err), -1);
    assert_int_equal(err.offset, 255);

    /* Tags: 128 bytes ok, 129 not (error at the 129th). */
    char *tag = repeat('t', 128);
    snprintf(buf, sizeof buf, "foo:%s", tag);
    assert_int_equal(parse_str(&a, buf, &ref, &err), 0);
    assert_int_equal(strlen(ref.tag), 128);
    snprintf(buf, sizeof buf, "foo:%st", tag);
    assert_int_equal(parse_str(&a, buf, &ref, &err), -1);
    assert_int_equal(err.offset, 4 + 128);
    assert_non_null(strstr(err.message, "128"));
    snprintf(buf, sizeof buf, "foo:%s@sha256:%s", tag, HEX64);
    assert_int_equal(parse_str(&a, buf, &ref, &err), 0);
    free(tag);

    /* Digests: exact lengths per algorithm. */
    assert_int_equal(parse_str(&a, "foo@sha512:" HEX128, &ref, &err), 0);
    assert_int_equal(parse_str(&a, "foo@sha512:" HEX64, &ref, &err), -1);
    assert_int_equal(parse_str(&a, "foo@sha384:" HEX64 HEX16 HEX16, &ref, &err), 0);
    gl_arena_free(&a);
}

static void test_huge_input_is_linear(void **state)
{
    (void)state;
    struct gl_arena a;
    gl_arena_init(&a);
    struct gl_imageref ref;
    struct gl_imageref_error err;
    size_t n = 20u * 1024 * 1024;
    char *s = repeat('a', n);
    assert_int_equal(gl_imageref_parse(&a, s, n, (struct gl_loc){1, 1}, &ref, &err), -1);
    assert_int_equal(err.offset, 247);
    s[1] = ':'; /* "a:aaaa..." a 20 MB tag */
    assert_int_equal(gl_imageref_parse(&a, s, n, (struct gl_loc){1, 1}, &ref, &err), -1);
    assert_int_equal(err.offset, 2 + 128);
    s[1] = '/';
    s[3] = '/'; /* "a/a/aaa..." uppercase scan + path scan to the end */
    assert_int_equal(gl_imageref_parse(&a, s, n, (struct gl_loc){1, UINT32_MAX - 5}, &ref, &err),
                     -1);
    assert_int_equal(err.offset, 255);
    assert_int_equal(err.loc.col, UINT32_MAX); /* saturates, no wrap */
    free(s);
    gl_arena_free(&a);
}

static void test_nul_and_binary(void **state)
{
    (void)state;
    struct gl_arena a;
    gl_arena_init(&a);
    struct gl_imageref ref;
    struct gl_imageref_error err;
    assert_int_equal(gl_imageref_parse(&a, "foo\0bar", 7, (struct gl_loc){1, 1}, &ref, &err), -1);
    assert_int_equal(err.offset, 3);
    assert_int_equal(gl_imageref_parse(&a, "foo:ta\0g", 8, (struct gl_loc){1, 1}, &ref, &err), -1);
    assert_int_equal(err.offset, 6);
    /* len excludes a trailing part: only "ubuntu" is parsed */
    assert_int_equal(gl_imageref_parse(&a, "ubuntu:22.04", 6, (struct gl_loc){1, 1}, &ref, NULL), 0);
    assert_string_equal(ref.raw, "ubuntu");
    assert_null(ref.tag);
    assert_int_equal(gl_imageref_parse(&a, "\xff\xfe", 2, (struct gl_loc){1, 1}, &ref, NULL), -1);
    gl_arena_free(&a);
}

static void test_random_bytes(void **state)
{
    (void)state;
    static const char alphabet[] = "abcz09AZ._-/:@[]%+ sha256\xff";
    struct gl_arena a;
    gl_arena_init(&a);
    srand(12345);
    char buf[320];
    int parsed = 0;
    for (int iter = 0; iter < 20000; iter++) {
        size_t n = (size_t)(rand() % 300);
        for (size_t i = 0; i < n; i++) {
            int r = rand();
            buf[i] = (r & 1) ? alphabet[(r >> 1) % (int)(sizeof alphabet - 1)] : (char)(r >> 8);
        }
        if (iter % 7 == 0 && n > 80) { /* graft a valid digest so that path gets exercised */
            memcpy(buf + n - 72, "@sha256:" HEX64, 72);
        }
        struct gl_imageref ref;
        struct gl_imageref_error err;
        int rc = gl_imageref_parse(&a, buf, n, (struct gl_loc){1, 1}, &ref, &err);
        if (rc == 0) {
            parsed++;
            assert_non_null(ref.path);
            assert_non_null(ref.familiar);
            /* (docker's path: through a Docker Hub mirror `library/` comes on top) */
            assert_true(strlen(ref.path) <= GL_IMAGEREF_PATH_MAX + 8);
            assert_true(!ref.tag || strlen(ref.tag) <= GL_IMAGEREF_TAG_MAX);
        } else {
            assert_true(err.offset <= n);
            assert_non_null(err.message);
        }
        if (iter % 1000 == 999) { /* keep memory bounded */
            gl_arena_free(&a);
            gl_arena_init(&a);
        }
    }
    /* and some mutations of valid references, which parse more often */
    const char *seed = "nvcr.io:443/nvidia/pytorch:24.05-py3@sha256:" HEX64;
    size_t seed_len = strlen(seed);
    for (int iter = 0; iter < 20000; iter++) {
        memcpy(buf, seed, seed_len);
        size_t n = seed_len - (size_t)(rand() % 10);
        buf[rand() % (int)n] = alphabet[rand() % (int)(sizeof alphabet - 1)];
        struct gl_imageref ref;
        struct gl_imageref_error err;
        if (gl_imageref_parse(&a, buf, n, (struct gl_loc){1, 1}, &ref, &err) == 0)
            parsed++;
        else
            assert_true(err.offset <= n);
    }
    assert_true(parsed > 0);
    gl_arena_free(&a);
}

static void test_repo_matching(void **state)
{
    (void)state;
    struct gl_arena a;
    gl_arena_init(&a);
    struct gl_imageref ref;
    struct gl_imageref_error err;

    assert_int_equal(parse_str(&a, "nvidia/cuda:12.4.1-devel-ubuntu22.04", &ref, &err), 0);
    assert_true(gl_imageref_is_docker_hub(&ref));
    assert_true(gl_imageref_repo_is(&ref, "nvidia/cuda"));
    assert_true(gl_imageref_repo_is(&ref, "docker.io/nvidia/cuda"));
    assert_false(gl_imageref_repo_is(&ref, "cuda"));
    assert_false(gl_imageref_repo_is(&ref, "nvidia/cuda:12.4.1-devel-ubuntu22.04"));
    assert_false(gl_imageref_repo_is(&ref, "nvidia/cud"));
    assert_true(gl_imageref_repo_has_prefix(&ref, "nvidia/cuda"));
    assert_true(gl_imageref_in_namespace(&ref, "nvidia"));
    assert_true(gl_imageref_in_namespace(&ref, "docker.io/nvidia/"));
    assert_false(gl_imageref_in_namespace(&ref, "nvcr.io/nvidia/"));
    assert_string_equal(gl_imageref_full_name(&a, &ref), "docker.io/nvidia/cuda");
    assert_false(gl_imageref_is_unpinned_latest(&ref));

    assert_int_equal(parse_str(&a, "index.docker.io/nvidia/cuda-arm64", &ref, &err), 0);
    assert_true(gl_imageref_repo_has_prefix(&ref, "nvidia/cuda"));
    assert_true(gl_imageref_repo_is(&ref, "nvidia/cuda-arm64"));
    assert_false(gl_imageref_repo_is(&ref, "nvidia/cuda"));
    assert_true(gl_imageref_is_unpinned_latest(&ref));

    assert_int_equal(parse_str(&a, "ubuntu:latest", &ref, &err), 0);
    assert_true(gl_imageref_repo_is(&ref, "ubuntu"));
    assert_true(gl_imageref_repo_is(&ref, "library/ubuntu"));
    assert_true(gl_imageref_repo_is(&ref, "docker.io/library/ubuntu"));
    assert_false(gl_imageref_repo_is(&ref, "docker.io/ubuntu"));
    assert_true(gl_imageref_is_unpinned_latest(&ref));
    assert_string_equal(gl_imageref_full_name(&a, &ref), "docker.io/library/ubuntu");

    assert_int_equal(parse_str(&a, "ubuntu:latest@sha256:" DBCC, &ref, &err), 0);
    assert_false(gl_imageref_is_unpinned_latest(&ref));

    assert_int_equal(parse_str(&a, "nvcr.io/nvidia/pytorch:24.05-py3", &ref, &err), 0);
    assert_false(gl_imageref_is_docker_hub(&ref));
    assert_true(gl_imageref_repo_is(&ref, "nvcr.io/nvidia/pytorch"));
    assert_false(gl_imageref_repo_is(&ref, "nvidia/pytorch"));
    assert_true(gl_imageref_in_namespace(&ref, "nvcr.io/nvidia/"));
    assert_true(gl_imageref_in_namespace(&ref, "nvcr.io/nvidia"));
    assert_true(gl_imageref_in_namespace(&ref, "nvcr.io"));
    assert_false(gl_imageref_in_namespace(&ref, "nvcr.io/nvidia/pytorch"));
    assert_false(gl_imageref_in_namespace(&ref, "nvcr.io/nv"));
    assert_false(gl_imageref_in_namespace(&ref, "nvidia"));
    assert_false(gl_imageref_in_namespace(&ref, ""));
    assert_false(gl_imageref_in_namespace(&ref, "/"));
    assert_true(gl_imageref_repo_has_prefix(&ref, "nvcr.io/nvidia/py"));

    assert_int_equal(parse_str(&a, "nvcr.io/nvidian/x", &ref, &err), 0);
    assert_false(gl_imageref_in_namespace(&ref, "nvcr.io/nvidia/"));

    assert_int_equal(parse_str(&a, "foo_bar.com/x", &ref, &err), 0);
    assert_null(ref.domain);
    assert_false(gl_imageref_is_docker_hub(&ref));
    assert_true(gl_imageref_repo_is(&ref, "foo_bar.com/x"));
    assert_string_equal(gl_imageref_full_name(&a, &ref), "foo_bar.com/x");
    gl_arena_free(&a);
}

/* Does the pattern of a project image name the reference? (model_ref.h) */
static bool names(const char *pattern, bool by_tag, const char *ref_text)
{
    struct gl_arena a;
    gl_arena_init(&a);
    struct gl_imageref ref;
    assert_int_equal(parse_str(&a, ref_text, &ref, NULL), 0);
    bool is = gl_project_pattern_names(pattern, by_tag, &ref, &a);
    gl_arena_free(&a);
    return is;
}

static void test_project_patterns(void **state)
{
    (void)state;
    /* literal build tags: repository and tag after normalisation, no tag = latest */
    assert_true(names("myimg", true, "myimg"));
    assert_true(names("myimg", true, "myimg:latest"));
    assert_true(names("myimg", true, "docker.io/library/myimg:latest"));
    assert_true(names("docker.io/library/myimg:latest", true, "myimg"));
    assert_true(names("index.docker.io/acme/web:1.0", true, "acme/web:1.0"));
    assert_false(names("myimg:1.0", true, "myimg:latest"));
    assert_false(names("myimg", true, "myimg:1.0"));
    assert_false(names("myimg", true, "acme/myimg"));
    assert_false(names("ghcr.io/acme/web:latest", true, "acme/web:latest"));
    assert_false(names("Bad/Name", true, "bad/name"));
    /* unresolved parts: any text, but the last component must be written */
    assert_true(names("myimg:*", true, "myimg:latest"));
    assert_true(names("myimg:*", true, "myimg"));
    assert_true(names("myimg:v*", true, "myimg:v1.2"));
    assert_false(names("myimg:v*", true, "myimg:latest"));
    assert_true(names("*/app:*", true, "app:latest"));         /* library/app */
    assert_true(names("*/app:*", true, "ghcr.io/x/app:1.0"));
    assert_false(names("*/app:*", true, "ghcr.io/x/other:1.0"));
    assert_true(names("*/tools/app", true, "tools/app"));      /* docker.io/tools/app */
    assert_true(names("*-server:*", true, "web-server:2"));
    assert_false(names("*", true, "python:latest"));
    assert_false(names("*:*", true, "python:latest"));
    assert_false(names("*/*", true, "acme/web"));
    assert_true(names("app*", true, "app:1.0"));  /* `app$SUFFIX`: the tag may be in it */
    assert_true(names("app*", true, "app-gpu:1.0"));
    /* kustomization names: any tag, unless the name holds one */
    assert_true(names("controller", false, "controller:latest"));
    assert_true(names("controller", false, "controller@sha256:" DBCC));
    assert_true(names("nvidia/cuda", false, "docker.io/nvidia/cuda:12.4.1-base-ubuntu22.04"));
    assert_false(names("controller", false, "acme/controller:v1"));
    assert_false(names("controller:v1", false, "controller:v2"));
    assert_false(names(NULL, false, "controller"));

    assert_false(gl_project_pattern_names_some("*"));
    assert_false(gl_project_pattern_names_some("*:*"));
    assert_false(gl_project_pattern_names_some("reg.io/*"));
    assert_true(gl_project_pattern_names_some("*/app:*"));
    assert_true(gl_project_pattern_names_some("*-server"));
    assert_true(gl_project_pattern_names_some("myimg"));

    const char *key;
    assert_int_equal(gl_project_pattern_key("ghcr.io/x/app:*", &key), 3);
    assert_memory_equal(key, "app", 3);
    assert_int_equal(gl_project_pattern_key("localhost:5000/app", &key), 3);
    assert_int_equal(gl_project_pattern_key("*app", &key), 0);
    assert_int_equal(gl_project_pattern_key("*", &key), 0);
}

static void test_tag_tokens(void **state)
{
    (void)state;
    struct gl_arena a;
    gl_arena_init(&a);
    struct gl_imageref_token *t;
    size_t n = gl_imageref_tag_tokens(&a, "12.4.1-cudnn-devel-ubuntu22.04", &t);
    assert_int_equal(n, 4);
    assert_string_equal(t[0].text, "12.4.1");
    assert_string_equal(t[1].text, "cudnn");
    assert_string_equal(t[2].text, "devel");
    assert_int_equal(t[2].offset, 13);
    assert_int_equal(t[2].len, 5);
    assert_string_equal(t[3].text, "ubuntu22.04");

    n = gl_imageref_tag_tokens(&a, "2.1.0-cuda12.1-cudnn8_devel", &t);
    assert_int_equal(n, 4);
    assert_string_equal(t[1].text, "cuda12.1");
    assert_string_equal(t[3].text, "devel");

    n = gl_imageref_tag_tokens(&a, "--a__b-", &t);
    assert_int_equal(n, 2);
    assert_string_equal(t[0].text, "a");
    assert_int_equal(t[0].offset, 2);
    assert_string_equal(t[1].text, "b");

    assert_int_equal(gl_imageref_tag_tokens(&a, NULL, &t), 0);
    assert_int_equal(gl_imageref_tag_tokens(&a, "", &t), 0);

    assert_true(gl_imageref_tag_has_token("12.4.1-cudnn-devel-ubuntu22.04", "devel"));
    assert_true(gl_imageref_tag_has_token("24.05-py3", "py3"));
    assert_true(gl_imageref_tag_has_token("devel", "devel"));
    assert_false(gl_imageref_tag_has_token("12.4.1-develop", "devel"));
    assert_false(gl_imageref_tag_has_token("12.4.1-undevel", "devel"));
    assert_false(gl_imageref_tag_has_token(NULL, "devel"));
    assert_false(gl_imageref_tag_has_token("devel", ""));
    gl_arena_free(&a);
}

/* A text and whether the predicate under test holds for it. */
struct text_is {
    const char *text;
    bool is;
};

/* Tags that stand for one the reader fills in (triton-inference-server/tutorials writes
 * `tritonserver:yy.mm-py3`), and tags that only look like them. */
static void test_tag_placeholder(void **state)
{
    (void)state;
    static const struct text_is cases[] = {
        {"yy.mm-py3", true},           {"yy.mm-py3-sdk", true},
        {"YY.MM-py3", true},           {"XX.YY-tf2-py3", true},
        {"X.Y.Z-base-ubuntu24.04", true}, {"12.4-devel-yy.mm.dd", true},
        {"TAG", true},                 {"version", true},
        {NULL, false},                 {"", false},
        {"24.05-py3", false},          {"ab.cd-py3", false},    /* not one letter repeated */
        {"yyyyy.mm-py3", false},       {"yy.-py3", false},      /* five; a trailing dot */
        {".yy.mm", false},             {"y-py3", false},        /* an empty group; one group */
        {"a.a.a.a.a", false},          {"nightly-py3", false},  /* five groups */
        {"tags", false},               {"r22.xx-py3", false},
        /* digits the reader completes (NVIDIA-Merlin/Merlin's `merlin-tensorflow:23.XX`) */
        {"24.xx-py3", true},           {"23.XX", true},
        {"12.x-cudnn-devel-ubuntu22.04", true}, {"12.4.x-runtime", true},
        {"2x.xx-py3", true},           {"xx.05-py3", true},
        {"yy.05-py3", false},          {"1.a", false},          /* a letter other than x */
        {"24.05.x1", false},           {"12.4-runtime", false}, /* x beside a digit; no x */
        {"24.xxxxx-py3", false},       {"cuda12.x-runtime", false},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        if (gl_imageref_tag_placeholder(cases[i].text) != cases[i].is)
            fail_msg("tag `%s`: expected %d", cases[i].text ? cases[i].text : "(null)",
                     cases[i].is);
}

/* Names documentation writes for the reader's own image (pytriton's `your-pytriton-image`),
 * and real names that start alike. */
static void test_name_placeholder(void **state)
{
    (void)state;
    static const struct text_is cases[] = {
        {"your-pytriton-image", true},
        {"your_image:1.0", true},
        {"your", true},
        {"yourusername/app", true},
        {"docker.io/yourorg/app:latest", true},
        {"your-registry.example.com/team/app", true},
        {"ghcr.io/acme/yourimage", true},
        {"yourls", false},
        {"yourls:2.9", false},
        {"nvcr.io/nvidia/tritonserver:24.08-py3", false},
        {"you/app", false},
        {"acme/layout-your", false},
    };
    struct gl_arena a;
    gl_arena_init(&a);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct gl_imageref ref;
        const char *t = cases[i].text;
        parse_ok(&a, t, &ref);
        if (gl_imageref_name_placeholder(&ref) != cases[i].is)
            fail_msg("name `%s`: expected %d", t, cases[i].is);
    }
    gl_arena_free(&a);
}

/* Scans are remembered per thread by their bytes: after every table reference has been
 * seen, and each with one byte changed at every place (neighbours that share slots and
 * all but a byte), the tables must still give exactly their answers. */
static void test_tables_again(void **state)
{
    struct gl_arena a;
    gl_arena_init(&a);
    const char *inputs[sizeof ok_cases / sizeof ok_cases[0] + sizeof bad_cases / sizeof bad_cases[0]];
    size_t n = 0;
    for (size_t i = 0; i < sizeof ok_cases / sizeof ok_cases[0]; i++)
        inputs[n++] = ok_cases[i].in;
    for (size_t i = 0; i < sizeof bad_cases / sizeof bad_cases[0]; i++)
        inputs[n++] = bad_cases[i].in;
    for (size_t i = 0; i < n; i++) {
        char buf[512];
        size_t len = strlen(inputs[i]);
        if (len >= sizeof buf)
            continue;
        for (size_t at = 0; at < len; at++) {
            memcpy(buf, inputs[i], len);
            buf[at] = buf[at] == 'a' ? 'b' : 'a';
            struct gl_imageref ref;
            struct gl_imageref_error err;
            (void)gl_imageref_parse(&a, buf, len, (struct gl_loc){1, 1}, &ref, &err);
        }
        gl_arena_free(&a);
        gl_arena_init(&a);
    }
    gl_arena_free(&a);
    test_valid_table(state);
    test_invalid_table(state);
    test_valid_table(state); /* now served from what was remembered */
    test_invalid_table(state);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_valid_table),    cmocka_unit_test(test_invalid_table),
        cmocka_unit_test(test_locations),      cmocka_unit_test(test_lengths),
        cmocka_unit_test(test_huge_input_is_linear), cmocka_unit_test(test_nul_and_binary),
        cmocka_unit_test(test_random_bytes),   cmocka_unit_test(test_repo_matching),
        cmocka_unit_test(test_tag_tokens),     cmocka_unit_test(test_project_patterns),
        cmocka_unit_test(test_tables_again),   cmocka_unit_test(test_tag_placeholder),
        cmocka_unit_test(test_name_placeholder), cmocka_unit_test(test_mirrors),
        cmocka_unit_test(test_local_only),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
