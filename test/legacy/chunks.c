// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * test/legacy/chunks.c - see chunks.h.
 */
#include "chunks.h"

#include "../support.h"

void chunk_supply_init(struct chunk_supply *cs, int shift, int limit)
{
	unsigned long size = 1UL << shift;

	cs->shift = shift;
	cs->limit = limit;
	atomic_init(&cs->next, 0);
	atomic_init(&cs->calls, 0);
	cs->bad = 0;
	cs->base = (unsigned long)test_region(size, size * (limit ? limit : 1));
}

unsigned long chunk_at(const struct chunk_supply *cs, int n)
{
	return cs->base + ((unsigned long)n << cs->shift);
}

unsigned long supply_chunk(struct gen_pool *pool)
{
	struct chunk_supply *cs = (struct chunk_supply *)pool->private;
	int n;

	atomic_fetch_add(&cs->calls, 1);
	n = atomic_fetch_add(&cs->next, 1);
	if (n >= cs->limit) {
		atomic_fetch_sub(&cs->next, 1);
		return 0;
	}
	return chunk_at(cs, n);
}

unsigned long supply_bad_chunk(struct gen_pool *pool)
{
	return ((const struct chunk_supply *)pool->private)->bad;
}

struct gen_pool *supply_pool(struct chunk_supply *cs, int nr_chunks)
{
	struct gen_pool *pool = legacy_alloc_gen_pool(nr_chunks, cs->shift, supply_chunk,
						      (unsigned long)cs);

	ck_assert_ptr_nonnull(pool);
	return pool;
}

unsigned long pool_live_bytes(struct gen_pool *pool)
{
	struct legacy_gen_pool_stats st;

	legacy_gen_pool_stats(pool, &st);
	return st.obtained_bytes + st.donated_bytes - st.free_bytes;
}
