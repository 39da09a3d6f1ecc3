// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * test/modern/test_lock.c - the pool lock (modern/lock.c) on its own: mutual
 * exclusion under contention, a waiter that has gone to sleep on the
 * futex is woken by the release, and a thread that already holds the lock
 * is told so instead of waiting for itself.
 */
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <time.h>

#include "../support.h"
#include "modern/genalloc.h"
#include "modern/lock_internal.h"

#define NTHREADS 4
#define ROUNDS 100000

static struct modern_lock lock;
static unsigned long counter;	/* plain: only the lock protects it */

static void *bump(void *arg)
{
	int i;

	(void)arg;
	for (i = 0; i < ROUNDS; i++) {
		ck_assert(modern_lock_acquire(&lock));
		/* A read, a pause and a write: a lost update shows if two
		 * threads ever hold the lock at once. */
		unsigned long v = counter;

		if (!(i & 1023))
			sched_yield();
		counter = v + 1;
		modern_lock_release(&lock);
	}
	return NULL;
}

START_TEST(excludes_under_contention)
{
	pthread_t t[NTHREADS];
	int i;

	modern_lock_init(&lock);
	counter = 0;
	for (i = 0; i < NTHREADS; i++)
		ck_assert_int_eq(pthread_create(&t[i], NULL, bump, NULL), 0);
	for (i = 0; i < NTHREADS; i++)
		pthread_join(t[i], NULL);
	ck_assert_uint_eq(counter, (unsigned long)NTHREADS * ROUNDS);
	ck_assert_uint_eq(atomic_load(&lock.word), 0);
}
END_TEST

static atomic_int released_yet;

static void *late_taker(void *arg)
{
	(void)arg;
	ck_assert(modern_lock_acquire(&lock));	/* outlasts the spin: sleeps */
	ck_assert_int_eq(atomic_load(&released_yet), 1);
	modern_lock_release(&lock);
	return NULL;
}

START_TEST(sleeping_waiter_is_woken)
{
	struct timespec ms1 = { 0, 1000 * 1000 };
	pthread_t t;
	int waited;

	modern_lock_init(&lock);
	atomic_store(&released_yet, 0);
	ck_assert(modern_lock_acquire(&lock));
	ck_assert_int_eq(pthread_create(&t, NULL, late_taker, NULL), 0);
	/* Until the waiter has given up spinning and marked the word (a few
	 * microseconds; slow runners get ten seconds). */
	for (waited = 0; !(atomic_load(&lock.word) & GENALLOC_LOCK_WAITERS) && waited < 10000;
	     waited++)
		nanosleep(&ms1, NULL);
	/* The holder's name stays in the word beside the waiters bit. */
	ck_assert_uint_eq(atomic_load(&lock.word), genalloc_lock_self() | GENALLOC_LOCK_WAITERS);
	nanosleep(&ms1, NULL);	/* and, most likely, gone to sleep */
	atomic_store(&released_yet, 1);
	modern_lock_release(&lock);
	pthread_join(t, NULL);
	ck_assert_uint_eq(atomic_load(&lock.word), 0);
}
END_TEST

/* Each thread's token is its own, and never 0 (0 is the free word). */
static void *token_of(void *arg)
{
	*(unsigned int *)arg = genalloc_lock_self();
	return NULL;
}

START_TEST(holder_is_refused_not_blocked)
{
	unsigned int other = 0;
	pthread_t t;

	modern_lock_init(&lock);
	ck_assert(modern_lock_acquire(&lock));
	ck_assert_uint_eq(atomic_load(&lock.word), genalloc_lock_self());
	ck_assert_uint_ne(genalloc_lock_self(), 0);
	/* The holder again: refused at once, and the lock stays held. */
	ck_assert(!modern_lock_acquire(&lock));
	ck_assert_uint_eq(atomic_load(&lock.word), genalloc_lock_self());
	modern_lock_release(&lock);
	ck_assert_uint_eq(atomic_load(&lock.word), 0);
	/* Free again: taken as usual. */
	ck_assert(modern_lock_acquire(&lock));
	modern_lock_release(&lock);
	ck_assert_int_eq(pthread_create(&t, NULL, token_of, &other), 0);
	pthread_join(t, NULL);
	ck_assert_uint_ne(other, 0);
	ck_assert_uint_ne(other, genalloc_lock_self());
}
END_TEST

Suite *modern_lock_suite(void)
{
	Suite *s = suite_create("modern_lock");
	TCase *tc = tcase_create("lock");

	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, excludes_under_contention);
	tcase_add_test(tc, sleeping_waiter_is_woken);
	tcase_add_test(tc, holder_is_refused_not_blocked);
	suite_add_tcase(s, tc);
	return s;
}
