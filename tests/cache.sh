#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# tests/cache.sh GPULINT: the layer-index cache end to end, on images built with umoci.
#
# Six images share one base layer (a baked driver, CUDA 12.4) and each has a layer of its
# own (nvcc, and 300 files: index entries of a few KiB). Then:
#   - the bound: linting them one after another with a --cache-max of about the base and
#     two and a half other entries, the cache stays within it after every run, and holds
#     the newest entries and the base (read by every run: least recently used goes first);
#   - an entry larger than --cache-max is not stored;
#   - an entry copied under another layer's digest is not trusted (findings unchanged);
#   - temporary files a killed process left are removed after an hour, fresh ones kept;
#   - an unsafe cache dir (group-writable, or a symbolic link) is refused with one
#     warning line, the run goes on with the same findings and nothing is written there;
#     an entry planted as a symbolic link is not written through;
#   - four gpulint processes at once on one cache dir, in a loop, with a bound so small
#     that every store evicts: the same findings every time, no GL900, nothing on stderr.
# Exit 77 when umoci or python3 is missing.
set -uo pipefail
gpulint=$(realpath "${1:?usage: tests/cache.sh path/to/gpulint}")
for t in umoci python3; do
  command -v $t >/dev/null || { echo "skip: $t missing"; exit 77; }
done
work=$(mktemp -d /tmp/gpulint-cachetest.XXXXXX)
trap 'chmod -R u+rwx "$work" 2>/dev/null; rm -rf "$work"' EXIT
export HOME=$work/home XDG_CACHE_HOME=$work/xdg TMPDIR=$work/tmp
mkdir -p "$HOME" "$TMPDIR"
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
pass() { echo "ok: $*"; }
N=6

# ---- the images: img/1 .. img/6, OCI layouts of base + a layer of their own ----
layer() { # layer DIR SEED: 300 files of random names, then a tar of DIR beside it
  python3 - "$1" "$2" <<'PY'
import os, random, sys
root, seed = sys.argv[1], sys.argv[2]
rnd = random.Random(seed)
os.makedirs(f"{root}/srv/data-{seed}", exist_ok=True)
for _ in range(300):
    open(f"{root}/srv/data-{seed}/{rnd.getrandbits(128):032x}", "w").write(seed)
PY
  tar --sort=name --owner=0 --group=0 --numeric-owner --mtime=@0 -C "$1" -cf "$1.tar" .
}
mkdir -p "$work/l/base/usr/local/cuda-12.4/bin" "$work/l/base/usr/lib/x86_64-linux-gnu"
echo '{"cuda":{"name":"CUDA SDK","version":"12.4.1"}}' > "$work/l/base/usr/local/cuda-12.4/version.json"
echo drv > "$work/l/base/usr/lib/x86_64-linux-gnu/libcuda.so.535.104.05"
layer "$work/l/base" base
for i in $(seq $N); do
  mkdir -p "$work/l/u$i/usr/local/cuda-12.4/bin"
  printf '#!/bin/sh\n' > "$work/l/u$i/usr/local/cuda-12.4/bin/nvcc"
  layer "$work/l/u$i" "u$i"
  ( cd "$work" && umoci init --layout "img/$i" && umoci new --image "img/$i:t" &&
    umoci raw add-layer --image "img/$i:t" l/base.tar &&
    umoci raw add-layer --image "img/$i:t" "l/u$i.tar" &&
    umoci config --image "img/$i:t" --os linux --architecture amd64 ) >/dev/null 2>&1 ||
    { echo "FAIL: building image $i with umoci"; exit 1; }
done
images=()
for i in $(seq $N); do images+=("$work/img/$i"); done

# The cache entry of layer L (0: the base, i: image i's own) of image i.
entry() { # entry CACHE_DIR IMAGE LAYER
  python3 - "$work/img/$2" "$3" "$1" <<'PY'
import json, sys
img, k, cache = sys.argv[1], int(sys.argv[2]), sys.argv[3]
blob = lambda d: json.load(open(f"{img}/blobs/sha256/{d.split(':')[1]}"))
man = blob(json.load(open(f"{img}/index.json"))["manifests"][0]["digest"])
print(f"{cache}/layers/sha256-{man['layers'][min(k, 1)]['digest'].split(':')[1]}.idx")
PY
}
total() { find "$1/layers" -maxdepth 1 -name '*.idx' -type f -printf '%s\n' 2>/dev/null |
          awk '{t += $1} END {print t + 0}'; }
