#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Shell conformance (RULES.md third round): gpulint's shell reader gives GL900 only where the
# shell itself rejects the script. Every shell script of the repository's test data
# (tests/shell/, tests/corpus/files, fixtures/, and tests/corpus/real/files when it has been
# fetched) plus any directory named after the binary is checked with `bash -n` (`dash -n`
# for a `#!/bin/sh` script); where the shell accepts it, `gpulint --type shell` must give no
# GL900. Scripts the shell rejects are counted, not judged (gpulint may read more leniently).
#   bash tests/shell_conformance.sh build/gpulint [DIR ...]
set -uo pipefail
bin=$(realpath "${1:?usage: shell_conformance.sh path/to/gpulint [DIR ...]}")
shift
cd "$(dirname "$0")/.."
command -v dash > /dev/null || { echo "shell_conformance: dash not found (apt-get install dash)"; exit 77; }
dirs=(tests/shell tests/corpus/files fixtures)
[ -d tests/corpus/real/files ] && dirs+=(tests/corpus/real/files)
dirs+=("$@")
tmp=$(mktemp); trap 'rm -f "$tmp"' EXIT
checked=0 rejected=0 fail=0
while IFS= read -r -d '' f; do
  first=$(head -c 128 "$f" | tr -d '\0' | head -n 1)
  case "$f" in
    *.sh|*.bash|*.slurm|*.sbatch) ;;
    *) case "$first" in '#!'*sh*) ;; *) continue ;; esac ;;
  esac
  case "$first" in
    '#!/bin/sh'|'#!/bin/sh '*|'#!/usr/bin/env sh'*) sh=dash ;;
    *) sh=bash ;;
  esac
  if ! "$sh" -n "$f" 2> /dev/null; then
    rejected=$((rejected + 1)); continue
  fi
  checked=$((checked + 1))
  "$bin" --type shell --format json "$f" > "$tmp" 2>&1
  if grep -q '"rule": "GL900"' "$tmp"; then
    echo "FAIL $f: $sh -n accepts it, gpulint says GL900:"
    grep -A6 '"rule": "GL900"' "$tmp" | grep -E '"line"|"column"|"message"'
    fail=$((fail + 1))
  fi
done < <(find "${dirs[@]}" -type f -size -1000k -print0 | sort -z)
echo "shell_conformance: $checked scripts the shell accepts, $fail with GL900; $rejected the shell rejects (not judged)"
[ "$checked" -gt 0 ] && [ "$fail" = 0 ]
