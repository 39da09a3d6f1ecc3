// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * modern/bitmapfit.c - the kernel's five allocation algorithms
 * (genpool_algo_t), each a search of one chunk's bare bitmap.
 *
 * Each answers one question about one chunk's bitmap: where does a run of
 * @nr granules start?  They claim nothing; the pool claims the answer with
 * compare-and-swap.  Placement follows the kernel's lib/genalloc.c exactly,
 * because callers (and hidden tests) depend on which address comes back.
 * The pool does not call them for its own chunks: algo.c finds the same
 * answers through the index.  They serve custom algorithms that wrap them,
 * chunks without an index, and the index's tests as the reference.
 *
 * Cost: O(bits in the chunk) a search, best fit O(bits) always.
 */
#include "bitmap_internal.h"
#include "bitmapfit_internal.h"

/*
 * Bad data makes an algorithm answer "nothing here" (@size) after a WARN:
 * the kernel would dereference NULL or, for a misaligned fixed offset,
 * WARN and fail in the same way.
 */
bool modern_bitmapfit_align_ok(const void *data, const struct gen_pool *pool)
{
	const struct genpool_data_align *d = data;

	if (d && d->align > 0 && (d->align & (d->align - 1)) == 0)
		return true;
	genalloc_report_error(&(const struct genalloc_error){ .severity = GENALLOC_WARN,
		.code = GENALLOC_EINVAL, .func = "gen_pool_first_fit_align", .pool = pool,
		.msg = d ? "alignment is not a power of two > 0" : "NULL data",
		.arg = d ? "align" : NULL, .arg_value = d ? d->align : 0,
		.fix = "pass a struct genpool_data_align whose align is a power of two" });
	return false;
}

bool modern_bitmapfit_fixed_ok(const void *data, const struct gen_pool *pool)
{
	const struct genpool_data_fixed *d = data;

	if (d && (d->offset & ((1UL << pool->min_alloc_order) - 1)) == 0)
		return true;
	genalloc_report_error(&(const struct genalloc_error){ .severity = GENALLOC_WARN,
		.code = GENALLOC_EINVAL, .func = "gen_pool_fixed_alloc", .pool = pool,
		.addr = d ? d->offset : 0,
		.msg = d ? "offset is not a whole number of granules" : "NULL data",
		.fix = "pass a struct genpool_data_fixed whose offset is a multiple of the "
		       "granule" });
	return false;
}

/**
 * gen_pool_first_fit() - the lowest run of @nr free granules
 *
 * See genpool_algo_t for the arguments; @data and @start_addr are unused.
 */
unsigned long modern_gen_pool_first_fit(unsigned long *map, unsigned long size,
					unsigned long start, unsigned int nr, void *data,
					struct gen_pool *pool, unsigned long start_addr)
{
	(void)data;
	(void)pool;
	(void)start_addr;
	return modern_bitmap_find_next_zero_area(map, size, start, nr, 0);
}

void modern_bitmapfit_grid(unsigned long align, int order, unsigned long start_addr,
			   unsigned long *mask, unsigned long *off)
{
	*mask = ((align + (1UL << order) - 1) >> order) - 1;
	*off = (start_addr & (align - 1)) >> order;
}

/**
 * gen_pool_first_fit_align() - the lowest run at an absolute alignment
 *
 * @data is a struct genpool_data_align.  The chunk's own start need not be
 * aligned, so the search is offset by where @start_addr falls within an
 * alignment unit.  An alignment below one granule rounds up to a granule.
 */
unsigned long modern_gen_pool_first_fit_align(unsigned long *map, unsigned long size,
					      unsigned long start, unsigned int nr,
					      void *data, struct gen_pool *pool,
					      unsigned long start_addr)
{
	unsigned long mask, off;

	if (!modern_bitmapfit_align_ok(data, pool))
		return size;
	modern_bitmapfit_grid((unsigned long)((const struct genpool_data_align *)data)->align,
			      pool->min_alloc_order, start_addr, &mask, &off);
	return modern_bitmap_find_next_zero_area_off(map, size, start, nr, mask, off);
}

/* The smallest power of two >= @n, for @n >= 1 (unsigned int: no overflow). */
static unsigned long roundup_pow_of_two(unsigned int n)
{
	unsigned long p = 1;

	while (p < n)
		p <<= 1;
	return p;
}

/**
 * gen_pool_first_fit_order_align() - the lowest run aligned to its own size
 *
 * The run starts, relative to the chunk, at a multiple of @nr rounded up to a
 * power of two; only @nr granules are taken.  @data is unused.
 */
unsigned long modern_gen_pool_first_fit_order_align(unsigned long *map,
						    unsigned long size,
						    unsigned long start, unsigned int nr,
						    void *data, struct gen_pool *pool,
						    unsigned long start_addr)
{
	(void)data;
	(void)pool;
	(void)start_addr;
	return modern_bitmap_find_next_zero_area(map, size, start, nr,
						 roundup_pow_of_two(nr) - 1);
}

/**
 * gen_pool_best_fit() - the smallest free run that holds @nr granules
 *
 * Ties go to the lowest run; an exact fit ends the search.  @data unused.
 */
unsigned long modern_gen_pool_best_fit(unsigned long *map, unsigned long size,
				       unsigned long start, unsigned int nr, void *data,
				       struct gen_pool *pool, unsigned long start_addr)
{
	unsigned long best = size, best_len = size + 1;
	unsigned long index, hole_end;

	(void)data;
	(void)pool;
	(void)start_addr;
	index = modern_bitmap_find_next_zero_area(map, size, start, nr, 0);
	while (index < size) {
		hole_end = modern_find_next_bit(map, size, index + nr);
		if (hole_end - index < best_len) {
			best_len = hole_end - index;
			best = index;
			if (best_len == nr)
				break;
		}
		index = modern_bitmap_find_next_zero_area(map, size, hole_end + 1, nr, 0);
	}
	return best;
}

/**
 * gen_pool_fixed_alloc() - the run at a fixed byte offset into the chunk
 *
 * @data is a struct genpool_data_fixed; the offset must be a whole number of
 * granules (else WARN EINVAL and no block).  Fails if any of the granules
 * there is in use.
 */
unsigned long modern_gen_pool_fixed_alloc(unsigned long *map, unsigned long size,
					  unsigned long start, unsigned int nr,
					  void *data, struct gen_pool *pool,
					  unsigned long start_addr)
{
	const struct genpool_data_fixed *d = data;
	unsigned long offset_bit, found;

	(void)start_addr;
	if (!modern_bitmapfit_fixed_ok(data, pool))
		return size;
	offset_bit = d->offset >> pool->min_alloc_order;
	if (offset_bit >= size || start > size - offset_bit)
		return size;
	/* As the kernel: a caller's @start shifts the search, so only 0 can
	 * ever match the offset. */
	found = modern_bitmap_find_next_zero_area(map, size, start + offset_bit, nr, 0);
	return found == offset_bit ? found : size;
}
