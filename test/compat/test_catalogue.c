// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * test/compat/test_catalogue.c - the rows of docs/misuse.md, the misuse catalogue
 * (2005 API over compat, both backends) that test_scenarios.c does not
 * already prove: the quiet answers (INT_MAX, unknown memory, a callback with
 * nothing to give), a free across two chunks, and every row under the
 * default hook - WARN rows print and return, BUG rows abort.  Each test runs
 * once per backend (_i = 0 buddy, 1 bitmap).
 */
#include <limits.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

#include "../support.h"
#include "compat_fixture.h"

#define SHIFT 12
#define CHUNK (1UL << SHIFT)

/* The test's chunks: consecutive in one region (they touch), C = region. */
static struct fx_provider *fx;
static unsigned long region;

static unsigned long give_nothing(struct gen_pool *p)
{
	(void)p;
	return 0;
}

/* Two chunks, both wholly allocated: C and C + CHUNK are live. */
static struct gen_pool *two_live_chunks(int i)
{
	struct gen_pool *pool;

	fx = fx_provider_adjacent(SHIFT, 4);
	region = fx->chunk[0];
	pool = fx_pool(i, fx, 0);
	ck_assert_uint_eq(gen_pool_alloc(pool, (int)CHUNK), region);
	ck_assert_uint_eq(gen_pool_alloc(pool, (int)CHUNK), region + CHUNK);
	return pool;
}

/* What a refused call must leave alone (a bad chunk is offered, not given). */
struct snapshot {
	struct compat_gen_pool_stats st;
	int given;
};

static void take(struct gen_pool *pool, struct snapshot *s)
{
	memset(s, 0, sizeof(*s));
	compat_gen_pool_stats(pool, &s->st);
	s->given = atomic_load(&fx->given);
}

static void assert_unchanged(struct gen_pool *pool, const struct snapshot *before)
{
	struct snapshot now;

	take(pool, &now);
	ck_assert_msg(!memcmp(&now, before, sizeof(now)), "pool changed by a refused call");
	ck_assert_int_eq(compat_gen_pool_check(pool), 0);
}

/* ------------------------------------------------ returning handler */

START_TEST(int_max_sizes_change_nothing)
{
	struct gen_pool *pool = two_live_chunks(_i);
	struct snapshot before;

	capture_errors();
	gen_pool_free(pool, region + CHUNK, (int)CHUNK);
	take(pool, &before);
	ck_assert_uint_eq(gen_pool_alloc(pool, INT_MAX), 0);
	ck_assert_uint_eq(gen_pool_alloc(pool, (int)CHUNK + 1), 0);
	gen_pool_free(pool, region, INT_MAX);		/* live: stays live */
	gen_pool_free(pool, region + CHUNK, INT_MAX);	/* free: no double free */
	ck_assert_int_eq(errors_seen(), 0);
	/* Address 0 is checked before the size, as in legacy/: a WARN. */
	gen_pool_free(pool, 0, INT_MAX);
	ck_assert_error(GENALLOC_WARN, GENALLOC_EINVAL);
	assert_unchanged(pool, &before);
	gen_pool_free(pool, region, (int)CHUNK);
	gen_pool_destroy(pool);
	ck_assert_int_eq(errors_seen(), 0);
}
END_TEST

START_TEST(unknown_memory_is_donated_not_foreign)
{
	struct gen_pool *pool = two_live_chunks(_i);
	unsigned long d = (unsigned long)test_region(CHUNK, CHUNK);
	struct compat_gen_pool_stats st;

	capture_errors();
	gen_pool_free(pool, d + 64, 64);
	ck_assert_int_eq(errors_seen(), 0);
	compat_gen_pool_stats(pool, &st);
	ck_assert_uint_eq(st.donated_bytes, 64);
	ck_assert_uint_eq(st.free_bytes, 64);
	ck_assert_uint_eq(gen_pool_alloc(pool, 64), d + 64);
	ck_assert_int_eq(compat_gen_pool_check(pool), 0);
}
END_TEST

