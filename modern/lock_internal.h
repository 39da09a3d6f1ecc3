/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * modern/lock_internal.h - the modern pool's lock: struct modern_lock
 * (modern/genalloc.h) taken with the lock every engine shares
 * (common/lock_internal.h states its protocol).  Not installed.
 */
#ifndef GENALLOC_MODERN_LOCK_INTERNAL_H
#define GENALLOC_MODERN_LOCK_INTERNAL_H

#include "../common/lock_internal.h"

#define modern_lock_init(lock) atomic_init(&(lock)->word, 0)
#define modern_lock_acquire(lock) genalloc_lock_take(&(lock)->word)
#define modern_lock_release(lock) genalloc_lock_drop(&(lock)->word)

#endif /* GENALLOC_MODERN_LOCK_INTERNAL_H */
