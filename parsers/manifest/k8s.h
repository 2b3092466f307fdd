/* SPDX-License-Identifier: Apache-2.0 */
/*
 * k8s.h: Kubernetes manifests -> launches.
 *
 * Recognition (gl_input_k8s): never by name; by content for .yml/.yaml candidates: some
 * document is a mapping with `kind` and `apiVersion` (or `kind` and `spec`: a missing
 * apiVersion is tolerated), or a `List` of such items.
 *
 * Pods: any mapping anywhere in an object with a `containers` sequence of mappings is a
 * pod spec (Pod spec, every PodTemplateSpec: Deployment, Job, CronJob, Kubeflow replica
 * specs, KubeRay head/worker groups, Katib trial specs, ...); so is a mapping whose
 * `runner` is a container (OME's ServingRuntime/InferenceService components: a PodSpec
 * with its main container under `runner`, which is one more launch of that pod; Dynamo's
 * `extraPodSpec.mainContainer` is not read: its GPUs are given outside the container);
 * a pod spec is not searched further.
 * A skaffold config (apiVersion skaffold/...): each `build.artifacts[].image` (and each
 * profile's) is an image the project builds (doc->project, GL_PROJECT_BUILT | RETAGGED:
 * skaffold writes its own tag into the manifests that name it).
 * A Kubeflow TrainJob (apiVersion trainer.kubeflow.org/...): `spec.trainer.image` and each
 * `spec.initializer.*.image` are image references (GL_REF_LAUNCH) with no launch: the
 * runtime it names gives the pods (their GPUs, mounts, /dev/shm), so only the images are
 * judged (RULES.md, second round).
 * Each container and initContainer is one gl_launch (kind GL_LAUNCH_K8S, tool
 * "kubernetes", loc and name = its `name` value, group = the file path: all pods of a
 * file run at the same time):
 *  - a container of a Pod or core workload (Deployment, StatefulSet, DaemonSet, ReplicaSet,
 *    ReplicationController, Job, CronJob, PodTemplate) with no `image` (empty or null too)
 *    is a fragment (launch.fragment): a strategic-merge patch (kustomize `patches:`,
 *    `kubectl patch`) names the container it changes and gives only what changes, so no
 *    finding rests on what it lacks (its base gives the cpu, memory, mounts and /dev/shm),
 *    as a compose override fragment. Custom resources are read as written, and so is a
 *    container whose image is a collection (an unquoted `{{ .Values.image }}`).
 *  - image -> gl_ref (GL_REF_LAUNCH); argv = command words then args words (k8s
 *    `$(VAR)` references are replaced by literal env values; a reference to an env var
 *    with an unknown value makes the word opaque; others stay as written, as Kubernetes
 *    does); `sh -c SCRIPT` scripts are spliced in (compose_common.h).
 *  - env: value, or NULL for valueFrom; NVIDIA_VISIBLE_DEVICES adds GL_GPU_ENV_VISIBLE.
 *  - volumeMounts joined with the pod's volumes by name: hostPath -> BIND (source = path),
 *    persistentVolumeClaim (source = claimName) / nfs / csi / other persistent kinds ->
 *    VOLUME, emptyDir -> EMPTYDIR or EMPTYDIR_MEMORY (medium: Memory), configMap / secret /
 *    projected / downwardAPI -> CONFIG, unknown name -> OTHER. target = mountPath (also
 *    with subPath); readonly from the mount's readOnly (or a read-only PVC); loc = the
 *    volumeMount item, ro_loc = its readOnly key or loc.
 *  - resources: nvidia.com/gpu (and nvidia.com/gpu.shared) -> GL_GPU_K8S_RESOURCE,
 *    nvidia.com/mig-* -> GL_GPU_K8S_MIG (mig, launch.mig), HAMi nvidia.com/gpumem,
 *    gpumem-percentage (mem_capped) and gpucores -> GL_GPU_K8S_VENDOR.
 *    One request per resource name: value = the name, loc = its key in limits (else
 *    requests), count = limit (else request), request/limit as written ("0.5", "500m")
 *    with their value locs (count_opaque when one holds a template expression, a
 *    `{{ .Values.gpus }}` in a quoted value); whether the runtime accepts them is GL412's
 *    to say.
 *  - resources.claims (DRA) -> GL_GPU_K8S_DRA (value = claim name, loc = its value).
 *  - MPS: env CUDA_MPS_PINNED_DEVICE_MEM_LIMIT marks every GPU request of the container
 *    mps and mem_capped; a DRA claim whose ResourceClaim(Template) in the same file says
 *    `strategy: MPS` is mps (mem_capped with a defaultPinnedDeviceMemoryLimit;
 *    k8s_claims.c). Both set launch.mig (the model's "uses MIG or MPS").
 *  - pod facts (gl_pod_facts, for the QoS class): the pod spec's number (one per pod
 *    spec of the file), init for initContainers, the cpu and memory of requests and limits
 *    as written (opaque when templated), the `resources` key, pod-level `resources`.
 *  - KAI scheduler sharing: a pod template's (or Pod's) annotation `gpu-fraction` or
 *    `gpu-memory` gives each of its containers (not init containers; only the one
 *    `gpu-fraction-container-name` names, when given) a GL_GPU_K8S_VENDOR request (value
 *    = the annotation key, count = its value, mem_capped: the scheduler enforces it).
 *  - hostIPC: true -> ipc "host"; workingDir -> workdir.
 *  - multi-role objects: when some pod specs of an object request GPUs and another pod
 *    spec's containers request none, those launches get secondary_role.
 * NVIDIA device plugin configs (k8s_sharing.c): a ConfigMap whose data value is a device
 * plugin config (`version: v1` with `sharing:`), read as YAML with positions mapped into
 * the block scalar; the same strings in Helm values of the device plugin chart
 * (`config.map.<name>`) and of the GPU operator chart (`devicePlugin.config.data.<name>`),
 * in a Flux HelmRelease's `spec.values` or an Argo CD Application's `helm.valuesObject`;
 * and the config file itself, or a values file holding such strings
 * (gl_input_device_plugin: by content, a top-level `version` and a `sharing` mapping with
 * `timeSlicing` or `mps`, or those values keys with no apiVersion/kind): each
 * sharing.timeSlicing.resources[] entry is a gl_gpu_sharing in doc->sharing. A ClusterPolicy's
 * `spec.devicePlugin.config.name` only names its ConfigMap: the ConfigMap is judged where
 * it is written.
 * Inline ignores: YAML pragmas (yt_add_pragmas) and the annotation `gpulint.io/ignore:
 * "GL410,GL411"` in an object's or template's metadata: a gl_ignore covering that
 * mapping's lines, its ids also in the launches' ignore_ids.
 */
