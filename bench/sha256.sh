#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# bench/sha256.sh [MiB]: gpulint's SHA-256 against OpenSSL's (libcrypto EVP, SHA-NI where
# the CPU has it) on the same bytes in one run; needs libssl-dev. Figures: BENCHMARKS.md.
set -euo pipefail
cd "$(dirname "$0")/.."
out=$(mktemp -d); trap 'rm -rf "$out"' EXIT
cc -O2 -std=c11 -D_GNU_SOURCE -I. bench/sha256_bench.c parsers/image/image_sha256.c \
   -o "$out/sha256_bench" -lcrypto
"$out/sha256_bench" "${1:-2048}"
