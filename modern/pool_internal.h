/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * modern/pool_internal.h - chunk-list access shared by the pool's requests
 * (pool.c), its chunks (chunks.c), the DMA helpers and the checker (not
 * installed).
 */
#ifndef GENALLOC_MODERN_POOL_INTERNAL_H
#define GENALLOC_MODERN_POOL_INTERNAL_H

#include "genalloc.h"

/*
 * gen_pool_create() always in indexed mode: exported, but no wrapper calls
 * it any more (they pass the header's mode to modern_gen_pool_create_mode()).
 */
GENALLOC_API struct gen_pool *modern_gen_pool_create(int min_alloc_order, int nid);

/*
 * The newest chunk.  Acquire pairs with the release store in gen_pool_add*()
 * so that a lock-free reader sees every field (and next_chunk) of every chunk
 * it can reach.
 */
static inline struct gen_pool_chunk *modern_first_chunk(struct gen_pool *pool)
{
	return atomic_load_explicit(&pool->chunks, memory_order_acquire);
}

/* The pool's granule in bytes. */
static inline unsigned long modern_pool_granule(const struct gen_pool *pool)
{
	return 1UL << pool->min_alloc_order;
}

/**
 * modern_pool_ok() - refuse a public call's NULL pool (WARN EINVAL)
 * @pool: the pool the caller passed
 * @func: the public function's kernel name
 * @addr: the caller's address argument, or 0 if the call takes none
 * @size: the caller's size argument, or 0 if the call takes none
 *
 * The report carries the caller's own address and size, as every other
 * refusal of the call does, so that the line names the call that went wrong
 * (the 2005 engine's NULL-pool reports carry them too).
 *
 * Return: true if @pool is not NULL.
 */
static inline bool modern_pool_ok(const struct gen_pool *pool, const char *func,
				  unsigned long addr, size_t size)
{
	if (pool)
		return true;
	genalloc_report_error(&(const struct genalloc_error){ .severity = GENALLOC_WARN,
		.code = GENALLOC_EINVAL, .func = func, .addr = addr, .size = size,
		.msg = "NULL pool", .fix = "pass the pool gen_pool_create() returned" });
	return false;
}

/* The chunk holding @addr, or NULL.  Chunks never overlap: at most one. */
static inline struct gen_pool_chunk *modern_find_chunk(struct gen_pool *pool,
						       unsigned long addr)
{
	struct gen_pool_chunk *chunk;

	for (chunk = modern_first_chunk(pool); chunk; chunk = chunk->next_chunk)
		if (addr >= chunk->start_addr && addr <= chunk->end_addr)
			return chunk;
	return NULL;
}

/* Bytes in a chunk, tail included (end_addr is inclusive). */
static inline unsigned long modern_chunk_size(const struct gen_pool_chunk *chunk)
{
	return chunk->end_addr - chunk->start_addr + 1;
}

/**
 * modern_refuse_reentry() - report a call refused because its own thread
 * holds the pool's lock (WARN EREENTRY, naming the cause and the fix)
 * @pool: the pool
 * @func: the public function's kernel name
 * @addr: the address involved, or 0
 * @size: the size involved, or 0
 */
void modern_refuse_reentry(struct gen_pool *pool, const char *func, unsigned long addr,
			   size_t size);

/* Bytes of bookkeeping for a chunk of @nbits granules. */
size_t modern_chunk_meta_bytes(const struct gen_pool *pool, unsigned long nbits);

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

/** modern_chunk_free() - free a chunk's bookkeeping (no longer in the pool) */
void modern_chunk_free(const struct gen_pool *pool, struct gen_pool_chunk *chunk);

#endif /* GENALLOC_MODERN_POOL_INTERNAL_H */
