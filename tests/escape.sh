#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# tests/escape.sh GPULINT: bytes from inputs never reach a terminal raw, the machine
# reports stay valid whatever the inputs hold, and a report that cannot be written exits 2.
#
# Inputs (made here): an ENV value with an OSC title sequence, a file whose name holds ESC
# and CR, FROM tags with a colour sequence and a bidi override, a COPY of a data path with
# OSC, an isolate, C1 CSI, DEL and an invalid byte, an inline ignore with a bidi override,
# a docker run line with escapes in --gpus and --data, an OCI image whose layer holds an
# entry named with ESC, BEL, RLO and an invalid byte. Asserted (linter/core/escape.h):
#   - tty (--no-color, and in colour on a pty): no byte < 0x20 but \n, no DEL, no C1, no
#     bidi character, valid UTF-8, the escapes visible; in colour only the reporter's own
#     SGR sequences; the same for stderr lines quoting an input, for --print-config
#     (values from the config file and the command line; read back by --config) and for
#     --print-knowledge (values from a --knowledge file);
#   - JSON, SARIF, GitLab parse as strict UTF-8 JSON and give back the exact values
#     (invalid bytes as U+FFFD); checkstyle is well-formed XML (xmllint when installed,
#     and python's xml.etree); all agree with the JSON findings (tests/lib/report_check.py);
#     none holds a raw control or bidi byte;
#   - write errors: -o /dev/full, >/dev/full, >&-, a reader that exits early (`| head -c1`
#     on a large report: SIGPIPE is ignored, EPIPE is a write error) all exit 2 with
#     `gpulint: cannot write the report to WHERE: REASON`.
set -uo pipefail
bin=$(realpath "${1:?usage: tests/escape.sh path/to/gpulint}")
cd "$(dirname "$0")/.."
here=$PWD
command -v python3 >/dev/null || { echo "skip: python3 missing"; exit 77; }
pass=0 fail=0
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
ok() { pass=$((pass+1)); }
bad() { echo "FAIL $*"; fail=$((fail+1)); }

# ---- hostile inputs ----
in=$tmp/in; mkdir -p "$in"
printf 'FROM nvidia/cuda:12.4.1-runtime-ubuntu22.04\nENV NVIDIA_DRIVER_CAPABILITIES=util\033]0;pwn\007ity\n' \
  > "$in/env.Dockerfile"
badname=$(printf 'we\033[31mird\rname.Dockerfile')
printf 'FROM nvidia/cuda\n' > "$in/$badname"
printf 'FROM ubuntu:lat\033[31mest\nFROM nvidia/cuda:12.4.1\342\200\256-runtime-ubuntu22.04\n' > "$in/tag.Dockerfile"
printf 'FROM python:3.11-slim\n# gpulint ignore=GL1\342\200\25601\nCOPY "data/x\033]0;pwn\007\342\201\246\302\233\177\377y.ckpt" /d/\n' \
  > "$in/copy.Dockerfile"
printf 'docker run --gpus "\033[31mall\342\200\256" nvidia/cuda:12.4.1-runtime-ubuntu22.04 python t.py --data "/d\033[2J"\n' \
  > "$in/run.sh"
python3 - "$tmp/layer.tar" <<'PY'
import io, sys, tarfile
name = b"data/w\x1b]0;pwn\x07\xe2\x80\xae\xff.safetensors".decode("utf-8", "surrogateescape")
with tarfile.open(sys.argv[1], "w", format=tarfile.PAX_FORMAT, encoding="utf-8",
                  errors="surrogateescape") as t:
    ti = tarfile.TarInfo(name)
    ti.size = 64
    t.addfile(ti, io.BytesIO(b"x" * 64))
PY
python3 tests/hostile/oci_layout.py ok "$in/oci" "$tmp/layer.tar" || bad "oci_layout.py"
printf 'data-file-size: 16\n' > "$in/.gpulint.yaml"   # the 64-byte entry is data
inputs=(env.Dockerfile "$badname" tag.Dockerfile copy.Dockerfile run.sh oci)
lint() { (cd "$in" && "$bin" --driver 535 "$@" "${inputs[@]}"); }

