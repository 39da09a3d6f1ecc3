// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * test/modern/test_signal.c - a signal handler that allocates and frees on
 * the pool its own thread is using, on every allocation and free path
 * (first fit, best fit, order-aligned, aligned, fixed, with and without an
 * owner, the DMA helpers; gen_pool_free and gen_pool_free_owner), in both
 * modes.  Lock-free mode serves the handler; indexed mode refuses it
 * (WARN EREENTRY, failure values, pool unchanged) while its thread is
 * inside a locked call, and serves it otherwise.  Nothing may hang: each
 * test arms an alarm() watchdog whose default action ends the run.
 *
 * The interruption is made deterministic two ways: the signal is raised
 * from inside the path (a user algorithm that raise()s, called by the
 * allocation under the lock in indexed mode, mid-claim in lock-free mode),
 * or from a state the path is in (the pool's lock held by this thread, as
 * every locked call holds it).  A third test sends a bounded number of
 * signals from another thread while the thread allocates and frees on
 * every path, with a shadow map of its live blocks that the handler's
 * blocks must never overlap.
 *
 * This file includes <linux/genalloc.h> (by its path here): its gen_pool_create() makes
 * lock-free pools (checked below); indexed pools are made explicitly.
 */
#include "modern/linux/genalloc.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <string.h>
#include <unistd.h>

#include "../signals.h"
#include "../support.h"
#include "modern/linux/device.h"
#include "modern/linux/err.h"
#include "modern/lock_internal.h"
#include "modern/chunks_internal.h"

#define ORDER 5
#define BASE 0x40000000UL
#define PHYS 0x9000000000ULL
#define POOL_BYTES (64UL * 1024)
#define NGRANULES (POOL_BYTES >> ORDER)
#define WATCHDOG_SECONDS 30

static struct gen_pool *sig_pool;

/* Granules the test's thread holds: set after its allocation returns,
 * cleared before it frees, so never more than it owns. */
static volatile unsigned char shadow[NGRANULES];

static bool overlaps_shadow(unsigned long a, size_t size)
{
	unsigned long g = (a - BASE) >> ORDER, n = (size + (1UL << ORDER) - 1) >> ORDER;

	if (a < BASE || g + n > NGRANULES)
		return true;
	while (n--)
		if (shadow[g++])
			return true;
	return false;
}

static void shadow_set(unsigned long a, size_t size, unsigned char v)
{
	unsigned long g = (a - BASE) >> ORDER, n = (size + (1UL << ORDER) - 1) >> ORDER;

	while (n--)
		shadow[g++] = v;
}

/* One call of the handler: note it, check the block, keep it for freeing. */
static void handler_got(unsigned long a, size_t size, unsigned long *kept, size_t *nkept,
			size_t *sizes)
{
	sig_calls = sig_calls + 1;
	if (!a)
		return;
	sig_served = sig_served + 1;
	if (overlaps_shadow(a, size))
		sig_others = sig_others + 1;
	sizes[*nkept] = size;
	kept[(*nkept)++] = a;
}

