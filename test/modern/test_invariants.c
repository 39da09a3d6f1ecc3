// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * test/modern/test_invariants.c - the engine's assertions fire when an
 * index update goes wrong.
 *
 * Each test breaks the pool on purpose, the way a faulty update would: the
 * bitmap changes and the index is told of another range.  In a build with
 * the assertions (make check's, debug, the sanitizers) the next request
 * reports BUG ECORRUPT naming the broken condition; in any build the
 * invariant functions themselves say the pool is broken, and hold on a
 * healthy pool.
 */
#include <string.h>

#include "../support.h"
#include "modern/assert_internal.h"
#include "modern/bitmap_internal.h"
#include "modern/chunklist_internal.h"
#include "modern/genalloc.h"
#include "modern/index_internal.h"

#define BASE 0x100000UL

/* A pool of one 4 KiB chunk of 8-byte granules (512 bits, indexed). */
static struct gen_pool *small_pool(genpool_algo_t algo)
{
	struct gen_pool *pool = gen_pool_create(3, NUMA_NO_NODE);

	ck_assert_ptr_nonnull(pool);
	ck_assert_int_eq(gen_pool_add(pool, BASE, 4096, NUMA_NO_NODE), 0);
	gen_pool_set_algo(pool, algo, NULL);
	return pool;
}

/* Claim granules [@bit, @bit + @nr) behind the index's back and tell it of
 * [@told, @told + @nr) instead: a wrong index update. */
static void wrong_update(struct gen_pool *pool, unsigned long bit, unsigned long told,
			 unsigned long nr)
{
	struct gen_pool_chunk *chunk = modern_first_chunk(pool);

	modern_bitmap_set(chunk->bits, bit, nr);
	modern_index_update(chunk->index, chunk->bits, told, nr);
}

/* Undo the damage: every granule free again, so that the pool can be
 * destroyed (its index may stay wrong; destroy reads the bitmap). */
static void release_all(struct gen_pool *pool)
{
	struct gen_pool_chunk *chunk = modern_first_chunk(pool);

	modern_bitmap_clear(chunk->bits, 0, chunk->nbits);
	reset_errors();
	gen_pool_destroy(pool);
	ck_assert_int_eq(errors_seen(), 0);
}

static const genpool_algo_t algos[] = { gen_pool_first_fit, gen_pool_best_fit,
					gen_pool_first_fit_order_align };

START_TEST(a_healthy_pool_keeps_every_invariant)
{
	struct gen_pool *pool = small_pool(algos[_i]);
	struct gen_pool_chunk *chunk;
	unsigned long a, b;

	capture_errors();
	a = gen_pool_alloc(pool, 64);
	b = gen_pool_alloc(pool, 200);
	ck_assert(a && b);
	chunk = modern_first_chunk(pool);
	ck_assert(modern_inv_index_matches(chunk));
	ck_assert(modern_inv_run_used(chunk, (a - BASE) >> 3, 8));
	ck_assert(modern_inv_run_free(chunk, 100, 8));
	gen_pool_free(pool, a, 64);
	gen_pool_free(pool, b, 200);
	ck_assert(modern_inv_run_free(chunk, 0, 512));
	ck_assert_int_eq(errors_seen(), 0);
	gen_pool_destroy(pool);
}
END_TEST

START_TEST(a_wrong_index_update_trips_the_assertions)
{
	struct gen_pool *pool = small_pool(algos[_i]);
	struct gen_pool_chunk *chunk = modern_first_chunk(pool);

	capture_errors();
	/* The granules at the chunk's start are taken, the index told that
	 * others were: it now offers a run that is not free. */
	wrong_update(pool, 0, 256, 16);
	ck_assert(!modern_inv_index_matches(chunk));
	(void)gen_pool_alloc(pool, 64);
	if (MODERN_ASSERTS_ON) {
		ck_assert_msg(errors_seen() > 0, "no assertion fired");
		ck_assert_int_eq(last_error()->severity, GENALLOC_BUG);
		ck_assert_int_eq(last_error()->code, GENALLOC_ECORRUPT);
		ck_assert_ptr_nonnull(strstr(last_error()->msg, "engine invariant broken"));
	} else {
		ck_assert_int_eq(errors_seen(), 0);
	}
	release_all(pool);
}
END_TEST

START_TEST(a_claim_of_used_granules_is_caught)
{
	struct gen_pool *pool = small_pool(gen_pool_first_fit);
	struct gen_pool_chunk *chunk = modern_first_chunk(pool);

	capture_errors();
	/* Used in the bitmap, unknown to the index: the search answers bit 0. */
	modern_bitmap_set(chunk->bits, 0, 8);
	ck_assert(!modern_inv_run_free(chunk, 0, 8));
	ck_assert(!modern_inv_same_answer(pool, chunk, gen_pool_first_fit, NULL, 8, 0, true));
	(void)gen_pool_alloc(pool, 64);
	if (MODERN_ASSERTS_ON) {
		ck_assert_msg(errors_seen() > 0, "no assertion fired");
		ck_assert_int_eq(last_error()->code, GENALLOC_ECORRUPT);
	}
	release_all(pool);
}
END_TEST

Suite *modern_invariants_suite(void)
{
	Suite *s = suite_create("modern_invariants");
	TCase *tc = tcase_create("core");
	int n = (int)(sizeof(algos) / sizeof(algos[0]));

	tcase_add_loop_test(tc, a_healthy_pool_keeps_every_invariant, 0, n);
	tcase_add_loop_test(tc, a_wrong_index_update_trips_the_assertions, 0, n);
	tcase_add_test(tc, a_claim_of_used_granules_is_caught);
	suite_add_tcase(s, tc);
	return s;
}
