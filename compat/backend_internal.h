/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * compat/backend_internal.h - what the dispatch and the backends say to each
 * other.
 *
 * Each backend file includes exactly one engine header (legacy/ or modern/),
 * whose struct gen_pool collides with compat's, so this interface speaks only
 * opaque pointers: "cpool" is the compat pool, "engine" the backend's state.
 */
#ifndef GENALLOC_COMPAT_BACKEND_INTERNAL_H
#define GENALLOC_COMPAT_BACKEND_INTERNAL_H

#include <pthread.h>

#include "stats.h"

/* A region visitor as the backends call it; dispatch adds the pool type. */
typedef void (*compat_region_fn)(void *cpool, unsigned long addr, unsigned long size,
				 int from_callback, void *data);

/**
 * struct compat_backend_ops - one engine behind the 2005 API
 * @name:    "buddy" or "bitmap", as GENALLOC_BACKEND spells it
 * @create:  make the engine for @cpool; @shift is already validated and
 *           resolved (never 0), @lock is the compat pool's lock.  Obtains
 *           @nr_chunks chunks through compat_call_get_new_chunk().  NULL if
 *           out of memory.
 * @destroy: 0 and the engine is gone, or -1 (live blocks: reported BUG
 *           EBUSY, engine unchanged)
 * @alloc:   @size is >= 0 and <= the chunk size
 * @free:    @size is >= 0 and <= the chunk size, @addr is not 0
 * @check:   0 if consistent, else -1 (reported BUG ECORRUPT)
 * @stats:   fill @st
 * @for_each_region: call @fn(cpool, ...) once per region
 * @for_each_block: call @fn(cpool, ...) once per block or free run, in
 *           address order; @caller is the public call, which a refusal
 *           names (-EDEADLK, reported WARN EREENTRY)
 */
/* A block visitor as the backends call it (compat_gen_pool_for_each_block()). */
typedef int (*compat_block_fn)(void *cpool, unsigned long chunk, unsigned long chunk_size,
			       unsigned long addr, unsigned long size, int used, void *data);

struct compat_backend_ops {
	const char *name;
	void *(*create)(void *cpool, pthread_mutex_t *lock, int nr_chunks, int shift,
			int has_callback);
	int (*destroy)(void *engine);
	unsigned long (*alloc)(void *engine, int size);
	void (*free)(void *engine, unsigned long addr, int size);
	int (*check)(void *engine);
	void (*stats)(void *engine, struct compat_gen_pool_stats *st);
	void (*for_each_region)(void *engine, compat_region_fn fn, void *data);
	int (*for_each_block)(void *engine, compat_block_fn fn, void *data, const char *caller);
};

extern const struct compat_backend_ops compat_buddy_ops;
extern const struct compat_backend_ops compat_bitmap_ops;

/**
 * compat_call_get_new_chunk() - run the user's callback on the compat pool
 * @cpool:  the compat pool
 * @engine: the backend's state, made the pool's engine if it has none yet
 *          (during the prefill, so that the callback may donate)
 *
 * Return: what get_new_chunk returned, or 0 if the pool has none.
 */
unsigned long compat_call_get_new_chunk(void *cpool, void *engine);

#endif /* GENALLOC_COMPAT_BACKEND_INTERNAL_H */
