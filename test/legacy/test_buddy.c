// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * test/legacy/test_buddy.c - placement of the 2005 buddy allocator, address
 * for address: splits, merges across orders, LIFO lists, growth through the
 * callback, prefill, donation, oversize requests and the creation limits.
 *
 * The chunk size is 4 KiB (max_chunk_shift 12): orders 0 (32 bytes) to 7.
 */
#include <unistd.h>

#include "../support.h"
#include "chunks.h"
#include "model2005.h"

static struct chunk_supply cs;
static struct gen_pool *pool;
static unsigned long C;		/* the first chunk */

static void setup(void)
{
	chunk_supply_init(&cs, 12, 4);
	C = chunk_at(&cs, 0);
	pool = supply_pool(&cs, 0);
}

static void teardown(void)
{
	assert_consistent(pool);
	if (!pool_live_bytes(pool))
		legacy_gen_pool_destroy(pool);
}

static void assert_free_counts(const unsigned long *want, int n)
{
	struct legacy_gen_pool_stats st;

	legacy_gen_pool_stats(pool, &st);
	for (int i = 0; i < n; i++)
		ck_assert_msg(st.nr_free[i] == want[i], "order %d: %lu free blocks, want %lu",
			      i, st.nr_free[i], want[i]);
}

START_TEST(first_alloc_splits_a_new_chunk)
{
	static const unsigned long one_each[8] = { 1, 1, 1, 1, 1, 1, 1, 0 };

	ck_assert_uint_eq(gen_pool_alloc(pool, 32), C);
	ck_assert_int_eq(atomic_load(&cs.calls), 1);
	assert_free_counts(one_each, 8);
	/* Each upper half went onto its list: they come back in order. */
	for (int i = 0; i < 7; i++)
		ck_assert_uint_eq(gen_pool_alloc(pool, 32 << i), C + (32UL << i));
	ck_assert_int_eq(atomic_load(&cs.calls), 1);
	assert_consistent(pool);
}
END_TEST

/* The worked example: four blocks, then frees that merge across orders. */
START_TEST(frees_merge_up_to_the_chunk)
{
	static const unsigned long after_frees[8] = { 0, 0, 1, 1, 1, 1, 1, 0 };
	static const unsigned long whole[8] = { 0, 0, 0, 0, 0, 0, 0, 1 };

	ck_assert_uint_eq(gen_pool_alloc(pool, 32), C);
	ck_assert_uint_eq(gen_pool_alloc(pool, 1), C + 32);
	ck_assert_uint_eq(gen_pool_alloc(pool, 100), C + 128);
	ck_assert_uint_eq(gen_pool_alloc(pool, 17), C + 64);	/* splits C+64 */
	assert_consistent(pool);

	gen_pool_free(pool, C + 32, 32);	/* buddy C is live: no merge */
	gen_pool_free(pool, C, 32);		/* merges with C+32 into 64 @ C */
	assert_consistent(pool);
	gen_pool_free(pool, C + 64, 17);	/* C+64+C+96 -> 64, + C -> 128 @ C */
	assert_free_counts(after_frees, 8);
	assert_consistent(pool);
	gen_pool_free(pool, C + 128, 100);	/* 128 @ C + 128 @ C+128 ... -> 4096 */
	assert_free_counts(whole, 8);
	assert_consistent(pool);
	ck_assert_uint_eq(gen_pool_alloc(pool, 4096), C);
	gen_pool_free(pool, C, 4096);
}
END_TEST

START_TEST(lists_are_lifo)
{
	unsigned long a[4];

	for (int i = 0; i < 4; i++)
		a[i] = gen_pool_alloc(pool, 32);
	ck_assert_uint_eq(a[3], C + 96);
	/* a[0] and a[2] are not buddies of each other; both buddies live. */
	gen_pool_free(pool, a[0], 32);
	gen_pool_free(pool, a[2], 32);
	ck_assert_uint_eq(gen_pool_alloc(pool, 32), a[2]);
	ck_assert_uint_eq(gen_pool_alloc(pool, 32), a[0]);
	for (int i = 0; i < 4; i++)
		gen_pool_free(pool, a[i], 32);
}
END_TEST

