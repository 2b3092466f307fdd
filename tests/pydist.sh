#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# tests/pydist.sh GPULINT: the CUDA of Python packages installed in an image, end to end.
# Each image is one layer made by umoci from a root filesystem whose site-packages hold
# distributions installed by the real tools: wheels built by setuptools/wheel
# (`setup.py bdist_wheel`) and installed by pip (`pip install --target`), so their
# *.dist-info/METADATA is what pip writes; and, when this machine has a CUDA toolkit, the
# real dist-info directories it ships (/usr/local/cuda/dist-info). gpulint must read their
# Name and Version while the layer streams and judge them as the Dockerfile path judges
# pins: GL202 (CUDA of the build vs the image's), GL209 (torch's arch list vs --gpu), GL201
# (vs --driver); and must not where the builds agree or carry no CUDA.
# Exit 77 without umoci, or without Debian's python3 with pip, setuptools and wheel.
set -uo pipefail
gpulint=$(realpath "${1:?usage: tests/pydist.sh path/to/gpulint}")
py=/usr/bin/python3
command -v umoci >/dev/null || { echo "skip: umoci missing"; exit 77; }
$py -c 'import setuptools, wheel, pip' 2>/dev/null ||
  { echo "skip: $py lacks pip, setuptools or wheel (Debian python3-pip python3-setuptools python3-wheel)"; exit 77; }
work=$(mktemp -d /tmp/gpulint-pydist.XXXXXX)
trap '[ -n "${KEEP:-}" ] || rm -rf "$work"' EXIT
fails=0
site=usr/lib/python3/dist-packages

wheel() { # wheel NAME VERSION [DESCRIPTION_BYTES]: build it once, print its path
  local dir="$work/src/$1-$2"
  if [ ! -d "$dir/dist" ]; then
    mkdir -p "$dir"
    cat > "$dir/setup.py" <<PY
from setuptools import setup
setup(name="$1", version="$2", py_modules=[],
      long_description="x" * ${3:-0}, long_description_content_type="text/plain")
PY
    (cd "$dir" && $py setup.py -q bdist_wheel -d dist >/dev/null 2>&1) || return 1
  fi
  ls "$dir"/dist/*.whl
}

install() { # install ROOT WHEEL...: as pip installs them, into ROOT's site-packages
  local root=$1; shift
  $py -m pip install -q --no-deps --no-index --no-compile --target "$root/$site" "$@" \
    >/dev/null 2>&1
}

image() { # image ROOT OUT: one layer of ROOT
  tar --sort=name --owner=0 --group=0 --numeric-owner --mtime=@0 -C "$1" -cf "$work/layer.tar" .
  rm -rf "$2"
  (cd "$work" && umoci init --layout "$2" >/dev/null && umoci new --image "$2:1" >/dev/null &&
   umoci raw add-layer --image "$2:1" layer.tar >/dev/null)
}

found() { # found IMAGE OPTIONS...: "RULE message" per finding
  "$gpulint" --no-cache -f json "$@" 2>/dev/null | $py -c '
import json, sys
for f in json.load(sys.stdin)["findings"]:
    print(f["rule"], f["message"])'
}

expect() { # expect LABEL yes|no RULE PATTERN -- IMAGE OPTIONS...
  local label=$1 want=$2 rule=$3 pat=$4; shift 5
  local out; out=$(found "$@")
  if echo "$out" | grep "^$rule " | grep >/dev/null -- "$pat"; then got=yes; else got=no; fi
  if [ "$got" = "$want" ]; then echo "ok: $label"
  else echo "FAIL: $label: $rule '$pat' expected $want"; echo "$out" | sed 's/^/    /'; fails=$((fails+1)); fi
}

torch124=$(wheel torch 2.5.1+cu124 100000) || { echo "FAIL: building a wheel"; exit 1; }
torchpypi=$(wheel torch 2.5.1)
cupy=$(wheel cupy-cuda12x 13.3.0)
vision=$(wheel torchvision 0.20.1+cu124)

# 1. torch +cu124 (a METADATA over the 64 KiB capture limit: its headers come first) on an
#    image of CUDA 12.1
mkdir -p "$work/r1/usr/local/cuda-12.1/lib64"
install "$work/r1" "$torch124" "$vision" "$cupy"
image "$work/r1" "$work/i1"
expect "torch +cu124 on CUDA 12.1: GL202" yes GL202 "torch 2.5.1+cu124 (/$site/torch-2.5.1+cu124.dist-info/METADATA)" -- "$work/i1"
expect "torch +cu124 on B200: GL209" yes GL209 "the torch 2.5 +cu124 wheel" -- "$work/i1" --gpu B200
expect "torch +cu124 on H100: no GL209" no GL209 "" -- "$work/i1" --gpu H100
expect "torch +cu124 on R470: GL201" yes GL201 "torch 2.5.1+cu124" -- "$work/i1" --driver 470
expect "torchvision beside torch: torch speaks for both" no GL202 "torchvision" -- "$work/i1"

# 2. the same builds on an image of CUDA 12.4, with cupy-cuda12x: nothing to say
mkdir -p "$work/r2/usr/local/cuda-12.4/lib64"
install "$work/r2" "$torch124" "$cupy"
image "$work/r2" "$work/i2"
expect "torch +cu124, cupy-cuda12x on CUDA 12.4: no GL202" no GL202 "" -- "$work/i2"
expect "cupy-cuda12x read" yes GL201 "cupy-cuda12x 13.3.0" -- "$work/i2" --driver 470

# 3. PyPI's default torch (no local version): not a source
mkdir -p "$work/r3/usr/local/cuda-12.1/lib64"
install "$work/r3" "$torchpypi"
image "$work/r3" "$work/i3"
expect "PyPI torch on CUDA 12.1: no GL202" no GL202 "" -- "$work/i3"
expect "PyPI torch on B200: no GL209" no GL209 "" -- "$work/i3" --gpu B200

# 4. the real dist-info directories of this machine's CUDA toolkit (nvidia-* wheels of one
#    CUDA major: one fact, one finding)
real=$(ls -d /usr/local/cuda/dist-info 2>/dev/null || ls -d /usr/local/cuda-*/dist-info 2>/dev/null | tail -1)
if [ -n "$real" ] && ls "$real"/nvidia_cuda_runtime-*.dist-info/METADATA >/dev/null 2>&1; then
  mkdir -p "$work/r4/$site"
  cp -r "$real"/nvidia_*.dist-info "$work/r4/$site/"
  image "$work/r4" "$work/i4"
  major=$(sed -n 's/^Version: \([0-9]*\)\..*/\1/p' "$real"/nvidia_cuda_runtime-*.dist-info/METADATA)
  n=$(found "$work/i4" --driver 470 | grep -c '^GL201 ')
  if [ "$major" -ge 12 ] && [ "$n" = 1 ]; then echo "ok: real nvidia-* dist-info of CUDA $major: one GL201"
  elif [ "$major" -lt 12 ]; then echo "note: CUDA $major dist-info: not checked against R470"
  else echo "FAIL: real nvidia-* dist-info: $n GL201 findings, expected 1"; fails=$((fails+1)); fi
else
  echo "note: no CUDA toolkit dist-info on this machine: real nvidia-* METADATA not checked"
fi

[ $fails = 0 ] && echo "pydist: all passed" || echo "pydist: $fails failed"
[ $fails = 0 ]
