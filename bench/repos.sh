#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Whole repositories (issue 17 point 5): `gpulint --driver 535 REPO` on snapshots of public
# GPU repositories, one Markdown table row each (files linted, findings by severity, wall
# time, peak RSS), then every error-severity finding for review by hand, and the GL900 /
# GL901 / GL903 findings (a GL900 on a valid file or a GL901 on a plain Dockerfile, compose,
# Kubernetes, Makefile or CI file is a defect).
#   bench/repos.sh path/to/gpulint MIRROR_GIT_DIR...
# Each MIRROR_GIT_DIR is a bare git directory (the `fetch` tool's /work/.mirror/OWNER+NAME/repo);
# its HEAD is unpacked to a temporary directory. Helm charts are rendered when helm is found
# (GPULINT_HELM, else helm on PATH, else ~/.cache/gpulint-tools/bin/helm).
set -uo pipefail
bin=$(realpath "${1:?usage: repos.sh path/to/gpulint MIRROR_GIT_DIR...}")
shift
helm=${GPULINT_HELM:-$(command -v helm || echo "$HOME/.cache/gpulint-tools/bin/helm")}
helm_args=()
[ -x "$helm" ] && helm_args=(--helm "$helm")
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
rows=() details=()
for git_dir in "$@"; do
  name=$(basename "$(dirname "$git_dir")"); name=${name/+//}
  commit=$(git --git-dir="$git_dir" rev-parse --short=8 HEAD) || continue
  dir="$work/${name//\//__}"
  mkdir -p "$dir" && git --git-dir="$git_dir" archive HEAD | tar -x -C "$dir" || continue
  (cd "$work" && /usr/bin/time -f "%e %M" -o "$work/time" \
     "$bin" --driver 535 "${helm_args[@]}" --format json "$(basename "$dir")" > "$work/out.json" 2> "$work/err")
  read -r secs kb < <(tail -n 1 "$work/time")
  row=$(python3 - "$work/out.json" "$name@$commit" "$secs" "$kb" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
s = r["summary"]
print(f"| {sys.argv[2]} | {s['files']} | {s['errors']} | {s['warnings']} | {s['infos']} | "
      f"{float(sys.argv[3]):.2f} | {int(sys.argv[4]) / 1024:.1f} |")
for f in r["findings"]:
    if f["severity"] == "error" or f["rule"] in ("GL900", "GL901", "GL903"):
        print(f"    {f['rule']} {f['severity']} {f['file']}:{f['line']}:{f['column']} {f['message'][:150]}")
PY
)
  rows+=("$(head -n 1 <<< "$row")")
  details+=("## $name@$commit" "$(tail -n +2 <<< "$row")")
  rm -rf "$dir"
done
echo "| repository @ commit | files linted | errors | warnings | infos | time s | peak RSS MB |"
echo "|---|---:|---:|---:|---:|---:|---:|"
printf '%s\n' "${rows[@]}"
echo
printf '%s\n' "${details[@]}"
