/* SPDX-License-Identifier: Apache-2.0 */
/* launch_write_opts.c: the writers' option tables (see launch_write_opts.h). */
#include "rules/gl4xx/launch_write_opts.h"

#include <string.h>

/* git's own options before the subcommand (git.c: -C, -c, --git-dir, --work-tree, ...) */
static const char *const git_pre_long[] = {"git-dir", "work-tree", "namespace", "super-prefix",
                                           NULL};
static const struct gl_opt_table git_pre = {"Cc", git_pre_long, true};
static const char *const clone_long[] = {
    "jobs", "template", "reference", "reference-if-able", "origin", "branch", "upload-pack",
    "depth", "shallow-since", "shallow-exclude", "separate-git-dir", "config",
    "server-option", "filter", "bundle-uri", "revision", "ref-format", NULL};

static const char *const cp_long[] = {"suffix", "target-directory", "sparse", "no-preserve",
                                      NULL};
static const char *const mv_long[] = {"suffix", "target-directory", NULL};
static const char *const install_long[] = {"group", "mode", "owner", "strip-program", "suffix",
                                           "target-directory", NULL};
static const char *const target_long[] = {"target-directory", NULL};
static const char *const mkdir_long[] = {"mode", NULL};
static const char *const install_all[] = {"directory", NULL};

/* rsync's POPT_ARG_STRING and POPT_ARG_INT options */
static const char *const rsync_long[] = {
    "info", "debug", "stderr", "modify-window", "chmod", "max-size", "min-size", "max-alloc",
    "max-delete", "filter", "exclude", "include", "exclude-from", "include-from",
    "checksum-choice", "cc", "block-size", "compare-dest", "copy-dest", "link-dest",
    "compress-choice", "zc", "skip-compress", "compress-level", "zl", "partial-dir",
    "log-file", "log-file-format", "out-format", "log-format", "bwlimit", "backup-dir",
    "suffix", "read-batch", "write-batch", "only-write-batch", "files-from", "usermap",
    "groupmap", "chown", "timeout", "contimeout", "stop-after", "time-limit", "stop-at",
    "rsh", "rsync-path", "temp-dir", "iconv", "copy-as", "address", "port", "sockopts",
    "password-file", "early-input", "outbuf", "remote-option", "protocol", "checksum-seed",
    "config", "dparam", NULL};

static const char *const tar_long[] = {"directory", "file", "files-from", "exclude-from",
                                       "exclude", "transform", "strip-components", "xform",
                                       "use-compress-program", "to-command", NULL};
static const char *const tar_dest[] = {"directory", NULL};
static const char *const wget_long[] = {"directory-prefix", "output-document", "output-file",
                                        "append-output", "input-file", "header", "user",
                                        "password", "tries", "timeout", "wait", NULL};
static const char *const wget_dest[] = {"directory-prefix", "output-document", NULL};
/* curl reads no `--name=value` */
static const char *const curl_long[] = {"output", "output-dir", "header", "user", "request",
                                        "data", "data-binary", "data-raw", "form", "proxy",
                                        "retry", "max-time", "connect-timeout", "user-agent",
                                        "write-out", "cacert", "config", "url", NULL};
static const char *const curl_dest[] = {"output", NULL};
static const char *const curl_remote[] = {"remote-name", "remote-name-all", NULL};
static const char *const curl_base[] = {"output-dir", NULL};
static const char *const hf_long[] = {"local-dir", "cache-dir", "revision", "repo-type",
                                      "token", NULL};
static const char *const hf_dest[] = {"local-dir", NULL};

static const struct gl_writer writers[] = {
    {.name = "mkdir", .form = GL_DEST_ALL, .opts = {"m", mkdir_long, true}},
    {.name = "unzip", .opts = {"dP", NULL, false}, .dest_short = "d"},
    {.name = "tar", .opts = {"bCfFgHIKLNTVX", tar_long, true}, .dest_short = "C",
     .dest_long = tar_dest},
    {.name = "wget", .opts = {"eoaiBtOTwQPUlARDIXn", wget_long, true}, .dest_short = "PO",
     .dest_long = wget_dest},
    {.name = "curl", .opts = {"EKCbcdDFPHmoUQreXYytzTuAwx", curl_long, false},
     .dest_short = "o", .dest_long = curl_dest, .base_long = curl_base,
     .into_base_short = "O", .into_base_long = curl_remote},
    {.name = "huggingface-cli", .opts = {"", hf_long, true}, .dest_long = hf_dest},
    {.name = "hf", .opts = {"", hf_long, true}, .dest_long = hf_dest},
    {.name = "cp", .form = GL_DEST_LAST, .opts = {"St", cp_long, true}, .dest_short = "t",
     .dest_long = target_long},
    {.name = "mv", .form = GL_DEST_LAST, .opts = {"St", mv_long, true}, .dest_short = "t",
     .dest_long = target_long},
    {.name = "install", .form = GL_DEST_LAST, .opts = {"gmoSt", install_long, true},
     .dest_short = "t", .dest_long = target_long, .all_short = "d", .all_long = install_all},
    {.name = "rsync", .form = GL_DEST_LAST, .opts = {"@fBeTM", rsync_long, true}},
    {.name = "git", .form = GL_DEST_LAST, .opts = {"jobuc", clone_long, true}, .sub = "clone",
     .pre = &git_pre},
};

const struct gl_writer *gl_writer_named(const char *name, size_t len)
{
    for (size_t i = 0; i < sizeof writers / sizeof *writers; i++)
        if (strlen(writers[i].name) == len && !memcmp(name, writers[i].name, len))
            return &writers[i];
    return NULL;
}

bool gl_opt_listed(const char *const *list, const char *name, size_t len)
{
    for (size_t k = 0; list && list[k]; k++)
        if (strlen(list[k]) == len && !memcmp(list[k], name, len))
            return true;
    return false;
}
