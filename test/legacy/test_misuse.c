// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * test/legacy/test_misuse.c - every bad input the legacy header names: the
 * failure value, the report (severity and code) and an unchanged pool with
 * a returning handler; death through the default handler for BUGs.
 */
#include <limits.h>
#include <signal.h>
#include <string.h>

#include "../support.h"
#include "chunks.h"
#include "snapshot.h"

static struct chunk_supply cs;
static struct gen_pool *pool;
static unsigned long C;

static void setup(void)
{
	chunk_supply_init(&cs, 12, 4);
	C = chunk_at(&cs, 0);
	pool = supply_pool(&cs, 0);
	capture_errors();
}

static void teardown(void)
{
	assert_consistent(pool);
}

/* A pool with live blocks C (32) and C + 128 (128), free C + 32 (32). */
static struct pool_snapshot prepared(void)
{
	struct pool_snapshot s;

	ck_assert_uint_eq(gen_pool_alloc(pool, 32), C);
	ck_assert_uint_eq(gen_pool_alloc(pool, 32), C + 32);
	ck_assert_uint_eq(gen_pool_alloc(pool, 128), C + 128);
	gen_pool_free(pool, C + 32, 32);
	ck_assert_int_eq(errors_seen(), 0);
	pool_snapshot(&s, pool, &cs);
	return s;
}

START_TEST(null_pool_is_refused)
{
	struct legacy_gen_pool_stats st;

	ck_assert_uint_eq(gen_pool_alloc(NULL, 32), 0);
	ck_assert_error(GENALLOC_WARN, GENALLOC_EINVAL);
	gen_pool_free(NULL, C, 32);
	ck_assert_error(GENALLOC_WARN, GENALLOC_EINVAL);
	ck_assert_int_eq(legacy_gen_pool_check(NULL), -1);
	ck_assert_error(GENALLOC_WARN, GENALLOC_EINVAL);
	legacy_gen_pool_stats(NULL, &st);
	ck_assert_error(GENALLOC_WARN, GENALLOC_EINVAL);
	legacy_gen_pool_stats(pool, NULL);
	ck_assert_error(GENALLOC_WARN, GENALLOC_EINVAL);
	legacy_gen_pool_for_each_region(NULL, NULL, NULL);
	ck_assert_error(GENALLOC_WARN, GENALLOC_EINVAL);
	legacy_gen_pool_for_each_region(pool, NULL, NULL);
	ck_assert_error(GENALLOC_WARN, GENALLOC_EINVAL);
	legacy_gen_pool_set_linear_search(NULL, 1);
	ck_assert_error(GENALLOC_WARN, GENALLOC_EINVAL);
	gen_pool_destroy(NULL);
	ck_assert_int_eq(errors_seen(), 0);
}
END_TEST

START_TEST(negative_size_is_refused)
{
	struct pool_snapshot before = prepared();

	ck_assert_uint_eq(gen_pool_alloc(pool, -1), 0);
	ck_assert_error(GENALLOC_WARN, GENALLOC_EINVAL);
	ck_assert_uint_eq(gen_pool_alloc(pool, INT_MIN), 0);
	ck_assert_error(GENALLOC_WARN, GENALLOC_EINVAL);
	gen_pool_free(pool, C, -32);
	ck_assert_error(GENALLOC_WARN, GENALLOC_EINVAL);
	assert_pool_unchanged(pool, &cs, before);
}
END_TEST

START_TEST(free_of_address_zero_is_refused)
{
	struct pool_snapshot before = prepared();

	gen_pool_free(pool, 0, 32);
	ck_assert_error(GENALLOC_WARN, GENALLOC_EINVAL);
	/* Checked before the size: above the chunk size is still a WARN. */
	gen_pool_free(pool, 0, INT_MAX);
	ck_assert_error(GENALLOC_WARN, GENALLOC_EINVAL);
	assert_pool_unchanged(pool, &cs, before);
}
END_TEST

START_TEST(double_free_is_detected)
{
	struct pool_snapshot before = prepared();

	gen_pool_free(pool, C + 32, 32);		/* the free block itself */
	ck_assert_error(GENALLOC_BUG, GENALLOC_EDOUBLEFREE);
	gen_pool_free(pool, C + 32, 0);
	ck_assert_error(GENALLOC_BUG, GENALLOC_EDOUBLEFREE);
	gen_pool_free(pool, C + 256, 256);		/* an upper half never handed out */
	ck_assert_error(GENALLOC_BUG, GENALLOC_EDOUBLEFREE);
	assert_pool_unchanged(pool, &cs, before);
}
END_TEST

