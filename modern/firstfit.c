// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * modern/firstfit.c - gen_pool_first_fit()'s search through the run index,
 * the search from any bit, and the visit of every run of a stretch that
 * best fit's size classes refill from.
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
 *   A search costs O(log8 n) tree steps and one or two block scans; a
 *   visit of a stretch, one leaf load per eight blocks and a block scan
 *   per block that starts a run long enough.  No memory of its own.
 */
#include "index.h"
#include "treesearch.h"

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
unsigned long modern_ix_next_block_ge(const struct modern_index *ix, unsigned long b,
				      unsigned long nr)
{
	return with_dirty(ix, tree_next_block_ge(ix, b, nr), b + 1, nr);
}

/*
 * block_find()'s last resort, out of line to keep its word loop lean: the
 * window in the block's last run, whose @carry bits end the block.
 */
static MODERN_NOINLINE unsigned long
last_run_find(const struct modern_index *ix, const unsigned long *map, unsigned long b,
	      unsigned long lo, unsigned long nr, unsigned long carry, unsigned long *run_end)
{
	unsigned long end = (b + 1) << BLOCK_SHIFT;

	if (lo == b << BLOCK_SHIFT) {
		/* The whole block was searched and no run ending in it holds
		 * @nr, yet its value (the callers' reason to come) does: the
		 * longest run is the last one, and its length is that value. */
		*run_end = end - carry + leaf_value(ix, b);
		return end - carry;
	}
	*run_end = next_used(ix, map, end);
	return carry + *run_end - end >= nr ? end - carry : MODERN_INDEX_NONE;
}

/*
 * The lowest window of @nr free bits that starts in block @b at or after
 * bit @lo (bits below @lo read as used); the block's last run may carry the
 * window past its end.  The block's value must be at least @nr, and when
 * @lo is the block's first bit, bit @lo used or the run through it shorter
 * than @nr (as the tree's descent and modern_index_find() guarantee).
 * Inlined: first fit's search is then one function from root to window.
 * @last says that @b holds the chunk's last word: only then can a word
 * have bits past the chunk, and the usual block need not test each.
 */
static MODERN_ALWAYS_INLINE unsigned long
block_find_in(const struct modern_index *ix, const unsigned long *map, unsigned long b,
	      unsigned long lo, unsigned long nr, unsigned long *run_end, bool last)
{
	unsigned long wi = lo / BPL, wend = (b + 1) * BLOCK_WORDS, w, x;
	unsigned long carry = 0, below = (1UL << (lo % BPL)) - 1;	/* in lo's word */
	unsigned int lead;

	/* A window longer than a block can only be in the block's last run,
	 * which goes on past it: count that run's bits from the top word. */
	if (nr > BLOCK_BITS) {
		for (wi = wend; wi-- > lo / BPL;) {
			w = block_word(ix, map, wi, last);
			if (lo > wi * BPL)
				w |= (1UL << (lo % BPL)) - 1;
			carry += clz_or_bpl(w);
			if (w)
				break;
		}
		wi = wend;
	}
	for (; wi < wend; wi++, below = 0) {
		w = block_word(ix, map, wi, last) | below;
		if (w == ~0UL) {
			carry = 0;
			continue;
		}
		lead = ctz_or_bpl(w);
		if (carry + lead >= nr) {
			*run_end = w ? wi * BPL + lead : MODERN_INDEX_NONE;
			return wi * BPL - carry;
		}
		if (!w) {
			carry += BPL;
			continue;
		}
		if (nr < BPL) {
			x = run_starts(~w, nr);
			if (x) {
				x = (unsigned long)__builtin_ctzl(x);
				w &= ~0UL << x;	/* the run's end, if in this word */
				*run_end = w ? wi * BPL + (unsigned long)__builtin_ctzl(w)
					     : MODERN_INDEX_NONE;
				return wi * BPL + x;
			}
		}
		carry = clz_or_bpl(w);
	}
	return carry ? last_run_find(ix, map, b, lo, nr, carry, run_end) : MODERN_INDEX_NONE;
}

