/* SPDX-License-Identifier: Apache-2.0 */
/* registry_mirrors.c: the documented public mirrors (see registry_mirrors.h). */
#include "linter/core/registry_mirrors.h"

#include <string.h>

struct mirror {
    const char *host, *upstream;
};

/* Sources:
 * - DaoCloud public-image-mirror, README "支持前缀替换的 Registry"
 *   (https://github.com/DaoCloud/public-image-mirror): docker.m.daocloud.io -> docker.io,
 *   ghcr.m -> ghcr.io, gcr.m -> gcr.io, k8s-gcr.m -> k8s.gcr.io, k8s.m -> registry.k8s.io,
 *   mcr.m -> mcr.microsoft.com, nvcr.m -> nvcr.io, quay.m -> quay.io,
 *   elastic.m -> docker.elastic.co, l5d.m -> cr.l5d.io; and the prefix form
 *   m.daocloud.io/<registry>/<path> (wzshiming/crproxy, DaoCloud/crproxy README).
 * - 1ms.run ("毫秒镜像", https://1ms.run): docker.1ms.run is Docker Hub's content.
 * - Google Cloud, "Pull cached Docker Hub images" (cloud.google.com/artifact-registry/docs/
 *   pull-cached-dockerhub-images): mirror.gcr.io serves cached Docker Hub images. */
static const struct mirror mirrors[] = {
    {"docker.m.daocloud.io", "docker.io"},
    {"docker.1ms.run", "docker.io"},
    {"mirror.gcr.io", "docker.io"},
    {"ghcr.m.daocloud.io", "ghcr.io"},
    {"gcr.m.daocloud.io", "gcr.io"},
    {"k8s-gcr.m.daocloud.io", "k8s.gcr.io"},
    {"k8s.m.daocloud.io", "registry.k8s.io"},
    {"mcr.m.daocloud.io", "mcr.microsoft.com"},
    {"nvcr.m.daocloud.io", "nvcr.io"},
    {"quay.m.daocloud.io", "quay.io"},
    {"elastic.m.daocloud.io", "docker.elastic.co"},
    {"l5d.m.daocloud.io", "cr.l5d.io"},
};

static bool same(const char *host, size_t n, const char *lit)
{
    return strlen(lit) == n && !memcmp(host, lit, n);
}

const char *gl_registry_mirror_of(const char *host, size_t n)
{
    for (size_t i = 0; i < sizeof mirrors / sizeof mirrors[0]; i++)
        if (same(host, n, mirrors[i].host))
            return mirrors[i].upstream;
    return NULL;
}

bool gl_registry_prefix_proxy(const char *host, size_t n)
{
    return same(host, n, "m.daocloud.io");
}
