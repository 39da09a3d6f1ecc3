// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * modern/invariants.c - the conditions MODERN_ASSERT() checks in a
 * checked build (assert_internal.h), and its report.
 *
 * Each re-derives what a layer promises from the bitmap, the kernel's
 * truth: a claimed run was free and lies inside its chunk; a released one
 * was in use; an indexed search answers what the row's bare-bitmap function
 * answers; the index matches the bitmap once it has been told of a change.
 * They only read, take no lock (the caller holds the pool's, or the pool is
 * lock-free) and are compiled in every build, so a test can call them; only
 * the assertions that call them are compiled out of a release build.
 */
#include <stdint.h>

#include "assert_internal.h"
#include "bitmap_internal.h"
#include "index_internal.h"

void modern_assert_failed(struct gen_pool *pool, const char *func, const char *msg,
			  unsigned long addr, size_t size)
{
	genalloc_report(GENALLOC_BUG, GENALLOC_ECORRUPT, func, pool, addr, size, msg);
}

bool modern_inv_run_free(const struct gen_pool_chunk *chunk, unsigned long bit,
			 unsigned long nr)
{
	return nr && bit < chunk->nbits && nr <= chunk->nbits - bit &&
	       modern_find_next_bit(chunk->bits, bit + nr, bit) >= bit + nr;
}

bool modern_inv_run_used(const struct gen_pool_chunk *chunk, unsigned long bit,
			 unsigned long nr)
{
	return nr && bit < chunk->nbits && nr <= chunk->nbits - bit &&
	       modern_find_next_zero_bit(chunk->bits, bit + nr, bit) >= bit + nr;
}

bool modern_inv_same_answer(struct gen_pool *pool, const struct gen_pool_chunk *chunk,
			    genpool_algo_t algo, void *data, unsigned long nr, unsigned long bit,
			    bool exact)
{
	unsigned long bare;

	if (chunk->nbits > MODERN_ASSERT_FULL_BITS)
		return true;
	/* The algorithms take the map writable (genpool_algo_t) but only read it. */
	bare = algo((unsigned long *)(uintptr_t)chunk->bits, chunk->nbits, 0, (unsigned int)nr,
		    data, pool, chunk->start_addr);
	if (bare >= chunk->nbits || nr > chunk->nbits - bare)
		return bit >= chunk->nbits;
	return exact ? bare == bit : bit < chunk->nbits;
}

bool modern_inv_index_matches(const struct gen_pool_chunk *chunk)
{
	if (!chunk->index || chunk->nbits > MODERN_ASSERT_FULL_BITS)
		return true;
	/* Not the consumers': best fit's rebuilds its classes to compare, which
	 * allocates, and an indexed pool may serve a signal handler. */
	return modern_index_verify_own(chunk->index, chunk->bits);
}
