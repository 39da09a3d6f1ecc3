/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * legacy/frames_internal.h - the frame table of the 2005 API: every
 * 2^max_chunk_shift-aligned stretch of address space a pool has seen a chunk
 * or a donation in, with one byte per 32-byte atom of it.  Not installed.
 *
 * Both engines of the 2005 API keep one: the buddy engine here, whose atom
 * bytes are its control map (internal.h), and compat's bitmap backend, whose
 * atom bytes are the orders of live blocks (compat/bitmap_pool_internal.h).
 * What an atom byte says is the engine's; finding the frame is this table's.
 *
 * Frames are found by address without a lock: the table is an open-
 * addressing hash whose slots are published with release stores and which
 * is replaced, never edited in place, when it grows (the old slot arrays are
 * kept until the table is destroyed, since a reader may still be probing
 * one).  Writers (reserve, insert, destroy) hold the pool's lock.  Frames
 * are never removed before the table is destroyed: a 2005 pool only grows.
 *
 * Invariant: at least one slot is empty, so every probe ends.  Cost: a
 * look-up is one hash and, at most half full, about 1.5 probes; the table
 * costs a pointer per slot, a frame its header and a byte per atom (3% of
 * the memory it describes).
 */
#ifndef GENALLOC_LEGACY_FRAMES_INTERNAL_H
#define GENALLOC_LEGACY_FRAMES_INTERNAL_H

#include <stdatomic.h>
#include <stddef.h>

/* log2 of an atom, the 2005 smallest block: 32 bytes */
#define LEGACY_ATOM_SHIFT 5

/**
 * struct legacy_frame - one chunk-sized, chunk-aligned range a pool knows
 * @base:          first address, aligned to the frame size
 * @from_callback: 1: a chunk from get_new_chunk; 0: built from donations
 * @mem:           what was allocated (the frame starts a colour later)
 * @donated_bytes: compat's bitmap backend: bytes donated into it
 * @next_pending:  compat's bitmap backend: the next frame kept aside, while
 *                 this one is (it is then not in the table)
 * @known:         compat's bitmap backend, donated frames only: one bit per
 *                 atom, set = donated (atomic access)
 * @ctrl:          one byte per atom, the engine's to interpret
 */
struct legacy_frame {
	unsigned long base;
	int from_callback;
	void *mem;
	unsigned long donated_bytes;
	struct legacy_frame *next_pending;
	_Atomic unsigned long *known;
	unsigned char ctrl[];
};

/**
 * struct legacy_frame_slots - one generation of the table
 * @next_retired: the generation replaced before this one
 * @mask:         slots - 1 (a power of two)
 * @slot:         the frames, by hash of the frame number, linear probing
 */
struct legacy_frame_slots {
	struct legacy_frame_slots *next_retired;
	unsigned long mask;
	_Atomic(struct legacy_frame *) slot[];
};

/**
 * struct legacy_frame_table - frames by address
 * @cur:      the live generation (read without a lock)
 * @retired:  generations replaced by growth
 * @count:    frames in the table
 * @reserved: inserts legacy_frames_reserve() has promised room for
 * @bytes:    what the table, its retired generations and its frames cost
 * @shift:    log2 of the frame size
 */
struct legacy_frame_table {
	_Atomic(struct legacy_frame_slots *) cur;
	struct legacy_frame_slots *retired;
	unsigned long count;
	unsigned long reserved;
	unsigned long bytes;
	int shift;
};

/** legacy_frame_atoms() - atoms in one frame of @t */
static inline unsigned long legacy_frame_atoms(const struct legacy_frame_table *t)
{
	return 1UL << (t->shift - LEGACY_ATOM_SHIFT);
}

/* Frame numbers of one mapping are consecutive: the multiply spreads them. */
static inline unsigned long legacy_frame_hash(unsigned long frame_no)
{
	unsigned long long h = (unsigned long long)frame_no * 0x9E3779B97F4A7C15ULL;

	return (unsigned long)(h ^ (h >> 29));
}

/**
 * legacy_frames_lookup() - the frame holding @addr, or NULL
 *
 * Inline: every 2005 alloc and free makes one, and a call would cost as
 * much as the look-up itself.  Safe without the lock.
 */
static inline struct legacy_frame *legacy_frames_lookup(struct legacy_frame_table *t,
							unsigned long addr)
{
	struct legacy_frame_slots *s = atomic_load_explicit(&t->cur, memory_order_acquire);
	unsigned long base = addr & ~((1UL << t->shift) - 1);
	unsigned long i = legacy_frame_hash(addr >> t->shift) & s->mask;
	struct legacy_frame *f;

	while ((f = atomic_load_explicit(&s->slot[i], memory_order_acquire))) {
		if (f->base == base)
			return f;
		i = (i + 1) & s->mask;
	}
	return NULL;
}

/** legacy_frames_create() - an empty table of frames of 2^@shift bytes, or NULL */
struct legacy_frame_table *legacy_frames_create(int shift);

/** legacy_frames_destroy() - free the table, every frame in it, and @t */
void legacy_frames_destroy(struct legacy_frame_table *t);

/**
 * legacy_frames_reserve() - secure room for one legacy_frames_insert()
 *
 * Grows the table when it would be more than half full; if it cannot, the
 * old one serves (probes get longer) while a slot stays empty after every
 * promised insert.  Return: 0, or -1 when there is no room and no memory.
 */
int legacy_frames_reserve(struct legacy_frame_table *t);

/** legacy_frames_unreserve() - give back a reservation that was not used */
void legacy_frames_unreserve(struct legacy_frame_table *t);

/**
 * legacy_frames_insert() - put @f (whose frame is absent) in the table
 *
 * Uses a reservation; cannot fail.  Lookups find @f from now on.
 */
void legacy_frames_insert(struct legacy_frame_table *t, struct legacy_frame *f);

/**
 * legacy_frame_new() - a frame, not yet in the table, all atom bytes 0
 * @t:             the table it is for (the colour reads its count)
 * @base:          its first address, aligned to the frame size
 * @from_callback: what it will hold
 * @with_known:    allocate @known too
 *
 * Return: the frame, or NULL if out of memory.
 */
struct legacy_frame *legacy_frame_new(const struct legacy_frame_table *t, unsigned long base,
				      int from_callback, int with_known);

/** legacy_frame_free() - free a frame that is not in a table (NULL: nothing) */
void legacy_frame_free(struct legacy_frame *f);

/** legacy_frame_bytes() - what frame @f of @t costs, colour included */
unsigned long legacy_frame_bytes(const struct legacy_frame_table *t,
				 const struct legacy_frame *f);

/**
 * legacy_frames_next() - iterate over the frames, in no particular order
 * @t: the table
 * @i: 0 to start; the position, kept by the caller
 *
 * Return: the next frame, or NULL at the end.
 */
struct legacy_frame *legacy_frames_next(struct legacy_frame_table *t, unsigned long *i);

/**
 * legacy_frames_sorted() - the frames of @t in address order, for a walk
 * @t:   the table, held still by the caller's lock
 * @n:   receives how many
 * @err: receives 0, or -ENOMEM
 *
 * Return: a malloc()ed array of *@n frames to free(), or NULL (none, or
 * *@err set).
 */
struct legacy_frame **legacy_frames_sorted(struct legacy_frame_table *t, size_t *n, int *err);

#endif /* GENALLOC_LEGACY_FRAMES_INTERNAL_H */
