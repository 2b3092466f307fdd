#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# tests/fatbin.sh GPULINT: GL210 on the CUDA binaries of an image, end to end. The binaries
# of tests/fatbin/ (built by tests/fatbin/build.sh: the nvcc arch flags there are the
# oracle) go into one image made by umoci, under their own names; for each target GPU the
# files GL210 names must be exactly those whose code cannot run there (static libraries:
# their members' code together). Run on the
# checked-in copies, then again on binaries freshly built by the nvcc of this machine
# (skipped, saying so, when there is none). Exit 77 without umoci.
set -uo pipefail
gpulint=$(realpath "${1:?usage: tests/fatbin.sh path/to/gpulint}")
here=$(cd "$(dirname "$0")" && pwd)
command -v umoci >/dev/null || { echo "skip: umoci missing"; exit 77; }
command -v python3 >/dev/null || { echo "skip: python3 missing"; exit 77; }
work=$(mktemp -d /tmp/gpulint-fatbin.XXXXXX)
trap 'rm -rf "$work"' EXIT
fails=0
files="sm80.so sm80_ptx.so sm80_plain.so sm90a.so multi_z.so rdc.o app x32.o le64.o le32.o be64.o plain.so libk.a libmix.a librdc.a"

image() { # image SRC_DIR OUT: one layer with every test binary under usr/local/lib
  rm -rf "$work/root" "$2"
  mkdir -p "$work/root/usr/local/lib"
  for f in $files; do cp -p "$1/$f" "$work/root/usr/local/lib/$f"; done
  tar --sort=name --owner=0 --group=0 --numeric-owner --mtime=@0 -C "$work/root" \
    -cf "$work/layer.tar" .
  (cd "$work" && umoci init --layout "$2" >/dev/null && umoci new --image "$2:1" >/dev/null &&
   umoci raw add-layer --image "$2:1" layer.tar >/dev/null)
}

named() { # named IMAGE GPU: the files GL210 names, sorted, on one line
  "$gpulint" --no-cache --gpu "$2" -f json "$1" 2>/dev/null | python3 -c '
import json, re, sys
names = set()
for f in json.load(sys.stdin)["findings"]:
    if f["rule"] == "GL210":
        names.add(re.search(r"`/usr/local/lib/([^`]+)`", f["message"]).group(1))
print(" ".join(sorted(names)))'
}

check() { # check LABEL IMAGE
  # what runs where: SASS sm_XY on X.y..X.9, sm_90a only on 9.0, PTX at or above its own
  while read -r gpu expected; do
    got=$(named "$2" "$gpu")
    if [ "$got" = "$expected" ]; then echo "ok: $1 --gpu $gpu: $got"
    else echo "FAIL: $1 --gpu $gpu: GL210 names '$got', expected '$expected'"; fails=$((fails+1)); fi
  done <<'CASES'
H100 app libk.a rdc.o sm80.so x32.o
A100 app libmix.a librdc.a multi_z.so sm90a.so
A10 libmix.a librdc.a sm90a.so
B200 app libk.a librdc.a rdc.o sm80.so sm90a.so x32.o
CASES
}

image "$here/fatbin" "$work/checked-in"
check "checked-in binaries" "$work/checked-in"
if out=$(bash "$here/fatbin/build.sh" "$work/fresh" 2>&1); then
  echo "fresh binaries: $(tail -1 "$work/fresh/NVCC_VERSION")"
  image "$work/fresh" "$work/fresh-image"
  check "fresh binaries" "$work/fresh-image"
else
  echo "note: fresh binaries not built: $(echo "$out" | tail -1)"
fi
[ "$fails" -eq 0 ] || { echo "fatbin: $fails failure(s)"; exit 1; }
echo "fatbin: all passed"
