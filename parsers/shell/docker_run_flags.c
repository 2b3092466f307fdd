/* SPDX-License-Identifier: Apache-2.0 */
/* docker_run_flags.c: the `docker run` option table (see docker_run_flags.h).
 * One entry per line, in the form tests/docker_flags.sh reads. */
#include "parsers/shell/docker_run_flags.h"

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "linter/core/util.h"

const struct gl_cli_flag gl_docker_run_flags[] = {
    /* docker run --help (docker 28) */
    {"add-host", 0, GL_FLAG_VALUE, GL_FLAG_DOCKER},
    {"annotation", 0, GL_FLAG_VALUE, GL_FLAG_DOCKER},
    {"attach", 'a', GL_FLAG_VALUE, GL_FLAG_DOCKER},
    {"blkio-weight", 0, GL_FLAG_VALUE, GL_FLAG_DOCKER},
    {"blkio-weight-device", 0, GL_FLAG_VALUE, GL_FLAG_DOCKER},
    {"cap-add", 0, GL_FLAG_VALUE, GL_FLAG_DOCKER},
    {"cap-drop", 0, GL_FLAG_VALUE, GL_FLAG_DOCKER},
    {"cgroup-parent", 0, GL_FLAG_VALUE, GL_FLAG_DOCKER},
    {"cgroupns", 0, GL_FLAG_VALUE, GL_FLAG_DOCKER},
    {"cidfile", 0, GL_FLAG_VALUE, GL_FLAG_DOCKER},
    {"cpu-count", 0, GL_FLAG_VALUE, GL_FLAG_DOCKER},
    {"cpu-percent", 0, GL_FLAG_VALUE, GL_FLAG_DOCKER},
    {"cpu-period", 0, GL_FLAG_VALUE, GL_FLAG_DOCKER},
    {"cpu-quota", 0, GL_FLAG_VALUE, GL_FLAG_DOCKER},
    {"cpu-rt-period", 0, GL_FLAG_VALUE, GL_FLAG_DOCKER},
    {"cpu-rt-runtime", 0, GL_FLAG_VALUE, GL_FLAG_DOCKER},
    {"cpu-shares", 'c', GL_FLAG_VALUE, GL_FLAG_DOCKER},
    {"cpus", 0, GL_FLAG_VALUE, GL_FLAG_DOCKER},
    {"cpuset-cpus", 0, GL_FLAG_VALUE, GL_FLAG_DOCKER},
    {"cpuset-mems", 0, GL_FLAG_VALUE, GL_FLAG_DOCKER},
    {"detach", 'd', GL_FLAG_BOOL, GL_FLAG_DOCKER},
    {"detach-keys", 0, GL_FLAG_VALUE, GL_FLAG_DOCKER},
    {"device", 0, GL_FLAG_VALUE, GL_FLAG_DOCKER},
    {"device-cgroup-rule", 0, GL_FLAG_VALUE, GL_FLAG_DOCKER},
    {"device-read-bps", 0, GL_FLAG_VALUE, GL_FLAG_DOCKER},
    {"device-read-iops", 0, GL_FLAG_VALUE, GL_FLAG_DOCKER},
    {"device-write-bps", 0, GL_FLAG_VALUE, GL_FLAG_DOCKER},
    {"device-write-iops", 0, GL_FLAG_VALUE, GL_FLAG_DOCKER},
    {"disable-content-trust", 0, GL_FLAG_BOOL, GL_FLAG_DOCKER},
    {"dns", 0, GL_FLAG_VALUE, GL_FLAG_DOCKER},
    {"dns-option", 0, GL_FLAG_VALUE, GL_FLAG_DOCKER},
    {"dns-search", 0, GL_FLAG_VALUE, GL_FLAG_DOCKER},
    {"domainname", 0, GL_FLAG_VALUE, GL_FLAG_DOCKER},
    {"entrypoint", 0, GL_FLAG_VALUE, GL_FLAG_DOCKER},
    {"env", 'e', GL_FLAG_VALUE, GL_FLAG_DOCKER},
    {"env-file", 0, GL_FLAG_VALUE, GL_FLAG_DOCKER},
    {"expose", 0, GL_FLAG_VALUE, GL_FLAG_DOCKER},
    {"gpus", 0, GL_FLAG_VALUE, GL_FLAG_DOCKER},
    {"group-add", 0, GL_FLAG_VALUE, GL_FLAG_DOCKER},
    {"health-cmd", 0, GL_FLAG_VALUE, GL_FLAG_DOCKER},
    {"health-interval", 0, GL_FLAG_VALUE, GL_FLAG_DOCKER},
    {"health-retries", 0, GL_FLAG_VALUE, GL_FLAG_DOCKER},
    {"health-start-interval", 0, GL_FLAG_VALUE, GL_FLAG_DOCKER},
    {"health-start-period", 0, GL_FLAG_VALUE, GL_FLAG_DOCKER},
    {"health-timeout", 0, GL_FLAG_VALUE, GL_FLAG_DOCKER},
    {"help", 0, GL_FLAG_BOOL, GL_FLAG_DOCKER},
    {"hostname", 'h', GL_FLAG_VALUE, GL_FLAG_DOCKER},
    {"init", 0, GL_FLAG_BOOL, GL_FLAG_DOCKER},
    {"interactive", 'i', GL_FLAG_BOOL, GL_FLAG_DOCKER},
    {"io-maxbandwidth", 0, GL_FLAG_VALUE, GL_FLAG_DOCKER},
    {"io-maxiops", 0, GL_FLAG_VALUE, GL_FLAG_DOCKER},
    {"ip", 0, GL_FLAG_VALUE, GL_FLAG_DOCKER},
    {"ip6", 0, GL_FLAG_VALUE, GL_FLAG_DOCKER},
    {"ipc", 0, GL_FLAG_VALUE, GL_FLAG_DOCKER},
    {"isolation", 0, GL_FLAG_VALUE, GL_FLAG_DOCKER},
    {"kernel-memory", 0, GL_FLAG_VALUE, GL_FLAG_DOCKER},
    {"label", 'l', GL_FLAG_VALUE, GL_FLAG_DOCKER},
    {"label-file", 0, GL_FLAG_VALUE, GL_FLAG_DOCKER},
    {"link", 0, GL_FLAG_VALUE, GL_FLAG_DOCKER},
    {"link-local-ip", 0, GL_FLAG_VALUE, GL_FLAG_DOCKER},
    {"log-driver", 0, GL_FLAG_VALUE, GL_FLAG_DOCKER},
    {"log-opt", 0, GL_FLAG_VALUE, GL_FLAG_DOCKER},
    {"mac-address", 0, GL_FLAG_VALUE, GL_FLAG_DOCKER},
    {"memory", 'm', GL_FLAG_VALUE, GL_FLAG_DOCKER},
    {"memory-reservation", 0, GL_FLAG_VALUE, GL_FLAG_DOCKER},
    {"memory-swap", 0, GL_FLAG_VALUE, GL_FLAG_DOCKER},
    {"memory-swappiness", 0, GL_FLAG_VALUE, GL_FLAG_DOCKER},
    {"mount", 0, GL_FLAG_VALUE, GL_FLAG_DOCKER},
    {"name", 0, GL_FLAG_VALUE, GL_FLAG_DOCKER},
    {"network", 0, GL_FLAG_VALUE, GL_FLAG_DOCKER},
    {"network-alias", 0, GL_FLAG_VALUE, GL_FLAG_DOCKER},
    {"no-healthcheck", 0, GL_FLAG_BOOL, GL_FLAG_DOCKER},
    {"oom-kill-disable", 0, GL_FLAG_BOOL, GL_FLAG_DOCKER},
    {"oom-score-adj", 0, GL_FLAG_VALUE, GL_FLAG_DOCKER},
    {"pid", 0, GL_FLAG_VALUE, GL_FLAG_DOCKER},
    {"pids-limit", 0, GL_FLAG_VALUE, GL_FLAG_DOCKER},
    {"platform", 0, GL_FLAG_VALUE, GL_FLAG_DOCKER},
    {"privileged", 0, GL_FLAG_BOOL, GL_FLAG_DOCKER},
    {"publish", 'p', GL_FLAG_VALUE, GL_FLAG_DOCKER},
    {"publish-all", 'P', GL_FLAG_BOOL, GL_FLAG_DOCKER},
    {"pull", 0, GL_FLAG_VALUE, GL_FLAG_DOCKER},
    {"quiet", 'q', GL_FLAG_BOOL, GL_FLAG_DOCKER},
    {"read-only", 0, GL_FLAG_BOOL, GL_FLAG_DOCKER},
    {"restart", 0, GL_FLAG_VALUE, GL_FLAG_DOCKER},
    {"rm", 0, GL_FLAG_BOOL, GL_FLAG_DOCKER},
    {"runtime", 0, GL_FLAG_VALUE, GL_FLAG_DOCKER},
    {"security-opt", 0, GL_FLAG_VALUE, GL_FLAG_DOCKER},
    {"shm-size", 0, GL_FLAG_VALUE, GL_FLAG_DOCKER},
    {"sig-proxy", 0, GL_FLAG_BOOL, GL_FLAG_DOCKER},
    {"stop-signal", 0, GL_FLAG_VALUE, GL_FLAG_DOCKER},
    {"stop-timeout", 0, GL_FLAG_VALUE, GL_FLAG_DOCKER},
    {"storage-opt", 0, GL_FLAG_VALUE, GL_FLAG_DOCKER},
    {"sysctl", 0, GL_FLAG_VALUE, GL_FLAG_DOCKER},
    {"tmpfs", 0, GL_FLAG_VALUE, GL_FLAG_DOCKER},
    {"tty", 't', GL_FLAG_BOOL, GL_FLAG_DOCKER},
    {"ulimit", 0, GL_FLAG_VALUE, GL_FLAG_DOCKER},
    {"use-api-socket", 0, GL_FLAG_BOOL, GL_FLAG_DOCKER},
    {"user", 'u', GL_FLAG_VALUE, GL_FLAG_DOCKER},
    {"userns", 0, GL_FLAG_VALUE, GL_FLAG_DOCKER},
    {"uts", 0, GL_FLAG_VALUE, GL_FLAG_DOCKER},
    {"volume", 'v', GL_FLAG_VALUE, GL_FLAG_DOCKER},
    {"volume-driver", 0, GL_FLAG_VALUE, GL_FLAG_DOCKER},
    {"volumes-from", 0, GL_FLAG_VALUE, GL_FLAG_DOCKER},
    {"workdir", 'w', GL_FLAG_VALUE, GL_FLAG_DOCKER},
    /* docker: hidden aliases */
    {"net", 0, GL_FLAG_VALUE, GL_FLAG_DOCKER_HIDDEN},
    {"net-alias", 0, GL_FLAG_VALUE, GL_FLAG_DOCKER_HIDDEN},
    /* podman run only */
    {"arch", 0, GL_FLAG_VALUE, GL_FLAG_PODMAN},
    {"authfile", 0, GL_FLAG_VALUE, GL_FLAG_PODMAN},
    {"cgroup-conf", 0, GL_FLAG_VALUE, GL_FLAG_PODMAN},
    {"cgroups", 0, GL_FLAG_VALUE, GL_FLAG_PODMAN},
    {"chrootdirs", 0, GL_FLAG_VALUE, GL_FLAG_PODMAN},
    {"conmon-pidfile", 0, GL_FLAG_VALUE, GL_FLAG_PODMAN},
    {"creds", 0, GL_FLAG_VALUE, GL_FLAG_PODMAN},
    {"decryption-key", 0, GL_FLAG_VALUE, GL_FLAG_PODMAN},
    {"env-host", 0, GL_FLAG_BOOL, GL_FLAG_PODMAN},
    {"env-merge", 0, GL_FLAG_VALUE, GL_FLAG_PODMAN},
    {"gidmap", 0, GL_FLAG_VALUE, GL_FLAG_PODMAN},
    {"group-entry", 0, GL_FLAG_VALUE, GL_FLAG_PODMAN},
    {"hooks-dir", 0, GL_FLAG_VALUE, GL_FLAG_PODMAN},
    {"hostuser", 0, GL_FLAG_VALUE, GL_FLAG_PODMAN},
    {"http-proxy", 0, GL_FLAG_BOOL, GL_FLAG_PODMAN},
    {"image-volume", 0, GL_FLAG_VALUE, GL_FLAG_PODMAN},
    {"init-path", 0, GL_FLAG_VALUE, GL_FLAG_PODMAN},
    {"no-hosts", 0, GL_FLAG_BOOL, GL_FLAG_PODMAN},
    {"os", 0, GL_FLAG_VALUE, GL_FLAG_PODMAN},
    {"passwd", 0, GL_FLAG_BOOL, GL_FLAG_PODMAN},
    {"passwd-entry", 0, GL_FLAG_VALUE, GL_FLAG_PODMAN},
    {"personality", 0, GL_FLAG_VALUE, GL_FLAG_PODMAN},
    {"pod", 0, GL_FLAG_VALUE, GL_FLAG_PODMAN},
    {"pod-id-file", 0, GL_FLAG_VALUE, GL_FLAG_PODMAN},
    {"preserve-fd", 0, GL_FLAG_VALUE, GL_FLAG_PODMAN},
    {"preserve-fds", 0, GL_FLAG_VALUE, GL_FLAG_PODMAN},
    {"read-only-tmpfs", 0, GL_FLAG_BOOL, GL_FLAG_PODMAN},
    {"replace", 0, GL_FLAG_BOOL, GL_FLAG_PODMAN},
    {"requires", 0, GL_FLAG_VALUE, GL_FLAG_PODMAN},
    {"retry", 0, GL_FLAG_VALUE, GL_FLAG_PODMAN},
    {"retry-delay", 0, GL_FLAG_VALUE, GL_FLAG_PODMAN},
    {"rootfs", 0, GL_FLAG_BOOL, GL_FLAG_PODMAN},
    {"sdnotify", 0, GL_FLAG_VALUE, GL_FLAG_PODMAN},
    {"seccomp-policy", 0, GL_FLAG_VALUE, GL_FLAG_PODMAN},
    {"secret", 0, GL_FLAG_VALUE, GL_FLAG_PODMAN},
    {"subgidname", 0, GL_FLAG_VALUE, GL_FLAG_PODMAN},
    {"subuidname", 0, GL_FLAG_VALUE, GL_FLAG_PODMAN},
    {"systemd", 0, GL_FLAG_VALUE, GL_FLAG_PODMAN},
    {"timeout", 0, GL_FLAG_VALUE, GL_FLAG_PODMAN},
    {"tls-verify", 0, GL_FLAG_BOOL, GL_FLAG_PODMAN},
    {"tz", 0, GL_FLAG_VALUE, GL_FLAG_PODMAN},
    {"uidmap", 0, GL_FLAG_VALUE, GL_FLAG_PODMAN},
    {"umask", 0, GL_FLAG_VALUE, GL_FLAG_PODMAN},
    {"unsetenv", 0, GL_FLAG_VALUE, GL_FLAG_PODMAN},
    {"unsetenv-all", 0, GL_FLAG_BOOL, GL_FLAG_PODMAN},
    {"variant", 0, GL_FLAG_VALUE, GL_FLAG_PODMAN},
    /* no CLI's option: a misspelling frequent in documentation, read as what it means
       (GL412 says the command fails) */
    {"gpu", 0, GL_FLAG_VALUE, GL_FLAG_MISTAKE},
    {NULL, 0, GL_FLAG_BOOL, GL_FLAG_OTHER},
};

