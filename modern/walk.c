// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * modern/walk.c - the walk over a pool's runs: every maximal run of free
 * granules, and every block (with block records) or maximal run of used
 * granules (without), chunk by chunk in address order, under the pool's
 * lock (gen_pool_for_each_run() in genalloc.h).
 *
 * Read-only: it finds each run's end with the bitmap's word-at-a-time
 * search and keeps no state between calls.  The chunks' address order is
 * the directory's (chunkdir.c), which every gen_pool_add*() keeps in both
 * modes.  Cost: O(bitmap words + runs) and no memory.
 */
#include <errno.h>

#include "bitmap_internal.h"
#include "chunkdir_internal.h"
#include "lock_internal.h"
#include "records_internal.h"
#include "reentry_internal.h"
#include "walk_internal.h"

static bool walk_args_ok(struct gen_pool *pool, unsigned int which, gen_pool_run_fn func)
{
	const char *msg = NULL, *fix = NULL;

	if (!pool) {
		msg = "NULL pool";
		fix = "pass the pool gen_pool_create() returned";
	} else if (!func) {
		msg = "NULL function";
		fix = "pass the function to call for each run";
	} else if (!which || (which & ~GEN_POOL_RUNS_ALL)) {
		msg = "no kind of run, or an unknown one";
		fix = "pass GEN_POOL_RUNS_FREE, GEN_POOL_RUNS_USED or both";
	}
	if (msg)
		genalloc_report_error(&(const struct genalloc_error){
			.severity = GENALLOC_WARN, .code = GENALLOC_EINVAL,
			.func = "gen_pool_for_each_run", .pool = pool, .msg = msg, .fix = fix });
	return !msg;
}

/* Bit @g of @chunk, read as the lock-free path writes it. */
static bool granule_used(const struct gen_pool_chunk *chunk, unsigned long g)
{
	unsigned long w = atomic_load_explicit((const _Atomic unsigned long *)
					       &chunk->bits[g / MODERN_BITS_PER_LONG],
					       memory_order_relaxed);

	return (w >> (g % MODERN_BITS_PER_LONG)) & 1;
}

/*
 * The runs of one chunk.  In lock-free mode a bit may change between the
 * read of a run's first granule and the search for its end, leaving a run
 * of length 0: it is read again, not reported.
 */
static int walk_chunk(struct gen_pool *pool, struct gen_pool_chunk *chunk, unsigned int which,
		      gen_pool_run_fn func, void *data)
{
	unsigned long g = 0, end;
	int order = pool->min_alloc_order, rc;

	while (g < chunk->nbits) {
		bool used = granule_used(chunk, g);

		end = used ? modern_find_next_zero_bit(chunk->bits, chunk->nbits, g)
			   : modern_find_next_bit(chunk->bits, chunk->nbits, g);
		/* With records, a used run is told as its blocks. */
		if (used && end > g && pool->records)
			end = modern_records_block_end(chunk, g, end);
		if (end == g)
			continue;
		if (which & (used ? GEN_POOL_RUNS_USED : GEN_POOL_RUNS_FREE)) {
			rc = func(pool, chunk, chunk->start_addr + (g << order),
				  (end - g) << order, used, data);
			if (rc)
				return rc;
		}
		g = end;
	}
	return 0;
}

int modern_walk_unlocked(struct gen_pool *pool, unsigned int which,
			 modern_walk_chunk_fn chunk_fn, gen_pool_run_fn func, void *data)
{
	const struct modern_chunk_dir *dir = pool->dir;
	struct gen_pool_chunk *chunk;
	int rc = 0;

	for (size_t i = 0; i < modern_dir_count(dir) && !rc; i++) {
		chunk = modern_dir_chunk(dir, dir->by_addr[i].slot);
		if (chunk_fn)
			rc = chunk_fn(pool, chunk, data);
		if (!rc)
			rc = walk_chunk(pool, chunk, which, func, data);
	}
	return rc;
}

int modern_walk(struct gen_pool *pool, unsigned int which, modern_walk_chunk_fn chunk_fn,
		gen_pool_run_fn func, void *data, const char *caller)
{
	int rc;

	if (!modern_lock_acquire(&pool->lock)) {
		modern_refuse_reentry(pool, caller, 0, 0);
		return -EDEADLK;
	}
	rc = modern_walk_unlocked(pool, which, chunk_fn, func, data);
	modern_lock_release(&pool->lock);
	return rc;
}

/**
 * gen_pool_for_each_run() - visit the free or the used runs of a pool
 * @pool:  the pool
 * @which: GEN_POOL_RUNS_FREE, GEN_POOL_RUNS_USED or both
 * @func:  the visitor
 * @data:  passed to @func
 *
 * Return: 0, what @func returned to stop the walk, -EINVAL or -EDEADLK
 * (see genalloc.h).
 */
int modern_gen_pool_for_each_run(struct gen_pool *pool, unsigned int which,
				 gen_pool_run_fn func, void *data)
{
	if (!walk_args_ok(pool, which, func))
		return -EINVAL;
	return modern_walk(pool, which, NULL, func, data, "gen_pool_for_each_run");
}

/*
 * gen_pool_held_by_caller() - see genalloc.h.  The lock word holds its
 * holder's token, which only this thread writes as its own.
 */
bool modern_gen_pool_held_by_caller(struct gen_pool *pool)
{
	return pool && (genalloc_lock_mine(&pool->lock.word) ||
			atomic_load_explicit(&pool->lock.lent, memory_order_relaxed) ==
				genalloc_lock_self());
}
