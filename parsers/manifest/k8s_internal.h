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

/* A DRA claim (template) of the file that says something about its devices: configured
 * for MPS sharing, or holding no GPU (an IMEX channel of a ComputeDomain, a device class
 * that names no GPU). */
struct k8s_claim {
    const char *name;
    bool mps, mem_capped;
    bool not_gpu;
};

struct k8s {
    struct gl_doc *doc;
    struct yt_stream *s;
    struct k8s_claim *claims;
    size_t nclaims, capclaims;
    struct gl_map claim_names; /* claims[0, nmapped) by name (k8s_claim_named) */
    size_t nmapped;
    unsigned npods;           /* pod specs seen: gl_pod_facts.pod */
    const char *ns;           /* metadata.namespace of the object being read, or NULL */
    bool core_kind;           /* the object is a Pod or a core workload (Deployment, Job...):
                                 a container of it without an image is a patch's */
};

/* Note obj's claim when it is a ResourceClaim or ResourceClaimTemplate that asks for MPS
 * (mps, mem_capped) or names no GPU class, or a ComputeDomain's channel template
 * (k8s_claims.c). */
void k8s_note_claim(struct k8s *k, struct yt_node *obj);
/* The first claim (ResourceClaim, template) of the file named `name`, or NULL: through a
 * map of their names (a scan for each of a pod's claims was n^2: 4,000 claims, 1.5 s). */
const struct k8s_claim *k8s_claim_named(struct k8s *k, const char *name);

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
