/* SPDX-License-Identifier: Apache-2.0 */
/* readfloor.c: the physical floor of linting a tree of text files, for bench/text.sh.
 *
 *   readfloor [-j N] [-y] DIR...
 *
 * Walks each DIR the way gpulint's engine does (opendir/readdir, the entry's d_type, no
 * stat unless the file system gives no type), and reads every regular file whole: open,
 * one read into a buffer (more reads only for a file larger than the buffer), close. It
 * does nothing with the bytes. With -j N the files are shared out between N threads (the
 * walk stays on the main thread, as gpulint's does). What it prints on stdout: files,
 * bytes, seconds (monotonic clock, the walk and the reads), MB/s. No linter can be faster
 * than this on the same files and cores, which makes it the floor text.sh compares with
 * (`cat` through find and xargs pays for process start-ups, fadvise and writes and is
 * 3-5x slower than this on small files).
 *
 * With -y (built with -DWITH_YAML and -lyaml), every file whose name ends in .yml or .yaml
 * is also run through libyaml's event parser, the one YAML reader gpulint may use: the
 * floor of a linter of YAML launch files built on it.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#ifdef WITH_YAML
#include <yaml.h>
#endif

enum { BUF = 1 << 20 };

struct list { char **v; size_t n, cap; };
static struct list files;
static atomic_size_t next_file;
static atomic_ullong total_bytes;
static int parse_yaml; /* -y */

/* Run libyaml's event parser over the n bytes of a .yml/.yaml file (-y). */
static void yaml_events(const char *path, const unsigned char *buf, size_t n)
{
    size_t len = strlen(path);
    if (!parse_yaml || !((len > 4 && !strcmp(path + len - 4, ".yml")) ||
                         (len > 5 && !strcmp(path + len - 5, ".yaml"))))
        return;
#ifdef WITH_YAML
    yaml_parser_t p;
    yaml_parser_initialize(&p);
    yaml_parser_set_input_string(&p, buf, n);
    for (bool end = false; !end;) {
        yaml_event_t e;
        if (!yaml_parser_parse(&p, &e))
            break;
        end = e.type == YAML_STREAM_END_EVENT;
        yaml_event_delete(&e);
    }
    yaml_parser_delete(&p);
#else
    (void)buf, (void)n;
#endif
}

static void add(const char *path) {
  if (files.n == files.cap) {
    files.cap = files.cap ? 2 * files.cap : 4096;
    files.v = realloc(files.v, files.cap * sizeof *files.v);
    if (!files.v) { perror("readfloor"); exit(2); }
  }
  files.v[files.n++] = strdup(path);
}

static void walk(const char *dir) {
  DIR *d = opendir(dir);
  if (!d) return;
  struct dirent *e;
  while ((e = readdir(d))) {
    if (e->d_name[0] == '.' && (!e->d_name[1] || (e->d_name[1] == '.' && !e->d_name[2])))
      continue;
    char path[4096];
    if ((size_t)snprintf(path, sizeof path, "%s/%s", dir, e->d_name) >= sizeof path) continue;
    unsigned char t = e->d_type;
    if (t == DT_UNKNOWN) {
      struct stat st;
      if (lstat(path, &st) != 0) continue;
      t = S_ISDIR(st.st_mode) ? DT_DIR : S_ISREG(st.st_mode) ? DT_REG : DT_UNKNOWN;
    }
    if (t == DT_DIR) walk(path);
    else if (t == DT_REG) add(path);
  }
  closedir(d);
}

static void *reader(void *arg) {
  (void)arg;
  char *buf = malloc(BUF);
  unsigned long long bytes = 0;
  for (size_t i; buf && (i = atomic_fetch_add(&next_file, 1)) < files.n;) {
    int fd = open(files.v[i], O_RDONLY | O_CLOEXEC);
    if (fd < 0) continue;
    size_t got = 0;
    for (ssize_t r; (r = read(fd, buf, BUF)) > 0;) {
      bytes += (unsigned long long)r;
      got = (size_t)r;
      if (r < BUF) break;   /* a short read of a regular file is its end, as gpulint takes it */
    }
    close(fd);
    yaml_events(files.v[i], (const unsigned char *)buf, got);
  }
  free(buf);
  atomic_fetch_add(&total_bytes, bytes);
  return NULL;
}

int main(int argc, char **argv) {
  int jobs = 1, i = 1;
  if (argc > 2 && strcmp(argv[1], "-j") == 0) { jobs = atoi(argv[2]); i = 3; }
  if (i < argc && strcmp(argv[i], "-y") == 0) { parse_yaml = 1; i++; }
#ifndef WITH_YAML
  if (parse_yaml) { fprintf(stderr, "readfloor: built without libyaml (-DWITH_YAML)\n"); return 2; }
#endif
  if (jobs < 1 || jobs > 64 || i >= argc) {
    fprintf(stderr, "usage: readfloor [-j N] [-y] DIR...\n");
    return 2;
  }
  struct timespec a, b;
  clock_gettime(CLOCK_MONOTONIC, &a);
  for (; i < argc; i++) walk(argv[i]);
  pthread_t t[64];
  for (int k = 1; k < jobs; k++) pthread_create(&t[k], NULL, reader, NULL);
  reader(NULL);
  for (int k = 1; k < jobs; k++) pthread_join(t[k], NULL);
  clock_gettime(CLOCK_MONOTONIC, &b);
  double s = (double)(b.tv_sec - a.tv_sec) + (double)(b.tv_nsec - a.tv_nsec) / 1e9;
  unsigned long long n = atomic_load(&total_bytes);
  printf("%zu %llu %.4f %.0f\n", files.n, n, s, (double)n / 1e6 / (s > 0 ? s : 1e-9));
  return 0;
}
