#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# bench/bounds.sh [GPULINT]: the hostile shapes at 10^2, 10^4 and 10^5 items, in one run:
# build stages, YAML documents (a Kubernetes stream), compose services, shell commands.
# Each step is linted in one process; GNU time gives wall time and peak RSS. Linear time
# keeps the µs per item flat; the bounds keep the peak RSS under 64 MiB (a step that
# passes the limit parse-memory ends in a GL900 naming it, and says so in the last column).
# Index entries: an OCI layout whose index.json names its one manifest N times
# (tests/hostile/oci_layout.py fanout=N; read and linted once).
set -euo pipefail
cd "$(dirname "$0")/.."
bin=$(realpath "${1:-build/gpulint}")
for t in /usr/bin/time python3; do
  command -v $t >/dev/null || { echo "skip: $t missing"; exit 77; }
done
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT

gen() { # gen SHAPE N FILE
  python3 - "$@" <<'PY'
import sys
shape, n, out = sys.argv[1], int(sys.argv[2]), sys.argv[3]
with open(out, "w") as f:
    if shape == "stages":
        for i in range(n):
            f.write(f"FROM ubuntu:22.04 AS s{i}\nCOPY --from=s{i // 2} /a /a\n")
    elif shape == "documents":
        for i in range(n):
            f.write(f"---\napiVersion: v1\nkind: Pod\nmetadata: {{name: p{i}}}\nspec:\n"
                    f"  containers: [{{name: c, image: 'ubuntu:22.04'}}]\n")
    elif shape == "services":
        f.write("services:\n")
        for i in range(n):
            f.write(f"  s{i}: {{image: 'ubuntu:22.04', command: [sleep, '1']}}\n")
    elif shape == "commands":
        f.write("#!/bin/sh\n")
        for i in range(n):
            f.write(f"docker run --rm ubuntu:22.04 echo {i}\n")
PY
}

echo "| shape | items | MB | wall ms | µs per item | peak RSS MiB | outcome |"
echo "|---|---:|---:|---:|---:|---:|---|"
mkdir -p "$work/layer/etc"; echo x > "$work/layer/etc/x"
tar -C "$work/layer" -cf "$work/layer.tar" .
for shape in stages documents services commands index-entries; do
  for n in 100 10000 100000; do
    case $shape in stages) f=$work/Dockerfile ;; documents) f=$work/pods.yaml ;;
                   services) f=$work/compose.yaml ;; commands) f=$work/run.sh ;;
                   index-entries) f=$work/layout ;; esac
    if [ $shape = index-entries ]; then
      rm -rf "$f"; python3 tests/hostile/oci_layout.py "fanout=$n" "$f" "$work/layer.tar"
    else
      gen $shape $n "$f"
    fi
    /usr/bin/time -f '%e %M' -o "$work/t" "$bin" --no-config --format json \
      --failure-threshold none --no-cache "$f" > "$work/out" 2>/dev/null || true
    python3 - "$work/t" "$work/out" "$shape" "$n" "$(du -sb --apparent-size "$f" | cut -f1)" <<'PY'
import json, sys
secs, rss = open(sys.argv[1]).read().split()[-2:]
d = json.load(open(sys.argv[2]))
gl900 = [f for f in d["findings"] if f["rule"] == "GL900"]
outcome = (f"GL900 {gl900[0]['line']}:{gl900[0]['column']} "
           + gl900[0]["message"].split(";")[0].replace("cannot parse: ", "")) if gl900 else "linted"
n, ms = int(sys.argv[4]), float(secs) * 1e3
print(f"| {sys.argv[3]} | {n} | {int(sys.argv[5]) / 1e6:.2f} | {ms:.0f} | {ms * 1e3 / n:.1f} "
      f"| {int(rss) / 1024:.1f} | {outcome} |")
PY
  done
done
