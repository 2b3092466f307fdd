/* SPDX-License-Identifier: Apache-2.0 */
/* GL206 nvidia-env-misspelled: an env var one or two edits away from a variable the NVIDIA
 * container toolkit or CUDA reads, and not itself one: it is ignored without a word. */
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "linter/core/hashmap.h"
#include "rules/check.h"

/* The variables, with who reads them (for the message). */
static const struct {
    const char *name, *reader;
} known[] = {
    {"NVIDIA_VISIBLE_DEVICES", "the NVIDIA container toolkit"},
    {"NVIDIA_DRIVER_CAPABILITIES", "the NVIDIA container toolkit"},
    {"NVIDIA_REQUIRE_CUDA", "the NVIDIA container toolkit"},
    {"NVIDIA_DISABLE_REQUIRE", "the NVIDIA container toolkit"},
    {"NVIDIA_MIG_CONFIG_DEVICES", "the NVIDIA container toolkit"},
    {"NVIDIA_MIG_MONITOR_DEVICES", "the NVIDIA container toolkit"},
    {"CUDA_VISIBLE_DEVICES", "the CUDA runtime"},
    {"CUDA_DEVICE_ORDER", "the CUDA runtime"},
    {"CUDA_MPS_PINNED_DEVICE_MEM_LIMIT", "CUDA MPS"},
    {"CUDA_MPS_ACTIVE_THREAD_PERCENTAGE", "CUDA MPS"},
};

#define NAME_MAX_LEN 64

static char upper(char c) { return c >= 'a' && c <= 'z' ? (char)(c - 'a' + 'A') : c; }

/* Optimal-string-alignment distance (Damerau-Levenshtein where each substring is edited
 * once: insertions, deletions, substitutions, transpositions of neighbours) between a
 * (compared upper-cased) and b, or 3 when it is more than 2. A cell more than 2 off the
 * diagonal is more than 2 itself, and a path of edits never gets cheaper, so only the
 * band of the five diagonals around it is computed (band[i][j - i + 2]), each cell
 * capped at 3: the answer is the same as the whole table's, for a fifth of the work.
 * Before it, a bound most names fail: an edit changes the counts of the letters by 2 in
 * all at most (a substitution takes one away and adds another, a transposition none), so
 * counts more than 4 apart are more than 2 edits apart. `count` is all zeros on entry and
 * is left so (every entry the bound touches is set back to 0), so that the caller clears
 * it once for all the pairs it compares. */
static unsigned distance(const char *a, size_t n, const char *b, int count[256])
{
    size_t m = strlen(b);
    if (n > NAME_MAX_LEN || m > NAME_MAX_LEN || (n > m ? n - m : m - n) > 2)
        return 3;
    for (size_t i = 0; i < n; i++)
        count[(unsigned char)upper(a[i])]++;
    for (size_t j = 0; j < m; j++)
        count[(unsigned char)b[j]]--;
    unsigned apart = 0;
    for (size_t i = 0; i < n; i++) {
        int *c = &count[(unsigned char)upper(a[i])];
        apart += (unsigned)(*c < 0 ? -*c : *c);
        *c = 0;
    }
    for (size_t j = 0; j < m; j++) {
        int *c = &count[(unsigned char)b[j]];
        apart += (unsigned)(*c < 0 ? -*c : *c);
        *c = 0;
    }
    if (apart > 4)
        return 3;
    unsigned band[NAME_MAX_LEN + 1][5];
#define CELL(i, j) ((j) + 2 < (i) || (j) > (i) + 2 ? 3u : band[i][(j) + 2 - (i)])
    for (size_t i = 0; i <= n; i++) {
        size_t lo = i > 2 ? i - 2 : 0, hi = i + 2 < m ? i + 2 : m;
        for (size_t j = lo; j <= hi; j++) {
            unsigned best;
            if (i == 0 || j == 0) {
                best = (unsigned)(i + j);
            } else {
                unsigned cost = upper(a[i - 1]) != b[j - 1];
                best = CELL(i - 1, j) + 1;
                if (CELL(i, j - 1) + 1 < best)
                    best = CELL(i, j - 1) + 1;
                if (CELL(i - 1, j - 1) + cost < best)
                    best = CELL(i - 1, j - 1) + cost;
                if (i > 1 && j > 1 && upper(a[i - 1]) == b[j - 2] &&
                    upper(a[i - 2]) == b[j - 1] && CELL(i - 2, j - 2) + 1 < best)
                    best = CELL(i - 2, j - 2) + 1;
            }
            band[i][j + 2 - i] = best > 3 ? 3 : best;
        }
    }
    unsigned d = CELL(n, m);
#undef CELL
    return d > 2 ? 3 : d;
}

