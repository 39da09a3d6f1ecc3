/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * modern/index_state_internal.h - the run index's state and the reads every part of
 * it shares (not installed): word access, the full map's next used bit,
 * the max tree's leaves and descent, the dirty block.  Private to the
 * files of the index (index.c: life cycle and upkeep; firstfit.c;
 * alignfit.c) and to best fit's entry (sizeclass.c).
 *
 * WHAT IS INDEXED
 *   The bitmap is cut into blocks of 256 bits (four words, half a cache
 *   line).  Bits past the end of the chunk count as used.  Two structures
 *   sit on the blocks:
 *     max tree  - for every block, the length of the longest free run that
 *                 STARTS in it (a run is a maximal stretch of free bits; it
 *                 is counted whole, however far past the block it goes),
 *                 in a 16-bit leaf (THE LEAVES: a saturated one is read
 *                 through its parent), and above the blocks a tree of
 *                 32-bit maxima, 8 per node.  The root is the chunk's
 *                 longest run.
 *     full map  - one bit per block, set when the block is all free, with
 *                 a summary bit per 64 below it, so "the next (or previous)
 *                 used bit" skips any stretch of free blocks in O(log64 n).
 *   Keying each run by its start is what makes first fit cheap: the lowest
 *   run that can hold nr bits starts in the leftmost block whose value is at
 *   least nr, and the tree leads to that block in one descent.
 *
 * COST
 *   For a chunk of N granules: a 2-byte leaf per block of 256 granules,
 *   4 bytes per node of 8 blocks and 1/7 of that again for the nodes above
 *   (each level padded to whole nodes), one full bit per block and 1/64 of
 *   those in the summaries (and on chunks of about 2^16 to 2^20 bits one
 *   grid-point bit per block), plus a header of 256 bytes; what that comes
 *   to, chunk size by chunk size, is in docs/bookkeeping.md.  Eight
 *   children a node rather than sixteen: a node's maximum and the choice of
 *   a child cost half as much and the extra level less than that.  Blocks
 *   of 256 bits rather than 512: a claim's rescan and a search's scan read
 *   half the words.  With 32-bit leaves the index would pass the
 *   bookkeeping budget (docs/bookkeeping.md), and blocks of 128 bits
 *   would double the tree for no shorter scan.
 *   Time: O(log8 n) tree steps and O(log64 n) full-map steps a search or
 *   an update, and at most two block scans an update.
 */
#ifndef GENALLOC_MODERN_INDEX_H
#define GENALLOC_MODERN_INDEX_H

#include "index_internal.h"

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "bitmap_internal.h"
#include "compiler_internal.h"
#include "maxtree_internal.h"

#define BPL MODERN_BITS_PER_LONG
#define BLOCK_SHIFT 8
#define BLOCK_BITS (1UL << BLOCK_SHIFT)
#define BLOCK_WORDS (BLOCK_BITS / BPL)
#define FAN MODERN_MT_FAN
#define MAX_LEVELS 9		/* 2^32 bits: 2^24 leaves, eight levels of 8 */
#define MAX_FULL_LEVELS 4	/* 2^24 bits, 64 to a word */
#define NO_DIRTY UINT32_MAX	/* no block is dirty (blocks number <= 2^24) */
/* A leaf holds a block's value up to LEAF_SAT - 1; LEAF_SAT stands for
 * any value from LEAF_SAT up (see THE LEAVES). */
#define LEAF_SAT UINT16_MAX
/* The order hints (orderhint.c) and their updates keep blocks of 512 bits,
 * two of the index's: at the index's own, the two would pass the budget. */
#define HINT_SHIFT 9
#define HINT_BITS (1UL << HINT_SHIFT)
#define HINT_SPAN (HINT_BITS / BLOCK_BITS)

