/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * compat/frames_internal.h - the bitmap backend's record of the memory it
 * knows, one "frame" per chunk-sized, chunk-aligned range.
 *
 * The modern engine knows which granules are in use, not where blocks start
 * or which memory was donated; the 2005 contract needs both (to refuse a
 * free with the wrong size, and to tell a donation from a double free).  A
 * frame holds that, outside the managed memory.  Frames are found by address
 * without a lock, because allocation and free take none: the table is an
 * open-addressing hash whose slots are published with release stores and
 * which is replaced, never edited in place, when it grows.
 */
#ifndef GENALLOC_COMPAT_FRAMES_INTERNAL_H
#define GENALLOC_COMPAT_FRAMES_INTERNAL_H

#include <stdatomic.h>

/* log2 of the bitmap backend's granule, and of the smallest 2005 block */
#define COMPAT_GRANULE_SHIFT 5

/**
 * struct compat_frame - one chunk-sized range the bitmap backend knows
 * @base:          first address, aligned to the frame size
 * @from_callback: 1: obtained whole from get_new_chunk; 0: built from
 *                 donations, the undonated rest held by the backend
 * @donated_bytes: bytes donated into this frame (under the pool lock)
 * @next_pending:  the next frame kept aside, while this one is (its chunk
 *                 is not yet in the table; see compat_bitmap_pool.pending)
 * @known:         donated frames only: one bit per granule, set = donated
 * @starts:        per granule: 0, or 1 + the order of the live block that
 *                 starts there
 */
struct compat_frame {
	unsigned long base;
	int from_callback;
	unsigned long donated_bytes;
	struct compat_frame *next_pending;
	_Atomic unsigned long *known;
	_Atomic unsigned char starts[];
};

struct compat_frame_slots;

/**
 * struct compat_frame_table - frames by address
 * @cur:     the live slot array (read without a lock)
 * @retired: slot arrays replaced by growth, freed with the table (a reader
 *           may still be probing one)
 * @count:   frames in the table
 * @shift:   log2 of the frame size
 */
struct compat_frame_table {
	_Atomic(struct compat_frame_slots *) cur;
	struct compat_frame_slots *retired;
	unsigned long count;
	int shift;
};

/* Writers (init, reserve, insert, destroy) hold the pool lock; lookups may
 * run at any time. */
int compat_frames_init(struct compat_frame_table *t, int shift);
int compat_frames_reserve(struct compat_frame_table *t);
struct compat_frame *compat_frame_new(const struct compat_frame_table *t, unsigned long base,
				      int from_callback);
void compat_frame_delete(struct compat_frame *f);
void compat_frames_insert(struct compat_frame_table *t, struct compat_frame *f);
struct compat_frame *compat_frames_lookup(struct compat_frame_table *t, unsigned long addr);
void compat_frames_for_each(struct compat_frame_table *t,
			    void (*fn)(struct compat_frame *f, void *data), void *data);
unsigned long compat_frames_metadata(struct compat_frame_table *t);
void compat_frames_destroy(struct compat_frame_table *t);

/* Granule helpers shared by the backend's free path and its checker. */
unsigned long compat_frame_granules(const struct compat_frame_table *t);
int compat_frame_is_known(const struct compat_frame *f, unsigned long g);
int compat_frame_any_known(const struct compat_frame *f, unsigned long g, unsigned long n);
void compat_frame_mark_known(struct compat_frame *f, unsigned long g, unsigned long n);

#endif /* GENALLOC_COMPAT_FRAMES_INTERNAL_H */
