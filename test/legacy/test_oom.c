// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * test/legacy/test_oom.c - the 2005 buddy engine without memory for its
 * own bookkeeping, failed at every allocation it makes in turn (test/oom.h).
 *
 * What legacy/genalloc.h promises: alloc_gen_pool() returns NULL, or, once
 * the pool exists, a prefill that stops where memory ran out (as if
 * nr_chunks had been smaller); gen_pool_alloc() does not call get_new_chunk
 * when it could not record the chunk, and returns 0 with the pool unchanged,
 * so no chunk is ever lost; a donation that cannot be recorded is refused
 * with WARN EINVAL.  After each failure the pool must be unchanged and
 * correct, and once memory returns it must place exactly as a twin pool that
 * never saw a failure.  Nothing is asserted while the countdown is armed
 * (test/oom.h).  Leaks on these paths are the sanitizer and valgrind runs'.
 *
 * Chunks are 4 KiB (max_chunk_shift 12): orders 0 (32 bytes) to 7.
 */
#include "../oom.h"
#include "../support.h"
#include "chunks.h"
#include "snapshot.h"

#define SHIFT	12
#define CHUNK	(1UL << SHIFT)
/* More frames than the frame table's first 16 slots: one must double it. */
#define NR	20

/* Back to a fresh supply over the same memory: chunk n is at the same
 * address in every round. */
static void supply_rewind(struct chunk_supply *cs)
{
	atomic_store(&cs->next, 0);
	atomic_store(&cs->calls, 0);
}

/* Give back every chunk-sized block and destroy the pool. */
static void release_chunks(struct gen_pool *pool, const unsigned long *addr, int n)
{
	for (int i = 0; i < n; i++)
		gen_pool_free(pool, addr[i], (int)CHUNK);
	ck_assert_uint_eq(pool_live_bytes(pool), 0);
	assert_consistent(pool);
	gen_pool_destroy(pool);
}

/* @a and @b hold the same blocks, whatever the bookkeeping cost. */
static void assert_same_lists(struct gen_pool *a, struct gen_pool *b)
{
	struct legacy_gen_pool_stats sa, sb;

	legacy_gen_pool_stats(a, &sa);
	legacy_gen_pool_stats(b, &sb);
	ck_assert_uint_eq(sa.obtained_bytes, sb.obtained_bytes);
	ck_assert_uint_eq(sa.donated_bytes, sb.donated_bytes);
	ck_assert_uint_eq(sa.free_bytes, sb.free_bytes);
	ck_assert_uint_eq(sa.largest_free, sb.largest_free);
	ck_assert_int_eq(memcmp(sa.nr_free, sb.nr_free, sizeof(sa.nr_free)), 0);
}

START_TEST(create_fails_cleanly_at_every_allocation)
{
	struct chunk_supply cs;
	struct gen_pool *pool;
	long n, failed;

	chunk_supply_init(&cs, SHIFT, 1);
	for (n = 0;; n++) {
		OOM_RUN(n, failed, pool = legacy_alloc_gen_pool(0, SHIFT, supply_chunk, (unsigned long)&cs));
		if (pool)
			break;
		ck_assert_int_gt(failed, 0);
		ck_assert_int_lt(n, 16);
	}
	/* The pool, its list heads, its frame table and the table's slots. */
	ck_assert_int_eq(n, 4);
	ck_assert_int_eq(failed, 0);
	ck_assert_int_eq(atomic_load(&cs.calls), 0);
	assert_consistent(pool);
	EXPECT_EQ(gen_pool_alloc(pool, 32), chunk_at(&cs, 0));
	gen_pool_free(pool, chunk_at(&cs, 0), 32);
	gen_pool_destroy(pool);
}
END_TEST

/*
 * alloc_gen_pool(3, ...) with n allocations allowed: NULL before the pool
 * exists, then a pool holding the k chunks it could record, having called
 * get_new_chunk exactly k times - the same pool as alloc_gen_pool(k, ...).
 */
