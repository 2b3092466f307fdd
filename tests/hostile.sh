#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# tests/hostile.sh GPULINT: hostile inputs against the real binary.
#
# Every input is generated here, in a temp dir, by real tools (tar, bsdtar, gzip, zstd,
# python3's tarfile only for what tar cannot write; OCI layouts wrapped by
# tests/hostile/oci_layout.py). Each case runs gpulint under a time cap (timeout) and a
# memory cap (setrlimit RLIMIT_AS through prlimit), with a good Dockerfile named in the
# same run, and asserts:
#   - no crash, no hang: exit <= 1 and a valid JSON report (exit 2 and an error naming
#     FILE:LINE:COL for a bad --config / --knowledge, which are usage errors);
#   - the expected outcome: GL900 at an exact line and column (line 0, column 0 and a
#     message naming the entry for an image), or a clean parse (no GL900);
#   - the good input was still linted (its GL101 is reported).
# At the end: nothing was written outside the cache dir (fresh HOME, XDG_CACHE_HOME and
# TMPDIR; files newer than a stamp under /tmp, $HOME and the repo).
#
# Under AddressSanitizer (a build-asan binary, or one that has __asan_init) RLIMIT_AS
# cannot be used (ASan reserves terabytes of shadow): the peak RSS measured by
# /usr/bin/time is checked instead, against 2 x cap + 256 MB, and the time caps are x5.
# Exit 77 when a needed tool is missing.
set -uo pipefail
bin=$(realpath "${1:?usage: tests/hostile.sh path/to/gpulint}")
here=$(cd "$(dirname "$0")/.." && pwd)
gen=$here/tests/hostile
for t in python3 timeout prlimit gzip zstd xz bzip2 tar bsdtar /usr/bin/time; do
  command -v "$t" >/dev/null || { echo "skip: $t missing"; exit 77; }
done
work=$(mktemp -d /tmp/gpulint-hostile.XXXXXX)
trap 'rm -rf "$work"' EXIT
asan=0
case $bin in *build-asan*) asan=1 ;; esac
# (grep reads all of nm's output: with -q, nm's SIGPIPE would fail the pipeline)
[ $asan = 1 ] || ! nm "$bin" 2>/dev/null | grep ' __asan_init' >/dev/null || asan=1
[ $asan = 1 ] && echo "ASan build: memory caps checked on the measured peak RSS"

fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }

# A fresh HOME, cache and temp dir: after the suite only the cache may have changed.
export HOME=$work/home XDG_CACHE_HOME=$work/cache TMPDIR=$work/tmp
mkdir -p "$HOME" "$TMPDIR" "$work/cwd" "$work/in" "$work/good" "$work/tooltmp"
good=$work/good/Dockerfile
printf 'FROM ubuntu:latest\n' > "$good"   # GL101 at 1:13
# under --type kubernetes every named file is a manifest: the good input is then this one
printf 'apiVersion: v1\nkind: Pod\nmetadata:\n  name: good\nspec:\n  containers:\n  - name: c\n    image: ubuntu:latest\n' > "$work/good/pod.yaml"
goodfile=$good
cd "$work/cwd"
touch "$work/stamp"
sleep 1

