#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# slurm_options.sh: the sbatch/srun/salloc option table (parsers/launch/hpc/slurm_opts.c) against
# the slurm-client installed here. For each command, every option its `--help` lists must
# be in the table for that command, with the same shorthand and the same arity (takes a
# value or not; an optional `[=value]` counts as none). Entries beyond this client (newer
# Slurm, pyxis) are only counted. $1 (the gpulint binary) is not needed: the table is read
# from its source file. Exit 77 (skipped) when slurm-client is not installed.
set -u
here=$(cd "$(dirname "$0")/.." && pwd)
table="$here/parsers/launch/hpc/slurm_opts.c"
for c in sbatch srun salloc; do
  command -v $c >/dev/null 2>&1 || { echo "$c not installed (Debian slurm-client): skipped"; exit 77; }
done
# --help needs a configuration to read, not a controller: a minimal one of our own
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
printf 'ClusterName=gpulint\nSlurmctldHost=localhost\n' >"$tmp/slurm.conf"

# The help prints these without the `=value` they require (Slurm's opt.c has
# required_argument for both): name -> commands
declare -A misprinted=([container]="sbatch srun salloc" [wrap]="sbatch")

# table lines: {"name", 's', SB | SR | SA, SR},  ->  "name short in value"
from_table=$(sed -nE "s/^ *\{\"([a-z0-9-]+)\", ('(.)'|0), ([A-Z |]+), ([A-Z0 |]+)\},.*/\1 \3 \4 \5/p" "$table" |
  sed -E 's/ \| /|/g' | awk '{ if (NF == 3) print $1, "-", $2, $3; else print $1, $2, $3, $4 }')
[ -n "$from_table" ] || { echo "could not read $table"; exit 1; }

fail=0 total=0
for c in sbatch srun salloc; do
  case $c in sbatch) bit=SB ;; srun) bit=SR ;; salloc) bit=SA ;; esac
  help=$(SLURM_CONF="$tmp/slurm.conf" $c --help 2>&1) || { echo "$c --help failed: $help"; exit 1; }
  # option lines start within 6 blanks: "  -N, --nodes=N ...", "      --gres=list ...",
  # "  -B  --extra-node-info=..."; deeper lines continue a description
  rows=$(printf '%s\n' "$help" | grep -E '^ {1,6}-' |
    sed -nE 's/^ +(-([a-zA-Z]),? +)?--([a-z0-9-]+)(\[=|=)?.*/\3 \2 \4/p' |
    awk '{ short = "-"; arity = "bool"
           if (NF == 3) { short = $2; if ($3 == "=") arity = "value" }
           else if (NF == 2) { if ($2 == "=") arity = "value"; else if ($2 != "[=") short = $2 }
           print $1, short, arity }' | sort -u)
  [ -n "$rows" ] || { echo "could not read $c --help"; exit 1; }
  while read -r name short arity; do
    total=$((total + 1))
    case " ${misprinted[$name]:-} " in *" $c "*) arity=value ;; esac
    row=$(printf '%s\n' "$from_table" | awk -v n="$name" -v b="$bit" '
      $1 == n { split($3, in_, "|"); for (i in in_) if (in_[i] == b || in_[i] == "PX") {
                  v = "bool"; split($4, val, "|"); for (j in val) if (val[j] == b || val[j] == "PX") v = "value"
                  print $2, v; exit } }')
    if [ -z "$row" ]; then
      echo "MISSING from the table for $c: --$name (short $short, $arity)"; fail=1
    elif [ "$row" != "$short $arity" ]; then
      echo "DIFFERS for $c: --$name: help says short $short $arity, the table says $row"; fail=1
    fi
  done <<<"$rows"
done
[ $fail = 0 ] && echo "ok: $total sbatch/srun/salloc options match the table"
exit $fail
