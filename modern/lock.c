// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * modern/lock.c - the pool lock's contended paths (lock_internal.h states
 * the protocol).
 *
 * A waiter first spins, reading the word without writing it so that the
 * holder's cache line stays put, and takes the lock (as 1) if it sees it
 * free, even while others sleep: the one a release woke marks the word 2
 * again before it sleeps anew, so no sleeper is forgotten, and two busy
 * threads hand the lock over without a system call.
 * After that it marks the word 2 ("someone may sleep") and sleeps until
 * the word changes; every wake-up retries with 2, since the waker cannot
 * know whether others still sleep.  This is the classic three-state futex
 * mutex: a release only calls the kernel when the word said 2.
 */
#include "lock_internal.h"

#include <sched.h>
#if defined(__linux__)
#include <linux/futex.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

/* Reads of a held word before a waiter goes to sleep: a few microseconds. */
#define SPINS 200

static void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
	__builtin_ia32_pause();
#endif
}

static void sleep_while(struct modern_lock *lock, unsigned int word)
{
#if defined(__linux__)
	/* Returns at once if the word is no longer @word, or on a signal:
	 * the caller's loop rechecks either way. */
	syscall(SYS_futex, &lock->word, FUTEX_WAIT_PRIVATE, word, NULL, NULL, 0);
#else
	(void)lock;
	(void)word;
	sched_yield();
#endif
}

void modern_lock_wait(struct modern_lock *lock)
{
	unsigned int w;
	int i;

	for (i = 0; i < SPINS; i++) {
		w = atomic_load_explicit(&lock->word, memory_order_relaxed);
		if (w == 0 && atomic_compare_exchange_weak_explicit(&lock->word, &w, 1,
								    memory_order_acquire,
								    memory_order_relaxed))
			return;
		cpu_relax();
	}
	while (atomic_exchange_explicit(&lock->word, 2, memory_order_acquire) != 0)
		sleep_while(lock, 2);
}

void modern_lock_wake(struct modern_lock *lock)
{
#if defined(__linux__)
	syscall(SYS_futex, &lock->word, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
#else
	(void)lock;	/* waiters poll with sched_yield() */
#endif
}
