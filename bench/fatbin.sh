#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# bench/fatbin.sh GPULINT [GPULINT_WITHOUT]: the cost of reading CUDA fat binaries
# (parsers/image/image_fatbin.h) on real large ones: time and peak RSS of linting an image
# that holds libcublas.so.13 (or libcublasLt.so.13 with LIB=libcublasLt.so.13) from
# /usr/local/cuda/lib64, as a gzip OCI layout (umoci) and a plain docker-archive (skopeo),
# with the layer digests checked (the default) and with --trust-digests; GPULINT_WITHOUT
# is a build without the reader (e.g. of the commit before it). --no-cache throughout: the
# layer is read every time. Prints one Markdown table row per run (median of RUNS, 3).
set -euo pipefail
with=$(realpath "${1:?usage: bench/fatbin.sh GPULINT [GPULINT_WITHOUT]}")
without=${2:+$(realpath "$2")}
lib=${LIB:-libcublas.so.13}
src=/usr/local/cuda/lib64/$lib
[ -f "$src" ] || { echo "skip: $src missing"; exit 77; }
for t in umoci skopeo /usr/bin/time; do
  command -v $t >/dev/null || { echo "skip: $t missing"; exit 77; }
done
dir=${BENCH_DIR:-/tmp/gpulint-bench-fatbin}
mkdir -p "$dir"
cd "$dir"
if [ ! -e "$lib-save.tar" ]; then
  rm -rf root oci
  mkdir -p root/usr/local/cuda/lib64
  cp "$src" root/usr/local/cuda/lib64/
  tar --sort=name --owner=0 --group=0 --numeric-owner --mtime=@0 -C root -cf layer.tar .
  umoci init --layout oci >/dev/null
  umoci new --image oci:img >/dev/null
  umoci raw add-layer --image oci:img layer.tar >/dev/null
  skopeo --insecure-policy copy oci:oci:img "docker-archive:$lib-save.tar:bench/fatbin:1" >/dev/null
  mv oci "$lib-oci"
  rm -rf root layer.tar
fi
runs=${RUNS:-3}
measure() { # measure LABEL GPULINT ARGS...: median wall seconds and peak RSS over the runs
  local label=$1 bin=$2; shift 2
  local out=() gpu=()
  "$bin" --help 2>&1 | grep >/dev/null -- '--gpu' && gpu=(--gpu sm_70) # the rule judging them

  for _ in $(seq "$runs"); do
    /usr/bin/time -o time.out -f '%e %M' "$bin" --no-cache "${gpu[@]}" -f json "$@" \
      >/dev/null 2>&1 || true
    out+=("$(tail -1 time.out)")
  done
  printf '%s\n' "${out[@]}" | sort -n | sed -n "$(( (runs + 1) / 2 ))p" |
    awk -v l="$label" '{ printf "| %s | %.2f | %.1f |\n", l, $1, $2 / 1024 }'
}
echo "| $lib ($(du -m "$src" | cut -f1) MiB) | wall s | peak RSS MiB |"
echo "|---|---:|---:|"
for bin in "$with" ${without:+"$without"}; do
  name=with; [ "$bin" = "$with" ] || name=without
  measure "$name reader, gzip OCI layout" "$bin" "$lib-oci"
  measure "$name reader, gzip OCI layout, --trust-digests" "$bin" --trust-digests "$lib-oci"
  measure "$name reader, docker-archive" "$bin" "$lib-save.tar"
  measure "$name reader, docker-archive, --trust-digests" "$bin" --trust-digests "$lib-save.tar"
done