/* Every allocation path, then both frees, on sig_pool. */
static void every_path(int sig)
{
	struct genpool_data_align align = { .align = 256 };
	struct genpool_data_fixed fixed = { .offset = POOL_BYTES - 1024 };
	unsigned long kept[16];
	size_t sizes[16], n = 0;
	dma_addr_t dma;
	void *owner;
	int saved = errno;

	(void)sig;
	handler_got(gen_pool_alloc(sig_pool, 40), 40, kept, &n, sizes);
	handler_got(gen_pool_alloc_algo(sig_pool, 96, gen_pool_best_fit, NULL), 96, kept, &n,
		    sizes);
	handler_got(gen_pool_alloc_algo(sig_pool, 100, gen_pool_first_fit_order_align, NULL),
		    100, kept, &n, sizes);
	handler_got(gen_pool_alloc_algo(sig_pool, 64, gen_pool_first_fit_align, &align), 64,
		    kept, &n, sizes);
	handler_got(gen_pool_alloc_algo_owner(sig_pool, 32, gen_pool_fixed_alloc, &fixed,
					      &owner), 32, kept, &n, sizes);
	handler_got(gen_pool_alloc_owner(sig_pool, 33, &owner), 33, kept, &n, sizes);
	handler_got((unsigned long)gen_pool_dma_alloc(sig_pool, 64, &dma), 64, kept, &n, sizes);
	if (n && dma != PHYS + (kept[n - 1] - BASE))
		sig_others = sig_others + 1;
	handler_got((unsigned long)gen_pool_dma_alloc_align(sig_pool, 64, &dma, 512), 64, kept,
		    &n, sizes);
	handler_got((unsigned long)gen_pool_dma_alloc_algo(sig_pool, 64, &dma, gen_pool_best_fit,
							   NULL), 64, kept, &n, sizes);
	for (size_t i = 0; i < n; i++) {
		if (i & 1)
			gen_pool_free_owner(sig_pool, kept[i], sizes[i], &owner);
		else
			gen_pool_free(sig_pool, kept[i], sizes[i]);
	}
	errno = saved;
}

#define PATHS 9	/* allocations every_path() makes */

static struct gen_pool *new_pool(bool lockless)
{
	struct gen_pool *pool = gen_pool_create(ORDER, NUMA_NO_NODE);

	ck_assert_ptr_nonnull(pool);
	gen_pool_set_lockless(pool, lockless);
	ck_assert_int_eq(gen_pool_add_virt(pool, BASE, PHYS, POOL_BYTES, NUMA_NO_NODE), 0);
	/* Best fit's first call on a chunk allocates its size classes
	 * (indexed mode): done here, not in a handler. */
	gen_pool_free(pool, gen_pool_alloc_algo(pool, 32, gen_pool_best_fit, NULL), 32);
	return pool;
}

/* Counters zeroed, @fn installed, the shadow map empty, the watchdog armed. */
static void start(void (*fn)(int))
{
	sig_start(fn, WATCHDOG_SECONDS);
	memset((void *)shadow, 0, sizeof(shadow));
}

static void finish(struct gen_pool *pool)
{
	ck_assert_int_eq(sig_others, 0);
	sig_stop();
	ck_assert_int_eq(gen_pool_check(pool), 0);
	ck_assert_uint_eq(gen_pool_avail(pool), gen_pool_size(pool));
	gen_pool_destroy(pool);
}

/* ------------------------------------------------------------ the default */

START_TEST(kernel_header_pools_are_lock_free)
{
	struct device dev = { .name = "nmi" };
	struct gen_pool *pool = gen_pool_create(ORDER, NUMA_NO_NODE);
	struct gen_pool *managed = devm_gen_pool_create(&dev, ORDER, NUMA_NO_NODE, "records");

	ck_assert(pool->lockless);
	ck_assert(!IS_ERR_OR_NULL(managed));
	ck_assert(managed->lockless);
	gen_pool_destroy(pool);
	device_release(&dev);
	/* The native header's default, through the library's own call. */
	pool = modern_gen_pool_create(ORDER, NUMA_NO_NODE);
	ck_assert(!pool->lockless);
	gen_pool_destroy(pool);
}
END_TEST

/* ------------------------------------------------- raised inside the path */

static volatile sig_atomic_t raise_next;

/* First fit that raises the signal once, mid-allocation: under the pool's
 * lock in indexed mode, between search and claim in lock-free mode. */
static unsigned long raising_first_fit(unsigned long *map, unsigned long size,
				       unsigned long start, unsigned int nr, void *data,
				       struct gen_pool *pool, unsigned long start_addr)
{
	if (raise_next) {
		raise_next = 0;
		raise(SIGUSR1);
	}
	return gen_pool_first_fit(map, size, start, nr, data, pool, start_addr);
}

