// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * modern/firstfit.c - gen_pool_first_fit()'s search through the run index,
 * and the search from any bit.
 *
 * HOW A SEARCH RUNS
 *   First fit of nr bits from bit 0 reads the level two below the root (if
 *   it has at most 32 nodes, else the level below the root) from the left
 *   to its first node of value >= nr, descends from there, at each level to
 *   the first child of value >= nr, then
 *   scans that block's four words for the lowest window of nr free bits
 *   (a window in the block's last run may end past the block; the full map
 *   gives that run's end).  From any
 *   other bit lo, the run through lo and the rest of lo's block are looked
 *   at first, then the tree is climbed from lo's block to the next block of
 *   value >= nr.  The answer is the lowest start of nr free bits at or
 *   after lo, exactly what the kernel's find_next_zero_area() loop returns.
 *
 * INVARIANT AND COST
 *   Reads only: the index must match the bitmap (every change told to it
 *   first); a search may carry the dirty block's rise up, nothing else.
 *   A search costs O(log8 n) tree steps and one or two block scans.  No
 *   memory of its own.
 */
#include "index_state_internal.h"
#include "blockscan_internal.h"
#include "treesearch_internal.h"

/* Entries of the FAN from @g on level @l that hold @nr. */
static MODERN_ALWAYS_INLINE unsigned int level_mask(const struct modern_index *ix, unsigned int l,
						    unsigned long g, unsigned long nr, bool wide)
{
	return l ? modern_mt_ge_mask32(&ix->max[l][g], nr, wide) : leaf_mask(ix, g, nr);
}

/* The first entry of level @l in [@c, @end) of value >= @nr, or @end; the
 * range lies within one node's children. */
static unsigned long first_ge(const struct modern_index *ix, unsigned int l,
			      unsigned long c, unsigned long end, unsigned long nr)
{
	unsigned long g = c & ~(FAN - 1);
	unsigned int mask;

	if (c >= end)
		return end;
	mask = level_mask(ix, l, g, nr, true) & (~0U << (c - g)) &
	       (((1U << FAN) - 1) >> (FAN - (end - g)));
	return mask ? g + (unsigned long)__builtin_ctz(mask) : end;
}

/* The leftmost block after @b of value >= @nr that the tree shows, or
 * MODERN_INDEX_NONE. */
static unsigned long tree_next_block_ge(const struct modern_index *ix, unsigned long b,
					unsigned long nr)
{
	unsigned long i = b, end, c;
	unsigned int l;

	for (l = 0; l < ix->nlevels; l++) {
		end = (i / FAN + 1) * FAN;
		c = first_ge(ix, l, i + 1, end, nr);
		if (c < end)
			return descend(ix, l, c, nr, true);
		i /= FAN;
	}
	return MODERN_INDEX_NONE;
}

/* The leftmost block after @b of value >= @nr, or MODERN_INDEX_NONE. */
unsigned long modern_index_next_block_ge(const struct modern_index *ix, unsigned long b,
				      unsigned long nr)
{
	return with_dirty(ix, tree_next_block_ge(ix, b, nr), b + 1, nr);
}

/* First fit's answer in block @b, the leftmost that holds @nr (or NONE). */
static MODERN_ALWAYS_INLINE unsigned long
first_in_block(const struct modern_index *ix, const unsigned long *map, unsigned long b,
	       unsigned long nr, unsigned long *run_end)
{
	*run_end = MODERN_INDEX_NONE;
	if (b == MODERN_INDEX_NONE)
		return MODERN_INDEX_NONE;
	return block_find(ix, map, b, b << BLOCK_SHIFT, nr, run_end);
}

unsigned long modern_index_find_first(struct modern_index *ix, const unsigned long *map,
				      unsigned long nr, unsigned long *run_end)
{
	unsigned long b = leftmost_block_ge(ix, nr);

	settle_dirty(ix, b);
	return first_in_block(ix, map, b, nr, run_end);
}

unsigned long modern_index_find(const struct modern_index *ix, const unsigned long *map,
				unsigned long lo, unsigned long nr)
{
	unsigned long b, r, e;

	if (lo == 0)
		return first_in_block(ix, map, leftmost_block_ge(ix, nr), nr, &e);
	if (lo >= ix->nbits || nr > ix->nbits - lo || modern_index_longest(ix) < nr)
		return MODERN_INDEX_NONE;
	/* The run through @lo, the rest of its block, then the tree. */
	if (!bit_used(map, lo)) {
		e = next_used(ix, map, lo);
		if (e - lo >= nr)
			return lo;
		lo = e;
		if (lo >= ix->nbits)
			return MODERN_INDEX_NONE;
	}
	/* Bit @lo is used, so a window from here starts a run in @lo's block
	 * or later: the block's value says whether to scan its rest at all. */
	b = lo >> BLOCK_SHIFT;
	r = MODERN_INDEX_NONE;
	if (leaf_value(ix, b) >= nr)
		r = block_find(ix, map, b, lo, nr, &e);
	if (r == MODERN_INDEX_NONE) {
		b = modern_index_next_block_ge(ix, b, nr);
		if (b != MODERN_INDEX_NONE)
			r = block_find(ix, map, b, b << BLOCK_SHIFT, nr, &e);
	}
	return r;
}
