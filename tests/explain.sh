#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# `gpulint --explain ID` shows a Before and an After example for every rule: Before must
# report the rule and After must not, run through the real binary as the input type the
# example is written in. An example's first line `# gpulint ARGS` gives the options it needs
# (--gpu B200). Rules whose examples cannot stand alone are listed below with the reason.
set -uo pipefail
bin=$(realpath "${1:?usage: explain.sh path/to/gpulint}")
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
declare -A skip=(
  [GL900]="the example is a parse error in prose, not an input"
  [GL901]="an input of no known type: the After is a renamed file"
  [GL902]="the example is a config file beside an input"
  [GL903]="needs a Helm chart directory"
  [GL405]="a fragment of a pod spec"
  [GL412]="a fragment of a pod spec"
  [GL414]="a fragment of a pod spec"
)
pass=0 fail=0

# Print the Before (which=Before) or After block of an --explain text.
block() {
  awk -v want="$1:" '
    $0 == want { on = 1; getline; next }
    on && ($0 == "After:" || /^Fix: /) { exit }
    on { print }' | sed -e :a -e '/^\n*$/{$d;N;ba' -e '}'
}

# The file name an example is linted as, from what it holds.
name_for() {
  if grep -qE '^(FROM|RUN|ENV|ARG|COPY|ADD) ' "$1"; then echo Dockerfile
  elif grep -qE '^Bootstrap:' "$1"; then echo image.def
  elif grep -qE '^#SBATCH' "$1"; then echo job.sbatch
  elif grep -qE '^services:' "$1"; then echo compose.yaml
  elif grep -qE '^(apiVersion|kind):' "$1"; then echo pod.yaml
  elif grep -qE '^(version|devices|sharing):' "$1"; then echo config.yaml
  else echo run.sh
  fi
}

run_case() { # rule which file -> prints the rule ids found
  local dir="$tmp/$1-$2"
  mkdir -p "$dir"
  local args=()
  local first; first=$(head -n1 "$3")
  if [[ $first == "# gpulint "* ]]; then read -r -a args <<< "${first#\# gpulint }"; fi
  local name; name=$(name_for "$3")
  cp "$3" "$dir/$name"
  (cd "$dir" && "$bin" --format json --enable "$1" "${args[@]}" "$name") 2>/dev/null |
    grep -o '"rule": "GL[0-9]*"' | sort -u
}

for id in $("$bin" --list-rules | awk '/^GL[0-9]/ { print $1 }'); do
  if [ -n "${skip[$id]:-}" ]; then echo "skip $id: ${skip[$id]}"; continue; fi
  "$bin" --explain "$id" > "$tmp/explain"
  block Before < "$tmp/explain" > "$tmp/before"
  block After < "$tmp/explain" > "$tmp/after"
  if [ ! -s "$tmp/before" ] || [ ! -s "$tmp/after" ]; then
    echo "FAIL $id: --explain has no Before or no After example"; fail=$((fail+1)); continue
  fi
  ok=1
  found_before=$(run_case "$id" before "$tmp/before")
  found_after=$(run_case "$id" after "$tmp/after")
  if [[ $found_before != *"\"$id\""* ]]; then
    echo "FAIL $id: the Before example does not report $id"; sed 's/^/    /' "$tmp/before"; ok=0
  fi
  if [[ $found_after == *"\"$id\""* ]]; then
    echo "FAIL $id: the After example still reports $id"; sed 's/^/    /' "$tmp/after"; ok=0
  fi
  if [ $ok = 1 ]; then pass=$((pass+1)); else fail=$((fail+1)); fi
done
echo "explain: $pass passed, $fail failed"
[ $fail = 0 ] && [ $pass -gt 20 ]
