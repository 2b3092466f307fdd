#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# POSIX sh (dash -n accepts it): no bashisms.
set -eu
GPUS=${GPUS:-1}
case "$GPUS" in
  [0-9]*) ;;
  *) echo "GPUS must be a number" >&2; exit 1 ;;
esac
if [ "$GPUS" -gt 0 ]; then
  FLAGS="--gpus $GPUS"
fi
result=`echo done`
cat << EOF > /tmp/cfg
gpus=$GPUS
EOF
exec docker run --rm --shm-size=1g nvidia/cuda:12.4.1-base-ubuntu22.04 nvidia-smi