START_TEST(double_free_after_merge_is_detected)
{
	struct pool_snapshot before;

	prepared();
	gen_pool_free(pool, C, 32);		/* merges C + 32 into 64 @ C */
	pool_snapshot(&before, pool, &cs);
	gen_pool_free(pool, C + 32, 32);	/* inside the merged block */
	ck_assert_error(GENALLOC_BUG, GENALLOC_EDOUBLEFREE);
	gen_pool_free(pool, C, 32);		/* its start */
	ck_assert_error(GENALLOC_BUG, GENALLOC_EDOUBLEFREE);
	gen_pool_free(pool, C + 1024 + 64, 64);	/* deep inside a free 1024 */
	ck_assert_error(GENALLOC_BUG, GENALLOC_EDOUBLEFREE);
	assert_pool_unchanged(pool, &cs, before);
}
END_TEST

START_TEST(wrong_size_is_detected)
{
	struct pool_snapshot before = prepared();

	gen_pool_free(pool, C + 128, 64);
	ck_assert_error(GENALLOC_BUG, GENALLOC_ESIZE);
	gen_pool_free(pool, C + 128, 129);
	ck_assert_error(GENALLOC_BUG, GENALLOC_ESIZE);
	gen_pool_free(pool, C, 64);
	ck_assert_error(GENALLOC_BUG, GENALLOC_ESIZE);
	gen_pool_free(pool, C, 4096);
	ck_assert_error(GENALLOC_BUG, GENALLOC_ESIZE);
	assert_pool_unchanged(pool, &cs, before);
	/* Any size with the same rounding is the right size. */
	gen_pool_free(pool, C + 128, 65);
	ck_assert_int_eq(errors_seen(), 0);
}
END_TEST

START_TEST(misaligned_address_is_detected)
{
	struct pool_snapshot before = prepared();

	gen_pool_free(pool, C + 8, 32);		/* inside C's first atom */
	ck_assert_error(GENALLOC_BUG, GENALLOC_EMISALIGNED);
	gen_pool_free(pool, C + 1, 1);
	ck_assert_error(GENALLOC_BUG, GENALLOC_EMISALIGNED);
	gen_pool_free(pool, C + 160, 64);	/* inside C + 128, not 64-aligned */
	ck_assert_error(GENALLOC_BUG, GENALLOC_EMISALIGNED);
	assert_pool_unchanged(pool, &cs, before);
}
END_TEST

START_TEST(interior_of_live_block_is_foreign)
{
	struct pool_snapshot before = prepared();

	gen_pool_free(pool, C + 192, 64);	/* upper half of live C + 128 */
	ck_assert_error(GENALLOC_BUG, GENALLOC_EFOREIGN);
	gen_pool_free(pool, C + 160, 32);
	ck_assert_error(GENALLOC_BUG, GENALLOC_EFOREIGN);
	assert_pool_unchanged(pool, &cs, before);
}
END_TEST

START_TEST(overlapping_donation_is_detected)
{
	unsigned long d = (unsigned long)test_region(4096, 4096);
	struct pool_snapshot before;

	gen_pool_free(pool, d + 128, 64);	/* a donation */
	ck_assert_int_eq(errors_seen(), 0);
	pool_snapshot(&before, pool, &cs);
	gen_pool_free(pool, d, 256);		/* d is unknown, d + 128 is not */
	ck_assert_error(GENALLOC_BUG, GENALLOC_EOVERLAP);
	gen_pool_free(pool, d, 4096);
	ck_assert_error(GENALLOC_BUG, GENALLOC_EOVERLAP);
	assert_pool_unchanged(pool, &cs, before);
	gen_pool_free(pool, d + 96, 64);	/* unknown, but not 64-aligned */
	ck_assert_error(GENALLOC_BUG, GENALLOC_EMISALIGNED);
	assert_pool_unchanged(pool, &cs, before);
}
END_TEST

START_TEST(wrapping_range_is_detected)
{
	struct pool_snapshot before = prepared();

	gen_pool_free(pool, ULONG_MAX - 31, 64);
	ck_assert_error(GENALLOC_BUG, GENALLOC_ERANGE);
	assert_pool_unchanged(pool, &cs, before);
}
END_TEST

START_TEST(bad_chunks_from_the_callback_are_refused)
{
	struct pool_snapshot before;

	pool->get_new_chunk = supply_bad_chunk;
	pool_snapshot(&before, pool, &cs);
	cs.bad = C + 32;
	ck_assert_uint_eq(gen_pool_alloc(pool, 32), 0);
	ck_assert_error(GENALLOC_BUG, GENALLOC_EMISALIGNED);
	cs.bad = ULONG_MAX - 31;
	ck_assert_uint_eq(gen_pool_alloc(pool, 32), 0);
	ck_assert_error(GENALLOC_BUG, GENALLOC_ERANGE);
	assert_pool_unchanged(pool, &cs, before);

	cs.bad = C;
	ck_assert_uint_eq(gen_pool_alloc(pool, 4096), C);
	pool_snapshot(&before, pool, &cs);
	ck_assert_uint_eq(gen_pool_alloc(pool, 32), 0);	/* C again */
	ck_assert_error(GENALLOC_BUG, GENALLOC_EOVERLAP);
	assert_pool_unchanged(pool, &cs, before);
	gen_pool_free(pool, C, 4096);
}
END_TEST

