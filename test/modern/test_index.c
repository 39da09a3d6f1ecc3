// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * test/modern/test_index.c - the free-run index (modern/index.c) against the
 * linear bitmap searches it replaces.
 *
 * Two levels: the index's own queries on random bitmaps of awkward sizes
 * (one bit short of, at and past a word, a leaf and an inner node) against
 * modern_bitmap_find_next_zero_area_off() and gen_pool_best_fit(); and whole
 * pools, one indexed and one on the kernel's lock-free linear path, fed the
 * same randomized calls with every algorithm, which must give the same
 * address every time while gen_pool_check() (which verifies the index)
 * passes after every step.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "../support.h"
#include "modern/bitmap_internal.h"
#include "modern/genalloc.h"
#include "modern/index_internal.h"
#include "modern/index_state_internal.h"
#include "modern/orderhint_internal.h"
#include "modern/sizeclass_internal.h"

#define BPL MODERN_BITS_PER_LONG

static bool long_run(void)
{
	const char *s = getenv("GENALLOC_STRESS");

	return s && !strcmp(s, "long");
}

/* Sizes around every boundary the index has: word, block (256), hint
 * block (512), tree node (8 blocks, 2048), second and third tree levels
 * (16384, 131072), full-map word (64 blocks, 16384), a saturated leaf
 * (65535); and the boundaries of blocks of 512 bits, as they were. */
static const unsigned long awkward[] = {
	1, 2, 63, 64, 65, 255, 256, 257, 511, 512, 513, 1000, 2047, 2049, 4095, 4096,
	4097, 8191, 8192, 8193, 16384, 32767, 32768, 32769, 65537, 70001, 131071, 131073,
};
#define NR_AWKWARD (sizeof(awkward) / sizeof(awkward[0]))

static int test_bit(const unsigned long *map, unsigned long bit)
{
	return (int)(map[bit / BPL] >> (bit % BPL) & 1);
}

/*
 * Bits [@lo, @hi) made @used: each stretch of them that actually flips is
 * one claim or release, told to @ix when it is not NULL (the contract of
 * modern_index_update()).
 */
static void set_range(struct modern_index *ix, unsigned long *map, unsigned long lo,
		      unsigned long hi, int used)
{
	unsigned long j, k;

	for (j = lo; j < hi; j = k) {
		for (k = j; k < hi && test_bit(map, k) == used; k++)
			;
		for (j = k; k < hi && test_bit(map, k) != used; k++)
			;
		if (j == k)
			continue;
		if (used)
			modern_bitmap_set(map, j, k - j);
		else
			modern_bitmap_clear(map, j, k - j);
		if (ix)
			modern_index_update(ix, map, j, k - j);
	}
}

/*
 * A random bitmap: runs of used and free bits of geometric-ish lengths, so
 * that long free runs, single holes and word-straddling runs all occur.
 */
static void random_map(struct modern_index *ix, unsigned long *map, unsigned long nbits,
		       unsigned long long *rng)
{
	unsigned long i = 0, len;
	int used = (int)test_rng_below(rng, 2);

	while (i < nbits) {
		len = 1 + test_rng_below(rng, 1UL << test_rng_below(rng, 10));
		if (len > nbits - i)
			len = nbits - i;
		set_range(ix, map, i, i + len, used);
		i += len;
		used = !used;
	}
}

static unsigned long linear_first(const unsigned long *map, unsigned long nbits,
				  unsigned long lo, unsigned long nr,
				  unsigned long mask, unsigned long off)
{
	unsigned long r = modern_bitmap_find_next_zero_area_off(map, nbits, lo, nr, mask, off);

	return r < nbits ? r : MODERN_INDEX_NONE;
}

static unsigned long linear_best(unsigned long *map, unsigned long nbits, unsigned long nr)
{
	unsigned long r = gen_pool_best_fit(map, nbits, 0, (unsigned int)nr, NULL, NULL, 0);

	return r < nbits ? r : MODERN_INDEX_NONE;
}

/* The longest run of clear bits, bit by bit. */
static unsigned long linear_longest(const unsigned long *map, unsigned long nbits)
{
	unsigned long i, run = 0, best = 0;

	for (i = 0; i < nbits; i++) {
		run = test_bit(map, i) ? 0 : run + 1;
		if (run > best)
			best = run;
	}
	return best;
}

/* An all-free bitmap of @nbits bits in *@map, and its index. */
static struct modern_index *new_index(unsigned long nbits, unsigned long **map)
{
	struct modern_index *ix;

	*map = calloc(modern_bits_to_longs(nbits), sizeof(long));
	ck_assert_ptr_nonnull(*map);
	ix = modern_index_create(*map, nbits);
	ck_assert_ptr_nonnull(ix);
	return ix;
}

/* What modern_index_find_first() says of its answer's run: it starts there
 * and, when measured, ends at the next used bit. */
static void check_run_end(const unsigned long *map, unsigned long nbits, unsigned long first,
			  unsigned long nr, unsigned long end)
{
	if (first == MODERN_INDEX_NONE)
		return;
	ck_assert(first == 0 || test_bit(map, first - 1));
	if (end != MODERN_INDEX_NONE) {
		EXPECT_EQ(end, modern_find_next_bit(map, nbits, first));
		ck_assert_uint_ge(end, first + nr);
	}
}

/* What modern_sc_visit_runs() reports, as the caller's visitor sees it. */
struct visits {
	unsigned long n;
	unsigned long start[64], end[64];
};

static void record_visit(void *arg, unsigned long start, unsigned long end)
{
	struct visits *v = arg;

	if (v->n < 64) {
		v->start[v->n] = start;
		v->end[v->n] = end;
	}
	v->n++;
}

/*
 * modern_sc_visit_runs() over [@lo, @limit) against a walk of the
 * bitmap: every maximal run of at least @nr bits that starts in the
 * stretch, in order, whole; at most 64 are compared (the count always).
 */
static void visits_checked(const struct modern_index *ix, const unsigned long *map,
			   unsigned long nbits, unsigned long lo, unsigned long limit,
			   unsigned long nr)
{
	struct visits got = { 0 };
	unsigned long p = lo, s, e, n = 0, stop = limit < nbits ? limit : nbits;

	modern_sc_visit_runs(ix, map, lo, limit, nr, record_visit, &got);
	if (p > 0 && p < nbits && !test_bit(map, p - 1))
		p = modern_find_next_bit(map, nbits, p);
	while (p < stop) {
		s = modern_find_next_zero_bit(map, nbits, p);
		if (s >= stop)
			break;
		e = modern_find_next_bit(map, nbits, s);
		if (e - s >= nr) {
			if (n < 64) {
				EXPECT_EQ(got.start[n], s);
				EXPECT_EQ(got.end[n], e);
			}
			n++;
		}
		p = e;
	}
	EXPECT_EQ(got.n, n);
}

/*
 * An aligned search (order-aligned fit's if @order, whose grid @mask, @off
 * the caller gives too) against the linear search, and the run end it
 * reports in *@end: the end of the answer's free run, or "not seen".
 */
static unsigned long aligned_checked(struct modern_index *ix, const unsigned long *map,
				     unsigned long nbits, unsigned long nr, unsigned long mask,
				     unsigned long off, bool order, unsigned long *end)
{
	unsigned long r;

	*end = 0;
	r = order ? modern_index_find_order_aligned(ix, map, nr, end)
		  : modern_index_find_aligned(ix, map, nr, mask, off, end);
	EXPECT_EQ(r, linear_first(map, nbits, 0, nr, mask, off));
	if (r == MODERN_INDEX_NONE) {
		EXPECT_EQ(*end, MODERN_INDEX_NONE);
	} else if (*end != MODERN_INDEX_NONE) {
		EXPECT_EQ(*end, modern_find_next_bit(map, nbits, r));
		ck_assert_uint_ge(*end, r + nr);
	}
	return r;
}

