// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * modern/alignfit.c - the aligned searches through the run index
 * (gen_pool_first_fit_align(), gen_pool_first_fit_order_align(), the DMA
 * helpers' alignment): the runs tried at their first grid point, the
 * order hints' glue (orderhint.c holds their tree), the grid-point map,
 * the start-bit search of small chunks and the miss memo.
 *
 * HOW A SEARCH RUNS
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
 */
/*
 * INVARIANT AND COST
 *   Every hint bounds its block's windows from above, the grid-point map
 *   has a block's bit set exactly when the block's first bit is free, and
 *   the miss memo names only searches that would find nothing
 *   (modern_index_verify() checks all three).  Hints: two bytes a block of
 *   512 bits and 1/7 of that above (orderhint.c), only once turned on; the
 *   grid-point map: one bit a block, on chunks of about 2^16 to 2^20 bits;
 *   the memo: three bytes of the index's header.  A search visits the
 *   blocks whose bound (or value) could hold it, O(log8 n) each.
 */
#include "index_state_internal.h"
#include "treesearch_internal.h"

#include <errno.h>
#include <string.h>

#include "orderhint_internal.h"

/* What keeps the hints and the grid-point map up to date (below). */
static const struct modern_index_consumer aligned_upkeep;

/* The index blocks past hint block @h's last (its first is @h * HINT_SPAN):
 * the chunk's last hint block may hold only one. */
static unsigned long hint_block_end(const struct modern_index *ix, unsigned long h)
{
	return min_ul((h + 1) * HINT_SPAN, ix->count[0]);
}

static void points_load(struct modern_index *ix, const unsigned long *map)
{
	unsigned long *gp = gp_map(ix), b;

	memset(gp, 0, modern_index_points_words(ix->nbits) * sizeof(unsigned long));
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
static void hints_load(struct modern_index *ix)
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
	hints_load(ix);
	ix->oh_on = true;
	modern_index_attach(ix, MODERN_INDEX_ALIGNED, &aligned_upkeep);
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
		if (q < ix->nbits && !bit_used(map, q) && modern_index_run_start(ix, map, q) >= first)
			best = next_used(ix, map, q) - q;
		q += mask + 1;
	}
	if (end <= ix->nbits && !bit_used(map, end - 1) &&
	    modern_index_run_start(ix, map, end - 1) >= first) {
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

/* The hints after a change: bits up to b were claimed out of the free run
 * r, or released, merging the run that started at b into r. */
static void hints_update(struct modern_index *ix, const unsigned long *map,
			 const struct modern_index_change *chg)
{
	const struct run r = { chg->run_start, chg->run_end };
	const unsigned long b = chg->start + chg->nr;

	if (chg->claim) {
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

/* The grid-point map after a change: the first bits of the blocks that
 * start inside the claimed or released bits were claimed or released. */
static void points_update(struct modern_index *ix, const struct modern_index_change *chg)
{
	unsigned long lo = ceil_div(chg->start, BLOCK_BITS), m;
	unsigned long hi = ceil_div(chg->start + chg->nr, BLOCK_BITS);
	unsigned long *gp = gp_map(ix);

	for (; lo < hi; lo = (lo / BPL + 1) * BPL) {
		m = ~0UL << (lo % BPL);
		if (hi - lo < BPL - lo % BPL)
			m &= ~(~0UL << (hi % BPL));
		if (chg->claim)
			gp[lo / BPL] &= ~m;
		else
			gp[lo / BPL] |= m;
	}
}

static unsigned long block_find_aligned(const struct modern_index *ix,
					const unsigned long *map, unsigned long b,
					unsigned long nr, unsigned long mask, unsigned long off,
					unsigned long *run_end);

/* Does every hint bound its block?  By monotony it is enough that the next
 * request up fits in no run that starts there (the general search, which
 * tries exactly those runs, says so). */
static bool hints_verify(const struct modern_index *ix, const unsigned long *map)
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
static bool points_verify(const struct modern_index *ix, const unsigned long *map)
{
	const unsigned long *gp = gp_map(ix);
	unsigned long b, end = ceil_div(ix->count[0], BPL) * BPL;

	for (b = 0; b < end; b++)
		if ((gp[b / BPL] >> (b % BPL) & 1) !=
		    (b < ix->count[0] && !bit_used(map, b << BLOCK_SHIFT)))
			return false;
	return true;
}

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
 * block instead is slower than the kernel's linear scan on small pools.
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

	for (h = modern_ohint_next(oh, 0, nr); h != MODERN_OHINT_NONE;
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
		points_load(ix, map);
		ix->gp_on = true;
		modern_index_attach(ix, MODERN_INDEX_ALIGNED, &aligned_upkeep);
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
 * long enough run, and the run index visits fewer.
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
 * page-aligned blocks that is most of them, with no window in any.
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
	     b = modern_index_next_block_ge(ix, b, nr)) {
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
	else if (points && (ix->gp_on || modern_index_points_words(ix->nbits)))
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
 * search, request after request.  So each index
 * remembers its last aligned search that found nothing, on a grid of bits
 * p with p & mask == 0: log2 of the grid's step, and the request's length.
 * The points of a grid of a step as large or larger are among those, so a
 * request at least as long on it cannot fit either and is answered at
 * once.  Grids with an offset are not remembered: their points move with
 * the offset.  Claims only take bits away.  A release can make windows
 * only inside the run it merges, so the memo then stands for what is
 * longer than that run's window on the memo's grid (relax_miss()); a
 * rebuild forgets it (forgetting it at every release instead leaves more
 * searches that find nothing).  The chunk
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
		modern_index_attach(ix, MODERN_INDEX_ALIGNED, &aligned_upkeep);
	}
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

/* ------------------------------------------------------------ upkeep */

/*
 * The hints, the grid-point map and the miss memo as the index's consumer.
 * Their state lives in the index (ix->oh, gp_map(), the memo's bytes), so
 * the consumer is one constant shared by every chunk, and the index's
 * footprint already counts it.  Attached by whichever of them is first
 * turned on.
 */
static void aligned_change(const struct modern_index_consumer *c, struct modern_index *ix,
			   const unsigned long *map, const struct modern_index_change *chg)
{
	(void)c;
	if (!chg->claim)
		relax_miss(ix, chg->run_start, chg->run_end);
	if (ix->oh_on)
		hints_update(ix, map, chg);
	if (ix->gp_on)
		points_update(ix, chg);
}

static bool aligned_verify(const struct modern_index_consumer *c, const struct modern_index *ix,
			   const unsigned long *map)
{
	(void)c;
	/* The memo's miss is still one. */
	if (ix->miss_nr && modern_bitmap_find_next_zero_area(map, ix->nbits, 0, ix->miss_nr,
							     (1UL << ix->miss_grid) - 1) < ix->nbits)
		return false;
	return (!ix->oh_on || hints_verify(ix, map)) && (!ix->gp_on || points_verify(ix, map));
}

static size_t aligned_bytes(const struct modern_index_consumer *c, const struct modern_index *ix)
{
	(void)c;
	(void)ix;
	return 0;
}

static bool aligned_rebuild(const struct modern_index_consumer *c, struct modern_index *ix,
			    const unsigned long *map)
{
	(void)c;
	ix->miss_nr = 0;
	if (ix->oh_on)
		hints_load(ix);
	if (ix->gp_on)
		points_load(ix, map);
	return true;
}

static const struct modern_index_consumer_ops aligned_ops = {
	.change = aligned_change,
	.verify = aligned_verify,
	.bytes = aligned_bytes,
	.rebuild = aligned_rebuild,
};

static const struct modern_index_consumer aligned_upkeep = { .ops = &aligned_ops };