/* block_find_in() for the block that holds the chunk's last word: out of
 * line, since the search meets it rarely, rather than testing every word
 * of every block for the chunk's end. */
static MODERN_NOINLINE unsigned long
block_find_last(const struct modern_index *ix, const unsigned long *map, unsigned long b,
		unsigned long lo, unsigned long nr, unsigned long *run_end)
{
	return block_find_in(ix, map, b, lo, nr, run_end, true);
}

/* block_find_in(), the chunk's last block told apart once. */
static MODERN_ALWAYS_INLINE unsigned long
block_find(const struct modern_index *ix, const unsigned long *map, unsigned long b,
	   unsigned long lo, unsigned long nr, unsigned long *run_end)
{
	if ((b + 1) * BLOCK_WORDS > ix->lastw)
		return block_find_last(ix, map, b, lo, nr, run_end);
	return block_find_in(ix, map, b, lo, nr, run_end, false);
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
		b = modern_ix_next_block_ge(ix, b, nr);
		if (b != MODERN_INDEX_NONE)
			r = block_find(ix, map, b, b << BLOCK_SHIFT, nr, &e);
	}
	return r;
}

/* The runs of at least @nr bits that start in block @b from @p (a used bit,
 * or one whose run is shorter than @nr), in order, each to @visit; the
 * block's value must be at least @nr.  Returns where the last run ended,
 * or @p. */
static unsigned long visit_block(const struct modern_index *ix, const unsigned long *map,
				 unsigned long b, unsigned long p, unsigned long nr,
				 unsigned long limit, modern_index_visit_fn visit, void *arg)
{
	unsigned long r, q;

	while ((r = block_find(ix, map, b, p, nr, &q)) < limit) {
		if (q == MODERN_INDEX_NONE)
			q = next_used(ix, map, r);
		visit(arg, r, q);
		p = q;
		if (q >> BLOCK_SHIFT != b)
			break;	/* the run went past the block */
	}
	return p;
}

/*
 * Only the blocks whose leaves hold @nr are read, eight leaves at a time
 * from one load: a refill of best fit's size classes asks for every run of
 * at least its class's shortest length in a stretch of 64 blocks.
 * Climbing the tree again for each run, as modern_index_find() does, was
 * about half of a 16 MiB pool's best-fit pair, and walking the bitmap word
 * by word cost the short classes every used word (bench/FINDINGS.md).  The
 * leaves alone are exact (the dirty block's included); only saturated
 * ones need their parent (sat_filter(), treesearch.h).
 */
void modern_index_visit_runs(const struct modern_index *ix, const unsigned long *map,
			     unsigned long lo, unsigned long limit, unsigned long nr,
			     modern_index_visit_fn visit, void *arg)
{
	unsigned long p = lo, b, bend, g;
	unsigned int mask;

	limit = min_ul(limit, ix->nbits);
	if (lo >= limit || nr == 0)
		return;
	/* A run through @lo that started below it is not one of the stretch's. */
	if (p > 0 && !bit_used(map, p - 1))
		p = next_used(ix, map, p);
	bend = ceil_div(limit, BLOCK_BITS);
	for (b = p >> BLOCK_SHIFT, g = b & ~(FAN - 1); g < bend && p < limit; g += FAN) {
		mask = leaf_mask(ix, g, nr) & (~0U << (b > g ? b - g : 0));
		if (bend - g < FAN)
			mask &= (1U << (bend - g)) - 1;
		for (; mask && p < limit; mask &= mask - 1) {
			b = g + (unsigned long)__builtin_ctz(mask);
			if (b < p >> BLOCK_SHIFT)
				continue;	/* a visited run covered it */
			p = visit_block(ix, map, b, p > b << BLOCK_SHIFT ? p : b << BLOCK_SHIFT,
					nr, limit, visit, arg);
		}
	}
}
