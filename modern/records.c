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

unsigned long modern_records_block_end(const struct gen_pool_chunk *chunk, unsigned long bit,
				       unsigned long limit)
{
	unsigned long next = modern_find_next_bit(modern_records(chunk), limit, bit + 1);
	unsigned long hole = modern_find_next_zero_bit(chunk->bits, next, bit + 1);

	return hole < next ? hole : next;
}

bool modern_records_refuse(struct modern_records_verdict *v, enum genalloc_errcode code,
			   const char *msg)
{
	v->code = code;
	v->msg = msg;
	return false;
}

unsigned long modern_records_block_at(const struct gen_pool_chunk *chunk, unsigned long start,
				      struct modern_records_verdict *v)
{
	if (!modern_records_test(chunk->bits, start))
		return modern_records_refuse(v, GENALLOC_EDOUBLEFREE,
					     "no block in use at this address");
	if (!modern_records_test(modern_records(chunk), start))
		return modern_records_refuse(v, GENALLOC_EFOREIGN,
					     MODERN_RECORDS_INTERIOR);
	return modern_records_block_end(chunk, start, chunk->nbits) - start;
}

/* The first granule of each run of used granules in word @i of @bits. */
static unsigned long run_heads(const unsigned long *bits, unsigned long i)
{
	unsigned long w = modern_records_load(bits, i);
	unsigned long carry = i ? modern_records_load(bits, i - 1) >> (MODERN_BITS_PER_LONG - 1)
				: 0;

	return w & ~((w << 1) | carry);
}

const char *modern_records_verify(const struct gen_pool_chunk *chunk)
{
	const unsigned long *rec = modern_records(chunk);
	unsigned long i, n = modern_bits_to_longs(chunk->nbits);

	for (i = 0; i < n; i++) {
		if (modern_records_load(rec, i) & ~modern_records_load(chunk->bits, i))
			return "block record on a free granule";
		if (run_heads(chunk->bits, i) & ~modern_records_load(rec, i))
			return "used granules with no block record";
	}
	return NULL;
}
