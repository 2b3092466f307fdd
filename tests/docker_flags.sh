#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# docker_flags.sh: the `docker run` option table (parsers/shell/docker_run_flags.c) against the
# docker CLI installed here. Every option `docker run --help` lists must be in the table
# with the same shorthand and the same arity (takes a value or not); entries the table
# has beyond this docker (older or newer CLIs, hidden aliases, podman) are only listed.
# $1 (the gpulint binary) is not needed: the table is read from its source file.
# Exit 77 (skipped) when docker is not installed.
set -u
here=$(cd "$(dirname "$0")/.." && pwd)
table="$here/parsers/shell/docker_run_flags.c"
command -v docker >/dev/null 2>&1 || { echo "docker not installed: skipped"; exit 77; }
help=$(docker run --help 2>/dev/null) || { echo "docker run --help failed: skipped"; exit 77; }

# help lines: "  -v, --volume list   Bind ..." or "      --rm   Automatically ..."
# -> "name short arity" with short "-" when none
from_help=$(printf '%s\n' "$help" |
  sed -nE 's/^ +(-([a-zA-Z]), )?--([a-z0-9-]+)( ([a-z0-9-]+))?( {2,}.*|$)/\3 \2 \5/p' |
  awk '{ short = "-"; arity = "bool";
         if (NF == 3) { short = $2; arity = "value" }
         else if (NF == 2 && length($2) == 1) { short = $2 }
         else if (NF == 2) { arity = "value" }
         print $1, short, arity }' | sort)
[ -n "$from_help" ] || { echo "could not read docker run --help"; exit 1; }

# table lines: {"name", 's', GL_FLAG_VALUE, GL_FLAG_DOCKER},
from_table=$(sed -nE "s/^ *\{\"([a-z0-9-]+)\", ('(.)'|0), GL_FLAG_(VALUE|BOOL), GL_FLAG_([A-Z_]+)\},.*/\1 \3 \4 \5/p" "$table" |
  awk '{ if (NF == 3) print $1, "-", tolower($2), $3; else print $1, $2, tolower($3), $4 }' | sort)
[ -n "$from_table" ] || { echo "could not read $table"; exit 1; }

fail=0
# one awk pass: the help rows first (file 1), then the table rows (file 2)
report=$(awk 'NR == FNR { short[$1] = $2; arity[$1] = $3; next }
              { seen[$1] = 1
                if ($1 in arity) {
                  if (short[$1] != $2 || arity[$1] != $3)
                    printf "DIFFERS: --%s docker says short %s %s, the table says short %s %s\n", $1, short[$1], arity[$1], $2, $3
                } else if ($4 == "DOCKER") printf "note: --%s is in the table but not in this docker help\n", $1 }
              END { for (n in arity) if (!(n in seen)) printf "MISSING from the table: --%s (short %s, %s)\n", n, short[n], arity[n] }' \
         <(printf '%s\n' "$from_help") <(printf '%s\n' "$from_table"))
[ -n "$report" ] && printf '%s\n' "$report"
printf '%s\n' "$report" | grep -q -e '^DIFFERS' -e '^MISSING' && fail=1
n=$(printf '%s\n' "$from_help" | wc -l)
[ $fail = 0 ] && echo "ok: $n docker run options match the table"
exit $fail
