#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# --format checkstyle: every case of tests/lib/format_cases.sh (odd file names, XML
# specials, control bytes, invalid UTF-8) must be well-formed XML (`xmllint --noout`)
# with the Checkstyle structure and the JSON report's findings.
set -uo pipefail
bin=$(realpath "${1:?usage: checkstyle.sh path/to/gpulint}")
cd "$(dirname "$0")/.."
. tests/lib/format_cases.sh
if ! command -v xmllint >/dev/null; then
  echo "SKIP: xmllint is not installed (Debian: libxml2-utils; ./bootstrap.sh installs it)"; exit 77
fi
trap format_cases_cleanup EXIT
xml_well_formed() { xmllint --noout "$1"; }
format_cases_run "$bin" checkstyle xml_well_formed
failed=$format_cases_failed passed=$(( $(format_cases_list | wc -l) - failed ))
echo "checkstyle: $passed passed, $failed failed"
[ "$failed" = 0 ]