START_TEST(bad_chunk_ends_the_prefill)
{
	struct gen_pool *p;
	struct legacy_gen_pool_stats st;

	cs.bad = C + 64;
	p = alloc_gen_pool(3, 12, supply_bad_chunk, (unsigned long)&cs);
	ck_assert_ptr_nonnull(p);
	/* One report, not one per chunk asked for: the prefill stopped at the
	 * first bad chunk.  (ck_assert_error() resets the count, so this must
	 * come first; a prefill that went on after the bad chunk passed.) */
	ck_assert_int_eq(errors_seen(), 1);
	ck_assert_error(GENALLOC_BUG, GENALLOC_EMISALIGNED);
	legacy_gen_pool_stats(p, &st);
	ck_assert_uint_eq(st.obtained_bytes, 0);
	gen_pool_destroy(p);
}
END_TEST

START_TEST(destroy_with_live_blocks_is_refused)
{
	struct pool_snapshot before = prepared();

	gen_pool_destroy(pool);
	ck_assert_error(GENALLOC_BUG, GENALLOC_EBUSY);
	assert_pool_unchanged(pool, &cs, before);
	/* Any live byte keeps it, down to one 32-byte block (a check with
	 * slack in its live-byte count refused the 160 bytes above). */
	gen_pool_free(pool, C + 128, 128);
	gen_pool_destroy(pool);
	ck_assert_error(GENALLOC_BUG, GENALLOC_EBUSY);
	/* Still usable, and destroyable once empty. */
	gen_pool_free(pool, C, 32);
	ck_assert_uint_eq(gen_pool_alloc(pool, 4096), C);
	gen_pool_free(pool, C, 4096);
	assert_consistent(pool);
	gen_pool_destroy(pool);
	ck_assert_int_eq(errors_seen(), 0);
	pool = supply_pool(&cs, 0);	/* for the teardown */
}
END_TEST

/* A free inside a free block exactly twice its size is a double free: the
 * search for the enclosing block must start at the very next order (one
 * that started an order higher missed the 64-byte block and said EFOREIGN;
 * double_free_after_merge_is_detected only frees inside larger blocks). */
START_TEST(free_inside_a_free_block_twice_its_size_is_a_double_free)
{
	struct pool_snapshot before;

	ck_assert_uint_eq(gen_pool_alloc(pool, 32), C);
	ck_assert_uint_eq(gen_pool_alloc(pool, 32), C + 32);
	ck_assert_uint_eq(gen_pool_alloc(pool, 64), C + 64);
	gen_pool_free(pool, C + 32, 32);
	gen_pool_free(pool, C, 32);		/* 64 @ C; its buddy C + 64 is live */
	ck_assert_int_eq(errors_seen(), 0);
	pool_snapshot(&before, pool, &cs);
	gen_pool_free(pool, C + 32, 32);
	ck_assert_error(GENALLOC_BUG, GENALLOC_EDOUBLEFREE);
	assert_pool_unchanged(pool, &cs, before);
	gen_pool_free(pool, C + 64, 64);
}
END_TEST

/* A donation whose range meets known memory only in its LAST atom overlaps
 * it all the same (a check that stopped one atom short took the range, and
 * wrote its own control bytes over the donated block's). */
START_TEST(donation_overlapping_in_its_last_atom_is_detected)
{
	unsigned long d = (unsigned long)test_region(4096, 4096);
	struct pool_snapshot before;

	gen_pool_free(pool, d + 224, 32);	/* the last atom of [d, d + 256) */
	ck_assert_int_eq(errors_seen(), 0);
	pool_snapshot(&before, pool, &cs);
	gen_pool_free(pool, d, 256);
	ck_assert_error(GENALLOC_BUG, GENALLOC_EOVERLAP);
	assert_pool_unchanged(pool, &cs, before);
}
END_TEST

/* What the hook is told (common/error.h): the kernel name of the call, the
 * pool, and the address involved - for a refused chunk, the chunk itself.
 * Only codes and severities were checked before, so a report naming the
 * wrong call, no pool or no address went unnoticed. */
static void assert_report(const char *func, const void *p, unsigned long addr,
			  unsigned long size)
{
	EXPECT_EQ(last_error()->addr, addr);
	EXPECT_EQ(last_error()->size, size);
	ck_assert_report(func, p);
}

