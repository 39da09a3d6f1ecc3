/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * common/lock_internal.h - the pool lock every engine takes (not installed).
 *
 * The lock guards a short stretch of index work per call, and a
 * single-threaded pool takes it twice per alloc+free pair: its uncontended
 * path is what matters.  Here that path is one compare-and-swap to take it
 * and one exchange to drop it, inlined, where a glibc mutex goes through
 * calls and type checks.  A contended lock
 * spins briefly (a holder usually leaves within a cache miss or two), then
 * sleeps on a futex; the word says whether anyone sleeps, so the
 * uncontended release never makes a system call.
 *
 * The word: 0 free; otherwise the holder's thread token (bits 0-30) and,
 * in bit 31 (GENALLOC_LOCK_WAITERS), "someone may be asleep on it".  The
 * token is what makes the lock safe to meet in a signal handler: a thread
 * that finds the lock held under its own token was interrupted while
 * holding it, and waiting would wait for itself forever.  The compare-and-
 * swap that takes the lock writes the token, so there is no moment at
 * which the thread holds the lock without its name on it.  Such an
 * acquisition fails instead of waiting; the caller refuses the request
 * (genalloc_report(), GENALLOC_EREENTRY).
 *
 * A token is a per-thread number from a process-wide counter, taken on a
 * thread's first lock (an atomic add, async-signal-safe); 2^31 - 1 threads
 * may take one before two threads could share one.  Its cost on the fast
 * path is one thread-local load.
 *
 * The functions work on the bare word, so that every engine takes the same
 * lock whatever its public structure holds: modern/ on struct modern_lock
 * (modern/lock_internal.h), legacy/ on the 2005 pool's lock_word, compat's
 * bitmap backend on a word of its own.
 */
#ifndef GENALLOC_COMMON_LOCK_INTERNAL_H
#define GENALLOC_COMMON_LOCK_INTERNAL_H

#include <stdatomic.h>
#include <stdbool.h>

/* Bit 31 of the word: a waiter may sleep on the futex. */
#define GENALLOC_LOCK_WAITERS 0x80000000u

/*
 * This thread's token, 0 until its first lock.  Initial-exec: the access is
 * one load from the thread pointer, which a signal handler may make too
 * (a dynamically allocated TLS block could call malloc on first touch).
 */
extern _Thread_local unsigned int genalloc_lock_token
	__attribute__((tls_model("initial-exec"), visibility("hidden")));

/* The slow halves, out of line. */
unsigned int genalloc_lock_new_token(void);
bool genalloc_lock_wait(_Atomic unsigned int *word, unsigned int self);
void genalloc_lock_wake(_Atomic unsigned int *word);

/** genalloc_lock_self() - the calling thread's token, never 0 */
static inline unsigned int genalloc_lock_self(void)
{
	unsigned int self = genalloc_lock_token;

	return self ? self : genalloc_lock_new_token();
}

/**
 * genalloc_lock_take() - take the lock in @word, waiting while another thread holds it
 * @word: the lock word
 *
 * Return: true with the lock held; false, at once, when the calling thread
 * holds it already (a signal handler that interrupted a holder, or a
 * callback run under the lock calling back into the pool).
 */
static inline bool genalloc_lock_take(_Atomic unsigned int *word)
{
	unsigned int free_word = 0, self = genalloc_lock_self();

	if (atomic_compare_exchange_strong_explicit(word, &free_word, self,
						    memory_order_acquire,
						    memory_order_relaxed))
		return true;
	return genalloc_lock_wait(word, self);
}

/** genalloc_lock_drop() - drop the lock in @word, waking one sleeper if there may be one */
static inline void genalloc_lock_drop(_Atomic unsigned int *word)
{
	if (atomic_exchange_explicit(word, 0, memory_order_release) & GENALLOC_LOCK_WAITERS)
		genalloc_lock_wake(word);
}

/**
 * genalloc_lock_mine() - does the calling thread hold the lock in @word?
 * @word: the lock word
 *
 * For a caller that must tell a refusal for re-entry from another failure
 * of a call that took the lock (and must not then try what would allocate).
 */
static inline bool genalloc_lock_mine(_Atomic unsigned int *word)
{
	return (atomic_load_explicit(word, memory_order_relaxed) & ~GENALLOC_LOCK_WAITERS) ==
	       genalloc_lock_self();
}

#endif /* GENALLOC_COMMON_LOCK_INTERNAL_H */
