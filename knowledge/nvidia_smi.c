/* SPDX-License-Identifier: Apache-2.0 */
/* nvidia_smi.c: one query of nvidia-smi, with a fixed argv and a time limit (see
 * nvidia_smi.h). */
#include "knowledge/nvidia_smi.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

#define SMI_TIMEOUT_MS 5000

const char *gl_nvidia_smi_program(void)
{
    const char *smi = getenv("GPULINT_NVIDIA_SMI");
    if (!smi)
        return "nvidia-smi";
    return *smi && strcmp(smi, "none") ? smi : NULL;
}

static long elapsed_ms(const struct timespec *start)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (long)(now.tv_sec - start->tv_sec) * 1000 + (now.tv_nsec - start->tv_nsec) / 1000000;
}

bool gl_nvidia_smi_run(const char *prog, const char *field, char *buf, size_t cap, size_t *len)
{
    int pipefd[2];
    if (pipe(pipefd) != 0)
        return false;
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, pipefd[1], STDOUT_FILENO);
    posix_spawn_file_actions_addclose(&fa, pipefd[0]);
    posix_spawn_file_actions_addclose(&fa, pipefd[1]);
    posix_spawn_file_actions_addopen(&fa, STDERR_FILENO, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_addopen(&fa, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
    char query[64];
    snprintf(query, sizeof query, "--query-gpu=%s", field);
    char *const argv[] = {(char *)prog, query, "--format=csv,noheader", NULL};
    pid_t pid;
    int rc = posix_spawnp(&pid, prog, &fa, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    close(pipefd[1]);
    if (rc != 0) {
        close(pipefd[0]);
        return false;
    }
    size_t n = 0;
    bool timed_out = false;
    struct timespec start;
    clock_gettime(CLOCK_MONOTONIC, &start);
    for (;;) {
        long left = SMI_TIMEOUT_MS - elapsed_ms(&start);
        if (left <= 0) {
            timed_out = true;
            break;
        }
        struct pollfd p = {.fd = pipefd[0], .events = POLLIN};
        int pr = poll(&p, 1, (int)left);
        if (pr < 0 && errno == EINTR)
            continue;
        if (pr <= 0) {
            timed_out = pr == 0;
            break;
        }
        char chunk[512];
        ssize_t r = read(pipefd[0], chunk, sizeof chunk);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            break;
        size_t take = (size_t)r < cap - n ? (size_t)r : cap - n;
        memcpy(buf + n, chunk, take);
        n += take;
    }
    close(pipefd[0]);
    if (timed_out)
        kill(pid, SIGKILL);
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
        ;
    *len = n;
    return !timed_out && WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

