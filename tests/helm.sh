#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Helm charts and templates (fixtures/charts/; RULES.md, "Templates are not parse errors").
#
# Part 1 needs no helm: a chart is one GL903 at its Chart.yaml and never a GL900, a
# template named on the command line stands for its chart, a helm that cannot run is
# said. Part 2 renders the charts with the helm found as $GPULINT_HELM, on PATH, or in
# $GPULINT_TOOLS_DIR/bin (default ~/.cache/gpulint-tools/bin, where `bootstrap.sh test`
# installs it) and checks the findings against the template lines; without a helm it is
# skipped (exit 77 once part 1 passed).
set -uo pipefail
bin=$(realpath "${1:?usage: helm.sh path/to/gpulint}")
cd "$(dirname "$0")/.."
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
. tests/lib/checks.sh
charts=fixtures/charts
mkdir -p "$tmp/empty"

# The findings of the last JSON report, one `RULE file:line:col` line each, sorted.
brief() {
  python3 -c 'import json, sys
for f in json.load(open(sys.argv[1]))["findings"]:
    print("%s %s:%d:%d" % (f["rule"], f["file"], f["line"], f["column"]))' "$tmp/out" | sort
}
same() { # same NAME EXPECTED: brief equals EXPECTED (lines)
  if [ "$(brief)" = "$2" ]; then pass=$((pass+1)); else
    echo "FAIL $1:"; diff <(echo "$2") <(brief) | head -20; fail=$((fail+1)); fi
}
lint() { "$bin" --no-config --format json "$@"; }

# ---- part 1: no helm -------------------------------------------------------------
nohelm=(env PATH="$tmp/empty")
check "a chart without helm" 0 "${nohelm[@]}" "$bin" --no-config --format json $charts/gpu-trainer
same "one GL903 at its Chart.yaml" "GL903 $charts/gpu-trainer/Chart.yaml:1:1"
has "it says why" 'not rendered \(no `helm` on PATH\): its resources were not linted'
has "and how to lint it" 'helm template NAME fixtures/charts/gpu-trainer \| gpulint -'
check "a named template stands for its chart" 0 "${nohelm[@]}" "$bin" --no-config --format json \
  $charts/gpu-trainer/templates/job.yaml $charts/gpu-trainer/templates/_helpers.tpl
same "the chart once, no GL900" "GL903 $charts/gpu-trainer/Chart.yaml:1:1"
check "so do its Chart.yaml and values.yaml" 0 "${nohelm[@]}" "$bin" --no-config --format json \
  $charts/gpu-serve/values.yaml $charts/gpu-serve/Chart.yaml
same "not unknown inputs: the chart" "GL903 $charts/gpu-serve/Chart.yaml:1:1"
check "every chart without helm" 0 "${nohelm[@]}" "$bin" --no-config --format json $charts
same "one GL903 per chart, no GL900 on its templates" "GL903 $charts/device-plugin/Chart.yaml:1:1
GL903 $charts/gpu-serve/Chart.yaml:1:1
GL903 $charts/gpu-trainer/Chart.yaml:1:1
GL903 $charts/needs-values/Chart.yaml:1:1
GL903 $charts/time-slicing/Chart.yaml:1:1
GL903 $charts/unvendored-deps/Chart.yaml:1:1"
check "--helm that cannot run" 0 lint --helm "$tmp/empty/helm" $charts/gpu-serve
has "GL903 says so" 'cannot be run'

# stand-ins for helm: how it is run, and what gpulint makes of a helm that misbehaves
fake() { printf '#!/bin/sh\n%s\n' "$2" > "$tmp/$1"; chmod +x "$tmp/$1"; }
fake args 'for a; do printf "[%s]" "$a"; done > "$(dirname "$0")/argv"'
check "helm's arguments, no shell" 0 lint --helm "$tmp/args" --helm-values "$tmp/a b.yaml" \
  --helm-values '$(x).yaml' $charts/gpu-serve
