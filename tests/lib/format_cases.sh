# SPDX-License-Identifier: Apache-2.0
# Sourced by tests/sarif.sh, checkstyle.sh, gitlab.sh: the inputs every report format is
# tried on, each linted twice (as FORMAT and as JSON) so the report can be checked
# against the JSON findings by tests/lib/report_check.py.
#
#   format_cases_run BIN FORMAT VALIDATE_FN
#
# For each case: $work/<case>.<FORMAT> and $work/<case>.json are written, then
# report_check.py and VALIDATE_FN <report file> run. Sets format_cases_failed to the
# number of failed checks and prints one line per case.

format_cases_setup() {
  work=$(mktemp -d)
  local src=$1
  mkdir -p "$work/in/odd dir ü&<>%" "$work/in/tree/a" "$work/in/tree/b"
  cp "$src/fixtures/formats/Dockerfile.all-severities" "$work/in/"
  # names needing escapes in XML and percent-encoding in URIs
  printf 'FROM python:latest\n' > "$work/in/odd dir ü&<>%/Docker file #1"
  # a message holding a control byte, XML specials and invalid UTF-8
  printf 'FROM python:3.11-slim\nCOPY "we\001ird&<\"x\">\377.pt" /d/\n' > "$work/in/hostile.Dockerfile"
  printf 'FROM python:3.11-slim\nRUN pip install flask\n' > "$work/in/clean.Dockerfile"
  printf 'FROM python:latest\n' > "$work/in/tree/a/Dockerfile"
  printf 'FROM nvidia/cuda\nRUN apt-get install -y gcc\n' > "$work/in/tree/b/Dockerfile"
}

# case name, then the arguments after `--format X` (run inside $work/in)
format_cases_list() {
  cat <<'LIST'
all-severities|--enable GL103 Dockerfile.all-severities
odd-names|./odd dir ü&<>%/Docker file #1
hostile|hostile.Dockerfile
clean|clean.Dockerfile
tree|--enable GL103 tree
absolute|@ABS@/tree/a/Dockerfile
LIST
}

format_cases_run() {
  local bin=$1 fmt=$2 validate=$3 here
  here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
  format_cases_setup "$here/../.."
  format_cases_failed=0
  local name args
  while IFS='|' read -r name args; do
    args=${args//@ABS@/$work/in}
    local -a argv
    if [ "$name" = odd-names ]; then argv=("$args"); else read -r -a argv <<< "$args"; fi
    (cd "$work/in" && "$bin" --format "$fmt" "${argv[@]}") > "$work/$name.$fmt"
    local rc=$?
    (cd "$work/in" && "$bin" --format json "${argv[@]}") > "$work/$name.json"
    if [ $rc -gt 1 ]; then
      echo "FAIL $name: gpulint --format $fmt exited $rc"; format_cases_failed=$((format_cases_failed+1)); continue
    fi
    if ! python3 "$here/report_check.py" "$fmt" "$work/$name.$fmt" "$work/$name.json"; then
      echo "FAIL $name: $fmt report does not match the JSON findings"
      format_cases_failed=$((format_cases_failed+1)); continue
    fi
    if ! "$validate" "$work/$name.$fmt"; then
      echo "FAIL $name: $fmt report invalid"; format_cases_failed=$((format_cases_failed+1)); continue
    fi
    echo "ok   $name ($(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1], errors="surrogateescape"))["findings"]))' "$work/$name.json") findings)"
  done < <(format_cases_list)
}

format_cases_cleanup() { rm -rf "$work"; }