static void raised_inside_alloc(bool lockless)
{
	struct gen_pool *pool = new_pool(lockless);
	unsigned long first = gen_pool_alloc(pool, 64), a;

	sig_pool = pool;
	start(every_path);
	shadow_set(first, 64, 1);
	raise_next = 1;
	a = gen_pool_alloc_algo(pool, 128, raising_first_fit, NULL);
	ck_assert_int_eq(raise_next, 0);
	ck_assert_int_eq(sig_calls, PATHS);
	if (lockless) {
		ck_assert_int_eq(sig_served, PATHS);
		ck_assert_int_eq(sig_refused, 0);
	} else {
		/* Every allocation and nothing to free: refused, reported. */
		ck_assert_int_eq(sig_served, 0);
		ck_assert_int_eq(sig_refused, PATHS);
	}
	/* The interrupted call's answer is the kernel's all the same. */
	ck_assert_uint_eq(a, BASE + 64);
	shadow_set(first, 64, 0);
	gen_pool_free(pool, first, 64);
	gen_pool_free(pool, a, 128);
	finish(pool);
}

START_TEST(raised_inside_alloc_lockless)
{
	raised_inside_alloc(true);
}
END_TEST

START_TEST(raised_inside_alloc_indexed)
{
	raised_inside_alloc(false);
}
END_TEST

/* ---------------------------------------------- raised with the lock held */

static unsigned long held_block;

/* What a handler meets in any locked call: every path, and a free of a
 * live block. */
static void every_path_and_more(int sig)
{
	every_path(sig);
	gen_pool_free(sig_pool, held_block, 64);
}

START_TEST(raised_while_lock_held_indexed)
{
	struct gen_pool *pool = new_pool(false);
	size_t avail;

	held_block = gen_pool_alloc(pool, 64);
	ck_assert_uint_ne(held_block, 0);
	avail = gen_pool_avail(pool);
	sig_pool = pool;
	start(every_path_and_more);
	/* The state every locked call of this thread is in. */
	ck_assert(modern_lock_acquire(&pool->lock));
	raise(SIGUSR1);
	/* Adding memory allocates, so not from a handler: the same state. */
	ck_assert_int_eq(gen_pool_add(pool, BASE + 2 * POOL_BYTES, POOL_BYTES, NUMA_NO_NODE),
			 -EDEADLK);
	modern_lock_release(&pool->lock);
	ck_assert_int_eq(sig_calls, PATHS);
	ck_assert_int_eq(sig_served, 0);
	/* Nine allocations, the free and the add: each refused once. */
	ck_assert_int_eq(sig_refused, PATHS + 2);
	/* Nothing changed: the block is still allocated, no chunk was added. */
	ck_assert_uint_eq(gen_pool_avail(pool), avail);
	ck_assert_uint_eq(gen_pool_size(pool), POOL_BYTES);
	/* Outside the lock the same paths are served. */
	start(every_path);
	raise(SIGUSR1);
	ck_assert_int_eq(sig_served, PATHS);
	ck_assert_int_eq(sig_refused, 0);
	gen_pool_free(pool, held_block, 64);
	finish(pool);
}
END_TEST

/* The message names the cause and the fix. */
START_TEST(refusal_message_names_cause_and_fix)
{
	struct gen_pool *pool = new_pool(false);
	struct stderr_capture c;
	char text[1024];

	alarm(WATCHDOG_SECONDS);
	ck_assert(modern_lock_acquire(&pool->lock));
	stderr_capture_start(&c);
	ck_assert_uint_eq(gen_pool_alloc(pool, 32), 0);
	stderr_capture_end(&c, text, sizeof(text));
	modern_lock_release(&pool->lock);
	ck_assert_ptr_nonnull(strstr(text, "WARN EREENTRY: gen_pool_alloc"));
	ck_assert_ptr_nonnull(strstr(text, "signal handler"));
	ck_assert_ptr_nonnull(strstr(text, "gen_pool_set_lockless"));
	ck_assert_ptr_nonnull(strstr(text, "<linux/genalloc.h>"));
	gen_pool_destroy(pool);
	alarm(0);
}
END_TEST