if [ "$(cat "$tmp/argv")" = "[template][gpulint-lint][$charts/gpu-serve][--kube-version][1.34.0][-f][$tmp/a b.yaml][-f][\$(x).yaml]" ]
then pass=$((pass+1)); else echo "FAIL helm's argv: $(cat "$tmp/argv")"; fail=$((fail+1)); fi
same "empty output: nothing to lint" ""
fake failing 'echo "walk.go:74: found symbolic link in path" >&2; echo "Error: boom" >&2; echo "more" >&2; exit 1'
check "a failing helm" 0 lint --helm "$tmp/failing" $charts/gpu-serve
same "one GL903" "GL903 $charts/gpu-serve/Chart.yaml:1:1"
has "with its first Error: line" "failed: Error: boom\)"
fake endless 'exec yes "# Source: gpu-serve/templates/deployment.yaml"'
check "a helm that never stops writing" 0 lint --helm "$tmp/endless" --limit input-size=1MiB $charts/gpu-serve
same "is stopped at input-size: GL903" "GL903 $charts/gpu-serve/Chart.yaml:1:1"
fake hostile 'printf -- "---\\n# Source: x/../../../etc/passwd\\napiVersion: v1\\nkind: Pod\\nspec:\\n  containers:\\n  - name: c\\n    image: nvidia/cuda\\n"'
check "a # Source: path out of the chart" 1 lint --helm "$tmp/hostile" $charts/gpu-serve
same "is named, never read" "GL101 x/../../../etc/passwd:8:12
GL407 x/../../../etc/passwd:8:12"

# ---- part 2: with helm -----------------------------------------------------------
helm=${GPULINT_HELM:-$(command -v helm || true)}
[ -n "$helm" ] || helm=${GPULINT_TOOLS_DIR:-$HOME/.cache/gpulint-tools}/bin/helm
if ! [ -x "$helm" ] || ! "$helm" version >/dev/null 2>&1; then
  echo "helm: $pass passed, $fail failed; skip: no helm (bootstrap.sh test installs one)"
  [ "$fail" = 0 ] && exit 77
  exit 1
fi
trainer="GL101 $charts/gpu-trainer/templates/job.yaml:13:19
GL204 $charts/gpu-trainer/templates/job.yaml:13:19
GL410 $charts/gpu-trainer/templates/job.yaml:12:17
GL414 $charts/gpu-trainer/templates/job.yaml:15:11"
check "a GPU chart rendered" 1 lint --helm "$helm" --driver 535 $charts/gpu-trainer
same "findings at the template lines" "$trainer"
check "helm on PATH" 1 env PATH="$(dirname "$helm"):/usr/bin:/bin" "$bin" --no-config --format json \
  --driver 535 $charts/gpu-trainer/templates/job.yaml
same "a named template: its chart rendered" "$trainer"

check "--helm-values" 0 lint --helm "$helm" --driver 535 \
  --helm-values $charts/gpu-trainer/ci/shm-values.yaml $charts/gpu-trainer
same "the values turn shm on and pin the tag" "GL201 $charts/gpu-trainer/templates/job.yaml:13:19
GL414 $charts/gpu-trainer/templates/job.yaml:15:11"
has "the message names the template line, not the rendered one" 'image tag nvidia/cuda:12.2.2-runtime-ubuntu22.04, line 13\)'
printf 'helm: %s\nhelm-values: [%s]\n' "$helm" "$PWD/$charts/gpu-trainer/ci/shm-values.yaml" > "$tmp/cfg.yaml"
check "config helm: and helm-values:" 0 "${nohelm[@]}" "$bin" --config "$tmp/cfg.yaml" \
  --format json --driver 535 $charts/gpu-trainer
same "as with the options" "GL201 $charts/gpu-trainer/templates/job.yaml:13:19
GL414 $charts/gpu-trainer/templates/job.yaml:15:11"

check "a clean GPU chart" 0 lint --helm "$helm" --driver 535 $charts/gpu-serve
same "must not fire" ""
check "an infrastructure chart (fixtures/charts/device-plugin.SOURCE)" 0 lint --helm "$helm" --driver 535 $charts/device-plugin
same "renders, nothing to find" ""

