#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# gpulint's own Dockerfile: gpulint lints it clean (every default rule, any severity),
# and its runtime stage installs the Debian package of every library the binary links
# directly (readelf NEEDED -> dpkg -S), so the slim image can run it.
set -uo pipefail
bin=$(realpath "${1:?usage: dogfood.sh path/to/gpulint}")
cd "$(dirname "$0")/.."
passed=0 failed=0
if out=$("$bin" --failure-threshold style Dockerfile 2>&1) && ! grep -q 'GL[0-9]' <<< "$out"; then
  echo "ok   gpulint lints its own Dockerfile clean"; passed=$((passed+1))
else
  echo "FAIL gpulint finds problems in its own Dockerfile:"; echo "$out"; failed=$((failed+1))
fi

if command -v readelf >/dev/null && command -v dpkg >/dev/null; then
  # the packages the last stage installs: the words after `apt-get install ... ` up to `&&`
  runtime=$(awk '/^FROM /{stage++} {print stage": "$0}' Dockerfile |
            sed -n "s/^$(grep -c '^FROM ' Dockerfile): //p" | tr '\\\n' '  ' |
            grep -oE 'install -y --no-install-recommends [^&]*' | cut -d' ' -f4-)
  missing=()
  for lib in $(readelf -d "$bin" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p'); do
    # the C library, and sanitizer runtimes of the ASan test build, are not shipped libraries
    case $lib in libc.so.*|libm.so.*|libpthread.so.*|libdl.so.*|ld-linux*|libasan.so.*|libubsan.so.*) continue ;; esac
    path=$(ldconfig -p | awk -v l="$lib" '$1 == l {print $NF; exit}')
    pkg=$(dpkg -S "$(realpath "$path")" 2>/dev/null | head -1 | cut -d: -f1)
    [ -n "$pkg" ] || pkg=$(dpkg -S "$path" 2>/dev/null | head -1 | cut -d: -f1)
    grep -qw -- "$pkg" <<< "$runtime" || missing+=("$lib ($pkg)")
  done
  if [ ${#missing[@]} = 0 ] && [ -n "$runtime" ]; then
    echo "ok   the runtime stage installs every linked library: $runtime"; passed=$((passed+1))
  else
    echo "FAIL the runtime stage lacks: ${missing[*]:-its apt-get install line}"; failed=$((failed+1))
  fi
else
  echo "(readelf or dpkg absent: runtime libraries not checked)"
fi
echo "dogfood: $passed passed, $failed failed"
[ $failed = 0 ]
