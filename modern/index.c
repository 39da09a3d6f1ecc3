// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * modern/index.c - the run index over a chunk's bitmap: its life cycle,
 * the upkeep of its full map and max tree at every claim and release, and
 * its verification.  modern/index_state_internal.h states what is indexed; the
 * searches are in firstfit.c, alignfit.c and sizeclass.c.
 *
 * HOW IT IS KEPT EXACT
 *   Every change of the bitmap is a claim or a release of a whole range
 *   [a, b) in which every bit flips (the pool never sets a set bit or
 *   clears a clear one), and only two runs' starts are affected: the run
 *   [s, e) around the range (found through the full map) and the one that
 *   starts at b.
 *     release: [s, a), [a, b) and [b, e) merge into one run from s.  The
 *              block of s takes max(value, e - s); the block of b lost the
 *              run that started at b, and is rescanned only if that run
 *              was its longest.
 *     claim:   [s, e) splits into [s, a) and [b, e).  The block of s is
 *              rescanned only if [s, e) was its longest; the block of b
 *              takes max(value, e - b).
 *   A block's new value climbs the tree only as far as it changes a
 *   maximum: a larger value stops at the first ancestor already as large, a
 *   smaller one at the first ancestor whose maximum came from elsewhere.
 *   One exception: the rise a release gives the block of s waits.  That
 *   block becomes the dirty one, its ancestors still counting it at its
 *   old value, and every search of the tree also looks at it; its rise is
 *   carried up only when another block changes, or when a search is about
 *   to claim elsewhere.  A free and then an alloc of the same small size
 *   (the run the free made is the lowest that fits) thus lower the block
 *   back to where its ancestors had it, and neither walk happens at all;
 *   requests whose allocs rarely land where the last free was pay the
 *   checks, which cost them less than the walks save the others.
 *   Blocks strictly inside the range start no run before or after, so only
 *   their full bits change, and only those of blocks the run [s, e) covers
 *   whole (all free before a claim, after a release): the run's ends say
 *   which, without reading the blocks.  First fit's and best fit's claims
 *   arrive with their run's end (modern_index_claim_run()), which their
 *   searches met, so that update need not look for the run's ends at all.
 *   Cost: O(log8 n) tree steps, O(log64 n) full-map steps and at most two
 *   block scans per change, whatever its size
 *   (plus one full bit per block it covers).  modern_index_verify()
 *   recomputes everything from the bitmap and compares.  Updates need the
 *   bitmap to hold still, which is why the pool serializes allocation and
 *   free in indexed mode (gen_pool_set_lockless()).
 *
 * WHO ELSE LEARNS OF A CHANGE
 *   Each update ends in one change record (struct modern_index_change:
 *   the bits, claim or release, and the run they left or joined), handed
 *   to each consumer attached (best fit's size classes, sizeclass.c;
 *   the aligned searches' hints and grid-point map, alignfit.c).  They
 *   read the index and the bitmap but never change its tree; the index
 *   knows them only through their operations, so nothing built on it is
 *   called from here by name.  A chunk with none pays one test an update.
 */
#include "index_state_internal.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "meta_internal.h"
#include "orderhint_internal.h"

/* A block value as its 16-bit leaf holds it (THE LEAVES, index_state_internal.h). */
static inline uint16_t leaf_of(uint32_t v)
{
	return (uint16_t)(v < LEAF_SAT ? v : LEAF_SAT);
}

/* scan_block() in the block that holds the chunk's last word: out of line,
 * so that the common case tests for it once rather than at every word. */
MODERN_NOINLINE unsigned long
modern_index_find_in_last_block(const struct modern_index *ix, const unsigned long *map,
			     unsigned long p, unsigned long flip)
{
	return scan_block(ix, map, p, flip, true);
}

static bool block_all_free(const struct modern_index *ix, const unsigned long *map,
			   unsigned long b)
{
	return used_in_block(ix, map, b << BLOCK_SHIFT) == (b + 1) << BLOCK_SHIFT;
}

static void put_bit(unsigned long *words, unsigned long i, bool v)
{
	if (v)
		words[i / BPL] |= 1UL << (i % BPL);
	else
		words[i / BPL] &= ~(1UL << (i % BPL));
}

/* Level @l's words [@lo, @hi) changed: rewrite the summary bits above them,
 * climbing while a summary bit actually changes. */
static void full_summarise(struct modern_index *ix, unsigned int l, unsigned long lo,
			   unsigned long hi)
{
	unsigned long j;
	bool changed;

	for (; l + 1 < ix->nfull; l++) {
		changed = false;
		for (j = lo; j < hi; j++) {
			bool v = ix->full[l][j] == ~0UL;

			if (v != (ix->full[l + 1][j / BPL] >> (j % BPL) & 1)) {
				put_bit(ix->full[l + 1], j, v);
				changed = true;
			}
		}
		if (!changed)
			return;
		lo /= BPL;
		hi = (hi - 1) / BPL + 1;
	}
}

/* Blocks [@lo, @hi) became all free (@v) or not; true if a word became
 * all ones or stopped being so, the only change the summaries see. */
static bool full_assign(struct modern_index *ix, unsigned long lo, unsigned long hi, bool v)
{
	unsigned long wi = lo / BPL, wlast = (hi - 1) / BPL, m = ~0UL << (lo % BPL);
	unsigned long old;
	bool moved = false;

	/* Usually one word: its masks are made once, outside any loop. */
	for (;; wi++, m = ~0UL) {
		if (wi == wlast)
			m &= ~0UL >> (BPL - 1 - (hi - 1) % BPL);
		old = ix->full[0][wi];
		ix->full[0][wi] = v ? old | m : old & ~m;
		moved |= (old == ~0UL) != (ix->full[0][wi] == ~0UL);
		if (wi == wlast)
			return moved;
	}
}

/*
 * Bits [@a, @b) were claimed out of (@v false) or released into (@v true)
 * the free run [@s, @e).  Only the blocks the run covers whole can change:
 * they were all free before a claim, and are after a release; every other
 * block the range touches holds a used bit either way.  Knowing the run
 * saves reading the edge blocks, and most claims touch no such block.
 */
static void full_update_blocks(struct modern_index *ix, unsigned long a, unsigned long b,
			       unsigned long s, unsigned long e, bool v)
{
	unsigned long lo = a >> BLOCK_SHIFT, hi = ((b - 1) >> BLOCK_SHIFT) + 1;
	/* A run ending at nbits stops short of a partial last block, whose
	 * tail reads as used: rounding e down leaves that block out. */
	unsigned long first = (s + BLOCK_BITS - 1) >> BLOCK_SHIFT, last = e >> BLOCK_SHIFT;

	lo = lo > first ? lo : first;
	hi = hi < last ? hi : last;
	if (lo < hi && full_assign(ix, lo, hi, v))
		full_summarise(ix, 0, lo / BPL, (hi - 1) / BPL + 1);
}

/* full_update_blocks() when the run can cover a block whole: the test is
 * inlined, since most runs are shorter than a block and change nothing. */
static MODERN_ALWAYS_INLINE void
full_update(struct modern_index *ix, unsigned long a, unsigned long b, unsigned long s,
	    unsigned long e, bool v)
{
	if (e - s >= BLOCK_BITS)
		full_update_blocks(ix, a, b, s, e, v);
}

/* The first block at or after @b that is not all free, or the block count. */
static unsigned long next_busy_block(const struct modern_index *ix, unsigned long b)
{
	unsigned long idx = b, wi, w;
	unsigned int l = 0;

	for (;;) {
		wi = idx / BPL;
		if (wi >= ix->fwords[l])
			return ix->count[0];
		w = ~ix->full[l][wi] & (~0UL << (idx % BPL));
		if (w)
			break;
		if (l + 1 == ix->nfull)
			return ix->count[0];
		idx = wi + 1;
		l++;
	}
	idx = wi * BPL + (unsigned long)__builtin_ctzl(w);
	while (l-- > 0)
		idx = idx * BPL + (unsigned long)__builtin_ctzl(~ix->full[l][idx]);
	return idx;
}

/* The last block below @b that is not all free, or MODERN_INDEX_NONE. */
static unsigned long prev_busy_block(const struct modern_index *ix, unsigned long b)
{
	unsigned long idx = b, i, w;
	unsigned int l = 0;

	for (;;) {
		if (idx == 0)
			return MODERN_INDEX_NONE;
		i = idx - 1;
		w = ~ix->full[l][i / BPL] & (~0UL >> (BPL - 1 - i % BPL));
		if (w)
			break;
		if (l + 1 == ix->nfull)
			return MODERN_INDEX_NONE;
		idx = i / BPL;
		l++;
	}
	idx = (i / BPL) * BPL + BPL - 1 - (unsigned long)__builtin_clzl(w);
	while (l-- > 0)
		idx = idx * BPL + BPL - 1 - (unsigned long)__builtin_clzl(~ix->full[l][idx]);
	return idx;
}

/* The first used bit at or after @p, or nbits (as find_next_bit()). */
unsigned long modern_index_next_used_slow(const struct modern_index *ix, const unsigned long *map,
				       unsigned long p)
{
	unsigned long q, b;

	if (p >= ix->nbits)
		return ix->nbits;
	q = used_in_block(ix, map, p);
	if (q == (p / BLOCK_BITS + 1) * BLOCK_BITS) {
		/* The rest of the block is free: on to the next busy one. */
		b = next_busy_block(ix, p / BLOCK_BITS + 1);
		if (b >= ix->count[0])
			return ix->nbits;
		q = used_in_block(ix, map, b << BLOCK_SHIFT);
	}
	return min_ul(q, ix->nbits);
}

/* The last used bit below @x, or MODERN_INDEX_NONE. */
static unsigned long prev_used(const struct modern_index *ix, const unsigned long *map,
			       unsigned long x)
{
	unsigned long wi, wfirst, w, b;

	if (x > ix->nbits)
		x = ix->nbits;
	if (x == 0)
		return MODERN_INDEX_NONE;
	/* Every bit looked at lies below @x <= nbits: the words as stored. */
	wi = (x - 1) / BPL;
	w = map_word(map, wi) & (~0UL >> (BPL - 1 - (x - 1) % BPL));
	/* The block of @x - 1 and the one below it word by word: runs of a
	 * few hundred bits are common, and the full map costs more. */
	wfirst = (x - 1) / BLOCK_BITS * BLOCK_WORDS;
	wfirst = wfirst > BLOCK_WORDS ? wfirst - BLOCK_WORDS : 0;
	while (!w && wi-- > wfirst)
		w = map_word(map, wi);
	if (!w) {
		b = prev_busy_block(ix, wfirst / BLOCK_WORDS);
		if (b == MODERN_INDEX_NONE)
			return MODERN_INDEX_NONE;
		for (wi = (b + 1) * BLOCK_WORDS - 1; !(w = map_word(map, wi)); wi--)
			;
	}
	return wi * BPL + BPL - 1 - (unsigned long)__builtin_clzl(w);
}

/* The end of the free run through free bit @p: from @known when @p lies in
 * it (an update has just measured the run it changed), else the full map. */
static unsigned long run_end(const struct modern_index *ix, const unsigned long *map,
			     unsigned long p, const struct run *known)
{
	if (known && known->start <= p && p < known->end)
		return known->end;
	return next_used(ix, map, p);
}

/* The longest run of free bits strictly inside used-mask @w (touching
 * neither edge), @w not 0; @top is clz(@w).  The runs at the edges belong
 * to the neighbours' counts.  Each step keeps the starts of runs one bit
 * longer, so the steps number the longest run.  The first eight are taken
 * whatever the word: a loop that stopped when no run was left ended at a
 * different step every word, and its exit missed the branch prediction
 * about once a word.  Runs are mostly shorter than eight, so the loop
 * after them is seldom entered.
 */
static MODERN_ALWAYS_INLINE unsigned long inner_longest(unsigned long w, unsigned long top)
{
	unsigned long x = ~w & -w & (~0UL >> top), n = 0;
	unsigned int i;

#pragma GCC unroll 8
	for (i = 0; i < 8; i++) {
		n += x != 0;
		x &= x >> 1;
	}
	while (x) {
		x &= x >> 1;
		n++;
	}
	return n;
}

/*
 * The longest free run that ends in words [@k, @kend) of block words @w,
 * @carry free bits before word @k belonging to it; @carry becomes the free
 * bits at the top of word @kend - 1.  A negative @carry stands for a run
 * that started before the block: it can never win.
 */
static MODERN_ALWAYS_INLINE long
words_longest(const unsigned long *w, unsigned long k, unsigned long kend, long *carry,
	      long best)
{
	long c = *carry, n, lead;
	unsigned long u;

	for (; k < kend; k++) {
		u = w[k];
		if (!u) {
			c += (long)BPL;
			continue;
		}
		if (u == ~0UL) {	/* the commonest word: inside a block in use */
			best = c > best ? c : best;
			c = 0;
			continue;
		}
		lead = __builtin_ctzl(u);
		n = c + lead;
		best = n > best ? n : best;
		c = __builtin_clzl(u);
		/* Runs inside the word lie between its first and last used
		 * bit: when those are too close to beat the longest run so
		 * far, the steps are not worth taking; the test costs less
		 * than the steps it saves. */
		if ((long)BPL - 2 - lead - c > best) {
			n = (long)inner_longest(u, (unsigned long)c);
			best = n > best ? n : best;
		}
	}
	*carry = c;
	return best;
}

/* The carry into block @b: a free run through its first bit that started
 * in an earlier block is not the block's. */
static long lead_carry(const unsigned long *map, unsigned long b)
{
	return b == 0 || bit_used(map, (b << BLOCK_SHIFT) - 1) ? 0 : -(long)(2 * BLOCK_BITS);
}

/* The free run of @carry bits that ends block @b goes on to its run's end. */
static long tail_run(const struct modern_index *ix, const unsigned long *map,
		     unsigned long b, long carry, const struct run *known)
{
	unsigned long p = ((b + 1) << BLOCK_SHIFT) - (unsigned long)carry;

	return (long)(run_end(ix, map, p, known) - p);
}

/*
 * The longest free run that starts in block @b at or after bit @lo, which
 * is the block's first bit or a used one.  The runs at the block's edges
 * are special: one through its first bit may have started in an earlier
 * block (then it is not this block's), and one through its last bit may go
 * on past the block (then @known or the full map gives its end).
 */
static uint32_t block_part(const struct modern_index *ix, const unsigned long *map,
			   unsigned long b, unsigned long lo, const struct run *known)
{
	unsigned long copy[BLOCK_WORDS], k = (lo / BPL) % BLOCK_WORDS, u;
	const unsigned long *w;
	long best = 0, carry = 0, t;
	bool all_used;

	w = block_words(ix, map, b, copy, &all_used);
	/* All used: the usual end of a claim in a full region. */
	if (all_used)
		return 0;
	if (lo == b << BLOCK_SHIFT) {
		carry = lead_carry(map, b);
	} else {
		/* Bit lo is used: lo's word counts from lo on. */
		u = w[k] | ((1UL << lo % BPL) - 1);
		best = words_longest(&u, 0, 1, &carry, 0);
		k++;
	}
	best = words_longest(w, k, BLOCK_WORDS, &carry, best);
	if (carry > 0) {
		t = tail_run(ix, map, b, carry, known);
		best = t > best ? t : best;
	}
	return (uint32_t)best;
}

/* The longest free run that starts in block @b. */
static uint32_t block_value(const struct modern_index *ix, const unsigned long *map,
			    unsigned long b, const struct run *known)
{
	return block_part(ix, map, b, b << BLOCK_SHIFT, known);
}

/* The maximum of node @i of level 1 after a child fell to @v (its leaf
 * already stored): a saturated leaf can only be that child's, as it was
 * the node's maximum before the fall (carry_fall() comes here only then),
 * and no sibling of a run so long holds one. */
static MODERN_ALWAYS_INLINE uint32_t leaves_max(const struct modern_index *ix, unsigned long i,
						uint32_t v)
{
	const uint16_t *c = &ix->leaf[i * FAN];
	uint16_t m = 0;
	unsigned int k;

	for (k = 0; k < FAN; k++)
		m = c[k] > m ? c[k] : m;
	return m < LEAF_SAT ? m : v;
}

/* Inlined: carry_fall() calls it at every level it lowers, where a call
 * costs as much as the work. */
static MODERN_ALWAYS_INLINE uint32_t
node_max(const struct modern_index *ix, unsigned int l, unsigned long i)
{
	const uint32_t *c = &ix->max[l - 1][i * FAN];

	/* Levels are padded with zeros to whole nodes: always eight, paired
	 * off so that the four first maxima are independent.  Scalar on
	 * purpose: SSE2 has no unsigned 32-bit maximum, and its emulation
	 * costs more than the scalar maxima. */
	return max_u32(max_u32(max_u32(c[0], c[1]), max_u32(c[2], c[3])),
		       max_u32(max_u32(c[4], c[5]), max_u32(c[6], c[7])));
}

/* Block @b's value, which its ancestors know as @old, fell to @v (already
 * stored): while the ancestor's maximum was this child's (it equals the
 * old value; a larger one came from elsewhere), and still moves. */
static MODERN_ALWAYS_INLINE void
carry_fall(struct modern_index *ix, unsigned long b, uint32_t old, uint32_t v)
{
	const unsigned int nlevels = ix->nlevels;
	unsigned long i = b;
	unsigned int l;

	for (l = 1; l < nlevels && v != old; l++) {
		i /= FAN;
		if (ix->max[l][i] > old)
			return;
		v = l == 1 ? leaves_max(ix, i, v) : node_max(ix, l, i);
		ix->max[l][i] = v;
	}
}

/* Block @b's value falls from @old, which the caller has just compared
 * (leaf_value()), to @v (or stays). */
static MODERN_ALWAYS_INLINE void lower_block(struct modern_index *ix, unsigned long b,
					     uint32_t old, uint32_t v)
{
	if (b == ix->dirty) {
		ix->leaf[b] = leaf_of(v);
		ix->dirty_v = v;
		/* The ancestors know it at dirty_pv: they need telling only
		 * when it falls to that or below. */
		if (v > ix->dirty_pv)
			return;
		ix->dirty = NO_DIRTY;
		carry_fall(ix, b, ix->dirty_pv, v);
		return;
	}
	ix->leaf[b] = leaf_of(v);
	if (v == old)
		return;
	if (ix->dirty != NO_DIRTY)
		flush_dirty_block(ix);
	carry_fall(ix, b, old, v);
}

/* Block @b's value rises to @v (> its value).  A rise leaves the tree as
 * exact as it was, dirty block and all: no need to settle that first. */
static MODERN_ALWAYS_INLINE void raise_block(struct modern_index *ix, unsigned long b, uint32_t v)
{
	ix->leaf[b] = leaf_of(v);
	if (b != ix->dirty)
		carry_rise(ix, b, v);
	else
		ix->dirty_v = v;
}

/* raise_block() for a release: the block becomes the dirty one. */
static MODERN_ALWAYS_INLINE void raise_block_later(struct modern_index *ix, unsigned long b,
						   uint32_t v)
{
	uint32_t old = leaf_value(ix, b);

	ix->leaf[b] = leaf_of(v);
	if (b != ix->dirty) {
		if (ix->dirty != NO_DIRTY)
			flush_dirty_block(ix);
		ix->dirty = (uint32_t)b;
		ix->dirty_pv = old;
	}
	ix->dirty_v = v;
}

static unsigned int plan(unsigned long nbits, uint32_t *count, unsigned int *nfull,
			 uint32_t *fwords)
{
	unsigned int levels;

	count[0] = (uint32_t)ceil_div(nbits, BLOCK_BITS);
	/* At least one level above the leaves: it holds the exact values of
	 * saturated ones, and the root of every tree is a 32-bit node. */
	levels = modern_mt_levels(count, 2);
	*nfull = 1;
	fwords[0] = (uint32_t)ceil_div(count[0], BPL);
	while (fwords[*nfull - 1] > 1) {
		fwords[*nfull] = (uint32_t)ceil_div(fwords[*nfull - 1], BPL);
		(*nfull)++;
	}
	return levels;
}

/* The index's bytes without a grid-point map. */
static size_t base_bytes(unsigned long nbits)
{
	uint32_t count[MAX_LEVELS], fwords[MAX_FULL_LEVELS];
	unsigned int levels, nfull, l;
	size_t bytes = sizeof(struct modern_index);

	levels = plan(nbits, count, &nfull, fwords);
	for (l = 0; l < nfull; l++)
		bytes += fwords[l] * sizeof(unsigned long);
	bytes += modern_mt_padded(count[0]) * sizeof(uint16_t);
	for (l = 1; l < levels; l++)
		bytes += modern_mt_padded(count[l]) * sizeof(uint32_t);
	return bytes;
}

/*
 * Words of the grid-point map beside an index of @base bytes: a chunk
 * keeps one if it can keep no hints (modern_index_hints_fit()) and the map
 * fits with the rest within the budget (docs/bookkeeping.md), which leaves out the chunks
 * under about 2^16 bits, whose header alone passes it, and whose few blocks
 * cost little to visit.
 */
static unsigned long gp_words_beside(unsigned long nbits, size_t base)
{
	unsigned long words = ceil_div(ceil_div(nbits, BLOCK_BITS), BPL);

	if (nbits >= MODERN_INDEX_HINT_MIN_BITS ||
	    (base + words * sizeof(unsigned long)) * 8 >
	    modern_bits_to_longs(nbits) * sizeof(unsigned long))
		return 0;
	return words;
}

unsigned long modern_index_points_words(unsigned long nbits)
{
	return gp_words_beside(nbits, base_bytes(nbits));
}

size_t modern_index_bytes(unsigned long nbits)
{
	size_t base;

	if (nbits == 0 || nbits > MODERN_INDEX_MAX_BITS)
		return 0;
	base = base_bytes(nbits);
	return base + gp_words_beside(nbits, base) * sizeof(unsigned long);
}

struct modern_index *modern_index_create(const unsigned long *map, unsigned long nbits)
{
	struct modern_index *ix;
	unsigned char *p;
	unsigned int l, nfull;

	if (nbits == 0 || nbits > MODERN_INDEX_MAX_BITS)
		return NULL;
	ix = modern_meta_zalloc(modern_index_bytes(nbits));
	if (!ix)
		return NULL;
	ix->nbits = nbits;
	ix->lastw = modern_bits_to_longs(nbits) - 1;
	ix->nlevels = (unsigned char)plan(nbits, ix->count, &nfull, ix->fwords);
	ix->nfull = (unsigned char)nfull;
	/* Words first: they need the stricter alignment. */
	p = (unsigned char *)(ix + 1);
	for (l = 0; l < ix->nfull; l++) {
		ix->full[l] = (unsigned long *)(void *)p;
		p += ix->fwords[l] * sizeof(unsigned long);
	}
	p += modern_index_points_words(nbits) * sizeof(unsigned long);	/* gp_map() */
	for (l = 1; l < ix->nlevels; l++) {
		ix->max[l] = (uint32_t *)(void *)p;
		p += modern_mt_padded(ix->count[l]) * sizeof(uint32_t);
	}
	ix->leaf = (uint16_t *)(void *)p;
	modern_index_rebuild(ix, map);
	return ix;
}

/* The consumer in @slot, if any, is gone. */
static void drop_consumer(struct modern_index *ix, unsigned int slot)
{
	const struct modern_index_consumer *c = ix->consumer[slot];

	ix->consumer[slot] = NULL;
	if (c && c->ops->destroy)
		c->ops->destroy(c);
}

void modern_index_attach(struct modern_index *ix, enum modern_index_slot slot,
			 const struct modern_index_consumer *c)
{
	if (ix->consumer[slot] != c)
		drop_consumer(ix, slot);
	ix->consumer[slot] = c;
}

void modern_index_destroy(struct modern_index *ix)
{
	if (!ix)
		return;
	for (unsigned int s = 0; s < MODERN_INDEX_SLOTS; s++)
		drop_consumer(ix, s);
	modern_ohint_destroy(ix->oh);
	modern_meta_free(ix, modern_index_bytes(ix->nbits));
}

size_t modern_index_footprint(const struct modern_index *ix)
{
	size_t bytes = modern_index_bytes(ix->nbits);
	unsigned int s;

	for (s = 0; s < MODERN_INDEX_SLOTS; s++)
		if (ix->consumer[s])
			bytes += ix->consumer[s]->ops->bytes(ix->consumer[s], ix);
	return bytes + (ix->oh ? modern_ohint_bytes(hint_blocks(ix)) : 0);
}

/* Full-map word @wi of level @l as the bitmap (or the level below) says. */
static unsigned long full_word(const struct modern_index *ix, const unsigned long *map,
			       unsigned int l, unsigned long wi)
{
	unsigned long below = l ? ix->fwords[l - 1] : ix->count[0], w = 0, j, bit;

	for (j = 0; j < BPL; j++) {
		bit = wi * BPL + j;
		if (bit >= below || (l ? ix->full[l - 1][bit] == ~0UL : block_all_free(ix, map, bit)))
			w |= 1UL << j;
	}
	return w;
}

void modern_index_rebuild(struct modern_index *ix, const unsigned long *map)
{
	unsigned int l;
	unsigned long i;
	uint32_t v;

	for (l = 0; l < ix->nfull; l++)
		for (i = 0; i < ix->fwords[l]; i++)
			ix->full[l][i] = full_word(ix, map, l, i);
	ix->dirty = NO_DIRTY;
	/* Block values need the full map (their last runs' ends); level 1
	 * takes them exact, as the leaves may not hold them. */
	memset(ix->max[1], 0, modern_mt_padded(ix->count[1]) * sizeof(uint32_t));
	for (i = 0; i < ix->count[0]; i++) {
		v = block_value(ix, map, i, NULL);
		ix->leaf[i] = leaf_of(v);
		ix->max[1][i / FAN] = max_u32(ix->max[1][i / FAN], v);
	}
	for (l = 2; l < ix->nlevels; l++)
		for (i = 0; i < ix->count[l]; i++)
			ix->max[l][i] = node_max(ix, l, i);
	for (l = 0; l < MODERN_INDEX_SLOTS; l++)
		if (ix->consumer[l] && !ix->consumer[l]->ops->rebuild(ix->consumer[l], ix, map))
			drop_consumer(ix, l);
}

/* The first bit of the free run holding (or ending just below) @a. */
unsigned long modern_index_run_start(const struct modern_index *ix, const unsigned long *map,
				  unsigned long a)
{
	unsigned long p;

	if (a == 0 || bit_used(map, a - 1))
		return a;
	p = prev_used(ix, map, a);
	return p == MODERN_INDEX_NONE ? 0 : p + 1;
}

/* Is anything built on the index?  The slots share the header's first
 * line with what every update reads. */
static MODERN_ALWAYS_INLINE bool has_consumer(const struct modern_index *ix)
{
	return ix->consumer[MODERN_INDEX_CLASSES] || ix->consumer[MODERN_INDEX_ALIGNED];
}

/* What is built on demand learns of the change too, from its change
 * record: the bits [@start, @start + @nr) were claimed out of (@claim) or
 * merged into the run @r.  The consumers take it out of line; an update
 * of a chunk without any pays one test. */
static MODERN_ALWAYS_INLINE void lazy_update(struct modern_index *ix, const unsigned long *map,
					struct run r, unsigned long start, unsigned long nr,
					bool claim, unsigned int told)
{
	const struct modern_index_change chg = { r.start, r.end, start, nr, claim };
	unsigned int s;

	for (s = 0; s < MODERN_INDEX_SLOTS; s++)
		if (ix->consumer[s] && !(told >> s & 1))
			ix->consumer[s]->ops->change(ix->consumer[s], ix, map, &chg);
}

/* Bits [a, b) were released: the runs [s, a) and [b, e) merge through them;
 * returns the merged run.  Its ends are found before the full map learns
 * of the release: they lie in blocks the release did not touch, or are
 * read from the bitmap directly. */
static struct run released(struct modern_index *ix, const unsigned long *map,
			   unsigned long a, unsigned long b)
{
	unsigned long s = modern_index_run_start(ix, map, a), e = next_used(ix, map, b);
	unsigned long bs = s >> BLOCK_SHIFT, bb = b >> BLOCK_SHIFT;
	struct run merged = { s, e };

	full_update(ix, a, b, s, e, true);
	/* The run that started at b is now part of the one from s, which
	 * covers block bb up to e: bb's runs start past e, if any do. */
	if (e > b && bb != bs && leaf_value(ix, bb) == e - b)
		lower_block(ix, bb, (uint32_t)(e - b),
			    e >> BLOCK_SHIFT == bb ? block_part(ix, map, bb, e, &merged) : 0);
	if (e - s > leaf_value(ix, bs))
		raise_block_later(ix, bs, (uint32_t)(e - s));
	return merged;
}

/* Bits up to @b were claimed out of the free run @was = [s, e), leaving
 * [s, a) and [b, e); returns @was.  The caller found the run's ends.
 * Inlined: once a pair, and its run is passed in registers then. */
static MODERN_ALWAYS_INLINE struct run
claimed(struct modern_index *ix, const unsigned long *map, unsigned long b, struct run was)
{
	unsigned long s = was.start, e = was.end;
	unsigned long bs = s >> BLOCK_SHIFT, bb = b >> BLOCK_SHIFT;
	struct run rest = { b, e };

	if (leaf_value(ix, bs) == e - s)
		lower_block(ix, bs, (uint32_t)(e - s), block_value(ix, map, bs, &rest));
	if (e > b && e - b > leaf_value(ix, bb))
		raise_block(ix, bb, (uint32_t)(e - b));
	return was;
}

/* Bits [@start, @start + @nr) were claimed out of the free run @r. */
static MODERN_ALWAYS_INLINE void claim_in(struct modern_index *ix, const unsigned long *map,
					  unsigned long start, unsigned long nr, struct run r,
					  unsigned int told)
{
	full_update(ix, start, start + nr, r.start, r.end, false);
	r = claimed(ix, map, start + nr, r);
	if (has_consumer(ix))
		lazy_update(ix, map, r, start, nr, true, told);
}

void modern_index_update(struct modern_index *ix, const unsigned long *map,
			 unsigned long start, unsigned long nr)
{
	unsigned long end = start + nr;
	struct run r;

	if (bit_used(map, start)) {
		/* The run's ends lie outside the claimed blocks, or in their
		 * words, so they can be found before the full map is told. */
		r.start = modern_index_run_start(ix, map, start);
		r.end = next_used(ix, map, end);
		claim_in(ix, map, start, nr, r, 0);
		return;
	}
	r = released(ix, map, start, end);
	if (has_consumer(ix))
		lazy_update(ix, map, r, start, nr, false, 0);
}

void modern_index_claim_run(struct modern_index *ix, const unsigned long *map,
			    unsigned long start, unsigned long nr, unsigned long run_end,
			    unsigned int told)
{
	claim_in(ix, map, start, nr, (struct run){ start, run_end }, told);
}

void modern_index_claim_within(struct modern_index *ix, const unsigned long *map,
			       unsigned long start, unsigned long nr, unsigned long run_end)
{
	/* Bits below @start are as they were: the run's start is still there. */
	claim_in(ix, map, start, nr, (struct run){ modern_index_run_start(ix, map, start), run_end },
		 0);
}

/* Does every leaf hold its block's value, and level 1 their maxima, the
 * dirty block counted at the value its parent was last told?  *@top
 * receives the longest run. */
static bool leaves_verify(const struct modern_index *ix, const unsigned long *map, uint32_t *top)
{
	unsigned long i, n = modern_mt_padded(ix->count[0]);
	uint32_t v, m = 0;

	*top = 0;
	for (i = 0; i < n; i++) {
		v = i < ix->count[0] ? block_value(ix, map, i, NULL) : 0;
		if (ix->leaf[i] != leaf_of(v) || (i == ix->dirty && ix->dirty_v != v))
			return false;
		*top = max_u32(*top, v);
		m = max_u32(m, i == ix->dirty ? ix->dirty_pv : v);
		if (i % FAN == FAN - 1) {
			if (ix->max[1][i / FAN] != m)
				return false;
			m = 0;
		}
	}
	return true;
}

bool modern_index_verify_own(const struct modern_index *ix, const unsigned long *map)
{
	unsigned int l;
	unsigned long i;
	uint32_t top = 0;

	for (l = 0; l < ix->nfull; l++)
		for (i = 0; i < ix->fwords[l]; i++)
			if (ix->full[l][i] != full_word(ix, map, l, i))
				return false;
	if (ix->dirty != NO_DIRTY &&
	    (ix->dirty >= ix->count[0] || ix->dirty_pv >= ix->dirty_v))
		return false;
	if (!leaves_verify(ix, map, &top))
		return false;
	/* The chunk directory's value, whatever the tree has been told. */
	if (modern_index_longest(ix) != top)
		return false;
	for (l = 2; l < ix->nlevels; l++)
		for (i = 0; i < ix->count[l]; i++)
			if (ix->max[l][i] != node_max(ix, l, i))
				return false;
	return true;
}

bool modern_index_verify(const struct modern_index *ix, const unsigned long *map)
{
	unsigned int l;

	if (!modern_index_verify_own(ix, map))
		return false;
	for (l = 0; l < MODERN_INDEX_SLOTS; l++)
		if (ix->consumer[l] && !ix->consumer[l]->ops->verify(ix->consumer[l], ix, map))
			return false;
	return true;
}

