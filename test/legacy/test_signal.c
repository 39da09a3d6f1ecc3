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
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "../support.h"
#include "chunks.h"
#include "legacy/internal.h"

#define SHIFT 12
#define WATCHDOG_SECONDS 30

static struct gen_pool *sig_pool;
static volatile sig_atomic_t calls, served, refused, others;

static void count_reentry(const struct genalloc_error *err)
{
	if (err->code == GENALLOC_EREENTRY && err->severity == GENALLOC_WARN)
		refused = refused + 1;
	else
		others = others + 1;
}

/* Two allocations of different orders, each freed at once if served. */
static void alloc_and_free(int sig)
{
	static const int sizes[] = { 32, 200 };
	int saved = errno;

	(void)sig;
	for (int i = 0; i < 2; i++) {
		unsigned long a = gen_pool_alloc(sig_pool, sizes[i]);

		calls = calls + 1;
		if (!a)
			continue;
		served = served + 1;
		memset((void *)a, 0x5a, (size_t)sizes[i]);
		gen_pool_free(sig_pool, a, sizes[i]);
	}
	errno = saved;
}

static unsigned long held_block;

/* Also a free of a live block, which must then stay live. */
static void alloc_free_and_free_held(int sig)
{
	alloc_and_free(sig);
	gen_pool_free(sig_pool, held_block, 64);
}

static void install(void (*fn)(int))
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = fn;
	sigemptyset(&sa.sa_mask);
	ck_assert_int_eq(sigaction(SIGUSR1, &sa, NULL), 0);
	calls = served = refused = others = 0;
	genalloc_set_error_handler(count_reentry);
}

static struct chunk_supply cs;

static struct gen_pool *new_pool(int prefill)
{
	alarm(WATCHDOG_SECONDS);
	chunk_supply_init(&cs, SHIFT, 16);
	sig_pool = supply_pool(&cs, prefill);
	return sig_pool;
}

static void finish(struct gen_pool *pool)
{
	ck_assert_int_eq(others, 0);
	genalloc_set_error_handler(NULL);
	assert_consistent(pool);
	ck_assert_uint_eq(pool_live_bytes(pool), 0);
	gen_pool_destroy(pool);
	alarm(0);
}

START_TEST(refused_while_lock_held)
{
	struct gen_pool *pool = new_pool(1);
	struct legacy_gen_pool_stats before, after;

	held_block = gen_pool_alloc(pool, 64);
	ck_assert_uint_ne(held_block, 0);
	legacy_gen_pool_stats(pool, &before);
	install(alloc_free_and_free_held);
	ck_assert(legacy_lock(pool));
	raise(SIGUSR1);
	legacy_unlock(pool);
	ck_assert_int_eq(calls, 2);
	ck_assert_int_eq(served, 0);
	ck_assert_int_eq(refused, 3);
	legacy_gen_pool_stats(pool, &after);
	ck_assert_uint_eq(after.free_bytes, before.free_bytes);
	/* Outside the lock the same handler is served (and frees the block). */
	install(alloc_free_and_free_held);
	raise(SIGUSR1);
	ck_assert_int_eq(served, 2);
	ck_assert_int_eq(refused, 0);
	finish(pool);
}
END_TEST

static void raise_in_region(struct gen_pool *pool, unsigned long addr, unsigned long size,
			    int from_callback, void *data)
{
	(void)pool;
	(void)addr;
	(void)size;
	(void)from_callback;
	(void)data;
	raise(SIGUSR1);
}

/* The region walk holds the lock while it calls back: a handler raised
 * there meets the lock held by its thread. */
START_TEST(refused_inside_region_walk)
{
	struct gen_pool *pool = new_pool(1);

	install(alloc_and_free);
	legacy_gen_pool_for_each_region(pool, raise_in_region, NULL);
	ck_assert_int_eq(calls, 2);
	ck_assert_int_eq(served, 0);
	ck_assert_int_eq(refused, 2);
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
	unsigned long big, grown;

	pool->get_new_chunk = raising_supply;
	raise_next = 1;
	install(alloc_and_free);
	/* The prefilled chunk is taken whole: the next request grows. */
	big = gen_pool_alloc(pool, 1 << SHIFT);
	ck_assert_uint_ne(big, 0);
	ck_assert_int_eq(calls, 0);
	grown = gen_pool_alloc(pool, 1 << SHIFT);
	ck_assert_uint_ne(grown, 0);
	ck_assert_int_eq(raise_next, 0);
	ck_assert_int_eq(calls, 2);
	ck_assert_int_eq(refused, 0);
	/* The handler's requests grew the pool from inside the callback. */
	ck_assert_int_eq(served, 2);
	gen_pool_free(pool, big, 1 << SHIFT);
	gen_pool_free(pool, grown, 1 << SHIFT);
	finish(pool);
}
END_TEST

struct sender {
	pthread_t target;
	atomic_int stop;
	int sent;
};

static void *send_signals(void *arg)
{
	struct sender *s = arg;
	struct timespec pause = { 0, 20 * 1000 };

	while (!atomic_load(&s->stop) && s->sent < 2000) {
		pthread_kill(s->target, SIGUSR1);
		s->sent++;
		nanosleep(&pause, NULL);
	}
	return NULL;
}

START_TEST(signals_from_another_thread)
{
	struct gen_pool *pool = new_pool(4);
	struct sender s = { .target = pthread_self() };
	unsigned long live[32] = { 0 };
	int live_size[32] = { 0 };
	unsigned long long rng = 5;
	pthread_t t;

	install(alloc_and_free);
	ck_assert_int_eq(pthread_create(&t, NULL, send_signals, &s), 0);
	for (unsigned int i = 0; i < 4000000 && calls < 600; i++) {
		unsigned int k = (unsigned int)test_rng_below(&rng, 32);

		if (!(i & 4095))
			nanosleep(&(struct timespec){ 0, 1000 }, NULL);
		if (live[k]) {
			const unsigned char *p = (const unsigned char *)live[k];

			/* The handler's blocks never land on a live one. */
			for (int b = 0; b < live_size[k]; b++)
				if (p[b] != (unsigned char)k)
					others = others + 1;
			gen_pool_free(pool, live[k], live_size[k]);
			live[k] = 0;
			continue;
		}
		live_size[k] = 1 + (int)test_rng_below(&rng, 500);
		live[k] = gen_pool_alloc(pool, live_size[k]);
		if (live[k])
			memset((void *)live[k], (int)k, (size_t)live_size[k]);
	}
	atomic_store(&s.stop, 1);
	pthread_join(t, NULL);
	for (int k = 0; k < 32; k++)
		if (live[k])
			gen_pool_free(pool, live[k], live_size[k]);
	ck_assert_int_gt(calls, 0);
	ck_assert_int_le(served + refused, calls);
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