# run SECS MEM_MB ARGS...: gpulint on ARGS then the good input, under the caps.
# Sets rc, secs_used, rss_mb; the report is $work/out, stderr $work/err.
run() {
  local secs=$1 mem=$2; shift 2
  local cap=()
  if [ $asan = 1 ]; then secs=$((secs * 5)); else cap=(prlimit --as=$((mem << 20)) --); fi
  local t0=$SECONDS
  timeout -k 5 "$secs" /usr/bin/time -f '%e %M' -o "$work/rss" "${cap[@]}" \
    "$bin" --driver 535 --jobs 2 --format json "$@" "$goodfile" > "$work/out" 2> "$work/err"
  rc=$?
  local measured; measured=$(tail -n 1 "$work/rss" 2>/dev/null | grep -E '^[0-9.]+ [0-9]+$')
  local rss_kb=0
  if [ -n "$measured" ]; then secs_used=${measured% *}; rss_kb=${measured#* }
  else secs_used=$((SECONDS - t0)); fi
  rss_mb=$(( (rss_kb + 1023) / 1024 ))
  if [ $rc = 124 ] || [ $rc = 137 ]; then echo "  timed out after ${secs}s"; fi
  # the bound every input must keep (README, Limits): 64 MiB of resident memory
  if [ $asan = 0 ] && [ "$rss_kb" -gt $((64 << 10)) ]; then
    echo "  peak RSS ${rss_kb} KiB over 64 MiB"; rc=98
  fi
  if [ $asan = 1 ] && [ "$rss_mb" -gt $((2 * mem + 256)) ]; then
    echo "  peak RSS ${rss_mb} MB over the ASan cap $((2 * mem + 256)) MB"; rc=99
  fi
}

# verify NAME EXPECT...: check the JSON report. EXPECT: "gl900 FILE LINE COL REGEX" (LINE
# or COL "*": any; LINE ">N": past line N; COL ">N": past column N), "clean FILE" (no GL900 for FILE), "finding
# RULE FILE LINE COL", "absent REGEX" (no message matches), "count RULE FILE N" (exactly N findings of RULE in
# FILE), "has RULE FILE REGEX" (a finding of RULE in FILE matches), "maxlen N" (no message
# is longer than N bytes), "rss N" (the peak RSS was at most N MB; not checked under
# ASan), one per word group separated by "--".
verify() {
  RSS_MB=$rss_mb ASAN=$asan python3 - "$work/out" "$goodfile" "$@" <<'PY'
import json, os, re, sys
out, good, name, specs = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
try:
    d = json.load(open(out))
except Exception as e:
    sys.exit(f"{name}: the report is not valid JSON ({e})")
fs = d["findings"]
errs = []
if not any(f["file"] == good and f["rule"] == "GL101" for f in fs):
    errs.append("the good input named after it was not linted")
groups, cur = [], []
for w in specs:
    if w == "--":
        groups.append(cur); cur = []
    else:
        cur.append(w)
groups.append(cur)
for g in groups:
    if not g:
        continue
    if g[0] == "gl900":
        # COL "*": any column (where the limit parse-memory stops depends on the layout
        # of the parser's memory, not on the input alone)
        file, pat = g[1], " ".join(g[4:])
        # LINE ">N": a line past N (where the limit stopped a reader, not 1:1)
        after = int(g[2][1:]) if g[2].startswith(">") else None
        line = None if g[2] == "*" or after is not None else int(g[2])
        # COL ">N": a column past N (the limit stopped a reader inside the line)
        col_after = int(g[3][1:]) if g[3].startswith(">") else None
        col = None if g[3] == "*" or col_after is not None else int(g[3])
        hits = [f for f in fs if f["rule"] == "GL900" and f["file"] == file]
        if hits and col is None:
            col = hits[0]["column"]
        if hits and col_after is not None:
            col = hits[0]["column"] if hits[0]["column"] > col_after else f">{col_after}"

        if hits and line is None:
            line = hits[0]["line"]
        if hits and after is not None:
            line = hits[0]["line"] if hits[0]["line"] > after else f">{after}"
        if not hits:
            errs.append(f"expected GL900 in {file}, got none")
        elif (hits[0]["line"], hits[0]["column"]) != (line, col) or not re.search(pat, hits[0]["message"]):
            errs.append(f"expected GL900 {file}:{line}:{col} /{pat}/, got "
                        f"{hits[0]['line']}:{hits[0]['column']} {hits[0]['message']}")
    elif g[0] == "clean":
        for f in fs:
            if f["rule"] == "GL900" and f["file"] == g[1]:
                errs.append(f"expected a clean parse of {g[1]}, got GL900 {f['line']}:{f['column']} {f['message']}")
    elif g[0] == "finding":
        rule, file, line, col = g[1], g[2], int(g[3]), int(g[4])
        if not any(f["rule"] == rule and f["file"] == file and f["line"] == line and
                   f["column"] == col for f in fs):
            errs.append(f"expected {rule} at {file}:{line}:{col}, got " +
                        ", ".join(f"{f['rule']} {f['file']}:{f['line']}:{f['column']}" for f in fs))
    elif g[0] == "absent":
        pat = " ".join(g[1:])
        for f in fs:
            if re.search(pat, f["message"]):
                errs.append(f"a finding matches /{pat}/: {f['message'][:300]}")
    elif g[0] == "count":
        n = sum(1 for f in fs if f["rule"] == g[1] and f["file"] == g[2])
        if n != int(g[3]):
            errs.append(f"expected {g[3]} {g[1]} in {g[2]}, got {n}")
    elif g[0] == "has":
        pat = " ".join(g[3:])
        if not any(f["rule"] == g[1] and f["file"] == g[2] and re.search(pat, f["message"]) for f in fs):
            errs.append(f"expected a {g[1]} in {g[2]} matching /{pat}/, got " +
                        "; ".join(f"{f['rule']} {f['message'][:200]}" for f in fs if f["file"] == g[2])[:1500])
    elif g[0] == "rss":
        if os.environ["ASAN"] != "1" and int(os.environ["RSS_MB"]) > int(g[1]):
            errs.append(f"peak RSS {os.environ['RSS_MB']} MB, over {g[1]} MB")
    elif g[0] == "maxlen":
        for f in fs:
            if len(f["message"]) > int(g[1]):
                errs.append(f"a {f['rule']} message of {len(f['message'])} bytes: {f['message'][:200]}...")
    else:
        errs.append(f"bad spec {g}")
if errs:
    sys.exit(name + ": " + "; ".join(errs))
PY
}

# lint NAME SECS MEM_MB "EXPECT" PATH...: a case that must lint (exit <= 1).
lint() {
  local name=$1 secs=$2 mem=$3 expect=$4; shift 4
  run "$secs" "$mem" "$@"
  if [ "$rc" -gt 1 ]; then
    fail "$name: exit $rc"; head -c 2000 "$work/err"; return
  fi
  # shellcheck disable=SC2086
  if msg=$(verify "$name" $expect 2>&1); then
    echo "ok $name (${secs_used}s, ${rss_mb} MB)"
  else
    fail "$msg"
  fi
}

# usage NAME SECS MEM_MB REGEX ARGS...: a bad --config / --knowledge: exit 2, stderr
# matching REGEX (which names FILE:LINE:COL), no crash.
usage() {
  local name=$1 secs=$2 mem=$3 pat=$4; shift 4
  run "$secs" "$mem" "$@"
  if [ "$rc" = 2 ] && grep -Eq -- "$pat" "$work/err"; then
    echo "ok $name (${secs_used}s, ${rss_mb} MB)"
  else
    fail "$name: expected exit 2 and /$pat/, got exit $rc: $(head -c 600 "$work/err")"
  fi
}

in=$work/in
deep() { head -c "$1" /dev/zero | tr '\0' "$2"; }

# ================= text inputs =================
# 8 MB single lines (under the limit input-size): linear time, memory a small multiple of
# the file. A Dockerfile line stops at BuildKit's 65535-byte limit (GL900 at the first byte
# past it); a shell script and a compose scalar are read whole.
mkdir -p "$in/long"
{ printf 'FROM ubuntu:22.04\nRUN echo '; deep 8000000 a; printf '\n'; } > "$in/long/Dockerfile"
lint long-line-dockerfile 60 1536 "gl900 $in/long/Dockerfile 2 65536 max allowed size" "$in/long/Dockerfile"
{ printf '#!/bin/sh\ndocker run --rm -e X='; deep 8000000 a; printf ' ubuntu:22.04\n'; } > "$in/long/run.sh"
lint long-line-shell 60 1536 "clean $in/long/run.sh" "$in/long/run.sh"
{ printf 'services:\n  a:\n    image: ubuntu:22.04\n    command: '; deep 8000000 a; echo; } > "$in/long/docker-compose.yml"
lint long-line-compose 60 1536 "clean $in/long/docker-compose.yml" "$in/long/docker-compose.yml"
# 100 MB inputs stop at the limit input-size (16 MiB): GL900 at its byte, read no further
{ printf 'FROM ubuntu:22.04\nRUN echo '; deep 100000000 a; printf '\n'; } > "$in/long/Dockerfile"
lint input-size-dockerfile 60 1536 "gl900 $in/long/Dockerfile 2 16777199 input-size" "$in/long/Dockerfile"
{ printf 'services:\n  a:\n    image: ubuntu:22.04\n    command: '; deep 100000000 a; echo; } > "$in/long/docker-compose.yml"
lint input-size-compose 60 1536 "gl900 $in/long/docker-compose.yml 4 16777178 input-size" "$in/long/docker-compose.yml"
# endless stdin: the limit input-size, not the end of the stream, ends the read
run 20 512 - < /dev/zero
if [ "$rc" -le 1 ] && msg=$(verify stdin-endless gl900 - 1 1 NUL byte 2>&1); then
  echo "ok stdin-endless (${secs_used}s, ${rss_mb} MB)"
else fail "stdin-endless: exit $rc ${msg:-}"; fi
# one command of a million words (2 MB): ~180 bytes of memory per word, so the limit
# parse-memory stops it (at the word where it is reached) rather than 180 MB
{ printf '#!/bin/sh\ndocker run --rm ubuntu:22.04 '; yes x | head -c 2000000 | tr '\n' ' '; printf '\n'; } > "$in/long/words.sh"
lint many-words-shell 60 1024 "gl900 $in/long/words.sh 2 * parse-memory" "$in/long/words.sh"
# 10^5 build stages (4 MB): linear time (stages were found by name in a linear scan:
# quadratic), and the limit parse-memory; 10^4 stages parse clean
python3 -c "
import sys
for n, f in ((100000, 'stages.Dockerfile'), (10000, 'stages4.Dockerfile')):
    open(sys.argv[1] + '/' + f, 'w').write(''.join(
        f'FROM ubuntu:22.04 AS s{i}\\nCOPY --from=s{i // 2} /a /a\\n' for i in range(n)))
" "$in/long"
lint stages-1e5 10 512 "gl900 $in/long/stages.Dockerfile * * parse-memory" "$in/long/stages.Dockerfile"
lint stages-1e4 5 512 "clean $in/long/stages4.Dockerfile" "$in/long/stages4.Dockerfile"
# a template directive (GL903) or an unknown word (GL900) at line 2, then 200,000
# instructions (11 MB): the rest was parsed until parse-memory stopped it (GL900 at the
# limit, far from the cause); the parse stops at the first word BuildKit does not know
{ printf 'FROM ubuntu:22.04\n{%% if cookiecutter.gpu %%}\n'; yes 'RUN echo the same line again and again' | head -n 200000; } > "$in/long/tpl.Dockerfile"
lint template-then-1e5 10 512 "finding GL903 $in/long/tpl.Dockerfile 2 1 -- clean $in/long/tpl.Dockerfile" "$in/long/tpl.Dockerfile"
{ printf 'FROM ubuntu:22.04\nSUDO apt-get update\n'; yes 'RUN echo the same line again and again' | head -n 200000; } > "$in/long/sudo.Dockerfile"
lint unknown-then-1e5 10 512 "gl900 $in/long/sudo.Dockerfile 2 1 unknown.instruction:.SUDO" "$in/long/sudo.Dockerfile"
# make variables that refer to each other 8 times, 8 deep (16 MB each), in 2000 recipe
# lines (fuzz_makefile found this: every line expanded to its own 1 MiB cap, 2 GB of shell
# text in all); expansions now share one budget per file.
{ printf 'A0 := x x x x\n'
  for k in 1 2 3 4 5 6 7 8; do j=$((k - 1)); printf 'A%d := $(A%d) $(A%d) $(A%d) $(A%d) $(A%d) $(A%d) $(A%d) $(A%d)\n' $k $j $j $j $j $j $j $j $j; done
  printf 'run:\n'
  for k in $(seq 2000); do printf '\tdocker run --rm ubuntu:22.04 echo $(A8)\n'; done
} > "$in/long/Makefile"
# (the 1 MiB of words that one line expands to is 500,000 words: the limit parse-memory
# stops the split at the expansion, rather than 90 MB of words)
lint make-expansion-bomb 10 512 "gl900 $in/long/Makefile 11 36 parse-memory" "$in/long/Makefile"
# the same with Dockerfile ARGs (expanded where they are declared: A8 alone is 128 MiB; 20
# ENVs of it took 52 s and 2.9 GB before one budget per file) and with shell variables
{ printf 'FROM ubuntu:22.04\nARG A0="x x x x"\n'
  for k in 1 2 3 4 5 6 7 8; do j=$((k - 1)); printf 'ARG A%d="${A%d} ${A%d} ${A%d} ${A%d} ${A%d} ${A%d} ${A%d} ${A%d}"\n' $k $j $j $j $j $j $j $j $j; done
  for k in $(seq 200); do printf 'ENV B%d=${A8}\nRUN echo ${A7} $A8\n' $k; done
} > "$in/long/Dockerfile"
lint arg-expansion-bomb 10 512 "clean $in/long/Dockerfile" "$in/long/Dockerfile"
{ printf '#!/bin/sh\nA0="x x x x"\n'
  for k in 1 2 3 4 5 6 7 8; do j=$((k - 1)); printf 'A%d="$A%d $A%d $A%d $A%d $A%d $A%d $A%d $A%d"\n' $k $j $j $j $j $j $j $j $j; done
  for k in $(seq 2000); do printf 'docker run --rm ubuntu:22.04 echo $A8\n'; done
} > "$in/long/vars.sh"
lint shell-var-bomb 10 512 "clean $in/long/vars.sh" "$in/long/vars.sh"
# a 26 MB .env beside a compose file whose 200 services extend each other in a chain:
# the .env is read up to expansion-size, the chain stops at its depth bound
python3 - "$in/long" <<'PY'
import sys
d = sys.argv[1]
with open(d + "/.env", "w") as f:
    for i in range(600000):
        f.write(f"VAR{i}=value_{i}_" + "x" * 20 + "\n")
with open(d + "/docker-compose.yml", "w") as f:
    f.write("services:\n")
    for i in range(200):
        nxt = f"extends: s{i + 1}" if i < 199 else "command: [\"true\"]"
        f.write(f"  s{i}:\n    image: ubuntu:22.04\n    {nxt}\n    environment:\n      A: ${{VAR{i}}}\n")
PY
lint compose-env-huge 10 64 "clean $in/long/docker-compose.yml -- rss 64" "$in/long/docker-compose.yml"
# the same under the 64 MiB address-space cap on 8 workers: each worker reserves its stack
# and a malloc arena of its own (72 MiB of addresses), and 8 of them ran out of memory
# (abort); now a run under RLIMIT_AS starts the workers its limit leaves room for
lint compose-env-huge-8-workers 10 64 "clean $in/long/docker-compose.yml -- rss 64" --jobs 8 \
  "$in/long/docker-compose.yml"
rm -f "$in/long/.env"
rm -f "$in"/long/*

# Images the project makes (README, "Images the project makes"): 16 globs that every
# reference is compared with, 40 more under one key (16 kept), then 20,000 literal build
# tags of which the limit project-images keeps the first (10,000 less those 32); 20,000
# launches, half of them of images built (the even ones, 5,016 of them past the limit),
# half on another registry: one look-up each, linear time, bounded memory
mkdir -p "$in/proj"
python3 - "$in/proj" <<'PY'
import sys
d = sys.argv[1]
with open(d + '/build.sh', 'w') as f:
    f.write('#!/bin/sh\n')
    for i in range(16):
        f.write('docker build -t "${P}-%d:$V" .\n' % i)
    for i in range(40):
        f.write('docker build -t "r%d/${N}/img0:$V" .\n' % i)
    for i in range(20000):
        f.write('docker build -t acme/img%d .\n' % i)
for k in range(4):  # (5,000 launches a file: 20,000 in one pass the limit parse-memory)
    with open(d + '/run%d.sh' % k, 'w') as f:
        f.write('#!/bin/sh\n')
        for i in range(5000 * k, 5000 * k + 5000, 2):
            f.write('docker run --rm registry.example.com/ns/img%d\ndocker run --rm acme/img%d\n'
                    % (i + 1, i))
PY
lint project-images 20 512 "count GL101 $in/proj/run0.sh 2500 -- count GL101 $in/proj/run1.sh 2516 -- count GL101 $in/proj/run2.sh 5000 -- count GL101 $in/proj/run3.sh 5000" "$in/proj"
rm -rf "$in/proj"

# NUL bytes and invalid UTF-8 in every text format. A NUL byte is GL900 at it in every
# format (it used to cut a token short without a word). Invalid UTF-8: YAML formats stop
# at the first bad byte (GL900 at it); the Dockerfile, shell, Makefile, Markdown and
# apptainer readers take bytes as they are (a clean parse), as BuildKit and bash do.
mkdir -p "$in/nul" "$in/utf8"
printf 'FROM ubuntu:22.04\nRUN echo a\0b\n' > "$in/nul/Dockerfile"
printf 'FROM ubuntu:22.04\nRUN echo \xff\xfe caf\xc3\n' > "$in/utf8/Dockerfile"
printf '#!/bin/sh\ndocker run --rm a\0b ubuntu:22.04\n' > "$in/nul/run.sh"
printf '#!/bin/sh\ndocker run --rm \xff\xc3 ubuntu:22.04\n' > "$in/utf8/run.sh"
printf 'run:\n\tdocker run --rm a\0b ubuntu:22.04\n' > "$in/nul/Makefile"
printf 'run:\n\tdocker run --rm \xff ubuntu:22.04\n' > "$in/utf8/Makefile"
printf '# x\n```sh\ndocker run --rm a\0b ubuntu:22.04\n```\n' > "$in/nul/README.md"
printf '# x\xff\n```sh\ndocker run --rm \xc3 ubuntu:22.04\n```\n' > "$in/utf8/README.md"
printf 'Bootstrap: docker\nFrom: ubuntu:22.04\n%%post\n  echo a\0b\n' > "$in/nul/Singularity"
printf 'Bootstrap: docker\nFrom: ubuntu:22.04\n%%post\n  echo \xff\n' > "$in/utf8/Singularity"
printf 'services:\n  a:\n    image: x\0y\n' > "$in/nul/docker-compose.yml"
printf 'services:\n  a:\n    image: "x\xff"\n' > "$in/utf8/docker-compose.yml"
# (Kubernetes is recognised by content: the documents before the bad line load and say so)
printf 'apiVersion: v1\nkind: Pod\nmetadata: {name: a}\n---\napiVersion: v1\nkind: Pod\nmetadata: {name: a\0}\n' > "$in/nul/pod.yaml"
printf 'apiVersion: v1\nkind: Pod\nmetadata: {name: a}\n---\nkind: Pod\nmetadata: {name: \xc3\x28}\n' > "$in/utf8/pod.yaml"
printf 'job:\n  script:\n    - docker run a\0 ubuntu\n' > "$in/nul/.gitlab-ci.yml"
printf 'job:\n  script:\n    - docker run \xff ubuntu\n' > "$in/utf8/.gitlab-ci.yml"
for f in Dockerfile run.sh Makefile README.md Singularity; do
  lint "utf8-$f" 10 512 "clean $in/utf8/$f" "$in/utf8/$f"
done
lint nul-Dockerfile 10 512 "gl900 $in/nul/Dockerfile 2 11 NUL byte" "$in/nul/Dockerfile"
lint nul-run.sh 10 512 "gl900 $in/nul/run.sh 2 18 NUL byte" "$in/nul/run.sh"
lint nul-Makefile 10 512 "gl900 $in/nul/Makefile 2 19 NUL byte" "$in/nul/Makefile"
lint nul-README.md 10 512 "gl900 $in/nul/README.md 3 18 NUL byte" "$in/nul/README.md"
lint nul-Singularity 10 512 "gl900 $in/nul/Singularity 4 9 NUL byte" "$in/nul/Singularity"
lint nul-compose 10 512 "gl900 $in/nul/docker-compose.yml 3 13 NUL byte" "$in/nul/docker-compose.yml"
lint utf8-compose 10 512 "gl900 $in/utf8/docker-compose.yml 3 14 UTF-8" "$in/utf8/docker-compose.yml"
lint nul-k8s 10 512 "gl900 $in/nul/pod.yaml 7 19 NUL byte" "$in/nul/pod.yaml"
lint utf8-k8s 10 512 "gl900 $in/utf8/pod.yaml 6 19 UTF-8" "$in/utf8/pod.yaml"
lint nul-ciyaml 10 512 "gl900 $in/nul/.gitlab-ci.yml 3 19 NUL byte" "$in/nul/.gitlab-ci.yml"
lint utf8-ciyaml 10 512 "gl900 $in/utf8/.gitlab-ci.yml 3 18 UTF-8" "$in/utf8/.gitlab-ci.yml"

# YAML alias bombs (billion laughs: 9 levels of 9 aliases, 10^9 strings if expanded)
laughs() { # laughs INDENT: the anchors, one level per line
  printf '%sl0: &l0 ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]\n' "$1"
  for i in 1 2 3 4 5 6 7 8 9; do
    printf '%sl%d: &l%d [*l%d,*l%d,*l%d,*l%d,*l%d,*l%d,*l%d,*l%d,*l%d]\n' "$1" $i $i \
      $((i-1)) $((i-1)) $((i-1)) $((i-1)) $((i-1)) $((i-1)) $((i-1)) $((i-1)) $((i-1))
  done
}
mkdir -p "$in/bomb"
{ echo 'x-bomb:'; laughs '  '; printf 'services:\n  a:\n    image: ubuntu:22.04\n    command: *l9\n    environment: *l9\n    labels: *l9\n'; } > "$in/bomb/docker-compose.yml"
# (an alias pays for what the aliases inside its anchor name too: `*l9` names 10^9 strings,
# GL900 at it, as go-yaml, which compose reads with, refuses it: "excessive aliasing")
lint alias-bomb-compose 20 512 "gl900 $in/bomb/docker-compose.yml 15 14 yaml-alias-nodes" "$in/bomb/docker-compose.yml"
{ printf 'apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\n  labels:\n'; laughs '    '
  printf 'spec:\n  containers:\n  - name: c\n    image: ubuntu:22.04\n    args: *l9\n'; } > "$in/bomb/pod.yaml"
# (the budget is spent at a string of l0 reached through the aliases of aliases; each
# alias pays for what the aliases in its anchor name too, so a few strings sooner)
lint alias-bomb-k8s 20 512 "gl900 $in/bomb/pod.yaml 6 62 alias" "$in/bomb/pod.yaml"

# Names made to collide in an unseeded FNV-1a (its low bits, which picked the slot, depend
# on the low bits of the state alone: two 3-byte blocks that agree there, chained 15 times,
# give 2^15 names of one slot): 32,768 shell variables, make variables and YAML anchors
# (1.6-1.9 MB each) took 4.3 s, 2.7 s and 9.4 s when every table of names probed one chain;
# by the seeded hash (hashmap.h), 0.1 s
mkdir -p "$in/fnv"
python3 - "$in/fnv" <<'PY'
import itertools, string, sys
d, alpha = sys.argv[1], string.ascii_letters + string.digits + '_'
def step(h, s):
    for c in s.encode():
        h = ((h ^ c) * 1099511628211) & (2**64 - 1)
    return h
def names(basis, bits=22, rounds=15):
    h, pairs = step(basis, 'V'), []
    for _ in range(rounds):
        seen = {}
        for b in map(''.join, itertools.product(alpha, repeat=3)):
            hb = step(h, b)
            if hb % 2**bits in seen:
                pairs.append((seen[hb % 2**bits][0], b))
                h = seen[hb % 2**bits][1]
                break
            seen[hb % 2**bits] = (b, hb)
    return ['V' + ''.join(p[c] for p, c in zip(pairs, pick))
            for pick in itertools.product((0, 1), repeat=rounds)]
with open(d + '/vars.sh', 'w') as f:  # (the shell's basis, and the one make and YAML used)
    f.write('#!/bin/sh\n' + ''.join(f'{v}=1\n' for v in names(14695981039346656037)))
one = names(1469598103934665603)
with open(d + '/Makefile', 'w') as f:
    f.write(''.join(f'{v} := 1\n' for v in one) + 'run:\n\tdocker run --rm ubuntu:22.04\n')
with open(d + '/docker-compose.yml', 'w') as f:
    f.write('x-anchors:\n' + ''.join(f'  - &{v} 1\n' for v in one) +
            'services:\n  a:\n    image: ubuntu:22.04\n')
PY
lint fnv-collisions 3 512 "clean $in/fnv/vars.sh -- clean $in/fnv/Makefile -- clean $in/fnv/docker-compose.yml -- rss 64" "$in/fnv/vars.sh" "$in/fnv/Makefile" "$in/fnv/docker-compose.yml"
rm -rf "$in/fnv"

# One big script named by many aliases: a workflow whose 2,000 jobs all take the steps of
# the first (3,000 lines of commands), so each job's shell scan and its container's steps
# would read the script again: the doc's parse-memory stops it (GL900), RSS stays bounded
mkdir -p "$in/aliasci/.github/workflows"
{ printf 'on: push\njobs:\n  a:\n    runs-on: gpu\n'
  printf "    container: {image: 'nvcr.io/nvidia/pytorch:24.05-py3', options: --gpus 2}\n"
  printf '    steps: &s\n      - run: |\n'
  for ((i = 0; i < 3000; i++)); do printf '          torchrun --nproc_per_node=4 t%d.py --a b\n' $i; done
  for ((j = 0; j < 2000; j++)); do
    printf "  j%d:\n    runs-on: gpu\n    container: {image: 'img:%d'}\n    steps: *s\n" $j $j
  done; } > "$in/aliasci/.github/workflows/x.yml"
lint alias-script-ci 20 512 "gl900 $in/aliasci/.github/workflows/x.yml * * parse-memory -- rss 64" "$in/aliasci"

# GitLab `!reference` fan-out: eleven snippet lists of 40 references each to the one before
# (40^11 script lines if each were followed anew), named by a job's tags, image, services
# and script, and a reference to itself: what references bring is charged to the alias
# budget (GL900), a cycle ends at GitLab's 10 levels
mkdir -p "$in/refci"
{ printf 'stages: [t]\n.s:\n  l0:\n    - docker run --gpus all nvcr.io/nvidia/cuda:12.4.1-base-ubuntu22.04 x\n'
  for ((i = 1; i < 12; i++)); do
    printf '  l%d:\n' $i
    for ((k = 0; k < 40; k++)); do printf '    - !reference [.s, l%d]\n' $((i - 1)); done
  done
  printf 'j:\n  tags: !reference [.s, l11]\n  image: !reference [.s, l11]\n'
  printf '  services: !reference [.s, l11]\n  script:\n    - !reference [.s, l11]\n'
  printf '.c:\n  x: !reference [.c, x]\nk:\n  tags: !reference [.c, x]\n  script: !reference [.c, x]\n'
} > "$in/refci/.gitlab-ci.yml"
lint reference-fanout-ci 10 512 "gl900 $in/refci/.gitlab-ci.yml * * yaml-alias-nodes -- rss 64" "$in/refci"

# A compose file of 20,000 services, each extending the next (800 KB): every service and
# every hop of its `extends` looked its base up by name, one key compare per service each
# time (n^2 x hops: 28 s). Looked up through the services' key hash now: well under 1 s.
mkdir -p "$in/extends"
{ printf 'services:\n'
  for ((i = 0; i < 20000; i++)); do printf '  s%d:\n    extends: s%d\n' $i $((i + 1)); done
  printf '  s20000:\n    image: nvcr.io/nvidia/pytorch:24.01-py3\n'
} > "$in/extends/docker-compose.yml"
lint compose-extends-20k 5 512 "gl900 $in/extends/docker-compose.yml * * parse-memory -- rss 64" "$in/extends"
# The same services with one key that is an alias, or a merge key (`<<:`) among them: the
# mapping was scanned for every lookup again (13.5 s and 30.6 s): an alias key is hashed
# as the scalar it names, and a mapping that merges others looks each big one up through
# its hash, its merge sources listed there (0.2 s)
for kind in alias merge; do
  case $kind in
    alias) printf 'x-k: &k kk\nservices:\n  *k : {image: a}\n' ;;
    merge) printf 'x-k: &k {image: b}\nservices:\n  <<: {zz: *k}\n' ;;
  esac > "$in/extends/c.yml"
  tail -n +2 "$in/extends/docker-compose.yml" >> "$in/extends/c.yml"
  lint "compose-extends-20k-$kind-key" 5 512 "gl900 $in/extends/c.yml >20000 * parse-memory -- rss 64" "$in/extends/c.yml"
done

# A pod whose every argument names an env var, or whose every mount names a volume: each
# look-up scanned the list (16,000 x 16,000: 6.3 s; 14,000 mounts: 5.9 s). Looked up
# through a map of the list's names now (0.06 s, 0.12 s).
mkdir -p "$in/k8snames"
{ printf 'apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  containers:\n'
  printf '  - name: c\n    image: img:1\n    env:\n'
  for ((i = 0; i < 16000; i++)); do printf '    - {name: V%d, value: x}\n' $i; done
  printf '    args:\n'
  for ((i = 0; i < 16000; i++)); do printf '    - $(V15999)\n'; done
} > "$in/k8snames/env.yaml"
{ printf 'apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  volumes:\n'
  for ((i = 0; i < 14000; i++)); do printf '  - {name: v%d, hostPath: {path: /d%d}}\n' $i $i; done
  printf '  containers:\n  - name: c\n    image: img:1\n    volumeMounts:\n'
  for ((i = 0; i < 14000; i++)); do printf '    - {name: v13999, mountPath: /m/%d}\n' $i; done
} > "$in/k8snames/volumes.yaml"
lint k8s-env-refs-16k 2 512 "clean $in/k8snames/env.yaml -- rss 64" "$in/k8snames/env.yaml"
lint k8s-volume-mounts-14k 2 512 "clean $in/k8snames/volumes.yaml -- rss 64" "$in/k8snames/volumes.yaml"
# and a container asking for 20,000 MIG profiles in limits and requests: each found its
# request among those before it (2.9 s)
{ printf 'apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  containers:\n'
  printf '  - name: c\n    image: img:1\n    resources:\n'
  for l in limits requests; do
    printf '      %s:\n' $l
    for ((i = 0; i < 20000; i++)); do printf '        nvidia.com/mig-%dg.5gb: 1\n' $i; done
  done; } > "$in/k8snames/mig.yaml"
lint k8s-mig-profiles-20k 2 512 "clean $in/k8snames/mig.yaml -- rss 64" "$in/k8snames/mig.yaml"
# DRA: a pod whose container names 5,000 claims, each a resourceClaims entry of a template
# the file defines (1.2 MB): each claim scanned the pod's entries and the file's claims
# (n^2: 1.9 s); both are looked up by name now (0.3 s)
python3 - "$in/k8snames" <<'PY'
import sys
n = 5000
docs = [f"apiVersion: resource.k8s.io/v1beta1\nkind: ResourceClaimTemplate\nmetadata: {{name: t{i}}}\n"
        "spec: {spec: {devices: {requests: [{name: g, deviceClassName: gpu.nvidia.com}]}}}\n"
        for i in range(n)]
docs.append("apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  resourceClaims:\n" +
            "".join(f"  - {{name: c{i}, resourceClaimTemplateName: t{i}}}\n" for i in range(n)) +
            "  containers:\n  - name: c\n    image: nvcr.io/nvidia/pytorch:24.01-py3\n"
            "    resources:\n      claims:\n" + "".join(f"      - {{name: c{i}}}\n" for i in range(n)))
open(sys.argv[1] + "/claims.yaml", "w").write("---\n".join(docs))
PY
lint k8s-dra-claims-5k 1 512 "clean $in/k8snames/claims.yaml -- rss 64" "$in/k8snames/claims.yaml"
# a Kubeflow TrainJob of 42,000 initializers (1 MB): each one's image went on into the arena
# past parse-memory (GL900 at 1:1); they stop at the initializer that finds it reached
python3 - "$in/k8snames" <<'PY'
import sys
open(sys.argv[1] + "/trainjob.yaml", "w").write(
    "apiVersion: trainer.kubeflow.org/v1alpha1\nkind: TrainJob\nmetadata: {name: t}\nspec:\n"
    "  trainer: {image: nvcr.io/nvidia/pytorch:24.01-py3}\n  initializer:\n" +
    "".join(f"    d{i}: {{image: i}}\n" for i in range(42000)))
PY
lint k8s-trainjob-initializers 5 512 "gl900 $in/k8snames/trainjob.yaml >6 5 parse-memory -- rss 64" "$in/k8snames/trainjob.yaml"

# A kustomization of 20,000 resources and 20,000 image rewrites: parse-memory is reached
# among the images; the GL900 names the entry that took the rest (it said 1:1)
mkdir -p "$in/kz"
{ printf 'resources:\n'; for ((i = 0; i < 20000; i++)); do printf -- '- r%d.yaml\n' $i; done
  printf 'images:\n'
  for ((i = 0; i < 20000; i++)); do
    printf -- "- {name: img%d, newName: nvcr.io/nvidia/pytorch, newTag: '24.01-py3'}\n" $i
  done; } > "$in/kz/kustomization.yaml"
lint kustomize-images-20k 10 512 "gl900 $in/kz/kustomization.yaml >20001 3 parse-memory -- rss 64" "$in/kz/kustomization.yaml"

# One long block scalar whose every line gets a position: a build-push-action's
# `build-contexts: |` of 50,000 NAME=VALUE lines (2.9 MB). The scalar's position map was
# built again for each line (quadratic: parse-memory at 1:1 from ~1,000 lines); once now
mkdir -p "$in/ctxs/.github/workflows"
{ printf 'on: push\njobs:\n  b:\n    runs-on: ubuntu-latest\n    steps:\n'
  printf '      - uses: docker/build-push-action@v5\n        with:\n          context: .\n'
  printf '          build-contexts: |\n'
  for ((i = 0; i < 50000; i++)); do printf '            c%d=docker-image://nvidia/cuda:12.4.1-base-ubuntu22.04\n' $i; done
} > "$in/ctxs/.github/workflows/build.yml"
lint build-contexts-50k 20 512 "clean $in/ctxs/.github/workflows/build.yml -- rss 64" "$in/ctxs"

# build-push-action tags with expressions (ci_expr.h): 200,000 unclosed `${{` (600 KB)
# searched the rest of the item for `}}` at each (25 s); 60,000 `${{ matrix.b }}` in one
# tag read a 3,000-entry `include:` each (1.5 s; GitHub runs at most 256 jobs of a matrix:
# a longer list is not followed) and grew 32 forms of a 900 KB item (now: an item over
# 4 KiB is no image name, its expressions stay unresolved); 30,000 items of 32 tags each
# went on past parse-memory (133 MB RSS, GL900 at 1:1): they stop at the item that finds
# it reached
mkdir -p "$in/cexpr"
python3 - "$in/cexpr" <<'PY'
import os, sys
vals = ", ".join(f"v{i}" for i in range(32))
def wf(d, inc_n, tag):
    os.makedirs(f"{sys.argv[1]}/{d}/.github/workflows")
    inc = "".join(f"          - {{b: x{i}}}\n" for i in range(inc_n))
    open(f"{sys.argv[1]}/{d}/.github/workflows/w.yml", "w").write(
        "on: push\njobs:\n  j:\n    runs-on: gpu\n    strategy:\n      matrix:\n"
        f"        a: [{vals}]\n        include:\n{inc}"
        "    steps:\n      - uses: docker/build-push-action@v5\n        with:\n"
        f'          tags: "{tag}"\n          build-contexts: "{tag}"\n')
wf("open", 0, "img:" + "${{" * 200000)
wf("long", 3000, "img:${{ matrix.a }}" + "${{ matrix.b }}" * 60000)
wf("items", 250, ",".join("img:${{ matrix.a }}${{ matrix.b }}" for i in range(30000)))
PY
lint ci-expr-tags 5 256 "clean $in/cexpr/open/.github/workflows/w.yml -- clean $in/cexpr/long/.github/workflows/w.yml -- gl900 $in/cexpr/items/.github/workflows/w.yml 262 * parse-memory -- rss 64" "$in/cexpr"
rm -rf "$in/cexpr"
# a GitLab image made of variables: 50,000 `$A` of a 100 KB variable grew a 5 GB image name
# (over 60 s), and 50,000 names of the last of 20,000 variables scanned them each (52 s):
# variables are looked up, and an expansion past 4 KiB is no image (0.1 s)
mkdir -p "$in/glvars/big" "$in/glvars/many"
python3 - "$in/glvars" <<'PY'
import sys
d = sys.argv[1]
open(d + "/big/.gitlab-ci.yml", "w").write(
    f'variables:\n  A: "{"x" * 100000}"\njob:\n  image: "' + "$A" * 50000 + '"\n  script: [echo]\n')
open(d + "/many/.gitlab-ci.yml", "w").write(
    "variables:\n" + "".join(f"  V{i}: v{i}\n" for i in range(20000)) +
    'job:\n  image: "' + "$V19999" * 50000 + '"\n  script: [echo]\n')
PY
lint gitlab-image-variables 3 256 "clean $in/glvars/big/.gitlab-ci.yml -- clean $in/glvars/many/.gitlab-ci.yml -- rss 64" "$in/glvars"
rm -rf "$in/glvars"
# build options in variables read back (launch_build_vars.c): eight 100 KB values of one
# variable named four times by each of 10,000 `docker build $V ...` lines read 3 GB and
# added 320,000 project images (40 s, parse-memory); the table's read-back budget stops it
mkdir -p "$in/bvars"
python3 - "$in/bvars/build.sh" <<'PY'
import sys
big = "x" * 100000
lines = ["#!/bin/bash"] + [f'if a; then V="--tag app{k}:$X {big}"; fi' for k in range(8)]
lines += ["docker build $V $V $V $V ."] * 10000
open(sys.argv[1], "w").write("\n".join(lines) + "\n")
PY
lint build-option-variables 3 256 "clean $in/bvars/build.sh -- rss 64" "$in/bvars/build.sh"

# Runner labels (GPU names in runs-on and GitLab tags, round 17): each token of a label
# was looked up in the GPU table, which folded every name of the table at each look-up
# (40 us): one 900 KB label took 30 s; 5,000 jobs sharing one 38 KB label list through an
# alias took 5.8 s before the alias budget stopped them (each job judged it again). The
# table's names are folded once, and a list judged is remembered (runner_is_cpu).
mkdir -p "$in/labels/one/.github/workflows" "$in/labels/shared/.github/workflows"
python3 - "$in/labels" <<'PY'
import sys
d = sys.argv[1]
tok = "-".join(["a1"] * 300000)
open(d + "/one/.github/workflows/w.yml", "w").write(
    f"on: push\njobs:\n  j:\n    runs-on: [self-hosted, cpu, {tok}]\n    steps:\n"
    "    - run: docker run --gpus all nvcr.io/nvidia/pytorch:24.05-py3\n")
lab = ", ".join(["-".join(["b2"] * 200)] * 64)
open(d + "/shared/.github/workflows/w.yml", "w").write(
    f"on: push\nx: &l [cpu, {lab}]\njobs:\n" +
    "".join(f"  j{i}:\n    runs-on: *l\n    steps:\n    - run: echo\n" for i in range(5000)))
PY
lint runner-labels-long 2 256 "clean $in/labels/one/.github/workflows/w.yml -- gl900 \
$in/labels/shared/.github/workflows/w.yml 1665 14 yaml-alias-nodes -- rss 64" "$in/labels"
rm -rf "$in/labels"
rm -rf "$in/bvars"

# The same amplification in compose, Kubernetes, GitLab CI and Ansible (one script named by
# 2,000 aliases): each stops at parse-memory; and a plain compose file of 5,000 services
# (a lookup by name once per service took the services' pairs again each time: 400 MB)
mkdir -p "$in/amp" "$in/bigcompose"
script() { for ((i = 0; i < 3000; i++)); do printf '%sdocker run --gpus 2 img:1 torchrun t%d.py\n' "$1" $i; done; }
{ printf 'x-cmd: &c |\n'; script '  '; printf 'services:\n'
  for ((j = 0; j < 2000; j++)); do printf '  s%d:\n    image: img:1\n    command: *c\n' $j; done
} > "$in/amp/docker-compose.yml"
{ printf 'apiVersion: v1\nkind: List\nx: &c |\n'; script '  '; printf 'items:\n'
  for ((j = 0; j < 2000; j++)); do
    printf -- '- apiVersion: v1\n  kind: Pod\n  metadata: {name: p%d}\n  spec:\n    containers:\n    - name: c\n      image: img:1\n      command: [sh, -c, *c]\n' $j
  done; } > "$in/amp/pods.yaml"
{ printf 'stages: [t]\n.tmpl: &s\n  script:\n    - |\n'; script '      '
  for ((j = 0; j < 2000; j++)); do printf 'j%d:\n  stage: t\n  <<: *s\n' $j; done
} > "$in/amp/.gitlab-ci.yml"
{ printf -- '- hosts: all\n  vars:\n    s: &c |\n'; script '      '; printf '  tasks:\n'
  for ((j = 0; j < 2000; j++)); do printf '  - name: t%d\n    shell: *c\n' $j; done
} > "$in/amp/playbook.yml"
for f in docker-compose.yml pods.yaml .gitlab-ci.yml playbook.yml; do
  lint "alias-script-${f#.}" 20 512 "gl900 $in/amp/$f * * parse-memory -- rss 64" "$in/amp/$f"
done
# all four at once, on four worker threads: the workers' arenas share one budget (one of
# them at a time goes on to its parse-memory), so RSS stays bounded as with one thread
all4=""
for f in docker-compose.yml pods.yaml .gitlab-ci.yml playbook.yml; do
  all4+="gl900 $in/amp/$f * * parse-memory -- "
done
# shellcheck disable=SC2086
lint alias-scripts-on-4-workers 40 1024 "${all4}rss 64" --jobs 4 "$in/amp"
{ printf 'services:\n'
  for ((j = 0; j < 5000; j++)); do printf '  s%d:\n    image: img:1\n    command: python t.py\n' $j; done
} > "$in/bigcompose/compose.yaml"
# beside it, the amplified compose file: a file beside is compared for GPU variants on its
# own budget, never charged to this one
cp "$in/amp/docker-compose.yml" "$in/bigcompose/compose.gpu.yaml"
lint compose-5000-services 30 512 "clean $in/bigcompose/compose.yaml -- rss 64" "$in/bigcompose/compose.yaml"

# 10^6-deep YAML flow nesting
mkdir -p "$in/deep"
{ printf 'services:\n  a: '; deep 1000000 '['; echo; } > "$in/deep/compose.yaml"
lint deep-compose 20 512 "gl900 $in/deep/compose.yaml 2 10004 nesting-depth" "$in/deep/compose.yaml"
{ printf 'apiVersion: v1\nkind: Pod\nspec: '; deep 1000000 '['; echo; } > "$in/deep/pod.yaml"
lint deep-k8s 20 512 "gl900 $in/deep/pod.yaml 3 10006 nesting-depth" "$in/deep/pod.yaml"
{ printf 'job:\n  script: '; deep 1000000 '{'; echo; } > "$in/deep/.gitlab-ci.yml"
lint deep-ciyaml 20 512 "gl900 $in/deep/.gitlab-ci.yml 2 10009 nesting-depth" "$in/deep/.gitlab-ci.yml"
# 8 million subshells opened in a script: each is an open context of the shell grammar
# (no word, no arena byte), so the contexts count against parse-memory (146 MB RSS when
# they did not)
{ printf '#!/bin/bash\n'; for i in $(seq 64); do deep 125000 '(' | sed 's/(/( /g'; done; echo; } > "$in/deep/subshells.sh"
lint deep-subshells 20 512 "gl900 $in/deep/subshells.sh 2 * parse-memory -- rss 64" "$in/deep/subshells.sh"
# 8 million one-letter commands: the builder's commands (on the heap until the end, then
# copied to the arena) count against parse-memory too (97 MB RSS when they did not)
{ printf '#!/bin/bash\n'; for i in $(seq 64); do deep 125000 'a' | sed 's/a/a;/g'; done; echo; } > "$in/deep/commands.sh"
lint many-commands 20 512 "gl900 $in/deep/commands.sh 2 * parse-memory -- rss 64" "$in/deep/commands.sh"

# Fault isolation: a here-document inside $(...) whose body holds a quote used to run the
# substitution to the end of the file (GL900, and no finding after it); bash -n accepts it
printf '#!/bin/bash\nx=$(cat <<EOF\nhello "world\nEOF\n)\ndocker run --gpus all nvidia/cuda:latest nvidia-smi\n' > "$in/long/hd.sh"
lint heredoc-in-substitution 10 512 "clean $in/long/hd.sh -- finding GL101 $in/long/hd.sh 6 35" "$in/long/hd.sh"

# A chain of 3,000 compose files, each including the next: `include:` is followed 16 deep
# (no recursion as deep as the chain); a walk lints each file once; a cycle ends
mkdir -p "$in/include"
python3 -c "
import sys
d = sys.argv[1]
for i in range(3000):
    open(f'{d}/c{i}.yml', 'w').write(f'include:\\n  - c{i + 1}.yml\\nservices:\\n  s{i}:\\n    image: nvidia/cuda:12.4.1-base-ubuntu22.04\\n')
open(f'{d}/c3000.yml', 'w').write('include:\\n  - c0.yml\\nservices:\\n  last:\\n    image: ubuntu:22.04\\n')
" "$in/include"
lint include-chain-named 20 512 "count GL407 $in/include/c16.yml 1 -- count GL407 $in/include/c17.yml 0 -- rss 64" "$in/include/c0.yml"
lint include-chain-walk 60 512 "count GL407 $in/include/c2999.yml 1 -- count GL407 $in/include/c0.yml 1 -- rss 64" "$in/include"

# ---- parse-memory against per-line and per-block growth (round 11) ----
# The limit parse-memory is a soft limit: the arena notes it is over, and the parser's
# loops look and stop. A loop that never looked, or a table kept outside the arena (or
# built whole before the limit was looked at), went past it, and the run past 64 MB. Each
# file is under input-size (16 MiB); the RSS before the fix is in parentheses.
mkdir -p "$in/perline"
# Dockerfile: one RUN continued over 3,000,000 comment lines (6 MB; 243 MB, GL900 at 1:1):
# the continuation loop now looks at the limit and charges its pieces
{ printf 'FROM ubuntu:22.04\nRUN echo \\\n'; yes '# c' | head -n 3000000; echo x; } > "$in/perline/comments.Dockerfile"
lint continued-comments-dockerfile 20 1024 "gl900 $in/perline/comments.Dockerfile * 1 parse-memory -- rss 64" "$in/perline/comments.Dockerfile"
# the same with 5,000,000 bare `\` lines (10 MB; 115 MB and no GL900 at all)
{ printf 'FROM ubuntu:22.04\nRUN echo \\\n'; yes '\' | head -n 5000000; } > "$in/perline/bare.Dockerfile"
lint continued-bare-dockerfile 20 1024 "gl900 $in/perline/bare.Dockerfile * 1 parse-memory -- rss 64" "$in/perline/bare.Dockerfile"
# 300,000 continued word lines (1.5 MB), with `# escape=` too: the RUN is read whole and
# the last of its lines takes the arena past the limit; the parse looked only at the next
# line (there is none), and the model stopped at the first instruction (GL900 at 1:1, or
# 2:1 after the directive), round 12
{ printf 'FROM ubuntu:22.04\nRUN echo a \\\n'; yes ' b \' | head -n 300000; echo ' c'; } > "$in/perline/words.Dockerfile"
{ printf '# escape=`\nFROM ubuntu:22.04\nRUN echo a `\n'; yes ' b `' | head -n 300000; echo ' c'; } > "$in/perline/words-escape.Dockerfile"
lint continued-words-dockerfile 20 1024 "gl900 $in/perline/words.Dockerfile >2 1 parse-memory -- rss 64" "$in/perline/words.Dockerfile"
lint continued-words-escape-dockerfile 20 1024 "gl900 $in/perline/words-escape.Dockerfile >3 1 parse-memory -- rss 64" "$in/perline/words-escape.Dockerfile"
# Markdown: 120,000 fenced blocks of one launch each (15 MB; 79 MB, GL900 at 1:1): the
# fence loop stops after the block the limit was reached in, GL900 at its fence (or at the
# option of its launch where the reading stopped); a block's text is made in one arena
# take (it went through a doubling malloc'd buffer first)
awk 'BEGIN { for (i = 0; i < 120000; i++) printf "```bash\ndocker run --gpus all --privileged --ipc=host -e NVIDIA_VISIBLE_DEVICES=all nvidia/cuda:11.0-base ubuntu:latest\n```\n" }' > "$in/perline/README.md"
lint many-fences-markdown 20 1024 "gl900 $in/perline/README.md * * parse-memory -- rss 64" "$in/perline/README.md"
# one fence of 350,000 launches on one line (16 MB; 72 MB)
awk 'BEGIN { printf "```bash\n"; for (i = 0; i < 350000; i++) printf "docker run --gpus all nvidia/cuda:11.0-base; "; printf "\n```\n" }' > "$in/perline/one.md"
lint one-fence-markdown 20 1024 "gl900 $in/perline/one.md * * parse-memory -- rss 64" "$in/perline/one.md"
# reStructuredText: 3,000 literal blocks, then 3,000 code-block directives, each indented
# into the one before (4.5 MB each): every body was walked again for each block around it
# (33 s and 13 s of CPU); the scan goes on after a body, so the file is read once (round 20)
python3 - "$in/perline" <<'PY'
import sys
d = sys.argv[1]
open(d + "/nested-literal.rst", "w").write("".join(" " * k + "a::\n\n" for k in range(3000)))
open(d + "/nested-code.rst", "w").write("".join(" " * k + ".. code-block::\n\n"
                                               for k in range(3000)))
PY
lint nested-rst-literal 5 512 "clean $in/perline/nested-literal.rst" "$in/perline/nested-literal.rst"
lint nested-rst-code 5 512 "clean $in/perline/nested-code.rst" "$in/perline/nested-code.rst"
# Dockerfiles in doc blocks (round 21a): 20,000 ```dockerfile blocks of a CUDA 13 devel base
# (1.8 MB), each linted as a Dockerfile of its own: linear, the block's scratch freed after
# it; one block of 500,000 instructions (6 MB) stops at parse-memory and gives nothing
python3 - "$in/perline" <<'PY'
import sys
d = sys.argv[1]
open(d + "/many-blocks.md", "w").write("```dockerfile\nFROM nvidia/cuda:13.0.0-devel-ubuntu22.04\n"
                                       "RUN apt-get install -y gcc\n```\n\n" * 20000)
open(d + "/huge-block.md", "w").write("```dockerfile\nFROM ubuntu:22.04\n" +
                                      "RUN echo x\n" * 500000 + "```\n")
PY
lint doc-dockerfile-blocks 5 512 "clean $in/perline/many-blocks.md -- count GL301 $in/perline/many-blocks.md 20000" "$in/perline/many-blocks.md"
lint doc-dockerfile-huge-block 10 512 "clean $in/perline/huge-block.md" "$in/perline/huge-block.md"
# shell: `[[ a =~ (x ]]; ` 40,000 times on one line (600 KB): each unclosed pattern was
# scanned to the end of the line again at every `=~` after it (22 s); bash reads all that
# as the first one pattern, so a `=~` inside it is not scanned again (round 20b)
awk 'BEGIN { for (i = 0; i < 40000; i++) printf "[[ a =~ (x ]]; "; printf "\n" }' > "$in/perline/regex-open.sh"
lint regex-unclosed-shell 5 512 "gl900 $in/perline/regex-open.sh 1 * parse-memory" "$in/perline/regex-open.sh"
# shell: 50,000 subshells opened, then a command a line (1.1 MB): each command walked the
# whole stack of contexts for its innermost if or case (2.5 s); each context keeps it now
awk 'BEGIN { for (i = 0; i < 50000; i++) printf "( "; printf "\n"; for (i = 0; i < 500000; i++) printf "x\n" }' > "$in/perline/deep-subshells.sh"
lint deep-subshells-shell 1 512 "gl900 $in/perline/deep-subshells.sh >1 * parse-memory" "$in/perline/deep-subshells.sh"
# launches: one docker run of 150,000 --device options (4 MB), one of 300,000 --gpus (2.7 MB):
# the options were read into the launch's tables with no look at the limit (141 MB and
# 191 MB of RSS); the reading stops where parse-memory is reached, GL900 at the option
# (or the value in a list) where it stopped, not at the command (round 21)
awk 'BEGIN { printf "docker run"; for (i = 0; i < 150000; i++) printf " --device=nvidia.com/gpu=%d", i; printf " img:1\n" }' > "$in/perline/devices.sh"
awk 'BEGIN { printf "docker run"; for (i = 0; i < 300000; i++) printf " --gpus=0"; printf " img:1\n" }' > "$in/perline/gpus.sh"
lint many-devices-launch 5 512 "gl900 $in/perline/devices.sh 1 >1 parse-memory -- gl900 \
$in/perline/gpus.sh 1 >1 parse-memory" --jobs 8 "$in/perline/devices.sh" "$in/perline/gpus.sh"
# the values of one option: a pyxis --container-mounts of 300,000 mounts (3.9 MB) and a
# --gpus of 500,000 comma-separated fields (3.4 MB) were read whole (78 MB and 89 MB of
# RSS); their lists stop where parse-memory is reached
awk 'BEGIN { printf "srun --container-image=img:1 --container-mounts="; for (i = 0; i < 300000; i++) printf "%s/a%d:/b%d", (i ? "," : ""), i, i; printf " python t.py\n" }' > "$in/perline/mounts.sh"
awk 'BEGIN { printf "docker run --gpus device=0"; for (i = 1; i < 500000; i++) printf ",%d", i; printf " img:1\n" }' > "$in/perline/gpu-fields.sh"
lint long-option-values 5 512 "gl900 $in/perline/mounts.sh 1 >1 parse-memory -- gl900 \
$in/perline/gpu-fields.sh 1 >1 parse-memory" "$in/perline/mounts.sh" "$in/perline/gpu-fields.sh"
# the same for apptainer's --bind and --env lists (300,000 binds, 400,000 variables: 80 MB
# each) and pyxis's --container-env names (400,000: 75 MB)
awk 'BEGIN { printf "apptainer exec --nv --bind "; for (i = 0; i < 300000; i++) printf "%s/a%d:/b%d", (i ? "," : ""), i, i; printf " img.sif python t.py\n" }' > "$in/perline/binds.sh"
awk 'BEGIN { printf "apptainer exec --nv --env "; for (i = 0; i < 400000; i++) printf "%sA%d=b", (i ? "," : ""), i; printf " img.sif python t.py\n" }' > "$in/perline/envs.sh"
awk 'BEGIN { printf "srun --container-image=img:1 --container-env="; for (i = 0; i < 400000; i++) printf "%sA%d", (i ? "," : ""), i; printf " python t.py\n" }' > "$in/perline/pyxis-env.sh"
for f in binds envs pyxis-env; do
  lint "long-list-$f" 5 512 "gl900 $in/perline/$f.sh 1 >1 parse-memory" "$in/perline/$f.sh"
done
# Kubernetes: 150,000 one-Pod documents (12 MB; 66 MB): the YAML sniff kept a copy of the
# whole text while loading it (now made only for a text it keeps, a small one)
awk 'BEGIN { for (i = 0; i < 150000; i++) printf "---\napiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec: {containers: [{name: c, image: \"ubuntu:latest\"}]}\n" }' > "$in/perline/pods.yaml"
lint many-docs-k8s 20 1024 "gl900 $in/perline/pods.yaml * * parse-memory -- rss 64" "$in/perline/pods.yaml"
# an operator's CRD bundle of 10 MB (6 CRDs whose openAPIV3Schema declares 9,330
# properties each): every schema node was kept in the YAML tree (GL900 at parse-memory, 46
# MB of RSS); a schema's value is not kept now (yaml_tree.h): a clean parse
python3 -c '
import sys
def props(d, ind):
    p = " " * ind
    if d == 0:
        return p + "type: string\n" + p + "description: A field that does something useful for the thing.\n"
    out = p + "type: object\n" + p + "description: An object.\n" + p + "properties:\n"
    for i in range(6):
        out += p + "  field%d:\n" % i + props(d - 1, ind + 4)
    return out
with open(sys.argv[1], "w") as f:
    for k in range(6):
        f.write("---\napiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\n"
                "metadata:\n  name: things%d.example.com\nspec:\n  group: example.com\n"
                "  names: {kind: Thing, plural: things}\n  scope: Namespaced\n  versions:\n"
                "  - name: v1\n    served: true\n    storage: true\n    schema:\n"
                "      openAPIV3Schema:\n" % k + props(5, 8))
' "$in/perline/crds.yaml"
lint crd-bundle-10mb 20 1024 "clean $in/perline/crds.yaml -- rss 64" "$in/perline/crds.yaml"
# manifests in heredocs that kubectl applies (round 21): 20,000 heredocs of a pod each,
# one heredoc of 120,000 pods (13 MB), and an alias bomb in one: each heredoc's YAML is
# loaded in the doc's arena, so parse-memory stops them (GL900 inside the heredoc that
# reached it), the alias budget is the doc's GL900 at the alias
awk 'BEGIN { for (i = 0; i < 20000; i++) printf "kubectl apply -f - <<EOF\napiVersion: v1\nkind: Pod\nmetadata:\n  name: p%d\nspec:\n  containers:\n  - name: c\n    image: ubuntu:latest\nEOF\n", i }' > "$in/perline/heredoc-pods.sh"
{ printf "cat <<'EOF' | kubectl apply -f -\n"
  awk 'BEGIN { for (i = 0; i < 120000; i++) printf "---\napiVersion: v1\nkind: Pod\nmetadata: {name: p%d}\nspec: {containers: [{name: c, image: \"ubuntu:latest\"}]}\n", i }'
  printf 'EOF\n'; } > "$in/perline/heredoc-stream.sh"
{ printf 'kubectl apply -f - <<EOF\napiVersion: v1\nkind: Pod\nmetadata:\n  name: x\na0: &a0 [x, x, x, x, x, x, x, x, x, x]\n'
  for k in $(seq 11); do j=$((k - 1)); printf 'a%d: &a%d [*a%d, *a%d, *a%d, *a%d, *a%d, *a%d, *a%d, *a%d, *a%d, *a%d]\n' $k $k $j $j $j $j $j $j $j $j $j $j; done
  printf 'spec:\n  containers:\n  - name: c\n    image: ubuntu:latest\n    args: *a11\nEOF\n'; } > "$in/perline/heredoc-laughs.sh"
lint heredoc-manifests 20 1024 "gl900 $in/perline/heredoc-pods.sh >1 * parse-memory -- gl900 \
$in/perline/heredoc-stream.sh >2 * parse-memory -- gl900 $in/perline/heredoc-laughs.sh 6 34 yaml-alias-nodes -- rss 64" \
  "$in/perline/heredoc-pods.sh" "$in/perline/heredoc-stream.sh" "$in/perline/heredoc-laughs.sh"
# the same bomb in 2,000 heredocs (1.7 MB): each text had its own alias budget, so each
# expanded a million nodes before its stop (3.5 s for 500); one budget a file now
for k in $(seq 2000); do cat "$in/perline/heredoc-laughs.sh"; done > "$in/perline/heredoc-laughs-2k.sh"
lint heredoc-laughs-many 5 512 "gl900 $in/perline/heredoc-laughs-2k.sh 6 34 yaml-alias-nodes" "$in/perline/heredoc-laughs-2k.sh"
# shell: 200,000 here-documents opened on one line (3.6 MB; 70 MB), read in one go after
# it: the limit stops them at the body where it is reached (was 1:1, round 12); since
# round 19 the command's redirections count (62 MB, now 32 MB): the limit stops the line
# at the redirection where it is reached. 1,000 lines of 200 (2.6 MB) stop past line 1.
awk 'BEGIN { printf "cat"; for (i = 0; i < 200000; i++) printf " <<E%d", i; printf "\n"; for (i = 0; i < 200000; i++) printf "x\nE%d\n", i }' > "$in/perline/heredocs.sh"
awk 'BEGIN { for (l = 0; l < 1000; l++) { printf "cat"; for (i = 0; i < 200; i++) printf " <<E%d", i; printf "\n"; for (i = 0; i < 200; i++) printf "x\nE%d\n", i } }' > "$in/perline/heredoc-lines.sh"
lint many-heredocs-shell 20 1024 "gl900 $in/perline/heredocs.sh 1 * parse-memory -- gl900 \
$in/perline/heredoc-lines.sh >1 * parse-memory -- rss 64" "$in/perline/heredocs.sh" "$in/perline/heredoc-lines.sh"
# apptainer: 400,000 stages of two header lines (15 MB): the reader stops at the line
# where its refs took it past the limit (it read on to the end, 200 MB, GL900 at 1:1)
awk 'BEGIN { for (i = 0; i < 400000; i++) printf "Bootstrap: docker\nFrom: ubuntu:%d\n", i }' > "$in/perline/stages.def"
lint many-stages-def 20 1024 "gl900 $in/perline/stages.def >1 1 parse-memory -- rss 64" "$in/perline/stages.def"
# bake: one list of 500,000 tags (9 MB): the scan stops at the tag where parse-memory is
# reached (it read on to the end, 68 MB, GL900 at 1:1), round 12
mkdir -p "$in/perline/bake"
python3 -c "print('target \"a\" {\n  tags = [' + ','.join('\"ubuntu:%d\"' % i for i in range(500000)) + ']\n}')" > "$in/perline/bake/docker-bake.hcl"
lint many-tags-bake 20 1024 "gl900 $in/perline/bake/docker-bake.hcl 2 * parse-memory -- rss 64" "$in/perline/bake/docker-bake.hcl"
# Makefile: 300,000 rules with a GPU launch each (11 MB; 73 MB, GL900 at 1:1), and one
# recipe continued over 7,000,000 lines (14 MB; 287 MB, GL900 at 1:1): the reader's loops
# now look at the limit; a source map's doubling that would pass it is refused (its last
# doubling alone held as much as the rest of the arena), round 12; the recipes' launch
# scan says the command that took the rest (column 2, past the tab), round 13; or the
# shell split the token it stopped at (`run`, column 9), when the limit is passed there:
# the --gpus CSV of a launch takes less room since round 15, so the column is not fixed
mkdir -p "$in/perline/mk" "$in/perline/mk2"
awk 'BEGIN { for (i = 0; i < 300000; i++) printf "t%d:\n\tdocker run --gpus all ubuntu:%d\n", i, i }' > "$in/perline/mk/Makefile"
{ printf 'all:\n\tdocker run \\\n'; yes '\' | head -n 7000000; echo x; } > "$in/perline/mk2/Makefile"
lint many-rules-makefile 20 1024 "gl900 $in/perline/mk/Makefile >1 * parse-memory -- rss 64" "$in/perline/mk/Makefile"
lint continued-recipe-makefile 20 1024 "gl900 $in/perline/mk2/Makefile >2 1 parse-memory -- rss 64" "$in/perline/mk2/Makefile"
# 16 MB of empty lines after one launch, read as each text kind: per-line tables (the
# line index, the shell's identity source map, the YAML line starts, the Dockerfile's
# line starts) are counted and taken once within the limit, or only charged (a shell
# script 531 MB, compose 273 MB, a Pod 289 MB, a Dockerfile 146 MB)
mkdir -p "$in/perline/nl"
nl16() { { printf '%b' "$1"; head -c 16000000 /dev/zero | tr '\0' '\n'; } > "$in/perline/nl/$2"; }
nl16 'docker run --gpus all ubuntu:latest\n' run.sh
nl16 'services:\n  a:\n    image: ubuntu:latest\n' docker-compose.yml
nl16 'FROM ubuntu:22.04\n' Dockerfile
nl16 'Bootstrap: docker\nFrom: ubuntu:latest\n%post\n' x.def
# (each at the line whose entry found no room: where the limit was reached, not 1:1)
lint newlines-shell 20 1024 "gl900 $in/perline/nl/run.sh >1 1 parse-memory -- rss 64" "$in/perline/nl/run.sh"
lint newlines-compose 20 1024 "gl900 $in/perline/nl/docker-compose.yml >1 1 parse-memory -- rss 64" "$in/perline/nl/docker-compose.yml"
lint newlines-def 20 1024 "gl900 $in/perline/nl/x.def >1 1 parse-memory -- rss 64" "$in/perline/nl/x.def"
lint newlines-dockerfile 20 1024 "gl900 $in/perline/nl/Dockerfile * 1 parse-memory -- rss 64" "$in/perline/nl/Dockerfile"

# ---- a NUL made by an escape (round 12) ----
# YAML `\0` / `\x00` / `\u0000` and JSON `\u0000` decode to a NUL, which cut every C string
# at it: a message named service `svc`, a notebook's `ubuntu\u0000evil:latest` was image
# `ubuntu` without a tag (GL101). The readers write U+2400 for it: shown, never a cut.
mkdir -p "$in/nul"
printf 'services:\n  "svc\\0evil\\x1b[31m":\n    image: ubuntu:22.04\n    deploy: {resources: {reservations: {devices: [{driver: nvidia, count: all, capabilities: [gpu]}]}}}\n' > "$in/nul/docker-compose.yml"
printf 'apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\nspec:\n  containers:\n  - name: "c\\u0000x"\n    image: ubuntu:22.04\n    resources: {limits: {nvidia.com/gpu: 1}}\n' > "$in/nul/pod.yaml"
printf '{"cells":[{"cell_type":"code","source":["!docker run ubuntu\\u0000evil:latest\\n"],"metadata":{},"outputs":[],"execution_count":null}],"metadata":{},"nbformat":4,"nbformat_minor":5}\n' > "$in/nul/nb.ipynb"
# a raw NUL in compose's .env (read beside the file, not checked as an input): the value
# was cut, image `ubuntu` without a tag (GL101)
mkdir -p "$in/nul/env"
printf 'services:\n  a:\n    image: ${IMG}\n' > "$in/nul/env/docker-compose.yml"
printf 'IMG=ubuntu\0evil:22.04\n' > "$in/nul/env/.env"
lint env-nul 10 256 "count GL101 $in/nul/env/docker-compose.yml 0 -- clean $in/nul/env/docker-compose.yml" "$in/nul/env/docker-compose.yml"
lint escaped-nul 10 256 "has GL411 $in/nul/docker-compose.yml service \`svc␀evil\x1b\[31m\` -- has GL414 $in/nul/pod.yaml container \`c␀x\` -- count GL101 $in/nul/nb.ipynb 0 -- clean $in/nul/nb.ipynb" "$in/nul/docker-compose.yml" "$in/nul/pod.yaml" "$in/nul/nb.ipynb"
# a notebook whose cell printed a training log of 300,000 lines (10 MB of output strings)
# and one of 20,000 small cells (5.7 MB): every node of the JSON was kept in the YAML tree (10
# bytes of parse-memory a byte), so both stopped at parse-memory; only the cells'
# `cell_type` and `source` are kept now (yt_load_keeping): linted whole, under 64 MB
python3 -c '
import json, sys
run = {"cell_type": "code", "execution_count": 1, "metadata": {}, "outputs": [],
       "source": ["!docker run --rm ubuntu:latest python train.py\n"]}
log = dict(run, outputs=[{"name": "stdout", "output_type": "stream",
                          "text": ["step %d loss 0.123\n" % i for i in range(300000)]}])
small = [{"cell_type": "code", "execution_count": i, "metadata": {"id": "c%d" % i},
          "source": ["x = %d\n" % i, "print(x)\n"],
          "outputs": [{"name": "stdout", "output_type": "stream", "text": ["%d\n" % i]}]}
         for i in range(20000)]
for name, cells in (("log", [log]), ("small", small + [run])):
    json.dump({"cells": cells, "metadata": {}, "nbformat": 4, "nbformat_minor": 5},
              open(sys.argv[1] + "/" + name + ".ipynb", "w"), indent=1)
' "$in/long"
lint notebook-log-3e5 20 512 "clean $in/long/log.ipynb -- count GL101 $in/long/log.ipynb 1 -- clean $in/long/small.ipynb -- count GL101 $in/long/small.ipynb 1 -- rss 64" "$in/long/log.ipynb" "$in/long/small.ipynb"

# ---- readers and launches landed in round 12 (round 13) ----
# an MPI launcher before a container launch is a wrapper, found by walking what it wraps:
# each launcher of a chain (`mpirun mpirun ... apptainer`) walked the rest again, one
# stack frame each: 50,000 of them overflowed the stack. The chain is walked once, as deep
# as the wrappers' bound; within it the container is still judged (GL408: no --nv).
mkdir -p "$in/mpi"
img=docker://nvcr.io/nvidia/pytorch:24.01-py3
{ printf '#!/bin/bash\n#PBS -l select=2:ngpus=4\nmpiexec -n 8 '; yes 'mpirun' | head -n 100000 | tr '\n' ' '
  printf 'apptainer exec %s python3 train.py\n' "$img"; } > "$in/mpi/chain.pbs"
{ printf '#!/bin/bash\n#PBS -l select=2:ngpus=4\nmpiexec -n 8 '; yes 'mpirun -np 2' | head -n 14 | tr '\n' ' '
  printf 'apptainer exec %s python3 train.py\n' "$img"; } > "$in/mpi/short.pbs"
lint mpi-wrapper-chain 10 256 "clean $in/mpi/chain.pbs -- has GL408 $in/mpi/short.pbs --nv" "$in/mpi/chain.pbs" "$in/mpi/short.pbs"

# bake targets: each arg a target sets was looked for among those its build had so far; a
# template of 256 args inherited by 300 targets through 64 others each (1 MB) was 10^10
# name comparisons (minutes). A build's settings are bounded (past them it is opaque);
# a plain target beside them still sets its ARG (GL101 moot on FROM ubuntu:${TAG})
mkdir -p "$in/bake"
printf 'ARG TAG=latest\nFROM ubuntu:${TAG}\n' > "$in/bake/Dockerfile"
python3 - "$in/bake/docker-bake.hcl" <<'PY'
import sys
o = ['target "ok" {\n  args = { TAG = "22.04" }\n}\n']
for t in range(200):
    o.append(f'target "p{t}" {{\n  args = {{\n' + ''.join(f'    a{t}x{k} = "1"\n' for k in range(256)) + '  }\n}\n')
for leaf in range(300):
    o.append(f'target "l{leaf}" {{\n  inherits = [' + ','.join(f'"p{(leaf + j) % 200}"' for j in range(64)) + ']\n}\n')
open(sys.argv[1], 'w').write(''.join(o))
PY
lint bake-inherited-args 10 256 "clean $in/bake/docker-bake.hcl -- count GL101 $in/bake/Dockerfile 0" "$in/bake"

# 40,000 builds (a build fact each) reach parse-memory while the script is split or while
# its commands are read on after the split, and the scan stopped without a word (GL900 at
# 1:1); it says where: the token, or the command, that took the rest
{ printf '#!/bin/sh\n'; for i in $(seq 40000); do printf 'docker build --build-arg A%d=1 .\n' "$i"; done; } > "$in/bake/builds.sh"
lint shell-builds-parse-memory 10 256 "gl900 $in/bake/builds.sh >1 * parse-memory" "$in/bake/builds.sh"

# compose services that share one big map through an alias: its entries were read again
# for each service. 5,000 services of one 20,000-key depends_on map (1.3 MB) took 10 s
# (each map is now read once; and since an alias pays for the text it names, a unit per 16
# bytes at its first follow, the 15th service's alias spends the budget: 6.5 billion
# bytes named in all);
# 5,000 of one 20,000-key environment built an env of each service past parse-memory,
# never stopped (17 GB RSS, 74 s): the services stop where it is reached, GL900 at the
# service that took the rest
mkdir -p "$in/czdeps" "$in/czenv"
python3 - "$in" <<'PY'
import sys
for sub, key, val in (("czdeps", "depends_on", "{condition: service_completed_successfully}"),
                      ("czenv", "environment", "v")):
    o = ["x-shared: &d\n"] + [f"  s{i}: {val}\n" for i in range(20000)] + ["services:\n"]
    o += [f"  s{i}:\n    image: ubuntu:22.04\n    {key}: *d\n" for i in range(5000)]
    open(f"{sys.argv[1]}/{sub}/docker-compose.yml", "w").write("".join(o))
PY
lint compose-alias-depends-on 5 256 "gl900 $in/czdeps/docker-compose.yml 20047 17 yaml-alias-nodes" "$in/czdeps/docker-compose.yml"
lint compose-alias-environment 10 256 "gl900 $in/czenv/docker-compose.yml >20001 3 parse-memory -- rss 64" "$in/czenv/docker-compose.yml"

# not hostile: 300 services that merge one 4 KB anchor (`<<: *common`, its environment and
# GPU reservation), a shape of real compose files. A lookup in a merging service follows
# the merge alias once a key: when each follow paid for the anchor's text, the 120th
# service's lookups spent the budget (a false alias bomb); each alias pays for its text
# once, and a unit a follow
mkdir -p "$in/czmerge"
python3 - "$in/czmerge" <<'PY'
import sys
env = "".join(f'    VAR_{i}: "value-number-{i}-abcdefghijklmnop"\n' for i in range(100))
o = ["x-common: &common\n  restart: unless-stopped\n  environment:\n", env,
     "  deploy:\n    resources:\n      reservations:\n        devices:\n",
     "          - driver: nvidia\n            count: 1\n            capabilities: [gpu]\n",
     "services:\n"]
o += [f"  s{i}:\n    <<: *common\n    image: nvcr.io/nvidia/pytorch:24.05-py3\n"
      f"    command: python train.py --data /data/{i}\n" for i in range(300)]
open(f"{sys.argv[1]}/docker-compose.yml", "w").write("".join(o))
PY
lint compose-merge-anchor-300 10 256 "clean $in/czmerge/docker-compose.yml" "$in/czmerge/docker-compose.yml"

# the same in Kubernetes: 5,000 containers of one pod sharing a 20,000-entry env through an
# alias (14 GB RSS, 52 s), and a List of 5,000 aliases of one such pod (37 s): the
# containers stop at parse-memory, GL900 at the container that took the rest; the List's
# items at the alias that spends the budget (a unit per 16 bytes of the pod it names)
mkdir -p "$in/k8salias"
python3 - "$in/k8salias" <<'PY'
import sys
env = [f"- name: E{i}\n  value: v\n" for i in range(20000)]
o = ["apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\nx: &d\n"] + env + ["spec:\n  containers:\n"]
o += [f"  - name: c{i}\n    image: ubuntu:22.04\n    env: *d\n" for i in range(5000)]
open(sys.argv[1] + "/pod.yaml", "w").write("".join(o))
o = ["apiVersion: v1\nkind: List\nx: &p\n  apiVersion: v1\n  kind: Pod\n  metadata:\n    name: p\n"
     "  spec:\n    containers:\n    - name: c\n      image: ubuntu:22.04\n      env:\n"]
o += ["      " + e.replace("\n  ", "\n        ") for e in env] + ["items:\n"] + ["- *p\n"] * 5000
open(sys.argv[1] + "/list.yaml", "w").write("".join(o))
PY
lint k8s-alias-env-containers 10 256 "gl900 $in/k8salias/pod.yaml >40001 5 parse-memory -- rss 64" "$in/k8salias/pod.yaml"
lint k8s-alias-env-list 10 256 "gl900 $in/k8salias/list.yaml 40035 3 yaml-alias-nodes -- rss 64" "$in/k8salias/list.yaml"

# Two limits in one file: the alias budget spent first (a compose file's depends_on, a
# List's pods), then parse-memory by the commands of later services or pods (100,000
# words each, no alias). The GL900 names the first limit hit, where it was hit: it named
# parse-memory, which a reader set before the stream's alias error was reported.
mkdir -p "$in/twolimits"
python3 - "$in/twolimits" <<'PY'
import sys
d, cmd = sys.argv[1], "a " * 100000
o = ["x-shared: &d\n"] + [f"  s{i}: {{condition: service_started}}\n" for i in range(20000)]
o += ["services:\n"]
o += [f"  s{i}:\n    image: ubuntu:22.04\n    depends_on: *d\n" for i in range(100)]
o += [f"  w{i}:\n    image: ubuntu:22.04\n    command: {cmd}\n" for i in range(10)]
open(d + "/docker-compose.yml", "w").write("".join(o))
o = ["apiVersion: v1\nkind: List\nx: &p\n  apiVersion: v1\n  kind: Pod\n  metadata:\n"
     "    name: p\n  spec:\n    containers:\n    - name: c\n      image: ubuntu:22.04\n"
     "      env:\n"]
o += [f"      - name: E{i}\n        value: v\n" for i in range(20000)]
o += ["items:\n"] + ["- *p\n"] * 100
o += [f"- apiVersion: v1\n  kind: Pod\n  metadata:\n    name: w{i}\n  spec:\n"
      f"    containers:\n    - name: c\n      image: ubuntu:22.04\n"
      f"      command: [sh, -c, '{cmd}']\n" for i in range(10)]
open(d + "/list.yaml", "w").write("".join(o))
PY
lint alias-budget-then-parse-memory 10 256 "gl900 $in/twolimits/docker-compose.yml 20065 17 \
yaml-alias-nodes -- gl900 $in/twolimits/list.yaml 40035 3 yaml-alias-nodes -- rss 64" "$in/twolimits"
rm -rf "$in/twolimits"

# One 800 KB scalar (or a mapping holding it) named by 5,000 aliases in one list: an alias
# to a scalar cost nothing and one to a mapping one unit, but each reader read, mapped or
# copied the text once an alias (k8s args 16 s; env and mounts 3.9 GB; compose lists 33 s
# and 7.8 GB; build-push-action tags over 60 s). An alias now costs a unit per 16 bytes of
# what it names: the budget stops the list at the alias that spends it (0.1 s)
mkdir -p "$in/fan/.github/workflows"
python3 - "$in/fan" <<'PY'
import sys
d, big, n = sys.argv[1], "a" * 400000, 5000
anchor = lambda ind: f'{ind}x: &b "{big}\n{ind}  {big}"\n'
refs = "[" + ", ".join(["*b"] * n) + "]"
pod = "apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\n  labels:\n" + anchor("    ")
pod += "spec:\n  containers:\n  - name: c\n    image: ubuntu:22.04\n"
open(d + "/args.yaml", "w").write(pod + f"    args: {refs}\n")
open(d + "/env.yaml", "w").write(pod + "    env:\n" + "".join(
    f"    - {{name: V{i}, value: *b}}\n" for i in range(n)))
open(d + "/envmap.yaml", "w").write(pod.replace('x: &b "', 'x: &e {name: E, value: "').replace(
    '"\nspec', '"}\nspec') + "    env: [" + ", ".join(["*e"] * n) + "]\n")
open(d + "/docker-compose.yml", "w").write("x-a:\n" + anchor("  ") + "services:\n  s:\n"
    f"    image: ubuntu:22.04\n    volumes: {refs}\n    labels: {refs}\n")
open(d + "/.github/workflows/w.yml", "w").write("on: push\nx-a:\n" + anchor("  ") +
    "jobs:\n  j:\n    runs-on: gpu\n    steps:\n" + "".join(
    "      - {uses: docker/build-push-action@v5, with: {tags: *b, build-contexts: *b}}\n"
    for i in range(n)))
PY
lint alias-fan-out-big-scalar 5 256 "gl900 $in/fan/args.yaml 12 92 yaml-alias-nodes -- gl900 $in/fan/env.yaml 33 26 yaml-alias-nodes -- gl900 $in/fan/envmap.yaml 12 87 yaml-alias-nodes -- gl900 $in/fan/docker-compose.yml 7 95 yaml-alias-nodes -- gl900 $in/fan/.github/workflows/w.yml 19 58 yaml-alias-nodes -- rss 64" "$in/fan"
rm -rf "$in/fan"

# The same through an alias inside the anchor: `&f {<<: *e}` (or `&f [*e]`) is a few
# bytes of text, and its one inner alias is paid for at its first follow only, so 5,000
# aliases to f read e's 800 KB for a unit each (a Kubernetes env 15 s and 3.9 GB). An
# alias now pays for what the aliases inside its anchor name too: GL900 at the alias
# that spends the budget, the 18th of the env, the 19th service
mkdir -p "$in/fan2"
python3 - "$in/fan2" <<'PY'
import sys
d, big, n = sys.argv[1], "a" * 400000, 5000
anchor = lambda ind: (f'{ind}x: &e {{name: E, value: "{big}\n{ind}  {big}"}}\n'
                      f'{ind}y: &f {{<<: *e}}\n{ind}z: &g [*e]\n')
pod = "apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\n  labels:\n" + anchor("    ")
pod += "spec:\n  containers:\n  - name: c\n    image: ubuntu:22.04\n"
open(d + "/env.yaml", "w").write(pod + "    env: [" + ", ".join(["*f"] * n) + "]\n")
open(d + "/docker-compose.yml", "w").write("x-a:\n" + anchor("  ") + "services:\n" + "".join(
    f"  s{i}:\n    image: ubuntu:22.04\n    environment: *f\n    labels: *g\n"
    for i in range(n)))
PY
lint alias-fan-out-nested 5 256 "gl900 $in/fan2/env.yaml 14 79 yaml-alias-nodes -- gl900 $in/fan2/docker-compose.yml 81 18 yaml-alias-nodes -- rss 64" "$in/fan2"
rm -rf "$in/fan2"

# and in GitHub workflows: 5,000 jobs whose container and job share a 20,000-key env
# through aliases (15.7 GB RSS, 46 s); GL900 at the first container that found none left
mkdir -p "$in/cialias/.github/workflows"
python3 - "$in/cialias/.github/workflows/w.yml" <<'PY'
import sys
o = ["on: push\nx: &d\n"] + [f"  E{i}: v\n" for i in range(20000)]
o += ["jobs:\n"] + [f"  j{i}:\n    runs-on: self-hosted\n    env: *d\n    container:\n"
                    f"      image: ubuntu:22.04\n      env: *d\n    steps: [{{run: nvidia-smi}}]\n"
                    for i in range(5000)]
open(sys.argv[1], "w").write("".join(o))
PY
lint ci-alias-env-containers 10 256 "gl900 $in/cialias/.github/workflows/w.yml >20001 5 parse-memory -- rss 64" "$in/cialias/.github/workflows/w.yml"

# each pip install of a Dockerfile looked back through every COPY for the file it names
# (a disk probe for each): 12,000 COPYs and 12,000 installs (700 KB) took minutes and GBs
# (1.4 GB at 3,000 of each); the COPYs looked at are bounded per Dockerfile
mkdir -p "$in/reqcopy"
{ printf 'FROM nvidia/cuda:12.1.1-runtime-ubuntu22.04\n'
  for i in $(seq 12000); do printf 'COPY r%d.txt /app/\n' "$i"; done
  for i in $(seq 12000); do printf 'RUN pip install -r /app/x%d.txt\n' "$i"; done
} > "$in/reqcopy/Dockerfile"
lint copies-times-installs 10 256 "clean $in/reqcopy/Dockerfile -- rss 64" "$in/reqcopy/Dockerfile"

# The shell grammar's compound commands at scale (round 18): 100,000 `elif` arms and a
# `case` of 100,000 arms, each installing a CUDA package (rival arms: their facts are
# compared in pairs), stop at parse-memory where the split stopped; 100,000 nested
# brace-form loops and `coproc NAME { ...; }` groups closed are clean, left open a GL900 at
# the innermost opener naming its own closer; a Dockerfile whose one RUN of 30,000 rival
# arms fills parse-memory in its package scan got the GL900 at 1:1 (the model checks the
# arena between instructions only): now where the split or the reading stopped.
mkdir -p "$in/arms"
python3 - "$in/arms" <<'PY'
import sys
d, n = sys.argv[1], 100000
w = lambda name, text: open(f"{d}/{name}", "w").write(text)
w("elif.sh", "#!/bin/bash\nif a; then b\n" + "".join(
    f"elif c{i}; then apt-get install -y cuda-toolkit-12-{i % 9}\n" for i in range(n)) + "fi\n")
w("case.sh", "#!/bin/bash\ncase $x in\n" + "".join(
    f"  p{i}) apt-get install -y cuda-toolkit-12-{i % 9} ;;\n" for i in range(n)) + "esac\n")
w("loops.sh", "#!/bin/bash\n" + "for x in a; { " * n + "echo; " + "} " * n + "\n")
w("open-loops.sh", "#!/bin/bash\n" + "for x in a; { " * n + "\n")
w("coproc.sh", "#!/bin/bash\n" + "coproc n { " * n + "b; " + "}; " * n + "\n")
arms = "".join(f" elif [ \"$V\" = {i} ]; then apt-get install -y cuda-toolkit-12-{i % 9} "
               f"cuda-compat-12-{i % 9} ; \\\n" for i in range(30000))
w("Dockerfile", "FROM nvidia/cuda:12.4.1-devel-ubuntu22.04\nRUN if [ \"$V\" = x ]; then "
  "apt-get install -y cuda-toolkit-11-8; \\\n" + arms + " fi\n")
arms = "".join(f" elif [ \"$V\" = {i} ]; then apt-get install -y cuda-toolkit-12-{i % 9} "
               f"cuda-toolkit-11-{i % 9} ; \\\n" for i in range(15000))
w("many.Dockerfile", "FROM nvidia/cuda:12.4.1-devel-ubuntu22.04\nRUN if [ \"$V\" = x ]; "
  "then apt-get install -y cuda-toolkit-11-8; \\\n" + arms + " fi\n")
PY
lint rival-arms-shell 10 256 "gl900 $in/arms/elif.sh >2 * parse-memory -- gl900 $in/arms/case.sh >2 * \
parse-memory -- clean $in/arms/loops.sh -- gl900 $in/arms/open-loops.sh 2 1399987 \`\}\` is missing \
-- clean $in/arms/coproc.sh -- rss 64" "$in/arms/elif.sh" "$in/arms/case.sh" "$in/arms/loops.sh" \
  "$in/arms/open-loops.sh" "$in/arms/coproc.sh"
lint rival-arms-dockerfile 10 256 "gl900 $in/arms/Dockerfile >2 * parse-memory -- rss 64" "$in/arms/Dockerfile"
# 15,000 arms (1 MB) of 30,000 CUDA installs: the rival facts were compared in pairs
# (1.3 s optimized, 4 s in a debug build): now in counts by group, sorted
lint rival-arms-pairs 1 256 "clean $in/arms/many.Dockerfile -- rss 64" "$in/arms/many.Dockerfile"
rm -rf "$in/arms"

# devcontainer.json (JSON with comments): 200,000 runArgs strings or 200,000 containerEnv
# keys took 93 MB RSS (the launch was built from every item past parse-memory, whose
# allocations still succeed); now the items stop at the limit, or the load's own GL900
# stands. Comments by the million, a trailing comma before a million newlines, 100,000
# nested arrays, a NUL, escapes of ESC/OSC/C1/bidi in every string that reaches a message.
mkdir -p "$in/dc"/{args,env,comments,commas,deep,nul,esc}
python3 - "$in/dc" <<'PY'
import sys
d = sys.argv[1]
w = lambda sub, text: open(f"{d}/{sub}/devcontainer.json", "w").write(text)
w("args", '{"image": "ubuntu:latest", "runArgs": [' + ",".join(['"-e"', '"X=1"'] * 100000) + "]}\n")
w("env", '{"image": "ubuntu:latest", "containerEnv": {' +
  ",".join(f'"K{i}": "v"' for i in range(200000)) + "}}\n")
w("comments", '{"image": "ubuntu:latest", ' + "/* c */ // d\n" * 500000 + '"runArgs": []}\n')
w("commas", '{"image": "ubuntu:latest", "runArgs": ["--gpus", "all",' + "\n" * 1000000 + "]}\n")
w("deep", '{"image": "ubuntu:latest", "x": ' + "[" * 100000 + "]" * 100000 + "}\n")
w("nul", '{"image": "ubuntu:latest",\n "runArgs": ["--gpus", "a\0ll"]}\n')
w("esc", '{"image": "nvcr.io/nvidia/pytorch:24.05-py3", "runArgs": ["--gpus", "all", "-e", '
  '"A=\\u001b]0;t\\u0007"], "containerEnv": {"NVIDIA_DRIVER_CAPABILITIES": '
  '"compute\\u001b[5m\\u009b\\u202e\\u0000"}}\n')
PY
lint devcontainer-hostile 10 256 "gl900 $in/dc/args/devcontainer.json 1 * parse-memory -- gl900 \
$in/dc/env/devcontainer.json 1 * parse-memory -- clean $in/dc/comments/devcontainer.json -- \
finding GL101 $in/dc/comments/devcontainer.json 1 19 -- clean $in/dc/commas/devcontainer.json -- \
gl900 $in/dc/deep/devcontainer.json 1 10032 nesting-depth -- gl900 $in/dc/nul/devcontainer.json \
2 26 NUL -- has GL205 $in/dc/esc/devcontainer.json compute\\x1b\\[5m\\x9b -- rss 64" "$in/dc"
rm -rf "$in/dc"

# systemd units (`*.service`, Markdown `ini` blocks, heredocs a script writes to a unit):
# one ExecStart continued over a million lines (the reading stops at the line where the
# limit is reached, not at 1:1), 200,000 ExecStartPre launches, a heredoc inside a unit's
# commands that writes another unit 50,000 times over (read once, no recursion: since
# round 20 a unit's `<<` is systemd's bytes, so its 100,001 lines are as many commands,
# which stop at parse-memory past line 1,000), 100,000
# unit blocks in Markdown, 50,000 heredocs written to units by one script (each mapped
# from where the last ended: linear), a Quadlet of 400,000 devices and an Exec= continued
# 100,000 times, one of 200,000 [Container] sections (the first is the unit's container),
# escapes of a unit's value in a message.
mkdir -p "$in/unit"/{cont,many,nest,md,hd,quad,quads,esc}
python3 - "$in/unit" <<'PY'
import sys
d = sys.argv[1]
w = lambda path, text: open(f"{d}/{path}", "w").write(text)
w("cont/a.service", "[Service]\nExecStart=/usr/bin/docker run \\\n" + "  -e X=1 \\\n" * 1000000 +
  "  ubuntu:latest\n")
w("many/a.service", "[Service]\n" + "".join(f"ExecStartPre=/usr/bin/docker run --gpus all img:{i}\n"
                                         for i in range(200000)))
w("nest/a.service", "[Service]\n" + "ExecStart=cat <<E > a.service\nExecStart=[Service]\n" * 50000 +
  "ExecStart=E\n")
w("md/a.md", "```ini\n[Service]\nExecStart=/usr/bin/docker run ubuntu:latest\n```\n" * 100000)
w("hd/a.sh", "#!/bin/sh\n" + "cat <<EOF > x.service\n[Service]\nExecStart=/usr/bin/docker run "
  "ubuntu:latest\nEOF\n" * 50000)
w("quad/a.container", "[Container]\n" + "AddDevice=nvidia.com/gpu=all\n" * 400000 +
  "Image=ubuntu:latest\nExec=a \\\n" + " b \\\n" * 100000 + " c\n")
w("quads/a.container", "[Container]\nImage=ubuntu:latest\n" * 200000)
w("esc/a.service", "[Service]\nExecStart=/usr/bin/docker run --gpus all -e "
  "'NVIDIA_DRIVER_CAPABILITIES=compute\x1b[5m\x9b' nvcr.io/nvidia/pytorch:24.05-py3\n")
PY
lint systemd-units 10 256 "gl900 $in/unit/cont/a.service >1000 * parse-memory -- gl900 \
$in/unit/many/a.service * * parse-memory -- gl900 $in/unit/nest/a.service >1000 * parse-memory -- gl900 $in/unit/md/a.md \
* * parse-memory -- gl900 $in/unit/hd/a.sh * * parse-memory -- gl900 $in/unit/quad/a.container \
* * parse-memory -- count GL101 $in/unit/quads/a.container 1 -- has GL205 $in/unit/esc/a.service \
compute\\x1b\\[5m\\x9b -- rss 64" "$in/unit"
rm -rf "$in/unit"

# ---- round 19: the readers added since round 18 ----
# GitLab `extends:` (runner tags through the jobs a job extends): the looks were charged
# per job visited, not per name of a list, so a template whose list names itself 100,000
# times was read 100,000 times at each of 11 levels for each of 2,000 jobs (over 120 s);
# a chain of 6,000 jobs and a cycle of 6,000 end at GitLab's 11 levels
mkdir -p "$in/r19/gl-fan" "$in/r19/gl-chain" "$in/r19/gl-cycle"
python3 - "$in/r19" <<'PY'
import sys
d = sys.argv[1]
job = "  image: nvidia/cuda:12.4.1-base-ubuntu22.04\n  script: [nvidia-smi]\n"
open(d + "/gl-fan/.gitlab-ci.yml", "w").write(
    ".p:\n  extends: [" + ", ".join([".p"] * 100000) + "]\n  script: [x]\n" +
    "".join(f"j{i}:\n  extends: .p\n" + job for i in range(2000)))
open(d + "/gl-chain/.gitlab-ci.yml", "w").write(
    "".join(f"j{i}:\n  extends: j{i + 1}\n" + job for i in range(6000)) +
    "j6000:\n  tags: [cpu]\n  script: [x]\n")
open(d + "/gl-cycle/.gitlab-ci.yml", "w").write(
    "".join(f"j{i}:\n  extends: j{(i + 1) % 6000}\n" + job for i in range(6000)))
PY
lint gitlab-extends-hostile 3 256 "clean $in/r19/gl-fan/.gitlab-ci.yml -- count GL201 \
$in/r19/gl-fan/.gitlab-ci.yml 2000 -- clean $in/r19/gl-chain/.gitlab-ci.yml -- clean \
$in/r19/gl-cycle/.gitlab-ci.yml -- rss 64" "$in/r19"

# A large input (over 1 MiB: linted by the run's own thread, before the workers start)
# that fills parse-memory, then one for a worker that fills it too: the run's thread kept
# what it freed under the one-thread trim threshold (32 MiB), beside the worker's arena
# (76 MB); the pool gives it back when it starts
mkdir -p "$in/r19/pool"
awk 'BEGIN { printf "```bash\n"; for (i = 0; i < 40000; i++) printf "docker run --gpus all nvidia/cuda:11.0-base; "; printf "\n```\n" }' > "$in/r19/pool/big.md"
python3 - "$in/r19/pool" <<'PY'
import sys
open(sys.argv[1] + "/.gitlab-ci.yml", "w").write("".join(
    f"j{i}:\n  script: docker run --gpus all -v /d:/d nvidia/cuda:12.4.1-base-ubuntu22.04 "
    "python t.py --data /d\n" for i in range(8000)))
PY
lint large-input-then-workers 10 256 "gl900 $in/r19/pool/big.md * * parse-memory -- gl900 \
$in/r19/pool/.gitlab-ci.yml * * parse-memory -- rss 64" "$in/r19/pool/big.md" "$in/r19/pool/.gitlab-ci.yml"

# Cloud Build: 10,000 docker builder steps, each a `docker build` (the YAML fits in
# parse-memory, the launches do not), and 8,000 GitLab jobs of one launch each: the limit
# was passed between two texts (a job's keys, the launches of the text before), the next
# texts were skipped unsaid, and the engine's fallback put the GL900 at 1:1; now at the
# first text not read (and the Cloud Build steps stop there)
mkdir -p "$in/r19/cb-steps" "$in/r19/gl-jobs"
python3 - "$in/r19" <<'PY'
import sys
d = sys.argv[1]
open(d + "/cb-steps/cloudbuild.yaml", "w").write("steps:\n" + "".join(
    f"- name: gcr.io/cloud-builders/docker\n  args: [build, -t, gcr.io/p/img{i}:latest, "
    "--build-arg, V=1, -f, Dockerfile, .]\n" for i in range(10000)))
open(d + "/gl-jobs/.gitlab-ci.yml", "w").write("".join(
    f"j{i}:\n  script: docker run --gpus all -v /d:/d nvidia/cuda:12.4.1-base-ubuntu22.04 "
    "python t.py --data /d\n" for i in range(8000)))
PY
lint ci-yaml-launches-past-parse-memory 10 256 "gl900 $in/r19/cb-steps/cloudbuild.yaml >2 * \
parse-memory -- gl900 $in/r19/gl-jobs/.gitlab-ci.yml >2 * parse-memory -- rss 64" \
  "$in/r19/cb-steps/cloudbuild.yaml" "$in/r19/gl-jobs/.gitlab-ci.yml"
# 5,000 Cloud Build steps sharing one list of 20,001 args through an alias (a list is
# charged to the alias budget once): each step built its docker words past the limit
# (66 MB, 0.46 s); the steps stop at the one the arena is over at
mkdir -p "$in/r19/cb-alias"
python3 -c 'print("steps:\n- name: gcr.io/cloud-builders/docker\n  args: &A [build" +
  ", --build-arg, V=1" * 10000 + "]\n" + "- name: gcr.io/cloud-builders/docker\n  args: *A\n" * 5000)' \
  > "$in/r19/cb-alias/cloudbuild.yaml"
