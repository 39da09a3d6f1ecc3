// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * modern/orderhint.c - how large an aligned request can still fit in each
 * block, for gen_pool_first_fit_order_align() and gen_pool_first_fit_align().
 *
 * WHY
 *   An order-aligned request of nr granules wants the lowest window of nr
 *   free granules that starts on a multiple of nr rounded up to a power of
 *   two.  The run index (index.c) leads to the blocks where a run of nr
 *   starts, but in a fragmented pool most such runs hold no aligned window:
 *   a run of 7 at an odd bit has no room for 5 at a multiple of 8.  The
 *   blocks a search visits before its answer grow with the number of
 *   holes, and with them its time.  first_fit_align at a fixed alignment
 *   has the same trouble, worse for coarse grids: aligned to a page, a
 *   search on a big fragmented pool would cost more than the kernel's
 *   linear scan.
 *
 * FAMILIES
 *   The hints of a chunk bound one family of requests, the one whose
 *   search turned them on: order-aligned fit's, where each request's grid
 *   is its size rounded up to a power of two, or one fixed grid
 *   (p + off) & mask == 0 of first_fit_align.  Requests of other grids
 *   search without them.  Below, "request" means one of the family.
 *
 * WHAT IS KEPT
 *   For every block of 512 granules (two of the index's), a bound: no
 *   request larger than it fits in a run that starts in the block.  Above the blocks, a
 *   tree of maxima, 8 to a node, like the run index's (maxtree_internal.h).  Bounds are 16-bit
 *   and stop at MODERN_OHINT_CAP; requests above it are not hinted.
 *
 * HOW IT STAYS A BOUND, AND TIGHT
 *   Whether a request fits is monotonic in its size: if nr fits, nr - 1
 *   does, as its grid is the same or finer and its window shorter.  So one
 *   failed search in a block proves a bound of nr - 1 there, and the search
 *   writes it down (modern_ohint_lower()); the next request that is no
 *   smaller skips the block through the tree.  Only a run that starts or
 *   grows can make a request fit where it did not: a release grows the run
 *   at its start, a claim starts one where it ends.  For those two runs
 *   the index computes exactly what they hold (order_fit() or grid_fit() in
 *   alignfit.c, in O(1)) and raises their blocks' bounds to it; a block that
 *   loses runs comes down to its longest run.  Every other change only takes windows
 *   away, which leaves a bound a bound.  A new or rebuilt set of bounds
 *   starts at the blocks' longest runs and tightens as searches fail.
 *   A bound covers only the runs that start in its block: a window in a
 *   run from an earlier block is that block's answer, found when it is
 *   visited (its bound covers the run), so skipping the later block loses
 *   nothing.
 *
 * WHEN
 *   Only where they pay.  A pool whose holes suit its requests (one request
 *   size, say) finds every window in the first block it visits, and would
 *   only pay for the upkeep.  So a chunk's hints stay off until an aligned search passes
 *   more than MODERN_INDEX_HINT_AFTER blocks without a window, and stay on,
 *   for that search's family, from then.  Chunks under 2^20 granules never turn them on
 *   (MODERN_INDEX_HINT_MIN_BITS): they would pass the budget with
 *   the run index's header, and have few blocks to visit.
 *
 * COST
 *   Two bytes a block of 512 granules and 1/7 of that for the nodes, so
 *   that with the run index a chunk's bookkeeping stays within the budget
 *   (docs/bookkeeping.md has the figures).  A block here is two of the run
 *   index's (HINT_SHIFT in index_state_internal.h): one bound per index block would pass
 *   the budget.  Allocated when they
 *   turn on, or reserved earlier, as a chunk joins a pool whose algorithm
 *   is one of the two (so that its allocations need no memory).  Once
 *   on, a search pays one tree walk per block it visits, as before, and one
 *   tree update per block that failed; an update of the index, up to two
 *   tree updates.
 */
#include "orderhint_internal.h"

#include <stdint.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "maxtree_internal.h"
#include "meta_internal.h"

#define OH_FAN MODERN_MT_FAN

/* The tree's level sizes over @nblocks blocks; returns the levels. */
static unsigned int oh_plan(unsigned long nblocks, uint32_t *count)
{
	count[0] = (uint32_t)nblocks;
	return modern_mt_levels(count, 1);
}

size_t modern_ohint_bytes(unsigned long nblocks)
{
	uint32_t count[MODERN_OHINT_LEVELS];
	unsigned int levels = oh_plan(nblocks, count), l;
	size_t bytes = sizeof(struct modern_ohint);

	for (l = 0; l < levels; l++)
		bytes += modern_mt_padded(count[l]) * sizeof(uint16_t);
	return bytes;
}

struct modern_ohint *modern_ohint_create(unsigned long nblocks)
{
	struct modern_ohint *oh;
	unsigned char *p;
	unsigned int l;

	if (nblocks == 0 || nblocks > 1UL << 23)
		return NULL;
	oh = modern_meta_zalloc(modern_ohint_bytes(nblocks));
	if (!oh)
		return NULL;
	oh->nlevels = oh_plan(nblocks, oh->count);
	p = (unsigned char *)(oh + 1);
	for (l = 0; l < oh->nlevels; l++) {
		oh->v[l] = (uint16_t *)(void *)p;
		p += modern_mt_padded(oh->count[l]) * sizeof(uint16_t);
	}
	return oh;
}

void modern_ohint_destroy(struct modern_ohint *oh)
{
	if (oh)
		modern_meta_free(oh, modern_ohint_bytes(oh->count[0]));
}

/* The maximum of node (@l, @i)'s children. */
static uint16_t oh_node_max(const struct modern_ohint *oh, unsigned int l, unsigned long i)
{
	const uint16_t *c = &oh->v[l - 1][i * OH_FAN];
#if defined(__SSE2__)
	/* Bounds fit in 15 bits, so the signed maximum is exact: three
	 * halvings of the eight lanes. */
	__m128i m = _mm_loadu_si128((const __m128i *)(const void *)c);

	m = _mm_max_epi16(m, _mm_srli_si128(m, 8));
	m = _mm_max_epi16(m, _mm_srli_si128(m, 4));
	m = _mm_max_epi16(m, _mm_srli_si128(m, 2));
	return (uint16_t)_mm_cvtsi128_si32(m);
#else
	uint16_t m = 0;
	unsigned long k;

	for (k = 0; k < OH_FAN; k++)
		m = c[k] > m ? c[k] : m;
	return m;
#endif
}

void modern_ohint_load(struct modern_ohint *oh, unsigned long b, unsigned long v)
{
	oh->v[0][b] = modern_ohint_clamp(v);
}

void modern_ohint_summarise(struct modern_ohint *oh)
{
	unsigned int l;
	unsigned long i;

	for (l = 1; l < oh->nlevels; l++)
		for (i = 0; i < oh->count[l]; i++)
			oh->v[l][i] = oh_node_max(oh, l, i);
}

void modern_ohint_raise_slow(struct modern_ohint *oh, unsigned long b, uint16_t m)
{
	unsigned long i = b;
	unsigned int l;

	oh->v[0][b] = m;
	/* Up to the first ancestor already as large. */
	for (l = 1; l < oh->nlevels; l++) {
		i /= OH_FAN;
		if (oh->v[l][i] >= m)
			return;
		oh->v[l][i] = m;
	}
}

void modern_ohint_lower_slow(struct modern_ohint *oh, unsigned long b, uint16_t m)
{
	uint16_t old = oh->v[0][b];
	unsigned long i = b;
	unsigned int l;

	oh->v[0][b] = m;
	/* Up while the ancestor's maximum was this child's and still moves. */
	for (l = 1; l < oh->nlevels && m != old; l++) {
		i /= OH_FAN;
		if (oh->v[l][i] > old)
			return;
		m = oh_node_max(oh, l, i);
		oh->v[l][i] = m;
	}
}

/* Bit k set when entry k of the node at @c is at least @nr (1..CAP). */
static unsigned int oh_ge_mask(const uint16_t *c, unsigned long nr)
{
	return modern_mt_ge_mask16(c, (uint16_t)nr);
}

/* Node (@l, @i) is at least @nr: the leftmost block below it that is.
 * Every node on the way has such a child. */
static unsigned long oh_descend(const struct modern_ohint *oh, unsigned int l, unsigned long i,
				unsigned long nr)
{
	while (l-- > 0) {
		i *= OH_FAN;
		i += (unsigned long)__builtin_ctz(oh_ge_mask(&oh->v[l][i], nr));
	}
	return i;
}

unsigned long modern_ohint_next(const struct modern_ohint *oh, unsigned long b,
				unsigned long nr)
{
	unsigned long i = b, g;
	unsigned int l, m;

	/* From the first block: straight down from the root. */
	if (b == 0) {
		l = oh->nlevels - 1;
		if (oh->v[l][0] < nr)
			return MODERN_OHINT_NONE;
		return oh_descend(oh, l, 0, nr);
	}
	/* Up: the rest of each node's children, then the parent's right. */
	for (l = 0; l < oh->nlevels; l++) {
		if (i >= oh->count[l])
			return MODERN_OHINT_NONE;
		g = i & ~(OH_FAN - 1);
		m = oh_ge_mask(&oh->v[l][g], nr) & (~0U << (i - g));
		if (m)
			return oh_descend(oh, l, g + (unsigned long)__builtin_ctz(m), nr);
		i = g / OH_FAN + 1;
	}
	return MODERN_OHINT_NONE;
}

bool modern_ohint_verify(const struct modern_ohint *oh)
{
	unsigned int l;
	unsigned long i;

	for (l = 0; l < oh->nlevels; l++)
		for (i = oh->count[l]; i < modern_mt_padded(oh->count[l]); i++)
			if (oh->v[l][i])
				return false;
	for (l = 1; l < oh->nlevels; l++)
		for (i = 0; i < oh->count[l]; i++)
			if (oh->v[l][i] != oh_node_max(oh, l, i))
				return false;
	return true;
}
