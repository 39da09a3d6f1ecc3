// SPDX-License-Identifier: GPL-2.0
/*
 * modern/sizeclass.c - free runs by size, for gen_pool_best_fit().
 *
 * WHAT IS INDEXED
 *   Best fit wants the smallest maximal free run of at least nr granules,
 *   the lowest on ties; the summary tree (index.c) only knows the longest.
 *   This index sorts runs into size classes - one per length below 64, then
 *   four per power of two - and keeps, per class, one bit per block of 8192
 *   granules: "a run of this class may start in this block".
 *
 * HOW IT IS KEPT EXACT
 *   The bits are a superset, never a subset: every claim or release creates
 *   at most two runs (the pieces left of a claim, or the merged run of a
 *   release), found in O(log n) through the tree, and sets their bits.  A
 *   run that disappears leaves its bit behind; the next query that scans
 *   that block for that class finds nothing and clears it.  So updates are
 *   O(log n) and each stale bit is paid for once.
 *
 * HOW A QUERY RUNS
 *   From nr's class upwards, the first class with a bit: its blocks are
 *   scanned in address order for runs of that class holding nr.  Within a
 *   one-length class the first run found is the answer (all are equally
 *   long, and it is the lowest); within a wider class the shortest wins,
 *   the first on ties.  Any run of a higher class is longer, so the search
 *   stops at the first class with an answer - the kernel's answer.
 *
 * COST
 *   167 classes x one bit per 8192 granules, plus a summary bit per row
 *   word and a 668-byte count table: about 1/45 of the bitmap on big chunks
 *   (23 KiB for 2^23 granules), allocated the first time best fit runs on
 *   the chunk.
 */
#include "sizeclass_internal.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "bitmap_internal.h"

#define BPL MODERN_BITS_PER_LONG
#define BLOCK_SHIFT 13
#define BLOCK_BITS (1UL << BLOCK_SHIFT)
#define EXACT 63		/* lengths 1 .. 63 have a class each */
#define SUB_SHIFT 2		/* then 4 classes per power of two */
#define NCLASS (EXACT + (32 - 6) * (1 << SUB_SHIFT))

/**
 * struct modern_sizeclass - see the file comment
 * @nbits:     granules in the chunk
 * @nblocks:   blocks of BLOCK_BITS granules
 * @row_words: words per class row
 * @sum_words: words per row summary
 * @count:     bits set per class (stale ones included)
 * @sums:      NCLASS summaries: bit w set iff word w of the row is not 0,
 *             so a query skips empty stretches of a big chunk's rows
 * @rows:      NCLASS rows of @row_words words
 */
struct modern_sizeclass {
	unsigned long nbits;
	unsigned long nblocks;
	unsigned long row_words;
	unsigned long sum_words;
	uint32_t count[NCLASS];
	unsigned long *sums;
	unsigned long rows[];
};

static unsigned int size_class(unsigned long len)
{
	unsigned int k;

	if (len <= EXACT)
		return (unsigned int)len - 1;
	k = (unsigned int)(BPL - 1) - (unsigned int)__builtin_clzl(len);
	if (k > 31)
		return NCLASS - 1;
	return EXACT + (k - 6) * (1U << SUB_SHIFT) +
	       (unsigned int)((len >> (k - SUB_SHIFT)) & ((1UL << SUB_SHIFT) - 1));
}

/* The shortest length of class @c (the inverse of size_class()). */
static unsigned long class_min(unsigned int c)
{
	unsigned int k;

	if (c < EXACT)
		return c + 1;
	k = (c - EXACT) / (1U << SUB_SHIFT) + 6;
	return (1UL << k) + (unsigned long)((c - EXACT) % (1U << SUB_SHIFT)) * (1UL << (k - SUB_SHIFT));
}

static unsigned long *row(struct modern_sizeclass *sc, unsigned int c)
{
	return &sc->rows[(size_t)c * sc->row_words];
}

static unsigned long *sum(struct modern_sizeclass *sc, unsigned int c)
{
	return &sc->sums[(size_t)c * sc->sum_words];
}

static void mark(struct modern_sizeclass *sc, unsigned long start, unsigned long len)
{
	unsigned int c = size_class(len);
	unsigned long b = start >> BLOCK_SHIFT, wi = b / BPL, *w = &row(sc, c)[wi];

	if (!(*w >> (b % BPL) & 1)) {
		*w |= 1UL << (b % BPL);
		sum(sc, c)[wi / BPL] |= 1UL << (wi % BPL);
		sc->count[c]++;
	}
}

static void unmark(struct modern_sizeclass *sc, unsigned int c, unsigned long b)
{
	unsigned long wi = b / BPL, *w = &row(sc, c)[wi];

	*w &= ~(1UL << (b % BPL));
	if (!*w)
		sum(sc, c)[wi / BPL] &= ~(1UL << (wi % BPL));
	sc->count[c]--;
}

size_t modern_sc_bytes(unsigned long nbits)
{
	unsigned long nblocks = (nbits + BLOCK_BITS - 1) >> BLOCK_SHIFT;
	unsigned long row_words = modern_bits_to_longs(nblocks);

	return sizeof(struct modern_sizeclass) +
	       NCLASS * (row_words + modern_bits_to_longs(row_words)) * sizeof(unsigned long);
}

/* Every maximal run of the map, in address order, into @sc. */
static void mark_all(struct modern_sizeclass *sc, const unsigned long *map)
{
	unsigned long from, to;

	from = modern_find_next_zero_bit(map, sc->nbits, 0);
	while (from < sc->nbits) {
		to = modern_find_next_bit(map, sc->nbits, from);
		mark(sc, from, to - from);
		from = modern_find_next_zero_bit(map, sc->nbits, to);
	}
}

