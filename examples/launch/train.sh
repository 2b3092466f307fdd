#!/usr/bin/env bash
# Launch the trainer on a GPU node (see examples/README.md for what gpulint finds here).
set -euo pipefail
IMAGE=nvcr.io/nvidia/pytorch:24.05-py3

# GL402: checkpoints are written into the container, which --rm deletes at exit
# GL410: PyTorch DataLoader workers with the 64 MiB default /dev/shm
docker run --rm --gpus all -v /datasets/imagenet:/data:ro "$IMAGE" \
    torchrun --nproc_per_node=8 train.py --data-dir /data --output-dir /checkpoints

# the same run done right: nothing to report
docker run --rm --gpus all --ipc=host --ulimit memlock=-1 --ulimit stack=67108864 \
    -v /datasets/imagenet:/data:ro -v /scratch/ckpt:/checkpoints "$IMAGE" \
    torchrun --nproc_per_node=8 train.py --data-dir /data --output-dir /checkpoints
