# SPDX-License-Identifier: Apache-2.0
# Sourced by the script tests (tests/cli.sh, tests/helm.sh): checks that count into
# $pass and $fail, with each command's output in $tmp/out and $tmp/err.
#
#   check NAME EXPECTED-STATUS COMMAND...   run it, compare its exit status
#   has NAME PATTERN / hasnt NAME PATTERN   the last output matches (or not) the ERE
pass=0 fail=0
check() { # check NAME EXPECTED-STATUS COMMAND... ; output in $tmp/out
  local name=$1 want=$2; shift 2
  "$@" > "$tmp/out" 2> "$tmp/err"; local rc=$?
  if [ "$rc" = "$want" ]; then pass=$((pass+1)); else
    echo "FAIL $name: exit $rc, expected $want"; cat "$tmp/out" "$tmp/err" | head -20; fail=$((fail+1)); fi
}
has() { # has NAME PATTERN: the last output matches the extended regex
  if grep -qE -- "$2" "$tmp/out"; then pass=$((pass+1)); else
    echo "FAIL $1: output lacks /$2/"; head -20 "$tmp/out"; fail=$((fail+1)); fi
}
hasnt() {
  if grep -qE -- "$2" "$tmp/out"; then echo "FAIL $1: output has /$2/"; fail=$((fail+1)); else pass=$((pass+1)); fi
}
