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
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "../support.h"
#include "compat_fixture.h"

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

static void alloc_and_free(int sig)
{
	static const int sizes[] = { 32, 300 };
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

static struct gen_pool *start(int backend, int prefill, int cap)
{
	struct sigaction sa;

	alarm(WATCHDOG_SECONDS);
	sig_pool = fx_pool(backend, fx_provider_new(SHIFT, cap), prefill);
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = alloc_and_free;
	sigemptyset(&sa.sa_mask);
	ck_assert_int_eq(sigaction(SIGUSR1, &sa, NULL), 0);
	calls = served = refused = others = 0;
	genalloc_set_error_handler(count_reentry);
	return sig_pool;
}

static void finish(struct gen_pool *pool)
{
	ck_assert_int_eq(others, 0);
	genalloc_set_error_handler(NULL);
	ck_assert_int_eq(compat_gen_pool_check(pool), 0);
	ck_assert_uint_eq(fx_live_bytes(pool), 0);
	gen_pool_destroy(pool);
	alarm(0);
}

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

START_TEST(raised_inside_region_walk)
{
	struct gen_pool *pool = start(_i, 2, 2);

	compat_gen_pool_for_each_region(pool, raise_in_region, NULL);
	ck_assert_int_eq(calls, 2 * 2);
	if (compat_gen_pool_backend(pool) == COMPAT_BACKEND_BUDDY) {
		ck_assert_int_eq(served, 0);
		ck_assert_int_eq(refused, 2 * 2);
	} else {
		ck_assert_int_eq(served, 2 * 2);
		ck_assert_int_eq(refused, 0);
	}
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
	struct gen_pool *pool = start(_i, 1, 8);
	struct sender s = { .target = pthread_self() };
	unsigned long live[32] = { 0 };
	int live_size[32] = { 0 };
	unsigned long long rng = 9;
	pthread_t t;

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
		live_size[k] = 1 + (int)test_rng_below(&rng, 900);
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
	/* A refusal may be reported twice (the bitmap backend's engine, then
	 * its growth); only a report of another kind is a failure. */
	ck_assert_int_le(served, calls);
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
