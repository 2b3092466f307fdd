#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# bench/layers.sh [GPULINT]: scaling with layers, and memory independent of image size.
#
# From the CUDA toolkit layer that bench/images.sh builds (BENCH_DIR, default
# /tmp/gpulint-bench), makes N copies of it that differ by one unique file each, and
# images of 1, 2 and 4 such layers: docker-save (plain) and OCI zstd. Then measures with
# hyperfine (wall and CPU) and GNU time (peak RSS) in one run:
#   - a 2-layer zstd image (--jobs 2) against the sum of the two single decompressions
#     (`bsdtar -tf` of the layer, and gpulint on the 1-layer image), with the layer
#     digests checked (the default) and with --trust-digests;
#   - 1x vs 4x image size: peak RSS must not grow with the size;
#   - the same toolkit as 1, 2 and 20 layers: time must not grow with the layer count.
# Needs what bench/images.sh needs, plus hyperfine; about 30 GB in BENCH_DIR while it
# builds, about 20 GB once built (the intermediate layer copies are removed).
# BUILD_ONLY=1: build the images and stop.
set -euo pipefail
gpulint=$(realpath "${1:-build/gpulint}")
dir=${BENCH_DIR:-/tmp/gpulint-bench}
[ -e "$dir/layer.tar" ] || { echo "skip: run bench/images.sh with BENCH_DIR=$dir KEEP=1 first"; exit 77; }
for t in umoci skopeo hyperfine /usr/bin/time; do
  command -v $t >/dev/null || { echo "skip: $t missing"; exit 77; }
done
export TMPDIR=$dir/tmp XDG_CACHE_HOME=$dir/cache-layers
mkdir -p "$TMPDIR"
sk() { skopeo --insecure-policy --tmpdir "$TMPDIR" "$@" >/dev/null; }
cd "$dir"

image() { # image NAME LAYER...: oci layout NAME, then docker-save and zstd archives
  local name=$1; shift
  [ -e "$name-zstd.tar" ] && return
  rm -rf "oci-$name"
  umoci init --layout "oci-$name" >/dev/null
  umoci new --image "oci-$name:img" >/dev/null
  for l in "$@"; do umoci raw add-layer --image "oci-$name:img" "$l" >/dev/null; done
  sk copy "oci:oci-$name:img" "docker-archive:$name-save.tar:bench/$name:1"
  sk copy --dest-compress-format zstd "oci:oci-$name:img" "oci-archive:$name-zstd.tar:$name"
  rm -rf "oci-$name"
}
need() { local n; for n; do [ -e "$n-zstd.tar" ] || return 0; done; return 1; }
if need one two four; then
  echo "building the 1-, 2- and 4-copy images in $dir" >&2
  # layer copies: the toolkit plus one unique file, so every digest differs
  for i in 1 2 3 4; do
    [ -e "copy$i.tar" ] && continue
    cp layer.tar "copy$i.tar.part"
    mkdir -p "u$i" && echo "copy $i" > "u$i/unique-$i"
    tar -rf "copy$i.tar.part" -C "u$i" "unique-$i"
    mv "copy$i.tar.part" "copy$i.tar"
  done
  image one copy1.tar
  image two copy1.tar copy2.tar
  image four copy1.tar copy2.tar copy3.tar copy4.tar
  rm -rf copy?.tar u? "$TMPDIR"/* # the images are all that is measured
fi
# the toolkit split in 2 and in 20 layers (by file, round robin): the same bytes
for k in 2 20; do
  need "split$k" || continue
  echo "building the $k-layer image in $dir" >&2
  mkdir -p "split$k"
  tar -tf layer.tar | grep -v '/$' > "split$k/files"
  for j in $(seq 1 $k); do
    awk -v j="$j" -v k="$k" 'NR % k == j % k' "split$k/files" > "split$k/list$j"
    tar -C / --no-recursion -cf "split$k/l$j.tar" -T "split$k/list$j"
  done
  image "split$k" $(for j in $(seq 1 $k); do echo "split$k/l$j.tar"; done)
  rm -rf "split$k" "$TMPDIR"/*
done

[ -z "${BUILD_ONLY:-}" ] || exit 0 # build now, measure later on an idle machine
gl="$gpulint --no-config --no-cache --failure-threshold none"
# hf ARGS...: hyperfine, its Markdown table on stdout (--export-markdown to /dev/stdout
# would truncate a redirected log), the JSON kept in hf.json for the ratios.
hf() { hyperfine "$@" --export-markdown hf.md --export-json hf.json >/dev/null 2>&1; cat hf.md; }
ratio() { # ratio EXPR: a Python expression over m[i], the mean seconds of command i
  python3 -c "import json,sys; m=[r['mean'] for r in json.load(open('hf.json'))['results']]; print($1)"
}
echo "## 2 layers on 2 cores vs the two single decompressions (zstd, --no-cache)"
hf -N -w 1 -r 3 "bsdtar -tf layer.tar.zst" "$gl --jobs 1 one-zstd.tar" "$gl --jobs 2 two-zstd.tar" \
  "$gl --trust-digests --jobs 1 one-zstd.tar" "$gl --trust-digests --jobs 2 two-zstd.tar"
echo
ratio "f'two layers vs 2 x bsdtar -tf: {m[2]/(2*m[0]):.2f}x with digests checked, {m[4]/(2*m[0]):.2f}x with --trust-digests; vs 2 x gpulint on one layer: {m[2]/(2*m[1]):.2f}x, {m[4]/(2*m[3]):.2f}x'"
echo
echo "## peak RSS, 1x vs 4x the size"
echo "| image | seconds | peak RSS (MiB) |"
echo "|---|---:|---:|"
for img in one-save.tar four-save.tar one-zstd.tar four-zstd.tar; do
  /usr/bin/time -f '%e %M' -o t $gl "$img" >/dev/null 2>&1 || true
  read -r secs kb < <(tail -1 t)
  printf '| %s (%s) | %.2f | %.1f |\n' "$img" "$(du -h --apparent-size "$img" | cut -f1)" \
    "$secs" "$(echo "$kb / 1024" | bc -l)"
done
echo
echo "## 1, 2 and 20 layers (the same files): plain docker-save and zstd"
hf -N -w 1 -r 10 "$gl one-save.tar" "$gl split2-save.tar" "$gl split20-save.tar"
echo
ratio "f'plain: 20 layers take {m[2]/m[1]:.2f}x the time of 2 layers, {m[2]/m[0]:.2f}x of 1'"
hf -N -w 1 -r 3 "$gl one-zstd.tar" "$gl split2-zstd.tar" "$gl split20-zstd.tar"
echo
ratio "f'zstd: 20 layers take {m[2]/m[1]:.2f}x the time of 2 layers, {m[2]/m[0]:.2f}x of 1'"
