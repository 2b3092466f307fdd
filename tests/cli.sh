#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The command-line contract: exit status, options, stdin, directory walk, report shapes.
set -uo pipefail
bin=$(realpath "${1:?usage: cli.sh path/to/gpulint}")
cd "$(dirname "$0")/.."
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
. tests/lib/checks.sh

printf 'FROM nvidia/cuda:12.4.1-runtime-ubuntu22.04\n' > "$tmp/clean.Dockerfile"
printf 'FROM python:latest\n' > "$tmp/warn.Dockerfile"
printf 'FROM nvidia/cuda\n' > "$tmp/err.Dockerfile"

check "clean file exits 0" 0 "$bin" "$tmp/clean.Dockerfile"
has "clean summary" '^0 findings \(0 errors, 0 warnings, 0 infos\) in 1 file'
check "warning below default threshold exits 0" 0 "$bin" "$tmp/warn.Dockerfile"
check "warning at threshold warning exits 1" 1 "$bin" --failure-threshold warning "$tmp/warn.Dockerfile"
check "error exits 1" 1 "$bin" "$tmp/err.Dockerfile"
check "threshold none never fails" 0 "$bin" --failure-threshold none "$tmp/err.Dockerfile"
check "--ignore turns the rule off" 0 "$bin" --ignore GL101 "$tmp/err.Dockerfile"
check "unknown rule in --ignore is a usage error" 2 "$bin" --ignore GL999 "$tmp/err.Dockerfile"
check "missing path exits 2" 2 "$bin" "$tmp/nope.Dockerfile"
check "missing path still lints the others" 2 "$bin" "$tmp/nope.Dockerfile" "$tmp/err.Dockerfile"
has "other input linted" 'err.Dockerfile:1:6: error: .*\[GL101 image-latest-tag\]'
check "bad option exits 2" 2 "$bin" --no-such-option
check "bad format exits 2" 2 "$bin" --format yaml .
check "bad threshold exits 2" 2 "$bin" --failure-threshold fatal .

check "tty line format" 1 "$bin" --no-color "$tmp/err.Dockerfile"
has "tty: file:line:col: severity: message [ID name]" "^$tmp/err.Dockerfile:1:6: error: image \`nvidia/cuda\` has no tag"
has "tty: fix hint" '^  fix: '
hasnt "no colour when not a terminal" $'\033'

check "stdin with -" 1 bash -c "printf 'FROM nvidia/cuda\n' | '$bin' -"
has "stdin is named -" '^-:1:6: error'
check "stdin with --type" 1 bash -c "printf 'FROM nvidia/cuda\n' | '$bin' --type dockerfile -"
check "bad --type" 2 "$bin" --type cobol -

mkdir -p "$tmp/proj/svc" "$tmp/proj/.git" "$tmp/proj/build" "$tmp/proj/node_modules/x"
cp "$tmp/err.Dockerfile" "$tmp/proj/svc/Dockerfile"
cp "$tmp/err.Dockerfile" "$tmp/proj/Containerfile"
cp "$tmp/err.Dockerfile" "$tmp/proj/gpu.dockerfile"
cp "$tmp/err.Dockerfile" "$tmp/proj/Dockerfile.cuda"
cp "$tmp/err.Dockerfile" "$tmp/proj/.git/Dockerfile"
cp "$tmp/err.Dockerfile" "$tmp/proj/build/Dockerfile"
cp "$tmp/err.Dockerfile" "$tmp/proj/node_modules/x/Dockerfile"
printf 'just text\n' > "$tmp/proj/notes.txt"
touch "$tmp/proj/build/CMakeCache.txt"   # a build's output: CMake configured it
# build outputs of other kinds (Ninja, setuptools), and build directories of sources
mkdir -p "$tmp/proj/build-rel" "$tmp/proj/py/build/lib.linux-x86_64-cpython-311" \
         "$tmp/proj/deploy/build" "$tmp/proj/.github/actions/build-wheel" \
         "$tmp/proj/cmake-build-debug"
touch "$tmp/proj/build-rel/build.ninja"
for d in build-rel py/build/lib.linux-x86_64-cpython-311 cmake-build-debug deploy/build \
         .github/actions/build-wheel; do
  cp "$tmp/err.Dockerfile" "$tmp/proj/$d/Dockerfile"
