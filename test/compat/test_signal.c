// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * test/compat/test_signal.c - a signal handler that allocates and frees on
 * the compat pool its own thread is using, on both backends: raised from
 * inside the region walk (which holds the backend's lock: the buddy backend
 * refuses the handler, WARN EREENTRY; the bitmap backend serves allocation
 * from known memory, which takes only its engine's lock), and sent from
 * another thread a bounded number of times while the thread allocates,
 * frees and grows the pool.  Never a hang (alarm() watchdog), never a block
 * handed out twice, the pool consistent at the end.
 */
#include <signal.h>

#include "../signals.h"
#include "../support.h"
#include "compat_fixture.h"
#include "../signals_2005.h"

#define SHIFT 12
#define WATCHDOG_SECONDS 30

static struct gen_pool *start(int backend, int prefill, int cap)
{
	sig_pool = fx_pool(backend, fx_provider_new(SHIFT, cap), prefill);
	sig_start(alloc_and_free, WATCHDOG_SECONDS);
	return sig_pool;
}

static void finish(struct gen_pool *pool)
{
	ck_assert_int_eq(sig_others, 0);
	sig_stop();
	ck_assert_int_eq(compat_gen_pool_check(pool), 0);
	ck_assert_uint_eq(fx_live_bytes(pool), 0);
	gen_pool_destroy(pool);
}

START_TEST(raised_inside_region_walk)
{
	struct gen_pool *pool = start(_i, 2, 2);

	compat_gen_pool_for_each_region(pool, raise_in_region, NULL);
	ck_assert_int_eq(sig_calls, 2 * 2);
	if (compat_gen_pool_backend(pool) == COMPAT_BACKEND_BUDDY) {
		ck_assert_int_eq(sig_served, 0);
		ck_assert_int_eq(sig_refused, 2 * 2);
	} else {
		ck_assert_int_eq(sig_served, 2 * 2);
		ck_assert_int_eq(sig_refused, 0);
	}
	finish(pool);
}
END_TEST

START_TEST(signals_from_another_thread)
{
	/* Room for every block at once: growth (which allocates its record)
	 * never happens in the handler. */
	struct gen_pool *pool = start(_i, 8, 8);

	churn_under_signals(pool, 9, 500);
	finish(pool);
}
END_TEST

Suite *compat_signal_suite(void)
{
	Suite *s = suite_create("compat_signal");
	TCase *tc = tcase_create("signal");

	tcase_set_timeout(tc, 60);
	tcase_add_loop_test(tc, raised_inside_region_walk, 0, 2);
	tcase_add_loop_test(tc, signals_from_another_thread, 0, 2);
	suite_add_tcase(s, tc);
	return s;
}
