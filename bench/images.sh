#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# bench/images.sh [GPULINT]: gpulint on a real CUDA toolkit image, beside the tools that
# only list or decompress the same bytes.
#
# Builds one image from /usr/local/cuda (skipped when absent) in three forms: a plain
# docker-save archive (skopeo docker-archive: uncompressed layers), an OCI archive with
# gzip layers and one with zstd layers. Then records wall time and peak RSS (GNU time)
# of gpulint cold (empty cache) and warm, and of `bsdtar -tf`, `tar -t`, `igzip -dc`,
# `gzip -dc`, `zstd -dc` on the same layer. Prints a Markdown table (for BENCHMARKS.md).
# Needs umoci, skopeo, GNU time, igzip, zstd; about 4x the toolkit's size in $BENCH_DIR.
set -euo pipefail
gpulint=$(realpath "${1:-build/gpulint}")
here=$(cd "$(dirname "$0")/.." && pwd)
[ -d /usr/local/cuda/bin ] || { echo "skip: no CUDA toolkit under /usr/local/cuda"; exit 77; }
for t in umoci skopeo igzip zstd bsdtar /usr/bin/time; do
  command -v $t >/dev/null || { echo "skip: $t missing"; exit 77; }
done
dir=${BENCH_DIR:-$(mktemp -d /tmp/gpulint-bench.XXXXXX)}
mkdir -p "$dir"
trap '[ -n "${KEEP:-}" ] || rm -rf "$dir"' EXIT
export TMPDIR=$dir/tmp XDG_CACHE_HOME=$dir/cache
mkdir -p "$TMPDIR"
sk() { skopeo --insecure-policy --tmpdir "$TMPDIR" "$@" >/dev/null; }
cuda=$(readlink -f /usr/local/cuda)

echo "building the images from $cuda ($(du -sh "$cuda" | cut -f1)) in $dir" >&2
[ -e "$dir/layer.tar.zst" ] || ( cd "$dir"
  tar -C / --sort=name -cf layer.tar "${cuda#/}" usr/local/cuda
  umoci init --layout oci >/dev/null
  umoci new --image oci:cuda >/dev/null
  umoci raw add-layer --image oci:cuda layer.tar >/dev/null
  umoci config --image oci:cuda --config.env "CUDA_VERSION=$(basename "$cuda" | sed 's/cuda-//')" >/dev/null
  sk copy oci:oci:cuda docker-archive:docker-save.tar:bench/cuda:1
  sk copy --dest-compress-format gzip oci:oci:cuda oci-archive:oci-gzip.tar:cuda
  sk copy --dest-compress-format zstd oci:oci:cuda oci-archive:oci-zstd.tar:cuda
  igzip -c layer.tar > layer.tar.gz
  zstd -q -c layer.tar > layer.tar.zst )
# uncompressed OCI blobs, as docker save >= 25 writes them (no tool here makes an OCI
# layout with an uncompressed layer: the test suite's layout writer wraps the tar)
[ -e "$dir/oci-plain/index.json" ] ||
  python3 "$here/tests/hostile/oci_layout.py" ok "$dir/oci-plain" "$dir/layer.tar"

measure() { # measure LABEL CMD...: "| label | wall s | CPU s | peak MiB |"
  local label=$1
  shift
  /usr/bin/time -f '%e %U %S %M' -o "$dir/t" "$@" >/dev/null 2>&1 || true
  read -r secs user sys kb < <(tail -1 "$dir/t")  # GNU time puts "Command exited ..." first on failure
  printf '| %s | %.2f | %.2f | %.1f |\n' "$label" "$secs" "$(echo "$user + $sys" | bc -l)" \
    "$(echo "$kb / 1024" | bc -l)"
}
gl=("$gpulint" --no-config --failure-threshold none)

size() { du -h --apparent-size "$dir/$1" | cut -f1; }
echo "| command | wall s | CPU s (user+sys) | peak RSS (MiB) |"
echo "|---|---:|---:|---:|"
for img in docker-save.tar oci-gzip.tar oci-zstd.tar; do
  rm -rf "$XDG_CACHE_HOME"
  measure "gpulint $img ($(size $img)), cold, --jobs 1" "${gl[@]}" --jobs 1 "$dir/$img"
  rm -rf "$XDG_CACHE_HOME"
  measure "gpulint $img, cold" "${gl[@]}" "$dir/$img"
  measure "gpulint $img, warm cache" "${gl[@]}" "$dir/$img"
  measure "gpulint --no-cache - < $img (stdin)" sh -c "'$gpulint' --no-config --no-cache --failure-threshold none - < '$dir/$img'"
done
layer=$(tar -tf "$dir/docker-save.tar" | grep -E '(layer\.tar|[0-9a-f]{64}(\.tar)?)$' | head -1)
measure "tar -xOf docker-save.tar LAYER | tar -t" sh -c "tar -xOf '$dir/docker-save.tar' '$layer' | tar -t"
measure "bsdtar -tf layer.tar ($(size layer.tar))" bsdtar -tf "$dir/layer.tar"
measure "tar -tf layer.tar" tar -tf "$dir/layer.tar"
measure "bsdtar -tf layer.tar.gz ($(size layer.tar.gz))" bsdtar -tf "$dir/layer.tar.gz"
measure "tar -tzf layer.tar.gz" tar -tzf "$dir/layer.tar.gz"
measure "igzip -dc layer.tar.gz" igzip -dc "$dir/layer.tar.gz"
measure "gzip -dc layer.tar.gz" gzip -dc "$dir/layer.tar.gz"
measure "zstd -dc layer.tar.zst ($(size layer.tar.zst))" zstd -dc "$dir/layer.tar.zst"
measure "bsdtar -tf layer.tar.zst" bsdtar -tf "$dir/layer.tar.zst"

# the ratios that matter, each measured in one hyperfine run (alternating, several runs)
if command -v hyperfine >/dev/null; then
  gln="$gpulint --no-config --no-cache --failure-threshold none"
  # (--export-markdown to /dev/stdout would truncate a redirected log)
  hf() { hyperfine "$@" --export-markdown "$dir/hf.md" >/dev/null 2>&1; cat "$dir/hf.md"; }
  echo
  echo "### same-run ratios (hyperfine; --no-cache: the layer is read every time)"
  hf -N -w 1 -r 5 "$gln $dir/docker-save.tar" \
    "sh -c \"tar -xOf $dir/docker-save.tar $layer | tar -t\""
  hf -N -w 1 -r 3 "$gln $dir/oci-gzip.tar" \
    "sh -c \"igzip -dc $dir/layer.tar.gz > /dev/null\""
  hf -N -w 1 -r 3 "$gln $dir/oci-zstd.tar" \
    "bsdtar -tf $dir/layer.tar.zst" "$gln --trust-digests $dir/oci-zstd.tar"
  echo
  echo "### uncompressed OCI layer (docker save >= 25): checked and cached, or --trust-digests"
  hf -N -w 1 -r 3 "$gln $dir/oci-plain" "$gln --trust-digests $dir/oci-plain"
  echo
  echo "### warm cache (the layer indexes cached by the warm-up run)"
  glc="$gpulint --no-config --failure-threshold none"
  hf -N -w 2 -r 20 "$glc $dir/docker-save.tar" "$glc $dir/oci-gzip.tar" "$glc $dir/oci-zstd.tar"
fi