done
check "directory walk" 1 "$bin" --format json "$tmp/proj"
has "walk finds 7 Dockerfiles" '"files": 7'
hasnt "walk skips .git" '\.git/Dockerfile'
hasnt "walk skips a configured build/" '/proj/build/Dockerfile'
hasnt "walk skips a Ninja build-*/" '/build-rel/'
hasnt "walk skips setuptools' build/" '/py/build/'
has "walk reads build/ of sources" '/deploy/build/Dockerfile'
has "walk reads build-*/ of sources" '/build-wheel/Dockerfile'
has "walk reads cmake-build-*/ that is no build" '/cmake-build-debug/Dockerfile'
hasnt "walk skips node_modules" 'node_modules'
hasnt "walk ignores unknown files" 'notes.txt'
# vendored and third-party trees are not the project's: skipped, unless named
mkdir -p "$tmp/proj2/vendor/x" "$tmp/proj2/third_party" "$tmp/proj2/lib/site-packages/p" \
         "$tmp/proj2/testdata/golden" "$tmp/proj2/golden" "$tmp/proj2/app" \
         "$tmp/proj2/3rdparty/protobuf" "$tmp/proj2/src/thirdparty" "$tmp/proj2/third-party" \
         "$tmp/proj2/my3rdparty"
for d in vendor/x third_party lib/site-packages/p testdata/golden golden app \
         3rdparty/protobuf src/thirdparty third-party my3rdparty; do
  cp "$tmp/err.Dockerfile" "$tmp/proj2/$d/Dockerfile"