lint cloud-build-shared-args 10 256 "gl900 $in/r19/cb-alias/cloudbuild.yaml 3 * parse-memory -- \
rss 64" "$in/r19/cb-alias/cloudbuild.yaml"

# The shell split's heap past parse-memory: a command's redirections and assignments
# (on the heap until the command ends) and one word's spans (each quoted piece of a word
# is one, 32 bytes: on the heap until the word ends) were not counted: 500,000 `<a` in one
# command (1 MB) took 99 MB, 300,000 assignments before one command 43 MB, one word of
# 1,600,000 `a"b"` pieces (6.4 MB) 219 MB, one `$a` split into 500,000 fields (1 MB) 126
# MB, one word substituting a 7 MB value three times 66 MB; now each stops at the limit,
# GL900 there (one substitution of it is read: 38 MB)
mkdir -p "$in/r19/heap"
python3 - "$in/r19/heap" <<'PY'
import sys
d = sys.argv[1]
w = lambda name, text: open(f"{d}/{name}", "w").write("#!/bin/bash\n" + text + "\n")
w("redirs.sh", "X=" + "<a" * 500000)
w("assigns.sh", "A=1 " * 300000 + "docker run --gpus all ubuntu:latest")
w("spans.sh", "echo " + 'a"b"' * 1600000)
w("spans-subst.sh", "x=$(echo " + 'a"b"' * 1000000 + ")")
w("fields.sh", 'a="' + "x " * 500000 + '"\necho $a')
w("value.sh", "a=" + "a" * 7000000 + "\necho $a$a$a")
w("value-once.sh", "a=" + "a" * 7000000 + "\ndocker run --gpus all -e A=$a ubuntu:latest")
open(d + "/spans.md", "w").write("```bash\ndocker run --gpus all -e X=" + 'a"b"' * 1600000 +
                                 " ubuntu:latest\n```\n")