/* Every query of one index against the linear search, on one bitmap;
 * returns how many aligned answers came with their run's end. */
static unsigned long compare_queries(struct modern_index *ix, unsigned long *map,
				     unsigned long nbits, unsigned long long *rng, int rounds)
{
	unsigned long lo, nr, mask, off, first, end, want, limit, known = 0;
	int r;

	for (r = 0; r < rounds; r++) {
		nr = 1 + test_rng_below(rng, test_rng_below(rng, 4) ? 70 : nbits);
		lo = test_rng_below(rng, 3) ? 0 : test_rng_below(rng, nbits);
		want = linear_first(map, nbits, lo, nr, 0, 0);
		EXPECT_EQ(modern_index_find(ix, map, lo, nr), want);
		/* Every long run of a stretch, as the size classes' refills ask:
		 * a few blocks, or anywhere up to the chunk's end (and past it). */
		limit = lo + test_rng_below(rng, test_rng_below(rng, 2) ? 2048 : nbits + 2);
		visits_checked(ix, map, nbits, lo, limit, nr);
		first = modern_index_find_first(ix, map, nr, &end);
		EXPECT_EQ(first, linear_first(map, nbits, 0, nr, 0, 0));
		check_run_end(map, nbits, first, nr, end);
		/* Grids from a bit to 8 blocks: word-sized, mid-sized and coarse. */
		mask = (1UL << test_rng_below(rng, 13)) - 1;
		off = test_rng_below(rng, mask + 1);
		aligned_checked(ix, map, nbits, nr, mask, off, false, &end);
		known += end != MODERN_INDEX_NONE;
		/* Grids of 1 to 128 blocks whose points are block starts: read
		 * from the bitmap on chunks of up to 128 blocks, from the
		 * grid-point map on larger ones that keep one. */
		mask = (512UL << test_rng_below(rng, 8)) - 1;
		off = test_rng_below(rng, (mask + 1) / 512) * 512;
		aligned_checked(ix, map, nbits, nr, mask, off, false, &end);
		/* order_align's grid: nr rounded up to a power of two */
		for (mask = 1; mask < nr; mask <<= 1)
			;
		aligned_checked(ix, map, nbits, nr, mask - 1, 0, false, &end);
		aligned_checked(ix, map, nbits, nr, mask - 1, 0, true, &end);
		known += end != MODERN_INDEX_NONE;
		end = MODERN_INDEX_NONE;
		first = modern_best_fit(ix, map, nr, &end);
		EXPECT_EQ(first, linear_best(map, nbits, nr));
		/* Best fit always knows its run's end. */
		ck_assert(first == MODERN_INDEX_NONE || end != MODERN_INDEX_NONE);
		check_run_end(map, nbits, first, nr, end);
	}
	return known;
}

START_TEST(queries_match_linear_search)
{
	unsigned long long rng = 0x1dea + (unsigned long long)_i;
	unsigned long nbits = awkward[_i], *map, known;
	struct modern_index *ix = new_index(nbits, &map);
	int maps;

	/* Every other size with the order hints, which these sizes would
	 * not turn on themselves (modern_index_hints_fit()). */
	if (_i % 2)
		ck_assert_int_eq(modern_index_order_hints(ix), 0);
	/* All free, then random maps, rebuilt or updated in pieces. */
	known = compare_queries(ix, map, nbits, &rng, 50);
	EXPECT_EQ(modern_index_longest(ix), nbits);
	for (maps = 0; maps < (long_run() ? 200 : 20); maps++) {
		random_map(maps % 2 ? NULL : ix, map, nbits, &rng);
		if (maps % 2)
			modern_index_rebuild(ix, map);
		ck_assert(modern_index_verify(ix, map));
		known += compare_queries(ix, map, nbits, &rng, 40);
	}
	/* The aligned searches did report their runs' ends. */
	ck_assert_uint_gt(known, 0);
	/* All used: from all free, one claim. */
	modern_bitmap_clear(map, 0, nbits);
	modern_index_rebuild(ix, map);
	modern_bitmap_set(map, 0, nbits);
	modern_index_update(ix, map, 0, nbits);
	EXPECT_EQ(modern_index_longest(ix), 0);
	EXPECT_EQ(modern_index_find(ix, map, 0, 1), MODERN_INDEX_NONE);
	modern_index_destroy(ix);
	free(map);
}
END_TEST

/*
 * A release's rise reaches the tree only at the next change elsewhere
 * (put_block_as() in modern/index.c): until then every search must still
 * see the released run, through whichever path it climbs the tree.  On an
 * all-used map, release one run at a random place (and sometimes a second,
 * which tells the tree of the first), then ask every query without a
 * claim between, so that the rise is still pending when each one runs.
 */
START_TEST(a_pending_rise_is_seen_by_every_search)
{
	unsigned long long rng = 0x5eed + (unsigned long long)_i;
	unsigned long nbits = awkward[_i], *map, p, len, q, lo, nr, end, mask;
	struct modern_index *ix = new_index(nbits, &map);
	int round;

	for (round = 0; round < 200; round++) {
		modern_bitmap_set(map, 0, nbits);
		modern_index_rebuild(ix, map);
		len = 1 + test_rng_below(&rng, test_rng_below(&rng, 2) ? 16 : 600);
		if (len > nbits)
			len = nbits;
		p = test_rng_below(&rng, nbits - len + 1);
		modern_bitmap_clear(map, p, len);
		modern_index_update(ix, map, p, len);
		if (test_rng_below(&rng, 3) == 0) {
			/* A second hole, not touching the first. */
			q = test_rng_below(&rng, nbits);
			if (q + 1 < p || q > p + len) {
				modern_bitmap_clear(map, q, 1);
				modern_index_update(ix, map, q, 1);
			}
		}
		ck_assert(modern_index_verify(ix, map));
		nr = 1 + test_rng_below(&rng, len + 1);
		lo = test_rng_below(&rng, p + 1);
		/* One query a round, each on the untouched state. */
		switch (round % 6) {
		case 0:
			EXPECT_EQ(modern_index_longest(ix), linear_longest(map, nbits));
			break;
		case 1:
			EXPECT_EQ(modern_index_find(ix, map, lo, nr),
				  linear_first(map, nbits, lo, nr, 0, 0));
			break;
		case 2:
			visits_checked(ix, map, nbits, lo, lo + 4096, nr);
			break;
		case 3:
			for (mask = 1; mask < nr; mask <<= 1)
				;
			aligned_checked(ix, map, nbits, nr, mask - 1, 0, test_rng_below(&rng, 2),
					&end);
			break;
		case 4:
			EXPECT_EQ(modern_best_fit(ix, map, nr, &end), linear_best(map, nbits, nr));
			break;
		default:
			EXPECT_EQ(modern_index_find_first(ix, map, nr, &end),
				  linear_first(map, nbits, 0, nr, 0, 0));
			break;
		}
		ck_assert(modern_index_verify(ix, map));
	}
	modern_index_destroy(ix);
	free(map);
}
END_TEST

/* An aligned search for @nr on a random grid, order-aligned fit's or a
 * fixed one, checked as aligned_checked() does. */
