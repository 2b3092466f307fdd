#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# --format sarif: every case of tests/lib/format_cases.sh is checked against the JSON
# findings and validated by Microsoft's SARIF validator (rule kinds Sarif and Gh, the
# GitHub code scanning ingestion rules) with zero errors and zero warnings; fingerprints
# survive lines moving. Skips (77) when the validator is not installed (bootstrap.sh
# installs it from npm) or cannot run on this machine.
set -uo pipefail
bin=$(realpath "${1:?usage: sarif.sh path/to/gpulint}")
cd "$(dirname "$0")/.."
. tests/lib/sarif_validator.sh
. tests/lib/format_cases.sh
if ! sarif_validator_find; then
  echo "SKIP: Microsoft's SARIF validator (npm @microsoft/sarif-multitool) is not installed" \
       "or cannot run here: run ./bootstrap.sh, or set SARIF_MULTITOOL to its binary"
  exit 77
fi
trap format_cases_cleanup EXIT

format_cases_run "$bin" sarif sarif_validate
failed=$format_cases_failed passed=$(format_cases_list | wc -l); passed=$((passed - failed))

# Fingerprints depend on what a finding is, not on its line: push every line down.
fingerprints() {
  python3 -c '
import json, sys
for r in json.load(open(sys.argv[1]))["runs"][0]["results"]:
    print(r["ruleId"], r["partialFingerprints"]["gpulint/v1"], r["locations"][0]["physicalLocation"]["region"]["startLine"])
' "$1"
}
cp fixtures/formats/Dockerfile.all-severities "$work/moved"
{ printf '# a comment\n\n\n'; cat fixtures/formats/Dockerfile.all-severities; } > "$work/moved.new"
(cd "$work" && "$bin" --format sarif --enable GL103 moved > before.sarif; mv moved.new moved &&
 "$bin" --format sarif --enable GL103 moved > after.sarif)
if diff <(fingerprints "$work/before.sarif" | cut -d' ' -f1,2 | sort) \
        <(fingerprints "$work/after.sarif" | cut -d' ' -f1,2 | sort) >/dev/null &&
   ! diff <(fingerprints "$work/before.sarif") <(fingerprints "$work/after.sarif") >/dev/null; then
  echo "ok   fingerprints stable when lines move"; passed=$((passed+1))
else
  echo "FAIL fingerprints changed when only lines moved"; failed=$((failed+1))
fi

echo "sarif: $passed passed, $failed failed"
[ "$failed" = 0 ]
