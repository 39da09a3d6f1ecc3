/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * modern/algo_internal.h - which built-in algorithm a request runs, and
 * its answer through the index (algo.c) (not installed).
 */
#ifndef GENALLOC_MODERN_ALGO_INTERNAL_H
#define GENALLOC_MODERN_ALGO_INTERNAL_H

#include "genalloc.h"
#include "index_internal.h"
#include "instantfit_internal.h"
#include "sizeclass_internal.h"

/**
 * enum modern_algo_kind - which built-in algorithm a genpool_algo_t is
 * @MODERN_ALGO_USER:        none: the pool runs it on the bitmap
 * @MODERN_ALGO_FIRST_FIT:   gen_pool_first_fit
 * @MODERN_ALGO_BEST_FIT:    gen_pool_best_fit
 * @MODERN_ALGO_ORDER_ALIGN: gen_pool_first_fit_order_align
 * @MODERN_ALGO_ALIGN:       gen_pool_first_fit_align
 * @MODERN_ALGO_FIXED:       gen_pool_fixed_alloc
 * @MODERN_ALGO_INSTANT_FIT: gen_pool_instant_fit (instantfit.c)
 *
 * The indexed path asks "which algorithm?" at several steps of one
 * allocation; it compares function addresses once and carries the answer.
 */
enum modern_algo_kind {
	MODERN_ALGO_USER,
	MODERN_ALGO_FIRST_FIT,
	MODERN_ALGO_BEST_FIT,
	MODERN_ALGO_ORDER_ALIGN,
	MODERN_ALGO_ALIGN,
	MODERN_ALGO_FIXED,
	MODERN_ALGO_INSTANT_FIT,
};

/** modern_algo_kind_of() - classify @algo (the default first) */
static inline enum modern_algo_kind modern_algo_kind_of(genpool_algo_t algo)
{
	if (algo == gen_pool_first_fit)
		return MODERN_ALGO_FIRST_FIT;
	if (algo == gen_pool_best_fit)
		return MODERN_ALGO_BEST_FIT;
	if (algo == gen_pool_first_fit_order_align)
		return MODERN_ALGO_ORDER_ALIGN;
	if (algo == gen_pool_first_fit_align)
		return MODERN_ALGO_ALIGN;
	if (algo == gen_pool_fixed_alloc)
		return MODERN_ALGO_FIXED;
	if (algo == gen_pool_instant_fit)
		return MODERN_ALGO_INSTANT_FIT;
	return MODERN_ALGO_USER;
}

/**
 * modern_algo_indexed_with_data() - modern_algo_indexed() for the two
 * algorithms that take data (first_fit_align, fixed_alloc); false for
 * any other kind
 */
bool modern_algo_indexed_with_data(enum modern_algo_kind kind, void *data,
				   struct gen_pool *pool, struct gen_pool_chunk *chunk,
				   unsigned long nr, unsigned long *bit, unsigned long *run_end);

/**
 * modern_algo_indexed() - a built-in algorithm's answer through the index
 * @kind:  the algorithm
 * @data:  its data, already validated by modern_bitmapfit_data_ok()
 * @pool:  the pool
 * @chunk: the chunk, with an index that matches its bitmap
 * @nr:    granules wanted
 * @bit:   receives the first granule, or a value >= chunk->nbits for none
 * @run_end: receives, when the search learnt it, the end of the free run
 *         that holds @bit, else MODERN_INDEX_NONE.  First fit's and best
 *         fit's @bit starts that run (for modern_index_claim_run()); the
 *         aligned algorithms' may lie inside it
 *         (modern_index_claim_within())
 *
 * Gives exactly what the algorithm(chunk->bits, chunk->nbits, 0, @nr, ...)
 * returns (a failure being any value >= nbits), without scanning the
 * bitmap.  The three without data go straight to the index; inlined
 * where @kind is a constant, the test of it folds away.
 *
 * Return: false if @kind is MODERN_ALGO_USER (@bit untouched).
 */
static inline bool modern_algo_indexed(enum modern_algo_kind kind, void *data,
				       struct gen_pool *pool, struct gen_pool_chunk *chunk,
				       unsigned long nr, unsigned long *bit,
				       unsigned long *run_end)
{
	if (kind == MODERN_ALGO_FIRST_FIT) {
		*bit = modern_index_find_first(chunk->index, chunk->bits, nr, run_end);
		return true;
	}
	if (kind == MODERN_ALGO_ORDER_ALIGN) {
		*bit = modern_index_find_order_aligned(chunk->index, chunk->bits, nr, run_end);
		return true;
	}
	if (kind == MODERN_ALGO_BEST_FIT) {
		*bit = modern_best_fit(chunk->index, chunk->bits, nr, run_end);
		return true;
	}
	if (kind == MODERN_ALGO_INSTANT_FIT) {
		*run_end = MODERN_INDEX_NONE;
		*bit = modern_instant_fit(chunk->index, chunk->bits, nr, run_end);
		return true;
	}
	return modern_algo_indexed_with_data(kind, data, pool, chunk, nr, bit, run_end);
}

/**
 * modern_algo_aligned_bound() - the longest request of an aligned family
 * that may fit in @chunk (modern_index_aligned_bound() on its grid)
 * @chunk: the chunk
 * @kind:  MODERN_ALGO_ORDER_ALIGN, or MODERN_ALGO_ALIGN with @align
 * @align: gen_pool_first_fit_align()'s alignment in bytes, a power of two
 * @order: the pool's min_alloc_order
 *
 * Return: the bound in granules; ~0UL ("any") for a chunk without an index.
 */
unsigned long modern_algo_aligned_bound(const struct gen_pool_chunk *chunk,
					enum modern_algo_kind kind, unsigned long align,
					int order);

#endif /* GENALLOC_MODERN_ALGO_INTERNAL_H */
