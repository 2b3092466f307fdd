#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# tests/valgrind.sh GPULINT: a subset of the golden cases (tests/golden.sh) under
# valgrind memcheck: for every rule directory its first `fire` and first `pass` case, and
# the first two cases of every other fixtures/ directory. Each run must be free of memory
# errors and leaks (valgrind --error-exitcode=1 --leak-check=full) and give the expected
# report (<case>.json, the "version" line not compared).
# Labelled `valgrind` in ctest (slow: only `ctest -L valgrind` runs it; bootstrap.sh test
# does, on the RelWithDebInfo build). Exit 77 when valgrind is missing or the binary is
# built with a sanitizer (valgrind cannot run those).
set -uo pipefail
bin=$(realpath "${1:?usage: tests/valgrind.sh path/to/gpulint}")
cd "$(dirname "$0")/.."
command -v valgrind >/dev/null || { echo "skip: valgrind missing"; exit 77; }
if nm "$bin" 2>/dev/null | grep -E ' (__asan_init|__ubsan_handle_)' >/dev/null; then
  echo "skip: $bin is built with a sanitizer"; exit 77
fi
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
export XDG_CACHE_HOME=$tmp/cache
wrap=(valgrind --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite,indirect -q)

. tests/lib/golden_cases.sh
first_cases() { # first_cases DIR N: the first N cases of DIR (sorted)
  local n=0 f
  while IFS= read -r -d '' f; do
    echo "$f"; n=$((n + 1)); [ $n -ge "$2" ] && break
  done < <(golden_cases "$1")
}
cases=()
for d in fixtures/rules/*/; do
  for kind in fire pass; do
    [ -d "$d$kind" ] && while IFS= read -r f; do cases+=("$f"); done < <(first_cases "$d$kind" 1)
  done
done
for d in fixtures/*/; do
  case $d in fixtures/rules/|fixtures/images/|fixtures/charts/) continue ;; esac
  while IFS= read -r f; do cases+=("$f"); done < <(first_cases "$d" 2)
done

pass=0 fail=0
strip_version() { sed -E '/^  "version": /d' "$1"; }
for f in "${cases[@]}"; do
  args=()
  [ -f "$f.args" ] && read -r -a args < "$f.args"
  (cd "$(dirname "$f")" && "${wrap[@]}" "$bin" --format json "${args[@]}" "$(basename "$f")") \
    > "$tmp/out" 2> "$tmp/err"
  rc=$?
  if [ $rc -gt 1 ]; then
    echo "FAIL $f: exit $rc"; head -c 4000 "$tmp/err"; fail=$((fail + 1)); continue
  fi
  if [ -f "$f.json" ] && ! diff -u <(strip_version "$f.json") <(strip_version "$tmp/out") > "$tmp/diff"; then
    echo "FAIL $f: report differs from $f.json under valgrind"; head -50 "$tmp/diff"; fail=$((fail + 1)); continue
  fi
  pass=$((pass + 1))
done
echo "valgrind: $pass passed, $fail failed (of ${#cases[@]} cases)"
[ $fail = 0 ]