done
check "walk of a tree with vendored code" 1 "$bin" --format json "$tmp/proj2"
has "only the project's Dockerfiles" '"files": 3'
hasnt "walk skips vendor/" '/vendor/'
hasnt "walk skips third_party/" '/third_party/'
hasnt "walk skips 3rdparty/ (rtp-llm's vendored protobuf)" '/3rdparty/'
hasnt "walk skips thirdparty/" '/thirdparty/'
hasnt "walk skips third-party/" '/third-party/'
has "a name that only holds 3rdparty is walked" '/my3rdparty/Dockerfile'
hasnt "walk skips site-packages/" '/site-packages/'
hasnt "walk skips testdata/golden/" '/testdata/golden/'
has "a golden/ elsewhere is walked" '/proj2/golden/Dockerfile'
check "a vendored tree named on the command line is walked" 1 "$bin" --format json "$tmp/proj2/vendor"
has "vendor/ named: linted" '/vendor/x/Dockerfile'
# typing by content (RULES.md, second round): names that say nothing known are read,
# and their first bytes decide; standard input too
t4=$tmp/typed; mkdir -p "$t4/ci" "$t4/docs"
printf 'all:\n\tdocker run nvidia/cuda nvidia-smi\n' > "$t4/Makefile.gpu"
cp "$t4/Makefile.gpu" "$t4/gpu.Makefile"; cp "$t4/Makefile.gpu" "$t4/build.mak"
printf '# comment\n# syntax=docker/dockerfile:1\nARG X=1\nFROM nvidia/cuda\n' > "$t4/nccl-mpi-ubuntu20.04"
printf '#!/bin/bash\n#SBATCH --gres=gpu:1\nsrun docker run nvidia/cuda nvidia-smi\n' > "$t4/job.sbatch"
printf '#SBATCH --gres=gpu:1\ndocker run nvidia/cuda nvidia-smi\n' > "$t4/train.slurm"
printf '#SBATCH -N 1\ndocker run nvidia/cuda nvidia-smi\n' > "$t4/batchjob"
printf '#!/bin/bash\ndocker run nvidia/cuda nvidia-smi\n' > "$t4/runit"
# batch scripts by their schedulers' extensions, typed by their first line (a NeMo-style
# Slurm `.sub`, a PBS script with no #! line, an LSF one, a zsh script); an HTCondor submit
# file and a subtitle file share `.sub` and are no scripts
printf '#!/bin/bash\n#SBATCH -N 2\nsrun docker run nvidia/cuda nvidia-smi\n' > "$t4/ray.sub"
printf '#PBS -l select=1:ngpus=4\ncd "$PBS_O_WORKDIR"\ndocker run nvidia/cuda nvidia-smi\n' > "$t4/train.pbs"
printf '#BSUB -gpu "num=1"\ndocker run nvidia/cuda nvidia-smi\n' > "$t4/job.lsf"
printf '#!/usr/bin/env zsh\ndocker run nvidia/cuda nvidia-smi\n' > "$t4/gpu.zsh"
printf 'executable = run.sh\nrequest_gpus = 1\narguments = docker run nvidia/cuda x\nqueue\n' > "$t4/condor.sub"
printf '1\n00:00:01,000 --> 00:00:04,000\ndocker run nvidia/cuda nvidia-smi\n' > "$t4/talk.sub"
printf 'on: push\njobs:\n  a:\n    runs-on: x\n    steps:\n      - run: docker run nvidia/cuda nvidia-smi\n' > "$t4/ci/gpu.yml"
printf 'stages: [test]\nt:\n  stage: test\n  script:\n    - docker run nvidia/cuda nvidia-smi\n' > "$t4/ci/pipeline.yaml"
# Dockerfile names in lower case (mlcommons/inference's `dockerfile.gpu`): their first bytes
# decide, as a Go or Python program that writes Dockerfiles may share the stem
printf 'ARG BASE=nvidia/cuda\nFROM ${BASE}\n' > "$t4/dockerfile.gpu"
printf '// Package buildinputs reads Dockerfiles.\npackage buildinputs\n' > "$t4/dockerfile.go"
printf '"""Dockerfile fragments."""\nfrom os import path\n' > "$t4/dockerfile_parts.py"
printf '{{ if .Gpu }}\nFROM nvidia/cuda:12.2.2-base-ubuntu22.04\n{{ end }}\n' > "$t4/dockerfile.tmpl"
# patches and encrypted copies named after a Dockerfile or Makefile (FlagOpen/FlagScale's
# `Dockerfile.npu.patch.encrypted`) are not read by their name: a patch is no Dockerfile
printf 'diff --git a/Dockerfile b/Dockerfile\n--- a/Dockerfile\n+++ b/Dockerfile\n' > "$t4/Dockerfile.npu.patch"
printf '\217\0\1\2encrypted' > "$t4/Dockerfile.gpu.patch.encrypted"
printf '\217\0\1\2encrypted' > "$t4/Makefile.patch.encrypted"
printf 'this is a note: nothing to lint\n' > "$t4/NOTES"
printf 'name: docs\nnav: [index.md]\n' > "$t4/docs/mkdocs.yml"
printf 'PNG\0\0\0' > "$t4/logo.png"
# Python programs without an extension (DeepSpeed's bin/ds): `from x import y` is no FROM
printf '#!/usr/bin/env python3\nfrom deepspeed.launcher.runner import main\nmain()\n' > "$t4/ds"
printf 'from torch import nn\nimport sys\n' > "$t4/model_def"
printf '# a licence header\nfrom os import path\n' > "$t4/helper"
printf 'From https://github.com/x/y at commit abc (MIT):\nthe files below, verbatim\n' > "$t4/SOURCE"
printf 'From the docs, verbatim.\n' > "$t4/NOTICE"
check "typing by content: a walk" 1 "$bin" --format json "$t4"
for f in Makefile.gpu gpu.Makefile build.mak nccl-mpi-ubuntu20.04 dockerfile.gpu job.sbatch train.slurm batchjob runit ci/gpu.yml ci/pipeline.yaml ray.sub train.pbs job.lsf gpu.zsh; do
  has "typed by name or content: $f" "\"file\": \"[^\"]*/typed/$f\""
