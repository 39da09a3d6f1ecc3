// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * modern/treesearch_internal.h - the search of the run index's tree for the blocks
 * that hold a request: first fit's and the aligned fits' way to where a
 * run of nr free bits can start.
 *
 * HOW IT SEARCHES
 *   A level's eight entries are compared with nr at once
 *   (modern_mt_ge_mask32(), leaf_mask() for the 16-bit leaves), and the
 *   leftmost that holds it is followed down to its leaf (descend()).
 *   first_block_ge() starts on the level two below the root when that
 *   level has at most 32 nodes, else one below.  The dirty block's rise is
 *   not in the tree yet (THE DIRTY BLOCK in index_state_internal.h): every answer is
 *   checked against it (with_dirty()).  From a given block on, the climb
 *   is modern_index_next_block_ge() in firstfit.c.
 *
 * INVARIANT AND COST
 *   Reads only; the tree must match the bitmap but for the dirty block.
 *   O(log8 n) loads of eight entries, no memory of its own.  Inline for
 *   its two users, each of which keeps a descent's operands in registers;
 *   the two rare paths (a tree of one node, saturated leaves) stay out of
 *   line.
 */
#ifndef GENALLOC_MODERN_TREESEARCH_H
#define GENALLOC_MODERN_TREESEARCH_H

#include "index_state_internal.h"

/* Where a search of the tree found @r (a block, or NONE) starting from
 * block @lo, the dirty block may lie before it and hold @nr. */
static MODERN_ALWAYS_INLINE unsigned long
dirty_before(const struct modern_index *ix, unsigned long r, unsigned long lo, unsigned long nr)
{
	unsigned long d = ix->dirty;

	return d >= lo && d < r && ix->dirty_v >= nr ? d : r;
}

/* The dirty block instead of @r when it is in [@lo, @r) and holds @nr: the
 * tree's search cannot see its rise. */
static MODERN_ALWAYS_INLINE unsigned long
with_dirty(const struct modern_index *ix, unsigned long r, unsigned long lo, unsigned long nr)
{
	return ix->dirty == NO_DIRTY ? r : dirty_before(ix, r, lo, nr);
}

/* Bits k of @mask whose leaf @g + k is saturated and yet shorter than @nr
 * (> LEAF_SAT) cleared: the rare search for a run of 2^16 bits or more. */
static MODERN_NOINLINE_SHARED unsigned int sat_filter(const struct modern_index *ix,
						      unsigned long g, unsigned long nr,
						      unsigned int mask)
{
	unsigned int m, k;

	for (m = mask; m; m &= m - 1) {
		k = (unsigned int)__builtin_ctz(m);
		if (leaf_value(ix, g + k) < nr)
			mask &= ~(1U << k);
	}
	return mask;
}

/* modern_mt_ge_mask16() for the eight leaves from @g: a saturated leaf is
 * compared with @nr through its parent (THE LEAVES). */
static MODERN_ALWAYS_INLINE unsigned int leaf_mask(const struct modern_index *ix, unsigned long g,
						   unsigned long nr)
{
	const uint16_t lim = (uint16_t)(nr < LEAF_SAT ? nr : LEAF_SAT);
	unsigned int mask = modern_mt_ge_mask16(&ix->leaf[g], lim);

	if (nr > LEAF_SAT && mask)
		mask = sat_filter(ix, g, nr, mask);
	return mask;
}

/* Node (@l, @i) has value >= @nr: the leftmost block below it that has.
 * Every node on the way has such a child, so each level is one mask and
 * its lowest bit (the bit past the node only keeps ctz defined).  Inlined:
 * first fit's descent then keeps its operands in registers. */
static MODERN_ALWAYS_INLINE unsigned long
descend(const struct modern_index *ix, unsigned int l, unsigned long i, unsigned long nr,
	bool wide)
{
	if (l == 0)
		return i;
	while (--l > 0) {
		i *= FAN;
		i += (unsigned long)__builtin_ctz(modern_mt_ge_mask32(&ix->max[l][i], nr, wide) | 1U << FAN);
	}
	i *= FAN;
	return i + (unsigned long)__builtin_ctz(leaf_mask(ix, i, nr) | 1U << FAN);
}

/* first_block_ge() on a chunk of at most 8 blocks, whose tree is its
 * leaves and the root: out of line, to keep the leaves' test out of the
 * usual loop. */
static MODERN_NOINLINE_SHARED unsigned long first_leaf_ge(const struct modern_index *ix,
							 unsigned long nr)
{
	unsigned int m = leaf_mask(ix, 0, nr);

	return m ? (unsigned long)__builtin_ctz(m) : MODERN_INDEX_NONE;
}

/*
 * The leftmost block of value >= @nr (<= nbits) that the tree shows, or
 * MODERN_INDEX_NONE.  The descent starts on the level two below the root
 * when it has at most 32 nodes, else one below, read from the left: those
 * reads need not wait on one another, as each level of a descent waits on
 * the one above.  Inlined, @wide as for modern_mt_ge_mask32().
 */
static MODERN_ALWAYS_INLINE unsigned long
first_block_ge(const struct modern_index *ix, unsigned long nr, bool wide)
{
	unsigned int l = ix->nlevels - 2, m;
	unsigned long g, n;

	if (l == 0)
		return first_leaf_ge(ix, nr);
	if (l >= 2 && ix->count[l - 1] <= 4 * FAN)
		l--;
	n = modern_mt_padded(ix->count[l]);
	for (g = 0; g < n; g += FAN) {
		m = modern_mt_ge_mask32(&ix->max[l][g], nr, wide);
		if (m)
			return descend(ix, l, g + (unsigned long)__builtin_ctz(m), nr, wide);
	}
	return MODERN_INDEX_NONE;
}

/* The leftmost block of value >= @nr, which may exceed the chunk: the
 * tree's (the test of the chunk's size picks the narrow comparisons
 * whenever they are exact), or the dirty block before it. */
static MODERN_ALWAYS_INLINE unsigned long
leftmost_block_ge(const struct modern_index *ix, unsigned long nr)
{
	/* No run is longer than the chunk. */
	if (nr > ix->nbits)
		return MODERN_INDEX_NONE;
	return with_dirty(ix, ix->nbits <= INT32_MAX ? first_block_ge(ix, nr, false)
						      : first_block_ge(ix, nr, true), 0, nr);
}

#endif /* GENALLOC_MODERN_TREESEARCH_H */
