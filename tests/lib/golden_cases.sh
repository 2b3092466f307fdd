# SPDX-License-Identifier: Apache-2.0
# Sourced by tests/golden.sh and tests/valgrind.sh: the golden cases under a directory.
#
#   golden_cases DIR   prints the cases under DIR, sorted, each ending in a NUL byte
#
# A case is a file whose report is compared with <case>.json beside it, or a directory
# <case>/ with <case>.json beside it: several files linted as one run (`gpulint <case>`),
# for what only a whole run decides (an image one script builds and another runs). The
# files inside a directory case are not cases of their own. <case>.args, <case>.json and
# <case>.out are not cases; a Markdown file is one only with its <case>.json (a README.md
# describing fixtures is not). fixtures/images/ holds image recipes and fixtures/charts/ Helm charts (tests/helm.sh), not cases.
golden_cases() {
  find "$1" \( -path fixtures/images -o -path fixtures/charts \) -prune -o \
    -type d -exec sh -c 'test -f "$1.json"' _ {} \; -prune -print0 -o \
    -type f ! -name '*.json' ! -name '*.args' ! -name '*.out' \
    \( ! -name '*.md' -o -exec sh -c 'test -f "$1.json"' _ {} \; \) -print0 | sort -z
}