START_TEST(rounding_is_powers_of_two_from_32)
{
	/* 2005: s starts at 32 and doubles while size > s. */
	ck_assert_uint_eq(gen_pool_alloc(pool, 0), C);		/* size 0: 32 bytes */
	ck_assert_uint_eq(gen_pool_alloc(pool, 33), C + 64);	/* 64 */
	ck_assert_uint_eq(gen_pool_alloc(pool, 32), C + 32);
	ck_assert_uint_eq(gen_pool_alloc(pool, 65), C + 128);	/* 128 */
	/* 2049 rounds to 4096: C is split, so a new chunk is needed. */
	ck_assert_uint_eq(gen_pool_alloc(pool, 2049), chunk_at(&cs, 1));
	gen_pool_free(pool, C, 0);
	gen_pool_free(pool, C + 32, 32);
	gen_pool_free(pool, C + 64, 64);
	gen_pool_free(pool, C + 128, 128);
	ck_assert_uint_eq(gen_pool_alloc(pool, 2049), C);	/* C is whole again */
	gen_pool_free(pool, C, 4096);
	gen_pool_free(pool, chunk_at(&cs, 1), 2049);
}
END_TEST

/* The rounding is computed from the bit length of size - 1, not by the 2005
 * doubling loop (the model's m5_order): every size up to the chunk must
 * still give the block the loop gives. */
START_TEST(every_size_rounds_as_the_2005_loop)
{
	for (int size = 0; size <= 4096; size++) {
		unsigned long a = gen_pool_alloc(pool, size);
		unsigned long taken = pool_live_bytes(pool);

		ck_assert_msg(a && taken == 32UL << m5_order((unsigned long)size),
			      "size %d took %lu bytes", size, taken);
		gen_pool_free(pool, a, size);
	}
}
END_TEST

START_TEST(growth_calls_back_once_per_chunk)
{
	ck_assert_uint_eq(gen_pool_alloc(pool, 4096), C);
	ck_assert_uint_eq(gen_pool_alloc(pool, 4096), chunk_at(&cs, 1));
	ck_assert_uint_eq(gen_pool_alloc(pool, 2048), chunk_at(&cs, 2));
	ck_assert_uint_eq(gen_pool_alloc(pool, 2048), chunk_at(&cs, 2) + 2048);
	ck_assert_int_eq(atomic_load(&cs.calls), 3);
	ck_assert_uint_eq(gen_pool_alloc(pool, 4000), chunk_at(&cs, 3));
	/* The supply is dry: 0, and the callback was asked. */
	ck_assert_uint_eq(gen_pool_alloc(pool, 32), 0);
	ck_assert_int_eq(atomic_load(&cs.calls), 5);
	gen_pool_free(pool, chunk_at(&cs, 0), 4096);
	gen_pool_free(pool, chunk_at(&cs, 1), 4096);
	gen_pool_free(pool, chunk_at(&cs, 2) + 2048, 2048);
	gen_pool_free(pool, chunk_at(&cs, 2), 2048);
	gen_pool_free(pool, chunk_at(&cs, 3), 4000);
	/* Newest first: chunk 3, then the merged chunk 2. */
	ck_assert_uint_eq(gen_pool_alloc(pool, 4096), chunk_at(&cs, 3));
	ck_assert_uint_eq(gen_pool_alloc(pool, 32), chunk_at(&cs, 2));
	gen_pool_free(pool, chunk_at(&cs, 3), 4096);
	gen_pool_free(pool, chunk_at(&cs, 2), 32);
}
END_TEST

START_TEST(oversize_fails_without_callback)
{
	ck_assert_uint_eq(gen_pool_alloc(pool, 4097), 0);
	ck_assert_uint_eq(gen_pool_alloc(pool, 0x7fffffff), 0);
	ck_assert_int_eq(atomic_load(&cs.calls), 0);
	/* 2005: a free above the chunk size is ignored, silently. */
	capture_errors();
	gen_pool_free(pool, C, 4097);
	ck_assert_int_eq(errors_seen(), 0);
	ck_assert_uint_eq(pool_live_bytes(pool), 0);
}
END_TEST

START_TEST(prefill_stacks_chunks_last_first)
{
	struct gen_pool *p;
	struct legacy_gen_pool_stats st;

	legacy_gen_pool_destroy(pool);
	chunk_supply_init(&cs, 12, 4);
	pool = p = supply_pool(&cs, 3);
	ck_assert_int_eq(atomic_load(&cs.calls), 3);
	legacy_gen_pool_stats(p, &st);
	ck_assert_uint_eq(st.obtained_bytes, 3 * 4096);
	ck_assert_uint_eq(st.nr_free[7], 3);
	ck_assert_uint_eq(gen_pool_alloc(p, 4096), chunk_at(&cs, 2));
	ck_assert_uint_eq(gen_pool_alloc(p, 32), chunk_at(&cs, 1));
	ck_assert_uint_eq(gen_pool_alloc(p, 4096), chunk_at(&cs, 0));
	ck_assert_int_eq(atomic_load(&cs.calls), 3);
	ck_assert_uint_eq(gen_pool_alloc(p, 4096), chunk_at(&cs, 3));
	ck_assert_int_eq(atomic_load(&cs.calls), 4);
	for (int n = 0; n < 4; n++)
		gen_pool_free(p, chunk_at(&cs, n), n == 1 ? 32 : 4096);
}
END_TEST

