/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * legacy/internal.h - what the buddy engine's files share: the out-of-band
 * control map and the free lists.  Not installed.
 *
 * The control map keeps one byte per 32-byte atom of every "frame": every
 * 2^max_chunk_shift-aligned stretch of address space the pool has seen a
 * chunk or a donation in.  Frames are found by address through the frame
 * table (frames_internal.h).  Only a block's FIRST atom says what the block is
 * (free or live, and its order); the other atoms say "interior", so a split
 * or a merge rewrites one byte, and "unknown" marks memory the pool does not
 * own.  Because every block lies inside one frame (blocks are at most a
 * frame and aligned to their size), a buddy is always in its block's frame.
 */
#ifndef GENALLOC_LEGACY_INTERNAL_H
#define GENALLOC_LEGACY_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>

#include "contract_internal.h"
#include "frames_internal.h"
#include "../common/lock_internal.h"
#include "genalloc.h"

/* Control bytes. */
#define LEGACY_CTRL_UNKNOWN	0x00	/* not pool memory */
#define LEGACY_CTRL_INTERIOR	0x01	/* inside a block that starts lower */
#define LEGACY_CTRL_FREE	0x40	/* | order: first atom of a free block */
#define LEGACY_CTRL_LIVE	0x80	/* | order: first atom of a live block */
#define LEGACY_CTRL_ORDER	0x1f

static inline unsigned long legacy_chunk_size(const struct gen_pool *pool)
{
	return 1UL << pool->max_chunk_shift;
}

static inline unsigned long legacy_atoms_per_frame(const struct gen_pool *pool)
{
	return 1UL << (pool->max_chunk_shift - ALLOC_MIN_SHIFT);
}

static inline unsigned long legacy_atom(unsigned long addr)
{
	return addr >> ALLOC_MIN_SHIFT;
}

/** legacy_ctrl() - the control byte of @addr, which must lie in @f */
static inline unsigned char *legacy_ctrl(struct legacy_frame *f, unsigned long addr)
{
	return &f->ctrl[legacy_atom(addr - f->base)];
}

static inline int legacy_ctrl_is_start(unsigned char c)
{
	return (c & (LEGACY_CTRL_FREE | LEGACY_CTRL_LIVE)) != 0;
}

static inline int legacy_ctrl_order(unsigned char c)
{
	return c & LEGACY_CTRL_ORDER;
}

/*
 * The pool's lock (common/lock_internal.h on pool->lock_word).  legacy_lock()
 * is false, with nothing taken, when this thread holds the lock already (a
 * signal handler or a callback re-entering the pool): the caller refuses
 * with legacy_refuse_reentry() instead of waiting for itself.
 */
static inline bool legacy_lock(struct gen_pool *pool)
{
	return genalloc_lock_take(&pool->lock_word);
}

static inline void legacy_unlock(struct gen_pool *pool)
{
	genalloc_lock_drop(&pool->lock_word);
}

/*
 * The pool a report names: the caller's.  That is this one, unless compat's
 * buddy backend runs it for a compat pool (legacy_create_for()).
 */
static inline const void *legacy_report_pool(const struct gen_pool *pool)
{
	return pool->report_pool ? pool->report_pool : pool;
}

static inline void legacy_refuse_reentry(const struct gen_pool *pool, const char *func,
					 unsigned long addr, unsigned long size)
{
	legacy_report_misuse(LEGACY_REENTRY, func, legacy_report_pool(pool), addr, size);
}

/**
 * legacy_find_live() - the live blocks, in address order (walk.c)
 * @pool: the pool, locked
 * @live: receives them; its count is 0 if there is no memory to sort the
 *        frames
 */
void legacy_find_live(struct gen_pool *pool, struct legacy_live *live);

/*
 * buddy.c: growth, shared with the prefill at creation.  legacy_grow() asks
 * get_new_chunk for one chunk (the pool locked; the lock is dropped around
 * the callback) and makes it a free block; *@chunk is 0 when there was no
 * callback, no memory for the chunk's record, or no chunk, and @v is set if
 * the chunk was refused.
 */
void legacy_grow(struct gen_pool *pool, struct legacy_verdict *v, unsigned long *chunk);

/** legacy_map_find() - the frame holding @addr, or NULL if none */
static inline struct legacy_frame *legacy_map_find(const struct gen_pool *pool,
						   unsigned long addr)
{
	return legacy_frames_lookup(pool->frames, addr);
}

/* Iterate over all frames: *@i is the position, 0 to start. */
static inline struct legacy_frame *legacy_map_next(const struct gen_pool *pool,
						   unsigned long *i)
{
	return legacy_frames_next(pool->frames, i);
}

#endif /* GENALLOC_LEGACY_INTERNAL_H */
