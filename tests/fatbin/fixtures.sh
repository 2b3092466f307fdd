#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# tests/fatbin/fixtures.sh: the GL210 image fixtures, OCI layouts made by umoci from the
# nvcc-built binaries of this directory (tests/fatbin/build.sh), each with the --gpu its
# .args names. Rerun after build.sh, then UPDATE=1 bash tests/golden.sh build/gpulint and
# review the diff. The layouts are byte-reproducible (a fixed layer tar, fixed created
# dates, unreferenced blobs collected); the golden reports name the layer digests.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
rules=$here/../../fixtures/rules/GL210
command -v umoci >/dev/null || { echo "umoci is needed (apt-get install umoci)" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
when=2026-01-01T00:00:00Z
# layout DIR GPU FILE:PATH...: an OCI layout at DIR holding each FILE at PATH
layout() {
  local out=$1 gpu=$2; shift 2
  rm -rf "$work/root" "$out" "$work/oci"
  for fp in "$@"; do
    install -D -m "$( [ -x "$here/${fp%%:*}" ] && echo 0755 || echo 0644)" \
      "$here/${fp%%:*}" "$work/root/${fp#*:}"
  done
  tar --sort=name --owner=0 --group=0 --numeric-owner --mtime=@0 -C "$work/root" \
    -cf "$work/layer.tar" .
  (cd "$work" && umoci init --layout oci >/dev/null && umoci new --image oci:1.0 >/dev/null &&
   umoci raw add-layer --history.created "$when" --history.created_by "COPY lib /usr/local/lib" \
     --image oci:1.0 layer.tar >/dev/null &&
   umoci config --created "$when" --no-history --image oci:1.0 \
     --config.cmd /usr/local/bin/app >/dev/null && umoci gc --layout oci >/dev/null)
  mv "$work/oci" "$out"
  echo "--gpu $gpu" > "$out.args"
  [ -f "$out.json" ] || : > "$out.json"
}
mkdir -p "$rules/fire" "$rules/pass"
# fire: SASS for sm_80 only, on a Hopper GPU (sm_80 code never runs on 9.0)
layout "$rules/fire/sm80_on_h100" H100 sm80.so:usr/local/lib/libkernels.so
# fire: an arch-specific sm_90a cubin, on Blackwell; and an executable for sm_86 on sm_80
# (SASS runs only at or above its own minor)
layout "$rules/fire/sm90a_on_b200" B200 sm90a.so:usr/local/lib/libfa3.so
layout "$rules/fire/app_sm86_on_a100" A100 app:usr/local/bin/app
# fire: a multi-arch build without sm_80: multi_z holds sm_75 sm_86 sm_90 compute_90
# sm_100 compute_120, and on 8.0 nothing runs (sm_86 needs 8.6, PTX 9.0 is above 8.0)
layout "$rules/fire/multi_on_a100" A100 multi_z.so:usr/local/lib/libops.so
# pass: PTX 8.0 is JIT-compiled on 9.0
layout "$rules/pass/sm80_ptx_on_h100" H100 sm80_ptx.so:usr/local/lib/libkernels.so
# pass: SASS sm_80 runs on 8.6 (same major, higher minor)
layout "$rules/pass/sm80_on_a10" A10 sm80.so:usr/local/lib/libkernels.so
# fire: a static library whose only CUDA member is sm_80, on a Hopper GPU
layout "$rules/fire/static_lib_sm80_on_h100" H100 libk.a:usr/local/lib/libkernels_static.a
# pass: a static library with sm_75 SASS and compute_90 PTX, on an H100 (the PTX JITs)
layout "$rules/pass/static_lib_ptx90_on_h100" H100 libmix.a:usr/local/lib/libops_static.a
# pass: no device code; a big-endian object (no facts: never judged)
layout "$rules/pass/no_device_code" H100 plain.so:usr/lib/libplain.so \
  be64.o:usr/local/lib/be64.o
echo "built the GL210 layouts in $rules"
