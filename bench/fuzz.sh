#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# bench/fuzz.sh TARGET SECONDS: run one libFuzzer target (fuzz_dockerfile, fuzz_shell,
# fuzz_imageref, ...) for SECONDS, seeded from fixtures/ and tests/corpus/files/.
# Crashes land in tests/fuzz/crashes/; make each one a regression test.
# GPULINT_FUZZ_BUILD: the build directory (default build-fuzz).
set -euo pipefail
cd "$(dirname "$0")/.."
target=${1:?usage: bench/fuzz.sh TARGET SECONDS}
secs=${2:-60}
build=${GPULINT_FUZZ_BUILD:-build-fuzz}
if [ ! -x "$build/tests/fuzz/$target" ]; then
  CC=clang cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DGPULINT_FUZZ=ON \
    -DGPULINT_TESTS=OFF -DCMAKE_C_FLAGS="-fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=all" \
    > /dev/null
  cmake --build "$build" -j2 --target "$target"
fi
corpus=tests/fuzz/corpus-$target
mkdir -p "$corpus" tests/fuzz/crashes
seeds=()
case $target in
  fuzz_dockerfile) seeds=(fixtures tests/corpus/files/dockerfiles tests/corpus/files/buildkit-parser) ;;
  fuzz_shell|fuzz_makefile|fuzz_markdown) seeds=(fixtures tests/corpus/files/runlines tests/corpus/files/apptainer) ;;
  fuzz_compose|fuzz_kubernetes|fuzz_ciyaml|fuzz_yaml) seeds=(fixtures tests/corpus/files/compose tests/corpus/files/k8s) ;;
  fuzz_apptainer_def) seeds=(tests/corpus/files/apptainer) ;;
  fuzz_image|fuzz_config) # small archives made by real tools, config files (generated)
    bash tests/hostile/fuzz_seeds.sh "$target" "$build/seeds-$target" >/dev/null
    seeds=("$build/seeds-$target") ;;
  fuzz_knowledge) seeds=(knowledge) ;;
  fuzz_fatbin) seeds=(tests/fatbin) ;; # binaries built by nvcc (tests/fatbin/build.sh)
  fuzz_image_json) # the JSON documents of a small image made by umoci (examples/image)
    d=$build/seeds-$target; rm -rf "$d"; mkdir -p "$d/x"
    examples/image/build.sh "$d/img.tar" >/dev/null && tar -C "$d/x" -xf "$d/img.tar"
    find "$d/x" -type f -size -64k -exec sh -c 'head -c1 "$1" | grep >/dev/null "[{[]" && cp "$1" "$2/"' \
      _ {} "$d" \;
    rm -rf "$d/x" "$d/img.tar"
    seeds=("$d") ;;
  *) seeds=(fixtures) ;;
esac
existing=()
for s in "${seeds[@]}"; do [ -d "$s" ] && existing+=("$s"); done
max_len=65536
[ "$target" = fuzz_knowledge ] && max_len=262144 # cuda_facts.yaml is ~100 KB
"$build/tests/fuzz/$target" -max_total_time="$secs" -max_len=$max_len -rss_limit_mb=2048 -timeout=10 \
  -artifact_prefix=tests/fuzz/crashes/ -print_final_stats=1 "$corpus" "${existing[@]}"
