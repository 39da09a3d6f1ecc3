/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * modern/lock_internal.h - the modern pool's lock: struct modern_lock
 * (modern/genalloc.h) taken with the lock every engine shares
 * (common/lock_internal.h states its protocol).  Not installed.
 */
#ifndef GENALLOC_MODERN_LOCK_INTERNAL_H
#define GENALLOC_MODERN_LOCK_INTERNAL_H

#include "../common/lock_internal.h"

#include "genalloc.h"

#define modern_lock_init(lock) (atomic_init(&(lock)->word, 0), atomic_init(&(lock)->lent, 0))
#define modern_lock_release(lock) genalloc_lock_drop(&(lock)->word)

/*
 * Take the pool's lock; false when this thread holds it already, or runs
 * one of the pool's import or release callbacks (@lent, modern/import.c),
 * which count as holding it.  The second test reads the lock's own cache
 * line, just written: it costs the uncontended path one compare.
 */
static inline bool modern_lock_acquire(struct modern_lock *lock)
{
	if (!genalloc_lock_take(&lock->word))
		return false;
	if (__builtin_expect(atomic_load_explicit(&lock->lent, memory_order_relaxed) ==
			     genalloc_lock_token, 0)) {
		genalloc_lock_drop(&lock->word);
		return false;
	}
	return true;
}

#endif /* GENALLOC_MODERN_LOCK_INTERNAL_H */
