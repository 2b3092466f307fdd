#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# tests/shard.sh GPULINT: --images-from and --shard K/N (examples/scale/).
#
# A list of the Dockerfile fixtures that must fire (with a comment and a blank line) is linted
# once whole and once per shard K of N for N = 1, 3 and 4: the shards' findings, merged,
# equal the whole run's, no input is in two shards, the split is the same on a second
# run. Bad --shard values are usage errors. examples/scale/ lints clean.
set -uo pipefail
gpulint=$(realpath "${1:?usage: tests/shard.sh path/to/gpulint}")
here=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d /tmp/gpulint-shard.XXXXXX)
trap 'rm -rf "$work"' EXIT
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
pass() { echo "ok: $*"; }
cd "$here"
# Dockerfiles only: each is judged alone (a run's other inputs can make a finding moot,
# e.g. a kustomization or a build command that tags the image, so a split of such a
# project would change what is found; images and Dockerfiles do not depend on each other)
{ echo "# the Dockerfile fixtures that fire"; echo
  ls -d fixtures/rules/*/fire/* | grep -v '\.json$' | grep -i 'dockerfile\|containerfile'; } \
  > "$work/list"
total=$(grep -vc '^#\|^$' "$work/list")
row() { python3 -c '
import json, sys
for p in sys.argv[1:]:
    for f in json.load(open(p))["findings"]:
        print(f["file"], f["line"], f["column"], f["rule"], f["message"])' "$@" | sort; }
"$gpulint" --no-config --driver 535 -f json --images-from "$work/list" > "$work/whole.json"
row "$work/whole.json" > "$work/whole"
[ -s "$work/whole" ] && pass "whole run: $(wc -l < "$work/whole") findings from $total inputs" ||
  fail "whole run: no findings"
for n in 1 3 4; do
  files=0
  for k in $(seq 0 $((n - 1))); do
    "$gpulint" --no-config --driver 535 -f json --images-from "$work/list" --shard "$k/$n" \
      > "$work/s$k.json"
    files=$((files + $(python3 -c 'import json,sys;print(json.load(open(sys.argv[1]))["summary"]["files"])' "$work/s$k.json")))
  done
  row $(seq -f "$work/s%g.json" 0 $((n - 1))) > "$work/merged"
  diff -q "$work/whole" "$work/merged" >/dev/null && pass "N=$n: the shards' union is the whole run" ||
    { fail "N=$n: union differs"; diff "$work/whole" "$work/merged" | head; }
  whole_files=$(python3 -c 'import json,sys;print(json.load(open(sys.argv[1]))["summary"]["files"])' "$work/whole.json")
  [ "$files" = "$whole_files" ] && pass "N=$n: each input in one shard ($files files)" ||
    fail "N=$n: $files files in the shards, $whole_files whole"
done
"$gpulint" --no-config -f json --images-from "$work/list" --shard 2/4 > "$work/again.json"
"$gpulint" --no-config -f json --images-from "$work/list" --shard 2/4 > "$work/again2.json"
cmp -s "$work/again.json" "$work/again2.json" && pass "stable split" || fail "split not stable"
grep -v '^#\|^$' "$work/list" | "$gpulint" --no-config --driver 535 -f json --images-from - \
  > "$work/stdin.json"
[ "$(row "$work/stdin.json")" = "$(cat "$work/whole")" ] && pass "--images-from -" ||
  fail "--images-from - differs"
for bad in 4/4 -1/2 1 a/b 0/0 1/; do
  "$gpulint" --shard "$bad" . >/dev/null 2>&1; rc=$?
  [ "$rc" = 2 ] && pass "--shard $bad: usage error" || fail "--shard $bad: exit $rc"
done
"$gpulint" --images-from "$work/absent" >/dev/null 2>&1; rc=$?
[ "$rc" = 2 ] && pass "--images-from of a missing file: exit 2" || fail "--images-from absent: $rc"
: > "$work/empty"
n=$("$gpulint" --no-config -f json --images-from "$work/empty" | python3 -c 'import json,sys;print(json.load(sys.stdin)["summary"]["files"])')
[ "$n" = 0 ] && pass "an empty list lints nothing (not the working directory)" || fail "empty list: $n files"
"$gpulint" --no-config --driver 535 examples/scale >/dev/null 2>&1; rc=$?
out=$("$gpulint" --no-config --driver 535 -f json examples/scale | python3 -c 'import json,sys;d=json.load(sys.stdin);print(d["summary"]["files"], d["summary"]["findings"])')
[ "$rc" = 0 ] && [ "${out#* }" = 0 ] && [ "${out% *}" -ge 2 ] && pass "examples/scale lints clean ($out)" ||
  { fail "examples/scale: exit $rc, files/findings $out"; "$gpulint" --no-config --driver 535 examples/scale; }
# the Job against the Kubernetes schema, offline (npm kubernetes-models, installed by
# bootstrap.sh test into the tools dir); a broken copy must be refused
tools=${GPULINT_TOOLS_DIR:-$HOME/.cache/gpulint-tools}/node_modules
if command -v node >/dev/null && [ -d "$tools/kubernetes-models" ] &&
   python3 -c 'import yaml' 2>/dev/null; then
  tojson() { python3 -c 'import json,sys,yaml
d = list(yaml.safe_load_all(open(sys.argv[1])))
if len(sys.argv) > 2: d[1]["spec"]["completions"] = "four"
print(json.dumps(d))' "$@"; }
  tojson examples/scale/job.yaml | node tests/lib/k8s_validate.js "$tools" > "$work/k8s" &&
    pass "examples/scale/job.yaml: valid against the Kubernetes schema" ||
    { fail "job.yaml is not valid"; cat "$work/k8s"; }
  tojson examples/scale/job.yaml broken | node tests/lib/k8s_validate.js "$tools" >/dev/null &&
    fail "the schema check accepts a broken Job" || pass "the schema check refuses a broken Job"
else
  echo "note: kubernetes-models (npm) or python3 yaml missing: job.yaml not schema-checked"
fi
echo "shard: $fails failure(s)"
[ "$fails" = 0 ]
