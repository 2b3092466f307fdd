#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# tests/hostile/fuzz_seeds.sh TARGET OUTDIR: seed inputs for a libFuzzer target of
# bench/fuzz.sh, generated (nothing committed as bytes).
#   fuzz_image   small image archives made by umoci + skopeo (oci-archive, docker-archive,
#                zstd layers, gzip outer) and bare layers (tar, tar.gz, tar.zst)
#   fuzz_config  .gpulint.yaml files using every setting
set -euo pipefail
target=${1:?usage: fuzz_seeds.sh TARGET OUTDIR}
out=$(mkdir -p "${2:?}" && cd "$2" && pwd)

image_seeds() {
  command -v umoci >/dev/null && command -v skopeo >/dev/null || return 0
  local w; w=$(mktemp -d); trap 'rm -rf "$w"' RETURN
  export TMPDIR=$w
  mkdir -p "$w/root/usr/local/cuda-12.4/lib64" "$w/root/etc" "$w/root/usr/bin"
  echo '{"cuda":{"version":"12.4.1"}}' > "$w/root/usr/local/cuda-12.4/version.json"
  echo rt > "$w/root/usr/local/cuda-12.4/lib64/libcudart.so.12.4.127"
  printf 'ID=ubuntu\nVERSION_ID="22.04"\n' > "$w/root/etc/os-release"
  ln -s cuda-12.4 "$w/root/usr/local/cuda"
  : > "$w/root/usr/bin/.wh.nvidia-smi"
  tar --sort=name --owner=0 --group=0 --numeric-owner --mtime=@0 -C "$w/root" -cf "$out/layer.tar" .
  gzip -9 -c "$out/layer.tar" > "$out/layer.tar.gz"
  zstd -q -19 -c "$out/layer.tar" > "$out/layer.tar.zst"
  ( cd "$w" && umoci init --layout oci && umoci new --image oci:seed &&
    umoci raw add-layer --image oci:seed "$out/layer.tar" &&
    umoci config --image oci:seed --tag seed --config.env CUDA_VERSION=12.4.1 \
      --os linux --architecture amd64 && umoci gc --layout oci ) >/dev/null
  local sk="skopeo --insecure-policy --tmpdir $w"
  # skopeo will not write into an existing docker-archive: regenerate them all
  rm -f "$out/oci-archive.tar" "$out/docker-archive.tar" "$out/oci-zstd.tar"
  $sk copy -q "oci:$w/oci:seed" "oci-archive:$out/oci-archive.tar:example/seed:1" >/dev/null
  $sk copy -q "oci:$w/oci:seed" "docker-archive:$out/docker-archive.tar:example/seed:1" >/dev/null
  $sk copy -q --dest-compress-format zstd "oci:$w/oci:seed" "oci-archive:$out/oci-zstd.tar:seed" >/dev/null
  gzip -9 -c "$out/oci-archive.tar" > "$out/oci-archive.tar.gz"
}

config_seeds() {
  cat > "$out/full.yaml" <<'Y'
driver: R535
failure-threshold: warning
ignore: [GL103, GL411]
enable: [GL103]
severity: {GL401: error, GL101: style}
dataset-args: ['^--corpus$', '^--data(-dir)?$']
checkpoint-args: []
dataset-env: ['^DATA_']
checkpoint-env: ['^CKPT']
data-paths: '(^|/)data/'
knowledge: cuda_facts.yaml
build-args: {CUDA: "12.4.1", BASE: ubuntu}
Y
  printf 'driver: 535.104.05\ndata-paths: ["(^|/)data/", "\\\\.safetensors$"]\n' > "$out/list.yaml"
  printf '# empty\n' > "$out/empty.yaml"
  printf 'ignore:\n  - GL999\n  - GL101\nseverity:\n  GL201: info\n' > "$out/block.yaml"
}

case $target in
  fuzz_image) image_seeds ;;
  fuzz_config) config_seeds ;;
  *) echo "no generated seeds for $target" >&2 ;;
esac
ls "$out"
