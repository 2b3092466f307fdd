/* SPDX-License-Identifier: Apache-2.0 */
/*
 * yaml_heap.h: libyaml's small allocations from a per-thread pool while the loader
 * parses, released whole when its parser is deleted.
 *
 * libyaml allocates through four functions of its own, yaml_malloc, yaml_realloc,
 * yaml_free and yaml_strdup (its yaml_private.h), and calls them through its procedure
 * linkage table: a program that defines them is called instead (ELF symbol interposition;
 * Debian's libyaml-0.so.2 calls each of them only so). libyaml makes a heap string for
 * every token and event with a value, four of them for a plain scalar (its value, and the
 * breaks and blanks it folds), and frees each when the token or event is done: about two
 * mallocs and two frees a YAML event, ~140 instructions of glibc's a pair, more than the
 * loader spends on the event itself.
 *
 * yaml_heap.c defines the four. Between yt_heap_begin() and yt_heap_end() (the loader's
 * parse_stream brackets one parser's whole life with them), a request of up to
 * YT_HEAP_SMALL bytes is served from a size class of the thread's pool (powers of two
 * from 16 bytes: a free list, else the next bytes of a block; ~15 instructions), and a
 * freed chunk goes back to its class's list, so the pool holds what libyaml holds at
 * once, rounded up to the class. yt_heap_end() gives the pool's blocks back to the system
 * once nothing in them is in use (libyaml frees all it allocated when its parser is
 * deleted, so always, in the loader): nothing stays allocated between loads. Larger
 * requests (libyaml's 16 and 48 KiB buffers, a scalar grown past the classes) and every
 * request outside a bracket (another use of libyaml) go to malloc as before. Every chunk
 * carries a 16-byte header that says which it is, so yaml_free and yaml_realloc take
 * any of them.
 *
 * In a sanitizer build the pool is off (every request goes to malloc), so that
 * AddressSanitizer keeps watching libyaml's memory.
 */
#ifndef GPULINT_PARSERS_YAML_HEAP_H
#define GPULINT_PARSERS_YAML_HEAP_H

#include <stddef.h>
#include <yaml.h>

/* The largest request served from the pool. */
#define YT_HEAP_SMALL 1024

/* libyaml's allocations on this thread come from the pool until the matching
 * yt_heap_end() (brackets nest). */
void yt_heap_begin(void);
void yt_heap_end(void);

/* yaml_event_delete(ev), the strings of a node's event (scalar, alias, collection start)
 * freed here: libyaml's own frees them through its procedure linkage table, one call a
 * string, and then clears the whole event (some 55 instructions an event, as many as the
 * loader spends on one). Every other event is given to yaml_event_delete. */
void yt_heap_event_delete(yaml_event_t *ev);

/* Chunks of the pool in use on this thread, and blocks it holds (for the tests). */
size_t yt_heap_live(void);
size_t yt_heap_blocks(void);

#endif
