// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * test/modern/test_sizeclass.c - the size classes behind indexed best fit
 * (modern/sizeclass.c), where they differ from a plain search: classes that
 * hold more runs than their heads, so heads empty, refill and move their
 * horizons; runs created below a horizon; stale row marks; and the memory
 * they may take.
 *
 * Every answer is checked against gen_pool_best_fit() on the same bitmap,
 * and modern_index_verify() (which verifies the size classes: heads,
 * horizons, counts, rows) after every change.
 */
#include <stdlib.h>
#include <string.h>

#include "../support.h"
#include "modern/bitmap_internal.h"
#include "modern/genalloc.h"
#include "modern/index_internal.h"
#include "modern/sizeclass_internal.h"

#define BLOCK 16384UL	/* granules per row bit in sizeclass.c */

/* A bitmap, its index, and the size classes (built by the first query). */
struct chunk {
	unsigned long *map;
	unsigned long nbits;
	struct modern_index *ix;
};

static void chunk_init(struct chunk *ch, unsigned long nbits)
{
	ch->nbits = nbits;
	ch->map = calloc(modern_bits_to_longs(nbits), sizeof(long));
	ck_assert_ptr_nonnull(ch->map);
	/* All used: tests carve the free runs they want. */
	modern_bitmap_set(ch->map, 0, nbits);
	ch->ix = modern_index_create(ch->map, nbits);
	ck_assert_ptr_nonnull(ch->ix);
}

static void chunk_fini(struct chunk *ch)
{
	modern_index_destroy(ch->ix);
	free(ch->map);
}

static void release(struct chunk *ch, unsigned long start, unsigned long nr)
{
	modern_bitmap_clear(ch->map, start, nr);
	modern_index_update(ch->ix, ch->map, start, nr);
}

static void claim(struct chunk *ch, unsigned long start, unsigned long nr)
{
	modern_bitmap_set(ch->map, start, nr);
	modern_index_update(ch->ix, ch->map, start, nr);
}

static unsigned long linear_best(struct chunk *ch, unsigned long nr)
{
	unsigned long r = gen_pool_best_fit(ch->map, ch->nbits, 0, (unsigned int)nr, NULL, NULL, 0);

	return r < ch->nbits ? r : MODERN_INDEX_NONE;
}

/* Best fit's answer @at and the run end it gave: the end of the maximal
 * free run that @at starts. */
static void check_run(const struct chunk *ch, unsigned long at, unsigned long end)
{
	const unsigned long bpl = 8 * sizeof(long);

	ck_assert(at == 0 || (ch->map[(at - 1) / bpl] >> ((at - 1) % bpl) & 1));
	EXPECT_EQ(end, modern_find_next_bit(ch->map, ch->nbits, at));
}

/* Best fit of @nr as the kernel finds it, claimed as the pool claims it,
 * with the run's end the search gave; the index must agree. */
static unsigned long take(struct chunk *ch, unsigned long nr)
{
	unsigned long want = linear_best(ch, nr), end = MODERN_INDEX_NONE;

	EXPECT_EQ(modern_best_fit(ch->ix, ch->map, nr, &end), want);
	if (want != MODERN_INDEX_NONE) {
		check_run(ch, want, end);
		modern_bitmap_set(ch->map, want, nr);
		modern_index_claim_run(ch->ix, ch->map, want, nr, end, 0);
	}
	ck_assert(modern_index_verify(ch->ix, ch->map));
	return want;
}

/* Forty runs of 5 granules, three blocks apart and more: the one-length
 * class holds five times its head, so it refills from its horizon on. */
START_TEST(one_length_class_sweeps_in_address_order)
{
	struct chunk ch;
	unsigned long i, at[40];

	chunk_init(&ch, 41 * 3 * BLOCK / 2 + 77);
	for (i = 0; i < 40; i++) {
		at[i] = i * 3 * BLOCK / 2 + 11 * i;
		release(&ch, at[i], 5);
	}
	for (i = 0; i < 20; i++)
		EXPECT_EQ(take(&ch, 5), at[i]);
	/* Below the horizon now: a new run of the class is first again, and
	 * one at the far end waits its turn. */
	release(&ch, 3, 5);
	release(&ch, ch.nbits - 5, 5);
	EXPECT_EQ(take(&ch, 5), 3);
	for (i = 20; i < 40; i++)
		EXPECT_EQ(take(&ch, 5), at[i]);
	EXPECT_EQ(take(&ch, 5), ch.nbits - 5);
	EXPECT_EQ(take(&ch, 5), MODERN_INDEX_NONE);
	chunk_fini(&ch);
}
END_TEST

/* Sixty runs of 64 .. 79 granules (one class), scattered over the chunk in
 * shuffled lengths: requests in the middle of the class need the shortest
 * run that holds them, which is usually not in the head. */
