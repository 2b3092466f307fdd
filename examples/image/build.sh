#!/usr/bin/env bash
# examples/image/build.sh OUT.tar: build a small image archive with the mistakes gpulint
# finds in images, using umoci (no daemon, no registry, a few seconds):
#   - usr/local/cuda-12.4 with nvcc and cuda.h        -> GL301 (devel files shipped)
#   - usr/lib/x86_64-linux-gnu/libcuda.so.535.104.05  -> GL203 (a baked driver)
#   - NVIDIA_DRIVER_CAPABILITIES=utility               -> GL205 (CUDA never injected)
#   - CUDA 12.4.1 (version.json) against --driver 535  -> GL201
#   - the tag example/trainer:latest                   -> GL101
# The archive is an OCI layout in a tar (what `skopeo copy ... oci-archive:` writes).
set -euo pipefail
out=$(realpath -m "${1:?usage: examples/image/build.sh OUT.tar}")
command -v umoci >/dev/null || { echo "umoci is needed (apt-get install umoci)" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
root=$work/root
mkdir -p "$root/usr/local/cuda-12.4/bin" "$root/usr/local/cuda-12.4/include" \
         "$root/usr/lib/x86_64-linux-gnu" "$root/app"
echo '{"cuda":{"name":"CUDA SDK","version":"12.4.1"}}' > "$root/usr/local/cuda-12.4/version.json"
printf '#!/bin/sh\necho nvcc\n' > "$root/usr/local/cuda-12.4/bin/nvcc"
echo '/* CUDA driver API */' > "$root/usr/local/cuda-12.4/include/cuda.h"
echo 'driver' > "$root/usr/lib/x86_64-linux-gnu/libcuda.so.535.104.05"
printf 'print("training")\n' > "$root/app/train.py"
tar --sort=name --owner=0 --group=0 --numeric-owner --mtime=@0 -C "$root" -cf "$work/layer.tar" .
cd "$work"
umoci init --layout oci
umoci new --image oci:latest
umoci raw add-layer --image oci:latest layer.tar
umoci config --image oci:latest --config.env CUDA_VERSION=12.4.1 \
    --config.env NVIDIA_DRIVER_CAPABILITIES=utility --config.cmd python3 --config.cmd /app/train.py
python3 - oci/index.json <<'PY'
import json, sys
idx = json.load(open(sys.argv[1]))
for m in idx["manifests"]:
    m.setdefault("annotations", {})["org.opencontainers.image.ref.name"] = "example/trainer:latest"
json.dump(idx, open(sys.argv[1], "w"))
PY
tar -C oci -cf "$out" .
echo "built $out"
