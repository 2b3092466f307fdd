#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# tests/images.sh GPULINT: image archives end to end, on images built by real tools.
#
# fixtures/images/build.sh builds one image (a baked driver, nvcc, cc1, a 120 MiB
# .safetensors, whiteouts, an opaque directory) with GNU tar + umoci, and skopeo converts
# it into every format: OCI layout (plain, zstd), oci-archive (plain, gzip, zstd layers;
# .tar.gz / .tar.zst outer), docker-archive, docker-save with a symlinked layer, stdin,
# and a two-platform index. Every format must give the same findings. Then: the cache
# (warm run equal, corrupt entry rebuilt), hostile inputs (GL900 or a clean lint, never a
# crash, other inputs still linted), nothing written outside the cache dir, and the real
# CUDA toolkit when /usr/local/cuda exists. Exit 77 when umoci or skopeo is missing.
set -uo pipefail
gpulint=$(realpath "${1:?usage: tests/images.sh path/to/gpulint}")
here=$(cd "$(dirname "$0")/.." && pwd)
for t in umoci skopeo python3 zstd gzip; do
  command -v $t >/dev/null || { echo "skip: $t missing"; exit 77; }
done
work=$(mktemp -d /tmp/gpulint-images.XXXXXX)
trap 'rm -rf "$work"' EXIT
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
pass() { echo "ok: $*"; }

bash "$here/fixtures/images/build.sh" "$work/img" >"$work/build.log" 2>&1 ||
  { cat "$work/build.log"; echo "FAIL: building the test images"; exit 1; }

# A fresh HOME, cache and temp dir, and an empty working directory: after the runs,
# only the cache dir may have changed.
export HOME=$work/home XDG_CACHE_HOME=$work/cache TMPDIR=$work/tmp
mkdir -p "$HOME" "$TMPDIR" "$work/cwd"
cd "$work/cwd"
touch "$work/stamp"
sleep 1

