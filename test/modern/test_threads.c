// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * test/modern/test_threads.c - lock-free allocation and free from several
 * threads on one pool, with chunks added meanwhile.  An ownership map (one
 * atomic owner per granule) catches any block handed out twice; the final
 * accounting and the checker catch lost or leaked granules.  Long runs when
 * GENALLOC_STRESS=long (make check-tsan sets it).
 */
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>

#include "../support.h"
#include "modern/genalloc.h"

#define ORDER 4
#define BASE 0x1000000UL
#define CHUNK_BYTES (64UL * 1024)
#define MAX_CHUNKS 6
#define NGRANULES (MAX_CHUNKS * CHUNK_BYTES >> ORDER)
#define NTHREADS 4
#define LIVE 48

static struct gen_pool *pool;
static _Atomic int owner_of[NGRANULES];
static atomic_int failures;
static atomic_long total_ops;

static bool long_run(void)
{
	const char *s = getenv("GENALLOC_STRESS");

	return s && !strcmp(s, "long");
}

/* Mark [addr, addr + size) as @tid's; false if any granule had an owner. */
static bool take_granules(unsigned long addr, size_t size, int tid)
{
	unsigned long g = (addr - BASE) >> ORDER, n = (size + (1UL << ORDER) - 1) >> ORDER;
	bool ok = true;

	while (n--)
		if (atomic_exchange(&owner_of[g++], tid) != 0)
			ok = false;
	return ok;
}

static bool give_granules(unsigned long addr, size_t size, int tid)
{
	unsigned long g = (addr - BASE) >> ORDER, n = (size + (1UL << ORDER) - 1) >> ORDER;
	bool ok = true;

	while (n--)
		if (atomic_exchange(&owner_of[g++], 0) != tid)
			ok = false;
	return ok;
}

struct block {
	unsigned long addr;
	size_t size;
};

static unsigned long alloc_some(unsigned long long *rng, size_t size)
{
	static struct genpool_data_align align64 = { .align = 64 };

	switch (test_rng_below(rng, 4)) {
	case 0: return gen_pool_alloc(pool, size);
	case 1: return gen_pool_alloc_algo(pool, size, gen_pool_best_fit, NULL);
	case 2: return gen_pool_alloc_algo(pool, size, gen_pool_first_fit_order_align, NULL);
	default: return gen_pool_alloc_algo(pool, size, gen_pool_first_fit_align, &align64);
	}
}

static void *worker(void *arg)
{
	int tid = (int)(long)arg;
	unsigned long long rng = 0x1234567ULL * (unsigned long long)tid + 1;
	struct block live[LIVE];
	int nlive = 0, i, k;
	long ops = long_run() ? 200000 : 20000, op;

	for (op = 0; op < ops; op++) {
		if (tid == 1 && (op == ops / 3 || op == 2 * ops / 3)) {
			unsigned long k2 = op == ops / 3 ? 2 : 3;

			if (gen_pool_add(pool, BASE + k2 * CHUNK_BYTES, CHUNK_BYTES, -1))
				atomic_fetch_add(&failures, 1);
		}
		if (nlive < LIVE && (nlive == 0 || test_rng_below(&rng, 2))) {
			size_t size = 1 + test_rng_below(&rng, 300);
			unsigned long a = alloc_some(&rng, size);

			if (!a)
				continue;
			if (!take_granules(a, size, tid))
				atomic_fetch_add(&failures, 1);
			live[nlive].addr = a;
			live[nlive++].size = size;
		} else {
			k = (int)test_rng_below(&rng, (unsigned long long)nlive);
			if (!give_granules(live[k].addr, live[k].size, tid))
				atomic_fetch_add(&failures, 1);
			gen_pool_free(pool, live[k].addr, live[k].size);
			live[k] = live[--nlive];
		}
	}
	for (i = 0; i < nlive; i++) {
		if (!give_granules(live[i].addr, live[i].size, tid))
			atomic_fetch_add(&failures, 1);
		gen_pool_free(pool, live[i].addr, live[i].size);
	}
	atomic_fetch_add(&total_ops, ops);
	return NULL;
}

START_TEST(threads_never_share_a_granule)
{
	pthread_t th[NTHREADS];
	struct gen_pool_stats st;
	long i;

	pool = gen_pool_create(ORDER, -1);
	ck_assert_ptr_nonnull(pool);
	gen_pool_set_lockless(pool, _i);	/* both modes: indexed, lock-free */
	/* Small chunks so that threads meet, fail and fall through to others. */
	ck_assert_int_eq(gen_pool_add(pool, BASE, CHUNK_BYTES / 16, -1), 0);
	ck_assert_int_eq(gen_pool_add(pool, BASE + CHUNK_BYTES, CHUNK_BYTES / 8, -1), 0);
	for (i = 0; i < NTHREADS; i++)
		ck_assert_int_eq(pthread_create(&th[i], NULL, worker, (void *)(i + 1)), 0);
	for (i = 0; i < NTHREADS; i++)
		pthread_join(th[i], NULL);
	ck_assert_int_eq(atomic_load(&failures), 0);
	ck_assert_int_eq(atomic_load(&total_ops), NTHREADS * (long_run() ? 200000 : 20000));
	ck_assert_int_eq(gen_pool_check(pool), 0);
	gen_pool_stats(pool, &st);
	ck_assert_uint_eq(st.nr_chunks, 4);
	ck_assert_uint_eq(st.avail, st.size);
	ck_assert_uint_eq(st.size, CHUNK_BYTES / 16 + CHUNK_BYTES / 8 + 2 * CHUNK_BYTES);
	ck_assert_uint_eq(st.nr_free_extents, 4);
	for (i = 0; i < (long)NGRANULES; i++)
		ck_assert_int_eq(atomic_load(&owner_of[i]), 0);
	gen_pool_destroy(pool);
}
END_TEST

