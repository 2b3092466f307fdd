#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The committed docs (docs/gpulint.1, docs/rules/*.md) must be exactly what this build
# generates from the rule registry and --help (tools/gendocs.c, built beside gpulint as
# gpulint-gendocs); docs/rules/ holds one page per rule and no other; --explain prints
# the registry's own text for every rule; the README's first example (a file) prints what
# it shows, and the next one is `gpulint docker://...`. Fix a docs failure with
#     cmake --build BUILD --target docs     and review the diff.
set -uo pipefail
bin=$(realpath "${1:?usage: docs_drift.sh path/to/gpulint}")
gendocs=$(dirname "$bin")/gpulint-gendocs
cd "$(dirname "$0")/.."
[ -x "$gendocs" ] || { echo "FAIL: $gendocs not built"; exit 1; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
passed=0 failed=0
check() { if "$@"; then passed=$((passed+1)); else failed=$((failed+1)); fi; }

generated_equals_committed() {
  "$gendocs" "$tmp/docs" || { echo "FAIL: gpulint-gendocs failed"; return 1; }
  if ! diff -ru docs/gpulint.1 "$tmp/docs/gpulint.1" || ! diff -ru docs/rules "$tmp/docs/rules"; then
    echo "FAIL: committed docs differ from the generated ones:" \
         "run \`cmake --build BUILD --target docs\` and review"
    return 1
  fi
  echo "ok   docs/ equals what the registry generates"
}

one_page_per_rule() {
  local ids pages
  ids=$("$bin" --list-rules | awk '{print $1}' | sort)
  pages=$(ls docs/rules | sed 's/\.md$//' | sort)
  if [ "$ids" != "$pages" ]; then
    echo "FAIL: docs/rules/ pages and rules differ:"; diff <(echo "$ids") <(echo "$pages"); return 1
  fi
  echo "ok   one page per rule ($(echo "$ids" | wc -l) rules)"
}

explain_matches_pages() {
  local id out bad=0
  for id in $("$bin" --list-rules | awk '{print $1}'); do
    out=$("$bin" --explain "$id") || { echo "FAIL: --explain $id failed"; bad=1; continue; }
    # the explanation paragraph (line 5 of --explain) is also the page's "Why" section
    if ! grep -qxF -- "$(echo "$out" | sed -n 5p)" "docs/rules/$id.md"; then
      echo "FAIL: --explain $id and docs/rules/$id.md disagree"; bad=1
    fi
  done
  [ $bad = 0 ] && echo "ok   --explain text is the pages' text"
}

man_page_is_clean_roff() {
  if ! command -v groff >/dev/null; then echo "ok   (groff absent: roff warnings not checked)"; return 0; fi
  local warnings
  warnings=$(LC_ALL=C.UTF-8 groff -man -ww -z -Tutf8 docs/gpulint.1 2>&1)
  if [ -n "$warnings" ]; then echo "FAIL: groff warns on docs/gpulint.1:"; echo "$warnings"; return 1; fi
  echo "ok   groff -ww: no warnings on the man page"
}

# The README's first example lints a file and its output is what gpulint prints (each
# shown line, up to a "...", is the start of a printed line); the next example is
# `gpulint docker://...` (issue 21: a registry image is the first example after a file).
readme_examples() {
  python3 - "$bin" <<'PY'
import re, subprocess, sys
text = open("README.md", encoding="utf-8").read()
blocks = re.findall(r"```\n(\$ gpulint [^\n]*)\n(.*?)```", text, re.S)
if len(blocks) < 2:
    print("FAIL: README: fewer than two `$ gpulint` examples"); sys.exit(1)
cmd, shown = blocks[0]
args = cmd.split()[2:]
import os
if not os.path.isfile(args[-1]):
    print(f"FAIL: README: the first example lints {args[-1]}, not a file"); sys.exit(1)
out = subprocess.run([sys.argv[1], "--no-config", *args], capture_output=True, text=True).stdout.splitlines()
for line in shown.splitlines():
    want = line.split(" ...")[0].rstrip()
    if want and want != "..." and not any(o.startswith(want) for o in out):
        print(f"FAIL: README: the first example shows a line gpulint does not print: {want}"); sys.exit(1)
if not blocks[1][0].split()[-1].startswith("docker://"):
    print("FAIL: README: the example after the first is not `gpulint docker://...`"); sys.exit(1)
print("ok   README: the first example (a file) is real; the next is docker://")
PY
}

check generated_equals_committed
check readme_examples
check one_page_per_rule
check explain_matches_pages
check man_page_is_clean_roff
echo "docs_drift: $passed passed, $failed failed"
[ $failed = 0 ]
