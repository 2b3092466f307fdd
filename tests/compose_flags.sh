#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# compose_flags.sh: gpulint's `docker compose` option tables (parsers/launch/launch_compose.c:
# compose_global_flags, compose_run_flags) against the docker-compose installed here
# (Debian's docker-compose, compose v1: `docker-compose --help` and `docker-compose run
# --help`, docopt text). Every option its help lists must be in the table with the same
# arity (takes a value or not) and its shorthand (the table may give one v1 lacks: v2's
# `-P, --service-ports`); an option given only by its shorthand (`-e KEY=VAL`, `-T`) must
# be a table entry with that shorthand and arity. The table's v2 options beyond v1 are not
# checked here (no compose v2 in Debian 12).
# $1 (the gpulint binary) is not needed: the tables are read from their source file.
# Exit 77 (skipped) when docker-compose is not installed.
set -u
here=$(cd "$(dirname "$0")/.." && pwd)
src="$here/parsers/launch/launch_compose.c"
command -v docker-compose >/dev/null 2>&1 || { echo "docker-compose not installed: skipped"; exit 77; }

# options_of TEXT: the "Options:" block of a docopt help, each option as
# "long short arity" (long "-" for a shorthand alone, short "-" for none)
options_of() {
  printf '%s\n' "$1" | sed -n '/^Options:/,/^Commands:/p' |
    sed -nE 's/^ {2,}(-([a-zA-Z])(, |([ =])([^ ]+))?)?(--([a-zA-Z0-9-]+)([ =]([^ ]+))?)?( {2,}.*|$)/\7|\2|\5\9/p' |
    awk -F'|' '$1 != "" || $2 != "" {
      long = $1 == "" ? "-" : $1; short = $2 == "" ? "-" : $2
      print long, short, ($3 == "" ? "bool" : "value") }' | sort
}
# table_of NAME: the rows of array NAME in the source, as "long short arity"
table_of() {
  sed -n "/^static const struct gl_cli_flag $1\\[\\] = {/,/^};/p" "$src" |
    sed -nE "s/^ *\{\"([a-zA-Z0-9-]+)\", ('(.)'|0), ([VB]), O\},.*/\1 \3 \4/p" |
    awk '{ if (NF == 2) print $1, "-", ($2 == "V" ? "value" : "bool");
           else print $1, $2, ($3 == "V" ? "value" : "bool") }' | sort
}

fail=0
check() { # check WHAT HELP_TEXT TABLE_NAME
  local from_help from_table report n
  from_help=$(options_of "$2")
  from_table=$(table_of "$3")
  [ -n "$from_help" ] || { echo "could not read the options of $1"; fail=1; return; }
  [ -n "$from_table" ] || { echo "could not read $3 in $src"; fail=1; return; }
  report=$(awk 'NR == FNR { long[$1] = 1; short[$1] = $2; arity[$1] = $3
                            if ($2 != "-") { by_short[$2] = $1; short_arity[$2] = $3 }
                            next }
                $1 == "-" { if (!($2 in by_short)) printf "MISSING from the table: -%s (%s)\n", $2, $3
                            else if (short_arity[$2] != $3) printf "DIFFERS: -%s: help says %s, the table %s\n", $2, $3, short_arity[$2]
                            next }
                !($1 in long) { printf "MISSING from the table: --%s (short %s, %s)\n", $1, $2, $3; next }
                ($2 != "-" && short[$1] != $2) || arity[$1] != $3 {
                  printf "DIFFERS: --%s: help says short %s %s, the table short %s %s\n", $1, $2, $3, short[$1], arity[$1] }' \
           <(printf '%s\n' "$from_table") <(printf '%s\n' "$from_help"))
  n=$(printf '%s\n' "$from_help" | wc -l)
  if [ -n "$report" ]; then printf '%s: %s\n' "$1" "$report"; fail=1
  else echo "ok: $n options of $1 match $3"; fi
}
check "docker-compose --help" "$(docker-compose --help 2>&1)" compose_global_flags
check "docker-compose run --help" "$(docker-compose run --help 2>&1)" compose_run_flags
exit $fail
