/* SPDX-License-Identifier: Apache-2.0 */
/*
 * k8s_internal.h: the pieces of the Kubernetes parser (k8s.c: recognition, objects, the
 * walk for pod specs; k8s_pod.c: one pod spec's containers -> launches). Not public.
 */
#ifndef GPULINT_PARSERS_K8S_INTERNAL_H
#define GPULINT_PARSERS_K8S_INTERNAL_H

#include "linter/core/model.h"
#include "parsers/yaml/yaml_tree.h"

/* A DRA claim (template) of the file configured for MPS sharing. */
struct k8s_mps_claim {
    const char *name;
    bool mem_capped;
};

struct k8s {
    struct gl_doc *doc;
    struct yt_stream *s;
    struct k8s_mps_claim *mps;
    size_t nmps, capmps;
};

/* Add the launches of the pod spec (a mapping with `containers`). ignore ids come from
 * a gpulint.io/ignore annotation (may be NULL). Returns true when some container
 * requests a GPU. */
bool k8s_pod(struct k8s *k, struct yt_node *pod, const char **ignore_ids, size_t nids);

#endif
