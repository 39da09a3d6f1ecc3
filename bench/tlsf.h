/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * bench/tlsf.h - a small TLSF-style allocator of offsets, the bench's O(1)
 * yardstick (bench/tlsf.c states its design).  Not part of the library.
 */
#ifndef GENALLOC_BENCH_TLSF_H
#define GENALLOC_BENCH_TLSF_H

#include <stddef.h>

struct tlsf;

/**
 * tlsf_create() - manage offsets [0, @bytes) in granules of 2^@order bytes
 * @max_blocks: most live blocks at once (sizes the node array and hash)
 *
 * Return: the allocator, or NULL when out of memory.
 */
struct tlsf *tlsf_create(unsigned long bytes, int order, unsigned long max_blocks);

/** tlsf_destroy() - free it (NULL is a no-op) */
void tlsf_destroy(struct tlsf *t);

/** tlsf_alloc() - the offset of a block of at least @bytes, or -1 */
long tlsf_alloc(struct tlsf *t, unsigned long bytes);

/** tlsf_free() - give back the block at @offset: 0, or -1 if it is not live */
int tlsf_free(struct tlsf *t, unsigned long offset);

/** tlsf_free_bytes() - bytes not handed out */
size_t tlsf_free_bytes(const struct tlsf *t);

/** tlsf_largest_free() - bytes in the largest free block */
size_t tlsf_largest_free(const struct tlsf *t);

/** tlsf_bytes() - bookkeeping in bytes */
size_t tlsf_bytes(const struct tlsf *t);

#endif /* GENALLOC_BENCH_TLSF_H */
