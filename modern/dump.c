// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * modern/dump.c - gen_pool_dump(): the pool's layout as text or JSON
 * (common/dump.h), written from one walk (walk.c) under the pool's lock.
 *
 * Read-only, O(bitmap words + runs), no memory beyond the writer's state.
 */
#include <errno.h>

#include "../common/dump_internal.h"
#include "chunklist_internal.h"
#include "walk_internal.h"

static int dump_chunk(struct gen_pool *pool, struct gen_pool_chunk *chunk, void *data)
{
	(void)pool;
	genalloc_dump_chunk(data, chunk->start_addr, modern_chunk_size(chunk));
	return 0;
}

static int dump_run(struct gen_pool *pool, struct gen_pool_chunk *chunk, unsigned long addr,
		    size_t size, bool used, void *data)
{
	(void)pool;
	(void)chunk;
	genalloc_dump_run(data, addr, size, used);
	return 0;
}

/**
 * gen_pool_dump() - write the pool's layout to @f
 * @pool:   the pool
 * @f:      where to write
 * @format: GENALLOC_DUMP_TEXT or GENALLOC_DUMP_JSON
 *
 * Every chunk is listed, one smaller than a granule too (with no runs), so
 * the totals' size is gen_pool_size()'s.
 *
 * Return: 0, -EINVAL, -EDEADLK or -EIO (see genalloc.h).
 */
int modern_gen_pool_dump(struct gen_pool *pool, FILE *f, int format)
{
	struct genalloc_dump d;

	if (!genalloc_dump_begin(&d, pool, f, format, "modern",
				 pool ? 1UL << pool->min_alloc_order : 0, pool && pool->records,
				 false))
		return -EINVAL;
	return genalloc_dump_end(&d, modern_walk(pool, GEN_POOL_RUNS_ALL, dump_chunk, dump_run,
						 &d, "gen_pool_dump"));
}
