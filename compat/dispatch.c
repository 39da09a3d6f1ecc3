// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * compat/dispatch.c - the 2005 API's entry points: argument checks shared by
 * both backends, the choice of backend, and the hand-over to it.
 *
 * Everything the 2005 contract says independently of the engine is decided
 * here, once: the max_chunk_shift rules, negative sizes, NULL pools, the
 * silent refusal of sizes above the chunk size.  The backends only ever see
 * requests that passed.
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../common/dump_internal.h"
#include "../legacy/contract_internal.h"
#include "genalloc.h"
#include "backend_internal.h"

#define COMPAT_ENV "GENALLOC_BACKEND"

static const struct compat_backend_ops *compat_ops_of(enum compat_backend b)
{
	return b == COMPAT_BACKEND_BITMAP ? &compat_bitmap_ops : &compat_buddy_ops;
}

/*
 * The environment is read at each creation, so a program may switch it
 * between pools; an unknown name is refused rather than defaulted, because
 * a typo must not silently test the wrong engine.
 */
static int compat_resolve_backend(enum compat_backend asked, enum compat_backend *out)
{
	const char *env;

	if (asked == COMPAT_BACKEND_BUDDY || asked == COMPAT_BACKEND_BITMAP) {
		*out = asked;
		return 0;
	}
	if (asked != COMPAT_BACKEND_DEFAULT) {
		genalloc_report_error(&(const struct genalloc_error){
			.severity = GENALLOC_WARN, .code = GENALLOC_EINVAL,
			.func = "alloc_gen_pool", .msg = "unknown compat backend",
			.arg = "backend", .arg_value = (long)asked,
			.fix = "pass COMPAT_BACKEND_DEFAULT, COMPAT_BACKEND_BUDDY or "
			       "COMPAT_BACKEND_BITMAP" });
		return -1;
	}
	env = getenv(COMPAT_ENV);
	if (!env || !*env || !strcmp(env, "buddy")) {
		*out = COMPAT_BACKEND_BUDDY;
		return 0;
	}
	if (!strcmp(env, "bitmap")) {
		*out = COMPAT_BACKEND_BITMAP;
		return 0;
	}
	genalloc_report_error(&(const struct genalloc_error){
		.severity = GENALLOC_WARN, .code = GENALLOC_EINVAL, .func = "alloc_gen_pool",
		.msg = "GENALLOC_BACKEND is neither \"buddy\" nor \"bitmap\"",
		.arg = COMPAT_ENV, .arg_text = env,
		.fix = "set GENALLOC_BACKEND to buddy or bitmap, or unset it (buddy)" });
	return -1;
}

GENALLOC_API struct gen_pool *compat_gen_pool_create_backend(enum compat_backend backend,
		int nr_chunks, int max_chunk_shift,
		unsigned long (*get_new_chunk)(struct gen_pool *), unsigned long data)
{
	enum compat_backend b;
	struct gen_pool *pool;
	int shift;

	if (compat_resolve_backend(backend, &b))
		return NULL;
	shift = legacy_create_ok(nr_chunks, max_chunk_shift, get_new_chunk != NULL);
	if (shift < 0)
		return NULL;
	pool = calloc(1, sizeof(*pool));
	if (!pool)
		return NULL;
	/* The callback may run during create: the pool must look finished. */
	pthread_mutex_init(&pool->lock, NULL);
	pool->get_new_chunk = get_new_chunk;
	pool->private = data;
	pool->max_chunk_shift = shift;
	pool->backend = b;
	pool->ops = compat_ops_of(b);
	pool->engine = pool->ops->create(pool, &pool->lock, nr_chunks, shift,
					 get_new_chunk != NULL);
	if (!pool->engine) {
		pthread_mutex_destroy(&pool->lock);
		free(pool);
		return NULL;
	}
	return pool;
}

GENALLOC_API struct gen_pool *compat_alloc_gen_pool(int nr_chunks, int max_chunk_shift,
		unsigned long (*get_new_chunk)(struct gen_pool *), unsigned long data)
{
	return compat_gen_pool_create_backend(COMPAT_BACKEND_DEFAULT, nr_chunks,
					      max_chunk_shift, get_new_chunk, data);
}

GENALLOC_API void compat_gen_pool_destroy(struct gen_pool *pool)
{
	if (!pool)
		return;
	if (pool->ops->destroy(pool->engine))
		return;
	pthread_mutex_destroy(&pool->lock);
	free(pool);
}

GENALLOC_API enum compat_backend compat_gen_pool_backend(const struct gen_pool *pool)
{
	if (!pool) {
		legacy_refuse_null("gen_pool_backend", NULL, NULL);
		return COMPAT_BACKEND_DEFAULT;
	}
	return pool->backend;
}