START_TEST(free_across_two_chunks_is_misaligned)
{
	struct gen_pool *pool = two_live_chunks(_i);
	struct snapshot before;

	capture_errors();
	take(pool, &before);
	gen_pool_free(pool, region + CHUNK / 2, (int)CHUNK);
	ck_assert_error(GENALLOC_BUG, GENALLOC_EMISALIGNED);
	gen_pool_free(pool, region + CHUNK - 32, 64);
	ck_assert_error(GENALLOC_BUG, GENALLOC_EMISALIGNED);
	assert_unchanged(pool, &before);
}
END_TEST

START_TEST(callback_with_no_memory_is_not_an_error)
{
	struct gen_pool *pool = two_live_chunks(_i);
	struct snapshot before;

	capture_errors();
	pool->get_new_chunk = give_nothing;
	take(pool, &before);
	ck_assert_uint_eq(gen_pool_alloc(pool, 32), 0);
	ck_assert_int_eq(errors_seen(), 0);
	assert_unchanged(pool, &before);
}
END_TEST

START_TEST(callback_chunk_errors_leave_the_pool_unchanged)
{
	struct gen_pool *pool = two_live_chunks(_i);
	struct snapshot before;

	capture_errors();
	take(pool, &before);
	fx->bad = region + 2 * CHUNK + CHUNK / 2;	/* misaligned */
	ck_assert_uint_eq(gen_pool_alloc(pool, 64), 0);
	ck_assert_error(GENALLOC_BUG, GENALLOC_EMISALIGNED);
	fx->bad = region + CHUNK;			/* a chunk it already has */
	ck_assert_uint_eq(gen_pool_alloc(pool, 64), 0);
	ck_assert_error(GENALLOC_BUG, GENALLOC_EOVERLAP);
	fx->bad = ULONG_MAX - 31;			/* wraps (and is misaligned) */
	ck_assert_uint_eq(gen_pool_alloc(pool, 64), 0);
	ck_assert_error(GENALLOC_BUG, GENALLOC_ERANGE);
	assert_unchanged(pool, &before);
}
END_TEST

/* --------------------------------------- default handler: WARN returns */

START_TEST(warn_rows_return_under_the_default_hook)
{
	struct gen_pool *pool = two_live_chunks(_i);
	enum compat_backend b = fx_backend(_i);
	struct snapshot before;
	int ps = 0;

	while ((1L << ps) < sysconf(_SC_PAGESIZE))
		ps++;
	take(pool, &before);
	expect_death();
	ck_assert_uint_eq(gen_pool_alloc(NULL, 32), 0);
	gen_pool_free(NULL, region, 32);
	ck_assert_uint_eq(gen_pool_alloc(pool, -32), 0);
	ck_assert_uint_eq(gen_pool_alloc(pool, INT_MIN), 0);
	gen_pool_free(pool, region, -1);
	gen_pool_free(pool, 0, 32);
	ck_assert_ptr_null(gen_pool_create_backend(b, 0, ps + 11, NULL, 0));
	ck_assert_ptr_null(gen_pool_create_backend(b, 0, ALLOC_MIN_SHIFT - 1, NULL, 0));
	ck_assert_ptr_null(gen_pool_create_backend(b, 0, -1, NULL, 0));
	ck_assert_ptr_null(gen_pool_create_backend(b, -1, SHIFT, fx_get_new_chunk, 0));
	ck_assert_ptr_null(gen_pool_create_backend(b, 1, SHIFT, NULL, 0));
	ck_assert_ptr_null(gen_pool_create_backend((enum compat_backend)9, 0, SHIFT, NULL, 0));
	assert_unchanged(pool, &before);
}
END_TEST

/* ---------------------------------------------- default handler: BUG */

START_TEST(wrong_size_aborts)
{
	struct gen_pool *pool = two_live_chunks(_i);

	expect_death();
	gen_pool_free(pool, region, 64);
}
END_TEST

START_TEST(interior_free_aborts)
{
	struct gen_pool *pool = two_live_chunks(_i);

	expect_death();
	gen_pool_free(pool, region + 64, 64);
}
END_TEST

