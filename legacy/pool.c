// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * legacy/pool.c - a buddy pool's life: creation with its 2005 limits and
 * prefill, and destruction of the bookkeeping (the 2005 code had none).
 */
#include <stdlib.h>

#include "compat_internal.h"
#include "internal.h"

static void free_bookkeeping(struct gen_pool *pool)
{
	legacy_frames_destroy(pool->frames);
	free(pool->h);
	free(pool);
}

/* Obtain up to @nr_chunks chunks now, stopping at the first 0 or bad one,
 * or when there is no memory to record one more (then the callback is not
 * asked: the chunk would be lost). */
static void prefill(struct gen_pool *pool, int nr_chunks)
{
	for (int n = 0; n < nr_chunks; n++) {
		struct legacy_verdict v = { 0 };
		unsigned long chunk;

		/* Not shared yet: only a callback of this thread could hold it,
		 * and legacy_grow() runs callbacks with the lock dropped. */
		(void)legacy_lock(pool);
		legacy_grow(pool, &v, &chunk);
		legacy_unlock(pool);
		if (!chunk)
			break;
		if (v.what) {
			legacy_report(&v, "alloc_gen_pool", legacy_report_pool(pool), chunk,
				      legacy_chunk_size(pool));
			break;
		}
	}
}

static struct gen_pool *create(int nr_chunks, int max_chunk_shift,
			       unsigned long (*get_new_chunk)(struct gen_pool *),
			       unsigned long data, const void *report_pool)
{
	struct gen_pool *pool;

	max_chunk_shift = legacy_create_ok(nr_chunks, max_chunk_shift, get_new_chunk != NULL);
	if (max_chunk_shift < 0)
		return NULL;

	pool = calloc(1, sizeof(*pool));
	if (!pool)
		return NULL;
	pool->max_chunk_shift = max_chunk_shift;
	pool->nr_orders = max_chunk_shift - ALLOC_MIN_SHIFT + 1;
	pool->h = calloc(pool->nr_orders, sizeof(*pool->h));
	pool->frames = legacy_frames_create(max_chunk_shift);
	if (!pool->h || !pool->frames) {
		free_bookkeeping(pool);
		return NULL;
	}
	pool->metadata_bytes += sizeof(*pool) + pool->nr_orders * sizeof(*pool->h);
	pthread_mutex_init(&pool->lock, NULL);
	atomic_init(&pool->lock_word, 0);
	pool->get_new_chunk = get_new_chunk;
	pool->private = data;
	pool->report_pool = report_pool;

	prefill(pool, nr_chunks);
	return pool;
}

struct gen_pool *legacy_alloc_gen_pool(int nr_chunks, int max_chunk_shift,
		unsigned long (*get_new_chunk)(struct gen_pool *), unsigned long data)
{
	return create(nr_chunks, max_chunk_shift, get_new_chunk, data, NULL);
}

struct gen_pool *legacy_create_for(int nr_chunks, int max_chunk_shift,
				   unsigned long (*get_new_chunk)(struct gen_pool *),
				   unsigned long data, const void *report_pool)
{
	return create(nr_chunks, max_chunk_shift, get_new_chunk, data, report_pool);
}

void legacy_gen_pool_destroy(struct gen_pool *pool)
{
	struct legacy_live found;
	unsigned long live;

	if (!pool)
		return;
	if (!legacy_lock(pool)) {
		legacy_refuse_reentry(pool, "gen_pool_destroy", 0, 0);
		return;
	}
	live = pool->obtained_bytes + pool->donated_bytes - pool->free_bytes;
	if (live)
		legacy_find_live(pool, &found);
	legacy_unlock(pool);
	if (live) {
		legacy_report_busy(legacy_report_pool(pool), live, &found);
		return;
	}
	pthread_mutex_destroy(&pool->lock);
	free_bookkeeping(pool);
}
