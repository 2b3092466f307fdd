/* SPDX-License-Identifier: Apache-2.0 */
/*
 * k8s_internal.h: the pieces of the Kubernetes parser (k8s.c: recognition, objects, the
 * walk for pod specs; k8s_pod.c: one pod spec's containers -> launches). Not public.
 */
#ifndef GPULINT_PARSERS_K8S_INTERNAL_H
#define GPULINT_PARSERS_K8S_INTERNAL_H

#include "linter/core/hashmap.h"
#include "linter/core/model.h"
#include "parsers/yaml/yaml_tree.h"

/* A DRA claim (template) of the file and what it says of its devices: configured for MPS
 * sharing, or holding no GPU (an IMEX channel of a ComputeDomain, a device class that
 * names no GPU), or neither. */
struct k8s_claim {
    const char *name;
    const char *ns;           /* its metadata.namespace, "" when it names none */
    bool mps, mem_capped;
    bool not_gpu;
};

struct k8s {
    struct gl_doc *doc;
    struct yt_stream *s;
    struct k8s_claim *claims;
    size_t nclaims, capclaims;
    struct gl_map claim_keys;  /* the claims by namespace and name, the first of each */
    struct gl_map claim_names; /* by name alone: what a claim of another namespace says */
    bool claims_mapped;        /* (both made at the first look-up: k8s_claim_named) */
    unsigned npods;           /* pod specs seen: gl_pod_facts.pod */
    const char *ns;           /* metadata.namespace of the object being read, or NULL */
    bool core_kind;           /* the object is a Pod or a core workload (Deployment, Job...):
                                 a container of it without an image is a patch's */
};

/* Note obj's claim when it is a ResourceClaim or ResourceClaimTemplate (mps, mem_capped:
 * it asks for MPS; not_gpu: it names no GPU class), or a ComputeDomain's channel template
 * (k8s_claims.c). */
void k8s_note_claim(struct k8s *k, struct yt_node *obj);
/* The claim (ResourceClaim, template) `name` of namespace ns (NULL: none named) that a pod
 * of ns refers to, or NULL when the file has none or cannot tell. Claims are namespaced: the
 * first of that namespace and name; else, when the pod or a claim names no namespace (the
 * one the file is applied to), what the claims of that name that may be in it agree on
 * (a NIC claim of another namespace is not the GPU claim of the pod's). Through maps (a
 * scan for each of a pod's claims was n^2: 4,000 claims, 1.5 s). */
const struct k8s_claim *k8s_claim_named(struct k8s *k, const char *ns, const char *name);
/* Free the maps k8s_claim_named made. */
void k8s_claims_free(struct k8s *k);

/* Add the launches of the pod spec (a mapping with `containers`, or a `runner`). ignore ids come from
 * a gpulint.io/ignore annotation (may be NULL); `owner` is the mapping whose `spec` the
 * pod spec is (a Pod, a template), for its annotations (NULL when none). Returns true
 * when some container requests a GPU. */
bool k8s_pod(struct k8s *k, struct yt_node *pod, struct yt_node *owner, const char **ignore_ids,
             size_t nids);

/* The container a pod spec holds under `runner` (OME's ServingRuntime and
 * InferenceService components: a PodSpec whose main container is `runner`, not an item of
 * `containers`): a mapping with a scalar `image` and a `name`, `command`, `args` or
 * `resources`; NULL when m holds none. */
struct yt_node *k8s_runner(struct yt_stream *s, struct yt_node *m);

/* Device plugin configs (k8s_sharing.c): the sharing.timeSlicing entries of a config
 * document `root` into doc->sharing, positions through m when the config is a string of
 * the file (NULL: as loaded); the configs a ConfigMap object's data values hold. */
void k8s_sharing_config(struct gl_doc *doc, struct yt_stream *s, struct yt_node *root,
                        const struct gl_srcmap *m);
/* The configs an object holds as strings: a ConfigMap's data values, a Flux HelmRelease's
 * `spec.values` and an Argo CD Application's `helm.valuesObject` (Helm values of the
 * device plugin chart, `config.map.<name>`, or the GPU operator's,
 * `devicePlugin.config.data.<name>`). */
void k8s_sharing_object(struct k8s *k, struct yt_node *obj);

#endif