START_TEST(prefill_stops_where_memory_runs_out)
{
	struct legacy_gen_pool_stats st;
	struct chunk_supply cs;
	unsigned long got[4];
	struct gen_pool *pool;
	long n, failed;
	int k;

	chunk_supply_init(&cs, SHIFT, 4);
	for (n = 0;; n++) {
		supply_rewind(&cs);
		OOM_RUN(n, failed, pool = legacy_alloc_gen_pool(3, SHIFT, supply_chunk, (unsigned long)&cs));
		if (!pool) {
			ck_assert_int_gt(failed, 0);
			ck_assert_int_eq(atomic_load(&cs.calls), 0);
			continue;
		}
		/* Four allocations make the pool, then one frame a chunk. */
		k = atomic_load(&cs.calls);
		ck_assert_int_eq(k, n < 7 ? n - 4 : 3);
		ck_assert_int_eq(failed, n < 7);
		assert_consistent(pool);
		legacy_gen_pool_stats(pool, &st);
		ck_assert_uint_eq(st.obtained_bytes, k * CHUNK);
		ck_assert_uint_eq(st.free_bytes, k * CHUNK);
		ck_assert_uint_eq(st.nr_free[SHIFT - ALLOC_MIN_SHIFT], (unsigned long)k);
		/* As alloc_gen_pool(k): the last chunk first, then the callback. */
		for (int i = 0; i <= k; i++) {
			got[i] = gen_pool_alloc(pool, (int)CHUNK);
			EXPECT_EQ(got[i], chunk_at(&cs, i < k ? k - 1 - i : k));
		}
		ck_assert_int_eq(atomic_load(&cs.calls), k + 1);
		release_chunks(pool, got, k + 1);
		if (k == 3)
			break;
	}
	ck_assert_int_eq(n, 7);
	ck_assert_int_eq(failed, 0);
}
END_TEST

/*
 * NR chunk-sized allocations, each a growth, each retried with one more
 * allocation allowed: a failure returns 0 without calling get_new_chunk and
 * leaves the pool as it was; a twin fed the same chunks without failures
 * must hold the same blocks at the same offsets throughout.
 */
START_TEST(growth_fails_cleanly_at_every_allocation)
{
	struct chunk_supply cs, ts;
	struct pool_snapshot before;
	unsigned long got[NR + 1], tgot[NR], a;
	struct gen_pool *pool, *twin;
	unsigned long slots = OOM_FRAME_SLOTS;
	long n, failed;
	int i, growth, refused = 0, must_grow = 0;

	chunk_supply_init(&cs, SHIFT, NR + 1);
	chunk_supply_init(&ts, SHIFT, NR);
	pool = supply_pool(&cs, 0);
	twin = supply_pool(&ts, 0);
	for (i = 0; i < NR; i++) {
		for (n = 0;; n++) {
			pool_snapshot(&before, pool, &cs);
			OOM_RUN(n, failed, a = gen_pool_alloc(pool, (int)CHUNK));
			if (a)
				break;
			ck_assert_int_gt(failed, 0);
			assert_pool_unchanged(pool, &cs, before);
			refused++;
		}
		/* The frame can fail the call, and the table's growth only
		 * when the table has no room left without it. */
		growth = oom_frame_growth(&slots, (unsigned long)i);
		must_grow += growth == 2;
		ck_assert_int_eq(n, growth == 2 ? 2 : 1);
		ck_assert_int_eq(failed, growth == 1);
		EXPECT_EQ(a, chunk_at(&cs, i));
		ck_assert_int_eq(atomic_load(&cs.calls), i + 1);
		got[i] = a;
		tgot[i] = gen_pool_alloc(twin, (int)CHUNK);
		EXPECT_EQ(tgot[i] - ts.base, a - cs.base);
		assert_consistent(pool);
		assert_same_lists(pool, twin);
	}
	ck_assert_int_gt(must_grow, 0);
	ck_assert_int_eq(refused, NR + must_grow);
	release_chunks(twin, tgot, NR);
	/* Memory is back: the next growth splits chunk NR as a fresh pool would. */
	got[NR] = gen_pool_alloc(pool, 32);
	EXPECT_EQ(got[NR], chunk_at(&cs, NR));
	for (i = 0; i < 7; i++)
		EXPECT_EQ(gen_pool_alloc(pool, 32 << i), chunk_at(&cs, NR) + (32UL << i));
	for (i = 0; i < 7; i++)
		gen_pool_free(pool, chunk_at(&cs, NR) + (32UL << i), 32 << i);
	gen_pool_free(pool, got[NR], 32);
	/* Every chunk is whole; freed in order, they come back newest first. */
	for (i = 0; i < NR; i++)
		gen_pool_free(pool, got[i], (int)CHUNK);
	for (i = NR - 1; i >= 0; i--)
		EXPECT_EQ(gen_pool_alloc(pool, (int)CHUNK), got[i]);
	EXPECT_EQ(gen_pool_alloc(pool, (int)CHUNK), got[NR]);
	ck_assert_int_eq(atomic_load(&cs.calls), NR + 1);
	release_chunks(pool, got, NR + 1);
}
END_TEST

