// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * modern/check.c - the consistency checker and the free-space statistics.
 *
 * Both only read the bookkeeping; neither keeps counters of its own, so the
 * statistics can never disagree with what the allocator does.
 */
#include <string.h>

#include "bitmap_internal.h"
#include "chunkdir_internal.h"
#include "chunklist_internal.h"
#include "chunkmeta_internal.h"
#include "index_internal.h"
#include "lock_internal.h"
#include "records_internal.h"
#include "reentry_internal.h"

static int corrupt(struct gen_pool *pool, const struct gen_pool_chunk *chunk,
		   const char *msg)
{
	genalloc_report(GENALLOC_BUG, GENALLOC_ECORRUPT, "gen_pool_check", pool,
			chunk->start_addr, modern_chunk_size(chunk), msg);
	return -1;
}

/* Bits past the last granule must never be set: the algorithms never look
 * there, so a set one would be a leak nobody could free. */
static bool tail_bits_clear(const struct gen_pool_chunk *chunk)
{
	unsigned long used = chunk->nbits % MODERN_BITS_PER_LONG;
	unsigned long last;

	if (!used)
		return true;
	last = atomic_load_explicit((const _Atomic unsigned long *)
				    &chunk->bits[chunk->nbits / MODERN_BITS_PER_LONG],
				    memory_order_relaxed);
	return (last >> used) == 0;
}

static int check_chunk(struct gen_pool *pool, const struct gen_pool_chunk *chunk)
{
	const char *msg;
	unsigned long used;

	if (chunk->start_addr == 0 || chunk->end_addr < chunk->start_addr)
		return corrupt(pool, chunk, "chunk bounds are inverted or at 0");
	if (chunk->nbits != modern_chunk_size(chunk) >> pool->min_alloc_order)
		return corrupt(pool, chunk, "granule count does not match the chunk size");
	if (!tail_bits_clear(chunk))
		return corrupt(pool, chunk, "bit set past the last granule");
	used = modern_bitmap_weight(chunk->bits, chunk->nbits) << pool->min_alloc_order;
	if ((unsigned long)atomic_load_explicit(&chunk->avail, memory_order_relaxed) !=
	    modern_chunk_size(chunk) - used)
		return corrupt(pool, chunk, "avail does not match the bitmap");
	/* The lock-free path does not maintain the index (it is rebuilt when
	 * the pool leaves that mode). */
	if (!pool->lockless && chunk->index && !modern_index_verify(chunk->index, chunk->bits))
		return corrupt(pool, chunk, "index does not match the bitmap");
	if (pool->records && (msg = modern_records_verify(chunk)))
		return corrupt(pool, chunk, msg);
	return 0;
}

/**
 * gen_pool_check() - verify a quiet pool's internal consistency
 * @pool: the pool
 *
 * Return: 0, or -1 after a BUG ECORRUPT (WARN EINVAL for a NULL pool).
 */
int modern_gen_pool_check(struct gen_pool *pool)
{
	struct gen_pool_chunk *chunk, *other;

	if (!pool) {
		genalloc_report(GENALLOC_WARN, GENALLOC_EINVAL, "gen_pool_check", NULL, 0, 0,
				"NULL pool");
		return -1;
	}
	if (!pool->lockless && !modern_dir_verify(pool->dir)) {
		genalloc_report(GENALLOC_BUG, GENALLOC_ECORRUPT, "gen_pool_check", pool, 0, 0,
				"chunk directory does not match the chunks");
		return -1;
	}
	for (chunk = modern_first_chunk(pool); chunk; chunk = chunk->next_chunk) {
		if (check_chunk(pool, chunk))
			return -1;
		for (other = chunk->next_chunk; other; other = other->next_chunk)
			if (chunk->start_addr <= other->end_addr &&
			    other->start_addr <= chunk->end_addr)
				return corrupt(pool, chunk, "chunks overlap");
	}
	return 0;
}

static unsigned int log2_floor(unsigned long x)
{
	return (unsigned int)(MODERN_BITS_PER_LONG - 1) - (unsigned int)__builtin_clzl(x);
}

/*
 * Every maximal run of free granules of @chunk, into @st.  In lock-free
 * mode the bits move under the walk: the free bit just found may be
 * claimed before its run's end is sought, leaving a run of length 0,
 * which is skipped (log2 of 0 would index far past hist[]).
 */
static void count_extents(const struct gen_pool_chunk *chunk, int order,
			  struct gen_pool_stats *st)
{
	unsigned long from, to, bytes;

	from = modern_find_next_zero_bit(chunk->bits, chunk->nbits, 0);
	while (from < chunk->nbits) {
		to = modern_find_next_bit(chunk->bits, chunk->nbits, from);
		if (to == from) {
			from = modern_find_next_zero_bit(chunk->bits, chunk->nbits, from + 1);
			continue;
		}
		bytes = (to - from) << order;
		st->nr_free_extents++;
		st->hist[log2_floor(bytes)]++;
		if (bytes > st->largest_free)
			st->largest_free = bytes;
		from = modern_find_next_zero_bit(chunk->bits, chunk->nbits, to);
	}
}

/**
 * gen_pool_stats() - fill @st with the pool's free-space statistics
 * @pool: the pool
 * @st:   where to write
 */
void modern_gen_pool_stats(struct gen_pool *pool, struct gen_pool_stats *st)
{
	struct gen_pool_chunk *chunk;
	long avail;

	if (st)
		memset(st, 0, sizeof(*st));
	if (!pool || !st) {
		genalloc_report(GENALLOC_WARN, GENALLOC_EINVAL, "gen_pool_stats", pool, 0, 0,
				pool ? "NULL statistics buffer" : "NULL pool");
		return;
	}
	/* The lock holds the directory and the lazily built size classes
	 * still (and, in indexed mode, the bitmaps: an exact snapshot). */
	if (!modern_lock_acquire(&pool->lock)) {
		modern_refuse_reentry(pool, "gen_pool_stats", 0, 0);
		return;
	}
	st->metadata_bytes = sizeof(*pool) + modern_dir_bytes(pool->dir);
	for (chunk = modern_first_chunk(pool); chunk; chunk = chunk->next_chunk) {
		st->nr_chunks++;
		st->size += modern_chunk_size(chunk);
		avail = atomic_load_explicit(&chunk->avail, memory_order_relaxed);
		/* Transiently negative while a free and an allocation cross. */
		st->avail += avail > 0 ? (size_t)avail : 0;
		st->metadata_bytes += modern_chunk_meta_bytes(pool, chunk->nbits);
		/* The best-fit size classes exist once best fit has run. */
		if (chunk->index)
			st->metadata_bytes += modern_index_footprint(chunk->index) -
					      modern_index_bytes(chunk->nbits);
		count_extents(chunk, pool->min_alloc_order, st);
	}
	modern_lock_release(&pool->lock);
}
