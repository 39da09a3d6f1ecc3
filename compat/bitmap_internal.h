/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * compat/bitmap_internal.h - the bitmap backend's state, shared by its
 * request path (bitmap_backend.c) and its inspection (bitmap_inspect.c).
 * Includes modern/genalloc.h: only the bitmap backend's files may use it.
 */
#ifndef GENALLOC_COMPAT_BITMAP_INTERNAL_H
#define GENALLOC_COMPAT_BITMAP_INTERNAL_H

#include <stdbool.h>

#include "../common/internal.h"
#include "../modern/genalloc.h"
#include "../modern/lock_internal.h"
#include "backend_internal.h"
#include "frames_internal.h"

/**
 * struct compat_bitmap_pool - the bitmap backend's state for one compat pool
 * @cpool:          the compat pool (reported as the pool in errors)
 * @lock:           the backend's lock (modern/lock_internal.h): growth,
 *                  donation, inspection; refuses a thread that holds it
 *                  already (compat_bm_lock())
 * @engine:         the modern pool, granule 32 bytes
 * @shift:          log2 of the frame (chunk) size
 * @has_callback:   whether growth is possible
 * @frames:         every frame the engine has
 * @obtained_bytes: bytes from get_new_chunk (under @lock)
 * @donated_bytes:  bytes donated (under @lock)
 * @pending:        frames of chunks get_new_chunk gave that the engine had
 *                  no memory to take, linked by next_pending (under @lock):
 *                  growth adopts them before asking for another
 */
struct compat_bitmap_pool {
	void *cpool;
	_Atomic unsigned int lock;
	struct gen_pool *engine;
	int shift;
	int has_callback;
	struct compat_frame_table frames;
	unsigned long obtained_bytes;
	unsigned long donated_bytes;
	struct compat_frame *pending;
};

/*
 * Take @bp's lock; false, reported (WARN EREENTRY, as @func), when this
 * thread holds it already: a signal handler or a callback re-entering the
 * pool while its thread is inside a locked call would wait for itself.
 */
static inline bool compat_bm_lock(struct compat_bitmap_pool *bp, const char *func)
{
	if (modern_lock_take(&bp->lock))
		return true;
	genalloc_report(GENALLOC_WARN, GENALLOC_EREENTRY, func, bp->cpool, 0, 0,
			GENALLOC_REENTRY_MSG_2005);
	return false;
}

static inline void compat_bm_unlock(struct compat_bitmap_pool *bp)
{
	modern_lock_drop(&bp->lock);
}

static inline unsigned long compat_bm_frame_size(const struct compat_bitmap_pool *bp)
{
	return 1UL << bp->shift;
}

static inline unsigned long compat_bm_granule_of(const struct compat_frame *f, unsigned long addr)
{
	return (addr - f->base) >> COMPAT_GRANULE_SHIFT;
}

static inline unsigned long compat_bm_order_bytes(int order)
{
	return 1UL << (COMPAT_GRANULE_SHIFT + order);
}

int compat_bitmap_check(void *engine);
void compat_bitmap_stats(void *engine, struct compat_gen_pool_stats *st);
void compat_bitmap_for_each_region(void *engine, compat_region_fn fn, void *data);

#endif /* GENALLOC_COMPAT_BITMAP_INTERNAL_H */
