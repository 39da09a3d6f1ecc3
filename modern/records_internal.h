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

#include <stdbool.h>

#include "bitmap_internal.h"
#include "pool_internal.h"

/* The records of @chunk, in a pool that keeps them. */
static inline unsigned long *modern_records(const struct gen_pool_chunk *chunk)
{
	return (unsigned long *)chunk->bits + modern_bits_to_longs(chunk->nbits);
}

/* What is wrong with a free according to the records. */
struct modern_records_verdict {
	enum genalloc_errcode code;
	const char *msg;
};

/**
 * modern_records_mark() - record a block starting at granule @bit
 * @chunk:  the chunk
 * @bit:    its first granule
 * @shared: lock-free mode (an atomic or); else under the pool's lock
 */
void modern_records_mark(struct gen_pool_chunk *chunk, unsigned long bit, bool shared);

/**
 * modern_records_unmark() - forget the block starting at granule @bit
 * @chunk:  the chunk
 * @bit:    its first granule
 * @shared: as for modern_records_mark()
 */
void modern_records_unmark(struct gen_pool_chunk *chunk, unsigned long bit, bool shared);

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
 * modern_records_free_ok() - may [@start, @start + @nbits) be freed?
 * @chunk:  the chunk
 * @start:  first granule
 * @nbits:  granules, within the chunk
 * @exact:  the pool's lock is held (indexed mode): the block's end is known;
 *          lock-free, a neighbour's record may not be written yet, so only
 *          a range covering another recorded block is refused
 * @v:      filled when the answer is false
 *
 * A free granule at @start is not judged here: the bitmap's own check
 * reports the double free.
 *
 * Return: true if the records allow the free.
 */
bool modern_records_free_ok(const struct gen_pool_chunk *chunk, unsigned long start,
			    unsigned long nbits, bool exact, struct modern_records_verdict *v);

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
