/* SPDX-License-Identifier: Apache-2.0 */
/* driver_target.c: --driver spellings, branch and host resolution (see driver_target.h). */
#include "knowledge/driver_target.h"
#include "knowledge/nvidia_smi.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define PROC_VERSION_FILE "/proc/driver/nvidia/version"
#define HOST_READ_CAP 65536

static bool is_digit(char c) { return c >= '0' && c <= '9'; }

/* digits ('.' digits){fields-1} with 1..6 digits per field; returns the field count
 * (0 when malformed). */
static unsigned dotted_fields(const char *s, size_t n)
{
    unsigned fields = 0;
    size_t i = 0;
    while (i < n) {
        size_t start = i;
        while (i < n && is_digit(s[i]))
            i++;
        if (i == start || i - start > 6)
            return 0;
        fields++;
        if (i == n)
            break;
        if (s[i] != '.' || i + 1 == n)
            return 0;
        i++;
    }
    return fields;
}

int gl_driver_target_parse(struct gl_driver_target *d, const char *text, const char *origin)
{
    if (!text)
        return -1;
    if (!strcmp(text, "host")) {
        *d = (struct gl_driver_target){.set = true, .text = text, .origin = origin};
        return 0;
    }
    const char *v = (text[0] == 'R' || text[0] == 'r') ? text + 1 : text;
    size_t n = strlen(v);
    unsigned fields = dotted_fields(v, n);
    bool branch = fields == 1 && n >= 2 && n <= 4 && v[0] != '0';
    bool version = v == text && (fields == 2 || fields == 3) && v[0] != '0';
    if (!branch && !version)
        return -1;
    *d = (struct gl_driver_target){
        .set = true, .text = text, .version = v, .branch_only = branch, .origin = origin};
    return 0;
}

static bool take_version(const char *s, size_t n, char *out, size_t out_size)
{
    unsigned fields = dotted_fields(s, n);
    if (fields < 2 || fields > 3 || n + 1 > out_size)
        return false;
    memcpy(out, s, n);
    out[n] = '\0';
    return true;
}

bool gl_driver_parse_proc_version(const char *text, size_t len, char *out, size_t out_size)
{
    /* the first line; the version is the first dotted number after "Kernel Module" (or,
     * for other layouts, the first dotted number of the line) */
    size_t end = 0;
    while (end < len && text[end] != '\n')
        end++;
    static const char marker[] = "Kernel Module";
    size_t from = 0;
    for (size_t i = 0; i + sizeof marker - 1 <= end; i++)
        if (!memcmp(text + i, marker, sizeof marker - 1)) {
            from = i + sizeof marker - 1;
            break;
        }
    for (size_t i = from; i < end;) {
        if (!is_digit(text[i]) || (i > 0 && text[i - 1] != ' ' && text[i - 1] != '\t')) {
            i++;
            continue;
        }
        size_t j = i;
        while (j < end && (is_digit(text[j]) || text[j] == '.'))
            j++;
        if ((j == end || text[j] == ' ' || text[j] == '\t' || text[j] == '\r') &&
            take_version(text + i, j - i, out, out_size))
            return true;
        i = j;
    }
    return false;
}

bool gl_driver_parse_smi_output(const char *text, size_t len, char *out, size_t out_size)
{
    size_t i = 0;
    while (i < len && (text[i] == ' ' || text[i] == '\t'))
        i++;
    size_t j = i;
    while (j < len && (is_digit(text[j]) || text[j] == '.'))
        j++;
    size_t k = j;
    while (k < len && (text[k] == ' ' || text[k] == '\t' || text[k] == '\r'))
        k++;
    if (k < len && text[k] != '\n')
        return false;
    return take_version(text + i, j - i, out, out_size);
}

/* Read at most HOST_READ_CAP bytes of a regular file (procfs reports size 0). */
static bool read_small_file(const char *path, char *buf, size_t cap, size_t *len)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
    if (fd < 0)
        return false;
    struct stat st;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        close(fd);
        return false;
    }
    *len = gl_read_upto(fd, buf, cap);
    close(fd);
    return true;
}

/* The local driver version: the version file, else nvidia-smi. */
static bool host_version(char *out, size_t out_size, const char **how, char *note,
                         size_t note_size)
{
    char *buf = xmalloc(HOST_READ_CAP);
    size_t len = 0;
    const char *file = getenv("GPULINT_DRIVER_VERSION_FILE");
    if (!file || !*file)
        file = PROC_VERSION_FILE;
    bool ok = false;
    if (read_small_file(file, buf, HOST_READ_CAP, &len)) {
        ok = gl_driver_parse_proc_version(buf, len, out, out_size);
        *how = "host, " PROC_VERSION_FILE;
        if (!ok)
            snprintf(note, note_size, "%s holds no driver version", file);
    } else {
        snprintf(note, note_size, "%s: %s", file, strerror(errno));
    }
    const char *smi = gl_nvidia_smi_program();
    if (!ok && smi) {
        size_t used = strlen(note);
        if (gl_nvidia_smi_run(smi, "driver_version", buf, HOST_READ_CAP, &len)) {
            ok = gl_driver_parse_smi_output(buf, len, out, out_size);
            *how = "host, nvidia-smi";
            if (!ok)
                snprintf(note + used, note_size - used, "; nvidia-smi printed no driver version");
        } else {
            snprintf(note + used, note_size - used, "; nvidia-smi could not be run");
        }
    }
    free(buf);
    return ok;
}

int gl_driver_target_resolve(struct gl_driver_target *d, const struct gl_kb *kb,
                             struct gl_arena *a, char *note, size_t note_size)
{
    if (note_size)
        note[0] = '\0';
    if (!d->set)
        return 0;
    if (!strcmp(d->text, "host")) {
        char v[64];
        const char *how = "host";
        if (!host_version(v, sizeof v, &how, note, note_size)) {
            d->set = false;
            d->version = NULL;
            return 0;
        }
        d->version = gl_arena_strdup(a, v);
        d->origin = how;
        d->branch_only = false;
        return 0;
    }
    if (d->branch_only) {
        unsigned number = (unsigned)strtoul(d->version, NULL, 10);
        const struct gl_kb_branch *b = gl_kb_branch_lookup(kb, number);
        if (b && b->first_driver)
            d->version = b->first_driver;
        /* a branch the table does not know stays "NNN" = NNN.0.0: still its lowest */
    }
    return 0;
}

const char *gl_driver_target_version(const struct gl_driver_target *d)
{
    if (!d->set || !d->version || !gl_version_valid(d->version))
        return NULL;
    return d->version;
}

const char *gl_driver_target_describe(const struct gl_driver_target *d, char *buf, size_t n)
{
    const char *v = gl_driver_target_version(d);
    if (!v)
        snprintf(buf, n, "(none)");
    else if (d->branch_only && strchr(v, '.'))
        snprintf(buf, n, "R%s (taken as %s, its first release)",
                 d->text[0] == 'R' || d->text[0] == 'r' ? d->text + 1 : d->text, v);
    else if (d->branch_only)
        snprintf(buf, n, "R%s (a branch the knowledge table does not list)", v);
    else if (d->text && !strcmp(d->text, "host"))
        snprintf(buf, n, "%s (this host)", v);
    else
        snprintf(buf, n, "%s", v);
    return buf;
}
