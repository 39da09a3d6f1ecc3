/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * legacy/internal.h - what the buddy engine's files share: the out-of-band
 * control map and the free lists.  Not installed.
 *
 * The control map keeps one byte per 32-byte atom of every "frame": every
 * 2^max_chunk_shift-aligned stretch of address space the pool has seen a
 * chunk or a donation in.  Frames are found by frame number through a
 * chained hash table.  Only a block's FIRST atom says what the block is
 * (free or live, and its order); the other atoms say "interior", so a split
 * or a merge rewrites one byte, and "unknown" marks memory the pool does not
 * own.  Because every block lies inside one frame (blocks are at most a
 * frame and aligned to their size), a buddy is always in its block's frame.
 */
#ifndef GENALLOC_LEGACY_INTERNAL_H
#define GENALLOC_LEGACY_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>

#include "../modern/lock_internal.h"
#include "genalloc.h"

/* Control bytes. */
#define LEGACY_CTRL_UNKNOWN	0x00	/* not pool memory */
#define LEGACY_CTRL_INTERIOR	0x01	/* inside a block that starts lower */
#define LEGACY_CTRL_FREE	0x40	/* | order: first atom of a free block */
#define LEGACY_CTRL_LIVE	0x80	/* | order: first atom of a live block */
#define LEGACY_CTRL_ORDER	0x1f

/**
 * struct legacy_frame - the control bytes of one frame
 * @next:          the next frame in the same hash bucket
 * @base:          the frame's first address (aligned to the chunk size)
 * @from_callback: 1 if the frame is a chunk from get_new_chunk, 0 if it
 *                 holds donations only
 * @mem:           what malloc() returned (the frame starts a colour later)
 * @ctrl:          one control byte per atom
 */
struct legacy_frame {
	struct legacy_frame *next;
	unsigned long base;
	int from_callback;
	void *mem;
	unsigned char ctrl[];
};

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

/**
 * struct legacy_verdict - a misuse found while the lock was held
 * @code: 0 if there was none
 *
 * Reports go out only after the lock is dropped, so that a handler that
 * returns may call into the pool again.
 */
struct legacy_verdict {
	enum genalloc_severity severity;
	enum genalloc_errcode code;
	const char *msg;
};

/*
 * The pool's lock (modern/lock_internal.h on pool->lock_word).  legacy_lock()
 * is false, with nothing taken, when this thread holds the lock already (a
 * signal handler or a callback re-entering the pool): the caller refuses
 * with legacy_refuse_reentry() instead of waiting for itself.
 */
static inline bool legacy_lock(struct gen_pool *pool)
{
	return modern_lock_take(&pool->lock_word);
}

static inline void legacy_unlock(struct gen_pool *pool)
{
	modern_lock_drop(&pool->lock_word);
}

void legacy_refuse_reentry(const struct gen_pool *pool, const char *func, unsigned long addr,
			   unsigned long size);

/*
 * buddy.c: growth, shared with the prefill at creation.  legacy_grow() asks
 * get_new_chunk for one chunk (the pool locked; the lock is dropped around
 * the callback) and makes it a free block; *@chunk is 0 when there was no
 * callback, no memory for the chunk's record, or no chunk, and @v is set if
 * the chunk was refused.
 */
void legacy_grow(struct gen_pool *pool, struct legacy_verdict *v, unsigned long *chunk);
void legacy_report(const struct legacy_verdict *v, const char *func,
		   const struct gen_pool *pool, unsigned long addr, unsigned long size);

/* ctrlmap.c: the frame hash */
int legacy_map_init(struct gen_pool *pool);
void legacy_map_release(struct gen_pool *pool);
static inline unsigned long legacy_frame_number(const struct gen_pool *pool,
						unsigned long addr)
{
	return addr >> pool->max_chunk_shift;
}

/* Chunks usually come from one mapping: consecutive frame numbers, which the
 * low bits already spread; the fold mixes in the high bits for the rest. */
static inline unsigned long legacy_bucket_of(unsigned long frame_no, unsigned long nr_buckets)
{
	return (frame_no ^ (frame_no >> 16) ^ (frame_no >> 20 >> 20)) & (nr_buckets - 1);
}

/**
 * legacy_map_find() - the frame holding @addr, or NULL if none
 *
 * Inline: every alloc and free makes one look-up, and a call costs as much
 * as the look-up itself.
 */
static inline struct legacy_frame *legacy_map_find(const struct gen_pool *pool,
						   unsigned long addr)
{
	unsigned long fn = legacy_frame_number(pool, addr);
	struct legacy_frame *f = pool->frames[legacy_bucket_of(fn, pool->nr_buckets)];

	while (f && legacy_frame_number(pool, f->base) != fn)
		f = f->next;
	return f;
}

struct legacy_frame *legacy_frame_new(const struct gen_pool *pool, int from_callback);
void legacy_frame_free(struct legacy_frame *f);
void legacy_map_insert(struct gen_pool *pool, struct legacy_frame *f, unsigned long addr);
struct legacy_frame *legacy_map_add(struct gen_pool *pool, unsigned long addr,
				    int from_callback);
unsigned long legacy_frame_bytes(const struct gen_pool *pool);
struct legacy_frame *legacy_map_first(const struct gen_pool *pool, unsigned long *bucket);
struct legacy_frame *legacy_map_next(const struct gen_pool *pool, struct legacy_frame *f,
				     unsigned long *bucket);

#endif /* GENALLOC_LEGACY_INTERNAL_H */