#ifndef GPULINT_PARSERS_K8S_H
#define GPULINT_PARSERS_K8S_H

#include "linter/core/config.h"
#include "linter/core/model.h"

void gl_parse_k8s_doc(struct gl_doc *doc, const struct gl_config *cfg);

/* What a container's resource name (NUL-terminated) asks for, for manifests and `kubectl
 * run --limits` alike: whole GPUs (`nvidia.com/gpu`, `nvidia.com/gpu.shared`, and the
 * passthrough GPUs of NVIDIA's Kata sandbox device plugin: `nvidia.com/pgpu` or a model's
 * name such as `nvidia.com/GH100_H100_SXM5_80GB`), a MIG slice (`nvidia.com/mig-*`), or
 * HAMi's vendor keys (gpucores; gpumem and gpumem-percentage, enforced memory caps). */
enum gl_k8s_res {
    GL_K8S_RES_NONE,
    GL_K8S_RES_GPU,
    GL_K8S_RES_MIG,
    GL_K8S_RES_VENDOR,
    GL_K8S_RES_VENDOR_MEM,
};
enum gl_k8s_res gl_k8s_resource_kind(const char *name);
/* The objects of a YAML text written inside doc, from the first column of its line `line`
 * (a shell heredoc's body that kubectl applies: doc's bytes, so that positions are doc's),
 * read as a manifest's are into doc's launches and references. A text that is not
 * Kubernetes objects adds nothing; a YAML error, a template expression, drops the
 * documents from the one it is in, silently (the file is not a YAML file: no GL900 or
 * GL903 for it); a limit it reaches (yaml-alias-nodes, parse-memory) is doc's GL900.
 * Inline ignores are the file's (its reader's comments). */
void gl_k8s_from_text(struct gl_doc *doc, const char *text, size_t len, uint32_t line);

#endif
