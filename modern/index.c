// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * modern/index.c - an index over a chunk's bitmap that finds the kernel's
 * answers without scanning the bitmap.
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
 *   Aligned variants (first_fit_align, order_align) visit only the blocks
 *   of value >= nr, in order, and in each try every run that starts there
 *   at its first aligned start: the lowest aligned window, which is what
 *   the kernel's loop of find, align and restart-after-the-used-bit finds;
 *   when the grid step is at most a word, a word's run starts on the grid
 *   give its answers at once.  Once a chunk's searches waste blocks, the
 *   requests of one grid family walk the aligned-fit hints (orderhint.c)
 *   instead of the values, so that blocks whose runs are long enough but
 *   hold no window on the grid are skipped once they are known.  Chunks
 *   too small for hints answer first_fit_align's grids of a block or more
 *   whose points are block starts (a page at 8-byte granules, on a chunk
 *   that starts on one) from a map of which blocks' first bits are free
 *   (find_on_points()), or on chunks of at most 256 blocks (up to about
 *   2^16 bits the budget leaves no room for the map) from those bits in
 *   the bitmap (find_on_starts()).  An aligned search that found nothing is
 *   remembered, and answers the searches it implies at once; a release
 *   narrows it to what is longer than the windows it made (THE MISS MEMO,
 *   below).
 *   Best fit asks the size classes
 *   (sizeclass.c), which use the full map to find where runs end.
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
 *   back to where its ancestors had it, and neither walk happens at all:
 *   64-byte requests at 64 MiB went from 1021 to 872 instructions a pair
 *   and from 111 to 73 ns; log-uniform 16 B-64 KiB ones, whose allocs
 *   rarely land where the last free was, pay the checks: 1409 to 1445
 *   instructions, 212 to 220 ns (make bench-instr; the best of ten
 *   alternating runs).
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
 * COST
 *   For a chunk of N granules: a 2-byte leaf per block of 256 granules,
 *   4 bytes per node of 8 blocks and 1/7 of that again for the nodes above
 *   (each level padded to whole nodes), one full bit per block and 1/64 of
 *   those in the summaries (and on chunks of about 2^16 to 2^20 bits one
 *   grid-point bit per block), plus a header of 256 bytes: about 1/11.9 of
 *   the bitmap's N / 8 bytes on big chunks (0.0105 bytes per granule;
 *   87 KiB for the 1 MiB bitmap of 64 MiB at 8-byte granules).  Eight
 *   children a node rather than sixteen: a node's maximum and the choice of
 *   a child cost half as much and the extra level less than that
 *   (callgrind: 7% fewer instructions a pair).  Blocks of 256 bits rather
 *   than 512: a claim's rescan and a search's scan read half the words,
 *   and log-uniform first fit at 64 MiB went from 1539 to 1442
 *   instructions a pair (make bench-instr) and from 190 to 173 ns (best of
 *   five alternating runs; best fit, order-aligned fit and 64-byte
 *   requests unchanged, page-aligned first fit 8-16% slower:
 *   bench/FINDINGS.md).  With 32-bit leaves the index would pass 1/8;
 *   blocks of 128 bits were no faster.
 */
#include "index_internal.h"

#include <errno.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "bitmap_internal.h"
#include "compiler_internal.h"
#include "meta_internal.h"
#include "orderhint_internal.h"
#include "sizeclass_internal.h"

#define BPL MODERN_BITS_PER_LONG
#define BLOCK_SHIFT 8
#define BLOCK_BITS (1UL << BLOCK_SHIFT)
#define BLOCK_WORDS (BLOCK_BITS / BPL)
#define FAN_SHIFT 3
#define FAN (1UL << FAN_SHIFT)
#define MAX_LEVELS 9		/* 2^32 bits: 2^24 leaves, eight levels of 8 */
#define MAX_FULL_LEVELS 4	/* 2^24 bits, 64 to a word */
#define NO_DIRTY UINT32_MAX	/* no block is dirty (blocks number <= 2^24) */
/* A leaf holds a block's value up to LEAF_SAT - 1; LEAF_SAT stands for
 * any value from LEAF_SAT up (see THE LEAVES). */
#define LEAF_SAT UINT16_MAX
/* The order hints (orderhint.c) and their updates keep blocks of 512 bits,
 * two of the index's: at the index's own, the two would pass 1/8. */
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
 * @lazy:    @sc is built, @oh_on or @gp_on: one test on every update says
 *           whether any needs telling
 * @miss_grid: with @miss_nr, an aligned search known to find nothing (see
 * @miss_nr:   THE MISS MEMO; @miss_nr 0 for none).  Both fit in the bytes
 *             the header's alignment leaves after @lazy.
 * @sc:      runs by size class, built the first time best fit runs
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
 *
 * On chunks too small for @oh whose budget leaves room (gp_words()), the
 * full map's words are followed by the grid-point map (gp_map()): one bit
 * per block, set when its first bit is free, the grid points of coarse
 * aligned requests.  It has no pointer here: the header has no byte to
 * spare under the 1/8 budget at 2^16 bits.
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
	bool lazy;
	unsigned char miss_grid;
	uint16_t miss_nr;
	struct modern_sizeclass *sc;
	struct modern_ohint *oh;
	uint16_t *leaf;
	uint32_t *max[MAX_LEVELS];
	unsigned long *full[MAX_FULL_LEVELS];
	/* Level sizes: read by the walks along a level and the rebuild. */
	uint32_t count[MAX_LEVELS];
	uint32_t fwords[MAX_FULL_LEVELS];
};

static unsigned long ceil_div(unsigned long a, unsigned long b)
{
	return a / b + (a % b != 0);
}

static unsigned long min_ul(unsigned long a, unsigned long b)
{
	return a < b ? a : b;
}

/* Blocks of the order hints (HINT_BITS each). */
static unsigned long hint_blocks(const struct modern_index *ix)
{
	return ceil_div(ix->nbits, HINT_BITS);
}

/* The index blocks past hint block @h's last (its first is @h * HINT_SPAN):
 * the chunk's last hint block may hold only one. */
static unsigned long hint_block_end(const struct modern_index *ix, unsigned long h)
{
	return min_ul((h + 1) * HINT_SPAN, ix->count[0]);
}

/* ------------------------------------------------------------ words */

/* Word @wi as stored: for a caller that looks only at bits of the chunk. */
static inline unsigned long map_word(const unsigned long *map, unsigned long wi)
{
	return atomic_load_explicit((const _Atomic unsigned long *)&map[wi], memory_order_relaxed);
}

/* The bits of the last word past the chunk, which read as used. */
static unsigned long pad_bits(const struct modern_index *ix)
{
	return ix->nbits % BPL ? ~0UL << (ix->nbits % BPL) : 0;
}

