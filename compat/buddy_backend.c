// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * compat/buddy_backend.c - the buddy backend: a compat pool over the 2005
 * engine in legacy/, which already is the 2005 contract.
 *
 * The only work is the callback: legacy calls get_new_chunk with its own
 * pool, but 2005 code expects its callback to see the pool it created (and
 * read ->private from it).  So legacy's ->private holds the compat pool and
 * a trampoline passes that on.
 */
#include <errno.h>

#include "../common/lock_internal.h"
#include "../legacy/compat_internal.h"
#include "../legacy/contract_internal.h"
#include "../legacy/genalloc.h"
#include "backend_internal.h"

static unsigned long buddy_trampoline(struct gen_pool *lpool)
{
	return compat_call_get_new_chunk((void *)lpool->private, lpool);
}

static void *buddy_create(void *cpool, pthread_mutex_t *lock, int nr_chunks, int shift,
			  int has_callback)
{
	(void)lock;	/* legacy has its own lock around its lists */
	return legacy_create_for(nr_chunks, shift, has_callback ? buddy_trampoline : NULL,
				 (unsigned long)cpool, cpool);
}

static int buddy_destroy(void *engine)
{
	struct gen_pool *lpool = engine;
	struct legacy_gen_pool_stats st;

	/*
	 * legacy refuses a busy pool, but says so only to the error hook;
	 * asking first lets compat know whether its own pool may go.
	 */
	legacy_gen_pool_stats(lpool, &st);
	/* Busy: legacy reports it, naming the compat pool, and keeps its pool. */
	legacy_gen_pool_destroy(lpool);
	return st.obtained_bytes + st.donated_bytes != st.free_bytes ? -1 : 0;
}

static unsigned long buddy_alloc(void *engine, int size)
{
	return legacy_gen_pool_alloc(engine, size);
}

static void buddy_free(void *engine, unsigned long addr, int size)
{
	legacy_gen_pool_free(engine, addr, size);
}

static int buddy_check(void *engine)
{
	return legacy_gen_pool_check(engine);
}

static void buddy_stats(void *engine, struct compat_gen_pool_stats *st)
{
	struct legacy_gen_pool_stats ls;

	legacy_gen_pool_stats(engine, &ls);
	st->obtained_bytes = ls.obtained_bytes;
	st->donated_bytes = ls.donated_bytes;
	st->free_bytes = ls.free_bytes;
	st->largest_free = ls.largest_free;
	st->metadata_bytes = ls.metadata_bytes;
}

struct buddy_visit {
	compat_region_fn fn;
	void *data;
};

static void buddy_region(struct gen_pool *lpool, unsigned long addr, unsigned long size,
			 int from_callback, void *data)
{
	struct buddy_visit *v = data;

	v->fn((void *)lpool->private, addr, size, from_callback, v->data);
}

static void buddy_for_each_region(void *engine, compat_region_fn fn, void *data)
{
	struct buddy_visit v = { fn, data };

	legacy_gen_pool_for_each_region(engine, buddy_region, &v);
}

struct buddy_block_visit {
	compat_block_fn fn;
	void *data;
};

static int buddy_block(struct gen_pool *lpool, unsigned long chunk, unsigned long chunk_size,
		       unsigned long addr, unsigned long size, int used, void *data)
{
	struct buddy_block_visit *v = data;

	return v->fn((void *)lpool->private, chunk, chunk_size, addr, size, used, v->data);
}

static int buddy_for_each_block(void *engine, compat_block_fn fn, void *data,
				const char *caller)
{
	struct buddy_block_visit v = { fn, data };
	struct gen_pool *lpool = engine;

	/* legacy's walk would name itself; only this thread can hold the
	 * lock as its own, so the answer cannot change before the walk. */
	if (genalloc_lock_mine(&lpool->lock_word)) {
		legacy_report_misuse(LEGACY_REENTRY, caller, (void *)lpool->private, 0, 0);
		return -EDEADLK;
	}
	return legacy_gen_pool_for_each_block(engine, buddy_block, &v);
}

const struct compat_backend_ops compat_buddy_ops = {
	.name = "buddy",
	.create = buddy_create,
	.destroy = buddy_destroy,
	.alloc = buddy_alloc,
	.free = buddy_free,
	.check = buddy_check,
	.stats = buddy_stats,
	.for_each_region = buddy_for_each_region,
	.for_each_block = buddy_for_each_block,
};
