#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# bench/dockerfiles.sh: lint tests/corpus/files/dockerfiles replicated to about N files
# (default 1000) in one process; report wall time and peak RSS, and the same files
# through dockerfilelint (npm) as the peer, in the same run.
#
#   bench/dockerfiles.sh [N] [build/gpulint]
set -euo pipefail
cd "$(dirname "$0")/.."
n=${1:-1000}
bin=${2:-build/gpulint}
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT

. bench/corpus_copies.sh
count=$(corpus_copies "$n" "$work/files")
bytes=$(du -sb "$work/files" | cut -f1)
echo "files: $count ($bytes bytes)"

measure() { # measure LABEL COMMAND...: wall seconds and peak RSS (KiB) of one run
  local label=$1; shift
  /usr/bin/time -f "%e %M" -o "$work/time" "$@" > /dev/null 2>&1 || true
  read -r secs rss < <(tail -n 1 "$work/time")
  printf '%-16s %8.3f s %8d KiB\n' "$label" "$secs" "$rss"
  eval "${label//[^a-z]/_}_secs=$secs"
}

"$bin" --failure-threshold none "$work/files" > /dev/null        # warm the page cache
measure gpulint "$bin" --failure-threshold none "$work/files"
if command -v hyperfine > /dev/null; then
  hyperfine -N -w 1 -r 5 --export-json "$work/h.json" \
    "$bin --failure-threshold none $work/files" 2>/dev/null | grep -E 'Time|Range' || true
fi

# the peer: dockerfilelint from npm, installed locally on first use
peer=bench/.node/node_modules/.bin/dockerfilelint
if [ ! -x "$peer" ] && command -v npm > /dev/null; then
  npm install --silent --no-audit --no-fund --prefix bench/.node dockerfilelint > /dev/null 2>&1 || true
fi
if [ -x "$peer" ]; then
  list=$(find "$work/files" -type f | sort)
  # one process for all files, as for gpulint
  measure dockerfilelint "$peer" $list
  python3 -c "print(f'ratio: gpulint is {${dockerfilelint_secs}/max(${gpulint_secs},0.0005):.1f}x faster than dockerfilelint')"
else
  echo "dockerfilelint: not installed (npm unavailable): no peer ratio"
fi
