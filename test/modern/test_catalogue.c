// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * test/modern/test_catalogue.c - the rows of docs/misuse.md, the misuse catalogue
 * (modern API) that test_misuse.c does not already prove: size 0 and
 * negative int sizes converted to size_t, sizes near INT_MAX, a free that
 * straddles two touching chunks, a free longer than its block, and the WARN
 * rows under the default hook (they print and return).
 */
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <string.h>

#include "../support.h"
#include "modern/genalloc.h"

/* Two touching chunks of 16 granules of 16 bytes: A = 0x10000, B = 0x10100.
 * Both wholly allocated. */
#define A 0x10000UL
#define B 0x10100UL

static struct gen_pool *pool;

static void setup(void)
{
	pool = gen_pool_create(4, -1);
	ck_assert_ptr_nonnull(pool);
	ck_assert_int_eq(gen_pool_add(pool, A, 0x100, -1), 0);
	ck_assert_int_eq(gen_pool_add(pool, B, 0x100, -1), 0);
	ck_assert_uint_eq(gen_pool_alloc(pool, 0x100), B);	/* newest first */
	ck_assert_uint_eq(gen_pool_alloc(pool, 0x100), A);
	capture_errors();
}

struct snapshot {
	unsigned long bits[2];
	long avail[2];
};

static void take(struct snapshot *s)
{
	struct gen_pool_chunk *c = atomic_load(&pool->chunks);

	memset(s, 0, sizeof(*s));
	for (int k = 0; k < 2 && c; k++, c = c->next_chunk) {
		s->bits[k] = c->bits[0];
		s->avail[k] = atomic_load(&c->avail);
	}
}

static void assert_unchanged(const struct snapshot *before)
{
	struct snapshot now;

	take(&now);
	ck_assert_mem_eq(&now, before, sizeof(now));
	ck_assert_int_eq(gen_pool_check(pool), 0);
}

/* ------------------------------------------------ returning handler */

START_TEST(size_zero_is_no_block_and_no_report)
{
	struct snapshot before;
	void *owner = &owner;
	dma_addr_t dma = 3;

	gen_pool_free(pool, A, 0x100);
	take(&before);
	ck_assert_uint_eq(gen_pool_alloc(pool, 0), 0);
	ck_assert_uint_eq(gen_pool_alloc_owner(pool, 0, &owner), 0);
	ck_assert_ptr_null(owner);
	ck_assert_ptr_null(gen_pool_dma_alloc(pool, 0, &dma));
	gen_pool_free(pool, A, 0);	/* a free granule: still nothing */
	ck_assert_int_eq(errors_seen(), 0);
	assert_unchanged(&before);
}
END_TEST

START_TEST(negative_int_sizes_are_huge_sizes)
{
	struct snapshot before;
	int negative = -32;

	gen_pool_free(pool, A, 0x100);
	take(&before);
	/* An int -32 passed as size_t is SIZE_MAX - 31: no room, no report. */
	ck_assert_uint_eq(gen_pool_alloc(pool, (size_t)negative), 0);
	ck_assert_int_eq(errors_seen(), 0);
	/* Freed, it runs past the chunk. */
	gen_pool_free(pool, B, (size_t)negative);
	ck_assert_error(GENALLOC_BUG, GENALLOC_ERANGE);
	assert_unchanged(&before);
}
END_TEST

START_TEST(sizes_near_int_max_are_refused_quietly)
{
	struct snapshot before;

	gen_pool_free(pool, A, 0x100);
	take(&before);
	ck_assert_uint_eq(gen_pool_alloc(pool, INT_MAX), 0);
	ck_assert_uint_eq(gen_pool_alloc(pool, (size_t)INT_MAX + 1), 0);
	ck_assert_uint_eq(gen_pool_alloc(pool, UINT_MAX), 0);
	ck_assert_int_eq(errors_seen(), 0);
	gen_pool_free(pool, B, INT_MAX);
	ck_assert_error(GENALLOC_BUG, GENALLOC_ERANGE);
	assert_unchanged(&before);
}
END_TEST