PY
# (one file a run: two of them on the two workers at once hold up to 64 MB, since the
# pool's gate sees the arenas, not the split's heap scratch)
for f in redirs.sh:2 assigns.sh:2 spans.sh:2 spans-subst.sh:2 spans.md:2 fields.sh:3 value.sh:3; do
  lint "shell-heap-past-parse-memory ${f%%:*}" 10 256 "gl900 $in/r19/heap/${f%%:*} ${f#*:} * \
parse-memory -- rss 56" "$in/r19/heap/${f%%:*}"
done
lint "shell-heap-past-parse-memory value-once.sh" 10 256 "clean $in/r19/heap/value-once.sh -- \
finding GL101 $in/r19/heap/value-once.sh 3 38 -- rss 56" "$in/r19/heap/value-once.sh"

# Many such scripts at once, each under 1 MiB (so linted by the workers), on 8 workers:
# the split's heap scratch was not seen by the pool's gate (only arena blocks were), nor
# were the inputs' bytes, and the lexer's and the builder's checks each left out the
# other's scratch (one `$a` split into 500,000 fields held 44 MB under a 32 MiB limit):
# 8 workers on 24 of them held 99 MB. Now the scratch and the input pass the gate
# (gl_heap_hold) and each side counts the other's.
mkdir -p "$in/r20/heap8"
python3 - "$in/r20/heap8" <<'PY'
import sys
d = sys.argv[1]
w = lambda name, text: open(f"{d}/{name}", "w").write("#!/bin/bash\n" + text + "\n")
for i in range(8):
    w(f"spans{i}.sh", "echo " + 'a"b"' * 250000)
    w(f"fields{i}.sh", 'a="' + "x " * 499000 + '"\necho $a')
    w(f"redirs{i}.sh", "X=" + "<a" * 500000)
