// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * common/lock.c - the pool lock's contended paths and the thread tokens
 * (lock_internal.h states the protocol).
 *
 * A waiter first makes sure it is not the holder (then it returns false at
 * once: see lock_internal.h).  It spins, reading the word without writing
 * it so that the holder's cache line stays put, and takes the lock if it
 * sees it free, even while others sleep: the one a release woke sets the
 * waiters bit again before it sleeps anew, so no sleeper is forgotten, and
 * two busy threads hand the lock over without a system call.  After that
 * it sets the waiters bit and sleeps until the word changes; every
 * wake-up takes the lock with the bit set, since the waker cannot know
 * whether others still sleep.  This is the classic three-state futex mutex
 * with the holder's name in the word: a release only calls the kernel when
 * the bit says someone may sleep.
 *
 * Whether the caller holds the lock is decided once, on entry: while this
 * thread runs, no other thread can write its token, and a lock it does not
 * hold cannot become its own before it takes it here.
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

/* The tokens fit in 31 bits, beside the waiters bit. */
#define TOKEN_MASK (~GENALLOC_LOCK_WAITERS)

_Thread_local unsigned int genalloc_lock_token;

/* The next token to hand out; the only state the lock shares between pools. */
static _Atomic unsigned int next_token;

unsigned int genalloc_lock_new_token(void)
{
	unsigned int t;

	do
		t = (atomic_fetch_add_explicit(&next_token, 1, memory_order_relaxed) + 1) &
		    TOKEN_MASK;
	while (!t);
	/* A signal handler that ran meanwhile may have taken a token of its
	 * own; it holds no lock once it returns, so either one will do. */
	genalloc_lock_token = t;
	return t;
}

static void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
	__builtin_ia32_pause();
#endif
}

static void sleep_while(_Atomic unsigned int *lock, unsigned int word)
{
#if defined(__linux__)
	/* Returns at once if the word is no longer @word, or on a signal:
	 * the caller's loop rechecks either way. */
	syscall(SYS_futex, lock, FUTEX_WAIT_PRIVATE, word, NULL, NULL, 0);
#else
	(void)lock;
	(void)word;
	sched_yield();
#endif
}

bool genalloc_lock_wait(_Atomic unsigned int *lock, unsigned int self)
{
	unsigned int w = atomic_load_explicit(lock, memory_order_relaxed);
	int i;

	if ((w & TOKEN_MASK) == self)
		return false;
	for (i = 0; i < SPINS; i++) {
		w = atomic_load_explicit(lock, memory_order_relaxed);
		if (w == 0 && atomic_compare_exchange_weak_explicit(lock, &w, self,
								    memory_order_acquire,
								    memory_order_relaxed))
			return true;
		cpu_relax();
	}
	for (;;) {
		w = atomic_load_explicit(lock, memory_order_relaxed);
		if (w == 0) {
			if (atomic_compare_exchange_weak_explicit(lock, &w,
								  self | GENALLOC_LOCK_WAITERS,
								  memory_order_acquire,
								  memory_order_relaxed))
				return true;
			continue;
		}
		if (!(w & GENALLOC_LOCK_WAITERS) &&
		    !atomic_compare_exchange_weak_explicit(lock, &w,
							   w | GENALLOC_LOCK_WAITERS,
							   memory_order_relaxed,
							   memory_order_relaxed))
			continue;
		sleep_while(lock, w | GENALLOC_LOCK_WAITERS);
	}
}

void genalloc_lock_wake(_Atomic unsigned int *lock)
{
#if defined(__linux__)
	syscall(SYS_futex, lock, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
#else
	(void)lock;	/* waiters poll with sched_yield() */
#endif
}
