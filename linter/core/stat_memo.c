/* SPDX-License-Identifier: Apache-2.0 */
/* stat_memo.c: lstat and stat answers remembered per thread (see stat_memo.h). */
#include "linter/core/stat_memo.h"

#include "linter/core/hashmap.h"

#include <string.h>
#include <sys/stat.h>

#define MEMO_SLOTS 256 /* a power of two */

struct memo_slot {
    uint64_t hash;
    uint32_t mode;
    uint8_t len;   /* of key; 0: empty slot */
    bool follow;
    bool found;
    int64_t size;
    char key[GL_STAT_MEMO_KEY];
};

static _Thread_local struct memo_slot memo[MEMO_SLOTS];

static bool ask(const char *path, bool follow, uint32_t *mode, int64_t *size)
{
    struct stat st;
    if ((follow ? stat(path, &st) : lstat(path, &st)) != 0)
        return false;
    *mode = (uint32_t)st.st_mode;
    *size = (int64_t)st.st_size;
    return true;
}

bool gl_stat_memo(const char *path, bool follow, uint32_t *mode, int64_t *size)
{
    size_t len = strlen(path);
    if (len == 0 || len > GL_STAT_MEMO_KEY)
        return ask(path, follow, mode, size);
    uint64_t h = gl_hash_bytes(path, len) ^ follow;
    struct memo_slot *s = &memo[gl_hash_slot(h, MEMO_SLOTS)];
    if (s->len != len || s->hash != h || s->follow != follow || memcmp(s->key, path, len)) {
        s->hash = h;
        s->len = (uint8_t)len;
        s->follow = follow;
        memcpy(s->key, path, len);
        s->found = ask(path, follow, &s->mode, &s->size);
    }
    if (s->found) {
        *mode = s->mode;
        *size = s->size;
    }
    return s->found;
}
