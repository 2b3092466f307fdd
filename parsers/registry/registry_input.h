/* SPDX-License-Identifier: Apache-2.0 */
/*
 * registry_input.h: an image read straight from a registry, `docker://HOST/REPO:TAG` or
 * `docker://HOST/REPO@sha256:...`, through the registry's v2 HTTP API.
 *
 * The reference parses as every image reference does (linter/core/imageref.h): Docker
 * Hub names normalise (`ubuntu` -> docker.io/library/ubuntu, asked of
 * registry-1.docker.io). The registry is presented to the one image reader
 * (parsers/image/image_read.h) as if it were an OCI layout: `index.json` names the
 * manifest the reference resolves to; the manifests an index or manifest list names are
 * GETs of /v2/REPO/manifests/DIGEST, the configs GETs of /v2/REPO/blobs/DIGEST. So Docker
 * v2 schema 2 and OCI manifests, indexes and manifest lists (every platform, or the one
 * --platform names), limits and messages are the archive's. Only manifests and configs
 * are fetched (each platform has its layers' digests and history, no files), unless
 * --layers: then each layer blob is resolved (a GET cut at its first byte answers the
 * auth challenge and follows a redirect, one at a time) and streamed on a connection of
 * its own (registry_stream.h) through the archive's layer reader and cache
 * (image_jobs.h: gl_layer_jobs_stream), checked against its digest.
 *
 * A config is read from the layer-index cache when its digest is there (image_cache.h),
 * and stored there once fetched and checked; manifests are always asked (tags move).
 * Every document is checked against the digest that named it (the reference's digest
 * for the first, when it has one) and refused past the limit `image-json-size`.
 * Requests go to the reference's host (https; with --tls-verify=false an unverified
 * https, then plain http) and to the token realm its challenge names, nowhere else; a
 * redirect is followed for blob GETs only (registries serve blobs from S3 or a CDN), and
 * the Authorization header is never sent to a host other than the registry's. Auth and
 * credentials: registry_auth.h, registry_creds.h. TLS: the system's CAs, or the
 * certificates of --cert-dir DIR (else /etc/containers/certs.d/HOST/, then
 * /etc/docker/certs.d/HOST/): `ca.crt` (or another `*.crt`) as the CA bundle, a
 * `NAME.cert` with its `NAME.key` as the client certificate.
 *
 * Failures: a reference that does not parse, or a manifest the registry will not give
 * (401, 403, 404, another HTTP error after the retries, TLS, a timeout, no connection)
 * make the input unreachable (doc->error.unreachable: one line on stderr, exit 2);
 * what the reader refuses in what it got (a digest mismatch, a size limit, bad JSON) is
 * GL900 as in an archive, the other platforms going on.
 */
#ifndef GPULINT_REGISTRY_INPUT_H
#define GPULINT_REGISTRY_INPUT_H

#include "linter/core/config.h"

#define GL_REGISTRY_TRANSPORT "docker://"

/* Read the image `docker://...` (path, as given) into doc. */
void gl_registry_read(struct gl_doc *doc, const char *path, const struct gl_config *cfg);

#endif
