/* SPDX-License-Identifier: Apache-2.0 */
/*
 * cuda_check.h: what the CUDA rules (GL201 cuda-exceeds-driver, GL202
 * framework-cuda-mismatch, GL204 cuda-version-unknown) share: whether a fact counts,
 * where it is reported and how messages name it, and the judgement of one CUDA version
 * against a target driver from the knowledge base.
 *
 * The judgement (gl_cuda_judge), in order:
 *   1. major only ("12" from nvidia-*-cu12, jax[cuda12]): only the major's minor-version
 *      compatibility (MVC) floor decides: below it, FAIL.
 *   2. a Table-3 row for the version (exact, or the newest of the same major.minor below
 *      it): target >= the row's driver -> OK; else target >= the MVC floor -> MVC (runs
 *      without PTX JIT of newer code); else FAIL (also for 10.x, which has no MVC).
 *   3. newer than every row: the MVC floor decides when the target is below it (FAIL),
 *      else UNKNOWN (never guessed); same for gaps and versions older than the table,
 *      which are OK when the driver's native CUDA covers them.
 *   Independently of the rows, a CUDA major newer than the newest CUDA the target driver
 *   supports natively (exactly known) cannot run under MVC: FAIL.
 *   4. an NGC release whose notes list the target's branch for forward compatibility
 *      (data-center GPUs, through the CUDA compat package the container ships) turns
 *      MVC or FAIL into FWD_COMPAT.
 */
#ifndef GPULINT_RULES_CUDA_CHECK_H
#define GPULINT_RULES_CUDA_CHECK_H

#include "rules/check.h"
#include "knowledge/kb.h"

enum gl_judge_verdict {
    GL_JUDGE_OK,
    GL_JUDGE_UNKNOWN,     /* the table cannot tell (newer than the table, gaps) */
    GL_JUDGE_MVC,         /* between the MVC floor and the Table-3 driver */
    GL_JUDGE_FWD_COMPAT,  /* too old, but the NGC release lists this branch for fwd compat */
    GL_JUDGE_FAIL,        /* CUDA initialisation fails */
};

struct gl_judgement {
    enum gl_judge_verdict verdict;
    const char *need;             /* Table-3 driver of the version's row, NULL */
    const char *row_cuda;         /* that row's version ("12.4.1"), NULL */
    bool row_exact;               /* the row is for exactly this version */
    const char *floor;            /* MVC floor of the major, NULL when there is none */
    bool has_mvc;                 /* the major has minor-version compatibility */
    bool newer_than_table;
    bool major_only;
    bool new_major;               /* the major is newer than the driver's native CUDA major */
    const char *driver_max_cuda;  /* newest CUDA the target supports natively, NULL */
    const char *fwd_driver;       /* the NGC forward-compat driver that covers the target */
};

void gl_cuda_judge(const struct gl_kb *kb, const char *cuda, const char *driver,
                   const struct gl_kb_ngc_release *ngc, struct gl_judgement *out);

/* The knowledge base in use for this check. */
const struct gl_kb *gl_cuda_kb(const struct gl_check *c);

/* Does the fact belong to an image that runs: a shipped Dockerfile stage (not one built on
 * NVIDIA's GPU plumbing, gl_imageref_nvidia_infra), a launch, or an image archive / .def
 * base / kustomization `images:` entry (no stage, no launch)? */
bool gl_cuda_fact_counts(const struct gl_doc *doc, const struct gl_cuda_fact *f);

/* gl_cuda_fact_counts, and the image starts CUDA on a GPU host: not a launch where no GPU
 * is (no_gpu_host: a CI job on a CPU runner builds or tests on the CPU), nor a CPU role
 * beside GPU ones (secondary_role: an MPIJob's launcher, a Ray head, a compose service's
 * CPU variant: it asks for no GPU, so CUDA starts in the other roles), and not the
 * version of an nvidia/cuda `-base` tag of GPU plumbing (gl_cuda_fact_unrequired_base). The
 * driver and GPU checks (GL201, GL204, GL208, GL209) judge only these; GL202 judges every
 * fact that counts (two CUDA runtimes ship wherever the image runs). */
bool gl_cuda_fact_on_gpu(const struct gl_doc *doc, const struct gl_cuda_fact *f);
/* Does the launch run where no CUDA starts: on a host with no GPU (no_gpu_host: a CI job on
 * a CPU runner), or without a GPU by design (gl_launch_cpu_by_design: a builder image or a
 * build-only command that asks for none)? The driver checks do not judge its image; a
 * client or SDK image without a GPU (perf_analyzer may open the device) still is. */
bool gl_cuda_launch_off_gpu(const struct gl_doc *doc, const struct gl_launch *l);

/* Does the fact's image turn the container toolkit's CUDA check off
 * (NVIDIA_DISABLE_REQUIRE=true|1|yes in its shipped stage, its launch or its config)? */
bool gl_cuda_require_disabled(const struct gl_doc *doc, const struct gl_cuda_fact *f);

/* Is the fact the version of an nvidia/cuda `-base` tag (`12.2.0-base-ubi8`: cudart and
 * cuda-compat, no CUDA library) of a Dockerfile whose shipped image turns the toolkit's
 * requirement off and installs no Python? GPU plumbing (device plugins, feature discovery,
 * exporters: Go binaries, DCGM) ships on such a base to start on every driver and talks to
 * the driver through NVML: nothing says a program in it uses that CUDA. A Python workload
 * on the same base (a framework may load its cudart) keeps the version; the image's other
 * facts (a framework's wheel, CUDA packages) are judged as ever. */
bool gl_cuda_fact_unrequired_base(const struct gl_doc *doc, const struct gl_cuda_fact *f);

/* Where the finding for a fact goes: its token, or for a fact read from another file
 * the place the doc names that file. */
struct gl_loc gl_cuda_fact_report_loc(const struct gl_cuda_fact *f);

/* "base tag nvidia/cuda:12.4.1-base-ubuntu22.04, line 1" or
 * "torch==2.1.0+cu121, requirements.txt:3:7". In a rendered Helm stream the line is the
 * template's (gl_doc_origin), as the finding's own position is. */
const char *gl_cuda_fact_where(const struct gl_doc *doc, const struct gl_cuda_fact *f,
                               char *buf, size_t n);

/* One finding per rule per Dockerfile instruction: flags indexed by fact instr
 * (calloc'd, free it). gl_cuda_instr_claim() is true the first time an instruction is
 * claimed (and for facts outside any instruction). Linear in the number of facts. */
bool *gl_cuda_instr_flags(const struct gl_doc *doc);
bool gl_cuda_instr_claim(bool *flags, const struct gl_cuda_fact *f);

/* Do two facts describe the same image (the shipped Dockerfile image, one launch, one
 * archive)? */
bool gl_cuda_same_subject(const struct gl_doc *doc, const struct gl_cuda_fact *a,
                          const struct gl_cuda_fact *b);

#endif