PY
expect8=""
for i in 0 1 2 3 4 5 6 7; do
  expect8+="gl900 $in/r20/heap8/fields$i.sh 3 * parse-memory -- "
done
# shellcheck disable=SC2086
lint shell-heap-on-8-workers 30 512 "${expect8}rss 64" --jobs 8 "$in/r20/heap8"
rm -rf "$in/r20"

# Command substitutions in a mapped text (a YAML block, a Markdown fence): each took the
# map of its bytes by a walk of the text's whole map (gl_srcmap_append): 20,000 lines of
# `X=$(echo a)` took 2 s, 30,000 some 5 s; now the walk starts at the substitution
mkdir -p "$in/r19/substs/.github/workflows"
python3 - "$in/r19/substs" <<'PY'
import sys
d, lines = sys.argv[1], "X=$(echo a)\n" * 30000
open(d + "/.github/workflows/w.yml", "w").write(
    "on: push\njobs:\n  j:\n    runs-on: x\n    steps:\n    - run: |\n" +
    "".join("        " + l + "\n" for l in lines.splitlines()) +
    "        docker run --gpus all ubuntu:latest\n")
open(d + "/README.md", "w").write("```bash\n" + lines + "docker run --gpus all ubuntu:latest\n```\n")
PY
lint substitutions-mapped-text 2 256 "clean $in/r19/substs/.github/workflows/w.yml -- finding GL101 \
$in/r19/substs/.github/workflows/w.yml 30007 38 -- finding GL101 $in/r19/substs/README.md 30002 \
30 -- rss 64" "$in/r19/substs"
rm -rf "$in/r19"

