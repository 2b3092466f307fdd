#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The hand-labelled real corpus (tests/corpus/real/): files from public GPU repositories
# the project had not tuned on, every finding judged against RULES.md and every miss
# written down (labels.txt; format in tests/lib/realcorpus.py). Fails on a missing `must`,
# a present `must-not`, an unlabelled finding in a file labelled `complete`, or an `xfail`
# label that now holds ("now passes: remove xfail").
# The files themselves are not in the repository (see tests/corpus/real/README.md): they
# are read from $GPULINT_REALCORPUS_FILES or tests/corpus/real/files, which
# tests/corpus/real/get.sh fills from git snapshots; without them the test is skipped.
set -uo pipefail
bin=$(realpath "${1:?usage: realcorpus.sh path/to/gpulint}")
cd "$(dirname "$0")/.."
files=${GPULINT_REALCORPUS_FILES:-tests/corpus/real/files}
if [ ! -d "$files" ]; then
  echo "SKIP: the real corpus files are absent ($files): run tests/corpus/real/get.sh MIRROR_DIR"
  exit 77
fi
command -v python3 >/dev/null || { echo "SKIP: python3 is not installed"; exit 77; }
python3 tests/lib/realcorpus.py check "$bin" tests/corpus/real "$files"
