/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * modern/import_internal.h - a pool's imports and releases
 * (gen_pool_set_import(); modern/import.c states the design): what the
 * pool's allocation and free paths, its chunks and its queries call
 * (not installed).  Every call here is made only when pool->import is
 * set, so that a pool without imports pays one test of that pointer, on
 * paths that already failed or emptied a chunk.
 */
#ifndef GENALLOC_MODERN_IMPORT_INTERNAL_H
#define GENALLOC_MODERN_IMPORT_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>

#include "genalloc.h"

/**
 * modern_import_alloc() - an allocation found no room: import, add, retry once
 * @pool:  the pool (pool->import set), its lock not held
 * @size:  bytes of the request (already rounded and accepted)
 * @algo:  its algorithm
 * @data:  its data (validated)
 * @owner: as for gen_pool_alloc_owner(), or NULL
 *
 * Return: the block's address, or 0.
 */
unsigned long modern_import_alloc(struct gen_pool *pool, size_t size, genpool_algo_t algo,
				  void *data, void **owner);

/** modern_import_xalloc() - modern_import_alloc() for gen_pool_xalloc() */
unsigned long modern_import_xalloc(struct gen_pool *pool, size_t size,
				   const struct gen_pool_constraints *c);

/**
 * modern_import_chunk_freed() - a free under the pool's lock left @chunk
 * (in directory slot @slot) as it is now: if it is an imported chunk and
 * wholly free, take it out of the pool and keep its span for
 * modern_import_give_back()
 *
 * Return: true if a span waits to be released.
 */
bool modern_import_chunk_freed(struct gen_pool *pool, struct gen_pool_chunk *chunk,
			       size_t slot);

/** modern_import_give_back() - the pool's lock dropped: release the
 * spans modern_import_chunk_freed() took out */
void modern_import_give_back(struct gen_pool *pool);

/**
 * modern_import_walk() - a lock-free walk of the chunk list begins (+1)
 * or ends (-1): a removed chunk's memory waits for the walks
 */
void modern_import_walk(struct gen_pool *pool, int delta);

/** modern_walk_begin() - modern_import_walk(+1) on an importing pool */
static inline void modern_walk_begin(struct gen_pool *pool)
{
	if (pool->import)
		modern_import_walk(pool, 1);
}

/** modern_walk_end() - modern_import_walk(-1) on an importing pool */
static inline void modern_walk_end(struct gen_pool *pool)
{
	if (pool->import)
		modern_import_walk(pool, -1);
}

/**
 * modern_import_destroy_begin() - gen_pool_destroy()'s first step:
 * release every imported chunk that is wholly free
 */
void modern_import_destroy_begin(struct gen_pool *pool);

/** modern_import_destroy_end() - free the import's bookkeeping, the
 * pool being freed (every imported chunk is gone) */
void modern_import_destroy_end(struct gen_pool *pool);

#endif /* GENALLOC_MODERN_IMPORT_INTERNAL_H */
