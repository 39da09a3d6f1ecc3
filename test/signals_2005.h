/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * test/signals_2005.h - the signal handler and the churn under signals
 * that the 2005-API suites share (test/legacy/test_signal.c and
 * test/compat/test_signal.c).  legacy/genalloc.h and compat/genalloc.h
 * give gen_pool_alloc() and gen_pool_free() the same 2005 signatures, so
 * this is compiled against whichever of them the including file chose:
 * include it after that header and signals.h.  The managed memory must be
 * writable (both engines' pools are fed real chunks in these suites).
 */
#ifndef GENALLOC_TEST_SIGNALS_2005_H
#define GENALLOC_TEST_SIGNALS_2005_H

#include <errno.h>
#include <signal.h>
#include <string.h>
#include <time.h>

/* The pool the handler uses. */
static struct gen_pool *sig_pool;

/* Two allocations of different orders, each written and freed at once if
 * served. */
static void alloc_and_free(int sig)
{
	static const int sizes[] = { 32, 300 };
	int saved = errno;

	(void)sig;
	for (int i = 0; i < 2; i++) {
		unsigned long a = gen_pool_alloc(sig_pool, sizes[i]);

		sig_calls = sig_calls + 1;
		if (!a)
			continue;
		sig_served = sig_served + 1;
		memset((void *)a, 0x5a, (size_t)sizes[i]);
		gen_pool_free(sig_pool, a, sizes[i]);
	}
	errno = saved;
}

/* A region visitor that raises the signal: the walk holds the pool's (or
 * the backend's) lock while it calls. */
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

/*
 * Allocate and free on @pool (sig_pool), blocks of up to @max_size bytes
 * filled with their slot's number, while another thread sends signals,
 * until the handler has made 600 calls (or a bound, for a scheduler that
 * starves the sender: the assertion then says so).  A block that changed
 * while live (the handler was given part of it) counts in sig_others.
 * Everything is freed before it returns.
 */
static void churn_under_signals(struct gen_pool *pool, unsigned long long seed, int max_size)
{
	unsigned long live[32] = { 0 };
	int live_size[32] = { 0 };
	struct sig_sender sender;

	sig_sender_start(&sender);
	for (unsigned int i = 0; i < 4000000 && sig_calls < 600 && !sig_sender_done(&sender); i++) {
		unsigned int k = (unsigned int)test_rng_below(&seed, 32);

		/* A blocking call now and then: sanitizers deliver signals there. */
		if (!(i & 4095))
			nanosleep(&(struct timespec){ 0, 1000 }, NULL);
		if (live[k]) {
			const unsigned char *p = (const unsigned char *)live[k];

			for (int b = 0; b < live_size[k]; b++)
				if (p[b] != (unsigned char)k)
					sig_others = sig_others + 1;
			gen_pool_free(pool, live[k], live_size[k]);
			live[k] = 0;
			continue;
		}
		live_size[k] = 1 + (int)test_rng_below(&seed, (unsigned long long)max_size);
		live[k] = gen_pool_alloc(pool, live_size[k]);
		if (live[k])
			memset((void *)live[k], (int)k, (size_t)live_size[k]);
	}
	sig_sender_stop(&sender);
	for (int k = 0; k < 32; k++)
		if (live[k])
			gen_pool_free(pool, live[k], live_size[k]);
	ck_assert_int_gt(sig_calls, 0);
	ck_assert_int_le(sig_served, sig_calls);
}

#endif /* GENALLOC_TEST_SIGNALS_2005_H */
