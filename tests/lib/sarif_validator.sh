# SPDX-License-Identifier: Apache-2.0
# Sourced by the tests: locate Microsoft's SARIF validator (npm @microsoft/sarif-multitool,
# installed by bootstrap.sh into $GPULINT_TOOLS_DIR, default ~/.cache/gpulint-tools).
#
# sarif_validator_find   sets $sarif_validator to the self-contained Linux binary the npm
#                        package ships (its bin.js wrapper runs it through a shell, which
#                        splits "Sarif;Gh" at the `;`, so the binary is called directly);
#                        returns 1 when it is not installed or cannot run here.
# sarif_validate FILE    runs it with the SARIF and GitHub rule kinds, prints its report,
#                        and fails unless it reports zero errors and zero warnings.

sarif_validator_find() {
  local tools=${GPULINT_TOOLS_DIR:-${HOME:-/root}/.cache/gpulint-tools}
  sarif_validator=${SARIF_MULTITOOL:-$tools/node_modules/@microsoft/sarif-multitool-linux/Sarif.Multitool}
  [ -f "$sarif_validator" ] || return 1
  [ -x "$sarif_validator" ] || chmod u+x "$sarif_validator" 2>/dev/null || return 1
  "$sarif_validator" --version >/dev/null 2>&1
}

sarif_validate() {
  local file=$1 log out
  log=$(mktemp)
  case $file in
    *.sarif) ;;
    *) echo "sarif_validate: $file: the validator only reads files named *.sarif"; return 1 ;;
  esac
  # DOTNET_CLI_TELEMETRY_OPTOUT: no phoning home; notes (level Note) are advice, not faults
  if ! out=$(DOTNET_CLI_TELEMETRY_OPTOUT=1 "$sarif_validator" validate --rule-kind "Sarif;Gh" \
       --level "Error;Warning" --log ForceOverwrite -o "$log" "$file" 2>&1); then
    echo "$out"; echo "validator failed to run on $file"; rm -f "$log"; return 1
  fi
  echo "$out" | grep -vE '^(Analyzing\.\.\.|THREADS: [0-9]+|)$'
  # it skips, with exit 0, what it does not take for SARIF: make sure it read the file
  if ! grep -q '1 files scanned' <<< "$out" || grep -q 'skipped entirely' <<< "$out"; then
    echo "validator did not analyse $file"; rm -f "$log"; return 1
  fi
  # count what it found from its own SARIF log (a result without level is a warning)
  local bad
  bad=$(python3 -c '
import json, sys
runs = json.load(open(sys.argv[1])).get("runs", [])
print(sum(1 for r in runs for x in r.get("results", []) if x.get("level", "warning") in ("error", "warning")))
' "$log")
  rm -f "$log"
  if [ "$bad" != 0 ]; then echo "validator: $bad errors/warnings in $file"; return 1; fi
  echo "validator: $file: 0 errors, 0 warnings"
}
