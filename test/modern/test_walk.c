// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * test/modern/test_walk.c - the engine's extensions for callers that keep
 * records beside the pool: chunks added in use (gen_pool_add_used()) and
 * the walk over free and used runs (gen_pool_for_each_run()), against
 * layouts written out by hand.
 *
 * Addresses are plain numbers: the engine never touches managed memory.
 */
#include <errno.h>

#include "../support.h"
#include "modern/genalloc.h"

#define MAX_RUNS 16

struct runs {
	int n;
	unsigned long addr[MAX_RUNS];
	size_t size[MAX_RUNS];
	bool used[MAX_RUNS];
	int stop_after;		/* return 7 after this many runs; 0: never */
};

static int record_run(struct gen_pool *pool, struct gen_pool_chunk *chunk, unsigned long addr,
		      size_t size, bool used, void *data)
{
	struct runs *r = data;

	(void)pool;
	ck_assert_uint_ge(addr, chunk->start_addr);
	ck_assert_uint_le(addr + size - 1, chunk->end_addr);
	ck_assert_int_lt(r->n, MAX_RUNS);
	r->addr[r->n] = addr;
	r->size[r->n] = size;
	r->used[r->n] = used;
	r->n++;
	return r->n == r->stop_after ? 7 : 0;
}

/* The runs @which finds must be exactly @n triples (addr, size, used). */
static void expect_runs(struct gen_pool *pool, unsigned int which, int n,
			const unsigned long (*want)[3])
{
	struct runs r = { 0 };

	ck_assert_int_eq(gen_pool_for_each_run(pool, which, record_run, &r), 0);
	ck_assert_int_eq(r.n, n);
	for (int i = 0; i < n; i++) {
		EXPECT_EQ(r.addr[i], want[i][0]);
		EXPECT_EQ(r.size[i], want[i][1]);
		EXPECT_EQ(r.used[i], want[i][2]);
	}
}

/*
 * Two chunks of 1 KiB at 32-byte granules, the higher one added first, so
 * address order is not the list's.  Low chunk: [0, 64) used, [64, 160)
 * free, [160, 1024) used.  High chunk (with a 16-byte tail): [0, 96) used,
 * the rest free.
 */
static struct gen_pool *layout(void)
{
	struct gen_pool *pool = gen_pool_create(5, -1);

	ck_assert_ptr_nonnull(pool);
	ck_assert_int_eq(gen_pool_add(pool, 0x20000, 1024 + 16, -1), 0);
	ck_assert_int_eq(gen_pool_add_used(pool, 0x10000, 1024, -1), 0);
	gen_pool_free(pool, 0x10040, 96);
	ck_assert_uint_eq(gen_pool_alloc(pool, 96), 0x10040);
	gen_pool_free(pool, 0x10040, 96);
	ck_assert_uint_eq(gen_pool_alloc_algo(pool, 96, gen_pool_fixed_alloc,
					      &(struct genpool_data_fixed){ 0 }), 0x20000);
	return pool;
}

/* Free every used run the walk reports: the pool must then be empty. */
static void drop(struct gen_pool *pool)
{
	struct runs r = { 0 };

	ck_assert_int_eq(gen_pool_for_each_run(pool, GEN_POOL_RUNS_USED, record_run, &r), 0);
	for (int i = 0; i < r.n; i++)
		gen_pool_free(pool, r.addr[i], r.size[i]);
	ck_assert_uint_eq(gen_pool_avail(pool), gen_pool_size(pool));
	ck_assert_int_eq(gen_pool_check(pool), 0);
	gen_pool_destroy(pool);
}

START_TEST(added_used_chunk_is_allocated_until_freed)
{
	struct gen_pool *pool = gen_pool_create(5, -1);

	capture_errors();
	ck_assert_int_eq(gen_pool_add_used(pool, 0x10000, 4096 + 16, -1), 0);
	ck_assert_uint_eq(gen_pool_size(pool), 4096 + 16);
	ck_assert_uint_eq(gen_pool_avail(pool), 16);	/* the tail, as gen_pool_add */
	ck_assert_uint_eq(gen_pool_alloc(pool, 32), 0);
	ck_assert_int_eq(gen_pool_check(pool), 0);
	gen_pool_free(pool, 0x10000 + 1024, 64);
	ck_assert_uint_eq(gen_pool_alloc(pool, 32), 0x10000 + 1024);
	ck_assert_uint_eq(gen_pool_alloc(pool, 64), 0);
	gen_pool_destroy(pool);
	ck_assert_error(GENALLOC_BUG, GENALLOC_EBUSY);
	gen_pool_free(pool, 0x10000, 1024);
	gen_pool_free(pool, 0x10000 + 1024, 32);
	gen_pool_free(pool, 0x10000 + 1024 + 64, 4096 - 1024 - 64);
	ck_assert_int_eq(gen_pool_check(pool), 0);
	ck_assert_uint_eq(gen_pool_avail(pool), 4096 + 16);
	/* It overlaps like any chunk. */
	ck_assert_int_eq(gen_pool_add_used(pool, 0x10000 + 4096, 64, -1), -EINVAL);
	ck_assert_error(GENALLOC_WARN, GENALLOC_EOVERLAP);
	gen_pool_destroy(pool);
	ck_assert_int_eq(errors_seen(), 0);
}
END_TEST

