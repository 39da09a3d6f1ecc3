/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * modern/chunklist_internal.h - what every unit reads of a pool: its
 * chunk list, its granule, and the refusal of a NULL pool (not
 * installed).  Inline reads of struct gen_pool only: no unit is called.
 */
#ifndef GENALLOC_MODERN_CHUNKLIST_INTERNAL_H
#define GENALLOC_MODERN_CHUNKLIST_INTERNAL_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>

#include "genalloc.h"

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

/* Whether no block holds any of @chunk: avail tracks the bitmap exactly
 * (gen_pool_check() verifies it), so no scan of a possibly huge map. */
static inline bool modern_chunk_wholly_free(const struct gen_pool_chunk *chunk)
{
	return (unsigned long)atomic_load_explicit(&chunk->avail, memory_order_relaxed) ==
	       modern_chunk_size(chunk);
}

#endif /* GENALLOC_MODERN_CHUNKLIST_INTERNAL_H */
