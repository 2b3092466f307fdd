#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# .pre-commit-hooks.yaml works with pre-commit itself: `pre-commit try-repo` (offline:
# the hook repository is a local git repository, the hooks are `language: system`) runs
# each hook in a scratch project on good and bad files, with the tested gpulint on PATH.
# The hook file is copied into a scratch hook repository and committed there, so what is
# tested is the working tree's file, committed or not. Skips (77) without pre-commit/git.
set -uo pipefail
bin=$(realpath "${1:?usage: precommit.sh path/to/gpulint}")
src=$(cd "$(dirname "$0")/.." && pwd)
for tool in pre-commit git; do
  command -v $tool >/dev/null || { echo "SKIP: $tool is not installed (./bootstrap.sh installs it)"; exit 77; }
done
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
export PATH="$(dirname "$bin"):$PATH" PRE_COMMIT_HOME=$tmp/cache PRE_COMMIT_COLOR=never
export GIT_CONFIG_NOSYSTEM=1 HOME=$tmp/home   # no user git config, no ~/.cache writes
mkdir -p "$HOME"
git_quiet() { git -c user.name=gpulint-test -c user.email=test@invalid -c init.defaultBranch=main \
                  -c commit.gpgsign=false "$@" >/dev/null 2>&1; }

# the hook repository
mkdir "$tmp/hooks"
cp "$src/.pre-commit-hooks.yaml" "$tmp/hooks/"
git_quiet -C "$tmp/hooks" init && git_quiet -C "$tmp/hooks" add -A &&
  git_quiet -C "$tmp/hooks" commit -m hooks || { echo "FAIL: cannot make the hook repository"; exit 1; }

# the project: good and bad files of every kind the hooks take
p=$tmp/project
mkdir -p "$p/svc" "$p/k8s" "$p/.github/workflows"
printf 'FROM python:3.11-slim\nRUN pip install flask\n' > "$p/Dockerfile"
printf 'FROM nvidia/cuda\n' > "$p/svc/Dockerfile.gpu"
printf 'FROM nvcr.io/nvidia/pytorch\n' > "$p/svc/train.dockerfile"
printf 'FROM nvidia/cuda\n' > "$p/Containerfile-bad"
printf 'FROM nvidia/cuda\n' > "$p/notes.txt"
printf 'services:\n  web:\n    image: python:3.11-slim\n' > "$p/compose.yaml"
printf 'services:\n  train:\n    image: nvidia/cuda\n    gpus: all\n' > "$p/svc/docker-compose.yml"
printf 'on: push\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n      - run: make test\n' > "$p/.github/workflows/ci.yml"
printf 'on: push\njobs:\n  gpu:\n    runs-on: [self-hosted, gpu]\n    steps:\n      - run: |\n          docker run --rm --gpus all nvidia/cuda nvidia-smi\n' > "$p/.github/workflows/gpu.yml"
printf 'name: docs\nnav: [index.md]\n' > "$p/mkdocs.yml"
printf '#!/bin/sh\necho hello\n' > "$p/run.sh"
printf 'all:\n\techo hello\n' > "$p/Makefile"
printf '#!/bin/sh\ndocker run --rm nvidia/cuda nvidia-smi\n' > "$p/bad.sh"
git_quiet -C "$p" init && git_quiet -C "$p" add -A || { echo "FAIL: cannot make the project"; exit 1; }

passed=0 failed=0
# expect HOOK pass|fail|skip FILE...: the hook's verdict on exactly these files
expect() {
  local hook=$1 want=$2; shift 2
  local out rc got
  out=$(cd "$p" && pre-commit try-repo "$tmp/hooks" "$hook" --files "$@" 2>&1); rc=$?
  if grep -q 'no files to check' <<< "$out"; then got=skip
  elif [ $rc = 0 ]; then got=pass
  else got=fail; fi
  if [ "$got" = "$want" ]; then
    echo "ok   $hook on $*: $got"; passed=$((passed+1))
  else
    echo "FAIL $hook on $*: expected $want, got $got"; echo "$out" | sed 's/^/    /'; failed=$((failed+1))
  fi
}

expect gpulint-dockerfile pass Dockerfile
expect gpulint-dockerfile fail svc/Dockerfile.gpu
expect gpulint-dockerfile fail svc/train.dockerfile
expect gpulint-dockerfile fail Containerfile-bad
expect gpulint-dockerfile fail Dockerfile svc/Dockerfile.gpu
expect gpulint-dockerfile skip notes.txt compose.yaml run.sh
expect gpulint-yaml pass compose.yaml
expect gpulint-yaml fail svc/docker-compose.yml
expect gpulint-yaml pass .github/workflows/ci.yml
expect gpulint-yaml fail .github/workflows/gpu.yml
expect gpulint-yaml pass mkdocs.yml
expect gpulint-yaml skip Dockerfile run.sh
expect gpulint-shell pass run.sh Makefile
expect gpulint-shell skip Dockerfile compose.yaml
# launches in shell scripts fail the hook once gpulint reads shell (--type shell)
if "$bin" --help | grep -E >/dev/null -- '--type .*[(,] ?shell[,)]'; then expect gpulint-shell fail bad.sh; fi

# gpulint-docker (language: docker_image) names the image of this version, and runs it
# where a container engine answers; the project's Dockerfile builds that image.
version=$("$bin" --version | awk '{print $2; exit}')
image=$(awk '/^- *id: gpulint-docker$/{d=1} d && $1 == "entry:" {print $2; exit}' "$src/.pre-commit-hooks.yaml")
if [ "$image" = "gpulint/gpulint:$version" ]; then
  echo "ok   gpulint-docker runs the image of this version ($image)"; passed=$((passed+1))
else
  echo "FAIL gpulint-docker's image is \`$image\`, not gpulint/gpulint:$version"; failed=$((failed+1))
fi
if command -v docker >/dev/null && docker info >/dev/null 2>&1; then
  if docker build -q -t "gpulint/gpulint:$version" "$src" >/dev/null 2>&1; then
    expect gpulint-docker pass Dockerfile compose.yaml run.sh
    expect gpulint-docker fail svc/Dockerfile.gpu
    expect gpulint-docker fail svc/docker-compose.yml
  else
    echo "FAIL docker build of the project's Dockerfile"; failed=$((failed+1))
  fi
else
  echo "SKIP gpulint-docker under pre-commit: no container engine answers here (docker info fails)"
fi

echo "precommit: $passed passed, $failed failed"
[ $failed = 0 ]
