/* SPDX-License-Identifier: Apache-2.0 */
/* readfloor.c: the physical floor of linting a tree of text files, for bench/text.sh.
 *
 *   readfloor [-j N] [-y] [-w] DIR...
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
 *
 * With -w, every file is read as a Dockerfile whose RUN instructions are only cut into
 * shell words: a line whose first word is RUN (any case), joined with its continuation
 * lines (a last `\`), is split by a table of byte classes (blanks and the operator bytes
 * & | ; ( ) < > between words; quotes and `\` escapes kept inside one), each word's offset
 * and length recorded. No expansion, no command, no position: the floor of a linter that
 * splits RUN commands into words and does nothing else with them.
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
static int run_words;  /* -w */
static atomic_ullong total_words;

/* -w: a RUN text's words. Byte classes: 0 a word's byte, 1 between words (a blank or an
 * operator byte), 2 a quote or the escape (a word's, with what it quotes or escapes). */
static unsigned char word_class[256];

static unsigned long long cut_words(const unsigned char *s, size_t n)
{
    static _Thread_local struct { unsigned off, len; } spans[4096];
    size_t i = 0, k = 0;
    unsigned long long words = 0;
    while (i < n) {
        while (i < n && word_class[s[i]] == 1)
            i++;
        if (i == n)
            break;
        size_t start = i;
        for (;;) {
            while (i < n && !word_class[s[i]])
                i++;
            if (i == n || word_class[s[i]] != 2)
                break;
            unsigned char q = s[i];
            if (q == '\\') {
                i = i + 2 < n ? i + 2 : n;
                continue;
            }
            const unsigned char *e = memchr(s + i + 1, q, n - i - 1); /* (escapes in "..."
                                                                         not honoured) */
            i = e ? (size_t)(e - s) + 1 : n;
        }
        spans[k].off = (unsigned)start;
        spans[k].len = (unsigned)(i - start);
        k = (k + 1) % (sizeof spans / sizeof spans[0]);
        words++;
    }
    return words;
}

/* -w: the RUN instructions of the n bytes of a file, joined into `joined` (cap bytes) and
 * cut into words. */
static unsigned long long file_words(const char *buf, size_t n, char *joined, size_t cap)
{
    unsigned long long words = 0;
    for (size_t i = 0; i < n;) {
        const char *nl = memchr(buf + i, '\n', n - i);
        size_t e = nl ? (size_t)(nl - buf) : n, s = i;
        i = e < n ? e + 1 : n;
        while (s < e && (buf[s] == ' ' || buf[s] == '\t'))
            s++;
        if (e - s < 4 || strncasecmp(buf + s, "run", 3) || (buf[s + 3] != ' ' && buf[s + 3] != '\t'))
            continue;
        size_t len = 0, a = s + 4;
        for (;;) { /* this line, then each continued one */
            size_t le = e;
            while (le > a && (buf[le - 1] == '\r' || buf[le - 1] == ' '))
                le--;
            bool more = le > a && buf[le - 1] == '\\';
            le -= more;
            if (len + (le - a) + 1 <= cap) {
                memcpy(joined + len, buf + a, le - a);
                len += le - a;
                joined[len++] = ' ';
            }
            if (!more || i >= n)
                break;
            a = i;
            nl = memchr(buf + i, '\n', n - i);
            e = nl ? (size_t)(nl - buf) : n;
            i = e < n ? e + 1 : n;
        }
        words += cut_words((const unsigned char *)joined, len);
    }
    return words;
}

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
  char *buf = malloc(BUF), *joined = run_words ? malloc(BUF) : NULL;
  unsigned long long bytes = 0, words = 0;
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
    if (joined)
      words += file_words(buf, got, joined, BUF);
  }
  free(buf);
  free(joined);
  atomic_fetch_add(&total_bytes, bytes);
  atomic_fetch_add(&total_words, words);
  return NULL;
}

int main(int argc, char **argv) {
  int jobs = 1, i = 1;
  if (argc > 2 && strcmp(argv[1], "-j") == 0) { jobs = atoi(argv[2]); i = 3; }
  if (i < argc && strcmp(argv[i], "-y") == 0) { parse_yaml = 1; i++; }
  if (i < argc && strcmp(argv[i], "-w") == 0) {
    run_words = 1;
    i++;
    for (const char *c = " \t\n\r&|;()<>"; *c; c++) word_class[(unsigned char)*c] = 1;
    word_class['\''] = word_class['"'] = word_class['\\'] = 2;
  }
#ifndef WITH_YAML
  if (parse_yaml) { fprintf(stderr, "readfloor: built without libyaml (-DWITH_YAML)\n"); return 2; }
#endif
  if (jobs < 1 || jobs > 64 || i >= argc) {
    fprintf(stderr, "usage: readfloor [-j N] [-y] [-w] DIR...\n");
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
  if (run_words)
    fprintf(stderr, "readfloor: %llu RUN words\n", atomic_load(&total_words));
  return 0;
}