/* Word @wi with every bit past the chunk reading as used. */
static unsigned long used_word(const struct modern_index *ix, const unsigned long *map,
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
static bool bit_used(const unsigned long *map, unsigned long p)
{
	return map_word(map, p / BPL) >> (p % BPL) & 1;
}

static unsigned int ctz_or_bpl(unsigned long w)
{
	return w ? (unsigned int)__builtin_ctzl(w) : (unsigned int)BPL;
}

static unsigned int clz_or_bpl(unsigned long w)
{
	return w ? (unsigned int)__builtin_clzl(w) : (unsigned int)BPL;
}

/* Bits p of free-mask @f such that p .. p + @nr - 1 are all free (@nr <= BPL).
 * The steps depend on @nr alone: stopping once @f is empty saved a few
 * instructions but missed the branch's prediction, word after word (wall
 * time, log-uniform 64M: 5 ns a pair more).  Doubling needs no minimum a
 * step, as a step of min(k, nr - k) did (4 ns a pair). */
static unsigned long run_starts(unsigned long f, unsigned long nr)
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

/* scan_block() in the block that holds the chunk's last word: out of line,
 * so that the common case tests for it once rather than at every word. */
static MODERN_NOINLINE unsigned long
find_in_last_block(const struct modern_index *ix, const unsigned long *map, unsigned long p,
		   unsigned long flip)
{
	return scan_block(ix, map, p, flip, true);
}

/* scan_block(), the chunk's last block told apart once. */
static inline unsigned long find_in_block(const struct modern_index *ix, const unsigned long *map,
					  unsigned long p, unsigned long flip)
{
	if ((p / BLOCK_BITS + 1) * BLOCK_WORDS > ix->lastw)
		return find_in_last_block(ix, map, p, flip);
	return scan_block(ix, map, p, flip, false);
}

static unsigned long used_in_block(const struct modern_index *ix, const unsigned long *map,
				   unsigned long p)
{
	return find_in_block(ix, map, p, 0);
}

static unsigned long free_in_block(const struct modern_index *ix, const unsigned long *map,
				   unsigned long p)
{
	return find_in_block(ix, map, p, ~0UL);
}

/* ------------------------------------------------------------ full map */

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
static unsigned long next_used_slow(const struct modern_index *ix, const unsigned long *map,
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

/* next_used_slow(), with the usual answer inlined: a used bit later in
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
	return next_used_slow(ix, map, p);
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

/* ------------------------------------------------------------ max tree */

/* A maximal free run [start, end) the caller has already found. */
struct run {
	unsigned long start, end;
};

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
 * different step every word, and its exit missed the prediction about
 * once a word (cachegrind's branch model, log-uniform 64M: 2.9 of the 19
 * misses a pair).  Runs are mostly shorter than eight, so the loop after
 * them is seldom entered (0.8 misses a pair left): 74 more instructions,
 * and first fit's pair 7-8% faster by the clock (twelve fixed steps: no
 * faster than the loop; best fit and order-aligned: within the noise).
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
		 * far, the steps are not worth taking.  Few words are skipped
		 * (10 more instructions a pair), yet by the clock first fit's
		 * log-uniform pairs at 64M took 2-6% less time (best fit and
		 * order-aligned: within the noise). */
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

static uint32_t max_u32(uint32_t a, uint32_t b)
{
	return a > b ? a : b;
}

/*
 * THE LEAVES
 * A block's value is kept in 16 bits, which halves what the blocks cost and
 * lets them be 256 bits within the 1/8 budget.  A value of LEAF_SAT or more
 * is stored as LEAF_SAT, and the exact one is read from the block's parent:
 * a run of LEAF_SAT bits that starts in a block covers the rest of its
 * node (8 blocks, 2048 bits), so no sibling starts a run of 2048 or more,
 * and the parent's maximum is that run's length.  The dirty block's parent
 * counts it at its old value: its exact value is kept beside (@dirty_v).
 * Every comparison of a leaf with a request of nr < LEAF_SAT is exact
 * as it stands; longer requests, which only a chunk of over 2^16 bits can
 * hold, read the saturated leaf's parent (sat_filter()).
 */

static uint16_t leaf_of(uint32_t v)
{
	return (uint16_t)(v < LEAF_SAT ? v : LEAF_SAT);
}

/* Block @b's value: @b not dirty, or the dirty one's value as stored. */
static MODERN_ALWAYS_INLINE uint32_t leaf_value(const struct modern_index *ix, unsigned long b)
{
	uint32_t v = ix->leaf[b];

	if (v < LEAF_SAT)
		return v;
	return b == ix->dirty ? ix->dirty_v : ix->max[1][b / FAN];
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

/* Inlined: carry_fall() calls it at every level it lowers, and the call
 * cost a fifth of the work (callgrind). */
static MODERN_ALWAYS_INLINE uint32_t
node_max(const struct modern_index *ix, unsigned int l, unsigned long i)
{
	const uint32_t *c = &ix->max[l - 1][i * FAN];

	/* Levels are padded with zeros to whole nodes: always eight, paired
	 * off so that the four first maxima are independent.  Scalar on
	 * purpose: SSE2 has no unsigned 32-bit maximum, and its emulation
	 * took twice the instructions. */
	return max_u32(max_u32(max_u32(c[0], c[1]), max_u32(c[2], c[3])),
		       max_u32(max_u32(c[4], c[5]), max_u32(c[6], c[7])));
}

/* Block @b's value rose to @v (already stored): carry it up to the first
 * ancestor already as large.  The level count is read once: the stores are
 * to uint32_t, which could alias it, so the compiler would otherwise
 * reload it every level.  Inlined at its callers, as carry_fall() (the
 * two walks inline at their callers: 11 fewer instructions a pair than
 * calls, callgrind). */
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

/* Tell the ancestors of the dirty block its value, always a rise.  Inlined,
 * as dirty_before(): the two out of line cost first fit of log-uniform
 * sizes 5-10% a pair in wall time. */
static MODERN_ALWAYS_INLINE void flush_dirty_block(struct modern_index *ix)
{
	uint32_t b = ix->dirty;

	ix->dirty = NO_DIRTY;
	carry_rise(ix, b, ix->dirty_v);
}

/*
 * THE DIRTY BLOCK
 * A release's rise is not carried up at once: the block becomes the dirty
 * one, its ancestors still counting it at its old value (@dirty_pv), and
 * every search of the tree also looks at it (with_dirty()).  The walk
 * happens when another block changes, or when a search is about to claim
 * elsewhere (settle_dirty()).  A free and then an alloc of one small size
 * raise a block and lower it back, and then neither walk happens at all.
 * Only one block is dirty at a time, and a block's fall is carried up only
 * in a tree that is exact, the dirty block told first: the falling walk's
 * test of an ancestor against the old value needs that, and its maxima
 * would take in the dirty block's untold value.  A rise needs no such care.
 */

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

/*
 * Bit k set when entry k of the FAN at @c has a value >= @nr (> 0).  @wide
 * says that values may reach 2^31: SSE2 compares signed 32-bit lanes, so
 * only then do both sides need an offset of 2^31 (one more dependent step
 * a level of first fit's descent).  Always inlined, @wide a constant.
 */
static MODERN_ALWAYS_INLINE unsigned int ge_mask(const uint32_t *c, unsigned long nr, bool wide)
{
	unsigned int mask = 0;

	if (nr > UINT32_MAX)
		return 0;
#if defined(__SSE2__)
	{
		/* A zero offset folds away: no branch on @wide to cover. */
		const __m128i bias = _mm_set1_epi32((int)((uint32_t)wide << 31));
		const __m128i lim = _mm_xor_si128(_mm_set1_epi32((int)(uint32_t)(nr - 1)), bias);
		const __m128i *v = (const __m128i *)(const void *)c;
		__m128i lo = _mm_xor_si128(_mm_loadu_si128(v), bias);
		__m128i hi = _mm_xor_si128(_mm_loadu_si128(v + 1), bias), m;

		/* Eight lane masks narrowed to eight bytes: one movemask. */
		m = _mm_packs_epi32(_mm_cmpgt_epi32(lo, lim), _mm_cmpgt_epi32(hi, lim));
		mask = (unsigned int)_mm_movemask_epi8(_mm_packs_epi16(m, m)) & ((1U << FAN) - 1);
	}
#else
	(void)wide;
	for (unsigned int k = 0; k < FAN; k++)
		mask |= (unsigned int)(c[k] >= nr) << k;
#endif
	return mask;
}

/* Bits k of @mask whose leaf @g + k is saturated and yet shorter than @nr
 * (> LEAF_SAT) cleared: the rare search for a run of 2^16 bits or more. */
static MODERN_NOINLINE unsigned int sat_filter(const struct modern_index *ix, unsigned long g,
					       unsigned long nr, unsigned int mask)
{
	unsigned int m, k;

	for (m = mask; m; m &= m - 1) {
		k = (unsigned int)__builtin_ctz(m);
		if (leaf_value(ix, g + k) < nr)
			mask &= ~(1U << k);
	}
	return mask;
}

/* ge_mask() for the eight leaves from @g: a saturated leaf is compared
 * with @nr through its parent (THE LEAVES). */
static MODERN_ALWAYS_INLINE unsigned int leaf_mask(const struct modern_index *ix, unsigned long g,
						   unsigned long nr)
{
	const uint16_t lim = (uint16_t)(nr < LEAF_SAT ? nr : LEAF_SAT);
	unsigned int mask = 0;

#if defined(__SSE2__)
	{
		/* An unsigned lim - leaf that saturates at zero where the
		 * leaf reaches lim; one vector holds the eight. */
		__m128i v = _mm_loadu_si128((const __m128i *)(const void *)&ix->leaf[g]);
		__m128i ge = _mm_cmpeq_epi16(_mm_subs_epu16(_mm_set1_epi16((short)lim), v),
					     _mm_setzero_si128());

		mask = (unsigned int)_mm_movemask_epi8(_mm_packs_epi16(ge, ge)) & ((1U << FAN) - 1);
	}
#else
	for (unsigned int k = 0; k < FAN; k++)
		mask |= (unsigned int)(ix->leaf[g + k] >= lim) << k;
#endif
	if (nr > LEAF_SAT && mask)
		mask = sat_filter(ix, g, nr, mask);
	return mask;
}

/* Entries of the FAN from @g on level @l that hold @nr. */
static MODERN_ALWAYS_INLINE unsigned int level_mask(const struct modern_index *ix, unsigned int l,
						    unsigned long g, unsigned long nr, bool wide)
{
	return l ? ge_mask(&ix->max[l][g], nr, wide) : leaf_mask(ix, g, nr);
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

/* Node (@l, @i) has value >= @nr: the leftmost block below it that has.
 * Every node on the way has such a child, so each level is one mask and
 * its lowest bit (the bit past the node only keeps ctz defined).  Inlined:
 * first fit's descent then keeps its operands in registers
 * (callgrind: 27 to 33 fewer instructions a pair). */
static MODERN_ALWAYS_INLINE unsigned long
descend(const struct modern_index *ix, unsigned int l, unsigned long i, unsigned long nr,
	bool wide)
{
	if (l == 0)
		return i;
	while (--l > 0) {
		i *= FAN;
		i += (unsigned long)__builtin_ctz(ge_mask(&ix->max[l][i], nr, wide) | 1U << FAN);
	}
	i *= FAN;
	return i + (unsigned long)__builtin_ctz(leaf_mask(ix, i, nr) | 1U << FAN);
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
static unsigned long next_block_ge(const struct modern_index *ix, unsigned long b,
				   unsigned long nr)
{
	return with_dirty(ix, tree_next_block_ge(ix, b, nr), b + 1, nr);
}

/* ------------------------------------------------------------ life cycle */

/* Nodes of a level, rounded up to whole groups of siblings. */
static unsigned long padded(unsigned long count)
{
	return ceil_div(count, FAN) * FAN;
}

static unsigned int plan(unsigned long nbits, uint32_t *count, unsigned int *nfull,
			 uint32_t *fwords)
{
	unsigned int levels = 1;

	count[0] = (uint32_t)ceil_div(nbits, BLOCK_BITS);
	/* At least one level above the leaves: it holds the exact values of
	 * saturated ones, and the root of every tree is a 32-bit node. */
	while (count[levels - 1] > 1 || levels < 2) {
		count[levels] = (uint32_t)ceil_div(count[levels - 1], FAN);
		levels++;
	}
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
	bytes += padded(count[0]) * sizeof(uint16_t);
	for (l = 1; l < levels; l++)
		bytes += padded(count[l]) * sizeof(uint32_t);
	return bytes;
}

/*
 * Words of the grid-point map beside an index of @base bytes: a chunk
 * keeps one if it can keep no hints (modern_index_hints_fit()) and the map
 * fits with the rest within 1/8 of the bitmap, which leaves out the chunks
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

static unsigned long gp_words(unsigned long nbits)
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
	p += gp_words(nbits) * sizeof(unsigned long);	/* gp_map() */
	for (l = 1; l < ix->nlevels; l++) {
		ix->max[l] = (uint32_t *)(void *)p;
		p += padded(ix->count[l]) * sizeof(uint32_t);
	}
	ix->leaf = (uint16_t *)(void *)p;
	modern_index_rebuild(ix, map);
	return ix;
}

void modern_index_destroy(struct modern_index *ix)
{
	if (!ix)
		return;
	modern_sc_destroy(ix->sc);
	modern_ohint_destroy(ix->oh);
	modern_meta_free(ix, modern_index_bytes(ix->nbits));
}

size_t modern_index_footprint(const struct modern_index *ix)
{
	return modern_index_bytes(ix->nbits) + (ix->sc ? modern_sc_bytes(ix->nbits) : 0) +
	       (ix->oh ? modern_ohint_bytes(hint_blocks(ix)) : 0);
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

/* The grid-point map, right after the full map's words. */
static unsigned long *gp_map(const struct modern_index *ix)
{
	return ix->full[ix->nfull - 1] + ix->fwords[ix->nfull - 1];
}

static void gp_load(struct modern_index *ix, const unsigned long *map)
{
	unsigned long *gp = gp_map(ix), b;

	memset(gp, 0, gp_words(ix->nbits) * sizeof(unsigned long));
	for (b = 0; b < ix->count[0]; b++)
		if (!bit_used(map, b << BLOCK_SHIFT))
			gp[b / BPL] |= 1UL << (b % BPL);
}

/* The longest run that starts in hint block @h. */
static uint32_t hint_block_value(const struct modern_index *ix, unsigned long h)
{
	unsigned long b = h * HINT_SPAN, end = hint_block_end(ix, h);
	uint32_t v = 0;

	for (; b < end; b++)
		v = max_u32(v, leaf_value(ix, b));
	return v;
}

/* The hints start as the blocks' longest runs: no request fits in less. */
static void ohint_load(struct modern_index *ix)
{
	unsigned long h;

	for (h = 0; h < hint_blocks(ix); h++)
		modern_ohint_load(ix->oh, h, hint_block_value(ix, h));
	modern_ohint_summarise(ix->oh);
}

bool modern_index_hints_fit(unsigned long nbits)
{
	return nbits >= MODERN_INDEX_HINT_MIN_BITS && nbits <= MODERN_INDEX_MAX_BITS;
}

int modern_index_reserve_hints(struct modern_index *ix)
{
	if (!ix->oh)
		ix->oh = modern_ohint_create(hint_blocks(ix));
	return ix->oh ? 0 : -ENOMEM;
}

int modern_index_hints_on(struct modern_index *ix, unsigned long mask, unsigned long off)
{
	if (ix->oh_on)
		return ix->oh->mask == mask && ix->oh->off == off ? 0 : -EBUSY;
	if (modern_index_reserve_hints(ix))
		return -ENOMEM;
	ix->oh->mask = mask;
	ix->oh->off = off;
	ohint_load(ix);
	ix->oh_on = true;
	ix->lazy = true;
	return 0;
}

int modern_index_order_hints(struct modern_index *ix)
{
	return modern_index_hints_on(ix, MODERN_INDEX_ORDER_GRID, 0);
}

unsigned long modern_index_order_hint(const struct modern_index *ix, unsigned long b)
{
	return ix->oh_on ? modern_ohint_get(ix->oh, b) : MODERN_INDEX_NONE;
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
	ix->miss_nr = 0;
	/* Block values need the full map (their last runs' ends); level 1
	 * takes them exact, as the leaves may not hold them. */
	memset(ix->max[1], 0, padded(ix->count[1]) * sizeof(uint32_t));
	for (i = 0; i < ix->count[0]; i++) {
		v = block_value(ix, map, i, NULL);
		ix->leaf[i] = leaf_of(v);
		ix->max[1][i / FAN] = max_u32(ix->max[1][i / FAN], v);
	}
	for (l = 2; l < ix->nlevels; l++)
		for (i = 0; i < ix->count[l]; i++)
			ix->max[l][i] = node_max(ix, l, i);
	/* Rebuilt from the map by the next best fit. */
	modern_sc_destroy(ix->sc);
	ix->sc = NULL;
	ix->lazy = ix->oh_on || ix->gp_on;
	if (ix->oh_on)
		ohint_load(ix);
	if (ix->gp_on)
		gp_load(ix, map);
}

/* ------------------------------------------------------------ updates */

/* The first bit of the free run holding (or ending just below) @a. */
static unsigned long run_start(const struct modern_index *ix, const unsigned long *map,
			       unsigned long a)
{
	unsigned long p;

	if (a == 0 || bit_used(map, a - 1))
		return a;
	p = prev_used(ix, map, a);
	return p == MODERN_INDEX_NONE ? 0 : p + 1;
}

/* The largest power of two not above @x (> 0). */
static unsigned long floor_pow2(unsigned long x)
{
	return 1UL << (BPL - 1 - (unsigned int)__builtin_clzl(x));
}

/* The grid of gen_pool_first_fit_order_align() for @nr bits: @nr rounded
 * up to a power of two, as a mask. */
static unsigned long order_mask(unsigned long nr)
{
	return nr <= 1 ? 0 : 2 * floor_pow2(nr - 1) - 1;
}

/* The first bit at or after @x on the grid (p + @off) & @mask == 0. */
static unsigned long grid_up(unsigned long x, unsigned long mask, unsigned long off)
{
	return ((x + off + mask) & ~mask) - off;
}

/*
 * The largest order-aligned request that fits in the free run [@s, @e), in
 * O(1).  Let g be the largest aligned power-of-two block inside the run:
 * a request up to g fits in it, and one above g has the grid 2g or coarser,
 * where only 2g can leave more than g free past its first multiple (a
 * coarser grid would make room for an aligned block of 2g).  q, the most
 * aligned bit of the run, splits it into two parts whose largest aligned
 * blocks end and start at q; only a run that is itself one aligned block
 * is larger than both.
 */
static unsigned long order_fit(unsigned long s, unsigned long e)
{
	unsigned long h, q, g, p;

	if (e - s == 1)
		return 1;
	h = BPL - 1 - (unsigned long)__builtin_clzl(s ^ (e - 1));
	q = (e - 1) >> h << h;
	g = floor_pow2(q - s) > floor_pow2(e - q) ? floor_pow2(q - s) : floor_pow2(e - q);
	if (q - s == 1UL << h && e - q == 1UL << h)
		g *= 2;
	p = grid_up(s, 2 * g - 1, 0);
	return p < e && e - p > g ? e - p : g;
}

/* The largest request on the fixed grid (p + @off) & @mask == 0 that fits
 * in the free run [@s, @e): all of them start at its first grid point. */
static unsigned long grid_fit(unsigned long s, unsigned long e, unsigned long mask,
			      unsigned long off)
{
	unsigned long p = grid_up(s, mask, off);

	return p < e ? e - p : 0;
}

/* The free run [@s, @e) starting in block @b is new or grown: the requests
 * of the hints' grid that it holds may fit there again (orderhint.c).  No
 * request longer than the run fits in it: most raises stop at that test. */
static void ohint_raise(struct modern_index *ix, unsigned long b, unsigned long s,
			unsigned long e)
{
	struct modern_ohint *oh = ix->oh;

	if (modern_ohint_get(oh, b) < modern_ohint_clamp(e - s))
		modern_ohint_raise(oh, b, oh->mask == MODERN_INDEX_ORDER_GRID ?
					  order_fit(s, e) : grid_fit(s, e, oh->mask, oh->off));
}

/*
 * What the runs that start in hint block @h hold on a fixed grid of a hint
 * block or more: the run through the block's grid point from there, and
 * the last run from the first grid point past the block (as
 * span_find_coarse() tries them).  For such grids a block's longest run
 * says little, and failed visits cost page-aligned requests a third of
 * their time on 1 GiB.
 */
static unsigned long coarse_block_fit(const struct modern_index *ix, const unsigned long *map,
				      unsigned long h, unsigned long mask, unsigned long off)
{
	unsigned long first = h << HINT_SHIFT, end = first + HINT_BITS, q, e, best = 0;

	q = grid_up(first, mask, off);
	if (q < end) {
		if (q < ix->nbits && !bit_used(map, q) && run_start(ix, map, q) >= first)
			best = next_used(ix, map, q) - q;
		q += mask + 1;
	}
	if (end <= ix->nbits && !bit_used(map, end - 1) && run_start(ix, map, end - 1) >= first) {
		e = next_used(ix, map, end);
		if (e > q && e - q > best)
			best = e - q;
	}
	return best;
}

/* Hint block @h lost runs: its bound comes down to its longest run, or on
 * a coarse fixed grid to exactly what its runs hold. */
static void ohint_lower(struct modern_index *ix, const unsigned long *map, unsigned long h)
{
	const struct modern_ohint *oh = ix->oh;
	unsigned long v = hint_block_value(ix, h);

	if (v && oh->mask != MODERN_INDEX_ORDER_GRID && oh->mask + 1 >= HINT_BITS)
		v = coarse_block_fit(ix, map, h, oh->mask, oh->off);
	modern_ohint_lower(ix->oh, h, v);
}

/* The hints after bits up to @b were claimed (@claim) out of the free run
 * @r, or released, merging the run that started at @b into @r. */
static MODERN_NOINLINE void ohint_update(struct modern_index *ix, const unsigned long *map,
					 struct run r, unsigned long b, bool claim)
{
	if (claim) {
		ohint_lower(ix, map, r.start >> HINT_SHIFT);
		if (r.end > b)
			ohint_raise(ix, b >> HINT_SHIFT, b, r.end);
	} else {
		/* A run started at b only if one follows the release. */
		if (r.end > b)
			ohint_lower(ix, map, b >> HINT_SHIFT);
		ohint_raise(ix, r.start >> HINT_SHIFT, r.start, r.end);
	}
}

/* Bits [@a, @b) were claimed (@claim) or released: so were the first bits
 * of the blocks from the first that starts at or after @a, up to @b. */
static MODERN_NOINLINE void gp_update(struct modern_index *ix, unsigned long a, unsigned long b,
				      bool claim)
{
	unsigned long lo = ceil_div(a, BLOCK_BITS), hi = ceil_div(b, BLOCK_BITS), m;
	unsigned long *gp = gp_map(ix);

	for (; lo < hi; lo = (lo / BPL + 1) * BPL) {
		m = ~0UL << (lo % BPL);
		if (hi - lo < BPL - lo % BPL)
			m &= ~(~0UL << (hi % BPL));
		if (claim)
			gp[lo / BPL] &= ~m;
		else
			gp[lo / BPL] |= m;
	}
}

/* What is built on demand learns of the change too: the size classes, of
 * the run @r that bits [@start, @start + @nr) were claimed out of (@claim)
 * or merged into, the aligned-fit hints and the grid-point map (out of
 * line).  An update of a chunk without any pays one test. */
static MODERN_ALWAYS_INLINE void lazy_update(struct modern_index *ix, const unsigned long *map,
					struct run r, unsigned long start, unsigned long nr,
					bool claim)
{
	if (ix->sc)
		modern_sc_update(ix->sc, r.start, r.end, start, nr, claim);
	if (ix->oh_on)
		ohint_update(ix, map, r, start + nr, claim);
	if (ix->gp_on)
		gp_update(ix, start, start + nr, claim);
}

/* A release merged the free run [@s, @e): windows on the memo's grid (or a
 * coarser one) may now lie in it, and nowhere else new.  The memo stands
 * for requests longer than the longest of them (see THE MISS MEMO). */
static void relax_miss(struct modern_index *ix, unsigned long s, unsigned long e)
{
	unsigned long step, g, w;

	if (!ix->miss_nr)
		return;
	step = 1UL << ix->miss_grid;
	g = s + ((0UL - s) & (step - 1));	/* s rounded up to the grid */
	w = g < e ? e - g : 0;
	if (w >= ix->miss_nr)
		ix->miss_nr = w < UINT16_MAX ? (uint16_t)(w + 1) : 0;
}

/* Bits [a, b) were released: the runs [s, a) and [b, e) merge through them;
 * returns the merged run.  Its ends are found before the full map learns
 * of the release: they lie in blocks the release did not touch, or are
 * read from the bitmap directly. */
static struct run released(struct modern_index *ix, const unsigned long *map,
			   unsigned long a, unsigned long b)
{
	unsigned long s = run_start(ix, map, a), e = next_used(ix, map, b);
	unsigned long bs = s >> BLOCK_SHIFT, bb = b >> BLOCK_SHIFT;
	struct run merged = { s, e };

	relax_miss(ix, s, e);
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
					  unsigned long start, unsigned long nr, struct run r)
{
	full_update(ix, start, start + nr, r.start, r.end, false);
	r = claimed(ix, map, start + nr, r);
	if (ix->lazy)
		lazy_update(ix, map, r, start, nr, true);
}

void modern_index_update(struct modern_index *ix, const unsigned long *map,
			 unsigned long start, unsigned long nr)
{
	unsigned long end = start + nr;
	struct run r;

	if (bit_used(map, start)) {
		/* The run's ends lie outside the claimed blocks, or in their
		 * words, so they can be found before the full map is told. */
		r.start = run_start(ix, map, start);
		r.end = next_used(ix, map, end);
		claim_in(ix, map, start, nr, r);
		return;
	}
	r = released(ix, map, start, end);
	if (ix->lazy)
		lazy_update(ix, map, r, start, nr, false);
}

void modern_index_claim_run(struct modern_index *ix, const unsigned long *map,
			    unsigned long start, unsigned long nr, unsigned long run_end)
{
	claim_in(ix, map, start, nr, (struct run){ start, run_end });
}

void modern_index_claim_within(struct modern_index *ix, const unsigned long *map,
			       unsigned long start, unsigned long nr, unsigned long run_end)
{
	/* Bits below @start are as they were: the run's start is still there. */
	claim_in(ix, map, start, nr, (struct run){ run_start(ix, map, start), run_end });
}

static unsigned long block_find_aligned(const struct modern_index *ix,
					const unsigned long *map, unsigned long b,
					unsigned long nr, unsigned long mask, unsigned long off,
					unsigned long *run_end);

/* Does every hint bound its block?  By monotony it is enough that the next
 * request up fits in no run that starts there (the general search, which
 * tries exactly those runs, says so). */
static bool ohint_verify(const struct modern_index *ix, const unsigned long *map)
{
	const struct modern_ohint *oh = ix->oh;
	unsigned long h, b, nr, mask, e;

	if (!modern_ohint_verify(oh))
		return false;
	for (h = 0; h < hint_blocks(ix); h++) {
		nr = modern_ohint_get(oh, h) + 1;
		if (nr > MODERN_OHINT_CAP)
			continue;
		mask = oh->mask == MODERN_INDEX_ORDER_GRID ? order_mask(nr) : oh->mask;
		for (b = h * HINT_SPAN; b < hint_block_end(ix, h); b++)
			if (block_find_aligned(ix, map, b, nr, mask, oh->off, &e) !=
			    MODERN_INDEX_NONE)
				return false;
	}
	return true;
}

/* Is every grid-point bit its block's first bit's freedom, and the bits
 * past the last block clear? */
static bool gp_verify(const struct modern_index *ix, const unsigned long *map)
{
	const unsigned long *gp = gp_map(ix);
	unsigned long b, end = ceil_div(ix->count[0], BPL) * BPL;

	for (b = 0; b < end; b++)
		if ((gp[b / BPL] >> (b % BPL) & 1) !=
		    (b < ix->count[0] && !bit_used(map, b << BLOCK_SHIFT)))
			return false;
	return true;
}

/* Does every leaf hold its block's value, and level 1 their maxima, the
 * dirty block counted at the value its parent was last told?  *@top
 * receives the longest run. */
static bool leaves_verify(const struct modern_index *ix, const unsigned long *map, uint32_t *top)
{
	unsigned long i, n = padded(ix->count[0]);
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

bool modern_index_verify(const struct modern_index *ix, const unsigned long *map)
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
	if (ix->oh_on && !ohint_verify(ix, map))
		return false;
	if (ix->gp_on && !gp_verify(ix, map))
		return false;
	/* The memo's miss is still one. */
	if (ix->miss_nr && modern_bitmap_find_next_zero_area(map, ix->nbits, 0, ix->miss_nr,
							     (1UL << ix->miss_grid) - 1) < ix->nbits)
		return false;
	return !ix->sc || modern_sc_verify(ix->sc, map);
}

unsigned long modern_index_longest(const struct modern_index *ix)
{
	uint32_t root = ix->max[ix->nlevels - 1][0];

	return ix->dirty == NO_DIRTY ? root : max_u32(root, ix->dirty_v);
}

/* ------------------------------------------------------------ first fit */

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
 * Inlined: first fit's search is then one function from root to window
 * (callgrind: 13 to 21 fewer instructions a pair, for 1 KiB of code).
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
 * line, since the search meets it rarely (callgrind: 9 to 12 fewer
 * instructions a pair than testing every word for the chunk's end). */
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

/* first_block_ge() on a chunk of at most 8 blocks, whose tree is its
 * leaves and the root: out of line, to keep the leaves' test out of the
 * usual loop. */
static MODERN_NOINLINE unsigned long first_leaf_ge(const struct modern_index *ix,
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
 * the one above (wall time: 1-3% a pair on both workloads at 64M with
 * blocks of 512 bits, 64 nodes at most; with blocks of 256, 64 nodes took
 * first fit of 64-byte requests at 64M 44 more instructions a pair than 8,
 * log-uniform ones 15 fewer, in the same time).  Inlined, @wide as for
 * ge_mask().
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
	n = padded(ix->count[l]);
	for (g = 0; g < n; g += FAN) {
		m = ge_mask(&ix->max[l][g], nr, wide);
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

/*
 * A search will claim in block @b (MODERN_INDEX_NONE: nowhere): unless that
 * is the dirty block, whose claim usually lowers it back (lower_block()),
 * carry the dirty block's rise up now.  The claim's walk would do it
 * anyway; here it overlaps the scan of @b instead of delaying the claim
 * (wall time, first fit of log-uniform sizes at 64M: 238 ns a pair without
 * it, 211 with it and 209 before any deferring).
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

/* settle_dirty() for a search whose answer is bit @r (or NONE). */
static MODERN_ALWAYS_INLINE void settle_dirty_at(struct modern_index *ix, unsigned long r)
{
	settle_dirty(ix, r == MODERN_INDEX_NONE ? r : r >> BLOCK_SHIFT);
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
		b = next_block_ge(ix, b, nr);
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
 * ones need their parent (sat_filter()).
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

/* ------------------------------------------------------------ variants */

/*
 * The lowest window of @nr free bits at a start p with (p + @off) & @mask
 * == 0 inside a run that starts in block @b.  The runs are walked in order,
 * each tried at its first aligned start: a later start in the same run
 * would only end later.  *@run_end receives the end of the window's run.
 */
static unsigned long block_find_aligned(const struct modern_index *ix,
					const unsigned long *map, unsigned long b,
					unsigned long nr, unsigned long mask, unsigned long off,
					unsigned long *run_end)
{
	unsigned long first = b << BLOCK_SHIFT, end = first + BLOCK_BITS, p = first, e, a;

	if (first && !bit_used(map, first - 1))
		p = used_in_block(ix, map, first);	/* not this block's run */
	for (;;) {
		p = free_in_block(ix, map, p);
		if (p >= end)
			return MODERN_INDEX_NONE;
		e = used_in_block(ix, map, p);
		if (e >= end)
			e = next_used(ix, map, end);
		if (e - p >= nr) {
			a = grid_up(p, mask, off);
			if (a >= p && a <= e - nr) {
				*run_end = e;
				return a;
			}
		}
		if (e >= end)
			return MODERN_INDEX_NONE;
		p = e;
	}
}

/*
 * The same when the grid step is at most a word and @nr fits in one step
 * (order_align up to 64 granules): every aligned window then lies inside
 * one word, so a word's answers are its run starts on the grid, found
 * without walking runs.  Past the block, the last run's next grid point is
 * the block's end.  *@run_end receives the end of the window's run when
 * the word shows it, else MODERN_INDEX_NONE.
 */
static unsigned long block_find_aligned_small(const struct modern_index *ix,
					      const unsigned long *map, unsigned long b,
					      unsigned long nr, unsigned long mask,
					      unsigned long *run_end)
{
	unsigned long grid = mask == BPL - 1 ? 1UL : ~0UL / ((1UL << (mask + 1)) - 1);
	unsigned long wi = b * BLOCK_WORDS, wend = wi + BLOCK_WORDS, end = wend * BPL, w = 0, x;

	for (; wi < wend; wi++) {
		w = used_word(ix, map, wi);
		if (w == ~0UL)
			continue;
		x = run_starts(~w, nr) & grid;
		if (x) {
			x = (unsigned long)__builtin_ctzl(x);
			w &= ~0UL << x;
			*run_end = w ? wi * BPL + (unsigned long)__builtin_ctzl(w) : MODERN_INDEX_NONE;
			return wi * BPL + x;
		}
	}
	if (!(w >> (BPL - 1))) {
		*run_end = next_used(ix, map, end);
		if (*run_end - end >= nr)
			return end;
	}
	return MODERN_INDEX_NONE;
}

/* The end of the free run through bit @q, or @q if @q is not free. */
static unsigned long run_end_at(const struct modern_index *ix, const unsigned long *map,
				unsigned long q)
{
	return q < ix->nbits && !bit_used(map, q) ? next_used(ix, map, q) : q;
}

/*
 * block_find_aligned() over the @span bits from @first (a block, or a hint
 * block) when the grid step is @span or more (a page at 8-byte granules
 * and hint blocks): a run that starts there can hold a window only at the
 * span's one grid point, if it has one, or at the first grid point past
 * it.  Those two are tried, whichever run they lie in: a window of a
 * run from another block is no lower than the search would find anyway
 * (every grid point before it was tried), and none at either means none
 * for this block's runs, as the hints need.  Walking every run of every
 * block cost a 1 MiB pool's page-aligned requests 3.1 us a pair, twice the
 * kernel's linear scan.
 */
static unsigned long span_find_coarse(const struct modern_index *ix, const unsigned long *map,
				      unsigned long first, unsigned long span, unsigned long nr,
				      unsigned long mask, unsigned long off, unsigned long *run_end)
{
	unsigned long q = grid_up(first, mask, off);

	if (q < first + span) {
		*run_end = run_end_at(ix, map, q);
		if (*run_end - q >= nr)
			return q;
		q += mask + 1;
	}
	*run_end = run_end_at(ix, map, q);
	return *run_end - q >= nr ? q : MODERN_INDEX_NONE;
}

/* The window in a run that starts in block @b, of any kind; *@run_end
 * receives the end of its run, or MODERN_INDEX_NONE where the search did
 * not see it (it is undefined when there is no window). */
static unsigned long block_find_grid(const struct modern_index *ix, const unsigned long *map,
				     unsigned long b, unsigned long nr, unsigned long mask,
				     unsigned long off, unsigned long *run_end)
{
	bool small = mask < BPL && !(off & mask) && nr <= mask + 1;

	if (small)
		return block_find_aligned_small(ix, map, b, nr, mask, run_end);
	if (mask + 1 >= BLOCK_BITS)
		return span_find_coarse(ix, map, b << BLOCK_SHIFT, BLOCK_BITS, nr, mask, off,
					run_end);
	return block_find_aligned(ix, map, b, nr, mask, off, run_end);
}

/* The window in a run that starts in hint block @h: on a grid of a hint
 * block or more, its two grid points at once; else block by block. */
static unsigned long hint_block_find(const struct modern_index *ix, const unsigned long *map,
				     unsigned long h, unsigned long nr, unsigned long mask,
				     unsigned long off, unsigned long *run_end)
{
	unsigned long b = h * HINT_SPAN, end = hint_block_end(ix, h), r;

	if (mask + 1 >= HINT_BITS)
		return span_find_coarse(ix, map, h << HINT_SHIFT, HINT_BITS, nr, mask, off,
					run_end);
	for (; b < end; b++) {
		r = block_find_grid(ix, map, b, nr, mask, off, run_end);
		if (r != MODERN_INDEX_NONE)
			return r;
	}
	return MODERN_INDEX_NONE;
}

/*
 * Do the hints, if on, bound the fits of @nr on the grid @mask, @off?  Of
 * a fixed grid's family, the requests on that grid; of order-aligned fit's,
 * those whose grid is their size rounded up to a power of two (@mask + 1 is
 * a power of two), which a first_fit_align request can be too.
 */
static bool hints_serve(const struct modern_index *ix, unsigned long nr, unsigned long mask,
			unsigned long off)
{
	if (!ix->oh_on || nr > MODERN_OHINT_CAP)
		return false;
	if (ix->oh->mask == MODERN_INDEX_ORDER_GRID)
		return !(off & mask) && nr <= mask + 1 && (mask + 1) / 2 < nr;
	return mask == ix->oh->mask && (off & mask) == ix->oh->off;
}

/* A request of the hints' family through the hints: each block that fails
 * to hold it learns that nothing from @nr up fits there. */
static unsigned long find_hinted(struct modern_index *ix, const unsigned long *map,
				 unsigned long nr, unsigned long mask, unsigned long off,
				 unsigned long *run_end)
{
	struct modern_ohint *oh = ix->oh;
	unsigned long h, r;

	for (h = modern_ohint_next(oh, 0, nr); h != MODERN_INDEX_NONE;
	     h = modern_ohint_next(oh, h + 1, nr)) {
		r = hint_block_find(ix, map, h, nr, mask, off, run_end);
		if (r != MODERN_INDEX_NONE)
			return r;
		modern_ohint_lower(oh, h, nr - 1);
	}
	return MODERN_INDEX_NONE;
}

/*
 * A grid of a block or more whose points are block starts ((p + @off) &
 * @mask == 0 at p = 0 mod BLOCK_BITS), on a chunk that keeps the
 * grid-point map: a window can start only at a free grid point, so the
 * answer is the first set bit of the map, among every k-th block from the
 * first grid point, whose run holds @nr.  Where the run index would visit
 * every block with a long enough run, whether its grid point is free or
 * not, this reads the map's few words (16 at most).
 */
static unsigned long find_on_points(struct modern_index *ix, const unsigned long *map,
				    unsigned long nr, unsigned long mask, unsigned long off,
				    unsigned long *run_end)
{
	unsigned long k = (mask + 1) >> BLOCK_SHIFT, b0 = ((0UL - off) & mask) >> BLOCK_SHIFT;
	unsigned long words = ceil_div(ix->count[0], BPL), *gp = gp_map(ix), pat, wi, w, q;

	if (!ix->gp_on) {
		gp_load(ix, map);
		ix->gp_on = true;
		ix->lazy = true;
	}
	/* The grid's blocks in each word, for steps under a word. */
	pat = k < BPL ? ~0UL / ((1UL << k) - 1) << (b0 % k) : 0;
	for (wi = b0 / BPL; wi < words; wi++) {
		if (k < BPL)
			w = gp[wi] & pat;
		else if ((wi - b0 / BPL) * BPL % k)
			continue;
		else
			w = gp[wi] & 1UL << (b0 % BPL);
		for (; w; w &= w - 1) {
			q = (wi * BPL + (unsigned long)__builtin_ctzl(w)) << BLOCK_SHIFT;
			*run_end = next_used(ix, map, q);
			if (*run_end - q >= nr)
				return q;
		}
	}
	return MODERN_INDEX_NONE;
}

/*
 * Can the grid points answer a search on @mask, @off of the family @fmask
 * (from the grid-point map, or on small chunks from the bitmap, below)?
 * Only first_fit_align's fixed grids use them: order-aligned fit's
 * requests over 256 granules have block-sized grids too, but there the
 * free grid points whose runs are too short outnumber the blocks without a
 * long enough run, and the run index visits fewer (callgrind, log-uniform
 * 16 B..64 KiB on 1 MiB: 1969 instructions a pair against 1883).
 */
static bool points_serve(unsigned long mask, unsigned long off, unsigned long fmask)
{
	return fmask != MODERN_INDEX_ORDER_GRID && mask + 1 >= BLOCK_BITS &&
	       !(off & (BLOCK_BITS - 1));
}

/* Chunks of up to this many blocks read their grid points from the bitmap
 * (find_on_starts()): at most 256 words a search (128 on a page's grid),
 * and no map to keep. */
#define STARTS_MAX_BLOCKS 256

/*
 * find_on_points() on a chunk of at most STARTS_MAX_BLOCKS blocks, most of
 * which have no room for the grid-point map in their budget (up to about
 * 2^16 bits): each grid point's bit read from the bitmap, a word a point,
 * and the map's upkeep saved where there is one.  The run index visits every
 * block whose longest run could hold the request, and on small chunks of
 * page-aligned blocks that is most of them, with no window in any: 64 MiB
 * as 256 chunks of 64 blocks, page-aligned first fit took 11,260
 * instructions a pair, 3,340 of them in blocks searched in vain.
 */
static unsigned long find_on_starts(const struct modern_index *ix, const unsigned long *map,
				    unsigned long nr, unsigned long mask, unsigned long off,
				    unsigned long *run_end)
{
	unsigned long k = (mask + 1) >> BLOCK_SHIFT, b = ((0UL - off) & mask) >> BLOCK_SHIFT, q;

	for (; b < ix->count[0]; b += k) {
		q = b << BLOCK_SHIFT;
		if (bit_used(map, q))
			continue;
		*run_end = next_used(ix, map, q);
		if (*run_end - q >= nr)
			return q;
	}
	return MODERN_INDEX_NONE;
}

/*
 * A request the hints do not serve: the run index visits the blocks where
 * a run of @nr starts, turning the hints on for the family @fmask, @foff
 * if this search passes too many of them without a window.
 */
static unsigned long find_unhinted(struct modern_index *ix, const unsigned long *map,
				   unsigned long nr, unsigned long mask, unsigned long off,
				   unsigned long fmask, unsigned long foff, unsigned long *run_end)
{
	unsigned long b, r = MODERN_INDEX_NONE, wasted = 0;

	/* A window lies in a run of at least @nr bits, and such runs start
	 * only in blocks of value >= @nr: the tree visits just those. */
	for (b = leftmost_block_ge(ix, nr); b != MODERN_INDEX_NONE;
	     b = next_block_ge(ix, b, nr)) {
		r = block_find_grid(ix, map, b, nr, mask, off, run_end);
		if (r != MODERN_INDEX_NONE)
			break;
		wasted++;
	}
	/* Holes too misaligned to use have piled up: the hints earn their
	 * upkeep from now on (without memory, a later search tries again). */
	if (wasted > MODERN_INDEX_HINT_AFTER && !ix->oh_on && nr <= MODERN_OHINT_CAP &&
	    modern_index_hints_fit(ix->nbits))
		(void)modern_index_hints_on(ix, fmask, foff);
	return r;
}

/*
 * The search of modern_index_find_aligned() for @nr on the grid @mask,
 * @off, whose family is @fmask, @foff: through the hints when they serve
 * it, else through the run index.  *@run_end as the caller's.
 */
static unsigned long find_on_grid(struct modern_index *ix, const unsigned long *map,
				  unsigned long nr, unsigned long mask, unsigned long off,
				  unsigned long fmask, unsigned long foff, unsigned long *run_end)
{
	bool points = points_serve(mask, off, fmask);
	unsigned long r;

	if (hints_serve(ix, nr, mask, off))
		r = find_hinted(ix, map, nr, mask, off, run_end);
	else if (points && ix->count[0] <= STARTS_MAX_BLOCKS)
		r = find_on_starts(ix, map, nr, mask, off, run_end);
	else if (points && (ix->gp_on || gp_words(ix->nbits)))
		r = find_on_points(ix, map, nr, mask, off, run_end);
	else
		r = find_unhinted(ix, map, nr, mask, off, fmask, foff, run_end);
	if (r == MODERN_INDEX_NONE)
		*run_end = MODERN_INDEX_NONE;
	return r;
}

/*
 * THE MISS MEMO
 * With many chunks, an aligned request is tried in every chunk whose
 * longest run could hold it, and in most of them its runs are long enough
 * but no window of them falls on the grid: each such chunk cost a full
 * search, request after request (first fit aligned to a page, 64 MiB as
 * 256 chunks: 2.3 us a pair against 0.24 with one chunk; with the memo
 * 0.75-1.1 us, order-aligned fit on 1000 chunks 540 -> 457 ns in the
 * bench's MANY CHUNKS, one chunk unchanged).  So each index
 * remembers its last aligned search that found nothing, on a grid of bits
 * p with p & mask == 0: log2 of the grid's step, and the request's length.
 * The points of a grid of a step as large or larger are among those, so a
 * request at least as long on it cannot fit either and is answered at
 * once.  Grids with an offset are not remembered: their points move with
 * the offset.  Claims only take bits away.  A release can make windows
 * only inside the run it merges, so the memo then stands for what is
 * longer than that run's window on the memo's grid (relax_miss()); a
 * rebuild forgets it.  Forgetting it at every release, as first written,
 * left page-aligned first fit on 64 MiB as 1000 chunks with 203K searches
 * that found nothing in 2.09M chunk visits, against 172K now.  The chunk
 * directory reads the memo too (modern_index_aligned_bound()), so that a
 * request skips the chunks it rules out without visiting them.
 */
#define NO_MISS_KEY 0xff

/* The memo's key for the grid @mask, @off: log2 of its step, if the step
 * is a power of two and the grid has no offset. */
static unsigned char miss_key(unsigned long mask, unsigned long off)
{
	if ((mask & (mask + 1)) || (off & mask) || mask == ~0UL)
		return NO_MISS_KEY;
	return (unsigned char)__builtin_ctzl(mask + 1);
}

static bool known_miss(const struct modern_index *ix, unsigned char key, unsigned long nr)
{
	return ix->miss_nr && key != NO_MISS_KEY && key >= ix->miss_grid && nr >= ix->miss_nr;
}

static void note_miss(struct modern_index *ix, unsigned char key, unsigned long nr)
{
	if (key != NO_MISS_KEY && nr <= UINT16_MAX) {
		ix->miss_grid = key;
		ix->miss_nr = (uint16_t)nr;
	}
}

unsigned long modern_index_aligned_bound(const struct modern_index *ix, unsigned long mask,
					unsigned long off)
{
	unsigned long longest = modern_index_longest(ix), n;
	unsigned char key;

	if (!ix->miss_nr)
		return longest;
	if (mask == MODERN_INDEX_ORDER_GRID) {
		/* Request nr sits on the grid of key ceil(log2 nr): from
		 * 2^(key - 1) + 1 on, its key is at least the memo's. */
		n = ix->miss_grid ? (1UL << (ix->miss_grid - 1)) + 1 : 1;
		n = n > ix->miss_nr ? n : ix->miss_nr;
	} else {
		key = miss_key(mask, off);
		if (key == NO_MISS_KEY || key < ix->miss_grid)
			return longest;
		n = ix->miss_nr;
	}
	return min_ul(longest, n - 1);
}

/* modern_index_find_aligned() and _order_aligned(): the memo, then the
 * search on the grid @mask, @off of family @fmask, @foff. */
static unsigned long find_aligned_memo(struct modern_index *ix, const unsigned long *map,
				       unsigned long nr, unsigned long mask, unsigned long off,
				       unsigned long fmask, unsigned long foff, unsigned long *run_end)
{
	unsigned char key = miss_key(mask, off);
	unsigned long r;

	if (known_miss(ix, key, nr)) {
		*run_end = MODERN_INDEX_NONE;
		return MODERN_INDEX_NONE;
	}
	settle_short_dirty(ix, nr);
	r = find_on_grid(ix, map, nr, mask, off, fmask, foff, run_end);
	if (r == MODERN_INDEX_NONE)
		note_miss(ix, key, nr);
	settle_dirty_at(ix, r);
	return r;
}

unsigned long modern_index_find_aligned(struct modern_index *ix, const unsigned long *map,
					unsigned long nr, unsigned long mask, unsigned long off,
					unsigned long *run_end)
{
	return find_aligned_memo(ix, map, nr, mask, off, mask, off & mask, run_end);
}

unsigned long modern_index_find_order_aligned(struct modern_index *ix, const unsigned long *map,
					      unsigned long nr, unsigned long *run_end)
{
	return find_aligned_memo(ix, map, nr, order_mask(nr), 0, MODERN_INDEX_ORDER_GRID, 0,
				 run_end);
}

/* Best fit without the size classes (no memory for them): every run that
 * can hold @nr, in address order, one O(log n) step each. */
static unsigned long best_fit_walk(const struct modern_index *ix, const unsigned long *map,
				   unsigned long nr, unsigned long *run_end)
{
	unsigned long best = MODERN_INDEX_NONE, best_len = ~0UL, p, end;

	p = modern_index_find(ix, map, 0, nr);
	while (p != MODERN_INDEX_NONE) {
		end = next_used(ix, map, p + nr);
		if (end - p < best_len) {
			best_len = end - p;
			best = p;
			if (best_len == nr)
				break;
		}
		p = modern_index_find(ix, map, end + 1, nr);
	}
	if (best != MODERN_INDEX_NONE)
		*run_end = best + best_len;
	return best;
}

unsigned long modern_index_best_fit(struct modern_index *ix, const unsigned long *map,
				    unsigned long nr, unsigned long *run_end)
{
	unsigned long r;

	if (nr > ix->nbits || modern_index_longest(ix) < nr)
		return MODERN_INDEX_NONE;
	settle_short_dirty(ix, nr);
	if (!ix->sc) {
		ix->sc = modern_sc_create(map, ix->nbits);
		ix->lazy = ix->sc || ix->oh_on || ix->gp_on;
	}
	r = ix->sc ? modern_sc_best_fit(ix->sc, ix, map, nr, run_end)
		   : best_fit_walk(ix, map, nr, run_end);
	settle_dirty_at(ix, r);
	return r;
}
