#!/usr/bin/env bash
# bench/fuzz.sh TARGET SECONDS: run one libFuzzer target (fuzz_dockerfile, fuzz_shell,
# fuzz_imageref, ...) for SECONDS, seeded from fixtures/ and ../shared/corpus/.
# Crashes land in tests/fuzz/crashes/; make each one a regression test.
set -euo pipefail
cd "$(dirname "$0")/.."
target=${1:?usage: bench/fuzz.sh TARGET SECONDS}
secs=${2:-60}
build=build-fuzz
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
  fuzz_dockerfile) seeds=(fixtures ../shared/corpus/dockerfiles ../shared/corpus/buildkit-parser) ;;
  fuzz_shell|fuzz_makefile|fuzz_markdown) seeds=(fixtures ../shared/corpus/runlines ../shared/corpus/apptainer) ;;
  fuzz_compose|fuzz_kubernetes|fuzz_ciyaml) seeds=(fixtures ../shared/corpus/compose ../shared/corpus/k8s) ;;
  fuzz_apptainer_def) seeds=(../shared/corpus/apptainer) ;;
  *) seeds=(fixtures) ;;
esac
existing=()
for s in "${seeds[@]}"; do [ -d "$s" ] && existing+=("$s"); done
"$build/tests/fuzz/$target" -max_total_time="$secs" -max_len=65536 -rss_limit_mb=2048 -timeout=10 \
  -artifact_prefix=tests/fuzz/crashes/ -print_final_stats=1 "$corpus" "${existing[@]}"