/* Two threads free the same block at once: exactly one free may succeed. */
static atomic_int double_frees;
static pthread_barrier_t barrier;
static unsigned long race_addr;

static void count_double_free(const struct genalloc_error *err)
{
	if (err->severity == GENALLOC_BUG && err->code == GENALLOC_EDOUBLEFREE)
		atomic_fetch_add(&double_frees, 1);
	else
		atomic_fetch_add(&failures, 1);
}

#define RACE_BYTES (300UL << ORDER)	/* several bitmap words */

static void *racer(void *arg)
{
	long rounds = (long)arg, r;

	for (r = 0; r < rounds; r++) {
		pthread_barrier_wait(&barrier);
		gen_pool_free(pool, race_addr, RACE_BYTES);
		pthread_barrier_wait(&barrier);
	}
	return NULL;
}

START_TEST(concurrent_double_free_is_caught_once)
{
	long rounds = long_run() ? 20000 : 2000, r;
	pthread_t a, b;

	pool = gen_pool_create(ORDER, -1);
	gen_pool_set_lockless(pool, _i);	/* both modes: indexed, lock-free */
	ck_assert_int_eq(gen_pool_add(pool, BASE, CHUNK_BYTES, -1), 0);
	genalloc_set_error_handler(count_double_free);
	pthread_barrier_init(&barrier, NULL, 3);
	ck_assert_int_eq(pthread_create(&a, NULL, racer, (void *)rounds), 0);
	ck_assert_int_eq(pthread_create(&b, NULL, racer, (void *)rounds), 0);
	for (r = 0; r < rounds; r++) {
		race_addr = gen_pool_alloc(pool, RACE_BYTES);
		pthread_barrier_wait(&barrier);
		pthread_barrier_wait(&barrier);
		if (gen_pool_avail(pool) != CHUNK_BYTES || gen_pool_check(pool))
			atomic_fetch_add(&failures, 1);
	}
	pthread_join(a, NULL);
	pthread_join(b, NULL);
	pthread_barrier_destroy(&barrier);
	ck_assert_int_eq(atomic_load(&failures), 0);
	ck_assert_int_eq(atomic_load(&double_frees), rounds);
	gen_pool_destroy(pool);
}
END_TEST

/*
 * Allocation and free are async-signal-safe: a timer signal allocates and
 * frees on the pool the interrupted code is using, possibly in the middle of
 * a claim or a release.  The ownership map must stay exclusive.
 */
static volatile sig_atomic_t in_handler_runs;