# clean_text FILE [colour]: valid UTF-8 with no raw C0 but \n, no DEL, C1 or bidi; in
# colour the reporter's SGR sequences (and the pty's \r\n) are taken out first.
clean_text() {
  python3 - "$@" <<'PY'
import re, sys
data = open(sys.argv[1], "rb").read()
if len(sys.argv) > 2:
    data = re.sub(rb"\x1b\[[0-9;]*m", b"", data.replace(b"\r\n", b"\n"))
try:
    text = data.decode("utf-8")
except UnicodeDecodeError as e:
    sys.exit(f"{sys.argv[1]}: not UTF-8: {e}")
bidi = set(range(0x202A, 0x202F)) | set(range(0x2066, 0x206A)) | {0x200E, 0x200F, 0x061C, 0x2028, 0x2029}
for i, ch in enumerate(text):
    c = ord(ch)
    if (c < 0x20 and ch != "\n") or 0x7F <= c <= 0x9F or c in bidi:
        sys.exit(f"{sys.argv[1]}: raw U+{c:04X} at {i}: {text[max(0, i - 30):i + 10]!r}")
PY
}
has() { # has NAME FILE TEXT: FILE holds TEXT (bytes, fixed string)
  if grep -qF -- "$3" "$2"; then ok; else bad "$1: lacks $3"; head -c 2000 "$2"; echo; fi
}

# ---- tty ----
lint --no-color > "$tmp/tty" 2> "$tmp/tty.err"; rc=$?
[ $rc = 1 ] && ok || bad "tty: exit $rc, expected 1"
clean_text "$tmp/tty" && ok || bad "tty report holds raw control bytes"
has "tty env value" "$tmp/tty" 'NVIDIA_DRIVER_CAPABILITIES=util\x1b]0;pwn\x07ity has no `compute`'
has "tty file name" "$tmp/tty" 'we\x1b[31mird\x0dname.Dockerfile:1:6: error: '
# (the Dockerfile reader already made the invalid byte U+FFFD; the image entry keeps it)
has "tty COPY path" "$tmp/tty" 'data/x\x1b]0;pwn\x07\u2066\u009b\x7f�y.ckpt'
has "tty inline ignore" "$tmp/tty" 'GL1\u202e01'
has "tty --gpus" "$tmp/tty" 'GPU request `\x1b[31mall\u202e`'
has "tty image entry" "$tmp/tty" '/data/w\x1b]0;pwn\x07\u202e\xff.safetensors'
has "tty valid UTF-8 kept" "$tmp/tty" 'needs driver ≥ 550.54.15'
# in colour, on a pty: only the reporter's own SGR sequences
if command -v script >/dev/null; then
  (cd "$in" && env -u NO_COLOR CI=false SHELL="$BASH" script -qec \
    "$(printf '%q ' "$bin" --driver 535 "${inputs[@]}")" /dev/null) > "$tmp/color" 2>&1
  grep -q $'\033\\[1;31merror' "$tmp/color" && ok || bad "colour: no SGR from the reporter"
  clean_text "$tmp/color" colour && ok || bad "colour tty report holds raw control bytes"
  has "colour file name" "$tmp/color" 'we\x1b[31mird\x0dname.Dockerfile'
fi

# ---- stderr lines quoting an input ----
(cd "$in" && "$bin" "$(printf 'no\033]0;pwn\007such\r\342\200\256')" \
  --target "$(printf 'st\033[2Jage')" env.Dockerfile) > /dev/null 2> "$tmp/err"; rc=$?
[ $rc = 2 ] && ok || bad "missing path: exit $rc, expected 2"
clean_text "$tmp/err" && ok || bad "stderr holds raw control bytes"
has "stderr path" "$tmp/err" 'gpulint: no\x1b]0;pwn\x07such\x0d\u202e: No such file or directory'
has "stderr --target" "$tmp/err" '--target st\x1b[2Jage: no such stage'
"$bin" --format "$(printf 'js\033[2Jon')" . > /dev/null 2> "$tmp/err"
clean_text "$tmp/err" && ok || bad "usage error holds raw control bytes"
has "stderr --format" "$tmp/err" 'unknown format `js\x1b[2Jon`'

# getopt's messages quote the option too: printed by gpulint, escaped
for opt in "--fo$(printf '\033')]0;x" "-$(printf '\033')" "--no-color=$(printf '\033')" "--no"; do
  "$bin" "$opt" > /dev/null 2>> "$tmp/opterr"; rc=$?
  [ $rc = 2 ] && ok || bad "bad option: exit $rc, expected 2"