static unsigned long aligned_claim(struct modern_index *ix, unsigned long *map,
				   unsigned long nbits, unsigned long nr,
				   unsigned long long *rng, unsigned long *end)
{
	unsigned long mask, off = 0;
	bool order = test_rng_below(rng, 2);

	if (order) {
		for (mask = 1; mask < nr; mask <<= 1)
			;
		mask--;
	} else {
		mask = (1UL << test_rng_below(rng, 13)) - 1;
		off = test_rng_below(rng, mask + 1);
		/* Half the coarse grids on block starts: the grid-point map's. */
		if (mask >= 511 && test_rng_below(rng, 2))
			off &= ~511UL;
	}
	return aligned_checked(ix, map, nbits, nr, mask, off, order, end);
}

/*
 * The miss memo: free runs [128j + 1, 128j + 101) hold no 40 bits from a
 * multiple of 64, so that search fails and is remembered; it must then
 * answer only searches at least as long on a grid at least as coarse, and
 * after a release stand only for what is longer than the window the
 * release made.
 */
START_TEST(an_aligned_miss_is_remembered_until_a_release_makes_room)
{
	const unsigned long nbits = 4096;
	unsigned long *map, end, j;
	struct modern_index *ix = new_index(nbits, &map);

	modern_bitmap_set(map, 0, nbits);
	for (j = 0; j < nbits / 128; j++)
		modern_bitmap_clear(map, 128 * j + 1, 100);
	modern_index_rebuild(ix, map);
	ck_assert(modern_index_verify(ix, map));
	/* 40 rounds up to a grid of 64: no window. */
	EXPECT_EQ(aligned_checked(ix, map, nbits, 40, 63, 0, true, &end), MODERN_INDEX_NONE);
	EXPECT_EQ(aligned_checked(ix, map, nbits, 50, 63, 0, true, &end), MODERN_INDEX_NONE);
	EXPECT_EQ(aligned_checked(ix, map, nbits, 40, 127, 0, false, &end), MODERN_INDEX_NONE);
	/* Shorter, or on a finer grid: the memo must not answer. */
	EXPECT_EQ(aligned_checked(ix, map, nbits, 30, 31, 0, true, &end), 32);
	EXPECT_EQ(aligned_checked(ix, map, nbits, 20, 63, 0, false, &end), 64);
	EXPECT_EQ(aligned_checked(ix, map, nbits, 40, 31, 0, false, &end), 32);
	/* Still no window of 40 on 64: the memo stands... */
	EXPECT_EQ(aligned_checked(ix, map, nbits, 40, 63, 0, true, &end), MODERN_INDEX_NONE);
	/* ...and bounds what the chunk directory may offer each family: 39 on
	 * grids of 64 and up; the order grid from 33 on (grids of 64); the
	 * longest run on a finer grid or one with an offset. */
	EXPECT_EQ(modern_index_aligned_bound(ix, 63, 0), 39);
	EXPECT_EQ(modern_index_aligned_bound(ix, 127, 0), 39);
	EXPECT_EQ(modern_index_aligned_bound(ix, MODERN_INDEX_ORDER_GRID, 0), 39);
	EXPECT_EQ(modern_index_aligned_bound(ix, 31, 0), 100);
	EXPECT_EQ(modern_index_aligned_bound(ix, 63, 1), 100);
	/* A release whose run holds no window of 40 on 64 leaves it: [110,
	 * 112) has no grid point. */
	modern_bitmap_clear(map, 110 + 128 * 3, 2);
	modern_index_update(ix, map, 110 + 128 * 3, 2);
	EXPECT_EQ(modern_index_aligned_bound(ix, 63, 0), 39);
	EXPECT_EQ(aligned_checked(ix, map, nbits, 40, 63, 0, false, &end), MODERN_INDEX_NONE);
	/* One that makes a window moves it to that window: [1, 110) holds
	 * [64, 110), 46 bits, and no more. */
	modern_bitmap_clear(map, 101 + 128 * 5, 9);
	modern_index_update(ix, map, 101 + 128 * 5, 9);
	EXPECT_EQ(modern_index_aligned_bound(ix, 63, 0), 46);
	EXPECT_EQ(aligned_checked(ix, map, nbits, 47, 63, 0, false, &end), MODERN_INDEX_NONE);
	EXPECT_EQ(aligned_checked(ix, map, nbits, 40, 63, 0, true, &end), 64 + 128 * 5);
	ck_assert(modern_index_verify(ix, map));
	modern_index_destroy(ix);
	free(map);
}
END_TEST

/*
 * The searches' claims as the pool makes them: first fit's answer claimed
 * with modern_index_claim_run() and an aligned one (first_fit_align's or
 * order-aligned fit's) with modern_index_claim_within() when the search
 * measured its run, else with modern_index_update(), between random
 * releases; the index stays exact at every step.
 */
/*
 * Free runs of 2^16 bits and more, whose blocks' leaves saturate (THE
 * LEAVES in index.c) and are read through their parents: made, cut and
 * merged by claims and releases of every length up to twice that, from
 * any block of a node, and searched for with every kind of query, some
 * just around the saturation point.
 */
START_TEST(saturated_leaves_stay_exact)
{
	static const unsigned long near[] = { 65534, 65535, 65536, 65537, 70001, 131073 };
	const unsigned long nbits = (1UL << 19) + 77;
	unsigned long long rng = 0x5a7 + (unsigned long long)_i;
	unsigned long *map, a, len, nr, end, lo;
	struct modern_index *ix = new_index(nbits, &map);
	int step, steps = getenv("GENALLOC_UNDER_VALGRIND") ? 30 : 200;
	unsigned int k;

	for (step = 0; step < steps; step++) {
		a = test_rng_below(&rng, nbits);
		len = test_rng_below(&rng, 3) ? 1 + test_rng_below(&rng, 600)
					      : 60000 + test_rng_below(&rng, 80000);
		set_range(ix, map, a, a + len < nbits ? a + len : nbits,
			  (int)test_rng_below(&rng, 2));
		ck_assert(modern_index_verify(ix, map));
		EXPECT_EQ(modern_index_longest(ix), linear_longest(map, nbits));
		for (k = 0; k < sizeof(near) / sizeof(near[0]); k++) {
			nr = near[k];
			EXPECT_EQ(modern_index_find_first(ix, map, nr, &end),
				  linear_first(map, nbits, 0, nr, 0, 0));
			lo = test_rng_below(&rng, nbits);
			EXPECT_EQ(modern_index_find(ix, map, lo, nr),
				  linear_first(map, nbits, lo, nr, 0, 0));
			end = MODERN_INDEX_NONE;
			EXPECT_EQ(modern_best_fit(ix, map, nr, &end), linear_best(map, nbits, nr));
		}
		compare_queries(ix, map, nbits, &rng, 1);
	}
	modern_index_destroy(ix);
	free(map);
}
END_TEST

