/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * compat/bitmap_pool_internal.h - the bitmap backend's state, shared by its
 * request path (bitmap_backend.c) and its inspection (bitmap_inspect.c).
 * Includes modern/genalloc.h: only the bitmap backend's files may use it.
 */
#ifndef GENALLOC_COMPAT_BITMAP_POOL_INTERNAL_H
#define GENALLOC_COMPAT_BITMAP_POOL_INTERNAL_H

#include <stdbool.h>

#include "../common/lock_internal.h"
#include "../legacy/contract_internal.h"
#include "../legacy/frames_internal.h"
#include "../modern/genalloc.h"
#include "backend_internal.h"

/* log2 of the bitmap backend's granule: the 2005 atom, the smallest block */
#define COMPAT_GRANULE_SHIFT LEGACY_ATOM_SHIFT

/**
 * struct compat_bitmap_pool - the bitmap backend's state for one compat pool
 * @cpool:          the compat pool (reported as the pool in errors)
 * @lock:           the backend's lock (common/lock_internal.h): growth,
 *                  donation, inspection; refuses a thread that holds it
 *                  already (compat_bm_lock())
 * @engine:         the modern pool, granule 32 bytes
 * @shift:          log2 of the frame (chunk) size
 * @has_callback:   whether growth is possible
 * @frames:         every frame the engine has (the 2005 frame table,
 *                  legacy/frames_internal.h); a frame's atom bytes say, per
 *                  granule, 0 or 1 + the order of the live block starting
 *                  there, and its known bits which granules were donated
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
	struct legacy_frame_table *frames;
	unsigned long obtained_bytes;
	unsigned long donated_bytes;
	struct legacy_frame *pending;
};

/*
 * Take @bp's lock; false, reported (WARN EREENTRY, as @func), when this
 * thread holds it already: a signal handler or a callback re-entering the
 * pool while its thread is inside a locked call would wait for itself.
 */
static inline bool compat_bm_lock(struct compat_bitmap_pool *bp, const char *func)
{
	if (genalloc_lock_take(&bp->lock))
		return true;
	legacy_report_misuse(LEGACY_REENTRY, func, bp->cpool, 0, 0);
	return false;
}

static inline void compat_bm_unlock(struct compat_bitmap_pool *bp)
{
	genalloc_lock_drop(&bp->lock);
}

static inline unsigned long compat_bm_frame_size(const struct compat_bitmap_pool *bp)
{
	return 1UL << bp->shift;
}

static inline unsigned long compat_bm_granule_of(const struct legacy_frame *f, unsigned long addr)
{
	return (addr - f->base) >> COMPAT_GRANULE_SHIFT;
}

static inline unsigned long compat_bm_order_bytes(int order)
{
	return 1UL << (COMPAT_GRANULE_SHIFT + order);
}

/*
 * The start bytes: allocation and free of known memory take no compat lock,
 * and two racing frees of one block must not both succeed, so they are read
 * and written atomically (the frame table's bytes are plain for the buddy
 * engine, which holds its lock).
 */
static inline int compat_bm_start(const struct legacy_frame *f, unsigned long g)
{
	return __atomic_load_n(&f->ctrl[g], __ATOMIC_ACQUIRE);
}

static inline void compat_bm_set_start(struct legacy_frame *f, unsigned long g, int v)
{
	__atomic_store_n(&f->ctrl[g], (unsigned char)v, __ATOMIC_RELEASE);
}

/* Clear the start byte @g if it says @v (a live block of order @v - 1).
 * Return: the byte seen, @v if it was cleared. */
static inline int compat_bm_take_start(struct legacy_frame *f, unsigned long g, int v)
{
	unsigned char seen = (unsigned char)v;

	__atomic_compare_exchange_n(&f->ctrl[g], &seen, 0, false, __ATOMIC_ACQ_REL,
				    __ATOMIC_ACQUIRE);
	return seen;
}

#define COMPAT_BITS_PER_WORD (8 * sizeof(unsigned long))

/* The known bits (donated granules) are set only under the compat lock and
 * never cleared; a frame from get_new_chunk is known throughout. */
static inline int compat_frame_is_known(const struct legacy_frame *f, unsigned long g)
{
	if (f->from_callback)
		return 1;
	return (atomic_load_explicit(&f->known[g / COMPAT_BITS_PER_WORD], memory_order_acquire) >>
		(g % COMPAT_BITS_PER_WORD)) & 1;
}

static inline int compat_frame_any_known(const struct legacy_frame *f, unsigned long g,
					 unsigned long n)
{
	for (unsigned long i = g; i < g + n; i++)
		if (compat_frame_is_known(f, i))
			return 1;
	return 0;
}

static inline void compat_frame_mark_known(struct legacy_frame *f, unsigned long g,
					   unsigned long n)
{
	for (unsigned long i = g; i < g + n; i++)
		atomic_fetch_or_explicit(&f->known[i / COMPAT_BITS_PER_WORD],
					 1UL << (i % COMPAT_BITS_PER_WORD), memory_order_release);
}

int compat_bitmap_check(void *engine);
void compat_bitmap_stats(void *engine, struct compat_gen_pool_stats *st);
void compat_bitmap_for_each_region(void *engine, compat_region_fn fn, void *data);
int compat_bitmap_for_each_block(void *engine, compat_block_fn fn, void *data,
				 const char *caller);

#endif /* GENALLOC_COMPAT_BITMAP_POOL_INTERNAL_H */