START_TEST(free_straddling_two_chunks_is_erange)
{
	struct snapshot before;

	take(&before);
	gen_pool_free(pool, A + 0xf0, 0x20);	/* last granule of A, first of B */
	ck_assert_error(GENALLOC_BUG, GENALLOC_ERANGE);
	gen_pool_free(pool, A, 0x200);		/* all of A and all of B */
	ck_assert_error(GENALLOC_BUG, GENALLOC_ERANGE);
	assert_unchanged(&before);
}
END_TEST

START_TEST(free_longer_than_its_block_is_a_double_free)
{
	struct snapshot before;
	unsigned long a;

	gen_pool_free(pool, A, 0x100);
	a = gen_pool_alloc(pool, 0x20);
	ck_assert_uint_eq(a, A);
	take(&before);
	gen_pool_free(pool, a, 0x30);		/* one granule too many, and free */
	ck_assert_error(GENALLOC_BUG, GENALLOC_EDOUBLEFREE);
	assert_unchanged(&before);
}
END_TEST

/* --------------------------------------- default handler: WARN returns */

START_TEST(warn_rows_return_under_the_default_hook)
{
	struct genpool_data_align bad_align = { .align = 3 };
	struct genpool_data_fixed bad_offset = { .offset = 8 };
	struct snapshot before;

	gen_pool_free(pool, A, 0x100);
	take(&before);
	expect_death();
	ck_assert_ptr_null(gen_pool_create(-1, -1));
	ck_assert_ptr_null(gen_pool_create(64, -1));
	ck_assert_int_eq(gen_pool_add(pool, 0, 0x100, -1), -EINVAL);
	ck_assert_int_eq(gen_pool_add(pool, 0x20000, 0, -1), -EINVAL);
	ck_assert_int_eq(gen_pool_add(pool, ULONG_MAX - 0xff, 0x200, -1), -EINVAL);
	ck_assert_int_eq(gen_pool_add(pool, A + 0x80, 0x100, -1), -EINVAL);
	ck_assert_uint_eq(gen_pool_alloc_algo(pool, 16, gen_pool_first_fit_align, &bad_align), 0);
	bad_align.align = 0;
	ck_assert_uint_eq(gen_pool_alloc_algo(pool, 16, gen_pool_first_fit_align, &bad_align), 0);
	ck_assert_ptr_null(gen_pool_dma_alloc_align(pool, 16, NULL, -8));
	ck_assert_uint_eq(gen_pool_alloc_algo(pool, 16, gen_pool_fixed_alloc, &bad_offset), 0);
	ck_assert_uint_eq(gen_pool_avail(NULL), 0);
	gen_pool_free(NULL, A, 16);
	assert_unchanged(&before);
}
END_TEST

/* ---------------------------------------------- default handler: BUG */

START_TEST(free_straddling_two_chunks_aborts)
{
	expect_death();
	gen_pool_free(pool, A + 0xf0, 0x20);
}
END_TEST

START_TEST(wrapping_free_aborts)
{
	expect_death();
	gen_pool_free(pool, B, SIZE_MAX);
}
END_TEST

Suite *modern_catalogue_suite(void)
{
	Suite *s = suite_create("modern_catalogue");
	TCase *tc = tcase_create("returning_handler");
	TCase *death = tcase_create("default_handler");

	tcase_add_checked_fixture(tc, setup, NULL);
	tcase_add_test(tc, size_zero_is_no_block_and_no_report);
	tcase_add_test(tc, negative_int_sizes_are_huge_sizes);
	tcase_add_test(tc, sizes_near_int_max_are_refused_quietly);
	tcase_add_test(tc, free_straddling_two_chunks_is_erange);
	tcase_add_test(tc, free_longer_than_its_block_is_a_double_free);
	suite_add_tcase(s, tc);

	tcase_add_checked_fixture(death, setup, NULL);
	tcase_add_test(death, warn_rows_return_under_the_default_hook);
	tcase_add_test_raise_signal(death, free_straddling_two_chunks_aborts, SIGABRT);
	tcase_add_test_raise_signal(death, wrapping_free_aborts, SIGABRT);
	suite_add_tcase(s, death);
	return s;
}
