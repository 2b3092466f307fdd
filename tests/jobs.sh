#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# tests/jobs.sh GPULINT: text inputs linted on worker threads (--jobs N) report exactly
# what one thread reports: the same bytes in json, tty and sarif, the same stderr, the same
# exit status, run after run.
#
# The tree mixes what the workers must hand back in order: every file of
# tests/corpus/files and fixtures/rules (many kinds, many findings), Dockerfiles that each
# print a warning on stderr (--target of a stage they lack), a compose file that includes
# one the walk reaches later and one it reached earlier (each linted once, as with one
# thread), a file over the workers' size limit in the middle (read by the run's own
# thread), an OCI archive made by umoci among the text files (recognised by a worker,
# read by the run's thread), files named one by one as pre-commit does, a spill of the
# findings to disk every few findings (--limit findings-memory), and a path that does
# not exist. Each case runs with --jobs 1 and --jobs 4 (more threads than cores: other
# interleavings) three times.
set -euo pipefail
bin=$(realpath "${1:?usage: tests/jobs.sh path/to/gpulint}")
cd "$(dirname "$0")/.."
work=$(mktemp -d /tmp/gpulint-jobs.XXXXXX)
trap 'rm -rf "$work"' EXIT
t=$work/tree
mkdir -p "$t"
cp -r tests/corpus/files "$t/corpus"
cp -r fixtures/rules "$t/rules"
for i in 1 2 3 4 5 6; do
  mkdir -p "$t/warn$i"
  printf 'FROM nvidia/cuda:12.4.1-devel-ubuntu22.04 AS build%d\nRUN make\n' "$i" \
    > "$t/warn$i/Dockerfile"
done
# compose includes: a/ includes b/ (walked later: linted through the include only) and 0/
# (walked earlier: linted by the walk only)
mkdir -p "$t/inc/0" "$t/inc/a" "$t/inc/b"
printf 'services:\n  early:\n    image: pytorch/pytorch:latest\n    command: torchrun t.py\n' \
  > "$t/inc/0/compose.yaml"
printf 'include:\n  - ../b/compose.yaml\n  - ../0/compose.yaml\nservices:\n  app:\n    image: nvcr.io/nvidia/pytorch:24.05-py3\n    command: torchrun --nproc_per_node=2 train.py\n' \
  > "$t/inc/a/compose.yaml"
printf 'services:\n  extra:\n    image: nvidia/cuda:latest\n    command: python t.py\n' \
  > "$t/inc/b/compose.yaml"
# over the workers' size limit (1 MiB): read by the run's own thread, between the others
mkdir -p "$t/big"
{ printf 'FROM ubuntu:latest\n'; for ((i = 0; i < 40000; i++)); do printf 'RUN echo %030d\n' $i; done; } \
  > "$t/big/Dockerfile"
# a small OCI archive among the text files (umoci, when installed), with a driver library
# baked in (a finding to show it was read)
if command -v umoci > /dev/null; then
  lib=usr/lib/x86_64-linux-gnu
  ( cd "$work" && umoci init --layout lay > /dev/null && umoci new --image lay:x > /dev/null &&
    mkdir -p root/$lib && printf 'x\n' > root/$lib/libcuda.so.535.104.05 &&
    tar -C root -cf layer.tar usr &&
    umoci raw add-layer --image lay:x layer.tar > /dev/null 2>&1 &&
    tar -C lay -cf "$t/big/image.tar" . ) || echo "note: umoci could not make the archive"
else
  echo "note: umoci missing: no image archive in the tree"
fi

fails=0
# same NAME ARGS...: --jobs 1 and --jobs 4 give the same reports, stderr and status
same() {
  local name=$1; shift
  local fmt rep
  for fmt in json tty sarif; do
    set +e
    "$bin" --no-config --no-cache --driver 535 --format "$fmt" --jobs 1 "$@" > "$work/one" 2> "$work/one.err"
    local rc1=$?
    set -e
    for rep in 1 2 3; do
      set +e
      "$bin" --no-config --no-cache --driver 535 --format "$fmt" --jobs 4 "$@" > "$work/four" 2> "$work/four.err"
      local rc4=$?
      set -e
      if [ $rc1 != $rc4 ] || ! cmp -s "$work/one" "$work/four" ||
         ! cmp -s "$work/one.err" "$work/four.err"; then
        echo "FAIL $name ($fmt, run $rep): exit $rc1 vs $rc4"
        diff "$work/one" "$work/four" | head -n 10 || true
        diff "$work/one.err" "$work/four.err" | head -n 10 || true
        fails=$((fails + 1))
        break
      fi
    done
  done
  echo "ok $name ($(wc -l < "$work/one") lines, $(wc -l < "$work/one.err") on stderr)"
}

same walk "$t"
same target-warnings --target build3 "$t"
same spill --limit findings-memory=4KiB "$t"
same named $(find "$t/corpus" "$t/inc" "$t/warn1" "$t/big" -type f | sort) "$t/does-not-exist"
# what the runs agree on is what it should be
"$bin" --no-config --no-cache --driver 535 --jobs 4 --target build3 --format json "$t" \
  > "$work/r.json" 2> "$work/r.err" || true
python3 - "$work/r.json" "$work/r.err" "$t" <<'PY' || fails=$((fails + 1))
import os
import json, sys
findings = json.load(open(sys.argv[1]))["findings"]
err = open(sys.argv[2]).read()
t = sys.argv[3]
files = {f["file"] for f in findings}
problems = []
if err.count("no such stage") < 6:
    problems.append("expected a --target warning from each Dockerfile, got: " + err[:300])
for f in ("inc/a/compose.yaml", "inc/b/compose.yaml", "inc/0/compose.yaml", "big/Dockerfile"):
    if not any(x.endswith(f) for x in files):
        problems.append("no finding in " + f)
if os.path.exists(t + "/big/image.tar") and not any(x.endswith("big/image.tar") for x in files):
    problems.append("no finding in the image archive big/image.tar")
# each compose file once (b/ through a/'s include, met first; 0/ by the walk, met first):
# an include is named as compose folds it (inc/b/compose.yaml, not inc/a/../b/...), so a
# file linted twice shows as the same finding twice
if any("/../" in x for x in files):
    problems.append("an include named unfolded: " + str(sorted(x for x in files if "/../" in x)))
seen = [(f["rule"], f["file"], f["line"], f["column"], f["message"]) for f in findings
        if "/inc/" in f["file"]]
if len(seen) != len(set(seen)):
    problems.append("a compose file linted twice")
if problems:
    sys.exit("FAIL content: " + "; ".join(problems))
print(f"ok content ({len(findings)} findings in {len(files)} files)")
PY
echo "jobs: $fails failure(s)"
[ $fails = 0 ]
