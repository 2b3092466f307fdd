#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# bench/scaling.sh [GPULINT]: does linting time grow linearly with the input?
# tests/corpus/files/dockerfiles at 1x, 10x and 100x its size, each linted in one process
# (hyperfine, wall and CPU, several runs; GNU time for peak RSS). Prints a Markdown
# table: linear growth keeps the time per file and the time per MB constant, and the
# peak RSS flat. (Layer scaling, 2 vs 20 layers, is in bench/layers.sh.)
set -euo pipefail
cd "$(dirname "$0")/.."
bin=$(realpath "${1:-build/gpulint}")
for t in hyperfine /usr/bin/time python3; do
  command -v $t >/dev/null || { echo "skip: $t missing"; exit 77; }
done
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
. bench/corpus_copies.sh
base=$(find tests/corpus/files/dockerfiles -type f ! -name SOURCES.tsv | wc -l)

echo "| corpus | files | MB | wall ms (mean ± σ) | CPU ms | µs per file | ms per MB | peak RSS MiB |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|"
for k in 1 10 100; do
  dir=$work/x$k
  files=$(corpus_copies $((k * base)) "$dir")
  bytes=$(du -sb --apparent-size "$dir" | cut -f1)
  cmd="$bin --no-config --failure-threshold none $dir"
  runs=$((k == 100 ? 10 : 30))
  hyperfine -N -w 3 -r $runs --export-json "$work/h.json" "$cmd" >/dev/null 2>&1
  /usr/bin/time -f %M -o "$work/rss" $cmd >/dev/null 2>&1 || true
  python3 - "$work/h.json" "$k" "$files" "$bytes" "$(tail -n 1 "$work/rss")" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))["results"][0]
k, files, nbytes, rss = sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5])
ms, sd, cpu = r["mean"] * 1e3, r["stddev"] * 1e3, (r["user"] + r["system"]) * 1e3
mb = nbytes / 1e6
print(f"| {k}x | {files} | {mb:.2f} | {ms:.1f} ± {sd:.1f} | {cpu:.1f} | {ms * 1e3 / files:.0f} "
      f"| {ms / mb:.1f} | {rss / 1024:.1f} |")
PY
  rm -rf "$dir"
done
