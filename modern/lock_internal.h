/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * modern/lock_internal.h - the pool lock (not installed).
 *
 * The lock guards a few hundred nanoseconds of index work per call, and a
 * single-threaded pool takes it twice per alloc+free pair: its uncontended
 * path is what matters.  Here that path is one compare-and-swap to take it
 * and one exchange to drop it, inlined, where a glibc mutex spends about a
 * hundred instructions a pair in calls and type checks.  A contended lock
 * spins briefly (a holder usually leaves within a cache miss or two), then
 * sleeps on a futex; the word says whether anyone sleeps, so the
 * uncontended release never makes a system call.
 *
 * The word: 0 free, 1 held, 2 held and someone may be asleep on it.
 */
#ifndef GENALLOC_MODERN_LOCK_INTERNAL_H
#define GENALLOC_MODERN_LOCK_INTERNAL_H

#include <stdatomic.h>

#include "genalloc.h"

/* The slow halves, out of line. */
void modern_lock_wait(struct modern_lock *lock);
void modern_lock_wake(struct modern_lock *lock);

/** modern_lock_init() - an unheld lock */
static inline void modern_lock_init(struct modern_lock *lock)
{
	atomic_init(&lock->word, 0);
}

/** modern_lock_acquire() - take @lock, waiting as long as it takes */
static inline void modern_lock_acquire(struct modern_lock *lock)
{
	unsigned int free_word = 0;

	if (!atomic_compare_exchange_strong_explicit(&lock->word, &free_word, 1,
						     memory_order_acquire,
						     memory_order_relaxed))
		modern_lock_wait(lock);
}

/** modern_lock_release() - drop @lock, waking one sleeper if there may be one */
static inline void modern_lock_release(struct modern_lock *lock)
{
	if (atomic_exchange_explicit(&lock->word, 0, memory_order_release) == 2)
		modern_lock_wake(lock);
}

#endif /* GENALLOC_MODERN_LOCK_INTERNAL_H */
