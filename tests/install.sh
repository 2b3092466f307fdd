#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# `DESTDIR=... cmake --install --prefix /usr`, as a packager runs it, puts the binary in
# usr/bin/, the man page in usr/share/man/man1/, the README, the licence (`copyright`) and
# one page per rule in usr/share/doc/gpulint/, the pre-commit hooks in usr/share/gpulint/;
# the installed binary runs and lints examples/, and `man -l` renders the installed page.
# Uses the build directory the tested binary lives in; skips (77) without man.
set -uo pipefail
bin=$(realpath "${1:?usage: install.sh path/to/gpulint}")
build=$(dirname "$bin")
[ -f "$build/cmake_install.cmake" ] || { echo "SKIP: $build is not a CMake build directory"; exit 77; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
passed=0 failed=0
ok() { echo "ok   $*"; passed=$((passed+1)); }
fail() { echo "FAIL $*"; failed=$((failed+1)); }

if DESTDIR="$tmp/dest" cmake --install "$build" --prefix /usr > "$tmp/log" 2>&1; then
  ok "DESTDIR=... cmake --install --prefix /usr"
else
  fail "cmake --install"; cat "$tmp/log"
fi
prefix=$tmp/dest/usr
if [ -x "$prefix/bin/gpulint" ] && "$prefix/bin/gpulint" --version | grep >/dev/null '^gpulint '; then
  ok "installed usr/bin/gpulint runs"
else
  fail "usr/bin/gpulint missing or does not run"
fi
for f in share/doc/gpulint/README.md share/doc/gpulint/copyright share/gpulint/.pre-commit-hooks.yaml; do
  [ -s "$prefix/$f" ] && ok "usr/$f installed" || fail "usr/$f not installed"
done
rules=$("$bin" --list-rules | grep -oE '^GL[0-9]{3}' | sort -u)
pages=$(cd "$prefix/share/doc/gpulint/rules" 2>/dev/null && ls -- *.md | sed 's/\.md$//' | sort)
if [ -n "$rules" ] && [ "$rules" = "$pages" ]; then
  ok "usr/share/doc/gpulint/rules/ holds one page per rule ($(wc -l <<< "$pages"))"
else
  fail "rule pages installed differ from --list-rules: $(diff <(echo "$rules") <(echo "$pages") | tr '\n' ' ')"
fi
(cd examples && "$prefix/bin/gpulint" --no-cache --driver 535 --format json . > "$tmp/installed.json")
rc=$?
(cd examples && "$bin" --no-cache --driver 535 --format json . > "$tmp/built.json")
if [ $rc = 1 ] && cmp -s "$tmp/built.json" "$tmp/installed.json"; then
  ok "the installed binary lints examples/ as the build's does"
else
  fail "the installed binary on examples/ (exit $rc)"; diff "$tmp/built.json" "$tmp/installed.json" | head
fi
page=$prefix/share/man/man1/gpulint.1
if [ ! -f "$page" ]; then
  fail "share/man/man1/gpulint.1 not installed"
elif ! command -v man >/dev/null; then
  echo "SKIP man -l: man is not installed"
else
  if MANWIDTH=80 man -l "$page" 2>"$tmp/err" | grep >/dev/null 'gpulint \[OPTIONS\]' && [ ! -s "$tmp/err" ]; then
    ok "man -l renders the installed page"
  else
    fail "man -l on the installed page"; cat "$tmp/err"
  fi
fi
echo "install: $passed passed, $failed failed"
[ $failed = 0 ] || exit 1
command -v man >/dev/null || exit 77
