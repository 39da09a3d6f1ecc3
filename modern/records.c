// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * modern/records.c - block records: where each live block starts, so that
 * a free can be held to the block it names (see records_internal.h).
 *
 * Only the pool's allocation, free and checker use them; the searches and
 * the index never see them.  Every access goes through the atomic view of
 * the words, as the bitmap's does, so lock-free readers stay defined.
 */
#include <stdatomic.h>

#include "records_internal.h"

static _Atomic unsigned long *rec_word(const struct gen_pool_chunk *chunk, unsigned long bit)
{
	return (_Atomic unsigned long *)&modern_records(chunk)[bit / MODERN_BITS_PER_LONG];
}

static unsigned long bit_mask(unsigned long bit)
{
	return 1UL << (bit % MODERN_BITS_PER_LONG);
}

static unsigned long load(const unsigned long *map, unsigned long i)
{
	return atomic_load_explicit((const _Atomic unsigned long *)&map[i], memory_order_relaxed);
}

static bool test_bit(const unsigned long *map, unsigned long bit)
{
	return load(map, bit / MODERN_BITS_PER_LONG) & bit_mask(bit);
}

void modern_records_mark(struct gen_pool_chunk *chunk, unsigned long bit, bool shared)
{
	_Atomic unsigned long *w = rec_word(chunk, bit);

	if (shared)
		atomic_fetch_or_explicit(w, bit_mask(bit), memory_order_relaxed);
	else
		atomic_store_explicit(w, atomic_load_explicit(w, memory_order_relaxed) |
					 bit_mask(bit), memory_order_relaxed);
}

void modern_records_unmark(struct gen_pool_chunk *chunk, unsigned long bit, bool shared)
{
	_Atomic unsigned long *w = rec_word(chunk, bit);

	if (shared)
		atomic_fetch_and_explicit(w, ~bit_mask(bit), memory_order_relaxed);
	else
		atomic_store_explicit(w, atomic_load_explicit(w, memory_order_relaxed) &
					 ~bit_mask(bit), memory_order_relaxed);
}

unsigned long modern_records_block_end(const struct gen_pool_chunk *chunk, unsigned long bit,
				       unsigned long limit)
{
	unsigned long next = modern_find_next_bit(modern_records(chunk), limit, bit + 1);
	unsigned long hole = modern_find_next_zero_bit(chunk->bits, next, bit + 1);

	return hole < next ? hole : next;
}

static bool refuse(struct modern_records_verdict *v, enum genalloc_errcode code,
		   const char *msg)
{
	v->code = code;
	v->msg = msg;
	return false;
}

/* A used granule without a record is inside a block. */
static bool starts_block(const struct gen_pool_chunk *chunk, unsigned long start,
			 struct modern_records_verdict *v)
{
	if (test_bit(modern_records(chunk), start))
		return true;
	return refuse(v, GENALLOC_EFOREIGN, "address is inside a block, not at its start");
}

bool modern_records_free_ok(const struct gen_pool_chunk *chunk, unsigned long start,
			    unsigned long nbits, bool exact, struct modern_records_verdict *v)
{
	unsigned long end = start + nbits, limit;

	if (!test_bit(chunk->bits, start))
		return true;
	if (!starts_block(chunk, start, v))
		return false;
	if (!exact) {
		if (modern_find_next_bit(modern_records(chunk), end, start + 1) < end)
			return refuse(v, GENALLOC_ESIZE, "size covers more than one block");
		return true;
	}
	/* One granule past the range tells "ends there" from "goes on". */
	limit = end < chunk->nbits ? end + 1 : chunk->nbits;
	if (modern_records_block_end(chunk, start, limit) < end)
		return refuse(v, GENALLOC_ESIZE, "size runs past the end of the block");
	if (end < chunk->nbits && test_bit(chunk->bits, end) &&
	    !test_bit(modern_records(chunk), end))
		return refuse(v, GENALLOC_ESIZE, "size ends inside the block");
	return true;
}

unsigned long modern_records_block_at(const struct gen_pool_chunk *chunk, unsigned long start,
				      struct modern_records_verdict *v)
{
	if (!test_bit(chunk->bits, start))
		return refuse(v, GENALLOC_EDOUBLEFREE, "no block in use at this address");
	if (!starts_block(chunk, start, v))
		return 0;
	return modern_records_block_end(chunk, start, chunk->nbits) - start;
}

/* The first granule of each run of used granules in word @i of @bits. */
static unsigned long run_heads(const unsigned long *bits, unsigned long i)
{
	unsigned long w = load(bits, i);
	unsigned long carry = i ? load(bits, i - 1) >> (MODERN_BITS_PER_LONG - 1) : 0;

	return w & ~((w << 1) | carry);
}

const char *modern_records_verify(const struct gen_pool_chunk *chunk)
{
	const unsigned long *rec = modern_records(chunk);
	unsigned long i, n = modern_bits_to_longs(chunk->nbits);

	for (i = 0; i < n; i++) {
		if (load(rec, i) & ~load(chunk->bits, i))
			return "block record on a free granule";
		if (run_heads(chunk->bits, i) & ~load(rec, i))
			return "used granules with no block record";
	}
	return NULL;
}
