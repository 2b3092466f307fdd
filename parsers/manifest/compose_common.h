/* SPDX-License-Identifier: Apache-2.0 */
/*
 * compose_common.h: building launches from YAML (shared by compose and Kubernetes).
 *
 * Not a public API: the pieces parsers/manifest/compose.c and parsers/k8s*.c share to turn YAML
 * nodes (parsers/yaml/yaml_tree.h) into the model (linter/core/model_launch.h).
 *
 *  - yl_begin: a new launch in doc->launches (ref -1, shm_bytes -1, group doc->path).
 *  - yl_set_image: the launch's image as a gl_ref (parsed with gl_imageref_parse).
 *  - yl_add_env: one gl_env of the launch.
 *  - argv: yl_argv_word adds one word; yl_argv_shell adds the words of a shell text
 *    (all its simple commands in order); yl_argv_finish splices the script of
 *    `sh|bash [-opts] -c SCRIPT` (the SCRIPT word) into its words, as launch_shell.h
 *    does for docker run: `sh -c "python t.py --out /o"` gives `sh -c python t.py
 *    --out /o`, every word at its exact position.
 *  - yl_size_bytes: docker's size syntax ("8g", "2GiB", "1073741824") -> bytes, -1 if bad.
 *  - yl_is_gpu_node: "/dev/nvidia<N>".
 */
#ifndef GPULINT_PARSERS_COMPOSE_COMMON_H
#define GPULINT_PARSERS_COMPOSE_COMMON_H

#include "linter/core/model.h"
#include "linter/core/srcmap.h"
#include "parsers/yaml/yaml_tree.h"

/* Index of the new launch. */
int yl_begin(struct gl_doc *doc, enum gl_launch_kind kind, const char *tool, struct gl_loc loc,
             const char *name);
void yl_set_image(struct gl_doc *doc, int launch, const char *text, struct gl_loc loc,
                  enum gl_ref_role role, bool unresolved);
struct gl_env *yl_add_env(struct gl_doc *doc, int launch, const char *key, struct gl_loc key_loc,
                          const char *value, struct gl_loc value_loc);

/* A word being collected for argv, with the map of its bytes (NULL: one line from loc). */
struct yl_word {
    struct gl_word w;
    const struct gl_srcmap *map;
    size_t len;
    bool next_command; /* the first word of a later command (gl_launch.next_command) */
};

struct yl_argv {
    struct yl_word *v;
    size_t n, cap;
    bool opaque; /* some word may stand for several */
};

void yl_argv_word(struct gl_arena *a, struct yl_argv *av, const char *text, size_t len,
                  struct gl_loc loc, const struct gl_srcmap *map, bool opaque);
void yl_argv_shell(struct gl_arena *a, struct yl_argv *av, const char *text, size_t len,
                   const struct gl_srcmap *map);
/* Store av (with sh -c scripts spliced in) as the launch's argv. */
void yl_argv_finish(struct gl_doc *doc, int launch, struct yl_argv *av);

struct gl_mount *yl_add_mount(struct gl_doc *doc, int launch);
struct gl_gpu_request *yl_add_gpu(struct gl_doc *doc, int launch, enum gl_gpu_kind kind,
                                  const char *value, struct gl_loc loc);

int64_t yl_size_bytes(const char *s, size_t len);
bool yl_is_gpu_node(const char *s);

#endif
