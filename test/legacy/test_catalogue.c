// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * test/legacy/test_catalogue.c - the rows of docs/misuse.md, the misuse catalogue
 * (2005 API, legacy engine) that test_misuse.c and test_buddy.c do not
 * already prove: the quiet answers (INT_MAX, unknown memory, a callback with
 * nothing to give), a free across two chunks, and each remaining row under
 * the default hook - WARN rows print and return, BUG rows abort.
 */
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "../support.h"
#include "chunks.h"
#include "snapshot.h"

static struct chunk_supply cs;
static struct gen_pool *pool;
static unsigned long C;

/* Two 4 KiB chunks, both wholly allocated: C and C + 4096 are live. */
static void setup(void)
{
	chunk_supply_init(&cs, 12, 2);
	C = chunk_at(&cs, 0);
	pool = supply_pool(&cs, 0);
	capture_errors();
	ck_assert_uint_eq(gen_pool_alloc(pool, 4096), C);
	ck_assert_uint_eq(gen_pool_alloc(pool, 4096), C + 4096);
	ck_assert_int_eq(errors_seen(), 0);
}

static unsigned long give_nothing(struct gen_pool *p)
{
	(void)p;
	return 0;
}

/* ------------------------------------------------ returning handler */

START_TEST(int_max_sizes_change_nothing)
{
	struct pool_snapshot before;

	gen_pool_free(pool, C + 4096, 4096);	/* a free chunk to look at too */
	pool_snapshot(&before, pool, &cs);
	ck_assert_uint_eq(gen_pool_alloc(pool, INT_MAX), 0);
	ck_assert_uint_eq(gen_pool_alloc(pool, 4097), 0);
	gen_pool_free(pool, C, INT_MAX);		/* live: stays live */
	gen_pool_free(pool, C + 4096, INT_MAX);	/* free: no double free either */
	ck_assert_int_eq(errors_seen(), 0);
	gen_pool_free(pool, 0, INT_MAX);	/* arguments first: address 0 */
	ck_assert_error(GENALLOC_WARN, GENALLOC_EINVAL);
	assert_pool_unchanged(pool, &cs, before);
}
END_TEST

START_TEST(unknown_memory_is_donated_not_foreign)
{
	unsigned long d = (unsigned long)test_region(4096, 4096);
	struct legacy_gen_pool_stats st;

	gen_pool_free(pool, d + 64, 64);
	ck_assert_int_eq(errors_seen(), 0);
	legacy_gen_pool_stats(pool, &st);
	ck_assert_uint_eq(st.donated_bytes, 64);
	ck_assert_uint_eq(st.free_bytes, 64);
	ck_assert_uint_eq(gen_pool_alloc(pool, 64), d + 64);
	assert_consistent(pool);
}
END_TEST

START_TEST(free_across_two_chunks_is_misaligned)
{
	struct pool_snapshot before;

	pool_snapshot(&before, pool, &cs);
	gen_pool_free(pool, C + 2048, 4096);
	ck_assert_error(GENALLOC_BUG, GENALLOC_EMISALIGNED);
	gen_pool_free(pool, C + 4096 - 32, 64);
	ck_assert_error(GENALLOC_BUG, GENALLOC_EMISALIGNED);
	assert_pool_unchanged(pool, &cs, before);
}
END_TEST

START_TEST(callback_with_no_memory_is_not_an_error)
{
	struct pool_snapshot before;

	pool->get_new_chunk = give_nothing;
	pool_snapshot(&before, pool, &cs);
	ck_assert_uint_eq(gen_pool_alloc(pool, 32), 0);
	ck_assert_int_eq(errors_seen(), 0);
	assert_pool_unchanged(pool, &cs, before);
}
END_TEST

START_TEST(callback_chunk_errors_leave_the_pool_unchanged)
{
	struct pool_snapshot before;

	pool->get_new_chunk = supply_bad_chunk;
	pool_snapshot(&before, pool, &cs);
	cs.bad = C + 8192 + 2048;			/* misaligned */
	ck_assert_uint_eq(gen_pool_alloc(pool, 64), 0);
	ck_assert_error(GENALLOC_BUG, GENALLOC_EMISALIGNED);
	cs.bad = C + 4096;				/* overlapping a known chunk */
	ck_assert_uint_eq(gen_pool_alloc(pool, 64), 0);
	ck_assert_error(GENALLOC_BUG, GENALLOC_EOVERLAP);
	/* An aligned chunk cannot wrap (the last one ends at ULONG_MAX); one
	 * that wraps is also misaligned, and the wrap is what is reported. */
	cs.bad = ULONG_MAX - 31;
	ck_assert_uint_eq(gen_pool_alloc(pool, 64), 0);
	ck_assert_error(GENALLOC_BUG, GENALLOC_ERANGE);
	assert_pool_unchanged(pool, &cs, before);
}
END_TEST

/* --------------------------------------- default handler: WARN returns */