# ---- round 20: the readers added since round 19 ----
# systemd Environment= with 100,000 assignments on one line (900 KB): each word took the
# rest of the line from the arena (quadratic: 1.2 s, 447 MB RSS) and the reading went on
# past parse-memory to a GL900 at the next line; now each word takes its own bytes, the
# reading stops at the word where the limit is reached
mkdir -p "$in/r20/env"
python3 -c 'print("[Service]\nEnvironment=" + " ".join(f"V{i}=x" for i in range(100000)) +
  "\nExecStart=/usr/bin/docker run --gpus all ubuntu:latest")' > "$in/r20/env/a.service"
lint systemd-environment-words 3 256 "gl900 $in/r20/env/a.service 2 * parse-memory -- rss 64" \
  "$in/r20/env/a.service"
# systemd command lines are no shell text (systemd_words.h): `\'` inside single quotes, a
# backquote, `$(`, `<<`, `|` and a shell keyword are systemd's bytes; written as they are,
# a quote, substitution, heredoc or compound command ran on into the unit's next lines,
# and the ExecStart after them was lost (or, in a heredoc a script writes, a false GL900).
# Each is a line of its own here; 150,000 heredoc operators, a million `|` and `%%` (each
# escape mapped to its byte) stop at parse-memory on their line; 200,000 continued lines
# inside one quote are one command; in a heredoc the script expands (`<<EOF`), the
# script's `$(` and backquotes stay its substitutions, one left open drops the line
mkdir -p "$in/r20/words"
python3 - "$in/r20/words" <<'PY'
import sys
d, tail = sys.argv[1], "ExecStart=/usr/bin/docker run --gpus all ubuntu:latest\n"
w = lambda name, text: open(f"{d}/{name}", "w").write("[Service]\n" + text + tail)
w("sq.service", "ExecStartPre=/bin/sh -c 'echo the cache\\'s /srv'\n")
w("subst.service", "ExecStartPre=/bin/echo $(date `x\nExecStartPre=if true; then\n")
w("open.service", "ExecStartPre=/bin/echo \"never closed\n")
w("hd.service", "ExecStartPre=/bin/echo " + "<<EOF " * 150000 + "\n")
w("bars.service", "ExecStartPre=/bin/echo " + "|" * 1000000 + "\n")
w("pct.service", "ExecStartPre=/bin/echo " + "%%" * 1000000 + "\n")
w("cont.service", "ExecStartPre=/bin/echo '\\\n" + "a|b \\\n" * 200000 + "'\n")
open(d + "/unit.sh", "w").write("#!/bin/sh\ncat <<EOF > /etc/systemd/system/x.service\n"
                                "[Service]\nExecStartPre=/bin/echo it's\n" + tail + "EOF\n")
open(d + "/subst.sh", "w").write("#!/bin/sh\ncat <<EOF > /etc/systemd/system/x.service\n"
                                 "[Service]\nExecStartPre=/bin/echo " + "$(" * 100000 +
                                 "\nExecStartPre=/bin/echo " + "`a" * 100001 + "\n" + tail + "EOF\n")
PY
lint systemd-command-words 5 256 "finding GL101 $in/r20/words/sq.service 3 49 -- finding GL101 \
$in/r20/words/subst.service 4 49 -- finding GL101 $in/r20/words/open.service 3 49 -- finding \
GL101 $in/r20/words/cont.service 200004 49 -- clean $in/r20/words/unit.sh -- finding GL101 \
$in/r20/words/unit.sh 5 49 -- finding GL101 $in/r20/words/subst.sh 6 49 -- gl900 $in/r20/words/hd.service 2 * parse-memory -- gl900 \
$in/r20/words/bars.service 2 * parse-memory -- gl900 $in/r20/words/pct.service 2 * \
parse-memory -- rss 64" "$in/r20/words"
# CircleCI configs: 100,000 executors naming each other in a chain before the jobs (2 MB)
# took the content sniff past parse-memory, so the file was of no input type (GL901) while
# a .gitlab-ci.yml of the same size was a GL900 at the limit: a YAML file directly in
# .circleci/ is CI YAML by its name; a `<< parameters.` of a million bytes never closed
# is text (the launch before it judged)
mkdir -p "$in/r20/cci/.circleci" "$in/r20/cci2/.circleci"
python3 - "$in/r20" <<'PY'
import sys
d = sys.argv[1]
open(d + "/cci/.circleci/config.yml", "w").write("version: 2.1\nexecutors:\n" + "".join(
    f"  e{i}:\n    executor: e{i + 1}\n" for i in range(100000)) +
    "jobs:\n  j:\n    executor: e0\n    steps:\n      - run: docker run --gpus all ubuntu:latest\n")
open(d + "/cci2/.circleci/config.yml", "w").write(
    "jobs:\n  j:\n    machine: true\n    resource_class: gpu.nvidia.small\n    steps:\n"
    "      - run: docker run --gpus all ubuntu:latest <<parameters." + "a" * 1000000 + "\n")
PY
lint circleci-hostile 5 256 "gl900 $in/r20/cci/.circleci/config.yml >2 * parse-memory -- clean \
$in/r20/cci2/.circleci/config.yml -- finding GL101 $in/r20/cci2/.circleci/config.yml 6 43 -- \
rss 64" "$in/r20/cci/.circleci/config.yml" "$in/r20/cci2/.circleci/config.yml"
rm -rf "$in/r20"

# ---- round 21: the readers added since round 20 ----
mkdir -p "$in/r21"
# a dev container's capAdd of 100,000 capabilities (1.4 MB): each a `--cap-add CAP` pair of
# words, read with no look at parse-memory (runArgs, mounts and containerEnv stop there):
# 75 MB of RSS and a GL900 at 1:1; now the list stops at the item where the limit is hit
mkdir -p "$in/r21/dc/.devcontainer"
python3 -c 'import json; print(json.dumps({"image": "ubuntu:22.04", "runArgs": ["--gpus", "all"],
  "capAdd": ["SYS_PTRACE%d" % i for i in range(100000)]}))' \
  > "$in/r21/dc/.devcontainer/devcontainer.json"
lint devcontainer-capadd 5 256 "gl900 $in/r21/dc/.devcontainer/devcontainer.json 1 * \
parse-memory -- rss 64" --jobs 8 "$in/r21/dc"
# systemd Environment= quotes never closed: 100,000 lines that each open one (systemd
# ignores each line), and one quote open over 100,000 continued lines; then an image in a
# line with an escaped quote (`\"` inside quotes is a quote character to systemd: read as
# closing the quote, the rest of the line was one word and IMG unknown)
mkdir -p "$in/r21/env"
python3 - "$in/r21/env" <<'PY2'
import sys
d, run = sys.argv[1], "ExecStart=/usr/bin/docker run --gpus all $IMG\n"
open(d + "/open.service", "w").write("[Service]\n" + 'Environment="IMG=ubuntu:latest\n' * 100000
                                     + "Environment=IMG=ubuntu:22.04\n" + run)
open(d + "/cont.service", "w").write('[Service]\nEnvironment="IMG=ubuntu:latest \\\n' +
                                     " a \\\n" * 100000 + '"\n' + run)
open(d + "/esc.service", "w").write('[Service]\nEnvironment="B=\\"x" IMG=ubuntu:latest\n' + run)
PY2
lint systemd-environment-quotes 5 256 "count GL101 $in/r21/env/open.service 0 -- count GL101 \
$in/r21/env/cont.service 0 -- finding GL101 $in/r21/env/esc.service 3 42 -- rss 64" "$in/r21/env"
# under an address-space limit of 48 MiB (`ulimit -v`), below what the default
# parse-memory (32 MiB) and the program need: 200,000 Shifter volumes, 100,000
# Environment= lines and a literal block of 100,000 commands each reached malloc's failure
# first (gpulint: out of memory, abort); now the default parse-memory fits the limit (16
# MiB here) and each input is a GL900 at it, with --jobs 8 (gl_threads_fit leaves one
# thread). Under ASan no address-space limit is set: the default stays
mkdir -p "$in/r21/as"
python3 - "$in/r21/as" <<'PY2'
import sys
d = sys.argv[1]
open(d + "/vols.sh", "w").write("#!/bin/sh\nshifter " + " ".join(f"-V /d{i}:/m{i}" for i in
                                range(200000)) + " --image=ubuntu:22.04 python x.py\n")
open(d + "/env.service", "w").write("[Service]\n" + "".join(
    f"Environment=V{i}=x IMG=i:{i}\n" for i in range(100000)) +
    "ExecStart=/usr/bin/docker run $IMG\n")
open(d + "/lit.rst", "w").write("T\n=\n\n::\n\n" + "".join(" " * (i % 200 + 1) +
                                "docker run ubuntu:22.04\n" for i in range(100000)))
PY2
fitted='.*16MiB'; [ $asan = 1 ] && fitted=''
lint address-space-48m 10 48 "gl900 $in/r21/as/vols.sh 2 * parse-memory$fitted -- gl900 \
$in/r21/as/env.service * * parse-memory -- gl900 $in/r21/as/lit.rst * * parse-memory" \
  --jobs 8 "$in/r21/as"
rm -rf "$in/r21"

# ================= encodings and special files =================
# UTF-16 is refused (GL900 at 1:1: save as UTF-8), with or without its byte order mark; a
# UTF-8 byte order mark is skipped (columns count from after it); CRLF is a line end; a lone
# CR is GL900 at it. Each came out "clean" with no finding before.
mkdir -p "$in/enc"
python3 -c "
import sys
d = sys.argv[1]
open(d + '/u16.Dockerfile', 'wb').write('FROM ubuntu:latest\\n'.encode('utf-16'))
open(d + '/u16le.yaml', 'wb').write('apiVersion: v1\\nkind: Pod\\n'.encode('utf-16-le'))
open(d + '/bom.Dockerfile', 'wb').write(b'\\xef\\xbb\\xbfFROM ubuntu:latest\\n')
open(d + '/crlf.Dockerfile', 'wb').write(b'FROM ubuntu:22.04 AS b\\r\\nRUN echo\\r\\nFROM ubuntu:latest\\r\\n')
open(d + '/cr.Dockerfile', 'wb').write(b'FROM ubuntu:22.04\\rRUN echo\\rFROM ubuntu:latest\\r')
" "$in/enc"
lint utf16-bom 10 512 "gl900 $in/enc/u16.Dockerfile 1 1 UTF-16" "$in/enc/u16.Dockerfile"
lint utf16-le 10 512 "gl900 $in/enc/u16le.yaml 1 1 UTF-16" "$in/enc/u16le.yaml"
lint utf8-bom 10 512 "finding GL101 $in/enc/bom.Dockerfile 1 13" "$in/enc/bom.Dockerfile"
# Binary files found by a walk whose name says nothing (a font `x.woff2`, a recording
# `a.mp3`: the digit makes their extension no type's) are passed by, even when their bytes
# hold a `name:` line and a tab-indented one, as a Makefile does (whole repositories had
# GL900 on them); a binary file named like an input (a Dockerfile) is still GL900
mkdir -p "$in/bin"
python3 -c "
import sys
d = sys.argv[1]
open(d + '/font.woff2', 'wb').write(b'wOF2OTTO\\x00\\x00\\xd5|' + b'\\x9a' * 300 + b'\\nx:y\\n\\tz\\n')
open(d + '/take.mp3', 'wb').write(b'ID3\\x04\\x00\\x00' + b'\\nall:\\n\\tdocker run ubuntu:latest\\n')
open(d + '/Dockerfile', 'wb').write(b'FROM ubuntu:22.04\\n\\x00\\n')
" "$in/bin"
lint walk-binary 10 512 "count GL900 $in/bin/font.woff2 0 -- count GL900 $in/bin/take.mp3 0 -- count GL101 $in/bin/take.mp3 0 -- gl900 $in/bin/Dockerfile 2 1 NUL" "$in/bin"
lint crlf 10 512 "clean $in/enc/crlf.Dockerfile -- finding GL101 $in/enc/crlf.Dockerfile 3 13" "$in/enc/crlf.Dockerfile"
lint lone-cr 10 512 "gl900 $in/enc/cr.Dockerfile 1 18 lone CR" "$in/enc/cr.Dockerfile"
# A FIFO and a process substitution are read once, as streams (the FIFO was opened twice
# and hung; <(...) lost its first 512 bytes to the first open)
mkfifo "$in/enc/fifo"
{ printf 'FROM ubuntu:latest\n' > "$in/enc/fifo" & } 2>/dev/null
lint fifo 10 512 "finding GL101 $in/enc/fifo 1 13" "$in/enc/fifo"
wait
pad=$(printf '#%.0s' $(seq 100))
exec 9< <(printf '%s\nFROM ubuntu:latest\n' "$pad")
lint process-substitution 10 512 "finding GL101 /dev/fd/9 2 13" /dev/fd/9
exec 9<&-
# devices and sockets are refused by name, never opened: exit 2 with a message
timeout 10 "$bin" --format json /dev/zero > "$work/out" 2> "$work/err"; rc=$?
if [ $rc = 2 ] && grep -q '/dev/zero: a character device: not linted' "$work/err"; then
  echo "ok device-refused"
