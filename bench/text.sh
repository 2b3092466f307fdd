#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# bench/text.sh [GPULINT] [REPO_DIR]: text inputs (Dockerfiles and launch files) in one
# process, beside the physical floor (bench/readfloor.c), `cat` and dockerfilelint (npm, the peer on
# Dockerfiles). Corpora, made under a temporary directory at run time:
#   dockerfiles  999 real GPU Dockerfiles: ../shared/corpus/dockerfiles when it is there,
#                else tests/corpus/files/dockerfiles, copied round until 999 files; 1x 10x 100x
#   launch       real launch files (shell, Markdown, compose, Kubernetes, Slurm, Apptainer):
#                runlines/ compose/ k8s/ apptainer/ of the same source; 1x 10x 100x
#   repo         a whole repository (REPO_DIR, default: moby/buildkit's snapshot under
#                /work/.mirror when present, exported with git archive), >= 5,000 files
# For each: gpulint --jobs 1 and --jobs 2, the floor (bench/readfloor.c: the same walk, every
# file read whole and nothing else done, on 1 and 2 threads; for launch files also with
# libyaml's event parser over the YAML ones; for Dockerfiles also with their RUN lines cut
# into shell words by a byte-class table, readfloor -w), cat, dockerfilelint (dockerfiles 1x and 10x
# only: it takes ~0.4 ms a file; PEER=no leaves it out, to compare two gpulint builds
# quickly), each the best of RUNS runs (default 3) by wall time;
# MB/s, files/s, the ratio of each to gpulint -j 1, MB/s of CPU time (user + system: less
# inflated by a busy machine than wall time), peak RSS (GNU time %M), and gpulint's
# instruction count (perf stat, or callgrind on up to 10,000 files where the VM has no
# hardware counters), which is what to compare before and after a change.
set -euo pipefail
cd "$(dirname "$0")/.."
bin=$(realpath "${1:-build/gpulint}")
repo=${2:-}
runs=${RUNS:-3}
for t in /usr/bin/time python3; do
  command -v $t > /dev/null || { echo "skip: $t missing"; exit 77; }
done
work=$(mktemp -d /tmp/gpulint-bench.XXXXXX); trap 'rm -rf "$work"' EXIT

src=../shared/corpus
if [ -d "$src/dockerfiles" ]; then echo "corpus source: $src (the shared corpus)"
else src=tests/corpus/files; echo "corpus source: $src (no ../shared/corpus here)"; fi

# make_dockerfiles N DIR: the Dockerfiles copied round into DIR/0, DIR/1, ... until N files
make_dockerfiles() {
  local n=$1 out=$2 srcs=() f i=0 c=0
  for f in "$src/dockerfiles"/*; do [ "${f##*/}" = SOURCES.tsv ] || srcs+=("$f"); done
  while [ $i -lt "$n" ]; do
    mkdir -p "$out/$c"
    for f in "${srcs[@]}"; do
      [ $i -lt "$n" ] || break
      cp "$f" "$out/$c/${f##*/}.Dockerfile"; i=$((i + 1))
    done
    c=$((c + 1))
  done
}
# make_launch K DIR: K copies of every launch file (names kept: they say the file's type)
make_launch() {
  local k=$1 out=$2 d f c
  for ((c = 0; c < k; c++)); do
    for d in runlines compose k8s apptainer; do
      [ -d "$src/$d" ] || continue
      mkdir -p "$out/$c/$d"
      for f in "$src/$d"/*; do
        [ -f "$f" ] && [ "${f##*/}" != SOURCES.tsv ] && cp "$f" "$out/$c/$d/"
      done
    done
  done
}

# the physical floor: walk the tree and read every file whole, nothing else (bench/readfloor.c)
# and, on the launch corpora, the same with libyaml's event parser run over every .yml/.yaml
# file (readfloor -y: the floor of any linter built on the one YAML reader gpulint may use)
cc -O2 -std=c11 -pthread -DWITH_YAML bench/readfloor.c -o "$work/readfloor" -lyaml 2> /dev/null ||
  cc -O2 -std=c11 -pthread bench/readfloor.c -o "$work/readfloor" 2> /dev/null ||
  echo "readfloor: no C compiler: no floor rows"

have_perf=0   # hardware counters (a VM may have none: then callgrind counts, on small corpora)
perf stat -e instructions -x, -o "$work/p" true > /dev/null 2>&1 &&
  grep -q '^[0-9]' "$work/p" && have_perf=1
peer=${GPULINT_TOOLS_DIR:-$HOME/.cache/gpulint-tools}/node_modules/.bin/dockerfilelint
if [ "${PEER:-yes}" = no ]; then
  peer=/nonexistent
elif [ ! -x "$peer" ] && command -v npm > /dev/null; then
  npm install --prefix "$(dirname "$(dirname "$(dirname "$peer")")")" --no-audit --no-fund \
    --loglevel=error dockerfilelint > /dev/null 2>&1 || true
fi
[ -x "$peer" ] || echo "dockerfilelint: not run (PEER=no, or no npm): no peer ratio"