/* The set of a name's bytes (upper-cased when `up`), hashed into 64 bits. An edit adds
 * and removes one byte at most, so two names within two edits differ in at most four
 * bytes of their sets, and (hashing only merges bits) in at most four bits of these
 * masks: more bits apart is more than two edits apart, told without distance's loops. */
static uint64_t letter_mask(const char *s, bool up)
{
    uint64_t m = 0;
    for (; *s; s++)
        m |= (uint64_t)1 << ((unsigned char)(up ? upper(*s) : *s) & 63);
    return m;
}

/* Names that are near a listed one but real: every NVIDIA_REQUIRE_* is a constraint the
 * toolkit checks (NVIDIA_REQUIRE_JETPACK, NVIDIA_REQUIRE_ARCH, ...), and other vendors'
 * device variables differ from CUDA's in their prefix alone (MUSA_VISIBLE_DEVICES, two
 * edits from CUDA_VISIBLE_DEVICES, is Moore Threads' own; HIP_, ROCR_, MACA_, XPU_ ...). */
static bool real_name(const char *key)
{
    static const char *const vendors[] = {"MUSA_", "MACA_", "HIP_", "ROCR_", "GPU_", "XPU_",
                                          "NPU_", "MLU_", "GCU_", "DCU_", "TPU_", "XLA_",
                                          "ASCEND_", "HABANA_", "TOPS_", "COREX_", "IX_"};
    for (size_t i = 0; i < sizeof known / sizeof known[0]; i++)
        if (!strcmp(key, known[i].name))
            return true;
    for (size_t i = 0; i < sizeof vendors / sizeof vendors[0]; i++)
        if (gl_has_prefix(key, vendors[i]))
            return true;
    return gl_has_prefix(key, "NVIDIA_REQUIRE_");
}

/* popcount(x) > 4, told by clearing the lowest set bit four times (a handful of
 * instructions, where __builtin_popcountll is a library call without -mpopcnt) */
static bool more_than_four_bits(uint64_t x)
{
    for (int i = 0; i < 4; i++)
        x &= x - 1;
    return x != 0;
}

#define NKNOWN (sizeof known / sizeof known[0])

/* What check compares every key with, worked out once for the process (the table is
 * constant; pthread_once makes the one write safe for the worker threads): each name's
 * letter mask, and the shortest and longest name's length. */
static struct {
    uint64_t masks[NKNOWN];
    size_t shortest, longest;
} names;
static pthread_once_t names_once = PTHREAD_ONCE_INIT;

static void names_init(void)
{
    names.shortest = SIZE_MAX;
    for (size_t k = 0; k < NKNOWN; k++) {
        size_t n = strlen(known[k].name);
        names.shortest = n < names.shortest ? n : names.shortest;
        names.longest = n > names.longest ? n : names.longest;
        names.masks[k] = letter_mask(known[k].name, false);
    }
}

/* The known name key (klen bytes) is one or two edits from, and not itself, or SIZE_MAX.
 * count: distance's letter counts, cleared at the first use (*counted). */
static size_t near_name(const char *key, size_t klen, int count[256], bool *counted)
{
    size_t best = SIZE_MAX;
    unsigned best_d = 3;
    uint64_t kmask = letter_mask(key, true);
    bool near = false; /* some name passed the mask test: real_name is asked then */
    for (size_t k = 0; k < NKNOWN; k++) {
        if (more_than_four_bits(kmask ^ names.masks[k]))
            continue; /* distance 3 */
        if (!near && real_name(key))
            break;
        near = true;
        if (!*counted) {
            memset(count, 0, 256 * sizeof *count);
            *counted = true;
        }
        unsigned d = distance(key, klen, known[k].name, count);
        if (d < best_d) {
            best_d = d;
            best = k;
        }
    }
    return best;
}

/* near_name, remembered per thread for the last keys met: a run sees the same keys (PATH,
 * LD_LIBRARY_PATH, CUDA_HOME, NVIDIA_VISIBLE_DEVICES) in most of its inputs, and a key's
 * answer depends on its bytes alone. One slot a key text (a free slot's key is "", which
 * no key checked is); 64 slots of 40 bytes a thread. */