done
"$bin" --format > /dev/null 2>> "$tmp/opterr"
clean_text "$tmp/opterr" && ok || bad "an option error holds raw control bytes"
has "unrecognized option" "$tmp/opterr" "gpulint: unrecognized option '--fo\x1b]0;x'"
has "invalid option" "$tmp/opterr" "gpulint: invalid option -- '\x1b'"
has "option with an argument" "$tmp/opterr" "gpulint: option '--no-color=\x1b' doesn't allow an argument"
has "ambiguous option" "$tmp/opterr" "gpulint: option '--no' is ambiguous"
has "missing argument" "$tmp/opterr" "gpulint: option '--format' requires an argument"
has "help hint" "$tmp/opterr" 'Try `gpulint --help`.'

# ---- --print-config: values from the config file and the command line ----
printf 'build-args: {A: "x\\e]0;t\\a\\u202Ey\\x85"}\n' > "$tmp/pc.yaml"
"$bin" --config "$tmp/pc.yaml" --print-config --output "$(printf 'r\033[2J')" \
  --build-arg "$(printf 'B=q\033[2J\377')" > "$tmp/pc" 2>&1
clean_text "$tmp/pc" && ok || bad "--print-config holds raw control bytes"
has "print-config value" "$tmp/pc" "'A': \"x\\x1b]0;t\\x07\\u202ey\\u0085\""
has "print-config comment" "$tmp/pc" '--output r\x1b[2J'
# read back: the same value (an invalid byte, which YAML cannot hold, as U+FFFD)
"$bin" --config "$tmp/pc" --print-config > "$tmp/pc2" 2>&1 &&
  diff <(grep "^  'A'" "$tmp/pc") <(grep "^  'A'" "$tmp/pc2") > /dev/null && ok ||
  bad "--print-config output does not read back"

# ---- --print-knowledge: values from a --knowledge file ----
sed 's|note: table lists R535 / R570 / R580|note: "table\\e]0;pwn\\a lists\\u202e\\x9b"|' \
  knowledge/cuda_facts.yaml > "$tmp/kb.yaml"
if cmp -s knowledge/cuda_facts.yaml "$tmp/kb.yaml"; then
  bad "--print-knowledge: the note to rewrite is no longer in cuda_facts.yaml"
else
  "$bin" --knowledge "$tmp/kb.yaml" --print-knowledge > "$tmp/kb" 2>&1
  clean_text "$tmp/kb" && ok || bad "--print-knowledge holds raw control bytes"
  has "print-knowledge value" "$tmp/kb" 'note="table\x1b]0;pwn\x07 lists\u202e\u009b"'
fi

# ---- machine formats ----
lint --format json > "$tmp/r.json"
for fmt in sarif checkstyle gitlab; do
  lint --format $fmt > "$tmp/r.$fmt"
  clean_text "$tmp/r.$fmt" && ok || bad "$fmt report holds raw control bytes"
  python3 tests/lib/report_check.py $fmt "$tmp/r.$fmt" "$tmp/r.json" && ok ||
    bad "$fmt report does not match the JSON findings"
done
clean_text "$tmp/r.json" && ok || bad "json report holds raw control bytes"
if command -v xmllint >/dev/null; then
  xmllint --noout "$tmp/r.checkstyle" && ok || bad "checkstyle: not well-formed XML"
fi
python3 - "$tmp" "$badname" <<'PY' && ok || bad "reports do not carry the exact values"
import json, sys
import xml.etree.ElementTree as ET
tmp, badname = sys.argv[1], sys.argv[2]
d = json.load(open(f"{tmp}/r.json", encoding="utf-8"))
msgs = [f["message"] for f in d["findings"]]
files = {f["file"] for f in d["findings"]}
want = ["NVIDIA_DRIVER_CAPABILITIES=util\x1b]0;pwn\x07ity has no `compute`",
        "data/x\x1b]0;pwn\x07\u2066\u009b\x7f\ufffdy.ckpt",
        "`GL1\u202e01`", "`\x1b[31mall\u202e`", "/data/w\x1b]0;pwn\x07\u202e\ufffd.safetensors"]
