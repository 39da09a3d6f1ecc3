// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * bench/engine_compat.c - the bitmap engine behind the 2005 API.
 *
 * The same calls and the same get_new_chunk memory source as the buddy, so
 * the difference measured is the engine's alone.
 */
#include <stdlib.h>

#include "engine.h"

#include "compat/genalloc.h"

static unsigned long compat_get_chunk(struct gen_pool *gp)
{
	struct bench_pool *p = (struct bench_pool *)gp->private;

	return bench_chunks_get(&p->chunks);
}

static struct bench_pool *compat_create(const struct bench_engine *e,
					const struct bench_pool_config *cfg)
{
	int nr, shift;
	struct bench_pool *p = bench_pool_2005_new(e, cfg, &nr, &shift);

	if (!p)
		return NULL;
	p->impl = compat_gen_pool_create_backend(e->arg, nr, shift,
						 compat_get_chunk, (unsigned long)p);
	if (!p->impl) {
		bench_pool_2005_release(p);
		return NULL;
	}
	return p;
}

static unsigned long compat_alloc(struct bench_pool *p, size_t size)
{
	return gen_pool_alloc(p->impl, (int)size);
}

static void compat_free(struct bench_pool *p, unsigned long addr, size_t size)
{
	gen_pool_free(p->impl, addr, (int)size);
}

static int compat_dump(struct bench_pool *p, FILE *f)
{
	return compat_gen_pool_dump(p->impl, f, GENALLOC_DUMP_JSON);
}

static void compat_stats(struct bench_pool *p, struct bench_stats *st)
{
	struct compat_gen_pool_stats s;

	compat_gen_pool_stats(p->impl, &s);
	st->obtained = p->chunks.obtained;
	st->free_bytes = s.free_bytes;
	st->largest_free = s.largest_free;
	st->metadata = s.metadata_bytes;
}

static void compat_destroy(struct bench_pool *p)
{
	compat_gen_pool_destroy(p->impl);
	bench_pool_2005_release(p);
}

const struct bench_engine bench_engines_compat[] = {
	{ "compat", "compat", "bitmap engine behind the 2005 API (compat/), same get_new_chunk",
	  compat_create, compat_alloc, compat_free, bench_granted_2005, compat_stats,
	  compat_destroy, NULL, COMPAT_BACKEND_BITMAP, 0, NULL, compat_dump },
};
const size_t bench_nr_engines_compat = 1;