START_TEST(claims_with_known_run_stay_exact)
{
	unsigned long long rng = 0xc1a1 + (unsigned long long)_i;
	unsigned long nbits = awkward[_i], *map, nr, p, end, lo, len, known = 0, within = 0;
	struct modern_index *ix = new_index(nbits, &map);
	bool first_fit;
	int step;

	random_map(ix, map, nbits, &rng);
	/* The order hints, turned on up front, must follow the claims too. */
	ck_assert_int_eq(modern_index_order_hints(ix), 0);
	for (step = 0; step < 400; step++) {
		if (test_rng_below(&rng, 3)) {
			nr = 1 + test_rng_below(&rng, test_rng_below(&rng, 4) ? 70 : nbits / 4 + 1);
			first_fit = test_rng_below(&rng, 2);
			if (first_fit) {
				p = modern_index_find_first(ix, map, nr, &end);
				EXPECT_EQ(p, linear_first(map, nbits, 0, nr, 0, 0));
				check_run_end(map, nbits, p, nr, end);
			} else {
				p = aligned_claim(ix, map, nbits, nr, &rng, &end);
			}
			if (p == MODERN_INDEX_NONE)
				continue;
			modern_bitmap_set(map, p, nr);
			if (end == MODERN_INDEX_NONE) {
				modern_index_update(ix, map, p, nr);
			} else if (first_fit) {
				modern_index_claim_run(ix, map, p, nr, end, 0);
				known++;
			} else {
				modern_index_claim_within(ix, map, p, nr, end);
				within++;
			}
		} else {
			/* Release a used stretch, whole: every bit flips. */
			lo = modern_find_next_bit(map, nbits, test_rng_below(&rng, nbits));
			if (lo >= nbits)
				continue;
			len = modern_find_next_zero_bit(map, nbits, lo) - lo;
			len = 1 + test_rng_below(&rng, len);
			modern_bitmap_clear(map, lo, len);
			modern_index_update(ix, map, lo, len);
		}
		ck_assert(modern_index_verify(ix, map));
		nr = 1 + test_rng_below(&rng, 300);
		for (lo = 1; lo < nr; lo <<= 1)
			;
		aligned_checked(ix, map, nbits, nr, lo - 1, 0, false, &end);
	}
	/* The measured paths must actually have run. */
	ck_assert_uint_gt(known, 0);
	ck_assert_uint_gt(within, 0);
	modern_index_destroy(ix);
	free(map);
}
END_TEST

/* Single-bit changes anywhere keep every summary exact, and a stale index
 * is caught by verify. */
START_TEST(single_bit_updates_stay_exact)
{
	const unsigned long nbits = 4 * 4096 + 77;
	unsigned long long rng = 99;
	unsigned long *map = calloc(modern_bits_to_longs(nbits), sizeof(long)), bit;
	struct modern_index *ix = modern_index_create(map, nbits);
	int i;

	ck_assert_ptr_nonnull(ix);
	for (i = 0; i < 3000; i++) {
		bit = test_rng_below(&rng, nbits);
		if (map[bit / BPL] >> (bit % BPL) & 1)
			modern_bitmap_clear(map, bit, 1);
		else
			modern_bitmap_set(map, bit, 1);
		modern_index_update(ix, map, bit, 1);
		if (i % 100 == 0)
			ck_assert(modern_index_verify(ix, map));
	}
	ck_assert(modern_index_verify(ix, map));
	ck_assert_uint_gt(compare_queries(ix, map, nbits, &rng, 200), 0);
	memset(map, 0xff, modern_bits_to_longs(nbits) * sizeof(long));	/* behind its back */
	ck_assert(!modern_index_verify(ix, map));
	modern_index_destroy(ix);
	free(map);
}
END_TEST

/* Order-aligned fit of @nr on @ix, checked against the linear search. */
static unsigned long order_fit_checked(struct modern_index *ix, const unsigned long *map,
				       unsigned long nbits, unsigned long nr)
{
	unsigned long g, r, end;

	for (g = 1; g < nr; g <<= 1)
		;
	r = aligned_checked(ix, map, nbits, nr, g - 1, 0, true, &end);
	ck_assert(modern_index_verify(ix, map));
	return r;
}

static void flip(struct modern_index *ix, unsigned long *map, unsigned long start,
		 unsigned long nr, bool used)
{
	if (used)
		modern_bitmap_set(map, start, nr);
	else
		modern_bitmap_clear(map, start, nr);
	modern_index_update(ix, map, start, nr);
	ck_assert(modern_index_verify(ix, map));
}

/*
 * The order hints (modern/orderhint.c) on a map built by hand: a search
 * that finds a block wanting lowers its hint, and a release that grows a
 * run, or a claim that starts one, must raise it again before the next
 * search - else that search skips the block and answers higher.
 */
START_TEST(order_hints_learn_and_are_raised)
{
	const unsigned long nbits = 8 * 512;
	unsigned long *map;
	struct modern_index *ix = new_index(nbits, &map);

	/* Too small to turn them on itself (modern_index_hints_fit()). */
	ck_assert(!modern_index_hints_fit(nbits));
	ck_assert_int_eq(modern_index_order_hints(ix), 0);
	flip(ix, map, 0, nbits, true);
	flip(ix, map, 1, 7, false);		/* block 0: [1, 8), no 5 on a multiple of 8 */
	flip(ix, map, 1024 + 8, 8, false);	/* block 2: [1032, 1040) */
	/* A release bounds its block by what the new run holds: 4 at 4. */
	EXPECT_EQ(modern_index_order_hint(ix, 0), 4);
	EXPECT_EQ(modern_index_order_hint(ix, 2), 8);
	EXPECT_EQ(order_fit_checked(ix, map, nbits, 5), 1032);
	EXPECT_EQ(order_fit_checked(ix, map, nbits, 4), 4);
	/* A rebuild loads the blocks' longest runs; a search that then fails
	 * in block 0 writes down what it learnt. */
	modern_index_rebuild(ix, map);
	EXPECT_EQ(modern_index_order_hint(ix, 0), 7);
	EXPECT_EQ(order_fit_checked(ix, map, nbits, 5), 1032);
	EXPECT_EQ(modern_index_order_hint(ix, 0), 4);
	/* A release grows block 0's run to [1, 16): 5 fits at 8. */
	flip(ix, map, 8, 8, false);
	EXPECT_EQ(modern_index_order_hint(ix, 0), 8);
	EXPECT_EQ(order_fit_checked(ix, map, nbits, 5), 8);

	/* Block 5's run [3069, 3092) holds 20 at 3072 (grid 32). */
	flip(ix, map, 3069, 23, false);
	EXPECT_EQ(order_fit_checked(ix, map, nbits, 20), 3072);
	/* Claiming [3069, 3072) starts the run in block 6, whose hint was 0,
	 * and leaves block 5 with none. */
	EXPECT_EQ(modern_index_order_hint(ix, 6), 0);
	flip(ix, map, 3069, 3, true);
	EXPECT_EQ(modern_index_order_hint(ix, 6), 20);
	EXPECT_EQ(modern_index_order_hint(ix, 5), 0);
	EXPECT_EQ(order_fit_checked(ix, map, nbits, 20), 3072);
	modern_index_rebuild(ix, map);
	EXPECT_EQ(modern_index_order_hint(ix, 0), 15);
	EXPECT_EQ(order_fit_checked(ix, map, nbits, 21), MODERN_INDEX_NONE);
	EXPECT_EQ(order_fit_checked(ix, map, nbits, 8), 8);
	modern_index_destroy(ix);
	free(map);
}
END_TEST

/*
 * Hints stay off while aligned searches find their windows after few
 * useless blocks, and turn on, for the searching grid family, at the first
 * search that passes more than MODERN_INDEX_HINT_AFTER of them, on a bitmap
 * big enough.
 */