START_TEST(wide_class_finds_the_shortest_that_holds)
{
	unsigned long long rng = 0x5c1a55 + (unsigned long long)_i;
	struct chunk ch;
	unsigned long i, k, nr, at[80], len[80];
	unsigned int n = 0;

	chunk_init(&ch, 64 * BLOCK / 4 * (1 + (unsigned long)_i) + 333);
	for (i = 0; i < 60; i++)
		release(&ch, i * (ch.nbits / 61) + test_rng_below(&rng, 200),
			64 + test_rng_below(&rng, 16));
	for (i = 0; i < 80; i++) {
		nr = 64 + test_rng_below(&rng, 16);
		at[n] = take(&ch, nr);
		if (at[n] == MODERN_INDEX_NONE)
			break;
		len[n++] = nr;
		/* Now and then an earlier claim goes back: a run of the
		 * class again, often below the horizon. */
		if (test_rng_below(&rng, 3) == 0) {
			k = test_rng_below(&rng, n);
			release(&ch, at[k], len[k]);
			at[k] = at[--n];
			len[k] = len[n];
		}
	}
	ck_assert(modern_index_verify(ch.ix, ch.map));
	chunk_fini(&ch);
}
END_TEST

/* Runs that merge or split away leave stale marks; queries must step over
 * them and the checker must still accept the classes. */
START_TEST(stale_marks_are_harmless)
{
	struct chunk ch;
	unsigned long b;

	chunk_init(&ch, 12 * BLOCK);
	for (b = 0; b < 12; b++)
		release(&ch, b * BLOCK + 100, 70);
	EXPECT_EQ(take(&ch, 70), 100);
	/* Grow every other run out of its class, then shrink it back. */
	for (b = 1; b < 12; b += 2) {
		release(&ch, b * BLOCK + 170, 4000);
		claim(&ch, b * BLOCK + 170, 4000);
	}
	for (b = 0; b < 12; b += 2)
		release(&ch, b * BLOCK + 170, 30);	/* 70 + 30: another class */
	ck_assert(modern_index_verify(ch.ix, ch.map));
	for (b = 1; b < 12; b += 2)
		EXPECT_EQ(take(&ch, 66), b * BLOCK + 100);
	EXPECT_EQ(take(&ch, 66), 2 * BLOCK + 100);
	EXPECT_EQ(take(&ch, 100), 4 * BLOCK + 100);
	chunk_fini(&ch);
}
END_TEST

/* Twenty runs of 100 granules in the first row word of their class and
 * twenty of 101 far beyond: refills must reach the far ones, across a row
 * of 4 words read whole or of 11 read through its summary, and clear the
 * first word entirely once its runs are used. */
START_TEST(refills_cross_and_clear_row_words)
{
	unsigned long blocks = _i ? 700 : 230, far = blocks - 30, b;
	struct chunk ch;

	chunk_init(&ch, blocks * BLOCK);
	for (b = 0; b < 20; b++) {
		release(&ch, b * BLOCK + 1000, 100);
		release(&ch, (far + b) * BLOCK + 1000, 101);
	}
	for (b = 0; b < 20; b++)
		EXPECT_EQ(take(&ch, 100), b * BLOCK + 1000);
	for (b = 0; b < 20; b++)
		EXPECT_EQ(take(&ch, 100), (far + b) * BLOCK + 1000);
	EXPECT_EQ(take(&ch, 100), MODERN_INDEX_NONE);
	chunk_fini(&ch);
}
END_TEST

/* The checker is only worth its name if it notices a map the classes were
 * not told about; and a request longer than every run finds nothing. */
START_TEST(verify_notices_untold_changes)
{
	struct chunk ch;
	struct modern_sizeclass *sc;
	unsigned long end;

	chunk_init(&ch, 2 * BLOCK + 9);
	release(&ch, 10, 200);
	release(&ch, BLOCK + 5, 7);
	sc = modern_sc_create(ch.map, ch.nbits);
	ck_assert_ptr_nonnull(sc);
	ck_assert(modern_sc_verify(sc, ch.map));
	end = 0;
	EXPECT_EQ(modern_sc_best_fit(sc, ch.ix, ch.map, 201, &end), MODERN_INDEX_NONE);
	EXPECT_EQ(end, 0);	/* no run: untouched */
	EXPECT_EQ(modern_sc_best_fit(sc, ch.ix, ch.map, 7, &end), BLOCK + 5);
	EXPECT_EQ(end, BLOCK + 12);
	modern_bitmap_set(ch.map, 10, 3);		/* the head's run shrank */
	ck_assert(!modern_sc_verify(sc, ch.map));
	modern_bitmap_clear(ch.map, 10, 3);
	modern_bitmap_clear(ch.map, BLOCK + 12, 1);	/* 7 became 8 */
	ck_assert(!modern_sc_verify(sc, ch.map));
	modern_bitmap_set(ch.map, BLOCK + 12, 1);
	modern_bitmap_clear(ch.map, 2 * BLOCK, 3);	/* a run nobody counted */
	ck_assert(!modern_sc_verify(sc, ch.map));
	modern_bitmap_set(ch.map, 2 * BLOCK, 3);
	ck_assert(modern_sc_verify(sc, ch.map));
	modern_sc_destroy(sc);
	chunk_fini(&ch);
}
END_TEST