/**
 * struct modern_index - the index of one bitmap
 * @nbits:   bits in the bitmap
 * @lastw:   the bitmap's last word (its number of words - 1), where the
 *           bits past the chunk begin
 * @dirty:   a block whose value rose without its ancestors being told
 *           (NO_DIRTY for none; see THE DIRTY BLOCK below)
 * @dirty_pv: the value @dirty's ancestors account for it, below its own
 * @dirty_v: @dirty's value, which its leaf may hold only as LEAF_SAT
 * @nlevels: levels of the max tree, blocks included; the last has one node
 * @nfull:   levels of the full map
 * @oh_on:   @oh is loaded, kept up to date and searched
 * @gp_on:   the grid-point map (below) is loaded and kept up to date
 * @consumer: fed every change record, in slot order (enum
 *           modern_index_slot; modern_index_attach())
 * @oh:      bounds for the aligned requests of one grid family
 *           (orderhint.c): memory
 *           reserved up front or at the first need, used once @oh_on
 * @leaf:    @leaf[b] is the longest run starting in block b, or LEAF_SAT
 *           (THE LEAVES); padded with zeros to a multiple of 8 entries
 * @max:     @max[l][i] (l >= 1) the maximum of node i's 8 children on
 *           level l - 1 (the leaves for l = 1), exact; padded as @leaf.
 *           @max[0] is unused.
 * @full:    @full[0] one bit per block, set when it is all free; bit j of
 *           @full[l] set when word j of @full[l - 1] is all ones.  Bits
 *           past a level's end are kept set, so they never look "used".
 * @count:   nodes per level of the max tree
 * @fwords:  words per level of the full map
 * @miss_grid: with @miss_nr, an aligned search known to find nothing (see
 * @miss_nr:   THE MISS MEMO; @miss_nr 0 for none).  Both fit in the bytes
 *             the header's alignment leaves after @fwords.
 *
 * On chunks too small for @oh whose budget leaves room (modern_index_points_words()), the
 * full map's words are followed by the grid-point map (gp_map()): one bit
 * per block, set when its first bit is free, the grid points of coarse
 * aligned requests.  It has no pointer here: the header has no byte to
 * spare under the budget at 2^16 bits.
 */
struct modern_index {
	/* What every update and search reads, on the first three lines. */
	unsigned long nbits;
	unsigned long lastw;
	uint32_t dirty;
	uint32_t dirty_pv;
	uint32_t dirty_v;
	unsigned char nlevels;
	unsigned char nfull;
	bool oh_on;
	bool gp_on;
	const struct modern_index_consumer *consumer[MODERN_INDEX_SLOTS];
	struct modern_ohint *oh;
	uint16_t *leaf;
	uint32_t *max[MAX_LEVELS];
	unsigned long *full[MAX_FULL_LEVELS];
	/* Level sizes: read by the walks along a level and the rebuild. */
	uint32_t count[MAX_LEVELS];
	uint32_t fwords[MAX_FULL_LEVELS];
	/* Read by aligned searches and releases, in the end's padding. */
	unsigned char miss_grid;
	uint16_t miss_nr;
};

/* A maximal free run [start, end) the caller has already found. */
struct run {
	unsigned long start, end;
};

/* Shared by the index's files, each defined once. */

/* The first used bit at or after @p, or nbits (index.c). */
unsigned long modern_index_next_used_slow(const struct modern_index *ix, const unsigned long *map,
				       unsigned long p);
/* The first bit of the free run holding (or ending just below) @a (index.c). */
unsigned long modern_index_run_start(const struct modern_index *ix, const unsigned long *map,
				  unsigned long a);
/* Words of the grid-point map of a chunk of @nbits bits, 0 for none (index.c). */
unsigned long modern_index_points_words(unsigned long nbits);
/* The leftmost block after @b of value >= @nr, or MODERN_INDEX_NONE (firstfit.c). */
unsigned long modern_index_next_block_ge(const struct modern_index *ix, unsigned long b,
				      unsigned long nr);

/* The scan of the chunk's last block, out of line to keep it out of its
 * callers' registers (index.c). */
unsigned long modern_index_find_in_last_block(const struct modern_index *ix,
					   const unsigned long *map, unsigned long p,
					   unsigned long flip);

