/* SPDX-License-Identifier: Apache-2.0 */
/*
 * image_read.h: one image input into the model, wherever its documents come from.
 *
 * gl_image_read() resolves the images (image_manifest.h), reads each one's config, indexes
 * its layers when there are layers to read, and fills doc->image, doc->env and the CUDA
 * facts, as image_input.c describes. The documents come through two gl_blob_fetch
 * callbacks, so that an archive, an OCI layout and a registry (parsers/registry/) share
 * this one reader:
 *  - index_doc: `manifest.json`, `index.json` and the manifests and indexes an index
 *    names ("blobs/sha256/<hex>");
 *  - blob_doc: the configs a manifest names ("blobs/sha256/<hex>").
 * For an archive or a layout both are gl_catalog_json. `layers` is the catalog the layer
 * blobs are read from; NULL reads the configs only: each platform then has its layers
 * (digests, media types, history) and no files. `streams` instead of a catalog reads
 * each layer blob, by its digest, from a stream (registry --layers): the same reader,
 * limits and cache, every blob checked against its digest.
 */
#ifndef GPULINT_IMAGE_READ_H
#define GPULINT_IMAGE_READ_H

#include "linter/core/config.h"
#include "parsers/image/image_catalog.h"
#include "parsers/image/image_jobs.h"
#include "parsers/image/image_manifest.h"

struct gl_image_docs {
    gl_blob_fetch index_doc;
    gl_blob_fetch blob_doc;
    void *ctx;                  /* of both callbacks */
    struct gl_catalog *layers;  /* NULL: configs only (unless streams) */
    const struct gl_layer_streams *streams; /* the layers as streams (a registry's blob
                                               GETs, image_jobs.h), or NULL */
};

void gl_image_read(struct gl_doc *doc, const struct gl_image_docs *src,
                   const struct gl_config *cfg);

#endif