START_TEST(warn_rows_return_under_the_default_hook)
{
	struct pool_snapshot before;
	int ps = 0;

	while ((1L << ps) < sysconf(_SC_PAGESIZE))
		ps++;
	pool_snapshot(&before, pool, &cs);
	expect_death();
	ck_assert_uint_eq(gen_pool_alloc(NULL, 32), 0);
	gen_pool_free(NULL, C, 32);
	ck_assert_uint_eq(gen_pool_alloc(pool, -32), 0);
	ck_assert_uint_eq(gen_pool_alloc(pool, INT_MIN), 0);
	gen_pool_free(pool, C, -1);
	gen_pool_free(pool, 0, 32);
	ck_assert_ptr_null(alloc_gen_pool(0, ps + 11, NULL, 0));
	ck_assert_ptr_null(alloc_gen_pool(0, ALLOC_MIN_SHIFT - 1, NULL, 0));
	ck_assert_ptr_null(alloc_gen_pool(0, -1, NULL, 0));
	ck_assert_ptr_null(alloc_gen_pool(-1, 12, supply_chunk, 0));
	ck_assert_ptr_null(alloc_gen_pool(1, 12, NULL, 0));
	assert_pool_unchanged(pool, &cs, before);
}
END_TEST

/* The default hook's line carries the engine's own explanation, not just
 * the code's name: "negative size", where strerror() would only say
 * "invalid argument".  The WARN rows above only check that the hook
 * returns; a default handler that dropped the message passed them. */
START_TEST(default_hook_prints_the_engine_message)
{
	struct stderr_capture cap;
	char want[256], buf[256];

	snprintf(want, sizeof(want), "genalloc: WARN EINVAL: gen_pool_alloc: negative size "
		 "(pool %p, addr 0, size -32); pass a size of 0 or more\n", (void *)pool);
	expect_death();
	stderr_capture_start(&cap);
	ck_assert_uint_eq(gen_pool_alloc(pool, -32), 0);
	stderr_capture_end(&cap, buf, sizeof(buf));
	ck_assert_str_eq(buf, want);
}
END_TEST

/* ---------------------------------------------- default handler: BUG */

START_TEST(misaligned_free_aborts)
{
	expect_death();
	gen_pool_free(pool, C + 8, 32);
}
END_TEST

START_TEST(free_across_two_chunks_aborts)
{
	expect_death();
	gen_pool_free(pool, C + 2048, 4096);
}
END_TEST

START_TEST(wrapping_free_aborts)
{
	expect_death();
	gen_pool_free(pool, ULONG_MAX - 31, 64);
}
END_TEST

START_TEST(overlapping_donation_aborts)
{
	unsigned long d = (unsigned long)test_region(4096, 4096);

	gen_pool_free(pool, d + 128, 64);
	expect_death();
	gen_pool_free(pool, d, 256);
}
END_TEST

START_TEST(misaligned_chunk_aborts)
{
	pool->get_new_chunk = supply_bad_chunk;
	cs.bad = C + 8192 + 2048;
	expect_death();
	gen_pool_alloc(pool, 64);
}
END_TEST

START_TEST(overlapping_chunk_aborts)
{
	pool->get_new_chunk = supply_bad_chunk;
	cs.bad = C;
	expect_death();
	gen_pool_alloc(pool, 64);
}
END_TEST

START_TEST(wrapping_chunk_aborts)
{
	pool->get_new_chunk = supply_bad_chunk;
	cs.bad = ULONG_MAX - 31;
	expect_death();
	gen_pool_alloc(pool, 64);
}
END_TEST

Suite *legacy_catalogue_suite(void)
{
	Suite *s = suite_create("legacy_catalogue");
	TCase *tc = tcase_create("returning_handler");
	TCase *death = tcase_create("default_handler");

	tcase_add_checked_fixture(tc, setup, NULL);
	tcase_add_test(tc, int_max_sizes_change_nothing);
	tcase_add_test(tc, unknown_memory_is_donated_not_foreign);
	tcase_add_test(tc, free_across_two_chunks_is_misaligned);
	tcase_add_test(tc, callback_with_no_memory_is_not_an_error);
	tcase_add_test(tc, callback_chunk_errors_leave_the_pool_unchanged);
	suite_add_tcase(s, tc);

	tcase_add_checked_fixture(death, setup, NULL);
	tcase_add_test(death, warn_rows_return_under_the_default_hook);
	tcase_add_test(death, default_hook_prints_the_engine_message);
	tcase_add_test_raise_signal(death, misaligned_free_aborts, SIGABRT);
	tcase_add_test_raise_signal(death, free_across_two_chunks_aborts, SIGABRT);
	tcase_add_test_raise_signal(death, wrapping_free_aborts, SIGABRT);
	tcase_add_test_raise_signal(death, overlapping_donation_aborts, SIGABRT);
	tcase_add_test_raise_signal(death, misaligned_chunk_aborts, SIGABRT);
	tcase_add_test_raise_signal(death, overlapping_chunk_aborts, SIGABRT);
	tcase_add_test_raise_signal(death, wrapping_chunk_aborts, SIGABRT);
	suite_add_tcase(s, death);
	return s;
}