/* ---- long-name look-up ---- */

/* The docker table (~150 entries, looked up for every long option of every `docker run`)
 * gets a hash index on first use: slots keyed by the name's length and its first and
 * last bytes, each a chain of entries in table order, so the first entry of the table
 * with the name is found, as the linear scan finds it. */
#define FLAG_SLOTS 256
#define FLAG_MAX 256
static struct {
    uint16_t head[FLAG_SLOTS];    /* 1 + first entry of the slot's chain, 0: empty */
    uint16_t next[FLAG_MAX];      /* 1 + next entry of the same slot, 0: end */
    uint8_t len[FLAG_MAX];        /* each entry's name length */
    uint16_t by_letter[256];      /* 1 + first entry with that shorthand, 0: none */
    bool ok;                      /* the table fits (else the linear scan serves) */
} docker_index;
static pthread_once_t docker_once = PTHREAD_ONCE_INIT;

static unsigned flag_slot(const char *name, size_t len)
{
    return ((unsigned char)name[0] * 7u + (unsigned char)name[len - 1] * 31u + (unsigned)len) &
           (FLAG_SLOTS - 1);
}

static void docker_index_build(void)
{
    uint16_t tail[FLAG_SLOTS] = {0};
    size_t n = 0;
    while (gl_docker_run_flags[n].name)
        n++;
    if (n > FLAG_MAX)
        return;
    for (size_t i = 0; i < n; i++) {
        size_t len = strlen(gl_docker_run_flags[i].name);
        if (len == 0 || len > UINT8_MAX)
            return;
        docker_index.len[i] = (uint8_t)len;
        unsigned char letter = (unsigned char)gl_docker_run_flags[i].shorthand;
        if (letter && !docker_index.by_letter[letter])
            docker_index.by_letter[letter] = (uint16_t)(i + 1);
        unsigned h = flag_slot(gl_docker_run_flags[i].name, len);
        if (tail[h])
            docker_index.next[tail[h] - 1] = (uint16_t)(i + 1);
        else
            docker_index.head[h] = (uint16_t)(i + 1);
        tail[h] = (uint16_t)(i + 1);
    }
    docker_index.ok = true;
}

