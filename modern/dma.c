// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * modern/dma.c - allocations that also return the bus address, optionally
 * zeroed.  These are the only calls that may touch the managed memory (the
 * zalloc variants write zeros to it), and, as in the kernel, the only ones
 * that accept a NULL pool silently.
 */
#include <string.h>

#include "pool_internal.h"

static void *dma_alloc(struct gen_pool *pool, size_t size, dma_addr_t *dma,
		       genpool_algo_t algo, void *data, bool zero)
{
	unsigned long vaddr;

	if (!pool)
		return NULL;
	vaddr = modern_pool_alloc(pool, size, algo, data, NULL);
	if (!vaddr)
		return NULL;
	if (dma)
		*dma = modern_gen_pool_virt_to_phys(pool, vaddr);
	if (zero)
		memset((void *)vaddr, 0, size);
	return (void *)vaddr;
}

/**
 * gen_pool_dma_alloc_algo() - allocate, return the bus address in @dma
 * @pool: the pool, or NULL
 * @size: bytes
 * @dma:  receives the bus address, or NULL
 * @algo: the algorithm
 * @data: its data
 *
 * Return: the block, or NULL.
 */
void *modern_gen_pool_dma_alloc_algo(struct gen_pool *pool, size_t size, dma_addr_t *dma,
				     genpool_algo_t algo, void *data)
{
	return dma_alloc(pool, size, dma, algo, data, false);
}

/**
 * gen_pool_dma_alloc() - DMA allocation with the pool's algorithm
 * @pool: the pool, or NULL
 * @size: bytes
 * @dma:  receives the bus address, or NULL
 *
 * Return: the block, or NULL.
 */
void *modern_gen_pool_dma_alloc(struct gen_pool *pool, size_t size, dma_addr_t *dma)
{
	if (!pool)
		return NULL;
	return dma_alloc(pool, size, dma, pool->algo, pool->data, false);
}

/**
 * gen_pool_dma_alloc_align() - DMA allocation at an absolute alignment
 * @pool:  the pool, or NULL
 * @size:  bytes
 * @dma:   receives the bus address, or NULL
 * @align: alignment in bytes
 *
 * Return: the block, or NULL.
 */
void *modern_gen_pool_dma_alloc_align(struct gen_pool *pool, size_t size,
				      dma_addr_t *dma, int align)
{
	struct genpool_data_align data = { .align = align };

	return dma_alloc(pool, size, dma, gen_pool_first_fit_align, &data, false);
}

/**
 * gen_pool_dma_zalloc_algo() - gen_pool_dma_alloc_algo() and zero @size bytes
 * @pool: the pool, or NULL
 * @size: bytes
 * @dma:  receives the bus address, or NULL
 * @algo: the algorithm
 * @data: its data
 *
 * Return: the block, or NULL.
 */
void *modern_gen_pool_dma_zalloc_algo(struct gen_pool *pool, size_t size,
				      dma_addr_t *dma, genpool_algo_t algo, void *data)
{
	return dma_alloc(pool, size, dma, algo, data, true);
}

/**
 * gen_pool_dma_zalloc() - gen_pool_dma_alloc() and zero @size bytes
 * @pool: the pool, or NULL
 * @size: bytes
 * @dma:  receives the bus address, or NULL
 *
 * Return: the block, or NULL.
 */
void *modern_gen_pool_dma_zalloc(struct gen_pool *pool, size_t size, dma_addr_t *dma)
{
	if (!pool)
		return NULL;
	return dma_alloc(pool, size, dma, pool->algo, pool->data, true);
}

/**
 * gen_pool_dma_zalloc_align() - gen_pool_dma_alloc_align() and zero
 * @pool:  the pool, or NULL
 * @size:  bytes
 * @dma:   receives the bus address, or NULL
 * @align: alignment in bytes
 *
 * Return: the block, or NULL.
 */
void *modern_gen_pool_dma_zalloc_align(struct gen_pool *pool, size_t size,
				       dma_addr_t *dma, int align)
{
	struct genpool_data_align data = { .align = align };

	return dma_alloc(pool, size, dma, gen_pool_first_fit_align, &data, true);
}
