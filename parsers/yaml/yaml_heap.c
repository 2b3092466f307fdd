/* SPDX-License-Identifier: Apache-2.0 */
/* yaml_heap.c: libyaml's allocation functions, small requests from a per-thread pool
 * while the loader parses (see yaml_heap.h). */
#include "parsers/yaml/yaml_heap.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

#if defined(__SANITIZE_ADDRESS__)
#define POOL_ON 0
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define POOL_ON 0
#endif
#endif
#ifndef POOL_ON
#define POOL_ON 1
#endif

/* Size classes 16, 32, ... YT_HEAP_SMALL bytes. */
#define NCLASS 7
#define BIG 0xFFFFu
/* A pool block: a few parsers' worth of small chunks (libyaml's parser takes ~2.5 KB of
 * them at its start, its token strings a few dozen bytes each). */
#define BLOCK (16u * 1024u)

/* Before every chunk: which it is. 16 bytes, so that the bytes after it keep malloc's
 * alignment. */
struct hdr {
    uint32_t cls; /* its size class, or BIG: from malloc */
    uint32_t pad[3];
};
#define HDR sizeof(struct hdr)

_Static_assert(sizeof(struct hdr) == 16, "a chunk's header keeps malloc's alignment");
_Static_assert((16u << (NCLASS - 1)) == YT_HEAP_SMALL, "the classes end at YT_HEAP_SMALL");

static _Thread_local struct {
    unsigned depth;         /* open yt_heap_begin brackets */
    void *free[NCLASS];     /* freed chunks of each class (linked through their bytes) */
    char *next, *end;       /* the newest block's bytes not handed out yet */
    void *blocks;           /* every block (linked through its first bytes) */
    size_t live, nblocks;   /* chunks handed out and not freed; blocks held */
} heap;

static size_t class_size(unsigned k) { return (size_t)16 << k; }

static unsigned class_of(size_t size)
{
    if (size <= 16)
        return 0;
    return (unsigned)(64 - __builtin_clzll((unsigned long long)(size - 1))) - 4;
}

/* (the rare paths are kept out of line, so that yaml_malloc's and yaml_free's common
 * paths save no registers: libyaml calls them twice an event) */

/* Give every block back (nothing in them is in use). */
__attribute__((noinline, cold)) static void release(void)
{
    while (heap.blocks) {
        void *next;
        memcpy(&next, heap.blocks, sizeof next);
        free(heap.blocks);
        heap.blocks = next;
    }
    memset(heap.free, 0, sizeof heap.free);
    heap.next = heap.end = NULL;
    heap.nblocks = 0;
}

__attribute__((noinline)) static void *big_alloc(size_t size)
{
    if (size > SIZE_MAX - HDR)
        return NULL;
    struct hdr *h = malloc(HDR + (size ? size : 1));
    if (!h)
        return NULL;
    h->cls = BIG;
    return h + 1;
}

/* A chunk of class k from the newest block's bytes, or from a new block. */
__attribute__((noinline)) static void *carve(unsigned k)
{
    size_t need = HDR + class_size(k);
    if ((size_t)(heap.end - heap.next) < need) {
        /* a new block; the old one's tail (< one chunk) is left unused */
        char *b = malloc(BLOCK);
        if (!b)
            return NULL;
        memcpy(b, &heap.blocks, sizeof heap.blocks);
        heap.blocks = b;
        heap.nblocks++;
        heap.next = b + HDR; /* (the link, then chunks on 16-byte bounds) */
        heap.end = b + BLOCK;
    }
    struct hdr *h = (struct hdr *)heap.next;
    heap.next += need;
    h->cls = k;
    heap.live++;
    return h + 1;
}

static inline void *small_alloc(unsigned k)
{
    void *p = heap.free[k];
    if (!p)
        return carve(k);
    memcpy(&heap.free[k], p, sizeof heap.free[k]);
    ((struct hdr *)p - 1)->cls = k;
    heap.live++;
    return p;
}

void *yaml_malloc(size_t size);
void *yaml_realloc(void *ptr, size_t size);
void yaml_free(void *ptr);
yaml_char_t *yaml_strdup(const yaml_char_t *str);

void *yaml_malloc(size_t size)
{
    if (heap.depth && size <= YT_HEAP_SMALL)
        return small_alloc(class_of(size));
    return big_alloc(size);
}

/* (always inlined: yaml_free's body, and yt_heap_event_delete's for each string) */
__attribute__((always_inline)) static inline void pool_free(void *ptr)
{
    if (!ptr)
        return;
    struct hdr *h = (struct hdr *)ptr - 1;
    if (h->cls == BIG) {
        free(h);
        return;
    }
    memcpy(ptr, &heap.free[h->cls], sizeof heap.free[h->cls]);
    heap.free[h->cls] = ptr;
    /* the last chunk of a pool whose bracket has closed (libyaml's memory freed after
     * yt_heap_end): the blocks go back now */
    if (--heap.live == 0 && !heap.depth)
        release();
}

void yaml_free(void *ptr) { pool_free(ptr); }

void *yaml_realloc(void *ptr, size_t size)
{
    if (!ptr)
        return yaml_malloc(size);
    struct hdr *h = (struct hdr *)ptr - 1;
    if (h->cls == BIG) {
        if (size > SIZE_MAX - HDR)
            return NULL;
        struct hdr *n = realloc(h, HDR + (size ? size : 1));
        return n ? n + 1 : NULL;
    }
    size_t have = class_size(h->cls);
    if (size <= have)
        return ptr;
    void *n = yaml_malloc(size);
    if (n) {
        memcpy(n, ptr, have);
        yaml_free(ptr);
    }
    return n;
}

yaml_char_t *yaml_strdup(const yaml_char_t *str)
{
    if (!str)
        return NULL;
    size_t n = strlen((const char *)str) + 1;
    yaml_char_t *p = yaml_malloc(n);
    if (p)
        memcpy(p, str, n);
    return p;
}

void yt_heap_event_delete(yaml_event_t *ev)
{
    switch (ev->type) {
    case YAML_SCALAR_EVENT:
        pool_free(ev->data.scalar.anchor);
        pool_free(ev->data.scalar.tag);
        pool_free(ev->data.scalar.value);
        break;
    case YAML_ALIAS_EVENT: pool_free(ev->data.alias.anchor); break;
    case YAML_SEQUENCE_START_EVENT:
        pool_free(ev->data.sequence_start.anchor);
        pool_free(ev->data.sequence_start.tag);
        break;
    case YAML_MAPPING_START_EVENT:
        pool_free(ev->data.mapping_start.anchor);
        pool_free(ev->data.mapping_start.tag);
        break;
    case YAML_SEQUENCE_END_EVENT:
    case YAML_MAPPING_END_EVENT: break; /* (they hold no string) */
    default: yaml_event_delete(ev); /* (a document's directives, ...) */
    }
}

void yt_heap_begin(void)
{
    if (POOL_ON)
        heap.depth++;
}

void yt_heap_end(void)
{
    if (!heap.depth)
        return;
    if (--heap.depth == 0 && heap.live == 0)
        release();
}

size_t yt_heap_live(void) { return heap.live; }
size_t yt_heap_blocks(void) { return heap.nblocks; }