done
has "only those are linted" '"files": 15'
hasnt "an HTCondor submit file or subtitles named .sub are no scripts" '/typed/(condor|talk)\.sub"'
hasnt "a note that says nothing is not linted" 'NOTES'
hasnt "a program or a template named dockerfile.* is not a Dockerfile" '/typed/dockerfile[._](go|parts|tmpl)'
hasnt "a patch or an encrypted copy is no Dockerfile or Makefile" '/typed/(Dockerfile[.](npu[.]patch|gpu[.]patch[.]encrypted)|Makefile[.]patch[.]encrypted)"'
hasnt "Python without an extension is not a Dockerfile" '/typed/(ds|model_def|helper)"'
hasnt "prose starting with From is not a Dockerfile" '/typed/(SOURCE|NOTICE)"'
hasnt "YAML of no kind gpulint reads is not linted" 'mkdocs'
check "stdin: compose by content" 1 bash -c "printf 'services:\n  a:\n    image: nvidia/cuda\n' | '$bin' -"
has "stdin compose: GL101 at the image" '^-:3:12: error: .*\[GL101'
check "stdin: Kubernetes by content" 1 bash -c "printf 'apiVersion: v1\nkind: Pod\nmetadata: {name: x}\nspec:\n  containers:\n  - name: a\n    image: nvidia/cuda\n' | '$bin' -"
has "stdin k8s: GL101 at the image" '^-:7:12: error: .*\[GL101'
check "stdin: a script by its #! line" 1 bash -c "printf '#!/bin/sh\ndocker run nvidia/cuda x\n' | '$bin' -"
has "stdin script: GL101" '^-:2:12: error: .*\[GL101'
check "named unknown file is GL901" 0 "$bin" "$tmp/proj/notes.txt"
has "GL901" 'warning: .*notes.txt.* is of no input type gpulint knows \[GL901 unknown-input\]'
check "cwd default" 1 bash -c "cd '$tmp/proj' && '$bin' --format json"
has "cwd walked" '"files": 7'

check "json schema" 1 "$bin" --format json "$tmp/err.Dockerfile" "$tmp/warn.Dockerfile"
python3 - "$tmp/out" <<'PY' && pass=$((pass+1)) || { echo "FAIL json schema"; fail=$((fail+1)); }
import json, sys
d = json.load(open(sys.argv[1]))
assert list(d) == ["tool", "version", "findings", "summary"], list(d)
assert d["tool"] == "gpulint"
for f in d["findings"]:
    assert list(f) == ["rule", "name", "severity", "file", "line", "column", "message", "fix"], list(f)
    assert f["severity"] in ("error", "warning", "info", "style")
keys = [(f["file"], f["line"], f["column"], f["rule"]) for f in d["findings"]]
assert keys == sorted(keys), keys
assert list(d["summary"]) == ["files", "findings", "errors", "warnings", "infos"]
assert d["summary"] == {"files": 2, "findings": 2, "errors": 1, "warnings": 1, "infos": 0}, d["summary"]
PY

