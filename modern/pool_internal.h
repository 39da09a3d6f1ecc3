/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * modern/pool_internal.h - the allocation path of modern/pool.c, for the
 * entry points beside it (the DMA helpers, gen_pool_xalloc(), imports;
 * not installed).
 */
#ifndef GENALLOC_MODERN_POOL_INTERNAL_H
#define GENALLOC_MODERN_POOL_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>

#include "genalloc.h"

/**
 * modern_pool_alloc() - gen_pool_alloc_algo_owner() on a non-NULL pool
 * @pool:  the pool, not NULL
 * @size:  bytes
 * @algo:  the algorithm, not NULL
 * @data:  its data
 * @owner: receives the chunk's owner, or NULL
 *
 * Every allocation entry point (the DMA helpers too) ends here once it has
 * dealt with a NULL pool in its own documented way.
 */
unsigned long modern_pool_alloc(struct gen_pool *pool, size_t size, genpool_algo_t algo,
				void *data, void **owner);

/**
 * modern_pool_hand_out() - account for @nbits granules claimed at @bit of
 * @chunk (avail, block record, owner); @locked: under the pool's lock
 *
 * Return: the block's address.
 */
unsigned long modern_pool_hand_out(struct gen_pool *pool, struct gen_pool_chunk *chunk,
				   unsigned long bit, unsigned long nbits, void **owner,
				   bool locked);

#endif /* GENALLOC_MODERN_POOL_INTERNAL_H */
