#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Bash constructs a reader of real scripts meets; bash -n accepts every line.
set -euo pipefail
shopt -s nullglob
declare -A gpus=([a100]=8 [h100]="8")
readonly N=${1:-2}
function usage { echo "usage: $0 [-n N]" >&2; }
cleanup() { rm -rf -- "${tmp:?}"; }
trap cleanup EXIT
tmp=$(mktemp -d)
exec 3>&1 4>"$tmp/log"
exec {logfd}>>"$tmp/log2"
coproc worker { cat; }
while getopts ":n:h" opt; do
  case "$opt" in
    n) N=$OPTARG ;;
    h|\?) usage; exit 0 ;;
    *) ;;
  esac
done
case $N in
  [0-9]*) : ;;
  *) echo "bad" ;;
esac
if [[ $N =~ ^[0-9]+$ && ${#N} -lt 3 ]]; then (( N += 1 )); fi
for (( i = 0; i < N; i++ )); do echo "$i"; done
select opt in a b; do break; done < /dev/null
arr=( "one" 'two' $'three\n' )
echo "${arr[@]:1}" "${!gpus[@]}" "${N//[^0-9]/}" "${tmp%/}" "${tmp##*/}" "${N^^}"
echo $(( (N + 1) * 2 )) $((N<<1)) $[N+1]
{ echo grouped; } 2>/dev/null
( cd / && pwd ) | tee >(wc -l >&2) > /dev/null
diff <(echo a) <(echo b) || true
v=$(case $N in 1) echo one ;; *) echo many ;; esac)
cat <<-	END
	tab-stripped body
	END
cat <<'END' | sed 's/x/y/'
$not_expanded `nor this` $(nor this)
END
echo "nested $(echo "inner $(echo "deepest")")" `echo back`
[ -n "${CUDA_VISIBLE_DEVICES-}" ] && echo yes || echo no
printf -v out '%s' "x"; let "N = N + 1"
time docker run --rm --gpus "device=${GPU:-0}" --shm-size=8g \
  -v "$PWD/data:/data:ro" nvcr.io/nvidia/pytorch:24.05-py3 \
  python -c 'import torch; print(torch.cuda.is_available())'
