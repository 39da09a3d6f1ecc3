// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * test/legacy/test_signal.c - a signal handler that allocates and frees on
 * the buddy pool its own thread is using.  While the thread is inside a
 * locked call (raised from a region callback, which runs under the lock, or
 * from the lock held as every locked call holds it) the handler is refused,
 * WARN EREENTRY with the failure values; from get_new_chunk (which runs with
 * the lock dropped) and outside the pool it is served.  Signals sent from
 * another thread, a bounded number, while the thread allocates and frees:
 * never a hang (alarm() watchdog), never a lost or doubled block.
 */
#include <signal.h>

#include "../signals.h"
#include "../support.h"
#include "chunks.h"
#include "legacy/internal.h"
#include "../signals_2005.h"

#define SHIFT 12
#define WATCHDOG_SECONDS 30

static unsigned long held_block;

/* Also a free of a live block, which must then stay live. */
static void alloc_free_and_free_held(int sig)
{
	alloc_and_free(sig);
	gen_pool_free(sig_pool, held_block, 64);
}

static struct chunk_supply cs;

static struct gen_pool *new_pool(int prefill)
{
	chunk_supply_init(&cs, SHIFT, 16);
	sig_pool = supply_pool(&cs, prefill);
	return sig_pool;
}

static void finish(struct gen_pool *pool)
{
	ck_assert_int_eq(sig_others, 0);
	sig_stop();
	assert_consistent(pool);
	ck_assert_uint_eq(pool_live_bytes(pool), 0);
	gen_pool_destroy(pool);
}

START_TEST(refused_while_lock_held)
{
	struct gen_pool *pool = new_pool(1);
	struct legacy_gen_pool_stats before, after;

	held_block = gen_pool_alloc(pool, 64);
	ck_assert_uint_ne(held_block, 0);
	legacy_gen_pool_stats(pool, &before);
	sig_start(alloc_free_and_free_held, WATCHDOG_SECONDS);
	ck_assert(legacy_lock(pool));
	raise(SIGUSR1);
	legacy_unlock(pool);
	ck_assert_int_eq(sig_calls, 2);
	ck_assert_int_eq(sig_served, 0);
	ck_assert_int_eq(sig_refused, 3);
	legacy_gen_pool_stats(pool, &after);
	ck_assert_uint_eq(after.free_bytes, before.free_bytes);
	/* Outside the lock the same handler is served (and frees the block). */
	sig_start(alloc_free_and_free_held, WATCHDOG_SECONDS);
	raise(SIGUSR1);
	ck_assert_int_eq(sig_served, 2);
	ck_assert_int_eq(sig_refused, 0);
	finish(pool);
}
END_TEST

/* The region walk holds the lock while it calls back: a handler raised
 * there meets the lock held by its thread. */
START_TEST(refused_inside_region_walk)
{
	struct gen_pool *pool = new_pool(1);

	sig_start(alloc_and_free, WATCHDOG_SECONDS);
	legacy_gen_pool_for_each_region(pool, raise_in_region, NULL);
	ck_assert_int_eq(sig_calls, 2);
	ck_assert_int_eq(sig_served, 0);
	ck_assert_int_eq(sig_refused, 2);
	finish(pool);
}
END_TEST

/* get_new_chunk runs with the lock dropped: a handler raised there is
 * served, from the memory the pool has. */
static volatile sig_atomic_t raise_next;

static unsigned long raising_supply(struct gen_pool *pool)
{
	if (raise_next) {
		raise_next = 0;
		raise(SIGUSR1);
	}
	return supply_chunk(pool);
}

START_TEST(served_inside_get_new_chunk)
{
	struct gen_pool *pool = new_pool(1);
	unsigned long small, grown;

	pool->get_new_chunk = raising_supply;
	raise_next = 1;
	sig_start(alloc_and_free, WATCHDOG_SECONDS);
	/* The prefilled chunk is split: a whole chunk needs growth, and the
	 * handler's requests are served from the rest of the first one. */
	small = gen_pool_alloc(pool, 32);
	ck_assert_uint_ne(small, 0);
	ck_assert_int_eq(sig_calls, 0);
	grown = gen_pool_alloc(pool, 1 << SHIFT);
	ck_assert_uint_ne(grown, 0);
	ck_assert_int_eq(raise_next, 0);
	ck_assert_int_eq(sig_calls, 2);
	ck_assert_int_eq(sig_refused, 0);
	ck_assert_int_eq(sig_served, 2);
	gen_pool_free(pool, small, 32);
	gen_pool_free(pool, grown, 1 << SHIFT);
	finish(pool);
}
END_TEST

START_TEST(signals_from_another_thread)
{
	/* Room for every block at once: growth (which allocates its record)
	 * never happens in the handler. */
	struct gen_pool *pool = new_pool(16);

	sig_start(alloc_and_free, WATCHDOG_SECONDS);
	churn_under_signals(pool, 5, 500);
	ck_assert_int_le(sig_served + sig_refused, sig_calls);
	finish(pool);
}
END_TEST

Suite *legacy_signal_suite(void)
{
	Suite *s = suite_create("legacy_signal");
	TCase *tc = tcase_create("signal");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, refused_while_lock_held);
	tcase_add_test(tc, refused_inside_region_walk);
	tcase_add_test(tc, served_inside_get_new_chunk);
	tcase_add_test(tc, signals_from_another_thread);
	suite_add_tcase(s, tc);
	return s;
}
