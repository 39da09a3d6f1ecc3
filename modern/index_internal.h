/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * modern/index_internal.h - the free-run index of one chunk's bitmap (not
 * installed).  modern/index.c states the design; this is what the pool and
 * the checker call.
 *
 * An index answers the same questions as a linear search of the bitmap,
 * with the same answers, in O(log n) instead of O(n).  It is only as exact
 * as the updates it is told about: every change of the bitmap must be
 * followed by modern_index_update() over the changed bits before the next
 * search, so the pool uses it only while it serializes allocation and free
 * (indexed mode, see gen_pool_set_lockless()).
 */
#ifndef GENALLOC_MODERN_INDEX_INTERNAL_H
#define GENALLOC_MODERN_INDEX_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Chunks of more granules than this are searched linearly (the index keeps
 * run lengths in 32 bits). */
#define MODERN_INDEX_MAX_BITS 0xffffffffUL

/* "No run found", from every search below. */
#define MODERN_INDEX_NONE (~0UL)

struct modern_index;

/**
 * modern_index_create() - an index for a bitmap of @nbits bits
 * @map:   the bitmap (read to build the summaries; may be all clear)
 * @nbits: bits in @map, 1 .. MODERN_INDEX_MAX_BITS
 *
 * Return: the index, or NULL when out of memory or @nbits is too large.
 */
struct modern_index *modern_index_create(const unsigned long *map, unsigned long nbits);

/** modern_index_destroy() - free an index (NULL is a no-op) */
void modern_index_destroy(struct modern_index *ix);

/** modern_index_bytes() - bookkeeping of an index of @nbits bits, in bytes */
size_t modern_index_bytes(unsigned long nbits);

/** modern_index_footprint() - bytes this index uses now (size classes too) */
size_t modern_index_footprint(const struct modern_index *ix);

/* Order hints are kept from here on (1024 blocks): below, the headers of
 * the index and the hints together could pass the budget, and a
 * search visits few blocks anyway. */
#define MODERN_INDEX_HINT_MIN_BITS (1UL << 20)

/* An aligned search that meets more blocks than this without a window
 * turns the hints on: until then a pool's holes fit its requests well
 * enough that the hints would cost more to keep than they save. */
#define MODERN_INDEX_HINT_AFTER 8

/**
 * modern_index_hints_fit() - may aligned searches on a bitmap of @nbits
 * turn the aligned-fit hints (orderhint.c) on?  From
 * MODERN_INDEX_HINT_MIN_BITS bits on.
 */
bool modern_index_hints_fit(unsigned long nbits);

/**
 * modern_index_reserve_hints() - allocate the hints' memory now, so
 * that turning them on later needs none; they stay off
 *
 * Return: 0, or -ENOMEM (the index is unchanged).
 */
int modern_index_reserve_hints(struct modern_index *ix);

/* The grid family of gen_pool_first_fit_order_align(): each request on
 * the power of two its size rounds up to. */
#define MODERN_INDEX_ORDER_GRID (~0UL)

/**
 * modern_index_hints_on() - turn the hints on now for the requests of one
 * grid family, whatever the bitmap's size: load them from the blocks'
 * longest runs and keep them up to date from here on
 * @ix:   the index
 * @mask: the fixed grid (p + @off) & @mask == 0, or MODERN_INDEX_ORDER_GRID
 * @off:  the fixed grid's offset, below @mask + 1 (0 for the order grid)
 *
 * Return: 0; -EBUSY if they are on for another family (they serve one);
 * -ENOMEM (the index is unchanged).
 */
int modern_index_hints_on(struct modern_index *ix, unsigned long mask, unsigned long off);

/** modern_index_order_hints() - modern_index_hints_on() for order-aligned fit */
int modern_index_order_hints(struct modern_index *ix);

/**
 * modern_index_order_hint() - hint block @b's hint (a hint block is 512
 * bits, two of the index's): no request of the hints' family above it
 * fits in a run that starts in the block (at most
 * MODERN_OHINT_CAP, "unknown"); MODERN_INDEX_NONE while the hints are off
 */
unsigned long modern_index_order_hint(const struct modern_index *ix, unsigned long b);

/** modern_index_rebuild() - recompute every summary from @map */
void modern_index_rebuild(struct modern_index *ix, const unsigned long *map);

/**
 * modern_index_update() - bits [@start, @start + @nr) of @map were claimed
 * (all clear, now all set) or released (all set, now all clear)
 * @ix:    the index
 * @map:   the bitmap, already changed
 * @start: first changed bit
 * @nr:    number of changed bits, > 0
 *
 * Every bit of the range must have flipped: the update only revisits the
 * runs at the range's two ends, so a bit that was already in its new state
 * leaves the index wrong (modern_index_verify() says so).  The pool's
 * claims and frees always flip every bit; anything else needs
 * modern_index_rebuild().
 */