/* Donates @size bytes at @addr with n = 0, 1, ... allocations allowed until
 * it goes in: each refusal is WARN EINVAL with the pool as it was.  Returns
 * the n it took. */
static long donate_under_oom(struct gen_pool *pool, struct chunk_supply *cs,
			     unsigned long addr, int size)
{
	struct pool_snapshot before;
	long n, failed;
	int seen;

	for (n = 0;; n++) {
		pool_snapshot(&before, pool, cs);
		reset_errors();
		OOM_RUN(n, failed, gen_pool_free(pool, addr, size));
		seen = errors_seen();
		if (!seen)
			break;
		assert_line_is("genalloc: WARN EINVAL: gen_pool_free: no memory to record the donation (pool <pool>, addr <addr>, size 2048); donate again when malloc() has memory; the range was not taken", pool, addr, 0, 0);
		ck_assert_error(GENALLOC_WARN, GENALLOC_EINVAL);
		ck_assert_int_gt(failed, 0);
		assert_pool_unchanged(pool, cs, before);
	}
	return n * 2 + (failed != 0);
}

/*
 * A pool fed only by donation, one chunk-sized range per frame, NR frames:
 * each new frame needs memory and is refused without it; a donation into a
 * frame the pool already has needs none.  Then the pool must hold exactly
 * what a twin donated the same ranges holds, and hand it out the same way.
 */
START_TEST(donation_without_memory_is_refused)
{
	struct chunk_supply cs, ts;
	struct gen_pool *pool, *twin;
	unsigned long got[NR], slots = OOM_FRAME_SLOTS;
	int i, growth;

	capture_errors();
	chunk_supply_init(&cs, SHIFT, NR);
	chunk_supply_init(&ts, SHIFT, NR);
	pool = legacy_alloc_gen_pool(0, SHIFT, NULL, 0);
	twin = legacy_alloc_gen_pool(0, SHIFT, NULL, 0);
	ck_assert_ptr_nonnull(pool);
	ck_assert_ptr_nonnull(twin);
	for (i = 0; i < NR; i++) {
		/* The upper half first: a new frame (one allocation, and one
		 * for the table when it grows, refusable while it has room). */
		growth = oom_frame_growth(&slots, (unsigned long)i);
		ck_assert_int_eq(donate_under_oom(pool, &cs, chunk_at(&cs, i) + CHUNK / 2,
						  (int)CHUNK / 2), growth == 2 ? 4 : 2 + growth);
		/* The lower half lands in a known frame: no allocation, and it
		 * merges with the upper half into a whole chunk. */
		ck_assert_int_eq(donate_under_oom(pool, &cs, chunk_at(&cs, i), (int)CHUNK / 2), 0);
		gen_pool_free(twin, chunk_at(&ts, i) + CHUNK / 2, (int)CHUNK / 2);
		gen_pool_free(twin, chunk_at(&ts, i), (int)CHUNK / 2);
		assert_consistent(pool);
		assert_same_lists(pool, twin);
	}
	ck_assert_int_eq(errors_seen(), 0);
	/* Newest whole chunk first, on both. */
	for (i = NR - 1; i >= 0; i--) {
		got[i] = gen_pool_alloc(pool, (int)CHUNK);
		EXPECT_EQ(got[i], chunk_at(&cs, i));
		EXPECT_EQ(gen_pool_alloc(twin, (int)CHUNK), chunk_at(&ts, i));
	}
	EXPECT_EQ(gen_pool_alloc(pool, 32), 0);
	release_chunks(pool, got, NR);
	for (i = 0; i < NR; i++)
		gen_pool_free(twin, chunk_at(&ts, i), (int)CHUNK);
	gen_pool_destroy(twin);
}
END_TEST

Suite *legacy_oom_suite(void)
{
	Suite *s = suite_create("legacy_oom");
	TCase *tc = tcase_create("oom");

	tcase_add_test(tc, create_fails_cleanly_at_every_allocation);
	tcase_add_test(tc, prefill_stops_where_memory_runs_out);
	tcase_add_test(tc, growth_fails_cleanly_at_every_allocation);
	tcase_add_test(tc, donation_without_memory_is_refused);
	suite_add_tcase(s, tc);
	return s;
}