START_TEST(misaligned_free_aborts)
{
	struct gen_pool *pool = two_live_chunks(_i);

	expect_death();
	gen_pool_free(pool, region + 8, 32);
}
END_TEST

START_TEST(free_across_two_chunks_aborts)
{
	struct gen_pool *pool = two_live_chunks(_i);

	expect_death();
	gen_pool_free(pool, region + CHUNK / 2, (int)CHUNK);
}
END_TEST

START_TEST(wrapping_free_aborts)
{
	struct gen_pool *pool = two_live_chunks(_i);

	expect_death();
	gen_pool_free(pool, ULONG_MAX - 31, 64);
}
END_TEST

START_TEST(overlapping_donation_aborts)
{
	struct gen_pool *pool = two_live_chunks(_i);
	unsigned long d = (unsigned long)test_region(CHUNK, CHUNK);

	gen_pool_free(pool, d + 128, 64);
	expect_death();
	gen_pool_free(pool, d, 256);
}
END_TEST

START_TEST(misaligned_donation_aborts)
{
	struct gen_pool *pool = two_live_chunks(_i);
	unsigned long d = (unsigned long)test_region(CHUNK, CHUNK);

	expect_death();
	gen_pool_free(pool, d + 32, 64);
}
END_TEST

START_TEST(misaligned_chunk_aborts)
{
	struct gen_pool *pool = two_live_chunks(_i);

	fx->bad = region + 2 * CHUNK + CHUNK / 2;
	expect_death();
	gen_pool_alloc(pool, 64);
}
END_TEST

START_TEST(overlapping_chunk_aborts)
{
	struct gen_pool *pool = two_live_chunks(_i);

	fx->bad = region;
	expect_death();
	gen_pool_alloc(pool, 64);
}
END_TEST

START_TEST(wrapping_chunk_aborts)
{
	struct gen_pool *pool = two_live_chunks(_i);

	fx->bad = ULONG_MAX - 31;
	expect_death();
	gen_pool_alloc(pool, 64);
}
END_TEST

Suite *compat_catalogue_suite(void)
{
	Suite *s = suite_create("compat_catalogue");
	TCase *tc = tcase_create("returning_handler");
	TCase *death = tcase_create("default_handler");

	tcase_add_loop_test(tc, int_max_sizes_change_nothing, 0, 2);
	tcase_add_loop_test(tc, unknown_memory_is_donated_not_foreign, 0, 2);
	tcase_add_loop_test(tc, free_across_two_chunks_is_misaligned, 0, 2);
	tcase_add_loop_test(tc, callback_with_no_memory_is_not_an_error, 0, 2);
	tcase_add_loop_test(tc, callback_chunk_errors_leave_the_pool_unchanged, 0, 2);
	suite_add_tcase(s, tc);

	tcase_add_loop_test(death, warn_rows_return_under_the_default_hook, 0, 2);
	tcase_add_loop_test_raise_signal(death, wrong_size_aborts, SIGABRT, 0, 2);
	tcase_add_loop_test_raise_signal(death, interior_free_aborts, SIGABRT, 0, 2);
	tcase_add_loop_test_raise_signal(death, misaligned_free_aborts, SIGABRT, 0, 2);
	tcase_add_loop_test_raise_signal(death, free_across_two_chunks_aborts, SIGABRT, 0, 2);
	tcase_add_loop_test_raise_signal(death, wrapping_free_aborts, SIGABRT, 0, 2);
	tcase_add_loop_test_raise_signal(death, overlapping_donation_aborts, SIGABRT, 0, 2);
	tcase_add_loop_test_raise_signal(death, misaligned_donation_aborts, SIGABRT, 0, 2);
	tcase_add_loop_test_raise_signal(death, misaligned_chunk_aborts, SIGABRT, 0, 2);
	tcase_add_loop_test_raise_signal(death, overlapping_chunk_aborts, SIGABRT, 0, 2);
	tcase_add_loop_test_raise_signal(death, wrapping_chunk_aborts, SIGABRT, 0, 2);
	suite_add_tcase(s, death);
	return s;
}