check "--output writes the file" 1 "$bin" --format json --output "$tmp/report.json" "$tmp/err.Dockerfile"
if grep -q '"GL101"' "$tmp/report.json" && [ ! -s "$tmp/out" ]; then pass=$((pass+1)); else echo "FAIL --output"; fail=$((fail+1)); fi
check "--list-rules" 0 "$bin" --list-rules
has "lists GL101" '^GL101  image-latest-tag'
has "lists GL900" '^GL900  parse-error'
check "--explain" 0 "$bin" --explain gl301
has "explain shows before/after" '^Before:'
check "--explain unknown" 2 "$bin" --explain GL000
# --gpu: names from the knowledge table, SMs, host (a fake nvidia-smi), usage errors
printf 'FROM nvidia/cuda:13.0.0-runtime-ubuntu24.04\n' > "$tmp/cuda13.Dockerfile"
check "no --gpu: no architecture finding" 0 "$bin" "$tmp/cuda13.Dockerfile"
hasnt "no GL208 without a target GPU" 'GL208'
check "--gpu V100 on CUDA 13 is an error" 1 "$bin" --gpu V100 "$tmp/cuda13.Dockerfile"
has "GL208 names the GPU and its SM" 'no longer supports V100 \(Volta, sm_70\).*\[GL208 cuda-lacks-gpu-arch\]'
check "--gpu 'NVIDIA H100 80GB HBM3' is known" 0 "$bin" --gpu 'NVIDIA H100 80GB HBM3' "$tmp/cuda13.Dockerfile"
check "--gpu 7.0 repeated with --gpu H100" 1 "$bin" --gpu H100 --gpu 7.0 "$tmp/cuda13.Dockerfile"
check "unknown --gpu is a usage error" 2 "$bin" --gpu H101 "$tmp/cuda13.Dockerfile"
cp "$tmp/err" "$tmp/out"
has "the error lists the accepted forms" "--gpu: \`H101\` is no GPU the knowledge table knows: .*sm_90, 9.0 or 90\), or host"
check "empty --gpu is a usage error" 2 "$bin" --gpu '' "$tmp/cuda13.Dockerfile"
printf '#!/bin/sh\n[ "$1" = --query-gpu=compute_cap ] || exit 4\necho 7.0\n' > "$tmp/smi"
chmod +x "$tmp/smi"
check "--gpu host reads nvidia-smi" 1 env GPULINT_NVIDIA_SMI="$tmp/smi" "$bin" --gpu host "$tmp/cuda13.Dockerfile"
has "host names this host's GPU" "no longer supports this host's GPU \(Volta, sm_70\)"
check "--gpu host without a GPU exits 2" 2 env GPULINT_NVIDIA_SMI=none "$bin" --gpu host "$tmp/cuda13.Dockerfile"
cp "$tmp/err" "$tmp/out"
has "host error says why" '--gpu: host: no GPU found'
printf 'gpu: [H100, V100]\n' > "$tmp/gpu.yaml"
check "config gpu: list" 1 "$bin" --config "$tmp/gpu.yaml" "$tmp/cuda13.Dockerfile"
check "--gpu replaces the config's list" 0 "$bin" --config "$tmp/gpu.yaml" --gpu H100 "$tmp/cuda13.Dockerfile"
check "--print-config shows gpu" 0 "$bin" --config "$tmp/gpu.yaml" --gpu A100 --gpu L4 --print-config
has "gpu list from the command line" "^gpu:  # command line \(--gpu\)"
has "gpu item" "^  - 'L4'"
printf 'meta:\n  collected: "2026-01-01"\nsources:\n  a: {url: x}\ncuda_toolkit_drivers:\n- {cuda: "12.4", linux_min_driver: "550.54.14"}\nminor_version_compat:\n- {cuda_major: 12, linux_min_driver: "525.60.13"}\ndriver_branches:\n- {branch: R550}\n' > "$tmp/kb-no-gpus.yaml"
check "--knowledge without GPU architectures: --gpu is a usage error" 2 "$bin" --knowledge "$tmp/kb-no-gpus.yaml" --gpu H100 "$tmp/cuda13.Dockerfile"
cp "$tmp/err" "$tmp/out"
has "it says the table has no GPU architectures" 'no gpu_architectures section'
printf 'gpu: 5:\n' > "$tmp/badgpu.yaml"
check "a bad config gpu: is a usage error" 2 "$bin" --config "$tmp/badgpu.yaml" "$tmp/cuda13.Dockerfile"

check "--version" 0 "$bin" --version
has "version" '^gpulint [0-9]+\.[0-9]+\.[0-9]+ \(CUDA knowledge table of [0-9]{4}-[0-9]{2}-[0-9]{2}\)$'
check "--help" 0 "$bin" --help
has "help" '^usage: gpulint'
printf 'ARG BASE=nvidia/cuda:12.4.1-base-ubuntu22.04\nFROM ${BASE}\n' > "$tmp/arg.Dockerfile"
check "--build-arg overrides the default" 1 "$bin" --build-arg BASE=nvidia/cuda "$tmp/arg.Dockerfile"
check "default ARG is clean" 0 "$bin" "$tmp/arg.Dockerfile"

# ---- the config file: ignore-paths, enable, thresholds, --print-config ----
cp_=$tmp/cfgproj
mkdir -p "$cp_/generated/lib" "$cp_/svc" "$cp_/legacy/a"
cp "$tmp/err.Dockerfile" "$cp_/generated/lib/Dockerfile"
cp "$tmp/err.Dockerfile" "$cp_/svc/Dockerfile"
cp "$tmp/err.Dockerfile" "$cp_/legacy/a/Dockerfile"
printf 'FROM nvidia/cuda:12.4.1-runtime-ubuntu22.04\n' > "$cp_/svc/clean.Dockerfile"
cat > "$cp_/.gpulint.yaml" <<'YAML'
# globs are relative to this file's directory
enable: [GL103]
ignore-paths:
  - generated
  - 'legacy/**': [GL101, GL204]
  - '**/clean.Dockerfile': GL999