START_TEST(order_hints_turn_on_when_searches_waste_blocks)
{
	const unsigned long nbits = MODERN_INDEX_HINT_MIN_BITS, k = MODERN_INDEX_HINT_AFTER;
	unsigned long *map, b, end;
	struct modern_index *ix = new_index(nbits, &map);

	ck_assert(modern_index_hints_fit(nbits));
	flip(ix, map, 0, nbits, true);
	/* Blocks 0 .. k - 1: a run of 7 at an odd bit, no 5 on a multiple
	 * of 8; block 4k: a free aligned 8. */
	for (b = 0; b < k; b++)
		flip(ix, map, b * 512 + 1, 7, false);
	flip(ix, map, 4 * k * 512, 8, false);
	EXPECT_EQ(order_fit_checked(ix, map, nbits, 5), 4 * k * 512);
	EXPECT_EQ(modern_index_order_hint(ix, 0), MODERN_INDEX_NONE);
	/* One more useless block: that search turns them on. */
	flip(ix, map, k * 512 + 1, 7, false);
	EXPECT_EQ(order_fit_checked(ix, map, nbits, 5), 4 * k * 512);
	EXPECT_EQ(modern_index_order_hint(ix, 0), 7);
	/* The next one teaches every useless block its bound. */
	EXPECT_EQ(order_fit_checked(ix, map, nbits, 5), 4 * k * 512);
	for (b = 0; b <= k; b++)
		EXPECT_EQ(modern_index_order_hint(ix, b), 4);
	/* They serve one grid family: a fixed grid (5 on multiples of 16,
	 * first_fit_align's kind) searches without them, and does not take
	 * them over. */
	aligned_checked(ix, map, nbits, 5, 15, 0, false, &end);
	EXPECT_EQ(modern_index_order_hint(ix, 0), 4);
	ck_assert_int_eq(modern_index_hints_on(ix, 15, 0), -EBUSY);
	/* On a fresh index, the fixed grid wastes as many blocks and turns
	 * them on for itself; order-aligned searches then go without. */
	modern_index_destroy(ix);
	ix = modern_index_create(map, nbits);
	ck_assert_ptr_nonnull(ix);
	aligned_checked(ix, map, nbits, 5, 15, 0, false, &end);
	EXPECT_EQ(modern_index_order_hint(ix, 0), 7);
	aligned_checked(ix, map, nbits, 5, 15, 0, false, &end);
	EXPECT_EQ(modern_index_order_hint(ix, 0), 4);
	ck_assert(modern_index_verify(ix, map));
	EXPECT_EQ(order_fit_checked(ix, map, nbits, 3), 4);
	ck_assert_int_eq(modern_index_order_hints(ix), -EBUSY);
	ck_assert_int_eq(modern_index_hints_on(ix, 15, 0), 0);
	/* A release that grows block 0's run to [1, 40) raises its bound to
	 * what the grid can use: 40 - 16. */
	flip(ix, map, 8, 32, false);
	EXPECT_EQ(modern_index_order_hint(ix, 0), 24);
	modern_index_destroy(ix);
	free(map);
}
END_TEST

/* The hint tree alone: random bounds raised and lowered, and the next
 * block at or after b with a bound of at least nr against a scan. */
START_TEST(order_hint_tree_finds_the_next_block)
{
	static const unsigned long sizes[] = { 1, 7, 8, 9, 64, 65, 513, 4100 };
	unsigned long long rng = 0x0e1;
	unsigned long n = sizes[_i], b, v, nr, want, k;
	struct modern_ohint *oh = modern_ohint_create(n);
	unsigned long *shadow = calloc(n, sizeof(*shadow));
	int step;

	ck_assert_ptr_nonnull(oh);
	ck_assert_ptr_nonnull(shadow);
	ck_assert_ptr_null(modern_ohint_create(0));
	for (step = 0; step < 3000; step++) {
		b = test_rng_below(&rng, n);
		v = test_rng_below(&rng, 3) ? test_rng_below(&rng, 40) : test_rng_below(&rng, 1UL << 17);
		if (test_rng_below(&rng, 2)) {
			modern_ohint_raise(oh, b, v);
			if (v > shadow[b])
				shadow[b] = v < MODERN_OHINT_CAP ? v : MODERN_OHINT_CAP;
		} else {
			modern_ohint_lower(oh, b, v);
			if (v < shadow[b])
				shadow[b] = v;
		}
		EXPECT_EQ(modern_ohint_get(oh, b), shadow[b]);
		ck_assert(modern_ohint_verify(oh));
		b = test_rng_below(&rng, n + 1);
		nr = 1 + test_rng_below(&rng, 45);
		for (want = MODERN_OHINT_NONE, k = b; k < n; k++)
			if (shadow[k] >= nr) {
				want = k;
				break;
			}
		EXPECT_EQ(modern_ohint_next(oh, b, nr), want);
	}
	modern_ohint_destroy(oh);
	free(shadow);
}
END_TEST

START_TEST(bookkeeping_within_an_eighth_of_the_bitmap)
{
	unsigned long nbits;

	ck_assert_uint_eq(modern_index_bytes(0), 0);
	ck_assert_uint_eq(modern_index_bytes(MODERN_INDEX_MAX_BITS + 1), 0);
	ck_assert_ptr_null(modern_index_create(NULL, 0));
	for (nbits = 1UL << 16; nbits <= 1UL << 31; nbits <<= 1) {
		size_t bitmap = modern_bits_to_longs(nbits) * sizeof(long);

		ck_assert_uint_le(modern_index_bytes(nbits) * 8, bitmap);
		ck_assert_uint_le(modern_index_bytes(nbits + 1) * 8, bitmap + sizeof(long));
	}
	/* With the order hints of order-aligned fit too, where a search
	 * builds them; sizes just past a power of two add a level. */
	ck_assert(!modern_index_hints_fit(MODERN_INDEX_HINT_MIN_BITS - 1));
	for (nbits = MODERN_INDEX_HINT_MIN_BITS; nbits <= 1UL << 31; nbits += nbits / 4 + 77) {
		size_t bitmap = modern_bits_to_longs(nbits) * sizeof(long);

		ck_assert(modern_index_hints_fit(nbits));
		ck_assert_uint_le((modern_index_bytes(nbits) +
				   modern_ohint_bytes((nbits + 511) / 512)) * 8, bitmap);
	}
}
END_TEST

/* ------------------------------------------------------------ whole pools */

enum algo { FIRST, ALIGN, ORDER, BEST, FIXED, NALGOS };

struct twin {
	struct gen_pool *ix, *lin;
	unsigned long *live_addr;
	size_t *live_size;
	int nlive;
	int cap;
};

static const genpool_algo_t algos[NALGOS] = {
	gen_pool_first_fit, gen_pool_first_fit_align, gen_pool_first_fit_order_align,
	gen_pool_best_fit, gen_pool_fixed_alloc,
};

static void twin_add(struct twin *t, unsigned long addr, size_t size)
{
	ck_assert_int_eq(gen_pool_add(t->ix, addr, size, -1), 0);
	ck_assert_int_eq(gen_pool_add(t->lin, addr, size, -1), 0);
}

/* Two pools that must agree, room for @cap live blocks. */
static void twin_init_cap(struct twin *t, int order, int cap)
{
	memset(t, 0, sizeof(*t));
	t->cap = cap;
	t->live_addr = malloc((size_t)cap * sizeof(*t->live_addr));
	t->live_size = malloc((size_t)cap * sizeof(*t->live_size));
	ck_assert_ptr_nonnull(t->live_addr);
	ck_assert_ptr_nonnull(t->live_size);
	t->ix = gen_pool_create(order, -1);
	t->lin = gen_pool_create(order, -1);
	ck_assert_ptr_nonnull(t->ix);
	ck_assert_ptr_nonnull(t->lin);
	gen_pool_set_lockless(t->lin, true);
}

static void twin_init(struct twin *t, int order)
{
	twin_init_cap(t, order, 512);
}

/* Free a random live block in both pools (there must be one). */
static void twin_free_one(struct twin *t, unsigned long long *rng)
{
	int k = (int)test_rng_below(rng, (unsigned long long)t->nlive);

	gen_pool_free(t->ix, t->live_addr[k], t->live_size[k]);
	gen_pool_free(t->lin, t->live_addr[k], t->live_size[k]);
	t->nlive--;
	t->live_addr[k] = t->live_addr[t->nlive];
	t->live_size[k] = t->live_size[t->nlive];
}

/* Two steps in five (and whenever the twin is full) free a random live
 * block in both pools: true if this step did. */
