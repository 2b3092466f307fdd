/* SPDX-License-Identifier: Apache-2.0 */
/*
 * compose_extends.h: the layers a compose service is built from (for compose.c).
 *
 * A service is read from layers, the one that wins first: the service as written in
 * the last YAML document of the file that names it, then the same service in earlier
 * documents (a file with several documents is read as compose reads several files,
 * later ones overriding), then the service its `extends` names (`extends: base`, or
 * `extends: {service: base, file: other.yml}`), with that service's own layers, and so
 * on. compose.c takes a single value (image, command, entrypoint, ipc, shm_size,
 * runtime, working_dir, ulimits.memlock, gpus) from the first layer that has it, merges
 * environment by key and volumes by target (the first layer's entry wins), and appends
 * device reservations and `devices`, as compose's merge rules say. A layer whose key is
 * tagged `!reset` unsets it (no layer below, nor that one, gives it); `!override` makes
 * that layer's value the only one (compose 2.24.4's merge tags, for service keys).
 *
 * `file:` is relative to the directory of the file being linted (also for a base's own
 * `extends`); files are loaded once per linted file, at most `input-size` bytes of them
 * in all. A base in another file has no position in this one: its values are placed at
 * the `extends:` key that leads to it (`pin`), so findings name the linted file. At most
 * CZ_MAX_HOPS hops are followed. A cycle or a deeper chain keeps only the service's own
 * layers (nothing inherited is trusted); a missing file or service, or
 * a base file that does not parse leave the service `partial` (compose.c then treats it
 * as a fragment: no finding on what it lacks).
 */
#ifndef GPULINT_PARSERS_COMPOSE_EXTENDS_H
#define GPULINT_PARSERS_COMPOSE_EXTENDS_H

#include "linter/core/hashmap.h"
#include "linter/core/model.h"
#include "parsers/yaml/yaml_tree.h"

enum { CZ_MAX_HOPS = 8, CZ_MAX_LAYERS = 32 };

struct cz_layer {
    struct yt_stream *s;
    struct yt_node *svc;      /* the service mapping */
    bool foreign;             /* from another file: positions are `pin` */
    struct gl_loc pin;
};

struct cz_project {
    struct gl_doc *doc;
    struct yt_stream *s;      /* the linted file */
    struct gl_map files;      /* path -> struct yt_stream * (a failed load: a stream
                                 with no documents) */
    uint64_t bytes;           /* bytes of other files read */
};

void cz_project_init(struct cz_project *p, struct gl_doc *doc, struct yt_stream *s);
void cz_project_free(struct cz_project *p);

/* The services named name[0..len) in s, last document first, into out (at most max);
 * returns how many. */
size_t cz_service_layers(struct yt_stream *s, const char *name, size_t len,
                         struct cz_layer *out, size_t max);

/* Follow the `extends` of the layers out[0..n) (those of one service), appending the
 * bases' layers; returns the new count; *partial when something could not be followed. */
size_t cz_extends(struct cz_project *p, struct cz_layer *out, size_t n, bool *partial);

#endif
