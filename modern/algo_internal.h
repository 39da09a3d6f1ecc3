/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * modern/algo_internal.h - the built-in algorithms, one row each of one
 * table (not installed).
 *
 * THE TABLE
 *   Every fact the engine knows about a built-in algorithm is in its row
 *   of MODERN_ALGO_TABLE, and nowhere else asks "which algorithm?":
 *
 *   ID       the row's name (MODERN_ALGO_<ID>, and alloc_<id> in pool.c)
 *   FN       its public function (bitmapfit.c): the kernel's search of a
 *            bare bitmap, which lock-free pools, chunks without an index
 *            and the tests' reference models run
 *   DATA_OK  its data check, which reports bad data once a request, or
 *            modern_algo_no_data for an algorithm that takes none
 *   SEARCH   its answer through the chunk's index: the granule FN would
 *            return on the chunk's bitmap, found without scanning it
 *   GRID     for an algorithm that searches an aligned grid, the grid's key
 *            from a request's data (the chunk directory aims a tree at a
 *            grid, and the index's aligned upkeep serves it); NULL otherwise
 *   FLAGS    MODERN_ALGO_STARTS_RUN: SEARCH's answer starts its free run,
 *            so the claim splits the run at its head;
 *            MODERN_ALGO_SEEK_POW2: the chunks are tried from the newest one
 *            with a run of the request rounded up to a power of two;
 *            MODERN_ALGO_EXACT: SEARCH gives FN's very granule (the kernel's
 *            placement), not only a run where FN finds one;
 *            MODERN_ALGO_TELLS_CLASSES: SEARCH told best fit's size classes
 *            of its claim already (it is their search)
 *
 *   Which index consumers a row needs follows from its search: best fit's
 *   size classes attach themselves on its first search, the aligned
 *   upkeep on a GRID row's.  A custom genpool_algo_t is a row of none:
 *   MODERN_ALGO_NONE, run on the bitmap as the kernel runs it.
 *
 *   Adding an algorithm: a row here, its search in a file of its own
 *   (named in SEARCH, declared beside the others below), its bare-bitmap
 *   function in bitmapfit.c, and its test (docs/engine.md).
 *
 * The hot paths are generated from the table (pool.c): each row's
 * arguments are constants there, so every test of a row's property folds
 * away as the old per-algorithm copies did.
 */
#ifndef GENALLOC_MODERN_ALGO_INTERNAL_H
#define GENALLOC_MODERN_ALGO_INTERNAL_H

#include "bitmap_internal.h"
#include "bitmapfit_internal.h"
#include "genalloc.h"
#include "index_internal.h"
#include "instantfit_internal.h"
#include "sizeclass_internal.h"

/* SEARCH's answer starts the free run that holds it. */
#define MODERN_ALGO_STARTS_RUN 1U
/* SEARCH has told the index's size classes of the claim it answers, so the
 * claim does not (the index would otherwise call back up into them). */
#define MODERN_ALGO_TELLS_CLASSES 8U
/* The chunk directory first seeks the newest chunk with a run of the
 * request rounded up to a power of two (where SEARCH answers at once). */
#define MODERN_ALGO_SEEK_POW2 2U
/* SEARCH answers exactly what FN answers on the bitmap; without it, SEARCH
 * chooses its own run and only fails where FN fails. */
#define MODERN_ALGO_EXACT 4U

/* A search through the index: the first granule, or a value >= the
 * chunk's nbits for none; *@run_end the end of the answer's free run when
 * the search learnt it, else MODERN_INDEX_NONE. */
typedef unsigned long (*modern_algo_search_t)(struct gen_pool *pool,
					      struct gen_pool_chunk *chunk,
					      unsigned long nr, const void *data,
					      unsigned long *run_end);

/* The grid an aligned request searches, as a key: the alignment in bytes
 * from gen_pool_first_fit_align()'s data, 0 for the request's own order
 * (modern_algo_grid() turns it into a chunk's grid). */