static bool twin_free_some(struct twin *t, unsigned long long *rng)
{
	if (!t->nlive || (t->nlive < t->cap && test_rng_below(rng, 5) >= 2))
		return false;
	twin_free_one(t, rng);
	return true;
}

/* The same allocation from both pools, which must give the same address. */
static void twin_alloc(struct twin *t, size_t size, genpool_algo_t algo, void *data)
{
	unsigned long a = gen_pool_alloc_algo(t->ix, size, algo, data);
	unsigned long b = gen_pool_alloc_algo(t->lin, size, algo, data);

	if (a != b)
		ck_abort_msg("size %zu: indexed 0x%lx, linear 0x%lx", size, a, b);
	if (a) {
		ck_assert_int_lt(t->nlive, t->cap);
		t->live_addr[t->nlive] = a;
		t->live_size[t->nlive] = size;
		t->nlive++;
	}
}

/* @size bytes from both pools by a random algorithm: aligned to 2^0 to
 * 2^(@align_bits - 1) bytes, or at an offset of under @offsets granules. */
static void twin_alloc_any(struct twin *t, unsigned long long *rng, size_t size,
			   unsigned int align_bits, unsigned long offsets)
{
	struct genpool_data_align al;
	struct genpool_data_fixed fx;
	void *data = NULL;
	int k = (int)test_rng_below(rng, NALGOS);

	if (k == ALIGN) {
		al.align = 1 << test_rng_below(rng, align_bits);
		data = &al;
	} else if (k == FIXED) {
		fx.offset = test_rng_below(rng, offsets) << t->ix->min_alloc_order;
		data = &fx;
	}
	twin_alloc(t, size, algos[k], data);
}

static void twin_step(struct twin *t, unsigned long long *rng, size_t max_size)
{
	size_t size;

	if (twin_free_some(t, rng))
		return;
	size = 1 + test_rng_below(rng, test_rng_below(rng, 4) ? 200 : max_size);
	twin_alloc_any(t, rng, size, 12, max_size);
}

static void twin_drain(struct twin *t)
{
	while (t->nlive) {
		t->nlive--;
		gen_pool_free(t->ix, t->live_addr[t->nlive], t->live_size[t->nlive]);
		gen_pool_free(t->lin, t->live_addr[t->nlive], t->live_size[t->nlive]);
	}
	ck_assert_int_eq(gen_pool_check(t->ix), 0);
	gen_pool_destroy(t->ix);
	gen_pool_destroy(t->lin);
	free(t->live_addr);
	free(t->live_size);
}

/*
 * The same through a pool: with every granule allocated, free one block
 * and ask for its size again.  The only room is the block just freed, so
 * each algorithm must give it back; the chunk directory, which skips
 * chunks too short for a request, must have seen the free.
 */
START_TEST(a_freed_block_of_a_full_pool_comes_back)
{
	unsigned long long rng = 0xf00 + (unsigned long long)_i;
	const size_t nblocks = 3000, size = 24;
	struct genpool_data_fixed fx;
	unsigned long base = 0x100000, a, got;
	struct gen_pool *pool = gen_pool_create(3, -1);
	void *data;
	size_t i, k;

	ck_assert_ptr_nonnull(pool);
	ck_assert_int_eq(gen_pool_add(pool, base, nblocks * size, -1), 0);
	for (i = 0; i < nblocks; i++)
		ck_assert_uint_eq(gen_pool_alloc(pool, size), base + i * size);
	ck_assert_uint_eq(gen_pool_avail(pool), 0);
	for (i = 0; i < 300; i++) {
		k = (size_t)test_rng_below(&rng, nblocks);
		a = base + k * size;
		gen_pool_free(pool, a, size);
		data = NULL;
		if (_i == FIXED) {
			fx.offset = k * size;
			data = &fx;
		} else if (_i == ALIGN) {
			static struct genpool_data_align al = { .align = 8 };
			data = &al;
		}
		/* Order-aligned fit wants 32 granule-aligned: only some fit. */
		got = gen_pool_alloc_algo(pool, size, algos[_i], data);
		if (_i == ORDER && ((a - base) >> 3) % 4) {
			EXPECT_EQ(got, 0);
			got = gen_pool_alloc(pool, size);
		}
		EXPECT_EQ(got, a);
		ck_assert_int_eq(gen_pool_check(pool), 0);
	}
	for (i = 0; i < nblocks; i++)
		gen_pool_free(pool, base + i * size, size);
	gen_pool_destroy(pool);
}
END_TEST

/* Chunks whose sizes end on and around word, leaf and node boundaries,
 * at unaligned bases; the checker runs after every step. */
START_TEST(indexed_pool_places_as_the_kernel)
{
	unsigned long long rng = 0xbeef + (unsigned long long)_i;
	int order = (int)(_i % 4), steps = long_run() ? 20000 : 2500, s;
	unsigned long base = 0x100000;
	struct twin t;
	size_t c;

	twin_init(&t, order);
	for (c = 0; c < 4; c++) {
		unsigned long g = awkward[(c * 5 + (size_t)_i) % NR_AWKWARD] + 1;

		twin_add(&t, base + ((unsigned long)c << order) * 3, g << order);
		base += (g << order) + 0x10000;
	}
	for (s = 0; s < steps; s++) {
		twin_step(&t, &rng, 3000);
		if (s % 7 == 0 || !long_run())
			ck_assert_int_eq(gen_pool_check(t.ix), 0);
	}
	twin_drain(&t);
}
END_TEST

/* A pool of order-aligned fit with chunks big enough to keep hints (cases
 * 0 and 1), or too small for them but keeping the grid-point map, which
 * requests of over 256 granules search (2 and 3), one added before the
 * algorithm is set and one after; every algorithm still runs on them, and
 * the checker verifies the hints and the map. */
START_TEST(order_aligned_pool_with_hints_places_as_the_kernel)
{
	unsigned long long rng = 0x0dd + (unsigned long long)_i;
	const unsigned long g = _i < 2 ? MODERN_INDEX_HINT_MIN_BITS + 77 : (1UL << 17) + 77;
	int order = (int)_i % 2, steps = long_run() ? 30000 : 5000, s;
	struct twin t;

	ck_assert(modern_index_hints_fit(g) == (_i < 2));
	twin_init(&t, order);
	twin_add(&t, 0x100000, g << order);
	gen_pool_set_algo(t.ix, gen_pool_first_fit_order_align, NULL);
	twin_add(&t, 0x100000 + (g << order) + 0x1000, g << order);
	for (s = 0; s < steps; s++) {
		twin_step(&t, &rng, _i < 2 ? 5000 : 40000);
		if (s % 50 == 0)
			ck_assert_int_eq(gen_pool_check(t.ix), 0);
	}
	twin_drain(&t);
}
END_TEST

/* The same with gen_pool_first_fit_align at one alignment: the fixed grid
 * family of the hints (a page: 512 granules at order 3, 256 at order 4),
 * or on chunks too small for them the grid-point map (a page and four at
 * order 3: grids of one block and of four). */
static const struct {
	int order;
	unsigned long granules;
	unsigned long align;
} aligned_cases[] = {
	{ 3, MODERN_INDEX_HINT_MIN_BITS + 77, 4096 },
	{ 4, MODERN_INDEX_HINT_MIN_BITS + 77, 4096 },
	{ 3, 1UL << 17, 4096 },
	{ 3, (1UL << 17) + 77, 16384 },
};

