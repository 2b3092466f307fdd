#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# tests/spill.sh GPULINT: a run's findings written to a temporary file in sorted runs
# (linter/report/finding_spill.h) make the same report, byte for byte, as findings kept
# in memory, and keep memory flat.
#
#  - fixtures/ and tests/corpus/files (with a directory named twice, once as ./DIR: repeats
#    dropped, one file under two spellings), in every format, with --limit
#    findings-memory=1 (every input's findings written at once: hundreds of runs, merged
#    in stages) against the default (all in memory here): same bytes, same exit status;
#  - a finding made moot by a later input (a script that builds the image an earlier one
#    runs) is dropped from written runs too;
#  - with no temporary directory to write to, the findings stay in memory: same report;
#  - 800 Dockerfiles of 100 findings each: peak RSS with the default limit is at least
#    12 MiB under that with findings-memory=1GiB (all held: about 28 MiB of findings), so
#    the runs were written (a difference, not a ratio: under AddressSanitizer both sides
#    carry its own 160 MiB).
set -uo pipefail
gpulint=$(realpath "${1:?usage: tests/spill.sh path/to/gpulint}")
cd "$(dirname "$0")/.."
work=$(mktemp -d /tmp/gpulint-spill.XXXXXX)
trap 'rm -rf "$work"' EXIT
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
pass() { echo "ok: $*"; }
g=(--no-config --no-cache)

# same LABEL ARGS...: the report with every input's findings written equals the default
same() {
  local label=$1; shift
  "$gpulint" "${g[@]}" "$@" > "$work/mem" 2> /dev/null; local a=$?
  "$gpulint" "${g[@]}" --limit findings-memory=1 "$@" > "$work/disk" 2> /dev/null; local b=$?
  if [ $a -ne $b ]; then fail "$label: exit $a in memory, $b written"
  elif ! cmp -s "$work/mem" "$work/disk"; then
    fail "$label: reports differ"; diff "$work/mem" "$work/disk" | head -n 10
  elif [ ! -s "$work/mem" ]; then fail "$label: empty report"
  else pass "$label ($(wc -c < "$work/mem") bytes)"; fi
}
for fmt in tty json sarif checkstyle gitlab; do
  same "fixtures, $fmt" -f "$fmt" --driver 535 --gpu H100 fixtures
  same "corpus, $fmt" -f "$fmt" --driver 535 tests/corpus/files
  same "a directory named twice, $fmt" -f "$fmt" fixtures/rules/GL101 ./fixtures/rules fixtures/rules/GL101
done

mkdir -p "$work/moot"
printf '#!/bin/sh\ndocker run --gpus all acme/train python train.py\ndocker run --gpus all acme/other python x.py\n' \
  > "$work/moot/a.sh"
printf '#!/bin/sh\ndocker build -t acme/train .\n' > "$work/moot/b.sh"
n=$("$gpulint" "${g[@]}" --limit findings-memory=1 -f json "$work/moot" |
  python3 -c 'import json,sys; print(" ".join(sorted(f["message"].split("`")[1] for f in json.load(sys.stdin)["findings"] if f["rule"] == "GL101")))')
[ "$n" = "acme/other" ] && pass "moot finding dropped from written runs" ||
  fail "moot: GL101 on '$n', expected on acme/other only"
same "moot, json" -f json "$work/moot"

"$gpulint" "${g[@]}" -f sarif fixtures > "$work/mem" 2> /dev/null
TMPDIR=$work/none "$gpulint" "${g[@]}" --limit findings-memory=1 -f sarif fixtures \
  > "$work/disk" 2> /dev/null
cmp -s "$work/mem" "$work/disk" && pass "no temporary directory: kept in memory, same report" ||
  fail "no temporary directory: reports differ"

if ! command -v /usr/bin/time > /dev/null; then
  echo "skip: peak RSS (no GNU time)"
else
  mkdir -p "$work/many"
  for i in $(seq 0 99); do echo "FROM ubuntu AS s$i"; done > "$work/many/0.Dockerfile"
  for i in $(seq 1 799); do ln "$work/many/0.Dockerfile" "$work/many/$i.Dockerfile"; done
  rss() { /usr/bin/time -f %M -o "$work/t" "$gpulint" "${g[@]}" "$@" "$work/many" > /dev/null
    tail -n 1 "$work/t"; }
  held=$(rss --limit findings-memory=1GiB) written=$(rss)
  if [ $((held - written)) -ge $((12 * 1024)) ]; then
    pass "80,000 findings: peak RSS ${written} KiB written, ${held} KiB held"
  else fail "80,000 findings: peak RSS ${written} KiB written, ${held} KiB held"; fi
fi

[ $fails = 0 ] && echo "spill: all passed" || echo "spill: $fails failed"
[ $fails = 0 ]