static void alloc_in_handler(int sig)
{
	unsigned long a = gen_pool_alloc(pool, 48);

	(void)sig;
	if (!a)
		return;
	if (!take_granules(a, 48, 99) || !give_granules(a, 48, 99))
		atomic_fetch_add(&failures, 1);
	gen_pool_free(pool, a, 48);
	in_handler_runs = in_handler_runs + 1;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

START_TEST(signal_handler_allocates_on_the_same_pool)
{
	struct itimerval every = { { 0, 200 }, { 0, 200 } }, off = { { 0, 0 }, { 0, 0 } };
	struct sigaction sa;
	unsigned long long rng = 77;
	double deadline = now() + 0.5;
	unsigned long a;
	size_t size;

	pool = gen_pool_create(ORDER, -1);
	/* Only the kernel's lock-free path is async-signal-safe; the indexed
	 * mode takes a mutex the interrupted code may hold. */
	gen_pool_set_lockless(pool, true);
	ck_assert_int_eq(gen_pool_add(pool, BASE, CHUNK_BYTES / 32, -1), 0);
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = alloc_in_handler;
	sigemptyset(&sa.sa_mask);
	ck_assert_int_eq(sigaction(SIGALRM, &sa, NULL), 0);
	ck_assert_int_eq(setitimer(ITIMER_REAL, &every, NULL), 0);
	while (in_handler_runs < 20 && now() < deadline) {
		size = 1 + test_rng_below(&rng, 1000);
		a = gen_pool_alloc_algo(pool, size, test_rng_below(&rng, 2) ?
					gen_pool_first_fit : gen_pool_best_fit, NULL);
		if (!a)
			continue;
		if (!take_granules(a, size, 1) || !give_granules(a, size, 1))
			atomic_fetch_add(&failures, 1);
		gen_pool_free(pool, a, size);
	}
	ck_assert_int_eq(setitimer(ITIMER_REAL, &off, NULL), 0);
	ck_assert_int_gt(in_handler_runs, 0);
	ck_assert_int_eq(atomic_load(&failures), 0);
	ck_assert_int_eq(gen_pool_check(pool), 0);
	ck_assert_uint_eq(gen_pool_avail(pool), gen_pool_size(pool));
	gen_pool_destroy(pool);
}
END_TEST

/*
 * Statistics while best fit runs in another thread: the size classes are
 * built lazily under the pool's lock, and gen_pool_stats() reads their
 * size under the same lock (ThreadSanitizer checks the pairing).
 */
static void *best_fit_churn(void *arg)
{
	unsigned long long rng = 5;
	long i;

	(void)arg;
	for (i = 0; i < 3000; i++) {
		size_t size = 8 + test_rng_below(&rng, 400);
		unsigned long a = gen_pool_alloc_algo(pool, size, gen_pool_best_fit, NULL);

		if (a)
			gen_pool_free(pool, a, size);
	}
	return NULL;
}

START_TEST(stats_while_best_fit_runs)
{
	struct gen_pool_stats st;
	pthread_t th;
	int i;

	pool = gen_pool_create(ORDER, -1);
	ck_assert_int_eq(gen_pool_add(pool, BASE, CHUNK_BYTES, -1), 0);
	ck_assert_int_eq(pthread_create(&th, NULL, best_fit_churn, NULL), 0);
	for (i = 0; i < 200; i++) {
		gen_pool_stats(pool, &st);
		ck_assert_uint_eq(st.size, CHUNK_BYTES);
		ck_assert_uint_le(st.avail, CHUNK_BYTES);
	}
	pthread_join(th, NULL);
	gen_pool_stats(pool, &st);
	ck_assert_uint_eq(st.avail, CHUNK_BYTES);
	ck_assert_uint_eq(st.nr_free_extents, 1);
	ck_assert_int_eq(gen_pool_check(pool), 0);
	gen_pool_destroy(pool);
}
END_TEST

/*
 * Statistics in lock-free mode, while another thread allocates and frees:
 * no lock holds the bitmap still, so a free granule the walk has found may
 * be claimed before the walk measures its run.  Each snapshot must still
 * be sane (it is exact only on a quiet pool).  The churn is a fixed number
 * of operations, not a time: under valgrind, which runs one thread at a
 * time, a thread that never blocks can keep the other from running at all.
 */
static atomic_bool churn_done;

static void *lock_free_churn(void *arg)
{
	unsigned long live[64] = { 0 }, size[64] = { 0 };
	unsigned long long rng = 11;
	long ops = (long)arg;

	while (ops--) {
		unsigned k = (unsigned)test_rng_below(&rng, 64);

		if (live[k]) {
			gen_pool_free(pool, live[k], size[k]);
			live[k] = 0;
		} else {
			size[k] = 8 + test_rng_below(&rng, 40);
			live[k] = gen_pool_alloc(pool, size[k]);
		}
	}
	for (unsigned k = 0; k < 64; k++)
		if (live[k])
			gen_pool_free(pool, live[k], size[k]);
	atomic_store(&churn_done, true);
	return NULL;
}

START_TEST(stats_while_lock_free_churn)
{
	long ops = long_run() ? 6000000 : 3000000;
	struct gen_pool_stats st;
	size_t sum, k;
	pthread_t th;

	pool = gen_pool_create(3, -1);
	ck_assert_int_eq(gen_pool_add(pool, BASE, 4096, -1), 0);
	gen_pool_set_lockless(pool, true);
	atomic_store(&churn_done, false);
	ck_assert_int_eq(pthread_create(&th, NULL, lock_free_churn, (void *)ops), 0);
	while (!atomic_load(&churn_done)) {
		gen_pool_stats(pool, &st);
		for (sum = 0, k = 0; k < 64; k++)
			sum += st.hist[k];
		ck_assert_uint_eq(sum, st.nr_free_extents);
		ck_assert_uint_le(st.largest_free, 4096);
		ck_assert_uint_le(st.nr_free_extents, 4096 / 8 / 2 + 1);
	}
	pthread_join(th, NULL);
	gen_pool_stats(pool, &st);
	ck_assert_uint_eq(st.avail, 4096);
	ck_assert_uint_eq(st.nr_free_extents, 1);
	ck_assert_int_eq(gen_pool_check(pool), 0);
	gen_pool_destroy(pool);
}
END_TEST

Suite *modern_threads_suite(void)
{
	Suite *s = suite_create("modern_threads");
	TCase *tc = tcase_create("stress");

	tcase_add_loop_test(tc, threads_never_share_a_granule, 0, 2);
	tcase_add_loop_test(tc, concurrent_double_free_is_caught_once, 0, 2);
	tcase_add_test(tc, stats_while_best_fit_runs);
	tcase_add_test(tc, stats_while_lock_free_churn);
	tcase_add_test(tc, signal_handler_allocates_on_the_same_pool);
	suite_add_tcase(s, tc);
	return s;
}
