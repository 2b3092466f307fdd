#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Golden tests: run the real binary on every fixture and compare its JSON report.
#
# Layout (fixtures/images/ holds image recipes for tests/images.sh and fixtures/charts/
# Helm charts for tests/helm.sh, not golden cases):
#         fixtures/rules/<ID>/fire/<case> must produce at least one <ID> finding;
#         fixtures/rules/<ID>/pass/<case> must produce none; other fixtures/golden/<case>
#         are plain golden cases. Each <case> has <case>.json beside it: the expected
#         report (the "version" line is not compared). An optional <case>.args holds
#         extra command-line arguments (one line, word-split). A <case> may be a
#         directory: its files are linted as one run (tests/lib/golden_cases.sh); a new
#         directory case is one once its <case>.json exists (create it empty, then
#         UPDATE=1).
# UPDATE=1 bash tests/golden.sh build/gpulint   rewrites the .json files (review the diff!).
set -uo pipefail
bin=$(realpath "${1:?usage: golden.sh path/to/gpulint}")
cd "$(dirname "$0")/.."
. tests/lib/golden_cases.sh
pass=0 fail=0
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

strip_version() { sed -E '/^  "version": /d' "$1"; }

while IFS= read -r -d '' f; do
  args=()
  [ -f "$f.args" ] && read -r -a args < "$f.args"
  (cd "$(dirname "$f")" && "$bin" --format json "${args[@]}" "$(basename "$f")") > "$tmp/out" 2> "$tmp/err"
  rc=$?
  if [ "$rc" -gt 1 ]; then
    echo "FAIL $f: exit $rc"; cat "$tmp/err"; fail=$((fail+1)); continue
  fi
  if [ "${UPDATE:-}" = 1 ]; then cp "$tmp/out" "$f.json"; fi
  ok=1
  if [ ! -f "$f.json" ]; then
    echo "FAIL $f: no expected $f.json (run with UPDATE=1 and review it)"; ok=0
  elif ! diff -u <(strip_version "$f.json") <(strip_version "$tmp/out") > "$tmp/diff"; then
    echo "FAIL $f: report differs from $f.json"; cat "$tmp/diff"; ok=0
  fi
  # a fire case must fire its rule, a pass case must not: no golden file can be vacuous
  id=$(echo "$f" | sed -nE 's#^fixtures/rules/(GL[0-9]+)/(fire|pass)/.*#\1 \2#p')
  if [ -n "$id" ]; then
    set -- $id
    if [ "$2" = fire ] && ! grep -q "\"rule\": \"$1\"" "$tmp/out"; then
      echo "FAIL $f: expected a $1 finding"; ok=0
    elif [ "$2" = pass ] && grep -q "\"rule\": \"$1\"" "$tmp/out"; then
      echo "FAIL $f: expected no $1 finding"; ok=0
    fi
  fi
  if [ $ok = 1 ]; then pass=$((pass+1)); else fail=$((fail+1)); fi
done < <(golden_cases fixtures)

echo "golden: $pass passed, $fail failed"
[ $fail = 0 ]