void modern_index_update(struct modern_index *ix, const unsigned long *map,
			 unsigned long start, unsigned long nr);

/**
 * modern_index_claim_run() - modern_index_update() for a claim that starts
 * a free run whose end the caller already knows
 * @ix:      the index
 * @map:     the bitmap, already changed
 * @start:   first claimed bit: the first bit of its free run
 * @nr:      number of claimed bits, > 0
 * @run_end: the end of that free run before the claim (its first used bit
 *           after it, or the map's size), >= @start + @nr
 *
 * @told:    the consumer slots (1 << enum modern_index_slot) that already
 *           know of this claim: the search that found it told them, so the
 *           index does not call back up into them
 *
 * What first fit and best fit claim (modern_index_find_first()'s and
 * modern_best_fit()'s answers): the update skips looking for the
 * run's two ends.
 */
void modern_index_claim_run(struct modern_index *ix, const unsigned long *map,
			    unsigned long start, unsigned long nr, unsigned long run_end,
			    unsigned int told);

/**
 * modern_index_claim_within() - modern_index_claim_run() for a claim that
 * may start anywhere in its free run
 * @ix:      the index
 * @map:     the bitmap, already changed
 * @start:   first claimed bit
 * @nr:      number of claimed bits, > 0
 * @run_end: the end of the free run that held [@start, @start + @nr)
 *           before the claim, >= @start + @nr
 *
 * What the aligned searches claim when they report the run's end
 * (modern_index_find_aligned()): the update looks only for the run's
 * start, which for a window at a run's start is one bit test.
 */
void modern_index_claim_within(struct modern_index *ix, const unsigned long *map,
			       unsigned long start, unsigned long nr, unsigned long run_end);

/**
 * modern_index_verify() - does every summary match @map?
 *
 * Return: true if the index is exact.  Costs O(bitmap words).
 */
bool modern_index_verify(const struct modern_index *ix, const unsigned long *map);

/**
 * modern_index_verify_own() - modern_index_verify() of the index's own
 * summaries (full map, leaves, tree, dirty block), not of what is built on
 * it: it reads only, allocates nothing and takes no lock, so the checked
 * build's assertions may run it inside a signal handler
 */
bool modern_index_verify_own(const struct modern_index *ix, const unsigned long *map);

/**
 * modern_index_find() - the lowest run of @nr clear bits at or after @lo
 * @ix:  the index
 * @map: its bitmap
 * @lo:  first bit to consider
 * @nr:  run length, > 0
 *
 * Return: the run's first bit, or MODERN_INDEX_NONE.
 */
unsigned long modern_index_find(const struct modern_index *ix, const unsigned long *map,
				unsigned long lo, unsigned long nr);

/**
 * modern_index_find_first() - modern_index_find(@ix, @map, 0, @nr), and where
 * the free run it starts ends
 * @ix:      the index
 * @map:     its bitmap
 * @nr:      run length, > 0
 * @run_end: receives the end of the free run whose first bit is the answer
 *           (for modern_index_claim_run()) when the search met it on the
 *           way, else MODERN_INDEX_NONE
 *
 * The lowest window always starts its free run: one bit lower would
 * otherwise be a lower window.
 *
 * Unlike modern_index_find(), it may bring the tree up to date with a
 * release it has not been told of yet (see modern/index.c), which is why
 * the index is not const.
 *
 * Return: the run's first bit, or MODERN_INDEX_NONE.
 */
unsigned long modern_index_find_first(struct modern_index *ix, const unsigned long *map,
				      unsigned long nr, unsigned long *run_end);

/**
 * modern_index_find_aligned() - the lowest run whose start p satisfies
 * (p + @off) & @mask == 0 (@mask + 1 a power of two)
 *
 * Equal to modern_bitmap_find_next_zero_area_off(map, nbits, 0, nr, mask,
 * off) when that succeeds.  When the hints (orderhint.c) are on for this
 * grid, the search goes through them, and each block it finds wanting
 * lowers its hint.  While they are off, the first search that meets more
 * than MODERN_INDEX_HINT_AFTER blocks without a window turns them on for
 * its grid where modern_index_hints_fit(), which allocates them unless
 * reserved (without memory, they stay off).
 *
 * *@run_end receives the end of the free run that holds the answer (for
 * modern_index_claim_within()) when the search saw it, else
 * MODERN_INDEX_NONE.
 *
 * Return: the run's first bit, or MODERN_INDEX_NONE.
 */