static inline unsigned long ceil_div(unsigned long a, unsigned long b)
{
	return a / b + (a % b != 0);
}

static inline unsigned long min_ul(unsigned long a, unsigned long b)
{
	return a < b ? a : b;
}

/* Blocks of the order hints (HINT_BITS each). */
static inline unsigned long hint_blocks(const struct modern_index *ix)
{
	return ceil_div(ix->nbits, HINT_BITS);
}

/* Word @wi as stored: for a caller that looks only at bits of the chunk. */
static inline unsigned long map_word(const unsigned long *map, unsigned long wi)
{
	return atomic_load_explicit((const _Atomic unsigned long *)&map[wi], memory_order_relaxed);
}

/* The bits of the last word past the chunk, which read as used. */
static inline unsigned long pad_bits(const struct modern_index *ix)
{
	return ix->nbits % BPL ? ~0UL << (ix->nbits % BPL) : 0;
}

/* Word @wi with every bit past the chunk reading as used. */
static inline unsigned long used_word(const struct modern_index *ix, const unsigned long *map,
			       unsigned long wi)
{
	/* One test on the common path: only the last word and beyond are odd. */
	if (wi >= ix->lastw)
		return wi > ix->lastw ? ~0UL : pad_bits(ix) | map_word(map, wi);
	return map_word(map, wi);
}

/* Word @wi of a block, which holds the chunk's last word only if @last:
 * a caller that knows its block is not the last skips used_word()'s test. */
static MODERN_ALWAYS_INLINE unsigned long
block_word(const struct modern_index *ix, const unsigned long *map, unsigned long wi, bool last)
{
	return last ? used_word(ix, map, wi) : map_word(map, wi);
}

/*
 * Block @b's four words, bits past the chunk reading as used: the map's
 * own, or for the chunk's last block a copy made in @copy; *@all_used says
 * whether every bit is used.  The map's words are read in place, without
 * atomics: the index runs under the pool's lock, which keeps every writer
 * out (as the pool's _excl bitmap calls rely on).
 */
static MODERN_ALWAYS_INLINE const unsigned long *
block_words(const struct modern_index *ix, const unsigned long *map, unsigned long b,
	    unsigned long copy[BLOCK_WORDS], bool *all_used)
{
	unsigned long wi = b * BLOCK_WORDS, all = ~0UL, k;

	if (wi + BLOCK_WORDS <= ix->lastw) {
#if defined(__SSE2__)
		const __m128i *v = (const __m128i *)(const void *)&map[wi];
		__m128i and2 = _mm_and_si128(_mm_loadu_si128(v), _mm_loadu_si128(v + 1));

		_Static_assert(BLOCK_WORDS * sizeof(unsigned long) == 2 * sizeof(__m128i),
			       "a block is read as two vectors");
		*all_used = _mm_movemask_epi8(_mm_cmpeq_epi8(and2, _mm_set1_epi8(-1))) == 0xffff;
#else
		for (k = 0; k < BLOCK_WORDS; k++)
			all &= map[wi + k];
		*all_used = all == ~0UL;
#endif
		return &map[wi];
	}
	for (k = 0; k < BLOCK_WORDS; k++) {
		copy[k] = used_word(ix, map, wi + k);
		all &= copy[k];
	}
	*all_used = all == ~0UL;
	return copy;
}

/* Bit @p (< nbits, so the bits past the chunk never matter) is used. */
static inline bool bit_used(const unsigned long *map, unsigned long p)
{
	return map_word(map, p / BPL) >> (p % BPL) & 1;
}

static inline unsigned int ctz_or_bpl(unsigned long w)
{
	return w ? (unsigned int)__builtin_ctzl(w) : (unsigned int)BPL;
}

static inline unsigned int clz_or_bpl(unsigned long w)
{
	return w ? (unsigned int)__builtin_clzl(w) : (unsigned int)BPL;
}

/* Bits p of free-mask @f such that p .. p + @nr - 1 are all free (@nr <= BPL).
 * The steps depend on @nr alone: stopping once @f is empty saves a few
 * instructions but misses the branch's prediction, word after word.
 * Doubling needs no minimum a step, as a step of min(k, nr - k) would. */