for w in want:
    assert any(w in m for m in msgs), f"json: no message holds {w!r}"
assert badname in files, f"json: no file {badname!r} in {files}"
sarif = json.load(open(f"{tmp}/r.sarif", encoding="utf-8"))
texts = [r["message"]["text"] for r in sarif["runs"][0]["results"]]
assert any(want[0] in t for t in texts), "sarif: no exact env value"
gitlab = json.load(open(f"{tmp}/r.gitlab", encoding="utf-8"))
assert any(want[1] in i["description"] for i in gitlab), "gitlab: no exact COPY path"
cs = ET.parse(f"{tmp}/r.checkstyle").getroot()
names = [f.get("name") for f in cs]
assert "we\\x1b[31mird\rname.Dockerfile" in names, f"checkstyle names: {names}"
cmsgs = [e.get("message") for f in cs for e in f]
assert any("util\\x1b]0;pwn\\x07ity" in m for m in cmsgs), "checkstyle: env value"
assert any("\u2066\u009b\x7f\ufffdy.ckpt" in m for m in cmsgs), "checkstyle: COPY path"
PY

# ---- write errors: exit 2 and one line on stderr ----
werr() { # werr NAME EXPECTED-STDERR-LINE COMMAND...: exit 2 with exactly that line
  local name=$1 want=$2; shift 2
  "$@" 2> "$tmp/werr"; local rc=$?
  if [ $rc = 2 ] && [ "$(cat "$tmp/werr")" = "$want" ]; then ok; else
    bad "$name: exit $rc, stderr: $(head -c 300 "$tmp/werr"), expected 2 and: $want"; fi
}
nospace="No space left on device"
for fmt in tty json sarif checkstyle gitlab; do
  werr "-o /dev/full ($fmt)" "gpulint: cannot write the report to /dev/full: $nospace" \
    lint --format $fmt -o /dev/full
  werr ">/dev/full ($fmt)" "gpulint: cannot write the report to standard output: $nospace" \
    bash -c 'cd "$1" && shift && "$@" > /dev/full' _ "$in" "$bin" --format $fmt env.Dockerfile
done
werr ">&-" "gpulint: cannot write the report to standard output: Bad file descriptor" \
  bash -c 'cd "$1" && shift && "$@" >&-' _ "$in" "$bin" env.Dockerfile
"$bin" --failure-threshold none -o "$tmp/o.txt" "$in/env.Dockerfile" >&- 2> /dev/null; rc=$?
[ $rc = 0 ] && [ -s "$tmp/o.txt" ] && ok || bad ">&- with -o FILE: exit $rc, expected 0 and the report"
werr "--print-config >/dev/full" "gpulint: cannot write to standard output: $nospace" \
  bash -c '"$@" > /dev/full' _ "$bin" --print-config
werr "--list-rules >&-" "gpulint: cannot write to standard output: Bad file descriptor" \
  bash -c '"$@" >&-' _ "$bin" --list-rules
werr "--help >/dev/full" "gpulint: cannot write to standard output: $nospace" \
  bash -c '"$@" > /dev/full' _ "$bin" --help
werr "-o name escaped" "gpulint: --output $tmp/no/r\\x1b]0;x\\x07: No such file or directory" \
  "$bin" -o "$tmp/no/$(printf 'r\033]0;x\007')" "$in/env.Dockerfile"
# a reader that goes away: a report far larger than a pipe holds
for i in $(seq 4000); do echo 'FROM nvidia/cuda'; done > "$tmp/big.Dockerfile"
for fmt in tty json; do
  werr "| head -c1 ($fmt)" "gpulint: cannot write the report to standard output: Broken pipe" \
    bash -c '"$@" | head -c1 > /dev/null; exit ${PIPESTATUS[0]}' _ "$bin" --format $fmt "$tmp/big.Dockerfile"
done
# a report that is written stays at exit 1 (findings) / 0
"$bin" -o "$tmp/ok.json" --format json "$in/env.Dockerfile" 2> /dev/null; rc=$?
[ $rc = 1 ] && python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$tmp/ok.json" && ok ||
  bad "-o FILE: exit $rc, expected 1 and a JSON report"

echo "escape: $pass passed, $fail failed"
[ $fail = 0 ]