struct modern_sizeclass *modern_sc_create(const unsigned long *map, unsigned long nbits)
{
	struct modern_sizeclass *sc = calloc(1, modern_sc_bytes(nbits));

	if (!sc)
		return NULL;
	sc->nbits = nbits;
	sc->nblocks = (nbits + BLOCK_BITS - 1) >> BLOCK_SHIFT;
	sc->row_words = modern_bits_to_longs(sc->nblocks);
	sc->sum_words = modern_bits_to_longs(sc->row_words);
	sc->sums = &sc->rows[NCLASS * sc->row_words];
	mark_all(sc, map);
	return sc;
}

void modern_sc_destroy(struct modern_sizeclass *sc)
{
	free(sc);
}

void modern_sc_update(struct modern_sizeclass *sc, const struct modern_index *ix,
		      const unsigned long *map, unsigned long start, unsigned long nr,
		      bool claim)
{
	unsigned long prev = modern_index_prev_used(ix, map, start);
	unsigned long s = prev == MODERN_INDEX_NONE ? 0 : prev + 1;
	unsigned long e = modern_index_next_used(ix, map, start + nr);

	if (!claim) {
		mark(sc, s, e - s);
		return;
	}
	if (s < start)
		mark(sc, s, start - s);
	if (start + nr < e)
		mark(sc, start + nr, e - (start + nr));
}

/*
 * The best run of class @c starting in block @b that holds @nr and is
 * shorter than *@best_len: the first with the smallest length (~0UL if
 * none).  *@any tells whether the block starts any run of class @c at all.
 * Runs that start before the block are not its.
 */
static unsigned long best_in_block(const struct modern_index *ix, const unsigned long *map,
				   unsigned long nbits, unsigned long b, unsigned int c,
				   unsigned long nr, unsigned long *best_len, bool *any)
{
	unsigned long first = b << BLOCK_SHIFT, end = first + BLOCK_BITS, p, q, best = ~0UL;

	*any = false;
	if (end > nbits)
		end = nbits;
	p = first;
	if (p > 0 && !(map[(p - 1) / BPL] >> ((p - 1) % BPL) & 1))
		p = modern_find_next_bit(map, end, p);
	for (;;) {
		p = modern_find_next_zero_bit(map, end, p);
		if (p >= end)
			return best;
		q = modern_find_next_bit(map, end, p);
		if (q == end)
			q = modern_index_next_used(ix, map, end);
		if (size_class(q - p) == c) {
			*any = true;
			if (q - p >= nr && q - p < *best_len) {
				*best_len = q - p;
				best = p;
				if (c < EXACT)
					return best;
			}
		}
		p = q;
	}
}

/* The first block at or after @b marked in class @c's row, or ~0UL. */
static unsigned long next_marked(struct modern_sizeclass *sc, unsigned int c, unsigned long b)
{
	unsigned long wi = b / BPL, si, w, m;

	if (b >= sc->nblocks)
		return ~0UL;
	w = row(sc, c)[wi] & (~0UL << (b % BPL));
	if (w)
		return wi * BPL + (unsigned long)__builtin_ctzl(w);
	/* The rest through the summary: only words with a mark are read. */
	for (si = (wi + 1) / BPL, wi++; si < sc->sum_words; si++, wi = si * BPL) {
		m = sum(sc, c)[si] & (wi % BPL ? ~0UL << (wi % BPL) : ~0UL);
		if (m) {
			wi = si * BPL + (unsigned long)__builtin_ctzl(m);
			return wi * BPL + (unsigned long)__builtin_ctzl(row(sc, c)[wi]);
		}
	}
	return ~0UL;
}

unsigned long modern_sc_best_fit(struct modern_sizeclass *sc, const struct modern_index *ix,
				 const unsigned long *map, unsigned long nr)
{
	unsigned long b, p, best, best_len, floor;
	unsigned int c;
	bool any;

	for (c = size_class(nr); c < NCLASS; c++) {
		if (!sc->count[c])
			continue;
		best = MODERN_INDEX_NONE;
		best_len = ~0UL;
		/* Nothing in the class can be shorter than this: a run of
		 * exactly this length, found first, is the answer. */
		floor = class_min(c) > nr ? class_min(c) : nr;
		for (b = next_marked(sc, c, 0); b != ~0UL; b = next_marked(sc, c, b + 1)) {
			p = best_in_block(ix, map, sc->nbits, b, c, nr, &best_len, &any);
			if (!any)	/* its runs are gone: a stale bit */
				unmark(sc, c, b);
			if (p == ~0UL)
				continue;
			best = p;
			if (best_len == floor)
				return best;
		}
		if (best != MODERN_INDEX_NONE)
			return best;
	}
	return MODERN_INDEX_NONE;
}

bool modern_sc_verify(struct modern_sizeclass *sc, const unsigned long *map)
{
	struct modern_sizeclass *fresh = modern_sc_create(map, sc->nbits);
	unsigned long i, n = NCLASS * sc->row_words, bits;
	unsigned int c;
	bool ok = true;

	if (!fresh)
		return true;	/* cannot tell without memory */
	/* Every real run's bit must be set; stale extra bits are allowed. */
	for (i = 0; i < n; i++)
		if (fresh->rows[i] & ~sc->rows[i])
			ok = false;
	for (c = 0; c < NCLASS && ok; c++) {
		bits = 0;
		for (i = 0; i < sc->row_words; i++) {
			bits += (unsigned long)__builtin_popcountl(row(sc, c)[i]);
			if (!row(sc, c)[i] != !(sum(sc, c)[i / BPL] >> (i % BPL) & 1))
				ok = false;
		}
		ok = ok && bits == sc->count[c];
	}
	modern_sc_destroy(fresh);
	return ok;
}