#define KEY_MEMO_SLOTS 64
#define KEY_MEMO_LEN 39
struct key_memo_slot {
    char key[KEY_MEMO_LEN + 1];
    size_t best;
};
static _Thread_local struct key_memo_slot key_memo[KEY_MEMO_SLOTS];

static size_t near_name_memo(const char *key, size_t klen, int count[256], bool *counted)
{
    if (klen > KEY_MEMO_LEN)
        return near_name(key, klen, count, counted);
    struct key_memo_slot *slot =
        &key_memo[gl_hash_slot(gl_hash_bytes(key, klen), KEY_MEMO_SLOTS)];
    if (!memcmp(slot->key, key, klen + 1))
        return slot->best;
    size_t best = near_name(key, klen, count, counted);
    memcpy(slot->key, key, klen + 1);
    slot->best = best;
    return best;
}

static void check(struct gl_check *c)
{
    const struct gl_doc *doc = c->doc;
    if (!doc->nenv)
        return;
    pthread_once(&names_once, names_init);
    int count[256]; /* distance's letter counts, cleared once, before distance's first use */
    bool counted = false;
    for (size_t i = 0; i < doc->nenv; i++) {
        const struct gl_env *e = &doc->env[i];
        /* a key more than two bytes shorter than the shortest name or longer than the
         * longest is more than two edits from all of them: no finding, whatever else it is
         * (PATH, LANG, DEBIAN_FRONTEND: most keys) */
        size_t klen = e->key ? strlen(e->key) : 0;
        if (!e->key || klen + 2 < names.shortest || klen > names.longest + 2 ||
            e->origin == GL_ENV_IMAGE_CONFIG || strchr(e->key, '$') || strchr(e->key, '{'))
            continue;
        size_t best = near_name_memo(e->key, klen, count, &counted);
        if (best == SIZE_MAX)
            continue;
        char fix[128];
        snprintf(fix, sizeof fix, "rename it to %s", known[best].name);
        gl_report(c, e->key_loc, fix,
                  "`%s` is not a variable %s reads: it is ignored without a word (did you "
                  "mean `%s`?)", e->key, known[best].reader, known[best].name);
    }
}

const struct gl_rule gl_rule_GL206 = {
    .id = "GL206",
    .name = "nvidia-env-misspelled",
    .severity = GL_SEV_WARNING,
    .summary = "an env var of an image or a launch is one or two edits away from a variable "
               "the NVIDIA container toolkit or CUDA reads (NVIDIA_VISIBLE_DEVICES, "
               "CUDA_VISIBLE_DEVICES, ...) and is not itself one",
    .explanation =
        "The NVIDIA container toolkit reads NVIDIA_VISIBLE_DEVICES, "
        "NVIDIA_DRIVER_CAPABILITIES, NVIDIA_REQUIRE_CUDA, NVIDIA_DISABLE_REQUIRE, "
        "NVIDIA_MIG_CONFIG_DEVICES and NVIDIA_MIG_MONITOR_DEVICES; the CUDA runtime reads "
        "CUDA_VISIBLE_DEVICES and CUDA_DEVICE_ORDER, and MPS clients "
        "CUDA_MPS_PINNED_DEVICE_MEM_LIMIT and CUDA_MPS_ACTIVE_THREAD_PERCENTAGE. A name that "
        "is almost one of these (NVIDIA_VISIBLE_DEVICE, NVIDIA_DRIVERS_CAPABILITIES, "
        "CUDA_VISIBLE_DEVICE) is an ordinary variable nobody reads: the container sees every "
        "GPU, or no CUDA libraries, or runs without the MPS cap, and nothing says why. Names "
        "are case-sensitive, so a lower-case spelling (nvidia_visible_devices) is a miss too. "
        "Checked on Dockerfile ENV, docker run -e, compose environment and pod env, within "
        "two edits (insert, delete, replace, swap two neighbours). Every NVIDIA_REQUIRE_* is "
        "a real constraint the toolkit checks and is never reported, nor are other vendors' "
        "device variables (MUSA_VISIBLE_DEVICES, HIP_VISIBLE_DEVICES, ...).",
    .bad = "FROM nvidia/cuda:12.4.1-runtime-ubuntu22.04\n"
           "ENV NVIDIA_DRIVERS_CAPABILITIES=compute,utility",
    .good = "FROM nvidia/cuda:12.4.1-runtime-ubuntu22.04\n"
            "ENV NVIDIA_DRIVER_CAPABILITIES=compute,utility",
    .fix = "spell the variable as the toolkit or CUDA reads it",
    .check = check,
};
