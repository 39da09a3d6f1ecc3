/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * modern/records_internal.h - block records: one bit per granule, set on
 * the first granule of every live block (not installed).
 *
 * A pool that asked for them (gen_pool_use_block_records()) gives each
 * chunk a second bitmap of nbits bits right after the allocation bitmap,
 * in the same block of bookkeeping.  Invariant, in indexed mode and in a
 * quiet lock-free pool: a record bit is set only on a used granule, and
 * the first granule of every run of used granules has one.  A block is
 * then a record bit and the used granules after it up to the next record
 * bit or free granule.  Cost: nbits / 8 bytes a chunk; O(1) an
 * allocation; O(size / word) a free.
 */
#ifndef GENALLOC_MODERN_RECORDS_INTERNAL_H
#define GENALLOC_MODERN_RECORDS_INTERNAL_H

#include <stdatomic.h>
#include <stdbool.h>

#include "bitmap_internal.h"
#include "genalloc.h"

/* The records of @chunk, in a pool that keeps them. */
static inline unsigned long *modern_records(const struct gen_pool_chunk *chunk)
{
	return (unsigned long *)chunk->bits + modern_bits_to_longs(chunk->nbits);
}

/* The verdict on an address that is a used granule but no block's first. */
#define MODERN_RECORDS_INTERIOR "address is inside a block, not at its start"

/* What is wrong with a free according to the records. */
struct modern_records_verdict {
	enum genalloc_errcode code;
	const char *msg;
};

/* Word @i of @map, read as the lock-free paths write it. */
static inline unsigned long modern_records_load(const unsigned long *map, unsigned long i)
{
	return atomic_load_explicit((const _Atomic unsigned long *)&map[i], memory_order_relaxed);
}

static inline unsigned long modern_records_mask(unsigned long bit)
{
	return 1UL << (bit % MODERN_BITS_PER_LONG);
}

static inline bool modern_records_test(const unsigned long *map, unsigned long bit)
{
	return modern_records_load(map, bit / MODERN_BITS_PER_LONG) & modern_records_mask(bit);
}

/* A chunk's words are laid out and published before any access. */
static inline _Atomic unsigned long *modern_records_word(const struct gen_pool_chunk *chunk,
							unsigned long bit)
{
	return (_Atomic unsigned long *)&modern_records(chunk)[bit / MODERN_BITS_PER_LONG];
}

/**
 * modern_records_mark() - record a block starting at granule @bit
 * @chunk:  the chunk
 * @bit:    its first granule
 * @shared: lock-free mode (an atomic or); else under the pool's lock
 */
static inline void modern_records_mark(struct gen_pool_chunk *chunk, unsigned long bit,
				       bool shared)
{
	_Atomic unsigned long *w = modern_records_word(chunk, bit);

	if (shared)
		atomic_fetch_or_explicit(w, modern_records_mask(bit), memory_order_relaxed);
	else
		atomic_store_explicit(w, atomic_load_explicit(w, memory_order_relaxed) |
					 modern_records_mask(bit), memory_order_relaxed);
}

/**
 * modern_records_unmark() - forget the block starting at granule @bit
 * @chunk:  the chunk
 * @bit:    its first granule
 * @shared: as for modern_records_mark()
 */
static inline void modern_records_unmark(struct gen_pool_chunk *chunk, unsigned long bit,
					 bool shared)
{
	_Atomic unsigned long *w = modern_records_word(chunk, bit);

	if (shared)
		atomic_fetch_and_explicit(w, ~modern_records_mask(bit), memory_order_relaxed);
	else
		atomic_store_explicit(w, atomic_load_explicit(w, memory_order_relaxed) &
					 ~modern_records_mask(bit), memory_order_relaxed);
}

/* Is any bit of @map in [@from, @to) set?  Word by word: a free's range is
 * short next to its chunk. */
static inline bool modern_records_any(const unsigned long *map, unsigned long from,
				      unsigned long to)
{
	unsigned long i = from / MODERN_BITS_PER_LONG, last = (to - 1) / MODERN_BITS_PER_LONG;
	unsigned long w;

	if (from >= to)
		return false;
	w = modern_records_load(map, i) & (~0UL << (from % MODERN_BITS_PER_LONG));
	if (i < last) {
		/* Whole words between: four at a time, one test for all. */
		for (++i; i + 4 <= last; i += 4)
			w |= modern_records_load(map, i) | modern_records_load(map, i + 1) |
			     modern_records_load(map, i + 2) | modern_records_load(map, i + 3);
		for (; i < last; i++)
			w |= modern_records_load(map, i);
		if (w)
			return true;
		w = modern_records_load(map, last);
	}
	return w & (~0UL >> (MODERN_BITS_PER_LONG - 1 - (to - 1) % MODERN_BITS_PER_LONG));
}

/* Fill @v; false. */
bool modern_records_refuse(struct modern_records_verdict *v, enum genalloc_errcode code,
			   const char *msg);

/**
 * modern_records_free_ok() - may [@start, @start + @nbits) be freed?
 * @chunk:  the chunk
 * @start:  first granule
 * @nbits:  granules, within the chunk
 * @exact:  the pool's lock is held (indexed mode): the block's end is known;
 *          lock-free, a neighbour's record may not be written yet, so a
 *          range that ends inside its block is not refused
 * @v:      filled when the answer is false
 *
 * Free granules in the range are not judged here: the bitmap's own check
 * reports them (EDOUBLEFREE), in both modes.  So the range is a block
 * exactly when it starts at a record, holds no other, and is followed by
 * a record, a free granule or the chunk's end.  Inline: it runs on every
 * free of a pool with records.
 *
 * Return: true if the records allow the free.
 */
static inline bool modern_records_free_ok(const struct gen_pool_chunk *chunk,
					  unsigned long start, unsigned long nbits, bool exact,
					  struct modern_records_verdict *v)
{
	const unsigned long *rec = modern_records(chunk);
	unsigned long end = start + nbits;

	if (!modern_records_test(chunk->bits, start))
		return true;
	if (!modern_records_test(rec, start))
		return modern_records_refuse(v, GENALLOC_EFOREIGN,
					     MODERN_RECORDS_INTERIOR);
	if (modern_records_any(rec, start + 1, end))
		return modern_records_refuse(v, GENALLOC_ESIZE,
					     "size runs past the end of the block");
	if (exact && end < chunk->nbits && modern_records_test(chunk->bits, end) &&
	    !modern_records_test(rec, end))
		return modern_records_refuse(v, GENALLOC_ESIZE, "size ends inside the block");
	return true;
}

/**
 * modern_records_block_end() - the granule after the block at @bit
 * @chunk: the chunk
 * @bit:   a used granule carrying a record
 * @limit: search no further than this granule (at most nbits)
 *
 * Return: the next granule that starts a block or is free, or @limit.
 */
unsigned long modern_records_block_end(const struct gen_pool_chunk *chunk, unsigned long bit,
				       unsigned long limit);

/**
 * modern_records_block_at() - the granules of the block at @start
 * @chunk: the chunk
 * @start: a granule
 * @v:     filled when there is no block there
 *
 * Return: the block's length in granules, or 0.
 */
unsigned long modern_records_block_at(const struct gen_pool_chunk *chunk, unsigned long start,
				      struct modern_records_verdict *v);

/**
 * modern_records_verify() - do @chunk's records agree with its bitmap?
 * @chunk: the chunk
 *
 * Return: NULL if they do, else what is wrong.
 */
const char *modern_records_verify(const struct gen_pool_chunk *chunk);

#endif /* GENALLOC_MODERN_RECORDS_INTERNAL_H */