START_TEST(aligned_pool_with_hints_places_as_the_kernel)
{
	unsigned long long rng = 0xa11 + (unsigned long long)_i;
	const unsigned long g = aligned_cases[_i].granules;
	int order = aligned_cases[_i].order, steps = long_run() ? 30000 : 5000, s;
	struct genpool_data_align al = { .align = aligned_cases[_i].align };
	struct twin t;

	twin_init(&t, order);
	gen_pool_set_algo(t.ix, gen_pool_first_fit_align, &al);
	gen_pool_set_algo(t.lin, gen_pool_first_fit_align, &al);
	twin_add(&t, 0x100000, g << order);
	for (s = 0; s < steps; s++) {
		if (!twin_free_some(&t, &rng))
			twin_alloc(&t, 1 + test_rng_below(&rng, 1UL << test_rng_below(&rng, 17)),
				   gen_pool_first_fit_align, &al);
		if (s % 50 == 0)
			ck_assert_int_eq(gen_pool_check(t.ix), 0);
	}
	twin_drain(&t);
}
END_TEST

/* Many small chunks, added in shuffled address order: the answer may be in
 * any of them, and frees must find theirs. */
START_TEST(many_chunks_place_as_the_kernel)
{
	unsigned long long rng = 4242;
	struct twin t;
	int c, s;

	twin_init(&t, 3);
	for (c = 0; c < 1000; c++)
		twin_add(&t, 0x1000000 + (unsigned long)((c * 617) % 1000) * 0x10000,
			 (size_t)(64 + test_rng_below(&rng, 4096)) * 8);
	for (s = 0; s < 3000; s++)
		twin_step(&t, &rng, 2000);
	ck_assert_int_eq(gen_pool_check(t.ix), 0);
	twin_drain(&t);
}
END_TEST

/*
 * Many chunks and aligned requests, most of them of one family (loop 0:
 * a page, 1: 64 bytes, 2: order-aligned), so that the directory aims its
 * second tree at it (chunkdir.c), which must skip only chunks that hold no
 * window.  A third of the chunks start off the page, where the memo does
 * not apply; the other families' requests keep re-aiming it.  The checker
 * compares both trees with the chunks' indexes.
 */
START_TEST(many_chunks_aligned_place_as_the_kernel)
{
	unsigned long long rng = 0xa11 + (unsigned long long)_i;
	struct genpool_data_align page = { .align = 4096 }, small = { .align = 64 };
	struct genpool_data_align *main_align = _i == 1 ? &small : &page;
	struct twin t;
	size_t size;
	int c, s, k;

	twin_init(&t, 3);
	for (c = 0; c < 200; c++)
		twin_add(&t, 0x1000000 + (unsigned long)((c * 37) % 200) * 0x10000 +
				     (c % 3 ? 0 : 8 * (unsigned long)(1 + c % 5)),
			 (size_t)(64 + test_rng_below(&rng, 2048)) * 8);
	for (s = 0; s < 6000; s++) {
		if (twin_free_some(&t, &rng))
			continue;
		size = 1 + test_rng_below(&rng, test_rng_below(&rng, 4) ? 200 : 6000);
		k = (int)test_rng_below(&rng, 20);
		if (k < 17)
			twin_alloc(&t, size, _i == 2 ? gen_pool_first_fit_order_align
						 : gen_pool_first_fit_align, main_align);
		else if (k == 17)
			twin_alloc(&t, size, gen_pool_first_fit_align, _i == 1 ? &page : &small);
		else if (k == 18)
			twin_alloc(&t, size, _i == 2 ? gen_pool_first_fit_align
						 : gen_pool_first_fit_order_align, &page);
		else
			twin_alloc(&t, size, gen_pool_first_fit, NULL);
		if (s % 50 == 0)
			ck_assert_int_eq(gen_pool_check(t.ix), 0);
	}
	twin_drain(&t);
}
END_TEST

/*
 * Pools far fuller than the tests above make them (they keep at most 512
 * blocks live): tens of thousands of small blocks on chunks large enough
 * for several tree levels, the aligned-fit hints and the size classes'
 * rows, so that searches and rescans run through blocks holding many short
 * runs, and frees merge into such blocks.  Each case fills its pool with
 * first and best fit to its occupancy, then frees and allocates with every
 * algorithm around it; the indexed pool must answer as the kernel's
 * linear search throughout.
 */
static const struct {
	int order;
	unsigned long granules[3];	/* chunk sizes, 0 for none */
	unsigned int fill;		/* percent of the pool in use */
	unsigned int max_nr;		/* requests of 1 .. max_nr granules */
} dense_cases[] = {
	{ 3, { MODERN_INDEX_HINT_MIN_BITS + 77, 0, 0 }, 90, 64 },
	{ 0, { 70001, 131073, 600001 }, 75, 4096 },
	{ 5, { 32769, 4097, 262145 }, 95, 16 },
	{ 2, { (1UL << 20) + 3, 0, 0 }, 60, 1024 },
};

/* A request of 1 to @max_nr granules, short ones as likely as long ones
 * in the log (a power of two bound, then uniform below it), in bytes that
 * do not always fill the last granule. */
static size_t dense_size(unsigned long long *rng, unsigned int max_nr, int order)
{
	unsigned int bits = 0;
	unsigned long nr;

	while ((2U << bits) <= max_nr)
		bits++;
	nr = 1 + test_rng_below(rng, 1ULL << test_rng_below(rng, bits + 1));
	if (nr > max_nr)
		nr = max_nr;
	return (nr << order) - test_rng_below(rng, 1ULL << order);
}

static size_t in_use(struct gen_pool *pool)
{
	return gen_pool_size(pool) - gen_pool_avail(pool);
}

START_TEST(dense_pools_place_as_the_kernel)
{
	const int order = dense_cases[_i].order;
	const unsigned int max_nr = dense_cases[_i].max_nr;
	unsigned long long rng = 0xde5e + (unsigned long long)_i;
	unsigned long base = 0x100000;
	size_t target, c, total = 0;
	int steps, s;
	struct twin t;

	/* Under valgrind the fills of tens of thousands of blocks, each
	 * answered by the linear twin too, would take a minute. */
	if (getenv("GENALLOC_UNDER_VALGRIND") && dense_cases[_i].fill > 80)
		return;
	twin_init_cap(&t, order, 1 << 17);
	for (c = 0; c < 3 && dense_cases[_i].granules[c]; c++) {
		size_t bytes = dense_cases[_i].granules[c] << order;

		/* Bases off the page and off every granule grid but the pool's. */
		twin_add(&t, base + ((unsigned long)(c + 1) << order) * 5, bytes);
		base += bytes + 0x100000;
		total += bytes;
	}
	target = total / 100 * dense_cases[_i].fill;
	while (in_use(t.ix) < target && t.nlive < t.cap) {
		int before = t.nlive;

		twin_alloc(&t, dense_size(&rng, max_nr, order),
			   test_rng_below(&rng, 4) ? gen_pool_first_fit : gen_pool_best_fit, NULL);
		if (t.nlive == before)
			break;	/* nothing of that size fits any more */
	}
	ck_assert_uint_ge(t.nlive, 1000);
	ck_assert_int_eq(gen_pool_check(t.ix), 0);
	steps = long_run() ? 20000 : getenv("GENALLOC_UNDER_VALGRIND") ? 400 : 4000;
	for (s = 0; s < steps; s++) {
		if (in_use(t.ix) >= target || t.nlive == t.cap)
			twin_free_one(&t, &rng);
		else
			twin_alloc_any(&t, &rng, dense_size(&rng, max_nr, order),
				       (unsigned int)order + 8, total >> order);
		if (s % 500 == 0)
			ck_assert_int_eq(gen_pool_check(t.ix), 0);
	}
	ck_assert_uint_eq(gen_pool_avail(t.ix), gen_pool_avail(t.lin));
	twin_drain(&t);
}
END_TEST

