// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * modern/instantfit.c - gen_pool_instant_fit(): a good fit without a search.
 *
 * A request of nr granules is served from any free run of at least nr
 * rounded up to a power of two: best fit's size classes (sizeclass.c)
 * know which classes hold runs, so the first class of such runs whose head
 * holds one answers at once (the head's first, the shortest it keeps).
 * Where every such run lies past its class's horizon, the run index's
 * first fit for the rounded length finds one in O(log n).  With no run
 * that long, the request is best fit's, so instant fit fails only where
 * best fit does.  The pool's directory sends the request to a chunk that
 * has such a run first (pool.c).  On a bare bitmap (lock-free pools,
 * custom wrappers) it is gen_pool_best_fit().
 *
 * Cost: O(classes / bits per word) bit steps on the usual path, no memory
 * beyond best fit's size classes, which it shares.
 */
#include "genalloc.h"
#include "index_state_internal.h"
#include "instantfit_internal.h"
#include "sizeclass_internal.h"

unsigned long modern_instant_fit(struct modern_index *ix, const unsigned long *map,
				 unsigned long nr, unsigned long *run_end)
{
	unsigned long want = modern_instant_want(nr), start;
	struct modern_sizeclass *sc;

	if (modern_index_longest(ix) >= want) {
		sc = modern_sc_get(ix, map);
		if (sc && modern_sc_any_at_least(sc, want, &start, run_end))
			return start;
		return modern_index_find_first(ix, map, want, run_end);
	}
	return modern_best_fit(ix, map, nr, run_end);
}

/**
 * gen_pool_instant_fit() - on a bare bitmap, gen_pool_best_fit()
 *
 * See genpool_algo_t for the arguments; the pool answers it through the
 * index in indexed mode (modern_instant_fit()).
 */
unsigned long modern_gen_pool_instant_fit(unsigned long *map, unsigned long size,
					  unsigned long start, unsigned int nr, void *data,
					  struct gen_pool *pool, unsigned long start_addr)
{
	return modern_gen_pool_best_fit(map, size, start, nr, data, pool, start_addr);
}
