#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Materialises the hand-labelled real corpus (tests/corpus/real/SOURCES.tsv) into
# tests/corpus/real/files/: each file is read verbatim from a bare git snapshot of its
# repository at the listed commit and checked against its sha256. Nothing is built or run.
#   tests/corpus/real/get.sh MIRROR_DIR
# MIRROR_DIR holds one bare git directory per repository, as MIRROR_DIR/<owner>+<name>/repo
# (the layout of /work/.mirror) or MIRROR_DIR/<owner>+<name>.git.
set -uo pipefail
mirrors=$(realpath "${1:?usage: get.sh MIRROR_DIR}")
cd "$(dirname "$0")/../../.."
src=tests/corpus/real/SOURCES.tsv
out=tests/corpus/real/files
mkdir -p "$out"
ok=0 bad=0
while IFS=$'\t' read -r file repo path commit _license sha; do
  [ "$file" = file ] && continue
  case $file in '#'*|'') continue ;; esac   # a comment line (`# round 11, NAME`)
  gd=$mirrors/${repo/\//+}/repo
  [ -d "$gd" ] || gd=$mirrors/${repo/\//+}.git
  mkdir -p "$(dirname "$out/$file")"
  if ! git --git-dir="$gd" show "$commit:$path" > "$out/$file.tmp" 2>/dev/null; then
    echo "missing: $repo $path @ $commit"; rm -f "$out/$file.tmp"; bad=$((bad+1)); continue
  fi
  got=$(sha256sum < "$out/$file.tmp"); got=${got%% *}
  if [ "$got" != "$sha" ]; then
    echo "sha256 differs: $file"; rm -f "$out/$file.tmp"; bad=$((bad+1)); continue
  fi
  mv "$out/$file.tmp" "$out/$file"; ok=$((ok+1))
done < "$src"
echo "realcorpus: $ok files in $out, $bad missing"
[ "$bad" = 0 ]