YAML
check "ignore-paths: walk" 1 bash -c "cd '$cp_' && '$bin' --format json"
has "files outside the ignored dir" '"files": 3'
hasnt "an ignored directory is not walked" 'generated/'
has "GL103 enabled by the config" '"rule": "GL103"'
has "rules still fire outside the glob" '"file": "./svc/Dockerfile",'
python3 - "$tmp/out" <<'PY' && pass=$((pass+1)) || { echo "FAIL ignore-paths rules"; fail=$((fail+1)); }
import json, sys
d = json.load(open(sys.argv[1]))
legacy = sorted(f["rule"] for f in d["findings"] if f["file"].startswith("./legacy/"))
assert legacy == ["GL103"], legacy        # GL101 and GL204 dropped there, GL103 kept
gl902 = [f for f in d["findings"] if f["rule"] == "GL902"]
assert len(gl902) == 1 and gl902[0]["line"] == 6 and "GL999" in gl902[0]["message"], gl902
PY
check "ignore-paths from a subdirectory (config found upward)" 1 \
  bash -c "cd '$cp_/svc' && '$bin' --format json . ../generated/lib/Dockerfile ../legacy/a/Dockerfile"
has "named files below an ignored dir are skipped" '"files": 3'
hasnt "generated never linted" 'generated/lib'
check "ignore-paths: a named ignored file is not linted" 0 \
  bash -c "cd '$cp_' && '$bin' --format json generated/lib/Dockerfile ./generated//lib/Dockerfile"
has "nothing linted" '"files": 0'
check "--no-config: everything linted, GL103 off" 1 bash -c "cd '$cp_' && '$bin' --no-config --format json"
has "all four" '"files": 4'
hasnt "no GL103" 'GL103'
printf 'ignore-paths: [vendor/[ab]\n' > "$tmp/badglob.yaml"
check "bad YAML in ignore-paths" 2 "$bin" --config "$tmp/badglob.yaml" "$tmp/clean.Dockerfile"
printf 'ignore-paths:\n  - "x/[ab"\n' > "$tmp/badglob.yaml"
check "bad glob" 2 "$bin" --config "$tmp/badglob.yaml" "$tmp/clean.Dockerfile"
if grep -q "badglob.yaml:2:5: expected a \`]\` closing the \`\[\` set" "$tmp/err"; then pass=$((pass+1)); else
  echo "FAIL bad glob message"; cat "$tmp/err"; fail=$((fail+1)); fi
printf 'driver: 535\ndata-file-size: 100 parsecs\n' > "$tmp/badsize.yaml"
check "bad size" 2 "$bin" --config "$tmp/badsize.yaml" "$tmp/clean.Dockerfile"
if grep -q "badsize.yaml:2:17: expected a size of at least 1 byte" "$tmp/err"; then pass=$((pass+1)); else
  echo "FAIL bad size message"; cat "$tmp/err"; fail=$((fail+1)); fi

# GL303's size thresholds on an image (an OCI layout made from a GNU tar layer)
mkdir -p "$tmp/img/src/data"
head -c 2097152 /dev/zero > "$tmp/img/src/data/shard.bin"
tar -C "$tmp/img/src" -cf "$tmp/img/layer.tar" data
python3 fixtures/images/hostile.py ok "$tmp/img/oci" "$tmp/img/layer.tar"
check "image: 2 MiB of data is below the defaults" 0 "$bin" --format json --no-config "$tmp/img/oci"
hasnt "no GL303 by default" 'GL303'
printf 'data-file-size: 1MiB\n' > "$tmp/img/file.yaml"
check "image: data-file-size" 0 "$bin" --format json --config "$tmp/img/file.yaml" "$tmp/img/oci"
has "GL303 over data-file-size" '"rule": "GL303"'
has "GL303 names the file and its size" 'data/shard.bin.*2\.0 MiB'
# the tty report puts an image finding at its place in the image, not at :0:0
check "image: tty" 0 "$bin" --no-color --config "$tmp/img/file.yaml" "$tmp/img/oci"
has "tty image location" '/img/oci: linux/amd64 layer sha256:[0-9a-f]{12} /data/shard\.bin: warning: the image holds data: `/data/shard\.bin`, 2\.0 MiB; .*\[GL303 dataset-in-image\]$'
hasnt "tty image finding at :0:0" ':0:0:'
printf 'data-total-size: 2MiB\n' > "$tmp/img/total.yaml"
check "image: data-total-size" 0 "$bin" --format json --config "$tmp/img/total.yaml" "$tmp/img/oci"
has "GL303 over data-total-size" 'data/shard.bin.*the largest of 1 data files'

