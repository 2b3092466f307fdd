#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The real-world corpus in tests/corpus/files (copied from the project's shared corpus): no input may be a parse error (GL900) unless
# it is listed as really invalid, and what gpulint reports there is pinned in
# tests/corpus/<dir>.expected (rule file:line:col severity), reviewed by hand.
# UPDATE=1 rewrites the expectations (review the diff!).
set -uo pipefail
bin=$(realpath "${1:?usage: corpus.sh path/to/gpulint}")
cd "$(dirname "$0")/.."
corpus=tests/corpus/files
[ -d "$corpus" ] || { echo "FAIL: $corpus is absent"; exit 1; }
pass=0 fail=0
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
for dir in dockerfiles runlines compose k8s apptainer; do
  [ -d "$corpus/$dir" ] || continue
  exp=tests/corpus/$dir.expected
  [ -f "$exp" ] || [ "${UPDATE:-}" = 1 ] || continue   # a family gpulint does not read yet
  files=()
  for f in "$corpus/$dir"/*; do [ "$(basename "$f")" = SOURCES.tsv ] || files+=("$f"); done
  (cd "$corpus/$dir" && "$bin" --format json --driver 535 "${files[@]##*/}") > "$tmp/out.json" 2> "$tmp/err"
  rc=$?
  if [ $rc -gt 1 ]; then echo "FAIL $dir: exit $rc"; cat "$tmp/err"; fail=$((fail+1)); continue; fi
  python3 - "$tmp/out.json" > "$tmp/got" <<'PY'
import json, sys
for f in json.load(open(sys.argv[1]))["findings"]:
    print(f'{f["rule"]} {f["file"]}:{f["line"]}:{f["column"]} {f["severity"]}')
PY
  invalid=tests/corpus/$dir.invalid   # inputs that really are invalid (one name a line)
  while read -r line; do
    name=${line#* }; name=${name%%:*}
    if ! grep -qxF "$name" "$invalid" 2>/dev/null; then echo "FAIL $dir: GL900 in $name"; fail=$((fail+1)); fi
  done < <(grep '^GL900 ' "$tmp/got")
  if [ "${UPDATE:-}" = 1 ]; then cp "$tmp/got" "$exp"; fi
  if diff -u "$exp" "$tmp/got"; then pass=$((pass+1)); else echo "FAIL $dir: findings differ from $exp"; fail=$((fail+1)); fi
done
echo "corpus: $pass passed, $fail failed"
[ "$fail" = 0 ]
