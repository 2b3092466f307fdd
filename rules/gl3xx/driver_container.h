/* SPDX-License-Identifier: Apache-2.0 */
/*
 * driver_container.h: does a Dockerfile build a driver container, an image whose job is
 * to put the NVIDIA driver on the node it runs on (NVIDIA's gpu-driver-container, the
 * vGPU manager, a precompiled-module image)? Such an image is GPU plumbing as RULES.md's
 * third round has it for NVIDIA's `driver` and `vgpu-manager` images: it ships the
 * driver by design (GL203), runs no CUDA workload (GL201, GL202, GL204, GL205, GL208,
 * GL209) and builds or links the kernel module against the node's kernel when it starts
 * (GL302: its compilers are run-time tools).
 *
 * The signs, each of the shipped image: its ENTRYPOINT (the nearest in the final stage's
 * FROM chain) runs `nvidia-driver`, the driver container's entry program (`nvidia-driver
 * init`); it installs an NVIDIA kernel-module package (kmod-nvidia*, nvidia-dkms-*,
 * nvidia-kernel-source-*, nvidia-kernel-open-*, linux-modules-nvidia-*,
 * linux-objects-nvidia-*, linux-signatures-nvidia-*, an RPM file of one); or it copies in
 * the vGPU host manager's installer (NVIDIA-Linux-*-vgpu-kvm.run), which only a
 * hypervisor host runs. An application image does none of these: it needs the user-mode
 * driver at most, which GL203 reports.
 *
 * (In gl3xx beside image_site.h: rules of gl2xx and of gl3xx ask it, and gl2xx may use
 * gl3xx, not the other way.)
 */
#ifndef GPULINT_RULES_DRIVER_CONTAINER_H
#define GPULINT_RULES_DRIVER_CONTAINER_H

#include <stdbool.h>

struct gl_doc;

/* Is doc a Dockerfile whose shipped image is a driver container (above)? False for
 * every other input. */
bool gl_df_driver_container(const struct gl_doc *doc);

#endif
