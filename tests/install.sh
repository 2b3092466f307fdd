#!/usr/bin/env bash
# `cmake --install` into a temporary prefix puts the binary in bin/ and the man page in
# share/man/man1/; the installed binary runs and `man -l` renders the installed page.
# Uses the build directory the tested binary lives in; skips (77) without man.
set -uo pipefail
bin=$(realpath "${1:?usage: install.sh path/to/gpulint}")
build=$(dirname "$bin")
[ -f "$build/cmake_install.cmake" ] || { echo "SKIP: $build is not a CMake build directory"; exit 77; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
passed=0 failed=0
ok() { echo "ok   $*"; passed=$((passed+1)); }
fail() { echo "FAIL $*"; failed=$((failed+1)); }

if cmake --install "$build" --prefix "$tmp/prefix" > "$tmp/log" 2>&1; then
  ok "cmake --install"
else
  fail "cmake --install"; cat "$tmp/log"
fi
if [ -x "$tmp/prefix/bin/gpulint" ] && "$tmp/prefix/bin/gpulint" --version | grep -q '^gpulint '; then
  ok "installed bin/gpulint runs"
else
  fail "bin/gpulint missing or does not run"
fi
page=$tmp/prefix/share/man/man1/gpulint.1
if [ ! -f "$page" ]; then
  fail "share/man/man1/gpulint.1 not installed"
elif ! command -v man >/dev/null; then
  echo "SKIP man -l: man is not installed"
else
  if MANWIDTH=80 man -l "$page" 2>"$tmp/err" | grep -q 'gpulint \[OPTIONS\]' && [ ! -s "$tmp/err" ]; then
    ok "man -l renders the installed page"
  else
    fail "man -l on the installed page"; cat "$tmp/err"
  fi
fi
echo "install: $passed passed, $failed failed"
[ $failed = 0 ] || exit 1
command -v man >/dev/null || exit 77