START_TEST(prefill_stops_at_the_first_zero)
{
	legacy_gen_pool_destroy(pool);
	chunk_supply_init(&cs, 12, 2);
	pool = supply_pool(&cs, 5);
	ck_assert_int_eq(atomic_load(&cs.calls), 3);
	ck_assert_uint_eq(gen_pool_alloc(pool, 4096), chunk_at(&cs, 1));
	gen_pool_free(pool, chunk_at(&cs, 1), 4096);
}
END_TEST

START_TEST(donation_feeds_a_pool_without_callback)
{
	struct gen_pool *p = legacy_alloc_gen_pool(0, 12, NULL, 0);
	unsigned long d = (unsigned long)test_region(4096, 4096);
	struct legacy_gen_pool_stats st;

	ck_assert_ptr_nonnull(p);
	ck_assert_uint_eq(gen_pool_alloc(p, 32), 0);
	gen_pool_free(p, d + 64, 64);			/* donate 64 bytes */
	legacy_gen_pool_stats(p, &st);
	ck_assert_uint_eq(st.donated_bytes, 64);
	ck_assert_uint_eq(st.free_bytes, 64);
	ck_assert_uint_eq(gen_pool_alloc(p, 32), d + 64);
	ck_assert_uint_eq(gen_pool_alloc(p, 32), d + 96);
	ck_assert_uint_eq(gen_pool_alloc(p, 32), 0);
	gen_pool_free(p, d + 96, 32);
	gen_pool_free(p, d + 64, 32);
	assert_consistent(p);
	gen_pool_destroy(p);
}
END_TEST

START_TEST(donations_merge_like_frees)
{
	struct gen_pool *p = legacy_alloc_gen_pool(0, 12, NULL, 0);
	unsigned long d = (unsigned long)test_region(4096, 4096);
	struct legacy_gen_pool_stats st;

	gen_pool_free(p, d + 32, 32);
	gen_pool_free(p, d, 32);			/* buddies: one 64 block */
	gen_pool_free(p, d + 64, 64);			/* and again: 128 */
	assert_consistent(p);
	legacy_gen_pool_stats(p, &st);
	ck_assert_uint_eq(st.nr_free[0], 0);
	ck_assert_uint_eq(st.nr_free[1], 0);
	ck_assert_uint_eq(st.nr_free[2], 1);
	ck_assert_uint_eq(st.largest_free, 128);
	ck_assert_uint_eq(gen_pool_alloc(p, 128), d);
	gen_pool_free(p, d, 128);
	gen_pool_free(p, d + 2048, 2048);
	gen_pool_free(p, d + 1024, 1024);
	gen_pool_free(p, d + 512, 512);
	gen_pool_free(p, d + 256, 256);
	gen_pool_free(p, d + 128, 128);			/* completes the chunk */
	legacy_gen_pool_stats(p, &st);
	ck_assert_uint_eq(st.nr_free[7], 1);
	ck_assert_uint_eq(st.donated_bytes, 4096);
	assert_consistent(p);
	ck_assert_uint_eq(gen_pool_alloc(p, 4096), d);
	gen_pool_free(p, d, 4096);
	gen_pool_destroy(p);
}
END_TEST

START_TEST(donated_memory_merges_with_chunk_memory)
{
	/* A block the pool handed out and a donation never meet in one frame:
	 * frames from the callback are whole.  But a donation next to a free
	 * donated block merges even when the pool also has chunks. */
	unsigned long d = (unsigned long)test_region(4096, 4096);

	ck_assert_uint_eq(gen_pool_alloc(pool, 32), C);
	gen_pool_free(pool, d + 4064, 32);
	gen_pool_free(pool, d + 4032, 32);
	ck_assert_uint_eq(gen_pool_alloc(pool, 64), d + 4032);
	gen_pool_free(pool, d + 4032, 64);
	gen_pool_free(pool, C, 32);
}
END_TEST