static inline unsigned long run_starts(unsigned long f, unsigned long nr)
{
	unsigned long k;

	/* Doubling, then one step of what is left: a run of nr holds one of
	 * k <= nr at its start and one at its end, which overlap. */
	for (k = 1; 2 * k < nr; k *= 2)
		f &= f >> k;
	return f & f >> (nr - k);
}

/* The first used (@flip 0) or free (@flip ~0UL) bit at or after @p in @p's
 * block, or the block's end; @last as for block_word(). */
static MODERN_ALWAYS_INLINE unsigned long
scan_block(const struct modern_index *ix, const unsigned long *map, unsigned long p,
	   unsigned long flip, bool last)
{
	unsigned long wi = p / BPL, wend = (p / BLOCK_BITS + 1) * BLOCK_WORDS;
	unsigned long w = (block_word(ix, map, wi, last) ^ flip) & (~0UL << (p % BPL));

	while (!w && ++wi < wend)
		w = block_word(ix, map, wi, last) ^ flip;
	return w ? wi * BPL + (unsigned long)__builtin_ctzl(w) : wend * BPL;
}

/* scan_block(), the chunk's last block told apart once. */
static inline unsigned long find_in_block(const struct modern_index *ix, const unsigned long *map,
					  unsigned long p, unsigned long flip)
{
	if ((p / BLOCK_BITS + 1) * BLOCK_WORDS > ix->lastw)
		return modern_index_find_in_last_block(ix, map, p, flip);
	return scan_block(ix, map, p, flip, false);
}

static inline unsigned long used_in_block(const struct modern_index *ix, const unsigned long *map,
				   unsigned long p)
{
	return find_in_block(ix, map, p, 0);
}

static inline unsigned long free_in_block(const struct modern_index *ix, const unsigned long *map,
				   unsigned long p)
{
	return find_in_block(ix, map, p, ~0UL);
}

/* modern_index_next_used_slow(), with the usual answer inlined: a used bit later in
 * @p's own word (inside the chunk), as when a release ends at a block. */
static MODERN_ALWAYS_INLINE unsigned long
next_used(const struct modern_index *ix, const unsigned long *map, unsigned long p)
{
	unsigned long wi = p / BPL, w;

	if (wi < ix->lastw) {
		w = map_word(map, wi) & (~0UL << (p % BPL));
		if (w)
			return wi * BPL + (unsigned long)__builtin_ctzl(w);
	}
	return modern_index_next_used_slow(ix, map, p);
}

/* ------------------------------------------------------------ max tree */

static inline uint32_t max_u32(uint32_t a, uint32_t b)
{
	return a > b ? a : b;
}

/*
 * modern_index_longest() - the longest run of clear bits in the whole map:
 * the root, or the dirty block's value where it is not in the tree yet.
 * Inline, so that the chunk directory reads it without calling back into
 * the index after a claim.
 */
static inline unsigned long modern_index_longest(const struct modern_index *ix)
{
	uint32_t root = ix->max[ix->nlevels - 1][0];

	return ix->dirty == NO_DIRTY ? root : max_u32(root, ix->dirty_v);
}

/*
 * THE LEAVES
 * A block's value is kept in 16 bits, which halves what the blocks cost and
 * lets them be 256 bits within the budget.  A value of LEAF_SAT or more
 * is stored as LEAF_SAT, and the exact one is read from the block's parent:
 * a run of LEAF_SAT bits that starts in a block covers the rest of its
 * node (8 blocks, 2048 bits), so no sibling starts a run of 2048 or more,
 * and the parent's maximum is that run's length.  The dirty block's parent
 * counts it at its old value: its exact value is kept beside (@dirty_v).
 * Every comparison of a leaf with a request of nr < LEAF_SAT is exact
 * as it stands; longer requests, which only a chunk of over 2^16 bits can
 * hold, read the saturated leaf's parent (sat_filter() in treesearch_internal.h).
 */

