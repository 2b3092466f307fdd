#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The Debian package: `cpack -G DEB` in the tested binary's build directory writes
# gpulint_<version>_<arch>.deb; `apt-get install ./gpulint_*.deb` installs it, with the
# libraries it depends on, into a clean Debian 12 root made by debootstrap; the installed
# /usr/bin/gpulint lints examples/ exactly as the build's binary does, and the package
# holds the man page, the rule docs, the copyright file and the pre-commit hooks.
#
# The minbase root is downloaded once into $GPULINT_TOOLS_DIR (default
# ~/.cache/gpulint-tools) as a debootstrap tarball; each run unpacks it afresh.
# Skips (77), saying why, without root, debootstrap, dpkg-shlibdeps or a network mirror,
# and in sanitizer builds (their binary needs the sanitizer runtimes).
set -uo pipefail
bin=$(realpath "${1:?usage: deb.sh path/to/gpulint}")
build=$(dirname "$bin")
cd "$(dirname "$0")/.."
skip() { echo "SKIP: $*"; exit 77; }
[ -f "$build/CPackConfig.cmake" ] || skip "$build has no CPackConfig.cmake"
grep -q '^GPULINT_SANITIZE:BOOL=ON' "$build/CMakeCache.txt" && skip "sanitizer build"
[ "$(id -u)" = 0 ] || skip "not root (chroot and apt-get need it)"
for t in debootstrap dpkg-shlibdeps cpack chroot; do
  command -v "$t" >/dev/null || skip "$t is not installed"
done

tools=${GPULINT_TOOLS_DIR:-$HOME/.cache/gpulint-tools}
tarball=$tools/debian12-minbase.tgz
mirror=${GPULINT_DEBIAN_MIRROR:-http://deb.debian.org/debian}
# under /tmp/gpulint-*: tests/hostile.sh, running beside, knows it holds no escaped entry
tmp=$(mktemp -d /tmp/gpulint-deb.XXXXXX); root=$tmp/root
cleanup() {
  for m in "$root/proc"; do mountpoint -q "$m" 2>/dev/null && umount "$m"; done
  rm -rf "$tmp"
}
trap cleanup EXIT
passed=0 failed=0
ok() { echo "ok   $*"; passed=$((passed+1)); }
fail() { echo "FAIL $*"; failed=$((failed+1)); }

if [ ! -s "$tarball" ]; then
  mkdir -p "$tools"
  debootstrap --variant=minbase --make-tarball="$tarball.part" bookworm "$tmp/dl" "$mirror" \
    > "$tmp/dbs.log" 2>&1 && mv "$tarball.part" "$tarball" ||
    { tail -5 "$tmp/dbs.log"; rm -f "$tarball.part"; skip "debootstrap could not download Debian 12 from $mirror"; }
fi

# 1. the package
(cd "$build" && cpack -G DEB -B "$tmp/pkg") > "$tmp/cpack.log" 2>&1
debs=("$tmp"/pkg/gpulint_*_*.deb)
if [ -f "${debs[0]}" ] && [ ${#debs[@]} = 1 ]; then
  ok "cpack -G DEB wrote $(basename "${debs[0]}")"
else
  fail "cpack -G DEB"; cat "$tmp/cpack.log"; exit 1
fi
deb=${debs[0]}
depends=$(dpkg-deb -f "$deb" Depends)
for lib in libjson-c5 libyaml-0-2 libpcre2-8-0 libzstd1 libisal2 libc6; do
  grep -qw "$lib" <<< "$depends" && ok "Depends names $lib" || fail "Depends lacks $lib: $depends"
done
contents=$(dpkg-deb -c "$deb")
for f in ./usr/bin/gpulint ./usr/share/man/man1/gpulint.1 ./usr/share/doc/gpulint/copyright \
         ./usr/share/doc/gpulint/README.md ./usr/share/doc/gpulint/rules/GL201.md \
         ./usr/share/gpulint/.pre-commit-hooks.yaml; do
  grep -q " $f\$" <<< "$contents" && ok "the package holds ${f#.}" || fail "the package lacks ${f#.}"
done

# 2. a clean Debian 12 root, the package installed by apt-get with its dependencies
if ! debootstrap --variant=minbase --unpack-tarball="$tarball" bookworm "$root" "$mirror" \
     > "$tmp/root.log" 2>&1; then
  tail -5 "$root/debootstrap/debootstrap.log" "$tmp/root.log" 2>/dev/null
  fail "debootstrap of a Debian 12 root"; exit 1
fi
cp /etc/resolv.conf "$root/etc/resolv.conf" 2>/dev/null
cp "$deb" "$root/tmp/"
cp -r examples "$root/examples"
mount -t proc proc "$root/proc" 2>/dev/null
if chroot "$root" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin DEBIAN_FRONTEND=noninteractive \
     sh -c "apt-get update -qq && apt-get install -y -qq --no-install-recommends /tmp/$(basename "$deb")" \
     > "$tmp/apt.log" 2>&1; then
  ok "apt-get install ./$(basename "$deb") in a clean Debian 12 root"
else
  if grep -qiE 'could not resolve|failed to fetch|temporary failure' "$tmp/apt.log"; then
    skip "the Debian mirror is not reachable from the root: $(grep -m1 -iE 'resolve|fetch|failure' "$tmp/apt.log")"
  fi
  fail "apt-get install in the root"; tail -20 "$tmp/apt.log"; exit 1
fi

# 3. the installed binary lints the examples as the build's binary does
lint='cd /examples && gpulint --no-cache --driver 535 --format json .; echo "exit $?"'
chroot "$root" /usr/bin/env -i PATH=/usr/bin:/bin HOME=/root sh -c "$lint" > "$tmp/installed.json" 2> "$tmp/installed.err"
(cd examples && "$bin" --no-cache --driver 535 --format json .; echo "exit $?") > "$tmp/built.json" 2> "$tmp/built.err"
if grep -q '"rule": "GL' "$tmp/installed.json" && diff -u "$tmp/built.json" "$tmp/installed.json" > "$tmp/diff"; then
  ok "the installed gpulint lints examples/ as the build's does ($(grep -c '"rule": "GL' "$tmp/installed.json") findings, $(tail -1 "$tmp/installed.json"))"
else
  fail "the installed gpulint on examples/"; head -20 "$tmp/diff" "$tmp/installed.err"
fi
if chroot "$root" /usr/bin/gpulint --version | grep >/dev/null "^gpulint $(dpkg-deb -f "$deb" Version)"; then
  ok "gpulint --version in the root names the package version"
else
  fail "gpulint --version in the root"
fi

echo "deb: $passed passed, $failed failed"
[ $failed = 0 ]
