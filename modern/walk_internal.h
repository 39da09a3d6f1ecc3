/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * modern/walk_internal.h - the run walk behind gen_pool_for_each_run(), for
 * the library's own readers of a pool's layout: the dump, which must see
 * every chunk (one smaller than a granule has no run) and speak as the
 * call its user made, and gen_pool_destroy(), which lists the live blocks
 * it refuses to drop.  Not installed.
 */
#ifndef GENALLOC_MODERN_WALK_INTERNAL_H
#define GENALLOC_MODERN_WALK_INTERNAL_H

#include "genalloc.h"

/** typedef modern_walk_chunk_fn - told of each chunk before its runs; not 0 stops */
typedef int (*modern_walk_chunk_fn)(struct gen_pool *pool, struct gen_pool_chunk *chunk,
				    void *data);

/**
 * modern_walk() - gen_pool_for_each_run() with a visitor of chunks too
 * @pool:     the pool, not NULL
 * @which:    GEN_POOL_RUNS_FREE, GEN_POOL_RUNS_USED or both
 * @chunk_fn: called for every chunk in address order, before its runs, or NULL
 * @func:     called for each run of a kind in @which
 * @data:     passed to both
 * @caller:   the public call's name, for the report if the pool's lock is
 *            already this thread's
 *
 * Takes the pool's lock.  Return: 0, what a visitor returned to stop, or
 * -EDEADLK (reported WARN EREENTRY, nothing visited).
 */
int modern_walk(struct gen_pool *pool, unsigned int which, modern_walk_chunk_fn chunk_fn,
		gen_pool_run_fn func, void *data, const char *caller);

/**
 * modern_walk_unlocked() - modern_walk() for a caller that owns the pool
 * outright (gen_pool_destroy(): no other call may run), without the lock
 */
int modern_walk_unlocked(struct gen_pool *pool, unsigned int which,
			 modern_walk_chunk_fn chunk_fn, gen_pool_run_fn func, void *data);

#endif /* GENALLOC_MODERN_WALK_INTERNAL_H */
