#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# tests/sarif_links.sh GPULINT: the documentation a SARIF report links to exists. Every
# rule's helpUri is one base (GPULINT_DOCS_URL) and the name of a file under docs/rules/
# (<ID>.md, the rule's own page), and informationUri is the README beside docs/ when the
# base ends in docs/rules/. Needs no validator (tests/sarif.sh checks the rest of SARIF).
set -uo pipefail
bin=$(realpath "${1:?usage: tests/sarif_links.sh path/to/gpulint}")
cd "$(dirname "$0")/.."
command -v python3 >/dev/null || { echo "skip: python3 missing"; exit 77; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

"$bin" --format sarif --no-config fixtures/formats/Dockerfile.all-severities > "$tmp/r.sarif"
[ $? -le 1 ] || { echo "FAIL: gpulint --format sarif"; exit 1; }
python3 - "$tmp/r.sarif" <<'PY'
import json, os, sys
driver = json.load(open(sys.argv[1]))["runs"][0]["tool"]["driver"]
bad = []
pages = set(os.listdir("docs/rules"))
uris = {r["id"]: r.get("helpUri") for r in driver["rules"]}
bases = set()
for rid, uri in uris.items():
    if not uri:
        bad.append(f"{rid}: no helpUri")
        continue
    base, _, page = uri.rpartition("/")
    bases.add(base + "/")
    if page not in pages:
        bad.append(f"{rid}: helpUri {uri}: no docs/rules/{page}")
    elif page != rid + ".md":
        bad.append(f"{rid}: helpUri {uri} is another rule's page")
if len(bases) != 1:
    bad.append(f"helpUris under {len(bases)} bases: {sorted(bases)}")
info = driver.get("informationUri", "")
for base in bases:
    if base.endswith("/docs/rules/"):
        want = base[: -len("docs/rules/")] + "README.md"
        if info != want:
            bad.append(f"informationUri {info}, expected {want}")
        if not os.path.isfile("README.md"):
            bad.append("no README.md")
for b in bad:
    print("FAIL", b)
print(f"sarif links: {len(uris)} helpUris under {sorted(bases)}, informationUri {info}")
sys.exit(1 if bad else 0)
PY