START_TEST(reports_name_the_call_the_pool_and_the_address)
{
	struct gen_pool *p;

	prepared();
	gen_pool_free(pool, C + 32, 32);			/* double free */
	assert_report("gen_pool_free", pool, C + 32, 32);
	gen_pool_free(pool, C + 192, 64);			/* foreign */
	assert_report("gen_pool_free", pool, C + 192, 64);
	gen_pool_free(pool, ULONG_MAX - 31, 64);		/* wraps */
	assert_report("gen_pool_free", pool, ULONG_MAX - 31, 64);
	ck_assert_uint_eq(gen_pool_alloc(pool, -1), 0);
	assert_report("gen_pool_alloc", pool, 0, 0);

	pool->get_new_chunk = supply_bad_chunk;
	cs.bad = chunk_at(&cs, 1) + 64;
	ck_assert_uint_eq(gen_pool_alloc(pool, 4096), 0);
	assert_report("gen_pool_alloc", pool, chunk_at(&cs, 1) + 64, 4096);
	pool->get_new_chunk = supply_chunk;

	p = alloc_gen_pool(1, 12, supply_bad_chunk, (unsigned long)&cs);
	ck_assert_ptr_nonnull(p);
	assert_report("alloc_gen_pool", p, chunk_at(&cs, 1) + 64, 4096);
	gen_pool_destroy(p);
	ck_assert_int_eq(errors_seen(), 0);
	gen_pool_free(pool, C, 32);
	gen_pool_free(pool, C + 128, 128);
}
END_TEST

/* A handler that calls back into the pool: reports come after the lock is
 * dropped, so this must not deadlock. */
static void reentrant_handler(const struct genalloc_error *err)
{
	struct legacy_gen_pool_stats st;

	legacy_gen_pool_stats((struct gen_pool *)err->pool, &st);
}

START_TEST(handler_may_call_into_the_pool)
{
	prepared();
	genalloc_set_error_handler(reentrant_handler);
	gen_pool_free(pool, C + 32, 32);
	gen_pool_free(pool, C + 8, 32);
	capture_errors();
}
END_TEST

/* ------------------------------------------------------ death tests */

START_TEST(double_free_aborts)
{
	prepared();
	expect_death();
	gen_pool_free(pool, C + 32, 32);
}
END_TEST

START_TEST(wrong_size_aborts)
{
	prepared();
	expect_death();
	gen_pool_free(pool, C, 128);
}
END_TEST

START_TEST(foreign_free_aborts)
{
	prepared();
	expect_death();
	gen_pool_free(pool, C + 192, 64);
}
END_TEST

START_TEST(destroy_busy_aborts)
{
	prepared();
	expect_death();
	gen_pool_destroy(pool);
}
END_TEST

START_TEST(negative_size_warns_and_returns)
{
	prepared();
	expect_death();		/* the default handler... */
	ck_assert_uint_eq(gen_pool_alloc(pool, -5), 0);	/* ...returns for a WARN */
	gen_pool_free(pool, C, 32);
}
END_TEST

Suite *legacy_misuse_suite(void)
{
	Suite *s = suite_create("legacy_misuse");
	TCase *tc = tcase_create("returning_handler");
	TCase *death = tcase_create("default_handler");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, null_pool_is_refused);
	tcase_add_test(tc, negative_size_is_refused);
	tcase_add_test(tc, free_of_address_zero_is_refused);
	tcase_add_test(tc, double_free_is_detected);
	tcase_add_test(tc, double_free_after_merge_is_detected);
	tcase_add_test(tc, wrong_size_is_detected);
	tcase_add_test(tc, misaligned_address_is_detected);
	tcase_add_test(tc, interior_of_live_block_is_foreign);
	tcase_add_test(tc, overlapping_donation_is_detected);
	tcase_add_test(tc, wrapping_range_is_detected);
	tcase_add_test(tc, bad_chunks_from_the_callback_are_refused);
	tcase_add_test(tc, bad_chunk_ends_the_prefill);
	tcase_add_test(tc, destroy_with_live_blocks_is_refused);
	tcase_add_test(tc, handler_may_call_into_the_pool);
	tcase_add_test(tc, free_inside_a_free_block_twice_its_size_is_a_double_free);
	tcase_add_test(tc, donation_overlapping_in_its_last_atom_is_detected);
	tcase_add_test(tc, reports_name_the_call_the_pool_and_the_address);
	suite_add_tcase(s, tc);

	tcase_add_checked_fixture(death, setup, NULL);
	tcase_add_test_raise_signal(death, double_free_aborts, SIGABRT);
	tcase_add_test_raise_signal(death, wrong_size_aborts, SIGABRT);
	tcase_add_test_raise_signal(death, foreign_free_aborts, SIGABRT);
	tcase_add_test_raise_signal(death, destroy_busy_aborts, SIGABRT);
	tcase_add_test(death, negative_size_warns_and_returns);
	suite_add_tcase(s, death);
	return s;
}