typedef unsigned long (*modern_algo_grid_t)(const void *data);

/* Data checks: true, or false after one WARN naming the algorithm. */
typedef bool (*modern_algo_data_ok_t)(const void *data, const struct gen_pool *pool);

/* ------------------------------------------------------------ searches */

/*
 * The searches without data read only the chunk's index and bitmap: each is
 * its search file's function in the table's signature.  Best fit's tells
 * its size classes of the claim (TELLS_CLASSES); instant fit's answers any
 * run of the request's next power of two at once.
 */
#define MODERN_ALGO_INDEX_SEARCH(NAME, FIND)                                        \
	static inline unsigned long modern_algo_search_##NAME(                     \
		struct gen_pool *pool, struct gen_pool_chunk *chunk, unsigned long nr, \
		const void *data, unsigned long *run_end)                            \
	{                                                                          \
		(void)pool;                                                        \
		(void)data;                                                        \
		return FIND(chunk->index, chunk->bits, nr, run_end);               \
	}
MODERN_ALGO_INDEX_SEARCH(first, modern_index_find_first)
MODERN_ALGO_INDEX_SEARCH(best, modern_best_fit_claim)
MODERN_ALGO_INDEX_SEARCH(order, modern_index_find_order_aligned)
MODERN_ALGO_INDEX_SEARCH(instant, modern_instant_fit)
#undef MODERN_ALGO_INDEX_SEARCH

/* gen_pool_first_fit_align(): its alignment as a grid on the chunk. */
static inline unsigned long modern_algo_search_align(struct gen_pool *pool,
						     struct gen_pool_chunk *chunk,
						     unsigned long nr, const void *data,
						     unsigned long *run_end)
{
	unsigned long mask, off;

	modern_bitmapfit_grid((unsigned long)((const struct genpool_data_align *)data)->align,
			      pool->min_alloc_order, chunk->start_addr, &mask, &off);
	return modern_index_find_aligned(chunk->index, chunk->bits, nr, mask, off, run_end);
}

/* gen_pool_fixed_alloc(): the run at the offset, if it is free. */
static inline unsigned long modern_algo_search_fixed(struct gen_pool *pool,
						     struct gen_pool_chunk *chunk,
						     unsigned long nr, const void *data,
						     unsigned long *run_end)
{
	unsigned long p = ((const struct genpool_data_fixed *)data)->offset >>
			  pool->min_alloc_order;

	*run_end = MODERN_INDEX_NONE;
	if (p >= chunk->nbits || nr > chunk->nbits - p ||
	    modern_find_next_bit(chunk->bits, p + nr, p) < p + nr)
		return chunk->nbits;
	return p;
}

/* ------------------------------------------------------------ grids */

static inline unsigned long modern_algo_grid_order(const void *data)
{
	(void)data;
	return 0;
}

static inline unsigned long modern_algo_grid_align(const void *data)
{
	return (unsigned long)((const struct genpool_data_align *)data)->align;
}

/**
 * modern_algo_grid() - a grid key's grid on a chunk
 * @key:        from the row's GRID: an alignment in bytes, or 0
 * @order:      the pool's min_alloc_order
 * @start_addr: the chunk's first address
 * @mask:       receives the grid's mask in granules, or MODERN_INDEX_ORDER_GRID
 *              for key 0 (each request's own size rounded up to a power of two)
 * @off:        receives the chunk's offset on the grid
 */
static inline void modern_algo_grid(unsigned long key, int order, unsigned long start_addr,
				    unsigned long *mask, unsigned long *off)
{
	if (!key) {
		*mask = MODERN_INDEX_ORDER_GRID;
		*off = 0;
		return;
	}
	modern_bitmapfit_grid(key, order, start_addr, mask, off);
}

/* For the rows that take no data. */
static inline bool modern_algo_no_data(const void *data, const struct gen_pool *pool)
{
	(void)data;
	(void)pool;
	return true;
}

/* ------------------------------------------------------------ the table */

