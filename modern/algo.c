// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * modern/algo.c - the built-in algorithms' answers through the index.
 *
 * The pool recognises the kernel's five algorithms (bitmapfit.c) by
 * address and asks the search built for each instead (first fit,
 * the aligned fits, best fit's size classes, a fixed offset): the same
 * granule the plain search of the bitmap would return, found without
 * scanning it.  A custom algorithm still runs on the bitmap.
 */
#include "algo_internal.h"
#include "bitmap_internal.h"
#include "bitmapfit_internal.h"
#include "index_internal.h"

/* gen_pool_fixed_alloc()'s answer: the run at the offset, if it is free. */
static unsigned long fixed_bit(const struct gen_pool_chunk *chunk, unsigned long offset_bit,
			       unsigned long nr)
{
	if (offset_bit >= chunk->nbits || nr > chunk->nbits - offset_bit)
		return chunk->nbits;
	if (modern_find_next_bit(chunk->bits, offset_bit + nr, offset_bit) < offset_bit + nr)
		return chunk->nbits;
	return offset_bit;
}

bool modern_algo_indexed_with_data(enum modern_algo_kind kind, void *data,
				   struct gen_pool *pool, struct gen_pool_chunk *chunk,
				   unsigned long nr, unsigned long *bit, unsigned long *run_end)
{
	unsigned long mask, off;

	*run_end = MODERN_INDEX_NONE;
	if (kind == MODERN_ALGO_ALIGN) {
		modern_bitmapfit_grid((unsigned long)((const struct genpool_data_align *)data)->align,
				      pool->min_alloc_order, chunk->start_addr, &mask, &off);
		*bit = modern_index_find_aligned(chunk->index, chunk->bits, nr, mask, off,
						 run_end);
	} else if (kind == MODERN_ALGO_FIXED) {
		*bit = fixed_bit(chunk, ((const struct genpool_data_fixed *)data)->offset >>
					pool->min_alloc_order, nr);
	} else {
		return false;
	}
	return true;
}

unsigned long modern_algo_aligned_bound(const struct gen_pool_chunk *chunk,
					enum modern_algo_kind kind, unsigned long align,
					int order)
{
	unsigned long mask, off;

	if (!chunk->index)
		return ~0UL;
	if (kind == MODERN_ALGO_ORDER_ALIGN)
		return modern_index_aligned_bound(chunk->index, MODERN_INDEX_ORDER_GRID, 0);
	modern_bitmapfit_grid(align, order, chunk->start_addr, &mask, &off);
	return modern_index_aligned_bound(chunk->index, mask, off);
}