# --print-config: every setting with its origin, read back by --config
check "--print-config" 0 bash -c "cd '$cp_/svc' && '$bin' --print-config --driver R550 --ignore gl411"
has "origin: command line" "^driver: 'R550'  # command line \(--driver\)$"
has "origin: the file and its line" "^enable:  # $cp_/.gpulint.yaml:2$"
has "origin: default" '^failure-threshold: error  # default$'
has "lists add up, ids spelt as rules" '^  - GL411$'
has "default patterns" "^dataset-args:  # default$"
has "sizes" '^data-file-size: 100MiB  # default$'
has "ignore-paths" "^  - 'legacy/\*\*': \[GL101, GL204\]$"
cp "$tmp/out" "$cp_/printed.yaml"
check "--print-config output read back" 0 bash -c "cd '$cp_/svc' && '$bin' --print-config --config ../printed.yaml"
has "origins now name the printed file" "^driver: 'R550'  # \.\./printed\.yaml:[0-9]+$"
if diff <(sed 's/  #.*//; /^#/d' "$cp_/printed.yaml") <(sed 's/  #.*//; /^#/d' "$tmp/out") >/dev/null; then
  pass=$((pass+1)); else echo "FAIL --print-config round trip:"; diff <(sed 's/  #.*//; /^#/d' "$cp_/printed.yaml") <(sed 's/  #.*//; /^#/d' "$tmp/out"); fail=$((fail+1)); fi
check "the printed config lints as the original" 1 bash -c "cd '$cp_' && '$bin' --config printed.yaml --format json"
has "same files" '"files": 3'

# compose `include:` (RULES.md second round): a compose file named alone brings the files it
# includes (whatever their names, relative to its directory, `path:` lists too); a file
# that the walk or another include reaches again is linted once
ci=$tmp/compose-include; mkdir -p "$ci/gpu"
printf 'include:\n  - gpu/train.yaml\n  - path: [common.yml, missing.yaml]\nservices:\n  web:\n    image: nginx:1.27\n' > "$ci/compose.yaml"
printf 'services:\n  train:\n    image: nvcr.io/nvidia/pytorch:24.05-py3\n    command: python train.py\n' > "$ci/gpu/train.yaml"
printf 'include:\n  - compose.yaml\nservices:\n  cache:\n    image: redis\n' > "$ci/common.yml"
check "compose include: named alone" 0 "$bin" --format json "$ci/compose.yaml"
has "the included file is linted" '"file": ".*/gpu/train.yaml"'
has "the path: list is followed" '"file": ".*/common.yml"'
has "three files, each once (the cycle back to compose.yaml ends)" '"files": 3'
check "compose include: a walk lints each file once" 0 "$bin" --format json "$ci"
has "three files in the walk" '"files": 3'
check "compose include: named twice, linted once" 0 "$bin" --format json "$ci/compose.yaml" "$ci/gpu/train.yaml"
has "still three" '"files": 3'
# an include that climbs out of the file's directory is named as compose folds it
mkdir -p "$ci/apps/rag" "$ci/deploy"
printf 'include:\n  - ../../deploy/nims.yaml\nservices:\n  ui:\n    image: nginx:1.27\n' > "$ci/apps/rag/compose.yaml"
printf 'services:\n  nim:\n    image: nvcr.io/nim/meta/llama-3.1-8b-instruct\n' > "$ci/deploy/nims.yaml"
check "compose include: ../ folded" 0 "$bin" --format json "$ci/apps/rag/compose.yaml"
has "the include's findings name deploy/nims.yaml" '"file": "[^"]*compose-include/deploy/nims.yaml"'
hasnt "no apps/rag/../../ in a path" 'rag/\.\./'

echo "cli: $pass passed, $fail failed"
[ "$fail" = 0 ]
