/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * modern/import_internal.h - a pool's imports and releases
 * (gen_pool_set_import(); modern/import.c states the design): what the
 * pool's allocation and free paths, its chunks and its queries call
 * (not installed).  Every call here is made only when pool->import is
 * set, so that a pool without imports pays one test of that pointer, on
 * paths that already failed or emptied a chunk.
 */
#ifndef GENALLOC_MODERN_IMPORT_INTERNAL_H
#define GENALLOC_MODERN_IMPORT_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>

#include "genalloc.h"

/**
 * modern_import_set() - gen_pool_set_import() reported as @func
 *
 * Return: 0, -EINVAL, -ENOMEM or -EDEADLK (see genalloc.h).
 */
int modern_import_set(struct gen_pool *pool, genpool_import_t import, genpool_release_t release,
		      size_t quantum, void *data, const char *func);

/* @a + @b, or 0 past the largest size: how much a request asks an import
 * for, its slack added, where 0 means "more than can be asked". */
static inline size_t modern_import_add_sat(size_t a, size_t b)
{
	return a + b < a ? 0 : a + b;
}

/* A span the import handed over, for the request that asked. */
struct modern_import_grant {
	unsigned long addr;
	size_t len;
};

/**
 * modern_import_get() - a request found no room: ask the import for a span
 * @pool:  the pool (pool->import set), its lock not held
 * @size:  bytes of the request (already rounded and accepted)
 * @slack: bytes it may need beyond @size (an alignment, an offset)
 * @g:     receives the span
 *
 * The span is at least @size + @slack rounded up to the quantum.  On
 * success the callbacks' lock stays held, and this thread marked as
 * retrying, until modern_import_done(): the caller adds the span as the
 * newest chunk and tries the request once more, and an import asked for by
 * that try's own failure is refused.
 *
 * Return: true with *@g set; false with nothing held (no import, this
 * thread's own retry, or the import had no memory).
 */
bool modern_import_get(struct gen_pool *pool, size_t size, size_t slack,
		       struct modern_import_grant *g);

/**
 * modern_import_done() - the try after modern_import_get() is over
 * @pool:  the pool
 * @g:     the span
 * @added: whether it became a chunk of @pool
 *
 * A span not added goes back to the release callback.  An added one is
 * recorded as imported, and goes back at once if the try left it wholly
 * free.  The callbacks' lock is dropped.
 *
 * Return: true if the span stays in the pool, in use: a try that failed
 * then lost it to other requests, and another import may serve it.
 */
bool modern_import_done(struct gen_pool *pool, const struct modern_import_grant *g, bool added);

/**
 * modern_import_chunk_emptied() - a free left the chunk at @start wholly
 * free (the pool's lock dropped since): if it is imported and still free,
 * take it out of the pool and give its span to the release callback
 */
void modern_import_chunk_emptied(struct gen_pool *pool, unsigned long start);

/**
 * modern_import_walk() - a lock-free walk of the chunk list begins (+1)
 * or ends (-1): a removed chunk's memory waits for the walks
 */
void modern_import_walk(struct gen_pool *pool, int delta);

/** modern_walk_begin() - modern_import_walk(+1) on an importing pool */
static inline void modern_walk_begin(struct gen_pool *pool)
{
	if (pool->import)
		modern_import_walk(pool, 1);
}

/** modern_walk_end() - modern_import_walk(-1) on an importing pool */
static inline void modern_walk_end(struct gen_pool *pool)
{
	if (pool->import)
		modern_import_walk(pool, -1);
}

/**
 * modern_import_destroy_begin() - gen_pool_destroy()'s first step:
 * release every imported chunk that is wholly free
 */
void modern_import_destroy_begin(struct gen_pool *pool);

/** modern_import_destroy_end() - free the import's bookkeeping, the
 * pool being freed (every imported chunk is gone) */
void modern_import_destroy_end(struct gen_pool *pool);

#endif /* GENALLOC_MODERN_IMPORT_INTERNAL_H */