else fail "device-refused: exit $rc: $(head -c 300 "$work/err")"; fi

# ================= config file and knowledge file (usage errors: exit 2) =================
mkdir -p "$in/cfg/.gpulint.yaml" "$in/cfg/sub"
cd "$in/cfg/sub" && run 10 512 && cd "$work/cwd" # a .gpulint.yaml directory, found upward
if [ "$rc" -le 1 ] && verify cfg-dir-found >/dev/null 2>&1; then echo "ok cfg-dir-found (skipped)"
else fail "cfg-dir-found: exit $rc $(head -c 300 "$work/err")"; fi
usage cfg-dir 10 512 "config: .*cfg/.gpulint.yaml: Is a directory" --config "$in/cfg/.gpulint.yaml"
printf 'driver: 535\nignore: [GL1\0001]\n' > "$in/cfg/nul.yaml"
usage cfg-nul 10 512 'nul.yaml:2:13: .*control characters' --config "$in/cfg/nul.yaml"
printf 'driver: 535\nignore: [GL\xff101]\n' > "$in/cfg/utf8.yaml"
usage cfg-utf8 10 512 'utf8.yaml:2:12: .*UTF-8' --config "$in/cfg/utf8.yaml"
{ printf 'ignore: '; deep 1000000 '['; echo; } > "$in/cfg/deep.yaml"
usage cfg-deep 10 512 'deep.yaml:1:10: expected rule ids' --config "$in/cfg/deep.yaml"
{ printf 'x-laughs:\n'; laughs '  '; printf 'ignore: *l9\n'; } > "$in/cfg/bomb.yaml"
usage cfg-alias-bomb 10 512 'bomb.yaml:1:1: unknown setting' --config "$in/cfg/bomb.yaml"
printf 'ignore: &a [GL101]\nenable: *a\n' > "$in/cfg/alias.yaml"
usage cfg-alias 10 512 'alias.yaml:2:9: .*alias' --config "$in/cfg/alias.yaml"

ln -s "$in/cfg" "$in/kbdir"
usage kb-dir 10 512 'kbdir:0:0: not a regular file \(a directory\)' --knowledge "$in/kbdir"
python3 -c 'import random, sys; random.seed(7); sys.stdout.buffer.write(random.randbytes(65536))' > "$in/kb-garbage"
usage kb-garbage 10 512 'kb-garbage:1:2: invalid text' --knowledge "$in/kb-garbage"
printf 'meta:\n  date: "2024\0"\n' > "$in/kb-nul.yaml"
usage kb-nul 10 512 'kb-nul.yaml:2:14: .*control characters' --knowledge "$in/kb-nul.yaml"
{ printf 'meta: '; deep 1000000 '['; echo; } > "$in/kb-deep.yaml"
usage kb-deep 10 512 'kb-deep.yaml:1:71: .*nested deeper' --knowledge "$in/kb-deep.yaml"
{ laughs ''; printf 'sources: *l9\n'; } > "$in/kb-bomb.yaml"
usage kb-alias-bomb 10 512 'kb-bomb.yaml:11:1: .*aliases' --knowledge "$in/kb-bomb.yaml"
usage kb-missing 10 512 'no-such.yaml:0:0: cannot open' --knowledge "$in/no-such.yaml"
# a config file, an --images-from list and a registry auth file that never end (/dev/zero):
# each was read whole with no bound (6 GB in 5 s); now at most input-size, then refused
usage cfg-dev-zero 10 512 'config: /dev/zero: File too large' --config /dev/zero
usage images-from-dev-zero 10 512 'images-from /dev/zero: File too large' --images-from /dev/zero
REGISTRY_AUTH_FILE=/dev/zero usage auth-file-dev-zero 10 512 "127.0.0.1:1/x:1: .*connect" docker://127.0.0.1:1/x:1
# the knowledge table with 300,000 more sources (14 MB; 266 MB and no error): its YAML
# tree (~24 bytes a byte of text) is bounded by parse-memory, the error at the event
awk '{ print } /^sources:$/ { for (i = 0; i < 300000; i++) printf "  s%d:\n    url: https://example.com/%d\n", i, i }' \
  "$here/knowledge/cuda_facts.yaml" > "$in/kb-huge.yaml"
usage kb-huge 20 1024 'kb-huge.yaml:[0-9]+:[0-9]+: the limit `parse-memory`' --knowledge "$in/kb-huge.yaml"

# ================= a hostile registry (docker://) =================
# tests/lib/registry_stub.py on 127.0.0.1: a Retry-After past a long (multiplied into
# milliseconds it overflowed: UBSan stopped the run) is waited at most 4 s, then the image
# is read; a redirect to itself and a Bearer realm that is no http(s) URL are one line
# and exit 2, the good input still linted
evil() { # MODE: start the hostile registry; sets $evilport and $evilpid
  rm -f "$work/evil.port"
  python3 "$here/tests/lib/registry_stub.py" "$1" "$work/evil.port" "$work/evil.log" & evilpid=$!
  for _ in $(seq 100); do [ -s "$work/evil.port" ] && break; sleep 0.1; done
  evilport=$(cat "$work/evil.port")
}
evil retry-after
lint registry-retry-after-huge 30 512 "has GL201 docker://127.0.0.1:$evilport/x/img:1 CUDA 12.4.1" \
  --tls-verify=false "docker://127.0.0.1:$evilport/x/img:1"
kill "$evilpid"; wait "$evilpid" 2>/dev/null
evil redirect-loop
usage registry-redirect-loop 30 512 "x/img:1: too many redirects" --tls-verify=false "docker://127.0.0.1:$evilport/x/img:1"
kill "$evilpid"; wait "$evilpid" 2>/dev/null
evil realm-file
usage registry-realm-file 30 512 "x/img:1: .*no http\(s\) token realm" --tls-verify=false "docker://127.0.0.1:$evilport/x/img:1"
kill "$evilpid"; wait "$evilpid" 2>/dev/null

# ================= image archives =================
if ! command -v umoci >/dev/null || ! command -v skopeo >/dev/null; then
  echo "skip: image cases (umoci or skopeo missing)"