/* 2005: above the chunk size is a quiet no, never a callback. */
static int compat_size_fits(const struct gen_pool *pool, int size)
{
	return size <= (1 << pool->max_chunk_shift);
}

/* The argument checks are the 2005 contract's (legacy/contract.c), made
 * here for both backends before the quiet oversize return, as legacy/
 * makes them, so both report the same misuse the same way. */
GENALLOC_API unsigned long compat_gen_pool_alloc(struct gen_pool *pool, int size)
{
	if (!legacy_alloc_args_ok(pool, size) || !compat_size_fits(pool, size))
		return 0;
	return pool->ops->alloc(pool->engine, size);
}

GENALLOC_API void compat_gen_pool_free(struct gen_pool *pool, unsigned long addr, int size)
{
	if (!legacy_free_args_ok(pool, addr, size) || !compat_size_fits(pool, size))
		return;
	pool->ops->free(pool->engine, addr, size);
}

GENALLOC_API int compat_gen_pool_check(struct gen_pool *pool)
{
	if (!pool) {
		legacy_refuse_null("gen_pool_check", NULL, NULL);
		return -1;
	}
	return pool->ops->check(pool->engine);
}

GENALLOC_API void compat_gen_pool_stats(struct gen_pool *pool, struct compat_gen_pool_stats *st)
{
	if (!pool || !st) {
		legacy_refuse_null("gen_pool_stats", pool, "NULL stats");
		return;
	}
	pool->ops->stats(pool->engine, st);
	st->metadata_bytes += sizeof(*pool);
}

/* Carries the user's typed visitor through the backends' untyped one. */
struct compat_region_visit {
	void (*fn)(struct gen_pool *, unsigned long, unsigned long, int, void *);
	void *data;
};

static void compat_region_adapter(void *cpool, unsigned long addr, unsigned long size,
				  int from_callback, void *data)
{
	struct compat_region_visit *v = data;

	v->fn(cpool, addr, size, from_callback, v->data);
}

GENALLOC_API void compat_gen_pool_for_each_region(struct gen_pool *pool,
	void (*fn)(struct gen_pool *pool, unsigned long addr, unsigned long size,
		   int from_callback, void *data),
	void *data)
{
	struct compat_region_visit v = { fn, data };

	if (!pool || !fn) {
		legacy_refuse_null("gen_pool_for_each_region", pool, "NULL function");
		return;
	}
	pool->ops->for_each_region(pool->engine, compat_region_adapter, &v);
}

/* Carries the user's typed block visitor through the backends' untyped one. */
struct compat_block_visit {
	compat_gen_pool_block_fn fn;
	void *data;
};

static int compat_block_adapter(void *cpool, unsigned long chunk, unsigned long chunk_size,
				unsigned long addr, unsigned long size, int used, void *data)
{
	struct compat_block_visit *v = data;

	return v->fn(cpool, chunk, chunk_size, addr, size, used, v->data);
}

GENALLOC_API int compat_gen_pool_for_each_block(struct gen_pool *pool,
						compat_gen_pool_block_fn fn, void *data)
{
	struct compat_block_visit v = { fn, data };

	if (!pool || !fn) {
		legacy_refuse_null("gen_pool_for_each_block", pool, "NULL function");
		return -EINVAL;
	}
	return pool->ops->for_each_block(pool->engine, compat_block_adapter, &v,
					 "gen_pool_for_each_block");
}

static int dump_block(void *cpool, unsigned long chunk, unsigned long chunk_size,
		      unsigned long addr, unsigned long size, int used, void *data)
{
	(void)cpool;
	genalloc_dump_block(data, chunk, chunk_size, addr, size, used);
	return 0;
}

GENALLOC_API int compat_gen_pool_dump(struct gen_pool *pool, FILE *f, int format)
{
	struct genalloc_dump d;
	char engine[32];

	snprintf(engine, sizeof(engine), "compat-%s", pool ? pool->ops->name : "");
	if (!genalloc_dump_begin(&d, pool, f, format, engine, 1UL << ALLOC_MIN_SHIFT, true, true))
		return -EINVAL;
	return genalloc_dump_end(&d, pool->ops->for_each_block(pool->engine, dump_block, &d,
							       "gen_pool_dump"));
}

unsigned long compat_call_get_new_chunk(void *cpool, void *engine)
{
	struct gen_pool *pool = cpool;

	/* The prefill runs inside ops->create, before it returns the engine:
	 * publish it now, so that the callback may free into the pool then,
	 * as 2005 allowed.  Nobody else sees the pool yet. */
	if (!pool->engine)
		pool->engine = engine;
	return pool->get_new_chunk ? pool->get_new_chunk(pool) : 0;
}
