// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * bench/engine_noop.c - the harness: an engine that allocates nothing.
 *
 * genalloc-speed times it exactly as it times a real engine (same fill,
 * same victim picks and size draws, the same calls through the engine
 * table), so its ns per pair is what the bench loop itself costs and every
 * other figure includes.  Its "allocation" is one constant fake address,
 * which the loop treats as a live block to free later; nothing is written,
 * so threads never share a cache line through it.  Sizes count as granted
 * at an 8-byte granule, like ff8, so a fill to a given occupancy yields
 * about as many live blocks as ff8's.
 */
#include <stdlib.h>

#include "engine.h"

static struct bench_pool *noop_create(const struct bench_engine *e,
				      const struct bench_pool_config *cfg)
{
	struct bench_pool *p = calloc(1, sizeof(*p));

	if (!p)
		return NULL;
	p->engine = e;
	p->cfg = *cfg;
	/* Fake addresses: only the base is used, as the one address handed out. */
	if (bench_chunks_init(&p->chunks, BENCH_CHUNK_PAGE, cfg->capacity, 1)) {
		free(p);
		return NULL;
	}
	p->chunks.obtained = cfg->capacity;
	return p;
}

static unsigned long noop_alloc(struct bench_pool *p, size_t size)
{
	(void)size;
	return p->chunks.base;
}

static void noop_free(struct bench_pool *p, unsigned long addr, size_t size)
{
	(void)p;
	(void)addr;
	(void)size;
}

static size_t noop_granted(const struct bench_pool *p, size_t size)
{
	(void)p;
	return (size + 7) & ~(size_t)7;
}

static void noop_stats(struct bench_pool *p, struct bench_stats *st)
{
	st->obtained = p->chunks.obtained;
	st->free_bytes = p->chunks.obtained;
	st->largest_free = p->chunks.obtained;
	st->metadata = 0;
}

static void noop_destroy(struct bench_pool *p)
{
	bench_chunks_release(&p->chunks);
	free(p);
}

const struct bench_engine bench_engine_noop = {
	"harness", "harness", "no-op engine: the bench loop's own cost",
	noop_create, noop_alloc, noop_free, noop_granted, noop_stats, noop_destroy,
	NULL, 0, 3, NULL, NULL,
};
