#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# Here-strings inside command and process substitutions, after the pattern of
# NVIDIA/enroot src/runtime.sh (the `exec {fd}< <(...)` block): bash -n accepts all of it.
exec {fd}< <(
    tr '\0' '\n' < "/proc/${pid}/environ"
    for env in ${environ[@]+"${environ[@]}"}; do
        awk '{ print /=/ ? $0 : $0"="ENVIRON[$0] }' <<< "${env}"
    done
)
x=$(cat <<< "$y")
z=$(read -r a b <<<"$line"; echo "$a")
w=$(cat <<EOF
body with a "quote and a ) paren
EOF
)
docker run --gpus all nvidia/cuda:12.4.1-base-ubuntu22.04 nvidia-smi