const struct gl_cli_flag *gl_cli_flag_long(const struct gl_cli_flag *table, const char *name,
                                           size_t len)
{
    if (table == gl_docker_run_flags) {
        pthread_once(&docker_once, docker_index_build);
        if (docker_index.ok) {
            if (len == 0 || len > UINT8_MAX)
                return NULL; /* no entry is that long (an empty name is in none) */
            for (unsigned k = docker_index.head[flag_slot(name, len)]; k;
                 k = docker_index.next[k - 1])
                if (docker_index.len[k - 1] == len &&
                    memcmp(gl_docker_run_flags[k - 1].name, name, len) == 0)
                    return &gl_docker_run_flags[k - 1];
            return NULL;
        }
    }
    /* the other tables are short: the first byte is tested before the length */
    char first = len ? name[0] : '\0';
    for (const struct gl_cli_flag *f = table; f->name; f++)
        if (f->name[0] == first && strlen(f->name) == len &&
            memcmp(f->name, name, len) == 0)
            return f;
    return NULL;
}

const struct gl_cli_flag *gl_cli_flag_short(const struct gl_cli_flag *table, char letter)
{
    if (!letter)
        return NULL;
    if (table == gl_docker_run_flags) {
        pthread_once(&docker_once, docker_index_build);
        if (docker_index.ok) {
            unsigned k = docker_index.by_letter[(unsigned char)letter];
            return k ? &gl_docker_run_flags[k - 1] : NULL;
        }
    }
    for (const struct gl_cli_flag *f = table; f->name; f++)
        if (f->shorthand == letter)
            return f;
    return NULL;
}

static bool cap_one(const char *cap, size_t len)
{
    if (len > 4 && gl_strn_eq_nocase(cap, 4, "CAP_")) {
        cap += 4;
        len -= 4;
    }
    return (len == 8 && gl_strn_eq_nocase(cap, len, "IPC_LOCK")) ||
           (len == 3 && gl_strn_eq_nocase(cap, len, "ALL"));
}

bool gl_cap_locks_memory(const char *cap, size_t len)
{
    for (size_t s = 0, e; s <= len; s = e + 1) {
        const char *comma = memchr(cap + s, ',', len - s);
        e = comma ? (size_t)(comma - cap) : len;
        if (cap_one(cap + s, e - s))
            return true;
    }
    return false;
}
