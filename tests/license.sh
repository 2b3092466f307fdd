#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Every source file of the project carries its SPDX licence line near its top (the
# corpus, fixtures and examples are inputs, not sources: their own licences are listed in
# tests/corpus/files/LICENSES.tsv), and LICENSE is the Apache-2.0 text.
set -uo pipefail
cd "$(dirname "$0")/.."
command -v git >/dev/null && git rev-parse --git-dir >/dev/null 2>&1 ||
  { echo "SKIP: not a git checkout"; exit 77; }
missing=()
while IFS= read -r f; do
  case $f in tests/corpus/*|fixtures/*|examples/*|docs/*) continue ;; esac
  [ -f "$f" ] || continue
  head -c 400 "$f" | grep >/dev/null 'SPDX-License-Identifier: Apache-2.0' || missing+=("$f")
done < <(git ls-files '*.c' '*.h' '*.sh' '*.py' '*.cmake' 'CMakeLists.txt' '*/CMakeLists.txt' \
                       Dockerfile .pre-commit-hooks.yaml .ci/run)
fail=0
if [ ${#missing[@]} = 0 ]; then echo "ok   every source file has its SPDX line"
else echo "FAIL no SPDX line in: ${missing[*]}"; fail=1; fi
if grep -q 'Apache License' LICENSE && grep -q 'Version 2.0, January 2004' LICENSE; then
  echo "ok   LICENSE is the Apache License 2.0"
else echo "FAIL LICENSE is not the Apache License 2.0 text"; fail=1; fi
exit $fail