START_TEST(creation_limits)
{
	int ps = 0;

	while ((1L << ps) < sysconf(_SC_PAGESIZE))
		ps++;
	capture_errors();
	ck_assert_ptr_null(alloc_gen_pool(0, ps + 11, NULL, 0));
	ck_assert_error(GENALLOC_WARN, GENALLOC_EINVAL);
	ck_assert_ptr_null(alloc_gen_pool(0, ALLOC_MIN_SHIFT - 1, NULL, 0));
	ck_assert_error(GENALLOC_WARN, GENALLOC_EINVAL);
	ck_assert_ptr_null(alloc_gen_pool(0, 1, NULL, 0));
	ck_assert_error(GENALLOC_WARN, GENALLOC_EINVAL);
	ck_assert_ptr_null(alloc_gen_pool(0, -1, NULL, 0));
	ck_assert_error(GENALLOC_WARN, GENALLOC_EINVAL);
	ck_assert_ptr_null(alloc_gen_pool(-1, 12, NULL, 0));
	ck_assert_error(GENALLOC_WARN, GENALLOC_EINVAL);
	ck_assert_ptr_null(alloc_gen_pool(1, 12, NULL, 0));
	ck_assert_error(GENALLOC_WARN, GENALLOC_EINVAL);

	struct gen_pool *p = gen_pool_create(0, 0, NULL, 42);

	ck_assert_ptr_nonnull(p);
	ck_assert_int_eq(p->max_chunk_shift, ps);
	ck_assert_uint_eq(p->private, 42);
	ck_assert_ptr_null(p->next);
	gen_pool_destroy(p);
	p = alloc_gen_pool(0, ALLOC_MIN_SHIFT, NULL, 0);
	ck_assert_ptr_nonnull(p);
	gen_pool_destroy(p);
	p = alloc_gen_pool(0, ps + 10, NULL, 0);
	ck_assert_ptr_nonnull(p);
	gen_pool_destroy(p);
	ck_assert_int_eq(errors_seen(), 0);
	gen_pool_destroy(NULL);
}
END_TEST

START_TEST(smallest_pool_has_one_order)
{
	struct gen_pool *p = alloc_gen_pool(0, ALLOC_MIN_SHIFT, NULL, 0);
	unsigned long d = (unsigned long)test_region(64, 64);

	gen_pool_free(p, d, 32);
	gen_pool_free(p, d + 32, 32);		/* buddies, but 32 is the chunk */
	ck_assert_uint_eq(gen_pool_alloc(p, 33), 0);
	ck_assert_uint_eq(gen_pool_alloc(p, 32), d + 32);
	ck_assert_uint_eq(gen_pool_alloc(p, 32), d);
	gen_pool_free(p, d, 32);
	gen_pool_free(p, d + 32, 32);
	assert_consistent(p);
	gen_pool_destroy(p);
}
END_TEST

START_TEST(linear_search_gives_the_same_addresses)
{
	legacy_gen_pool_set_linear_search(pool, 1);
	ck_assert_uint_eq(gen_pool_alloc(pool, 32), C);
	ck_assert_uint_eq(gen_pool_alloc(pool, 32), C + 32);
	ck_assert_uint_eq(gen_pool_alloc(pool, 64), C + 64);
	gen_pool_free(pool, C + 32, 32);
	gen_pool_free(pool, C, 32);
	gen_pool_free(pool, C + 64, 64);
	assert_consistent(pool);
	ck_assert_uint_eq(gen_pool_alloc(pool, 4096), C);
	legacy_gen_pool_set_linear_search(pool, 0);
	gen_pool_free(pool, C, 4096);
}
END_TEST

Suite *legacy_buddy_suite(void)
{
	Suite *s = suite_create("legacy_buddy");
	TCase *tc = tcase_create("placement");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, first_alloc_splits_a_new_chunk);
	tcase_add_test(tc, frees_merge_up_to_the_chunk);
	tcase_add_test(tc, lists_are_lifo);
	tcase_add_test(tc, rounding_is_powers_of_two_from_32);
	tcase_add_test(tc, every_size_rounds_as_the_2005_loop);
	tcase_add_test(tc, growth_calls_back_once_per_chunk);
	tcase_add_test(tc, oversize_fails_without_callback);
	tcase_add_test(tc, prefill_stacks_chunks_last_first);
	tcase_add_test(tc, prefill_stops_at_the_first_zero);
	tcase_add_test(tc, donation_feeds_a_pool_without_callback);
	tcase_add_test(tc, donations_merge_like_frees);
	tcase_add_test(tc, donated_memory_merges_with_chunk_memory);
	tcase_add_test(tc, creation_limits);
	tcase_add_test(tc, smallest_pool_has_one_order);
	tcase_add_test(tc, linear_search_gives_the_same_addresses);
	suite_add_tcase(s, tc);
	return s;
}