unsigned long modern_index_find_aligned(struct modern_index *ix, const unsigned long *map,
					unsigned long nr, unsigned long mask, unsigned long off,
					unsigned long *run_end);

/**
 * modern_index_find_order_aligned() - gen_pool_first_fit_order_align()'s
 * answer: modern_index_find_aligned() on the grid of @nr rounded up to a
 * power of two, @off 0, whose hints serve every request size at once
 * (MODERN_INDEX_ORDER_GRID)
 */
unsigned long modern_index_find_order_aligned(struct modern_index *ix, const unsigned long *map,
					      unsigned long nr, unsigned long *run_end);

/**
 * modern_index_aligned_bound() - the longest request of a grid family that
 * may still fit: every longer one is known to find nothing
 * @ix:   the index
 * @mask: the fixed grid (p + @off) & @mask == 0, or MODERN_INDEX_ORDER_GRID
 * @off:  the fixed grid's offset (0 for the order grid)
 *
 * The chunk's longest run, or less where the last aligned search that
 * found nothing (THE MISS MEMO in modern/index.c) rules out the longer
 * requests of the family: what the chunk directory keeps per chunk so that
 * an aligned request skips the chunks known to hold no window for it.
 */
unsigned long modern_index_aligned_bound(const struct modern_index *ix, unsigned long mask,
					 unsigned long off);

/**
 * struct modern_index_change - one claim or release as the index's update
 * saw it: what the structures built on the index consume to stay exact
 * @run_start: first bit of the free run the bits were claimed out of, or
 *             of the run a release merged them into
 * @run_end:   that run's end (its first used bit, or the map's size)
 * @start:     first claimed or released bit
 * @nr:        bits claimed or released, > 0
 * @claim:     true for a claim, false for a release
 */
struct modern_index_change {
	unsigned long run_start, run_end, start, nr;
	bool claim;
};

struct modern_index_consumer;

/**
 * enum modern_index_slot - where a consumer hangs on the index
 * @MODERN_INDEX_CLASSES: best fit's size classes (sizeclass.c), built by the
 *                     first best-fit search of the chunk
 * @MODERN_INDEX_ALIGNED: the aligned searches' hints and grid-point map
 *                     (alignfit.c), turned on by the searches that use them
 * @MODERN_INDEX_SLOTS:   how many there are
 *
 * Each slot's consumer is told of every change, in slot order.
 */
enum modern_index_slot {
	MODERN_INDEX_CLASSES,
	MODERN_INDEX_ALIGNED,
	MODERN_INDEX_SLOTS,
};

/**
 * struct modern_index_consumer_ops - what the index asks of a consumer
 * @change:  learn of a change, the bitmap and the index already updated;
 *           it may read both, and must not change the index's own state
 *           (its tree, full map and dirty block)
 * @verify:  does it agree with @map?
 * @bytes:   its bookkeeping, in bytes, beyond the index's
 * @rebuild: the index was recomputed from @map: reload, and say true, or
 *           say false to be destroyed
 * @destroy: free it (NULL for a consumer that owns no memory)
 *
 * The index calls a consumer only through these, so that what is built
 * on the index never needs the index to know it: the index's code calls
 * none of its consumers' functions by name.
 */
struct modern_index_consumer_ops {
	void (*change)(const struct modern_index_consumer *c, struct modern_index *ix,
		       const unsigned long *map, const struct modern_index_change *chg);
	bool (*verify)(const struct modern_index_consumer *c, const struct modern_index *ix,
		       const unsigned long *map);
	size_t (*bytes)(const struct modern_index_consumer *c, const struct modern_index *ix);
	bool (*rebuild)(const struct modern_index_consumer *c, struct modern_index *ix,
			const unsigned long *map);
	void (*destroy)(const struct modern_index_consumer *c);
};

/**
 * struct modern_index_consumer - a structure kept up to date from the
 * index's change records, embedded in it (or, for one that keeps its
 * state in the index, a constant)
 * @ops: its operations
 */
struct modern_index_consumer {
	const struct modern_index_consumer_ops *ops;
};

/**
 * modern_index_attach() - from now on, hand @c every change record
 * @ix:   the index
 * @slot: its place (enum modern_index_slot)
 * @c:    the consumer, or NULL to detach
 *
 * The index owns what it is given: it verifies it with itself, counts its
 * bytes in its footprint, rebuilds it with itself, and destroys it with
 * itself or when another takes the slot.
 */
void modern_index_attach(struct modern_index *ix, enum modern_index_slot slot,
			 const struct modern_index_consumer *c);


#endif /* GENALLOC_MODERN_INDEX_INTERNAL_H */
