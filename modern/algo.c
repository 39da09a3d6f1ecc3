// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * modern/algo.c - the table of built-in algorithms as data, for the code
 * that reads a row at run time, and the aligned bound the chunk directory
 * keeps for a grid.  The table itself, and what each column means, is in
 * algo_internal.h.
 */
#include "algo_internal.h"

const struct modern_algo modern_algos[MODERN_ALGO_NONE] = {
#define MODERN_ALGO_DATA(ID, FN, DATA_OK, SEARCH, GRID, FLAGS) \
	[MODERN_ALGO_##ID] = { FN, DATA_OK, SEARCH, GRID, FLAGS },
	MODERN_ALGO_TABLE(MODERN_ALGO_DATA)
#undef MODERN_ALGO_DATA
};

unsigned long modern_algo_grid_bound(const struct gen_pool_chunk *chunk, unsigned long key,
				     int order)
{
	unsigned long mask, off;

	if (!chunk->index)
		return ~0UL;
	modern_algo_grid(key, order, chunk->start_addr, &mask, &off);
	return modern_index_aligned_bound(chunk->index, mask, off);
}