findings() { python3 -c '
import json, sys
for f in json.load(sys.stdin)["findings"]:
    print(f["rule"], f["file"], f["line"], f["message"])' | sort; }
lint() { "$gpulint" --no-config --driver 535 -f json "$@"; }
same() { # same I FILE: FILE holds image I's expected findings (and there are some)
  grep -F " $work/img/$1 " "$work/expected" > "$work/want"
  [ -s "$work/want" ] && diff -q "$work/want" "$2" >/dev/null
}

lint --no-cache "${images[@]}" | findings > "$work/expected"
for rule in GL201 GL203 GL301; do
  [ "$(grep -c "^$rule " "$work/expected")" = $N ] || fail "expected $N $rule findings"
done
lint --cache-dir "$work/probe" "${images[@]}" > /dev/null
base=$(stat -c %s "$(entry "$work/probe" 1 0)")
own=0
for i in $(seq $N); do
  s=$(stat -c %s "$(entry "$work/probe" $i $i)")
  [ "$s" -gt "$own" ] && own=$s
done
bound=$((base + 2 * own + own / 2))
echo "entries: base $base bytes, own layers up to $own bytes; bound $bound"

# ---- the bound, least recently used first out ----
c=$work/c1
for i in $(seq $N); do
  lint --cache-max "$bound" --cache-dir "$c" "$work/img/$i" | findings > "$work/got"
  same $i "$work/got" || fail "image $i: findings differ with the cache"
  t=$(total "$c")
  [ "$t" -le "$bound" ] || fail "after image $i: the cache holds $t bytes, over the bound $bound"
done
[ -f "$(entry "$c" 1 0)" ] && pass "the base layer, read by every run, is kept" ||
  fail "the base layer (most recently read) was evicted"
for i in $(seq $N); do
  want=$([ $i -ge $((N - 1)) ] && echo kept || echo evicted)
  got=$([ -f "$(entry "$c" $i $i)" ] && echo kept || echo evicted)
  [ "$want" = "$got" ] || fail "image $i's own layer $got, expected $want"
done
[ "$(find "$c/layers" -name '*.idx' | wc -l)" = 3 ] && pass "bound $bound: the 3 most recent entries kept" ||
  fail "bound: $(ls "$c/layers")"

# ---- an entry larger than the bound is not stored ----
lint --cache-max 100 --cache-dir "$work/c2" "$work/img/1" | findings > "$work/got"
same 1 "$work/got" || fail "--cache-max 100: findings"
[ "$(total "$work/c2")" = 0 ] && pass "--cache-max 100: nothing stored" ||
  fail "--cache-max 100: stored $(ls "$work/c2/layers")"

# ---- an entry copied under another layer's digest is not trusted ----
c=$work/c3
lint --cache-dir "$c" "$work/img/1" > /dev/null
cp "$(entry "$c" 1 0)" "$(entry "$c" 1 1)"
lint --cache-dir "$c" "$work/img/1" | findings > "$work/got"
same 1 "$work/got" && pass "an entry copied under another digest is rebuilt" || fail "a misfiled entry was trusted"

# ---- stale temporary files ----
c=$work/c4
lint --cache-dir "$c" "$work/img/1" > /dev/null
stale=$c/layers/.tmp-99999-0-sha256-0000.idx fresh=$c/layers/.tmp-99998-0-sha256-0000.idx
echo half > "$stale"; echo half > "$fresh"; touch -d '2 hours ago' "$stale"
lint --cache-dir "$c" "$work/img/2" > /dev/null
[ ! -e "$stale" ] && [ -e "$fresh" ] && pass "a temporary file 2 hours old removed, a fresh one kept" ||
  fail "temporary files: $(ls -a "$c/layers")"

# ---- unsafe cache dirs: one warning, caching off, the same findings ----
refused() { # refused NAME DIR CHECKED: lint with --cache-dir DIR; nothing may appear in CHECKED
  lint --cache-dir "$2" "${images[@]}" 2> "$work/stderr" | findings > "$work/got"
  diff -q "$work/expected" "$work/got" >/dev/null || fail "$1: findings differ"
  [ "$(wc -l < "$work/stderr")" = 1 ] && grep -q 'cache is off' "$work/stderr" ||
    { fail "$1: expected one warning line"; cat "$work/stderr"; }
  [ -z "$(ls -A "$3")" ] && pass "$1: refused, one warning, nothing written" ||
    fail "$1: written: $(ls -A "$3")"
}
mkdir -m 0770 "$work/shared"; chmod 0770 "$work/shared"
refused "group-writable cache dir" "$work/shared" "$work/shared"
mkdir -m 0700 "$work/elsewhere" && ln -s "$work/elsewhere" "$work/linked"
refused "cache dir a symbolic link" "$work/linked" "$work/elsewhere"
mkdir -m 0700 "$work/c5" "$work/elsewhere2" && ln -s "$work/elsewhere2" "$work/c5/layers"
refused "layers/ a symbolic link" "$work/c5" "$work/elsewhere2"

# ---- an entry planted as a symbolic link is neither read nor written through ----
c=$work/c6; mkdir -m 0700 "$c" "$c/layers"
echo precious > "$work/precious"
ln -s "$work/precious" "$(entry "$c" 1 0)"
lint --cache-dir "$c" "$work/img/1" | findings > "$work/got"
same 1 "$work/got" || fail "planted link: findings"
[ "$(cat "$work/precious")" = precious ] && [ -f "$(entry "$c" 1 0)" ] && [ ! -L "$(entry "$c" 1 0)" ] &&
  pass "an entry planted as a symbolic link is replaced, its target untouched" ||
  fail "planted link: written through"

# ---- four processes at once, every store evicting ----
c=$work/c7 tiny=$((own + own / 2))
racer() { # racer K: 8 runs over every image
  for r in 1 2 3 4 5 6 7 8; do
    lint --cache-max "$tiny" --cache-dir "$c" "${images[@]}" 2> "$work/race$1.$r.err" |
      findings > "$work/race$1.$r"
  done
}
for k in 1 2 3 4; do racer $k & done
wait
bad=0
for k in 1 2 3 4; do for r in 1 2 3 4 5 6 7 8; do
  diff -q "$work/expected" "$work/race$k.$r" >/dev/null || { bad=1; fail "racer $k run $r: findings differ"; }
  [ -s "$work/race$k.$r.err" ] && { bad=1; fail "racer $k run $r: stderr"; cat "$work/race$k.$r.err"; }
done; done
grep -l GL900 "$work"/race* >/dev/null 2>&1 && { bad=1; fail "racers: GL900"; }
[ $bad = 0 ] && pass "4 processes x 8 runs, evicting on every store: the same findings"
t=$(total "$c")
[ "$t" -le "$tiny" ] && pass "after the race: $t bytes, within $tiny" || fail "after the race: $t bytes > $tiny"
ls -A "$c/layers" | grep >/dev/null '^\.tmp-' && fail "temporary files left: $(ls -A "$c/layers")"

echo "$fails failure(s)"
[ $fails = 0 ]