# device plugin configs kept as chart values (config.map) and rendered into a ConfigMap:
# judged once, in the rendered ConfigMap (its lines came from the values: the resource's
# first template line); the chart's own values.yaml is not read a second time
check "time-slicing values rendered (fixtures/charts/time-slicing.SOURCE)" 0 lint --helm "$helm" $charts/time-slicing
same "GL406 once, in the template" "GL406 $charts/time-slicing/templates/configmap.yaml:2:1"

check "a chart helm cannot render" 0 lint --helm "$helm" $charts/needs-values
same "one GL903 at its Chart.yaml" "GL903 $charts/needs-values/Chart.yaml:1:1"
has "with helm's first error line" 'failed: Error: execution error at \(needs-values/templates/pod.yaml:8:16\): set .Values.model'
printf 'model: example.org/infer:1.0\n' > "$tmp/model.yaml"
check "the value it requires given" 0 lint --helm "$helm" --helm-values "$tmp/model.yaml" $charts/needs-values
same "then it renders" ""

# dependencies that are not vendored (no `helm dependency build`): its own templates are
# rendered and linted without them, and GL903 names what was left out; no copy is left
before=$(ls -d /tmp/gpulint-chart-* 2>/dev/null | wc -l)
check "a chart whose dependencies are not vendored" 0 lint --helm "$helm" --driver 535 $charts/unvendored-deps
same "its own templates linted, GL903 for the rest" "GL201 $charts/unvendored-deps/templates/deployment.yaml:15:19
GL410 $charts/unvendored-deps/templates/deployment.yaml:14:17
GL903 $charts/unvendored-deps/Chart.yaml:1:1"
has "GL903 names the dependencies left out" 'rendered without its dependencies chat-ui, cache, which are not in its charts/ directory'
if [ "$(ls -d /tmp/gpulint-chart-* 2>/dev/null | wc -l)" = "$before" ]; then pass=$((pass+1)); else
  echo "FAIL the chart's temporary copy was left in /tmp"; fail=$((fail+1)); fi

check "bounded: a rendering over input-size" 0 lint --helm "$helm" --limit input-size=200 $charts/gpu-trainer
same "is GL903, not linted" "GL903 $charts/gpu-trainer/Chart.yaml:1:1"
has "naming the limit" 'too large: .*input-size'

# a rendered stream on stdin: the # Source: path as helm wrote it
check "stdin, templates under the working directory" 1 bash -c \
  "cd $charts && '$helm' template x gpu-trainer | '$bin' --no-config --format json --driver 535 -"
same "mapped into the templates" "${trainer//$charts\//}"
check "stdin, templates elsewhere" 1 bash -c \
  "cd '$tmp' && '$helm' template x '$PWD/$charts/gpu-trainer' | '$bin' --no-config --format json --driver 535 -"
same "lines as --show-only prints them" "GL101 gpu-trainer/templates/job.yaml:16:31
GL204 gpu-trainer/templates/job.yaml:16:31
GL410 gpu-trainer/templates/job.yaml:15:17
GL414 gpu-trainer/templates/job.yaml:18:11"
"$helm" template x $charts/gpu-trainer --show-only templates/job.yaml > "$tmp/shown"
if sed -n 15p "$tmp/shown" | grep >/dev/null -- '- name: trainer' && sed -n 16p "$tmp/shown" | grep >/dev/null 'image: "nvidia/cuda:latest"'; then
  pass=$((pass+1)); else echo "FAIL --show-only numbering:"; cat -n "$tmp/shown" | head -20; fail=$((fail+1)); fi

# inline ignores in a template survive rendering
cp -r $charts/gpu-trainer "$tmp/ignored"
sed -i 's/^        - name: trainer/        # gpulint ignore=GL410\n&/' "$tmp/ignored/templates/job.yaml"
check "an inline ignore in a template" 1 lint --helm "$helm" --driver 535 "$tmp/ignored"
hasnt "drops the finding it names" GL410
has "and only that" '"rule": "GL101"'

echo "helm: $pass passed, $fail failed"
[ "$fail" = 0 ]