/*
 * Best fit on a chunk of 2^27 granules: holes carved far apart, so that the
 * size classes' rows span several summary words.
 */
START_TEST(best_fit_across_a_big_chunk)
{
	const unsigned long base = 1UL << 32, n = 1UL << 27;
	unsigned long k, a, b;
	struct twin t;

	if (getenv("GENALLOC_UNDER_VALGRIND"))
		return;
	twin_init(&t, 0);
	twin_add(&t, base, n);
	ck_assert_uint_eq(gen_pool_alloc(t.ix, n), base);
	ck_assert_uint_eq(gen_pool_alloc(t.lin, n), base);
	for (k = 1; k < 16; k++) {
		gen_pool_free(t.ix, base + (k << 23) + 5, 1000 + 7 * (k % 5));
		gen_pool_free(t.lin, base + (k << 23) + 5, 1000 + 7 * (k % 5));
	}
	for (k = 0; k < 12; k++) {
		a = gen_pool_alloc_algo(t.ix, 990 + 3 * k, gen_pool_best_fit, NULL);
		b = gen_pool_alloc_algo(t.lin, 990 + 3 * k, gen_pool_best_fit, NULL);
		ck_assert_uint_eq(a, b);
		ck_assert_uint_ne(a, 0);
		ck_assert_int_eq(gen_pool_check(t.ix), 0);
		t.live_addr[t.nlive] = a;
		t.live_size[t.nlive++] = 990 + 3 * k;
	}
	/* Give back what lies between the holes, then the drain frees the rest. */
	for (a = 0, k = 1; k <= 16; k++) {
		b = k < 16 ? (k << 23) + 5 : n;
		gen_pool_free(t.ix, base + a, b - a);
		gen_pool_free(t.lin, base + a, b - a);
		a = b + 1000 + 7 * (k % 5);
	}
	twin_drain(&t);
}
END_TEST

/* Leaving the lock-free mode rebuilds the index from the bitmaps. */
START_TEST(switching_modes_rebuilds_the_index)
{
	struct gen_pool *pool = gen_pool_create(3, -1);
	unsigned long a, b, c;

	ck_assert_int_eq(gen_pool_add(pool, 0x10000, 64 * 1024, -1), 0);
	gen_pool_set_lockless(pool, true);
	a = gen_pool_alloc(pool, 4000);
	b = gen_pool_alloc(pool, 100);
	c = gen_pool_alloc(pool, 5000);
	gen_pool_free(pool, a, 4000);
	ck_assert_int_eq(gen_pool_check(pool), 0);	/* no index check here */
	gen_pool_set_lockless(pool, false);
	ck_assert_int_eq(gen_pool_check(pool), 0);	/* rebuilt: exact */
	ck_assert_uint_eq(gen_pool_alloc(pool, 4000), a);
	gen_pool_free(pool, b, 100);
	/* the 104-byte hole, not the tail after c */
	ck_assert_uint_eq(gen_pool_alloc_algo(pool, 8, gen_pool_best_fit, NULL), b);
	ck_assert_int_eq(gen_pool_check(pool), 0);
	gen_pool_free(pool, a, 4000);
	gen_pool_free(pool, b, 8);
	gen_pool_free(pool, c, 5000);
	ck_assert_uint_eq(gen_pool_avail(pool), 64 * 1024);
	gen_pool_set_lockless(pool, false);	/* already indexed: no-op */
	ck_assert_int_eq(gen_pool_check(pool), 0);
	gen_pool_destroy(pool);
	capture_errors();
	gen_pool_set_lockless(NULL, true);
	ck_assert_error(GENALLOC_WARN, GENALLOC_EINVAL);
}
END_TEST

/* A user algorithm still gets the bitmap, and the index learns what it took. */
static unsigned long last_fit(unsigned long *map, unsigned long size, unsigned long start,
			      unsigned int nr, void *data, struct gen_pool *pool,
			      unsigned long start_addr)
{
	unsigned long i;

	(void)start; (void)data; (void)pool; (void)start_addr;
	for (i = size - nr + 1; i-- > 0;)
		if (modern_find_next_bit(map, i + nr, i) >= i + nr)
			return i;
	return size;
}

START_TEST(user_algorithm_updates_the_index)
{
	struct gen_pool *pool = gen_pool_create(0, -1);

	ck_assert_int_eq(gen_pool_add(pool, 0x1000, 1000, -1), 0);
	ck_assert_uint_eq(gen_pool_alloc_algo(pool, 10, last_fit, NULL), 0x1000 + 990);
	ck_assert_int_eq(gen_pool_check(pool), 0);
	ck_assert_uint_eq(gen_pool_alloc(pool, 990), 0x1000);
	ck_assert_uint_eq(gen_pool_alloc(pool, 1), 0);
	ck_assert_uint_eq(gen_pool_alloc_algo(pool, 1, last_fit, NULL), 0);
	ck_assert_int_eq(gen_pool_check(pool), 0);
	gen_pool_free(pool, 0x1000, 1000);
	gen_pool_destroy(pool);
}
END_TEST

Suite *modern_index_suite(void)
{
	Suite *s = suite_create("modern_index");
	TCase *tc = tcase_create("index");

	tcase_add_loop_test(tc, queries_match_linear_search, 0, (int)NR_AWKWARD);
	tcase_add_loop_test(tc, claims_with_known_run_stay_exact, 0, (int)NR_AWKWARD);
	tcase_add_loop_test(tc, saturated_leaves_stay_exact, 0, 2);
	tcase_add_test(tc, an_aligned_miss_is_remembered_until_a_release_makes_room);
	tcase_add_test(tc, single_bit_updates_stay_exact);
	tcase_add_loop_test(tc, a_pending_rise_is_seen_by_every_search, 0, (int)NR_AWKWARD);
	tcase_add_loop_test(tc, a_freed_block_of_a_full_pool_comes_back, 0, NALGOS);
	tcase_add_test(tc, order_hints_learn_and_are_raised);
	tcase_add_test(tc, order_hints_turn_on_when_searches_waste_blocks);
	tcase_add_loop_test(tc, order_hint_tree_finds_the_next_block, 0, 8);
	tcase_add_test(tc, bookkeeping_within_an_eighth_of_the_bitmap);
	tcase_add_loop_test(tc, indexed_pool_places_as_the_kernel, 0, 8);
	tcase_add_loop_test(tc, order_aligned_pool_with_hints_places_as_the_kernel, 0, 4);
	tcase_add_loop_test(tc, aligned_pool_with_hints_places_as_the_kernel, 0,
			    (int)(sizeof(aligned_cases) / sizeof(aligned_cases[0])));
	tcase_add_test(tc, many_chunks_place_as_the_kernel);
	tcase_add_loop_test(tc, many_chunks_aligned_place_as_the_kernel, 0, 3);
	tcase_add_test(tc, switching_modes_rebuilds_the_index);
	tcase_add_test(tc, user_algorithm_updates_the_index);
	suite_add_tcase(s, tc);
	/* Its linear twin and its checks read a 16 MiB bitmap at every step:
	 * 4 s at -O0 with coverage, Check's whole default allowance.  The
	 * dense pools' first case, on a chunk of 2^20 granules so that it
	 * keeps hints, takes about 30 s there. */
	tc = tcase_create("big_chunk");
	tcase_set_timeout(tc, 90);
	tcase_add_test(tc, best_fit_across_a_big_chunk);
	tcase_add_loop_test(tc, dense_pools_place_as_the_kernel, 0,
			    (int)(sizeof(dense_cases) / sizeof(dense_cases[0])));
	suite_add_tcase(s, tc);
	return s;
}