# best LABEL CMD...: the best of $runs runs by wall time -> "secs user sys rss_kib"
best() {
  local i out=""
  for ((i = 0; i < runs; i++)); do
    /usr/bin/time -f "%e %U %S %M" -o "$work/t" "$@" > /dev/null 2> /dev/null || true
    out+="$(tail -n 1 "$work/t")"$'\n'
  done
  printf '%s' "$out" | sort -n | head -n 1
}
instructions() { # instructions FILES CMD...: user-space instructions of one run
  local files=$1; shift
  if [ $have_perf = 1 ]; then
    perf stat -e instructions:u -x, -o "$work/p" "$@" > /dev/null 2>&1 || true
    awk -F, '/instructions/ { print $1; exit }' "$work/p"
  elif [ "$files" -le 10000 ] && command -v valgrind > /dev/null; then
    valgrind --tool=callgrind --callgrind-out-file=/dev/null "$@" > /dev/null 2> "$work/p" || true
    awk '/Collected :/ { print $4; exit }' "$work/p"
  else echo -; fi
}

echo
echo "| corpus | files | MB | tool | wall s | MB/s | files/s | x gpulint -j1 time | user s | MB/s of CPU | peak RSS MiB | instructions |"
echo "|---|---:|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|"
row() { # row CORPUS DIR [peer] [yaml|words]
  local name=$1 dir=$2 withpeer=${3:-} extra=${4:-} files bytes g
  files=$(find "$dir" -type f | wc -l)
  bytes=$(find "$dir" -type f -printf '%s\n' | awk '{ s += $1 } END { print s + 0 }')
  find "$dir" -type f -print0 | xargs -0 cat > /dev/null   # warm the page cache
  g="--no-config --no-cache --failure-threshold none"
  {
    echo "gpulint-j1 $(best "$bin" $g --jobs 1 "$dir") $(instructions "$files" "$bin" $g --jobs 1 "$dir")"
    echo "gpulint-j2 $(best "$bin" $g --jobs 2 "$dir") -"
    if [ -x "$work/readfloor" ]; then
      echo "floor-j1 $(best "$work/readfloor" "$dir") -"
      echo "floor-j2 $(best "$work/readfloor" -j 2 "$dir") -"
      if [ "$extra" = yaml ] && "$work/readfloor" -y "$dir" > /dev/null 2>&1; then
        echo "floor+libyaml-j1 $(best "$work/readfloor" -y "$dir") -"
        echo "floor+libyaml-j2 $(best "$work/readfloor" -j 2 -y "$dir") -"
      fi
      if [ "$extra" = words ]; then
        echo "floor+RUN-words-j1 $(best "$work/readfloor" -w "$dir") -"
        echo "floor+RUN-words-j2 $(best "$work/readfloor" -j 2 -w "$dir") -"
      fi
    fi
    echo "cat $(best sh -c 'find "$1" -type f -print0 | xargs -0 cat' sh "$dir") -"
    if [ -n "$withpeer" ] && [ -x "$peer" ]; then
      find "$dir" -type f -print0 | sort -z > "$work/list"
      echo "dockerfilelint $(best xargs -0 -a "$work/list" "$peer") -"
    fi
  } > "$work/rows"
    python3 - "$work/rows" "$name" "$files" "$bytes" <<'PY'
import sys
rows = [l.split() for l in open(sys.argv[1]) if l.strip()]
name, files, nbytes = sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
base = max(float(rows[0][1]), 0.001)
for tool, wall, user, sys_, rss, ins in rows:
    w = max(float(wall), 0.001)   # GNU time has 10 ms resolution
    ins = f"{int(ins) / 1e6:.0f} M" if ins.isdigit() else "-"
    cpu = max(float(user) + float(sys_), 0.01)   # what a busy machine does not inflate
    print(f"| {name} | {files} | {nbytes / 1e6:.2f} | {tool} | {float(wall):.2f} "
          f"| {nbytes / 1e6 / w:.0f} | {files / w:.0f} | {w / base:.2f} | {float(user):.2f} "
          f"| {nbytes / 1e6 / cpu:.0f} | {int(rss) / 1024:.1f} | {ins} |")
PY
}

make_dockerfiles 999 "$work/d"
make_launch 1 "$work/l"
copies() { # copies K FROM TO: TO/0 .. TO/K-1, each a copy of FROM
  local c; mkdir -p "$3"; for ((c = 0; c < $1; c++)); do cp -r "$2" "$3/$c"; done
}
for k in 1 10 100; do
  copies $k "$work/d" "$work/d$k"
  row "dockerfiles ${k}x" "$work/d$k" "$([ $k -le 10 ] && echo peer)" words
  rm -rf "$work/d$k"
done
for k in 1 10 100; do
  copies $k "$work/l" "$work/l$k"
  row "launch ${k}x" "$work/l$k" "" yaml
  rm -rf "$work/l$k"
done
if [ -z "$repo" ]; then
  snap=/work/.mirror/moby+buildkit/repo
  if [ -d "$snap" ]; then
    mkdir -p "$work/repo" && git --git-dir="$snap" archive HEAD | tar -x -C "$work/repo"
    repo=$work/repo
    echo
    echo "repository: moby/buildkit @ $(git --git-dir="$snap" rev-parse --short HEAD)"
  fi
fi
[ -n "$repo" ] && row "repo walk" "$repo"
exit 0
