# SPDX-License-Identifier: Apache-2.0
# bench/corpus_copies.sh: sourced by the Dockerfile benches.
# corpus_copies N DIR: tests/corpus/files/dockerfiles copied into DIR/0, DIR/1, ... until
# there are at least N files (whole copies of the corpus); prints the file count, or
# fails (in a command substitution, set -e does not reach inside: every step checks).
corpus_copies() {
  local n=$1 out=$2 corpus=tests/corpus/files/dockerfiles srcs=() f i
  for f in "$corpus"/*; do [ "$(basename "$f")" = SOURCES.tsv ] || srcs+=("$f"); done
  local copies=$(( (n + ${#srcs[@]} - 1) / ${#srcs[@]} ))
  for ((i = 0; i < copies; i++)); do
    mkdir -p "$out/$i"
    for f in "${srcs[@]}"; do cp "$f" "$out/$i/$(basename "$f").Dockerfile" || return 1; done
  done
  find "$out" -type f | wc -l
}