# rule + message, platform-independent of the file name, one per line, sorted
findings() { python3 -c '
import json, sys
d = json.load(sys.stdin)
for f in d["findings"]:
    print(f["rule"], f["line"], f["message"])' | sed -E 's/layer sha256:[0-9a-f]{12}/layer L/g' | sort; }
run() { "$gpulint" --driver 535 -f json "$@" 2>"$work/stderr"; }

img=$work/img
run --no-cache "$img/oci" | findings > "$work/expected"
for rule in GL201 GL203 GL205 GL301 GL302 GL303; do
  grep -q "^$rule " "$work/expected" || fail "oci layout: no $rule finding"
done
grep -q "nvidia-smi" "$work/expected" && fail "whiteout of usr/bin/nvidia-smi ignored"
grep -q 'libcuda.so.1' "$work/expected" || fail "GL203 should name usr/lib/x86_64-linux-gnu/libcuda.so.1"
grep -q 'compat/\|stubs/' "$work/expected" && fail "stubs/ or compat/ reported"
grep -q '^GL303 0 .*models/model.safetensors.*120.0 MiB' "$work/expected" || fail "GL303 size"
grep -q 'linux/amd64' "$work/expected" || fail "findings name the platform"
cat "$work/expected"

for f in oci-archive.tar docker-archive.tar oci-zstd oci-zstd.tar oci-gzip.tar \
         oci-archive.tar.gz oci-archive.tar.zst docker-symlink.tar; do
  run --no-cache "$img/$f" | findings > "$work/got"
  if diff -u "$work/expected" "$work/got" >/dev/null; then pass "$f: same findings"
  else fail "$f differs:"; diff -u "$work/expected" "$work/got"; fi
done
for f in oci-archive.tar oci-zstd.tar oci-archive.tar.zst docker-archive.tar; do
  "$gpulint" --no-cache --driver 535 -f json - < "$img/$f" | findings > "$work/got"
  diff -q "$work/expected" "$work/got" >/dev/null && pass "stdin $f" || fail "stdin $f differs"
done
cat "$img/docker-archive.tar" | "$gpulint" --no-cache --driver 535 -f json - | findings > "$work/got"
diff -q "$work/expected" "$work/got" >/dev/null && pass "pipe docker-archive" || fail "pipe differs"

# multi-platform: every platform by default, --platform selects
run --no-cache "$img/multi" | findings > "$work/multi"
grep -v GL205 "$work/expected" | diff -q - "$work/multi" >/dev/null && pass "multi: amd64 findings" ||
  { fail "multi"; diff -u <(grep -v GL205 "$work/expected") "$work/multi"; }
n=$(run --no-cache --platform linux/arm64 "$img/multi.tar" | findings | wc -l)
[ "$n" = 0 ] && pass "--platform linux/arm64: clean" || fail "--platform linux/arm64: $n findings"
out=$(run --no-cache --platform linux/s390x "$img/multi.tar")
echo "$out" | grep >/dev/null 'no image for platform' &&
  pass "--platform absent: GL900" || fail "--platform absent"
n=$(run --no-cache "$img/clean.tar" | findings | wc -l)
[ "$n" = 0 ] && pass "clean image: no finding" || fail "clean image: $n findings"

# GPU architectures (GL208): the image's CUDA 12.4 (its files, its config env) against the
# target GPU; none without one
grep -q '^GL208 ' "$work/expected" && fail "GL208 without --gpu" || pass "no GL208 without --gpu"
run --no-cache --gpu K80 "$img/oci-archive.tar" | findings > "$work/gpu"
grep -q '^GL208 .*CUDA 12\.4.* no longer supports K80 .*sm_37' "$work/gpu" &&
  pass "GL208 on an image: CUDA 12 on Kepler" || { fail "GL208 on an image"; cat "$work/gpu"; }
run --no-cache --gpu H100 "$img/oci-archive.tar" | findings | grep >/dev/null '^GL208 ' &&
  fail "GL208 on H100 (CUDA 12.4 supports sm_90)" || pass "no GL208 on H100"
# GL304 layer waste: 12 MiB deleted + 11 MiB overwritten by the second layer; the gpu image's
# few deleted bytes stay under the 10 MiB threshold
grep -q '^GL304 ' "$work/expected" && fail "GL304 on the gpu image (a few bytes of waste)"
run --no-cache "$img/waste.tar" | findings > "$work/waste"
grep -q '^GL304 0 23.0 MiB in 2 files .*`/opt/big.bin`.*(12.0 MiB, deleted), `/opt/tool/toolchain.tar` (11.0 MiB, overwritten)' \
  "$work/waste" && pass "waste.tar: GL304 with the wasted bytes and largest items" ||
  { fail "waste.tar: GL304"; cat "$work/waste"; }
# GL207: the toolkit's files in an image; not in an image that runs its own dockerd
run --no-cache "$img/toolkit.tar" | findings > "$work/toolkit"
grep -q '^GL207 0 .*nvidia-container-cli.* and more toolkit files' "$work/toolkit" &&
  pass "toolkit.tar: GL207" || { fail "toolkit.tar: GL207"; cat "$work/toolkit"; }
run --no-cache "$img/dind.tar" | findings | grep >/dev/null '^GL207 ' &&
  fail "dind.tar: GL207 beside dockerd" || pass "dind.tar: no GL207 beside dockerd"

# ---- the cache ----
run "$img/oci-archive.tar" | findings > "$work/cold"
ls "$XDG_CACHE_HOME"/gpulint/layers/sha256-*.idx >/dev/null 2>&1 && pass "cache written" ||
  fail "no cache entries under $XDG_CACHE_HOME/gpulint/layers"
run "$img/oci-archive.tar" | findings > "$work/warm"
diff -q "$work/expected" "$work/warm" >/dev/null && pass "warm cache: same findings" || fail "warm cache differs"
for e in "$XDG_CACHE_HOME"/gpulint/layers/*.idx; do
  head -c 60 "$e" > "$e.cut" && mv "$e.cut" "$e"; break
done
for e in "$XDG_CACHE_HOME"/gpulint/layers/*.idx; do printf 'X' | dd of="$e" bs=1 seek=70 conv=notrunc 2>/dev/null; done
run "$img/oci-archive.tar" | findings > "$work/rebuilt"
diff -q "$work/expected" "$work/rebuilt" >/dev/null && pass "corrupt cache entries rebuilt" ||
  fail "corrupt cache trusted"
run --cache-dir "$work/cache2" "$img/oci-zstd" >/dev/null
ls "$work/cache2/layers/"*.idx >/dev/null 2>&1 && pass "--cache-dir" || fail "--cache-dir unused"
# --trust-digests: the same findings, from files and stdin, but no layer is hashed, so
# none is cached (a hostile archive could otherwise plant an index: hostile.sh)
for f in oci-zstd.tar oci-archive.tar.gz; do
  run --trust-digests --cache-dir "$work/cache3" "$img/$f" | findings > "$work/got"
  diff -q "$work/expected" "$work/got" >/dev/null && pass "--trust-digests $f: same findings" ||
    fail "--trust-digests $f differs"
  "$gpulint" --trust-digests --cache-dir "$work/cache3" --driver 535 -f json - < "$img/$f" |
    findings > "$work/got"
  diff -q "$work/expected" "$work/got" >/dev/null && pass "--trust-digests stdin $f" ||
    fail "--trust-digests stdin $f differs"
done
ls "$work/cache3/layers/"*.idx >/dev/null 2>&1 && fail "--trust-digests: an unverified index was cached" ||
  pass "--trust-digests: nothing cached"
# uncompressed OCI blobs (docker save >= 25 writes these): indexed by seeking by default
# (unchecked, not cached), read whole, checked and cached with --verify-digests, by
# seeking with --trust-digests; the same findings every way
mkdir -p "$work/dsave" && tar -C "$work/dsave" -xf "$img/docker-archive.tar"
mapfile -t plain_layers < <(python3 -c 'import json,sys
for l in json.load(open(sys.argv[1]))[0]["Layers"]: print(sys.argv[2] + "/" + l)' \
  "$work/dsave/manifest.json" "$work/dsave")
python3 "$here/tests/hostile/oci_layout.py" ok "$work/oci-plain" "${plain_layers[@]}"
run --verify-digests --cache-dir "$work/cache4" "$work/oci-plain" | findings > "$work/plain-checked"
run --trust-digests --cache-dir "$work/cache5" "$work/oci-plain" | findings > "$work/plain-trusted"
run --cache-dir "$work/cache6" "$work/oci-plain" | findings > "$work/plain-seek"
grep -q '^GL203 ' "$work/plain-checked" && diff -q "$work/plain-checked" "$work/plain-trusted" >/dev/null &&
  diff -q "$work/plain-checked" "$work/plain-seek" >/dev/null &&
  pass "uncompressed OCI blobs: the same findings by default, --verify-digests, --trust-digests" ||
  { fail "uncompressed OCI blobs"; diff -u "$work/plain-checked" "$work/plain-seek"; }
ls "$work/cache4/layers/"*.idx >/dev/null 2>&1 && ! ls "$work/cache5/layers/"*.idx >/dev/null 2>&1 &&
  ! ls "$work/cache6/layers/"*.idx >/dev/null 2>&1 &&
  pass "uncompressed OCI blobs: cached when checked (--verify-digests) only" ||
  fail "uncompressed OCI blobs: cache entries"

# ---- hostile inputs ----
h=$work/hostile; mkdir -p "$h/src"
( cd "$h/src" && mkdir -p usr/bin deep && echo smi > usr/bin/nvidia-smi && ln -s b loop-a &&
  ln -s loop-a b && echo a > target && ln target hl && echo one > dup )
tar -C "$h/src" -cf "$h/base.tar" usr loop-a b target hl dup
tar --delete -f "$h/base.tar" target                 # hl: a hardlink to a missing target
echo two > "$h/src/dup" && tar -C "$h/src" -rf "$h/base.tar" dup   # a duplicate entry
( cd "$h/src/deep" && tar -P -cf "$h/escape.tar" ../usr/bin/nvidia-smi /etc/hostname 2>/dev/null )
python3 - "$h/pax.tar" "$h/src/dup" <<'PY'
import sys, tarfile
with tarfile.open(sys.argv[1], "w", format=tarfile.PAX_FORMAT, pax_headers={"comment": "global"}) as t:
    t.add(sys.argv[2], arcname="etc/dup")
PY
gzip -c "$h/base.tar" > "$h/base.tar.gz"
head -c $(( $(stat -c %s "$h/base.tar.gz") / 2 )) "$h/base.tar.gz" > "$h/trunc.gz"
zstd -q -c "$h/base.tar" > "$h/base.tar.zst"
head -c $(( $(stat -c %s "$h/base.tar.zst") - 7 )) "$h/base.tar.zst" > "$h/trunc.zst"
python3 "$here/fixtures/images/hostile.py" ok "$h/good" "$h/base.tar" "$h/escape.tar" "$h/pax.tar"
python3 "$here/fixtures/images/hostile.py" ok "$h/tgz" "$h/trunc.gz"
python3 "$here/fixtures/images/hostile.py" ok "$h/tzst" "$h/trunc.zst"
python3 "$here/fixtures/images/hostile.py" missing-blob "$h/missing" "$h/base.tar.gz"
python3 "$here/fixtures/images/hostile.py" bad-config-digest "$h/badcfg" "$h/base.tar.gz"
python3 "$here/fixtures/images/hostile.py" huge-history "$h/hugehist" "$h/base.tar.gz"
cp -r "$h/good" "$h/baddigest"
blob=$(ls "$h/baddigest/blobs/sha256" | head -1)
for b in "$h"/baddigest/blobs/sha256/*; do
  if tar -tf "$b" >/dev/null 2>&1; then printf 'Z' | dd of="$b" bs=1 seek=600 conv=notrunc 2>/dev/null; break; fi
done
# the same damage in the first tar header: the layer no longer parses, and the blob's
# digest, checked on the blob read again, is still what is reported
cp -r "$h/good" "$h/baddigest-header"
for b in "$h"/baddigest-header/blobs/sha256/*; do
  if tar -tf "$b" >/dev/null 2>&1; then printf '\001' | dd of="$b" bs=1 seek=0 conv=notrunc 2>/dev/null; break; fi
done
# a decompression bomb: 1 GiB of zeros in one file, gzip'd to about 1 MiB
truncate -s 1G "$h/zeros" && tar -C "$h" -cf - zeros | gzip -9 > "$h/bomb.gz"; rm -f "$h/zeros"
python3 "$here/fixtures/images/hostile.py" ok "$h/bomb" "$h/bomb.gz"
head -c 5000 "$img/oci-archive.tar" > "$h/outer-trunc.tar"
# a docker-save layer symlinked to itself
mkdir -p "$h/dloop" && tar -C "$h/dloop" -xf "$img/docker-archive.tar"
first=$(python3 -c 'import json,sys;print(json.load(open(sys.argv[1]))[0]["Layers"][0])' "$h/dloop/manifest.json")
rm "$h/dloop/$first" && ln -s "$(basename "$first")" "$h/dloop/$first"
tar -C "$h/dloop" -cf "$h/dloop.tar" .

expect() { # expect NAME PATTERN [OPTION...]: GL900 whose message matches PATTERN
  local name=$1 pattern=$2; shift 2
  local out; out=$("$gpulint" --no-cache "$@" -f json "$h/$name" "$img/clean.tar" 2>&1); local rc=$?
  set -- "$name" "$pattern"
  if [ $rc -gt 2 ]; then fail "$1: crashed (exit $rc)"; return; fi
  echo "$out" | python3 -c 'import json,sys; d=json.load(sys.stdin); sys.exit(d["summary"]["files"]!=2)' ||
    fail "$1: the other input was not linted"
  if echo "$out" | grep >/dev/null "\"GL900\"" && echo "$out" | grep >/dev/null -- "$2"; then pass "$1: GL900 ($2)"
  else fail "$1: expected GL900 matching '$2'"; echo "$out"; fi
}
expect tgz "truncated gzip"
expect tzst "entry"
expect missing "lacks"
expect badcfg "does not match its sha256"
expect baddigest "digest" --verify-digests
expect baddigest-header "its content has digest sha256:[0-9a-f]*, not sha256:" --verify-digests
# by default a plain blob is indexed by seeking, unchecked: damage in a header is the
# parse error it causes, damage in file data passes (the tar still parses), and
# --verify-digests finds it
expect baddigest-header "layer"
cp -r "$h/good" "$h/baddata"
for b in "$h"/baddata/blobs/sha256/*; do
  tar -tf "$b" >/dev/null 2>&1 && python3 - "$b" <<'PY' && break
import sys, tarfile
with tarfile.open(sys.argv[1]) as t:
    m = next(m for m in t.getmembers() if m.isfile() and m.size > 0)
with open(sys.argv[1], "r+b") as f:
    f.seek(m.offset_data)
    c = f.read(1)
    f.seek(m.offset_data)
    f.write(bytes([c[0] ^ 1]))
PY
done
out=$("$gpulint" --no-cache -f json "$h/baddata" 2>&1)
echo "$out" | grep >/dev/null '"GL900"' && { fail "baddata without --verify-digests: GL900"; echo "$out"; } ||
  pass "baddata: a plain blob's file data is not hashed by default"
expect baddata "its content has digest sha256:[0-9a-f]*, not sha256:" --verify-digests
expect bomb "decompression bomb"
# a history RUN of two million packages: the parse-memory limit, within 64 MiB
expect hugehist "its history: the limit .parse-memory"
/usr/bin/time -f %M -o "$h/hugehist.rss" "$gpulint" --no-cache "$h/hugehist" >/dev/null 2>&1
rss=$(tail -1 "$h/hugehist.rss")
# (grep reads all of nm's output: `grep -q` would stop early, and under pipefail nm's
# SIGPIPE would make the test false)
if case $gpulint in *build-asan*) true ;; *) nm "$gpulint" 2>/dev/null | grep ' __asan_init' >/dev/null ;; esac; then
  pass "huge history: peak RSS $((rss / 1024)) MiB (ASan build: the 64 MiB bound is not checked)"
else
  [ "$rss" -le 65536 ] && pass "huge history: peak RSS $((rss / 1024)) MiB" ||
    fail "huge history: peak RSS $((rss / 1024)) MiB over 64"
fi
expect outer-trunc.tar "entry"
expect dloop.tar "lacks"
out=$("$gpulint" --no-cache -f json "$h/good"); rc=$?
[ $rc -le 1 ] && ! echo "$out" | grep >/dev/null GL900 && pass "good hostile-shaped layers: clean parse" ||
  { fail "good: rc=$rc"; echo "$out"; }
echo "$out" | grep >/dev/null 'usr/bin/nvidia-smi' && pass "../ and absolute paths normalized into the view" ||
  fail "escaped path not normalized"
echo "$out" | grep >/dev/null '\.\./' && fail "a ../ path reached a finding"
[ -e /etc/shadow.gpulint ] && fail "wrote outside"

# ---- nothing written outside the cache dir ----
changed=$(find "$HOME" "$TMPDIR" "$work/cwd" -newer "$work/stamp" ! -path "$work/cwd" ! -path "$HOME" ! -path "$TMPDIR" | head)
[ -z "$changed" ] && pass "nothing written outside the cache dir" || fail "written: $changed"

# ---- the real CUDA toolkit, when the machine has one ----
if [ -d /usr/local/cuda/bin ] && [ -e /usr/local/cuda/bin/nvcc ]; then
  cu=$work/cuda; mkdir -p "$cu"
  ( cd "$cu" && umoci init --layout oci >/dev/null && umoci new --image oci:cuda >/dev/null &&
    tar -C / --sort=name -cf "$cu/l.tar" usr/local/cuda/bin/nvcc usr/local/cuda/include/cuda.h $(cd / && ls -d usr/local/cuda/version.json 2>/dev/null) &&
    umoci raw add-layer --image oci:cuda "$cu/l.tar" >/dev/null ) 2>/dev/null
  out=$("$gpulint" --no-cache -f json "$cu/oci")
  echo "$out" | grep >/dev/null GL301 && pass "real CUDA toolkit files: GL301" || { fail "real CUDA"; echo "$out"; }
else
  echo "skip: no CUDA toolkit under /usr/local/cuda"
fi

echo "$fails failure(s)"
[ $fails = 0 ]