/* Random claims and releases on a chunk big enough for long heads (and a
 * small one with the least room), every answer the kernel's. */
START_TEST(random_traffic_matches_the_kernel)
{
	static const unsigned long sizes[] = { 3 * BLOCK + 5, 1UL << 22 };
	unsigned long long rng = 0xbe57 + (unsigned long long)_i;
	unsigned long nbits = sizes[_i], nr, at, len, end, step, steps = _i ? 600 : 3000;
	const char *vg = getenv("GENALLOC_UNDER_VALGRIND");
	unsigned long live_at[256], live_len[256];
	unsigned int nlive = 0, k;
	struct chunk ch;

	if (vg && *vg == '1')
		steps /= 5;
	chunk_init(&ch, nbits);
	release(&ch, 0, nbits);
	for (step = 0; step < steps; step++) {
		if (nlive == 256 || (nlive && test_rng_below(&rng, 2))) {
			k = (unsigned int)test_rng_below(&rng, nlive);
			release(&ch, live_at[k], live_len[k]);
			live_at[k] = live_at[--nlive];
			live_len[k] = live_len[nlive];
		} else {
			len = 1UL << test_rng_below(&rng, _i ? 15 : 10);
			nr = 1 + test_rng_below(&rng, len);
			at = linear_best(&ch, nr);
			EXPECT_EQ(modern_best_fit(ch.ix, ch.map, nr, &end), at);
			if (at != MODERN_INDEX_NONE) {
				check_run(&ch, at, end);
				claim(&ch, at, nr);
				live_at[nlive] = at;
				live_len[nlive++] = nr;
			}
		}
		if (step % (_i ? 50 : 10) == 0)
			ck_assert(modern_index_verify(ch.ix, ch.map));
	}
	ck_assert(modern_index_verify(ch.ix, ch.map));
	chunk_fini(&ch);
}
END_TEST

/* The run index and the size classes together stay within 1/8 of the
 * bitmap from 2^21 granules up, 2^21 + 1 included (below, the classes'
 * fixed part dominates) and use nearly all of it, and from 2^24 up the
 * classes double with the chunk: their heads keep pace with the runs,
 * which double too. */
START_TEST(run_index_and_classes_within_an_eighth)
{
	unsigned long nbits;

	for (nbits = 1UL << 21; nbits <= 1UL << 31; nbits <<= 1) {
		size_t bitmap = modern_bits_to_longs(nbits) * sizeof(long);

		ck_assert_uint_le((modern_index_bytes(nbits) + modern_sc_bytes(nbits)) * 8, bitmap);
		ck_assert_uint_le((modern_index_bytes(nbits + 1) + modern_sc_bytes(nbits + 1)) * 8,
				  bitmap + sizeof(long));
		/* ... and spend it: the heads get what the rest leaves. */
		ck_assert_uint_ge((modern_index_bytes(nbits) + modern_sc_bytes(nbits)) * 8 * 100,
				  bitmap * 95);
		if (nbits >= 1UL << 25)
			ck_assert_uint_ge(modern_sc_bytes(nbits) * 10,
					  modern_sc_bytes(nbits / 2) * 19);
	}
	/* Classes longer than the chunk cost nothing: a chunk of one granule
	 * pays for its one class, and 2^16 granules for 111 of the 167. */
	ck_assert_uint_le(modern_sc_bytes(1), 4 * 1024);
	ck_assert_uint_le(modern_sc_bytes(1UL << 16), 6 * 1024 + 512);
}
END_TEST

Suite *modern_sizeclass_suite(void)
{
	Suite *s = suite_create("modern_sizeclass");
	TCase *tc = tcase_create("sizeclass");

	tcase_add_test(tc, one_length_class_sweeps_in_address_order);
	tcase_add_loop_test(tc, wide_class_finds_the_shortest_that_holds, 0, 3);
	tcase_add_test(tc, stale_marks_are_harmless);
	tcase_add_loop_test(tc, refills_cross_and_clear_row_words, 0, 2);
	tcase_add_test(tc, verify_notices_untold_changes);
	tcase_add_loop_test(tc, random_traffic_matches_the_kernel, 0, 2);
	tcase_add_test(tc, run_index_and_classes_within_an_eighth);
	suite_add_tcase(s, tc);
	return s;
}
