/* SPDX-License-Identifier: Apache-2.0 */
/*
 * image_sha256.h: SHA-256 (FIPS 180-4), to verify image blob and layer digests.
 *
 * Incremental: init, update with any number of byte runs, final. gl_sha256_hex writes
 * the 64 lowercase hex digits of a digest (plus NUL) to out[65].
 */
#ifndef GPULINT_IMAGE_SHA256_H
#define GPULINT_IMAGE_SHA256_H

#include <stddef.h>
#include <stdint.h>

struct gl_sha256 {
    uint32_t h[8];
    uint64_t len;          /* bytes hashed so far */
    unsigned char buf[64]; /* pending partial block */
    size_t nbuf;
};

void gl_sha256_init(struct gl_sha256 *s);
void gl_sha256_update(struct gl_sha256 *s, const void *data, size_t n);
void gl_sha256_final(struct gl_sha256 *s, unsigned char digest[32]);
void gl_sha256_hex(const unsigned char digest[32], char out[65]);
/* The hex digest of one whole buffer, in out[65]. */
void gl_sha256_hex_of(const void *data, size_t n, char out[65]);

#endif
