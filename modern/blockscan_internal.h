/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * modern/blockscan_internal.h - the scan of one block of the run index for
 * the lowest window of nr free bits (not installed): where a search of the
 * tree ends (first fit, firstfit.c) and where a refill of best fit's size
 * classes reads its runs (sizeclass.c).
 *
 * INVARIANT AND COST
 *   Reads only; the block's value must be at least nr.  A block is four
 *   words, so a scan reads them and, for a run that leaves the block, the
 *   full map for its end.  Inline for its users, whose loops keep the
 *   scan's operands in registers; the block at the chunk's end and the
 *   last-run case stay out of line.
 */
#ifndef GENALLOC_MODERN_BLOCKSCAN_INTERNAL_H
#define GENALLOC_MODERN_BLOCKSCAN_INTERNAL_H

#include "index_state_internal.h"

/*
 * block_find()'s last resort, out of line to keep its word loop lean: the
 * window in the block's last run, whose @carry bits end the block.
 */
static MODERN_NOINLINE_SHARED unsigned long
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
static MODERN_NOINLINE_SHARED unsigned long
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

#endif /* GENALLOC_MODERN_BLOCKSCAN_INTERNAL_H */
