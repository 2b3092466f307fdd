/* SPDX-License-Identifier: Apache-2.0 */
/* sha256_bench.c: gpulint's SHA-256 (parsers/image/image_sha256.c) against OpenSSL's EVP
 * on the same bytes, 1 MiB updates as the image readers make them. Prints MB/s of each
 * and checks that both give the same digest. Built and run by bench/sha256.sh. */
#include <openssl/evp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "parsers/image/image_sha256.h"

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
    size_t mib = argc > 1 ? strtoul(argv[1], NULL, 10) : 2048, chunk = 1 << 20;
    unsigned char *buf = malloc(chunk), a[32], b[32];
    for (size_t i = 0; i < chunk; i++)
        buf[i] = (unsigned char)(i * 2654435761u >> 13);
    for (int round = 0; round < 3; round++) {
        double t0 = now();
        struct gl_sha256 s;
        gl_sha256_init(&s);
        for (size_t i = 0; i < mib; i++)
            gl_sha256_update(&s, buf, chunk);
        gl_sha256_final(&s, a);
        double t1 = now();
        EVP_MD_CTX *c = EVP_MD_CTX_new();
        EVP_DigestInit_ex(c, EVP_sha256(), NULL);
        for (size_t i = 0; i < mib; i++)
            EVP_DigestUpdate(c, buf, chunk);
        unsigned n;
        EVP_DigestFinal_ex(c, b, &n);
        EVP_MD_CTX_free(c);
        double t2 = now();
        printf("round %d: gpulint %.0f MB/s, OpenSSL EVP %.0f MB/s, ratio %.3f, digests %s\n",
               round, mib * 1.048576 / (t1 - t0), mib * 1.048576 / (t2 - t1),
               (t2 - t1) / (t1 - t0), memcmp(a, b, 32) ? "DIFFER" : "equal");
    }
    free(buf);
    return 0;
}
