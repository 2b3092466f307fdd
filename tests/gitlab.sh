#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# --format gitlab: every case of tests/lib/format_cases.sh must be a GitLab Code Quality
# array (description, check_name, fingerprint, severity, location.path/lines.begin) with
# the JSON report's findings; fingerprints must be the same on a second run and unique.
set -uo pipefail
bin=$(realpath "${1:?usage: gitlab.sh path/to/gpulint}")
cd "$(dirname "$0")/.."
. tests/lib/format_cases.sh
trap format_cases_cleanup EXIT
strict_json() { python3 -c 'import json,sys; json.load(open(sys.argv[1], encoding="utf-8"))' "$1"; }
format_cases_run "$bin" gitlab strict_json
failed=$format_cases_failed passed=$(( $(format_cases_list | wc -l) - failed ))

(cd "$work/in" && "$bin" --format gitlab --enable GL103 tree Dockerfile.all-severities) > "$work/run1"
(cd "$work/in" && "$bin" --format gitlab --enable GL103 tree Dockerfile.all-severities) > "$work/run2"
if cmp -s "$work/run1" "$work/run2" && [ -s "$work/run1" ]; then
  echo "ok   fingerprints stable across runs"; passed=$((passed+1))
else
  echo "FAIL two runs on the same input differ"; failed=$((failed+1))
fi
echo "gitlab: $passed passed, $failed failed"
[ "$failed" = 0 ]