else
  img=$work/img; mkdir -p "$img/src"
  mklayer() { tar --sort=name --owner=0 --group=0 --numeric-owner --mtime=@0 -C "$1" -cf "$2" .; }
  wrap() { python3 "$gen/oci_layout.py" "$@" || fail "oci_layout.py $*"; }
  # a small good layer, by GNU tar
  mkdir -p "$img/src/usr/local/cuda-12.4/lib64" "$img/src/etc"
  echo '{"cuda":{"version":"12.4.1"}}' > "$img/src/usr/local/cuda-12.4/version.json"
  for i in $(seq 1 40); do echo "file $i" > "$img/src/etc/f$i"; done
  mklayer "$img/src" "$img/base.tar"
  gzip -9 -c "$img/base.tar" > "$img/base.tar.gz"
  zstd -q -c "$img/base.tar" > "$img/base.tar.zst"

  # a real image by umoci + skopeo: the outer-archive cases start from it
  ( cd "$img" && export TMPDIR=$work/tooltmp && umoci init --layout oci && umoci new --image oci:h &&
    umoci raw add-layer --image oci:h base.tar &&
    umoci config --image oci:h --tag h --os linux --architecture amd64 && umoci gc --layout oci
  ) > "$img/umoci.log" 2>&1 || { cat "$img/umoci.log"; fail "umoci"; }
  sk() { skopeo --insecure-policy --tmpdir "$work/tooltmp" "$@" >/dev/null; }
  sk copy "oci:$img/oci:h" "oci-archive:$img/oci-archive.tar:hostile:1"
  sk copy "oci:$img/oci:h" "docker-archive:$img/docker-archive.tar:hostile:1"
  lint image-good 20 512 "clean $img/oci-archive.tar -- clean $img/docker-archive.tar" \
    "$img/oci-archive.tar" "$img/docker-archive.tar"
  # an image through a FIFO or <(...): one stream, read once (it was refused: the first
  # open had taken its head)
  mkfifo "$img/fifo"
  { cat "$img/oci-archive.tar" > "$img/fifo" & } 2>/dev/null
  lint image-fifo 20 512 "clean $img/fifo -- has GL201 $img/fifo CUDA 12.4.1" "$img/fifo"
  wait
  exec 8< <(cat "$img/docker-archive.tar")
  lint image-process-substitution 20 512 "clean /dev/fd/8 -- has GL201 /dev/fd/8 CUDA 12.4.1" /dev/fd/8
  exec 8<&-

  # truncated gzip and zstd layers
  head -c $(( $(stat -c %s "$img/base.tar.gz") / 2 )) "$img/base.tar.gz" > "$img/trunc.gz"
  head -c $(( $(stat -c %s "$img/base.tar.zst") - 7 )) "$img/base.tar.zst" > "$img/trunc.zst"
  wrap ok "$img/tgz" "$img/trunc.gz"
  wrap ok "$img/tzst" "$img/trunc.zst"
  lint trunc-gzip 20 512 "gl900 $img/tgz 0 0 layer .*: entry [0-9]+ .*(truncated|gzip)" "$img/tgz"
  lint trunc-zstd 20 512 "gl900 $img/tzst 0 0 layer .*: entry [0-9]+ " "$img/tzst"
  head -c 5000 "$img/oci-archive.tar" > "$img/outer-trunc.tar"
  lint trunc-outer 20 512 "gl900 $img/outer-trunc.tar 0 0 entry [0-9]+" "$img/outer-trunc.tar"
  # a zstd stream may begin with a skippable frame (magic 0x184D2A50..5F: zstd -d and
  # containerd read it; zstd writes none, so printf writes its 8-byte header and body):
  # a layer whose media type says plain tar, and an outer .tar.zst, were refused
  # ("Unrecognized archive format"; the outer one read as text)
  skipframe() { printf '\x5f\x2a\x4d\x18\x10\x00\x00\x00'; head -c 16 /dev/zero; }
  { skipframe; zstd -q -c "$img/base.tar"; skipframe; } > "$img/skip.zst"
  wrap ok "$img/zskip" "$img/skip.zst"
  lint zstd-skippable-layer 20 512 "clean $img/zskip -- has GL201 $img/zskip CUDA 12.4.1" "$img/zskip"
  { skipframe; zstd -q -c "$img/oci-archive.tar"; } > "$img/outer-skip.tar.zst"
  lint zstd-skippable-outer 20 512 "clean $img/outer-skip.tar.zst -- has GL201 $img/outer-skip.tar.zst CUDA 12.4.1" "$img/outer-skip.tar.zst"

  # decompression bombs: one tar entry of 11 GiB of zeros. The gzip stream is 11 members
  # of 1 GiB (gzip -9: ~1 MB each; gzip concatenates), the zstd one 11 frames.
  bombhdr() { python3 -c '
import sys, tarfile
t = tarfile.TarInfo("zeros"); t.size = 11 << 30
sys.stdout.buffer.write(t.tobuf(format=tarfile.GNU_FORMAT))'; }
  t0=$SECONDS
  head -c 1G /dev/zero | gzip -9 > "$img/1g.gz"
  { bombhdr | gzip -9; for i in $(seq 11); do cat "$img/1g.gz"; done; head -c 1024 /dev/zero | gzip -9; } > "$img/bomb.gz"
  head -c 1G /dev/zero | zstd -q -19 > "$img/1g.zst"
  { bombhdr | zstd -q; for i in $(seq 11); do cat "$img/1g.zst"; done; head -c 1024 /dev/zero | zstd -q; } > "$img/bomb.zst"
  echo "  bombs made in $((SECONDS - t0))s: gzip $(stat -c %s "$img/bomb.gz") B, zstd $(stat -c %s "$img/bomb.zst") B"
  wrap ok "$img/bomb-gz" "$img/bomb.gz"
  wrap ok "$img/bomb-zst" "$img/bomb.zst"
  lint bomb-gzip-layer 60 512 "gl900 $img/bomb-gz 0 0 entry 1 .*zeros.*decompression bomb" "$img/bomb-gz"
  lint bomb-zstd-layer 60 512 "gl900 $img/bomb-zst 0 0 entry 1 .*zeros.*decompression bomb" "$img/bomb-zst"
  tar -C "$img/bomb-zst" -cf "$img/bomb-zst.tar" .
  lint bomb-zstd-layer-archive 60 512 "gl900 $img/bomb-zst.tar 0 0 decompression bomb" "$img/bomb-zst.tar"
  # the outer archive itself a bomb (.tar.gz / .tar.zst of an 11 GiB entry), also on stdin
  cp "$img/bomb.gz" "$img/outer-bomb.tar.gz"; cp "$img/bomb.zst" "$img/outer-bomb.tar.zst"
  lint bomb-outer-gzip 60 512 "gl900 $img/outer-bomb.tar.gz 0 0 entry 1 of the archive: decompression bomb" "$img/outer-bomb.tar.gz"
  lint bomb-outer-zstd 60 512 "gl900 $img/outer-bomb.tar.zst 0 0 entry 1 of the archive: decompression bomb" "$img/outer-bomb.tar.zst"
  lint bomb-outer-stdin 60 512 "gl900 - 0 0 decompression bomb" - < "$img/outer-bomb.tar.gz"
  rm -f "$img"/outer-bomb.* "$img/1g.zst" "$img/bomb.zst"
  # a low-ratio 11 GiB layer (gzip -1: ~230:1, under the bomb ratio): streamed, bounded
  head -c 1G /dev/zero | gzip -1 > "$img/1g1.gz"
  { bombhdr | gzip -1; for i in $(seq 11); do cat "$img/1g1.gz"; done; head -c 1024 /dev/zero | gzip -1; } > "$img/big.gz"
  rm -f "$img/1g1.gz" "$img/1g.gz"
  wrap ok "$img/big" "$img/big.gz"
  rm -f "$img/big.gz"
  lint big-layer-11g 120 512 "clean $img/big" "$img/big"

  # tar tricks, made by GNU tar and bsdtar: ../ and absolute names, symlink loops,
  # a hardlink to a missing target, a duplicate entry, PAX global headers
  h=$img/h; mkdir -p "$h/src/usr/bin" "$h/src/deep"
  ( cd "$h/src" && echo smi > usr/bin/nvidia-smi && ln -s loop-b loop-a && ln -s loop-a loop-b &&
    ln -s self self && echo a > target && ln target hl && echo one > dup )
  tar -C "$h/src" -cf "$h/tricks.tar" usr loop-a loop-b self target hl dup
  tar --delete -f "$h/tricks.tar" target                     # hl: hardlink to nothing
  echo two > "$h/src/dup" && tar -C "$h/src" -rf "$h/tricks.tar" dup   # duplicate
  ( cd "$h/src/deep" && tar -P -cf "$h/escape.tar" ../usr/bin/nvidia-smi "$h/src/dup" )
  bsdtar -C "$h/src" -P -s ',^,../../../../,' -cf "$h/escape-bsd.tar" usr/bin/nvidia-smi
  tar -C "$h/src" --format=pax --pax-option='comment=global,globexthdr.name=pax_global_header' \
    -cf "$h/pax.tar" dup usr
  python3 -c '
import sys, tarfile
with tarfile.open(sys.argv[1], "w", format=tarfile.PAX_FORMAT,
                  pax_headers={"comment": "g", "path": "../../etc/evil"}) as t:
    t.add(sys.argv[2], arcname="etc/dup")' "$h/pax-path.tar" "$h/src/dup"
  for t in tricks escape escape-bsd pax pax-path; do
    wrap ok "$h/$t" "$h/$t.tar"
  done
  lint tar-tricks 20 512 "clean $h/tricks" "$h/tricks"
  lint tar-escape 20 512 "clean $h/escape -- absent \.\./" "$h/escape"
  lint tar-escape-bsdtar 20 512 "clean $h/escape-bsd -- absent \.\./" "$h/escape-bsd"
  lint pax-global 20 512 "clean $h/pax" "$h/pax"
  lint pax-global-path 20 512 "clean $h/pax-path -- absent \.\./" "$h/pax-path"

  # archive-level tricks: outer entries with ../ and absolute names; a docker-save layer
  # symlinked to itself; symlink chains between layers
  mkdir -p "$h/outer" && tar -C "$h/outer" -xf "$img/oci-archive.tar"
  ( cd "$h/outer" && tar -P -cf "$h/outer-escape.tar" . ../../../tmp/gpulint-escape /etc/hostname 2>/dev/null ) ||
    ( cd "$h/outer" && tar -P -cf "$h/outer-escape.tar" . /etc/hostname )
  lint outer-escape 20 512 "clean $h/outer-escape.tar" "$h/outer-escape.tar"
  mkdir -p "$h/dloop" && tar -C "$h/dloop" -xf "$img/docker-archive.tar"
  first=$(python3 -c 'import json,sys;print(json.load(open(sys.argv[1]))[0]["Layers"][0])' "$h/dloop/manifest.json")
  rm "$h/dloop/$first" && ln -s "$(basename "$first")" "$h/dloop/$first"
  tar -C "$h/dloop" -cf "$h/dloop.tar" .
  lint docker-layer-self-symlink 20 512 "gl900 $h/dloop.tar 0 0 lacks" "$h/dloop.tar"
  mkdir -p "$h/dchain" && tar -C "$h/dchain" -xf "$img/docker-archive.tar"
  rm "$h/dchain/$first" && ln -s ../x "$h/dchain/a" && ln -s a "$h/dchain/x" && ln -s /a "$h/dchain/$first"
  tar -C "$h/dchain" -cf "$h/dchain.tar" .
  lint docker-layer-symlink-loop 20 512 "gl900 $h/dchain.tar 0 0 lacks" "$h/dchain.tar"
  # a hardlinked layer entry whose target is not in the archive
  mkdir -p "$h/dhard" && tar -C "$h/dhard" -xf "$img/docker-archive.tar"
  ( cd "$h/dhard" && ln "$first" gone.tar &&
    tar -cf "$h/dhard.tar" gone.tar $(ls -A | grep -v '^gone.tar$') &&
    tar --delete -f "$h/dhard.tar" gone.tar )
  lint docker-layer-hardlink-missing 20 512 "gl900 $h/dhard.tar 0 0 (lacks|entry)" "$h/dhard.tar"
  # docker-save layers in the other compressions moby reads (xz, bzip2) are read; a layer
  # that looks like lrzip, which libarchive decodes by running the lrzip program, is
  # GL900 and no program runs: a fake lrzip first in PATH would leave a mark.
  recompress() { # recompress NAME CMD...: the docker archive with its layer through CMD
    local name=$1; shift
    mkdir -p "$h/$name" && tar -C "$h/$name" -xf "$img/docker-archive.tar"
    { "$@" < "$img/base.tar" > "$h/$name/$first.new" && mv "$h/$name/$first.new" "$h/$name/$first"; } ||
      fail "recompress $name"
    tar -C "$h/$name" -cf "$h/$name.tar" .
  }
  recompress dxz xz -c
  recompress dbz2 bzip2 -c
  recompress dlrz sh -c 'printf "LRZI\000\006"; head -c 200 /dev/zero'
  lint docker-layer-xz 20 512 "clean $h/dxz.tar" "$h/dxz.tar"
  lint docker-layer-bzip2 20 512 "clean $h/dbz2.tar" "$h/dbz2.tar"
  mkdir -p "$work/fakebin"
  for p in lrzip lzop grzip lz4 zstd gzip bzip2 xz lzip; do
    printf '#!/bin/sh\ntouch "%s/ran-$(basename "$0")"\nexit 1\n' "$work" > "$work/fakebin/$p"
    chmod +x "$work/fakebin/$p"
  done
  PATH=$work/fakebin:$PATH lint docker-layer-lrzip 20 512 "gl900 $h/dlrz.tar 0 0 layer" "$h/dlrz.tar"
  ran=$(ls "$work" | grep '^ran-' || true)
  [ -z "$ran" ] && echo "ok no program was run for an lrzip layer" || fail "gpulint ran ${ran#ran-}"

  # manifests and digests
  wrap missing-blob "$img/missing" "$img/base.tar.gz"
  lint missing-blob 20 512 "gl900 $img/missing 0 0 lacks" "$img/missing"
  wrap wrong-digest "$img/baddigest" "$img/base.tar"
  # a plain blob is checked only with --verify-digests (by default it is indexed by
  # seeking: unchecked, never cached)
  lint wrong-digest 20 512 "gl900 $img/baddigest 0 0 digest" --verify-digests "$img/baddigest"
  # a plain layer under a wrong digest must not plant an index under that digest
  claimed=$(python3 -c 'import json,sys;m=json.load(open(sys.argv[1]));print(m["manifests"][0]["digest"][7:])' "$img/baddigest/index.json")
  claimed=$(python3 -c 'import json,sys;print(json.load(open(sys.argv[1]))["layers"][0]["digest"].replace(":","-"))' "$img/baddigest/blobs/sha256/$claimed")
  [ ! -e "$XDG_CACHE_HOME/gpulint/layers/$claimed.idx" ] && echo "ok wrong-digest: nothing cached under the claimed digest" ||
    fail "wrong-digest: an index was cached under the unverified digest $claimed"
  tar -C "$img/baddigest" -cf "$img/baddigest.tar" .
  # a plain layer big enough that file data is seeked past: its digest is not checked
  # (image_jobs.c: as fast as a cache hit), so it must never be cached under that digest
  mkdir -p "$img/bigsrc" && head -c 4M /dev/urandom > "$img/bigsrc/a-big" && echo x > "$img/bigsrc/b"
  mklayer "$img/bigsrc" "$img/big-plain.tar"
  wrap wrong-digest "$img/baddigest-big" "$img/big-plain.tar"
  # with --verify-digests an OCI blob named by its digest is read whole and verified,
  # however large
  lint wrong-digest-big 20 512 "gl900 $img/baddigest-big 0 0 digest" --verify-digests "$img/baddigest-big"
  planted=$(for blob in "$img"/baddigest-big/blobs/sha256/*; do
    ls "$XDG_CACHE_HOME/gpulint/layers/sha256-$(basename "$blob").idx" 2>/dev/null; done)
  [ -z "$planted" ] && echo "ok wrong-digest-big: nothing cached under the claimed digest" ||
    fail "wrong-digest-big: an index was cached under the unverified digest: $planted"
  lint wrong-digest-archive 20 512 "gl900 $img/baddigest.tar 0 0 digest" --verify-digests "$img/baddigest.tar"
  # by default: indexed by seeking, no digest finding, nothing cached
  lint wrong-digest-seek 20 512 "clean $img/baddigest-big" "$img/baddigest-big"
  planted=$(for blob in "$img"/baddigest-big/blobs/sha256/*; do
    ls "$XDG_CACHE_HOME/gpulint/layers/sha256-$(basename "$blob").idx" 2>/dev/null; done)
  [ -z "$planted" ] && echo "ok wrong-digest-seek: nothing cached" ||
    fail "wrong-digest-seek: an unverified index was cached: $planted"
  # on stdin too: a layer named by its digest is hashed as it streams by
  lint wrong-digest-stdin 20 512 "gl900 - 0 0 digest" - < "$img/baddigest.tar"
  # --trust-digests: the layer is read but not hashed: no digest finding, nothing cached
  lint wrong-digest-trusted 20 512 "clean $img/baddigest-big" --trust-digests "$img/baddigest-big"
  planted=$(for blob in "$img"/baddigest-big/blobs/sha256/*; do
    ls "$XDG_CACHE_HOME/gpulint/layers/sha256-$(basename "$blob").idx" 2>/dev/null; done)
  [ -z "$planted" ] && echo "ok wrong-digest-trusted: nothing cached" ||
    fail "wrong-digest-trusted: an unverified index was cached: $planted"
  # 10^6-deep JSON: index, manifest, config (each under its right digest)
  for k in deep-index deep-manifest deep-config; do
    wrap $k "$img/$k" "$img/base.tar.gz"
    lint "json-$k" 20 512 "gl900 $img/$k 0 0 ." "$img/$k"
  done
  tar -C "$img/deep-config" -cf "$img/deep-config.tar" .
  lint json-deep-config-archive 20 512 "gl900 $img/deep-config.tar 0 0 ." "$img/deep-config.tar"
  wrap config-nul "$img/config-nul" "$img/base.tar.gz"
  lint json-config-nul 20 512 "clean $img/config-nul" "$img/config-nul"

  # ---- image limits: fan-out, sizes, names, escapes, fault isolation, entry counts ----
  # (each asserts its exact outcome; the limit it hits is named in the GL900)
  lim=$work/lim; mkdir -p "$lim"
  # a manifest named 10^4 times is read and linted once: one GL201, not 10^4
  wrap fanout=10000 "$lim/fanout" "$img/base.tar.gz"
  tar -C "$lim/fanout" -cf "$lim/fanout.tar" .
  lint fanout-manifest-10k 20 64 "clean $lim/fanout.tar -- count GL201 $lim/fanout.tar 1 -- rss 64" "$lim/fanout.tar"
  # 4 nested indexes, each naming the next 50 times: 50^5 paths to one manifest in a 61 KB
  # archive (each index is read once; the old walk took 2.2 GB at 12^5)
  wrap nested=4,50 "$lim/fan5" "$img/base.tar.gz"
  tar -C "$lim/fan5" -cf "$lim/fan5.tar" .
  echo "  nested fan-out archive: $(stat -c %s "$lim/fan5.tar") bytes"
  lint fanout-nested-61k 20 64 "clean $lim/fan5.tar -- count GL201 $lim/fan5.tar 1 -- rss 64" "$lim/fan5.tar"
  # indexes nested 20 deep, each naming the next 3 times: one GL900 naming the depth limit
  wrap nested=20,3 "$lim/deep20" "$img/base.tar.gz"
  lint index-depth-20 20 64 "gl900 $lim/deep20 0 0 nested 5 deep.*the limit \`image-index-depth\` \(4\) -- count GL900 $lim/deep20 1" "$lim/deep20"
  # a 5 MiB manifest (valid, under its digest): refused, naming the limit
  wrap big-manifest=5242880 "$lim/bigman" "$img/base.tar.gz"
  lint manifest-5mib 20 64 "gl900 $lim/bigman 0 0 5242880 bytes: the limit \`image-json-size\` \(4MiB\)" "$lim/bigman"
  # a 1 MB tag (ref.name): dropped with a GL900 saying so; the image is still linted
  wrap big-tag=1048576 "$lim/bigtag" "$img/base.tar.gz"
  lint tag-1mb 20 64 "gl900 $lim/bigtag 0 0 a tag of 1048576 bytes, dropped: the limit \`name-length\` -- has GL201 $lim/bigtag CUDA.12\.4\.1 -- maxlen 2000" "$lim/bigtag"
  # a layer with a 100 512-byte path (GNU tar: 500 nested directories of 200 bytes)
  mkdir -p "$lim/long/usr/bin" && echo smi > "$lim/long/usr/bin/nvidia-smi"
  ( cd "$lim/long" && d=$(head -c 200 /dev/zero | tr '\0' d) &&
    for i in $(seq 500); do mkdir "$d" && cd "$d" || exit 1; done && echo smi > nvidia-smi ) ||
    fail "making the long path"
  mklayer "$lim/long" "$lim/long.tar" && gzip -c "$lim/long.tar" > "$lim/long.tar.gz"
  rm -rf "$lim/long" "$lim/long.tar"
  wrap ok "$lim/longname" "$lim/long.tar.gz"
  lint path-100k 20 64 "gl900 $lim/longname 0 0 platform linux/amd64: layer .*entry [0-9]+ \(\`[./]*d+\.\.\. \([0-9]+ bytes\)\`\): a name of [0-9]+ bytes: the limit \`name-length\` \(4KiB\) -- maxlen 2000" "$lim/longname"

  # blobs no manifest names are never read: 6 JSON-looking 15 MiB blobs (the old catalog
  # kept every one in memory) and a sparse 16 GiB zero blob (tar -S) beside an image
  mkdir -p "$lim/unref" && tar -C "$lim/unref" -xf "$img/oci-archive.tar"
  for i in 1 2 3 4 5 6; do
    { printf '{"x":"'; head -c 15M /dev/zero | tr '\0' x; printf '"}'; } > "$lim/unref/blobs/sha256/junk$i"
  done
  truncate -s 16G "$lim/unref/blobs/sha256/zeros"
  tar -S -C "$lim/unref" -cf "$lim/unref.tar" . && rm -rf "$lim/unref"
  lint unreferenced-blobs 10 64 "clean $lim/unref.tar -- rss 64" "$lim/unref.tar"
  # What the catalog keeps of each outer entry (its name; in a stream, a JSON document of up
  # to image-json-size) stops at the doc's parse-memory, whatever the count of entries:
  # 16,000 entries of 3,900-byte names (bsdtar from an mtree spec: no files on disk) took
  # 70 MB; twenty unreferenced 4 MB JSON blobs in a .tar.gz (kept as the stream passed,
  # since a manifest may come last) 84 MB, both then a GL900 blaming the config's history
  mkdir -p "$lim/cat" && tar -C "$lim/cat" -xf "$img/oci-archive.tar"
  pad=$(deep 3900 d)
  { echo '#mtree'; for i in $(seq 16000); do echo "./junk/$pad$i type=file size=0"; done; } > "$lim/long.mtree"
  (cd "$lim/cat" && bsdtar -cf "$lim/catnames.tar" index.json oci-layout blobs "@$lim/long.mtree")
  lint catalog-names 30 256 "gl900 $lim/catnames.tar 0 0 entry [0-9]+ of the archive: the names and documents of its entries are too many, stopped: the limit \`parse-memory\` -- rss 64" "$lim/catnames.tar"
  rm -f "$lim/catnames.tar" "$lim/long.mtree"
  for i in $(seq 20); do
    { printf '{"x":"'; deep 4000000 x; printf '"}'; } > "$lim/cat/blobs/sha256/$(printf '%064d' "$i")"
  done
  (cd "$lim/cat" && tar -cf - blobs index.json oci-layout) | gzip -1 > "$lim/catjson.tar.gz"
  lint catalog-stream-json 30 256 "gl900 $lim/catjson.tar.gz 0 0 entry [0-9]+ of the archive: the names and documents of its entries are too many, stopped: the limit \`parse-memory\` -- rss 64" "$lim/catjson.tar.gz"
  rm -rf "$lim/cat" "$lim/catjson.tar.gz"

  # an OCI layout must never be read outside its directory. Outside it: an image whose
  # layer says CUDA 12.6.3 and holds usr/bin/nvidia-smi (findings if it were read).
  out=$lim/outside; mkdir -p "$out/src/usr/local/cuda-12.6" "$out/src/usr/bin"
  echo '{"cuda":{"version":"12.6.3"}}' > "$out/src/usr/local/cuda-12.6/version.json"
  echo smi > "$out/src/usr/bin/nvidia-smi"
  mklayer "$out/src" "$out/layer.tar"
  wrap ok "$out/img" "$out/layer.tar"
  planted='absent 12\.6\.3 -- absent nvidia-smi'
  obl=$(ls "$out/img/blobs/sha256")
  # index.json naming ../ and absolute paths as digests
  mkdir -p "$lim/dotdot/blobs/sha256" && cp "$out/img/oci-layout" "$lim/dotdot/"
  idx=$(python3 -c 'import json,sys; m=json.load(open(sys.argv[1]))["manifests"][0]; print(m["digest"][7:])' "$out/img/index.json")
  printf '{"schemaVersion":2,"manifests":[{"mediaType":"application/vnd.oci.image.manifest.v1+json","digest":"sha256:../../outside/img/blobs/sha256/%s","size":1},{"mediaType":"application/vnd.oci.image.manifest.v1+json","digest":"sha256:%s/img/blobs/sha256/%s","size":1}]}' \
    "$idx" "$out" "$idx" > "$lim/dotdot/index.json"
  lint layout-index-dotdot 20 64 "gl900 $lim/dotdot 0 0 index.json manifests\[[01]\]: no valid \`digest\` -- $planted" "$lim/dotdot"
  # a layout (docker save >= 25 writes manifest.json too) whose manifest.json names ../
  mkdir -p "$lim/dotdot2" && cp -r "$img/oci/oci-layout" "$lim/dotdot2/"
  cfgblob=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["config"]["digest"][7:])' "$out/img/blobs/sha256/$idx")
  lblob=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["layers"][0]["digest"][7:])' "$out/img/blobs/sha256/$idx")
  printf '[{"Config":"../outside/img/blobs/sha256/%s","RepoTags":["x:1"],"Layers":["../outside/img/blobs/sha256/%s"]}]' \
    "$cfgblob" "$lblob" > "$lim/dotdot2/manifest.json"
  lint layout-manifest-dotdot 20 64 "gl900 $lim/dotdot2 0 0 config \`../outside/img/blobs/sha256/[0-9a-f]+\`: the archive lacks it -- $planted" "$lim/dotdot2"
  # blobs/sha256 a symlink to the outside image's blobs; a blob that is a symlink out
  mkdir -p "$lim/symdir/blobs" && cp "$out/img/index.json" "$out/img/oci-layout" "$lim/symdir/"
  ln -s "$out/img/blobs/sha256" "$lim/symdir/blobs/sha256"
  lint layout-symlinked-dir 20 64 "gl900 $lim/symdir 0 0 names blob \`blobs/sha256/$idx\`, which the archive lacks -- $planted" "$lim/symdir"
  mkdir -p "$lim/symblob" && cp -r "$out/img/." "$lim/symblob/"
  ln -sf "$out/img/blobs/sha256/$lblob" "$lim/symblob/blobs/sha256/$lblob"
  lint layout-symlinked-blob 20 64 "gl900 $lim/symblob 0 0 layer \`blobs/sha256/$lblob\`, which the archive lacks -- $planted" "$lim/symblob"
  [ -n "$obl" ] || fail "the outside image has no blobs"

  # one broken platform of two: its GL900 alone; the healthy one's findings stay
  mkdir -p "$lim/arm/etc" && echo arm > "$lim/arm/etc/arm-only"
  mklayer "$lim/arm" "$lim/arm.tar" && gzip -c "$lim/arm.tar" > "$lim/arm.tar.gz"
  armdig=$(sha256sum "$lim/arm.tar.gz" | cut -c1-64)
  wrap two-platform "$lim/two-missing" "$img/base.tar.gz" "$lim/arm.tar.gz"
  rm "$lim/two-missing/blobs/sha256/$armdig"
  lint platform-layer-missing 20 64 "gl900 $lim/two-missing 0 0 platform linux/arm64: the manifest names layer \`blobs/sha256/$armdig\`, which the archive lacks -- count GL900 $lim/two-missing 1 -- has GL201 $lim/two-missing CUDA.12\.4\.1" "$lim/two-missing"
  wrap two-platform "$lim/two-corrupt" "$img/base.tar.gz" "$lim/arm.tar.gz"
  head -c 100 "$lim/arm.tar.gz" > "$lim/two-corrupt/blobs/sha256/$armdig"
  tar -C "$lim/two-corrupt" -cf "$lim/two-corrupt.tar" .
  lint platform-layer-corrupt 20 64 "gl900 $lim/two-corrupt.tar 0 0 platform linux/arm64: layer \`blobs/sha256/$armdig\` \(archive entry [0-9]+\): -- count GL900 $lim/two-corrupt.tar 1 -- has GL201 $lim/two-corrupt.tar CUDA.12\.4\.1" "$lim/two-corrupt.tar"

  # millions of tiny entries (bsdtar from an mtree spec: no files on disk). The limits
  # stop the reading where they are reached; memory stays that of the entries kept.
  entries() { # entries PREFIX N OUT: a gzip layer of N empty directories PREFIX/<i>
    python3 -c 'import sys
p, n = sys.argv[1], int(sys.argv[2])
sys.stdout.write("#mtree\n" + "".join(f"{p}/{i} type=dir mode=0755 uid=0 gid=0 time=0\n" for i in range(n)))' "$1" "$2" |
      bsdtar -cf - @- | gzip -1 > "$3"
  }
  entries d 1000000 "$lim/1m.tar.gz"
  wrap ok "$lim/many" "$lim/1m.tar.gz"
  lint layer-entries-1m 30 256 "gl900 $lim/many 0 0 platform linux/amd64: layer .*entry 100001: one entry too many, stopped: the limit \`layer-entries\` \(100000\) -- rss 64" \
    --limit layer-entries=100000 "$lim/many"
  entries a 150000 "$lim/a.tar.gz"; entries b 150000 "$lim/b.tar.gz"
  wrap ok "$lim/wide" "$lim/a.tar.gz" "$lim/b.tar.gz"
  lint image-files-300k 30 256 "gl900 $lim/wide 0 0 platform linux/amd64: its files \(merged from 2 layers\) are too many, stopped: the limit \`image-files\` \(100000\) -- rss 64" \
    --limit image-files=100000 --limit image-memory=1GiB "$lim/wide"
  # at the defaults the image budget (image-memory, 32 MiB) stops both first: under 64 MB
  lint image-memory-wide 30 256 "gl900 $lim/wide 0 0 platform linux/amd64: .*the limit \`image-memory\` \(32MiB\) -- rss 64" \
    "$lim/wide"
  lint image-memory-layer 30 256 "gl900 $lim/many 0 0 platform linux/amd64: layer .*the limit \`image-memory\` \(32MiB\) -- rss 64" \
    "$lim/many"
  rm -rf "$lim"
fi

# ================= nothing written outside the cache dir =================
# gpulint's HOME, TMPDIR and working directory must hold nothing new (the cache is
# elsewhere). In /tmp and the repo, where other tests and people work meanwhile, look
# for what only an extracted hostile entry would create.
new=$(find "$HOME" "$TMPDIR" "$work/cwd" -mindepth 1 2>/dev/null | head -5)
[ -z "$new" ] && echo "ok nothing in HOME, TMPDIR or the working directory" ||
  fail "gpulint wrote: $new"
escaped=$(find /tmp "$here" -xdev -newer "$work/stamp" ! -path '/tmp/gpulint-*/*' ! -path "$here/build*" \
  \( -name 'gpulint-escape' -o -name 'evil' -o -name 'nvidia-smi' -o -name 'zeros' \
     -o -name 'dup' -o -name 'hostname' -o -name 'loop-*' \) -print 2>/dev/null | head -5)
[ -z "$escaped" ] && echo "ok no archive content written to /tmp or the repo" ||
  fail "archive content written outside the cache dir: $escaped"
[ -d "$XDG_CACHE_HOME" ] && echo "  (cache dir: $(find "$XDG_CACHE_HOME" -type f | wc -l) files)"

echo "hostile: $fails failure(s)"
[ $fails = 0 ]