/* Block @b's value: @b not dirty, or the dirty one's value as stored. */
static MODERN_ALWAYS_INLINE uint32_t leaf_value(const struct modern_index *ix, unsigned long b)
{
	uint32_t v = ix->leaf[b];

	if (v < LEAF_SAT)
		return v;
	return b == ix->dirty ? ix->dirty_v : ix->max[1][b / FAN];
}

/* Block @b's value rose to @v (already stored): carry it up to the first
 * ancestor already as large.  The level count is read once: the stores are
 * to uint32_t, which could alias it, so the compiler would otherwise
 * reload it every level.  Inlined at its callers, as carry_fall(): both
 * walks are short, and a call costs as much. */
static MODERN_ALWAYS_INLINE void carry_rise(struct modern_index *ix, unsigned long b, uint32_t v)
{
	const unsigned int nlevels = ix->nlevels;
	unsigned long i = b;
	unsigned int l;

	for (l = 1; l < nlevels; l++) {
		i /= FAN;
		if (ix->max[l][i] >= v)
			return;
		ix->max[l][i] = v;
	}
}

/* Tell the ancestors of the dirty block its value, always a rise.  Inlined,
 * as dirty_before(): both sit on first fit's path. */
static MODERN_ALWAYS_INLINE void flush_dirty_block(struct modern_index *ix)
{
	uint32_t b = ix->dirty;

	ix->dirty = NO_DIRTY;
	carry_rise(ix, b, ix->dirty_v);
}

/* The grid-point map, right after the full map's words. */
static inline unsigned long *gp_map(const struct modern_index *ix)
{
	return ix->full[ix->nfull - 1] + ix->fwords[ix->nfull - 1];
}

/*
 * THE DIRTY BLOCK
 * A release's rise is not carried up at once: the block becomes the dirty
 * one, its ancestors still counting it at its old value (@dirty_pv), and
 * every search of the tree also looks at it (with_dirty(), treesearch_internal.h).
 * The walk happens when another block changes, or when a search is about
 * to claim elsewhere (settle_dirty()).  A free and then an alloc of one
 * small size raise a block and lower it back, and then neither walk
 * happens at all.
 * Only one block is dirty at a time, and a block's fall is carried up only
 * in a tree that is exact, the dirty block told first: the falling walk's
 * test of an ancestor against the old value needs that, and its maxima
 * would take in the dirty block's untold value.  A rise needs no such care.
 */

/*
 * A search will claim in block @b (MODERN_INDEX_NONE: nowhere): unless that
 * is the dirty block, whose claim usually lowers it back (lower_block()),
 * carry the dirty block's rise up now.  The claim's walk would do it
 * anyway; here it overlaps the scan of @b instead of delaying the claim.
 */
static MODERN_ALWAYS_INLINE void settle_dirty(struct modern_index *ix, unsigned long b)
{
	if (ix->dirty != NO_DIRTY && b != ix->dirty)
		flush_dirty_block(ix);
}

/* A search for @nr that cannot end in the dirty block, too short for it,
 * settles it first, where a walk costs least (as a release did it). */
static MODERN_ALWAYS_INLINE void settle_short_dirty(struct modern_index *ix, unsigned long nr)
{
	if (ix->dirty != NO_DIRTY && ix->dirty_v < nr)
		flush_dirty_block(ix);
}

/* modern_index_consumer() - the consumer in @slot, or NULL; inline, so a
 * search reads it without a call into index.c */
static inline const struct modern_index_consumer *
modern_index_consumer(const struct modern_index *ix, enum modern_index_slot slot)
{
	return ix->consumer[slot];
}

/* settle_dirty() for a search whose answer is bit @r (or NONE). */
static MODERN_ALWAYS_INLINE void settle_dirty_at(struct modern_index *ix, unsigned long r)
{
	settle_dirty(ix, r == MODERN_INDEX_NONE ? r : r >> BLOCK_SHIFT);
}

#endif /* GENALLOC_MODERN_INDEX_H */
