// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * test/modern/test_bitmap.c - the word-level bitmap primitives against
 * bit-by-bit versions, for every start and length over three words (and
 * every blocking bit for the lock-free claim).
 */
#include <string.h>

#include "../support.h"
#include "modern/bitmap_internal.h"

#define BPL MODERN_BITS_PER_LONG

/*
 * Check's assertions write a mark to the parent on every call; the loops
 * below make millions of comparisons, so they only call Check on failure
 * (EXPECT_EQ() in ../support.h, and this).
 */
#define EXPECT_MEM_EQ(a, b) \
	do { if (memcmp((a), (b), sizeof(a))) ck_abort_msg("%s differs from %s", #a, #b); } while (0)
#define WORDS 3
#define NBITS (WORDS * BPL)

static int naive_test(const unsigned long *map, unsigned long bit)
{
	return (map[bit / BPL] >> (bit % BPL)) & 1;
}

static void naive_assign(unsigned long *map, unsigned long bit, int v)
{
	if (v)
		map[bit / BPL] |= 1UL << (bit % BPL);
	else
		map[bit / BPL] &= ~(1UL << (bit % BPL));
}

static unsigned long naive_find(const unsigned long *map, unsigned long size,
				unsigned long start, int want)
{
	for (; start < size; start++)
		if (naive_test(map, start) == want)
			return start;
	return size;
}

/* The first @nr-long clear run at or after @start whose first bit plus
 * @off is a multiple of @mask + 1. */
static unsigned long naive_area(const unsigned long *map, unsigned long size,
				unsigned long start, unsigned long nr,
				unsigned long mask, unsigned long off)
{
	unsigned long i, j;

	for (i = start; i + nr <= size; i++) {
		if ((i + off) & mask)
			continue;
		for (j = 0; j < nr && !naive_test(map, i + j); j++)
			;
		if (j == nr)
			return i;
	}
	return size + 1;	/* any value > size */
}

/* Patterns that exercise word edges: empty, full, sparse, dense, stripes. */
static void fill_pattern(unsigned long *map, int which)
{
	unsigned long long rng = 0x9e3779b97f4a7c15ULL + (unsigned long long)which;
	unsigned long i;

	for (i = 0; i < WORDS; i++) {
		switch (which) {
		case 0: map[i] = 0; break;
		case 1: map[i] = ~0UL; break;
		case 2: map[i] = 1UL << (BPL - 1) | 1UL; break;
		case 3: map[i] = 0x00ff00ff00ff00ffUL & ~0UL; break;
		case 4: map[i] = i == 1 ? ~0UL : 0; break;
		default:
			map[i] = (unsigned long)test_rng_next(&rng) &
				 (unsigned long)test_rng_next(&rng);
			break;
		}
	}
}

#define NPATTERNS 9

START_TEST(find_next_bit_matches_naive)
{
	unsigned long map[WORDS], size, start;
	int p;

	for (p = 0; p < NPATTERNS; p++) {
		fill_pattern(map, p);
		for (size = 0; size <= NBITS; size++)
			for (start = 0; start <= size + 1; start++) {
				EXPECT_EQ(modern_find_next_bit(map, size, start),
						  naive_find(map, size, start, 1));
				EXPECT_EQ(modern_find_next_zero_bit(map, size, start),
						  naive_find(map, size, start, 0));
			}
	}
}
END_TEST

START_TEST(set_and_clear_every_range)
{
	unsigned long map[WORDS], want[WORDS], start, nr, i;

	for (start = 0; start <= NBITS; start++)
		for (nr = 0; start + nr <= NBITS; nr++) {
			memset(map, 0, sizeof(map));
			memset(want, 0, sizeof(want));
			modern_bitmap_set(map, start, nr);
			for (i = start; i < start + nr; i++)
				naive_assign(want, i, 1);
			EXPECT_MEM_EQ(map, want);
			EXPECT_EQ(modern_bitmap_weight(map, NBITS), nr);
			if (nr) {
				ck_assert(modern_bitmap_all_set(map, start, nr));
				/* one clear bit anywhere in the range is seen */
				naive_assign(map, start + nr / 2, 0);
				ck_assert(!modern_bitmap_all_set(map, start, nr));
				ck_assert(nr == 1 || modern_bitmap_all_set(map, start, nr / 2));
			}
			memset(map, 0xff, sizeof(map));
			memset(want, 0xff, sizeof(want));
			modern_bitmap_clear(map, start, nr);
			for (i = start; i < start + nr; i++)
				naive_assign(want, i, 0);
			EXPECT_MEM_EQ(map, want);
			EXPECT_EQ(modern_bitmap_weight(map, start + nr),
					  start);
		}
}
END_TEST

/*
 * The indexed free's check-and-clear, over enough words for two steps of
 * its eight-word loop (a hole in the second step undoes the first) and the
 * scalar words after it: it clears exactly the range when all of it is set
 * (whatever the bits around it), and with any one bit of the range clear
 * it refuses and leaves the map as it was.
 */
#define BIG_WORDS 20

static void release_refused_with_hole(const unsigned long *full, unsigned long start,
				      unsigned long nr, unsigned long hole)
{
	unsigned long map[BIG_WORDS], before[BIG_WORDS];

	memcpy(map, full, sizeof(map));
	naive_assign(map, hole, 0);
	memcpy(before, map, sizeof(map));
	if (modern_bitmap_release_excl(map, start, nr))
		ck_abort_msg("released [%lu, +%lu) with bit %lu clear", start, nr, hole);
	EXPECT_MEM_EQ(map, before);
}

START_TEST(release_excl_every_range_and_hole)
{
	unsigned long map[BIG_WORDS], full[BIG_WORDS], want[BIG_WORDS], start, nr;
	const unsigned long nbits = BIG_WORDS * BPL;

	for (start = 0; start < 2 * BPL; start++)
		for (nr = 1; start + nr <= nbits; nr++) {
			/* alternating bits outside the range: neither needed nor touched */
			memset(full, 0x55, sizeof(full));
			modern_bitmap_set(full, start, nr);
			memcpy(want, full, sizeof(want));
			modern_bitmap_clear(want, start, nr);
			memcpy(map, full, sizeof(map));
			if (!modern_bitmap_release_excl(map, start, nr))
				ck_abort_msg("refused [%lu, +%lu) all set", start, nr);
			EXPECT_MEM_EQ(map, want);
			release_refused_with_hole(full, start, nr, start);
			release_refused_with_hole(full, start, nr, start + nr / 2);
			release_refused_with_hole(full, start, nr, start + nr - 1);
			if (nr > 2 * BPL)
				release_refused_with_hole(full, start, nr, start + nr - 1 - BPL);
		}
}
END_TEST

/*
 * The claim stops at the first word holding a set bit of the range and
 * returns the bits from that word on; earlier words are fully claimed.
 */
static unsigned long naive_set_ll(unsigned long *want, unsigned long start,
				  unsigned long nr, unsigned long blocker)
{
	unsigned long i, end = start + nr;

	if (blocker >= start && blocker < end) {
		unsigned long stop = blocker / BPL * BPL;

		if (stop < start)
			stop = start;
		for (i = start; i < stop; i++)
			naive_assign(want, i, 1);
		return end - stop;
	}
	for (i = start; i < end; i++)
		naive_assign(want, i, 1);
	return 0;
}

START_TEST(set_ll_and_clear_ll_every_range_and_blocker)
{
	unsigned long map[WORDS], want[WORDS], start, nr, b, r, i;

	for (start = 0; start < NBITS; start++)
		for (nr = 1; start + nr <= NBITS; nr++)
			for (b = 0; b <= NBITS; b += (b % BPL == 0 || b % BPL >= BPL - 2) ? 1 : 7) {
				/* b == NBITS: no blocker at all */
				memset(map, 0, sizeof(map));
				if (b < NBITS)
					naive_assign(map, b, 1);
				memcpy(want, map, sizeof(map));
				r = naive_set_ll(want, start, nr, b);
				EXPECT_EQ(modern_bitmap_set_ll(map, start, nr), r);
				EXPECT_MEM_EQ(map, want);
				/* roll back what was claimed: must fully succeed */
				EXPECT_EQ(modern_bitmap_clear_ll(map, start, nr - r), 0);
				for (i = start; i < start + nr - r; i++)
					naive_assign(want, i, 0);
				EXPECT_MEM_EQ(map, want);
				/* release of a range with a hole stops at the hole's word */
				memset(map, 0xff, sizeof(map));
				if (b < NBITS)
					naive_assign(map, b, 0);
				memcpy(want, map, sizeof(map));
				for (i = 0; i < WORDS; i++)
					want[i] = ~want[i];
				r = naive_set_ll(want, start, nr, b);
				for (i = 0; i < WORDS; i++)
					want[i] = ~want[i];
				EXPECT_EQ(modern_bitmap_clear_ll(map, start, nr), r);
				EXPECT_MEM_EQ(map, want);
			}
}
END_TEST

START_TEST(zero_area_matches_naive)
{
	static const unsigned long nrs[] = { 1, 2, 3, 5, 8, 31, 32, 33, 63, 64, 65, 100, 129 };
	static const unsigned long masks[] = { 0, 1, 3, 15, 63, 127 };
	unsigned long map[WORDS], size, start, got, want, off;
	unsigned int n, m, o;
	int p;

	for (p = 0; p < NPATTERNS; p++) {
		fill_pattern(map, p);
		for (size = NBITS - 62; size <= NBITS; size += 31)
			for (start = 0; start <= size; start++)
				for (n = 0; n < sizeof(nrs) / sizeof(nrs[0]); n++)
					for (m = 0; m < sizeof(masks) / sizeof(masks[0]); m++)
						for (o = 0; o < 3; o++) {
							off = o == 0 ? 0 : o == 1 ? masks[m] / 2 + (masks[m] > 0) : masks[m];
							got = modern_bitmap_find_next_zero_area_off(
								map, size, start, nrs[n], masks[m], off);
							want = naive_area(map, size, start, nrs[n], masks[m], off);
							if (want > size ? got <= size : got != want)
								ck_abort_msg("area(p%d, size %lu, start %lu, nr %lu, mask %lu, off %lu) = %lu, want %lu",
									     p, size, start, nrs[n], masks[m], off, got, want);
						}
	}
}
END_TEST

START_TEST(weight_counts_only_the_size)
{
	unsigned long map[WORDS], size, i, n;
	int p;

	for (p = 0; p < NPATTERNS; p++) {
		fill_pattern(map, p);
		for (size = 0; size <= NBITS; size++) {
			for (n = 0, i = 0; i < size; i++)
				n += (unsigned long)naive_test(map, i);
			EXPECT_EQ(modern_bitmap_weight(map, size), n);
		}
	}
	EXPECT_EQ(modern_bits_to_longs(0), 0);
	EXPECT_EQ(modern_bits_to_longs(1), 1);
	EXPECT_EQ(modern_bits_to_longs(BPL), 1);
	EXPECT_EQ(modern_bits_to_longs(BPL + 1), 2);
}
END_TEST

Suite *modern_bitmap_suite(void)
{
	Suite *s = suite_create("modern_bitmap");
	TCase *tc = tcase_create("exhaustive");

	tcase_add_test(tc, find_next_bit_matches_naive);
	tcase_add_test(tc, set_and_clear_every_range);
	tcase_add_test(tc, release_excl_every_range_and_hole);
	tcase_add_test(tc, set_ll_and_clear_ll_every_range_and_blocker);
	tcase_add_test(tc, zero_area_matches_naive);
	tcase_add_test(tc, weight_counts_only_the_size);
	suite_add_tcase(s, tc);
	return s;
}
