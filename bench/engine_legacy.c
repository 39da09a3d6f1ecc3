// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * bench/engine_legacy.c - the 2005 power-of-two buddy allocator.
 *
 * The buddy keeps its free lists inside the managed memory, so it always
 * gets real (MAP_NORESERVE) memory, chunk-aligned, through the 2005
 * get_new_chunk callback.  A fixed pool is its chunks obtained up front,
 * with a callback that refuses any more.
 */
#include <stdlib.h>

#include "engine.h"

#include "legacy/genalloc.h"

static unsigned long legacy_get_chunk(struct gen_pool *gp)
{
	struct bench_pool *p = (struct bench_pool *)gp->private;

	return bench_chunks_get(&p->chunks);
}

static struct bench_pool *legacy_create(const struct bench_engine *e,
					const struct bench_pool_config *cfg)
{
	int nr, shift;
	struct bench_pool *p = bench_pool_2005_new(e, cfg, &nr, &shift);

	if (!p)
		return NULL;
	p->impl = alloc_gen_pool(nr, shift, legacy_get_chunk,
				 (unsigned long)p);
	if (!p->impl) {
		bench_pool_2005_release(p);
		return NULL;
	}
	return p;
}

static unsigned long legacy_alloc(struct bench_pool *p, size_t size)
{
	return gen_pool_alloc(p->impl, (int)size);
}

static void legacy_free(struct bench_pool *p, unsigned long addr, size_t size)
{
	gen_pool_free(p->impl, addr, (int)size);
}

static int legacy_dump(struct bench_pool *p, FILE *f)
{
	return legacy_gen_pool_dump(p->impl, f, GENALLOC_DUMP_JSON);
}

static void legacy_stats(struct bench_pool *p, struct bench_stats *st)
{
	struct legacy_gen_pool_stats s;

	legacy_gen_pool_stats(p->impl, &s);
	st->obtained = p->chunks.obtained;
	st->free_bytes = s.free_bytes;
	st->largest_free = s.largest_free;
	st->metadata = s.metadata_bytes;
}

static void legacy_destroy(struct bench_pool *p)
{
	legacy_gen_pool_destroy(p->impl);
	bench_pool_2005_release(p);
}

static void legacy_set_slow(struct bench_pool *p, int on)
{
	legacy_gen_pool_set_linear_search(p->impl, on);
}

const struct bench_engine bench_engines_legacy[] = {
	{ "buddy", "buddy", "2005 power-of-two buddy (legacy/), get_new_chunk growth",
	  legacy_create, legacy_alloc, legacy_free, bench_granted_2005, legacy_stats,
	  legacy_destroy, legacy_set_slow, 0, 0, NULL, legacy_dump },
};
const size_t bench_nr_engines_legacy = 1;