/*     ID           FN                              DATA_OK
 *                  SEARCH                          GRID                    FLAGS */
#define MODERN_ALGO_TABLE(ROW)                                                             \
	ROW(FIRST_FIT,   gen_pool_first_fit,             modern_algo_no_data,               \
	    modern_algo_search_first, NULL,                   MODERN_ALGO_STARTS_RUN | \
							      MODERN_ALGO_EXACT)      \
	ROW(BEST_FIT,    gen_pool_best_fit,              modern_algo_no_data,               \
	    modern_algo_search_best,  NULL,                   MODERN_ALGO_STARTS_RUN | \
							      MODERN_ALGO_EXACT |      \
							      MODERN_ALGO_TELLS_CLASSES)      \
	ROW(ORDER_ALIGN, gen_pool_first_fit_order_align, modern_algo_no_data,               \
	    modern_algo_search_order, modern_algo_grid_order, MODERN_ALGO_EXACT)                           \
	ROW(ALIGN,       gen_pool_first_fit_align,       modern_bitmapfit_align_ok,         \
	    modern_algo_search_align, modern_algo_grid_align, MODERN_ALGO_EXACT)                           \
	ROW(FIXED,       gen_pool_fixed_alloc,           modern_bitmapfit_fixed_ok,         \
	    modern_algo_search_fixed, NULL,                   MODERN_ALGO_EXACT)                           \
	ROW(INSTANT_FIT, gen_pool_instant_fit,           modern_algo_no_data,               \
	    modern_algo_search_instant, NULL,                 MODERN_ALGO_STARTS_RUN |     \
							      MODERN_ALGO_SEEK_POW2)

/** enum modern_algo_id - a row of the table, or MODERN_ALGO_NONE */
enum modern_algo_id {
#define MODERN_ALGO_ENUM(ID, FN, DATA_OK, SEARCH, GRID, FLAGS) MODERN_ALGO_##ID,
	MODERN_ALGO_TABLE(MODERN_ALGO_ENUM)
#undef MODERN_ALGO_ENUM
	MODERN_ALGO_NONE,
};

/**
 * struct modern_algo - a row of the table, for the code that reads it at
 * run time (the chunk directory's aim, a chunk's reservations); the hot
 * paths read the table's constants instead
 */
struct modern_algo {
	genpool_algo_t fn;
	modern_algo_data_ok_t data_ok;
	modern_algo_search_t search;
	modern_algo_grid_t grid;
	unsigned int flags;
};

/* The rows, in the table's order (algo.c). */
extern const struct modern_algo modern_algos[MODERN_ALGO_NONE];

/**
 * modern_algo_of() - which row @fn is: the one place that asks
 * Return: its id, or MODERN_ALGO_NONE for a custom algorithm.
 */
static inline enum modern_algo_id modern_algo_of(genpool_algo_t fn)
{
#define MODERN_ALGO_MATCH(ID, FN, DATA_OK, SEARCH, GRID, FLAGS) \
	if (fn == FN)                                           \
		return MODERN_ALGO_##ID;
	MODERN_ALGO_TABLE(MODERN_ALGO_MATCH)
#undef MODERN_ALGO_MATCH
	return MODERN_ALGO_NONE;
}

/** modern_algo_row() - @fn's row, or NULL for a custom algorithm */
static inline const struct modern_algo *modern_algo_row(genpool_algo_t fn)
{
	enum modern_algo_id id = modern_algo_of(fn);

	return id == MODERN_ALGO_NONE ? NULL : &modern_algos[id];
}

/**
 * modern_algo_grid_bound() - the longest request on the grid of @key that
 * may fit in @chunk (modern_index_aligned_bound() on that grid)
 *
 * Return: the bound in granules; ~0UL ("any") for a chunk without an index.
 */
unsigned long modern_algo_grid_bound(const struct gen_pool_chunk *chunk, unsigned long key,
				     int order);

#endif /* GENALLOC_MODERN_ALGO_INTERNAL_H */
