#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# bench/registry.sh [GPULINT]: an image straight from a registry, manifest + config only.
#
# Starts the distribution registry (Debian's docker-registry) on 127.0.0.1 with its own
# config, pushes the test image of fixtures/images/build.sh (3 layers, 120 MiB) with
# skopeo, then times `gpulint docker://...` (RUNS runs, default 20: min, median, max wall
# time) and counts, from the registry's access log, the requests one run makes: the
# target is at most 100 ms and exactly one blob GET (the config; --no-cache, since a
# config already read comes from the cache by its digest). Then the same with
# --layers (LAYER_RUNS runs, default 5): every layer streamed (--no-cache), and from the
# layer-index cache; with each one's peak RSS. Prints a Markdown table (for
# BENCHMARKS.md). Needs docker-registry, skopeo, umoci, python3.
set -euo pipefail
gpulint=$(realpath "${1:-build/gpulint}")
here=$(cd "$(dirname "$0")/.." && pwd)
runs=${RUNS:-20}
for t in docker-registry skopeo umoci python3; do
  command -v $t >/dev/null || { echo "skip: $t missing"; exit 77; }
done
dir=$(mktemp -d /tmp/gpulint-bench-reg.XXXXXX)
pid=
trap '[ -n "$pid" ] && kill $pid; rm -rf "$dir"' EXIT
unset http_proxy https_proxy HTTP_PROXY HTTPS_PROXY
bash "$here/fixtures/images/build.sh" "$dir/img" >/dev/null 2>&1
port=$(python3 -c 'import socket;s=socket.socket();s.bind(("127.0.0.1",0));print(s.getsockname()[1])')
printf 'version: 0.1\nlog:\n  level: info\nstorage:\n  filesystem:\n    rootdirectory: %s\nhttp:\n  addr: 127.0.0.1:%s\n' \
  "$dir/store" "$port" > "$dir/config.yml"
docker-registry serve "$dir/config.yml" >"$dir/log" 2>&1 &
pid=$!
for _ in $(seq 100); do grep -q 'listening on' "$dir/log" && break; sleep 0.1; done
skopeo --insecure-policy copy --dest-tls-verify=false oci:"$dir/img/oci":gpu \
  docker://127.0.0.1:$port/ml/gpu:1.0 >/dev/null
ref=docker://127.0.0.1:$port/ml/gpu:1.0
"$gpulint" --tls-verify=false --driver 535 "$ref" >/dev/null || true # warm the registry
before=$(grep -c '"GET /v2/' "$dir/log"); blobs0=$(grep -c '"GET /v2/[^ ]*/blobs/' "$dir/log")
"$gpulint" --tls-verify=false --driver 535 --no-cache "$ref" >/dev/null || true
gets=$(( $(grep -c '"GET /v2/' "$dir/log") - before ))
blobs=$(( $(grep -c '"GET /v2/[^ ]*/blobs/' "$dir/log") - blobs0 ))
times=$(for _ in $(seq "$runs"); do
  python3 - "$gpulint" "$ref" <<'PY'
import subprocess, sys, time
t = time.perf_counter()
subprocess.run([sys.argv[1], "--tls-verify=false", "--driver", "535", "--no-cache", sys.argv[2]],
               stdout=subprocess.DEVNULL)
print(f"{(time.perf_counter() - t) * 1000:.1f}")
PY
done | sort -n)
min=$(echo "$times" | head -1); max=$(echo "$times" | tail -1)
med=$(echo "$times" | sed -n "$(( (runs + 1) / 2 ))p")
echo "| input | runs | min ms | median ms | max ms | GETs per run | blob GETs per run |"
echo "|---|---|---|---|---|---|---|"
echo "| docker:// --no-cache (manifest + config; 3 layers, 120 MiB not fetched) | $runs | $min | $med | $max | $gets | $blobs |"

# --layers: every layer streamed (cold: --no-cache), then from the layer-index cache
export XDG_CACHE_HOME=$dir/cache
lruns=${LAYER_RUNS:-5}
layers_row() { # LABEL OPTION...
  local label=$1; shift
  local b0; b0=$(grep -c '"GET /v2/[^ ]*/blobs/' "$dir/log")
  local g0; g0=$(grep -c '"GET /v2/' "$dir/log")
  "$gpulint" --tls-verify=false --driver 535 --layers "$@" "$ref" >/dev/null || true
  local lg=$(( $(grep -c '"GET /v2/' "$dir/log") - g0 ))
  local lb=$(( $(grep -c '"GET /v2/[^ ]*/blobs/' "$dir/log") - b0 ))
  local t; t=$(for _ in $(seq "$lruns"); do
    python3 - "$gpulint" "$ref" "$@" <<'PY'
import resource, subprocess, sys, time
t = time.perf_counter()
subprocess.run([sys.argv[1], "--tls-verify=false", "--driver", "535", "--layers", *sys.argv[3:],
                sys.argv[2]], stdout=subprocess.DEVNULL)
rss = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss // 1024
print(f"{(time.perf_counter() - t) * 1000:.1f} {rss}")
PY
  done | sort -n)
  local lmin lmed lmax rss
  lmin=$(echo "$t" | head -1 | cut -d' ' -f1); lmax=$(echo "$t" | tail -1 | cut -d' ' -f1)
  lmed=$(echo "$t" | sed -n "$(( (lruns + 1) / 2 ))p" | cut -d' ' -f1)
  rss=$(echo "$t" | cut -d' ' -f2 | sort -n | tail -1)
  echo "| docker:// --layers $label (peak RSS $rss MiB) | $lruns | $lmin | $lmed | $lmax | $lg | $lb |"
}
layers_row "--no-cache (3 layers streamed, 120 MiB)" --no-cache
"$gpulint" --tls-verify=false --layers "$ref" >/dev/null 2>&1 || true # fill the cache
layers_row "(layer indexes and the config from the cache)"
