// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * bench/speed_workloads.c - the requests genalloc-speed makes of an engine,
 * section by section: the fill of the pair timings and its request sizes,
 * the engines and pool of MANY CHUNKS, the adds of ADD CHUNKS, the
 * (size, offset) attempts of FIXED OFFSETS and the merging frees of BUDDY
 * FREE WITH LONG FREE LISTS.
 *
 * Each stream is fixed by the settings (sizes and offsets are seeded draws,
 * workload.h), so that two engines, or two runs, face the same requests.
 * The fill and the fixed-offset attempts are timed by their callers; the
 * adds and the merging frees are their own loops and time themselves.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "options.h"
#include "replay.h"
#include "speed.h"
#include "workload.h"
#include "modern/genalloc.h"

/* Allocate until @target bytes are granted; the blocks go to @set. */
void speed_fill(struct bench_pool *p, struct speed_block **set, size_t *nr, size_t *cap,
		 size_t *granted, size_t target, size_t lo, size_t hi, uint64_t *rng)
{
	const struct bench_engine *e = p->engine;

	while (*granted < target) {
		struct speed_block b;

		b.size = bench_draw_log_uniform(rng, lo, hi);
		b.addr = e->alloc(p, b.size);
		if (!b.addr)
			break;
		if (*nr == *cap) {
			*cap = *cap ? 2 * *cap : 4096;
			*set = realloc(*set, *cap * sizeof(**set));
			if (!*set)
				abort();
		}
		(*set)[(*nr)++] = b;
		*granted += e->granted(p, b.size);
	}
}

/* Request sizes: fixed by --sizes, else log-uniform in [pool/2^17, pool/2^11]. */
size_t speed_request_lo(const struct speed_settings *s, size_t pool)
{
	if (s->size_lo)
		return s->size_lo;
	return pool >> 17 > 8 ? pool >> 17 : 8;
}

size_t speed_request_hi(const struct speed_settings *s, size_t pool)
{
	size_t lo = speed_request_lo(s, pool);

	if (s->size_hi)
		return s->size_hi;
	/* Pools under 16K would draw from an empty range. */
	return pool >> 11 > lo ? pool >> 11 : lo;
}

/*
 * The buddy's free on long lists: every other 32-byte block is free, so
 * the order-0 list holds pool/64 entries and each free of a remaining
 * block finds its buddy on it.
 */
double speed_linear_point(const struct bench_engine *e, size_t pool, int slow,
			   double budget, size_t *done)
{
	struct bench_pool_config cfg = {
		.regime = BENCH_FIXED,
		.chunk_size = pool < SPEED_MAX_CHUNK ? bench_floor_pow2(pool) : SPEED_MAX_CHUNK,
		.capacity = pool,
	};
	struct bench_pool *p = e->create(e, &cfg);
	size_t n = pool / 32, i, k = 0;
	unsigned long *a = malloc(n * sizeof(*a));
	uint64_t rng = 7;
	double t0, spent = 0;

	if (!p || !a)
		abort();
	for (i = 0; i < n; i++)
		a[i] = e->alloc(p, 32);
	for (i = 0; i < n; i += 2)
		e->free(p, a[i], 32);
	e->set_slow(p, slow);
	/* Free odd blocks in random order until the budget is spent. */
	while (spent < budget && k < n / 2) {
		size_t j = 2 * (bench_rng_next(&rng) % (n / 2)) + 1;

		if (!a[j])
			continue;
		t0 = bench_now();
		e->free(p, a[j], 32);
		spent += bench_now() - t0;
		a[j] = 0;
		k++;
	}
	e->set_slow(p, 0);
	for (i = 1; i < n; i += 2)
		if (a[i])
			e->free(p, a[i], 32);
	free(a);
	e->destroy(p);
	*done = k;
	return spent * 1e9 / (double)k;
}

/*
 * ADD CHUNKS: @s->add_chunks chunks of 64 bytes, a gap between each, added
 * to a pool of 8-byte granules from the highest address down (as mmap()
 * hands out growth chunks), so that every add lands first in address order.
 * The addresses are never touched: the pool keeps its books elsewhere.
 */
int speed_add_chunks(const struct speed_settings *s, double *secs)
{
	struct gen_pool *pool = gen_pool_create(3, -1);
	const unsigned long base = 1UL << 32;
	double t0;
	size_t i;

	if (!pool)
		return 1;
	t0 = bench_now();
	for (i = 0; i < s->add_chunks; i++)
		if (gen_pool_add(pool, base + (s->add_chunks - i) * 128, 64, -1)) {
			gen_pool_destroy(pool);
			return 1;
		}
	*secs = bench_now() - t0;
	gen_pool_destroy(pool);
	return 0;
}

/*
 * MANY CHUNKS: the same 64M pool as one range and as @s->many_chunks equal
 * chunks, each indexed algorithm against its linear twin.  Each column is
 * a run of the main loop with --chunks set, so its rerun line reproduces it.
 */
static const char *const many_engines[] = { "ff8", "kff8", "bf8", "kbf8", "ffo8", "kffo8",
					     "ffa8", "kffa8" };
#define NR_MANY (sizeof(many_engines) / sizeof(many_engines[0]))

/* @m: @s narrowed to the section's point, its engines and @chunks. */
void speed_many_settings(const struct speed_settings *s, struct speed_settings *m, size_t chunks)
{
	size_t i;

	*m = *s;
	m->pools[0] = SPEED_MANY_POOL;
	m->nr_pools = 1;
	m->occ[0] = SPEED_MANY_OCC;
	m->nr_occ = 1;
	m->threads[0] = 1;
	m->nr_threads = 1;
	for (i = 0; i < NR_MANY; i++)
		m->e[i] = speed_engine_find(many_engines[i]);
	m->ne = NR_MANY;
	m->engines_set = 1;
	m->chunks = chunks;
	m->pairs = s->pairs;
	m->csv = NULL;
}

/*
 * One run: up to @n attempts drawn from @seed, each a log-uniform size at a
 * uniform granule offset; @ok[i] records whether attempt i got its block,
 * which is freed at once so that the pool stays as it was.  Returns the
 * attempts made (the budget may stop the run first), their time in @secs.
 */
size_t speed_fixed_run(struct bench_pool *p, size_t n, double budget, uint64_t seed,
			unsigned char *ok, double *secs)
{
	struct gen_pool *gp = p->impl;
	int order = gp->min_alloc_order;
	size_t granules = SPEED_FIXED_POOL >> order, i;
	uint64_t rng = seed;
	double t0 = bench_now();

	for (i = 0; i < n; i++) {
		struct genpool_data_fixed data;
		unsigned long addr;
		size_t size;

		/* The kernel's failures scan on from the offset: cap the time. */
		if (!(i & 15) && i && bench_now() - t0 > budget)
			break;
		size = bench_draw_log_uniform(&rng, SPEED_FIXED_LO, SPEED_FIXED_HI);
		data.offset = (unsigned long)bench_rng_below(&rng, granules) << order;
		addr = gen_pool_alloc_algo(gp, size, gen_pool_fixed_alloc, &data);
		ok[i] = addr != 0;
		if (!addr)
			continue;
		if (addr != p->chunks.base + data.offset) {
			fprintf(stderr, "genalloc-speed: FIXED OFFSETS: %s: offset %lu answered "
				"at offset %lu\n", p->engine->name, data.offset,
				addr - p->chunks.base);
			abort();
		}
		gen_pool_free(gp, addr, size);
	}
	*secs = bench_now() - t0;
	return i;
}