/* ------------------------------------------- signals from another thread */

static unsigned long main_alloc(struct gen_pool *pool, unsigned int i, size_t size)
{
	struct genpool_data_align align = { .align = 128 };
	dma_addr_t dma;
	void *owner;

	switch (i % 6) {
	case 0:
		return gen_pool_alloc(pool, size);
	case 1:
		return gen_pool_alloc_algo(pool, size, gen_pool_best_fit, NULL);
	case 2:
		return gen_pool_alloc_algo(pool, size, gen_pool_first_fit_order_align, NULL);
	case 3:
		return gen_pool_alloc_algo_owner(pool, size, gen_pool_first_fit_align, &align,
						 &owner);
	case 4:
		return (unsigned long)gen_pool_dma_alloc(pool, size, &dma);
	default:
		return (unsigned long)gen_pool_dma_alloc_align(pool, size, &dma, 256);
	}
}

static void signals_from_another_thread(bool lockless)
{
	struct gen_pool *pool = new_pool(lockless);
	unsigned long live[32] = { 0 };
	size_t live_size[32] = { 0 };
	unsigned long long rng = 41;
	struct sig_sender sender;
	void *owner;

	sig_pool = pool;
	start(every_path);
	sig_sender_start(&sender);
	/* Until a few hundred signals were handled, or the sender has sent
	 * all it will (or a bound, for a scheduler that starves the sender;
	 * the assertion below then says so). */
	for (unsigned int i = 0; i < 4000000 && sig_calls < 300 * PATHS && !sig_sender_done(&sender);
	     i++) {
		unsigned int k = (unsigned int)test_rng_below(&rng, 32);

		/* A blocking call now and then: sanitizers deliver signals there. */
		if (!(i & 4095))
			nanosleep(&(struct timespec){ 0, 1000 }, NULL);

		if (live[k]) {
			shadow_set(live[k], live_size[k], 0);
			if (i & 1)
				gen_pool_free_owner(pool, live[k], live_size[k], &owner);
			else
				gen_pool_free(pool, live[k], live_size[k]);
			live[k] = 0;
			continue;
		}
		live_size[k] = 1 + test_rng_below(&rng, 700);
		live[k] = main_alloc(pool, i, live_size[k]);
		if (live[k])
			shadow_set(live[k], live_size[k], 1);
	}
	sig_sender_stop(&sender);
	for (int k = 0; k < 32; k++)
		if (live[k])
			gen_pool_free(pool, live[k], live_size[k]);
	/* Every handler call was served or refused, never lost. */
	ck_assert_int_gt(sig_calls, 0);
	ck_assert_int_eq(sig_calls % PATHS, 0);
	ck_assert_int_le(sig_served + sig_refused, sig_calls);
	if (lockless)
		ck_assert_int_eq(sig_refused, 0);
	finish(pool);
}

START_TEST(signals_from_another_thread_lockless)
{
	signals_from_another_thread(true);
}
END_TEST

START_TEST(signals_from_another_thread_indexed)
{
	signals_from_another_thread(false);
}
END_TEST

Suite *modern_signal_suite(void)
{
	Suite *s = suite_create("modern_signal");
	TCase *tc = tcase_create("signal");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, kernel_header_pools_are_lock_free);
	tcase_add_test(tc, raised_inside_alloc_lockless);
	tcase_add_test(tc, raised_inside_alloc_indexed);
	tcase_add_test(tc, raised_while_lock_held_indexed);
	tcase_add_test(tc, refusal_message_names_cause_and_fix);
	tcase_add_test(tc, signals_from_another_thread_lockless);
	tcase_add_test(tc, signals_from_another_thread_indexed);
	suite_add_tcase(s, tc);
	return s;
}
