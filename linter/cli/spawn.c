/* SPDX-License-Identifier: Apache-2.0 */
/* spawn.c: run a helper program, its output bounded (see spawn.h). */
#include "linter/cli/spawn.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "linter/core/util.h"

extern char **environ;

static long long now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* One pipe being drained into a buffer of at most `cap` bytes. */
struct drain {
    int fd;
    struct gl_buf buf;
    size_t cap;
    bool over;
};

/* Read what is there; false at its end (or an error). Past the cap, bytes are dropped
 * (standard error) or reading stops with `over` set (standard output). */
static bool drain_some(struct drain *d, bool stop_over)
{
    char chunk[65536];
    ssize_t k = read(d->fd, chunk, sizeof chunk);
    if (k < 0 && (errno == EINTR || errno == EAGAIN))
        return true;
    if (k <= 0)
        return false;
    size_t room = d->cap - d->buf.len, take = (size_t)k < room ? (size_t)k : room;
    gl_buf_add(&d->buf, chunk, take);
    if (take < (size_t)k)
        d->over = true;
    return !(d->over && stop_over);
}

static int start(const char *path, char *const argv[], int out_w, int err_w, pid_t *pid)
{
    posix_spawn_file_actions_t fa;
    posix_spawnattr_t attr;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_adddup2(&fa, out_w, STDOUT_FILENO);
    posix_spawn_file_actions_adddup2(&fa, err_w, STDERR_FILENO);
    posix_spawnattr_init(&attr);
    sigset_t none, dfl;
    sigemptyset(&none);
    sigemptyset(&dfl);
    sigaddset(&dfl, SIGPIPE);
    posix_spawnattr_setsigmask(&attr, &none);
    posix_spawnattr_setsigdefault(&attr, &dfl);
    posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
    int e = posix_spawn(pid, path, &fa, &attr, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    posix_spawnattr_destroy(&attr);
    return e;
}

void gl_spawn_capture(const char *path, char *const argv[], size_t out_cap, size_t err_cap,
                      int timeout_ms, struct gl_spawn_result *r)
{
    memset(r, 0, sizeof *r);
    r->exit_code = -1;
    int out[2], err[2];
    if (pipe2(out, O_CLOEXEC) != 0) {
        r->spawn_errno = errno;
        return;
    }
    if (pipe2(err, O_CLOEXEC) != 0) {
        r->spawn_errno = errno;
        close(out[0]);
        close(out[1]);
        return;
    }
    pid_t pid;
    r->spawn_errno = start(path, argv, out[1], err[1], &pid);
    close(out[1]);
    close(err[1]);
    struct drain d[2] = {{.fd = out[0], .cap = out_cap}, {.fd = err[0], .cap = err_cap}};
    gl_buf_init(&d[0].buf);
    gl_buf_init(&d[1].buf);
    bool open[2] = {r->spawn_errno == 0, r->spawn_errno == 0};
    long long deadline = now_ms() + timeout_ms;
    while (open[0] || open[1]) {
        long long left = deadline - now_ms();
        if (left <= 0) {
            r->timed_out = true;
            break;
        }
        struct pollfd p[2] = {{open[0] ? d[0].fd : -1, POLLIN, 0},
                              {open[1] ? d[1].fd : -1, POLLIN, 0}};
        int n = poll(p, 2, (int)(left < 1000000 ? left : 1000000));
        if (n < 0 && errno != EINTR)
            break;
        for (int i = 0; n > 0 && i < 2; i++)
            if (open[i] && p[i].revents)
                open[i] = drain_some(&d[i], i == 0);
        if (d[0].over)
            break;
    }
    close(out[0]);
    close(err[0]);
    r->out_over = d[0].over;
    if (r->spawn_errno == 0) {
        if (r->timed_out || r->out_over)
            kill(pid, SIGKILL);
        int status;
        while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
            ;
        if (!r->timed_out && !r->out_over && WIFEXITED(status))
            r->exit_code = WEXITSTATUS(status);
    }
    for (int i = 0; i < 2; i++) {
        gl_buf_str(&d[i].buf); /* NUL-terminated; the bytes may hold NULs of their own */
        *(i ? &r->err : &r->out) = d[i].buf.data ? d[i].buf.data : xstrdup("");
        *(i ? &r->err_len : &r->out_len) = d[i].buf.len;
    }
}

void gl_spawn_result_free(struct gl_spawn_result *r)
{
    free(r->out);
    free(r->err);
    memset(r, 0, sizeof *r);
}
