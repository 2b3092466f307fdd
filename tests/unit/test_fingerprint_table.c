/* SPDX-License-Identifier: Apache-2.0 */
/* test_fingerprint_table.c: the table of identities in linter/report/fingerprint.c takes
 * a hostile set of findings in linear time. The identity is two FNV-1a streams; until the
 * table picked its slots with the seeded gl_hash_slot, it used the low bits of a ^ b, and
 * the low K bits of an FNV-1a state depend only on the low K bits before each step. So
 * messages that agree there collide, and collisions chain (a Joux multicollision): from
 * one state, two 5-byte blocks that end in equal low bits; 17 such pairs give 2^17
 * messages all in one probe chain, which cost ~2^33 probes. The test builds them with
 * that old hash, written out here, and times the fingerprints. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "linter/core/rule.h"
#include "linter/report/fingerprint.h"

#define PRIME 0x100000001b3ULL
#define STAGES 17
#define BLOCK 5               /* bytes a block: 20 bits of choice, letters A..P */
#define LOW_BITS 18           /* the slots 2^17 identities use: at most 2^18 */
#define SEARCH (1u << 20)     /* blocks tried a stage: ~8 pairs expected in 2^36 */

struct fnv2 {
    uint64_t a, b;
};

static void step(struct fnv2 *h, const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        h->a = (h->a ^ (unsigned char)s[i]) * PRIME;
        h->b = (h->b ^ (unsigned char)s[i]) * PRIME;
    }
}

static void block_of(uint32_t j, char out[BLOCK])
{
    for (int k = 0; k < BLOCK; k++)
        out[k] = (char)('A' + ((j >> (4 * k)) & 15));
}

/* Two blocks that take state h to equal low bits of both streams: into x and y. */
static void find_pair(struct fnv2 h, char x[BLOCK], char y[BLOCK])
{
    const uint64_t low = (1ULL << LOW_BITS) - 1, size = 2 * SEARCH;
    uint64_t *seen = calloc(size, sizeof *seen); /* key << 20 | j, plus one; 0: empty */
    assert_non_null(seen);
    for (uint32_t j = 0; j < SEARCH; j++) {
        char blk[BLOCK];
        block_of(j, blk);
        struct fnv2 g = h;
        step(&g, blk, BLOCK);
        uint64_t key = ((g.a & low) << LOW_BITS) | (g.b & low);
        for (uint64_t i = (key * 0x9E3779B97F4A7C15ULL) >> 43;; i = (i + 1) & (size - 1)) {
            if (!seen[i]) {
                seen[i] = (key << 20 | j) + 1;
                break;
            }
            if ((seen[i] - 1) >> 20 == key) {
                block_of((uint32_t)((seen[i] - 1) & (SEARCH - 1)), x);
                memcpy(y, blk, BLOCK);
                free(seen);
                return;
            }
        }
    }
    free(seen);
    fail_msg("no pair of blocks found");
}

static void test_colliding_identities_linear(void **state)
{
    (void)state;
    /* the identity's bytes before the message (fingerprint.c identity) */
    struct fnv2 h = {0xcbf29ce484222325ULL, 0x84222325cbf29ce4ULL};
    step(&h, "gpulint/v1\0GL101\0Dockerfile\0m", 29);
    char pairs[STAGES][2][BLOCK];
    for (int s = 0; s < STAGES; s++) {
        find_pair(h, pairs[s][0], pairs[s][1]);
        step(&h, pairs[s][0], BLOCK);
    }
    struct gl_finding f = {.rule = gl_rule_find("GL101"), .file = "Dockerfile"};
    assert_non_null(f.rule);
    char msg[2 + STAGES * BLOCK] = "m";
    struct gl_fingerprinter fp;
    gl_fingerprinter_init(&fp, false);
    char first[GL_FINGERPRINT_HEX + 1], hex[GL_FINGERPRINT_HEX + 1];
    clock_t c0 = clock();
    for (uint32_t n = 0; n < (1u << STAGES); n++) {
        for (int s = 0; s < STAGES; s++)
            memcpy(msg + 1 + s * BLOCK, pairs[s][(n >> s) & 1], BLOCK);
        f.message = msg;
        gl_fingerprint_next(&fp, &f, n ? hex : first);
    }
    double secs = (double)(clock() - c0) / CLOCKS_PER_SEC;
    assert_int_equal(fp.used, 1u << STAGES); /* distinct identities, every one new */
    assert_string_not_equal(first, hex);
    gl_fingerprinter_free(&fp);
    /* linear: ~0.1 s in a Debug build; the one chain took ~25 s */
    if (secs > 3.0)
        fail_msg("2^%d colliding identities took %.1f s", STAGES, secs);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_colliding_identities_linear),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