START_TEST(free_runs_in_address_order)
{
	struct gen_pool *pool = layout();
	static const unsigned long want[][3] = {
		{ 0x10040, 96, 0 },
		{ 0x20060, 1024 - 96, 0 },
	};

	expect_runs(pool, GEN_POOL_RUNS_FREE, 2, want);
	gen_pool_set_lockless(pool, true);
	expect_runs(pool, GEN_POOL_RUNS_FREE, 2, want);
	drop(pool);
}
END_TEST

START_TEST(used_runs_in_address_order)
{
	struct gen_pool *pool = layout();
	static const unsigned long want[][3] = {
		{ 0x10000, 64, 1 },
		{ 0x100a0, 1024 - 160, 1 },
		{ 0x20000, 96, 1 },
	};

	expect_runs(pool, GEN_POOL_RUNS_USED, 3, want);
	drop(pool);
}
END_TEST

START_TEST(all_runs_tile_each_chunk)
{
	struct gen_pool *pool = layout();
	static const unsigned long want[][3] = {
		{ 0x10000, 64, 1 },
		{ 0x10040, 96, 0 },
		{ 0x100a0, 1024 - 160, 1 },
		{ 0x20000, 96, 1 },
		{ 0x20060, 1024 - 96, 0 },
	};

	expect_runs(pool, GEN_POOL_RUNS_ALL, 5, want);
	drop(pool);
}
END_TEST

START_TEST(visitor_stops_the_walk)
{
	struct gen_pool *pool = layout();
	struct runs r = { .stop_after = 2 };

	ck_assert_int_eq(gen_pool_for_each_run(pool, GEN_POOL_RUNS_ALL, record_run, &r), 7);
	ck_assert_int_eq(r.n, 2);
	/* The lock was dropped: the pool still allocates. */
	ck_assert_uint_eq(gen_pool_alloc(pool, 32), 0x10040);
	drop(pool);
}
END_TEST

START_TEST(empty_pool_has_no_runs)
{
	struct gen_pool *pool = gen_pool_create(3, -1);

	expect_runs(pool, GEN_POOL_RUNS_ALL, 0, NULL);
	ck_assert_int_eq(gen_pool_add(pool, 0x1000, 4, -1), 0);	/* all tail */
	expect_runs(pool, GEN_POOL_RUNS_ALL, 0, NULL);
	gen_pool_destroy(pool);
}
END_TEST

START_TEST(bad_arguments_are_refused)
{
	struct gen_pool *pool = layout();
	struct runs r = { 0 };

	capture_errors();
	ck_assert_int_eq(gen_pool_for_each_run(NULL, GEN_POOL_RUNS_FREE, record_run, &r),
			 -EINVAL);
	assert_report_is(REPORT(GENALLOC_WARN, GENALLOC_EINVAL, "gen_pool_for_each_run", NULL,
				0, 0, "NULL pool"));
	ck_assert_int_eq(gen_pool_for_each_run(pool, GEN_POOL_RUNS_FREE, NULL, &r), -EINVAL);
	assert_report_is(REPORT(GENALLOC_WARN, GENALLOC_EINVAL, "gen_pool_for_each_run", pool,
				0, 0, "NULL function"));
	ck_assert_int_eq(gen_pool_for_each_run(pool, 0, record_run, &r), -EINVAL);
	ck_assert_error(GENALLOC_WARN, GENALLOC_EINVAL);
	ck_assert_int_eq(gen_pool_for_each_run(pool, 4, record_run, &r), -EINVAL);
	ck_assert_error(GENALLOC_WARN, GENALLOC_EINVAL);
	ck_assert_int_eq(r.n, 0);
	ck_assert_int_eq(gen_pool_add_used(NULL, 0x1000, 64, -1), -EINVAL);
	assert_report_is(REPORT(GENALLOC_WARN, GENALLOC_EINVAL, "gen_pool_add_used", NULL,
				0x1000, 64, "NULL pool"));
	drop(pool);
}
END_TEST

Suite *modern_walk_suite(void)
{
	Suite *s = suite_create("modern_walk");
	TCase *tc = tcase_create("walk");

	tcase_add_test(tc, added_used_chunk_is_allocated_until_freed);
	tcase_add_test(tc, free_runs_in_address_order);
	tcase_add_test(tc, used_runs_in_address_order);
	tcase_add_test(tc, all_runs_tile_each_chunk);
	tcase_add_test(tc, visitor_stops_the_walk);
	tcase_add_test(tc, empty_pool_has_no_runs);
	tcase_add_test(tc, bad_arguments_are_refused);
	suite_add_tcase(s, tc);
	return s;
}
