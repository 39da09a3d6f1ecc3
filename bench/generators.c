// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * bench/generators.c - the seeded synthetic workloads.
 *
 * Size distributions (fixed, uniform, log-uniform, bimodal) run as a random
 * walk around a target of live bytes; the phase patterns (ramp, peak,
 * plateau) follow Wilson, Johnstone et al., "Dynamic Storage Allocation: A
 * Survey and Critical Review" (1995); mspec replays what the 2005 mspec
 * driver asked of genalloc: single uncached pages, faulted in one at a time
 * and released a whole mapping at once.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "workload.h"

/* The live blocks of a generator: ids are dense and recycled. */
struct live_set {
	uint32_t *ids;		/* live ids, unordered */
	uint32_t *pos;		/* by id: index in ids[] */
	uint32_t *size;		/* by id */
	uint32_t *tag;		/* by id: generator-specific */
	uint32_t *spare;	/* freed ids to recycle */
	size_t nr, nr_spare, cap;
	uint32_t next_id;
	size_t bytes;
};

static void *xrealloc(void *p, size_t n)
{
	p = realloc(p, n);
	if (!p)
		abort();
	return p;
}

static void live_grow(struct live_set *s)
{
	size_t cap = s->cap ? 2 * s->cap : 1024;

	s->ids = xrealloc(s->ids, cap * sizeof(*s->ids));
	s->pos = xrealloc(s->pos, cap * sizeof(*s->pos));
	s->size = xrealloc(s->size, cap * sizeof(*s->size));
	s->tag = xrealloc(s->tag, cap * sizeof(*s->tag));
	s->spare = xrealloc(s->spare, cap * sizeof(*s->spare));
	s->cap = cap;
}

static uint32_t live_alloc(struct live_set *s, struct bench_workload *w,
			   uint32_t size, uint32_t tag)
{
	uint32_t id;

	if (s->nr_spare) {
		id = s->spare[--s->nr_spare];
	} else {
		if (s->next_id == s->cap)
			live_grow(s);
		id = s->next_id++;
	}
	s->pos[id] = (uint32_t)s->nr;
	s->ids[s->nr++] = id;
	s->size[id] = size;
	s->tag[id] = tag;
	s->bytes += size;
	bench_workload_push(w, BENCH_ALLOC, id, size);
	return id;
}

static void live_free(struct live_set *s, struct bench_workload *w, uint32_t id)
{
	uint32_t last = s->ids[--s->nr];

	s->ids[s->pos[id]] = last;
	s->pos[last] = s->pos[id];
	s->spare[s->nr_spare++] = id;
	s->bytes -= s->size[id];
	bench_workload_push(w, BENCH_FREE, id, s->size[id]);
}

static void live_finish(struct live_set *s, struct bench_workload *w)
{
	w->nr_ids = s->next_id;
	free(s->ids);
	free(s->pos);
	free(s->size);
	free(s->tag);
	free(s->spare);
	memset(s, 0, sizeof(*s));
}

uint64_t bench_rng_next(uint64_t *state)
{
	uint64_t x = *state;

	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	*state = x;
	return x * 0x2545F4914F6CDD1DULL;
}

static uint64_t rng_below(uint64_t *st, uint64_t n)
{
	return n ? bench_rng_next(st) % n : 0;
}

/* A uniform double in [0, 1). */
static double rng_unit(uint64_t *st)
{
	return (double)(bench_rng_next(st) >> 11) / 9007199254740992.0;
}

static uint32_t clamp_size(uint64_t size, const struct bench_gen_params *p)
{
	if (size < 1)
		size = 1;
	if (size > p->max_size)
		size = p->max_size;
	return (uint32_t)size;
}

static uint32_t uniform_size(uint64_t *st, uint32_t lo, uint32_t hi)
{
	return lo + (uint32_t)rng_below(st, (uint64_t)hi - lo + 1);
}

static uint32_t log_uniform_size(uint64_t *st, uint32_t lo, uint32_t hi)
{
	double l = log((double)lo), h = log((double)hi);

	return (uint32_t)exp(l + (h - l) * rng_unit(st));
}

enum size_law { LAW_FIXED, LAW_UNIFORM, LAW_LOG, LAW_BIMODAL };

static uint32_t draw_size(uint64_t *st, enum size_law law,
			  const struct bench_gen_params *p)
{
	switch (law) {
	case LAW_FIXED:
		return clamp_size(100, p);
	case LAW_UNIFORM:
		return clamp_size(uniform_size(st, 16, 4096), p);
	case LAW_LOG:
		return clamp_size(log_uniform_size(st, 8, 32768), p);
	case LAW_BIMODAL:
	default:
		if (rng_below(st, 10))
			return clamp_size(uniform_size(st, 16, 128), p);
		return clamp_size(uniform_size(st, 8192, 32768), p);
	}
}

static void free_random(struct live_set *s, struct bench_workload *w, uint64_t *st)
{
	live_free(s, w, s->ids[rng_below(st, s->nr)]);
}

/*
 * A random walk: build up to the target, then allocate or free with equal
 * odds, pulled back when the live bytes stray more than 10% from it.
 */
static void steady(struct bench_workload *w, const struct bench_gen_params *p,
		   enum size_law law)
{
	struct live_set s = { 0 };
	uint64_t st = p->seed ? p->seed : 1;

	while (w->nr < p->ops) {
		int grow;

		if (s.bytes < p->target_live * 9 / 10 || !s.nr)
			grow = 1;
		else if (s.bytes > p->target_live * 11 / 10)
			grow = 0;
		else
			grow = (int)rng_below(&st, 2);
		if (grow)
			live_alloc(&s, w, draw_size(&st, law, p), 0);
		else
			free_random(&s, w, &st);
	}
	live_finish(&s, w);
}

static void gen_fixed(struct bench_workload *w, const struct bench_gen_params *p)
{
	steady(w, p, LAW_FIXED);
}

static void gen_uniform(struct bench_workload *w, const struct bench_gen_params *p)
{
	steady(w, p, LAW_UNIFORM);
}

static void gen_loguniform(struct bench_workload *w, const struct bench_gen_params *p)
{
	steady(w, p, LAW_LOG);
}

static void gen_bimodal(struct bench_workload *w, const struct bench_gen_params *p)
{
	steady(w, p, LAW_BIMODAL);
}

/* Ramp: data accumulates steadily (three allocations to one free). */
static void gen_ramp(struct bench_workload *w, const struct bench_gen_params *p)
{
	struct live_set s = { 0 };
	uint64_t st = p->seed ? p->seed : 1;

	while (w->nr < p->ops && s.bytes < 2 * p->target_live) {
		if (s.nr && !rng_below(&st, 4))
			free_random(&s, w, &st);
		else
			live_alloc(&s, w, clamp_size(log_uniform_size(&st, 16, 4096), p), 0);
	}
	live_finish(&s, w);
}

/*
 * Peaks: bursts up to twice the target, after which all but a tenth of the
 * burst dies; the survivors live through the next burst and are what
 * fragments the heap.
 */
static void gen_peak(struct bench_workload *w, const struct bench_gen_params *p)
{
	struct live_set s = { 0 };
	uint64_t st = p->seed ? p->seed : 1;
	uint32_t phase = 1;

	while (w->nr < p->ops) {
		size_t i;

		while (s.bytes < 2 * p->target_live)
			live_alloc(&s, w, clamp_size(log_uniform_size(&st, 16, 8192), p), phase);
		/* Walk backwards so swap-removal never skips an entry. */
		for (i = s.nr; i-- > 0;) {
			uint32_t id = s.ids[i];

			if (s.tag[id] + 1 == phase ||
			    (s.tag[id] == phase && rng_below(&st, 10)))
				live_free(&s, w, id);
		}
		phase++;
	}
	live_finish(&s, w);
}

/*
 * Plateau: the data is built quickly and then mostly held; four fifths of
 * the blocks live to the end while the rest churns.
 */
static void gen_plateau(struct bench_workload *w, const struct bench_gen_params *p)
{
	struct live_set s = { 0 };
	uint64_t st = p->seed ? p->seed : 1;
	size_t short_lived = 0, short_target;
	size_t i;

	while (s.bytes < p->target_live)
		live_alloc(&s, w, clamp_size(log_uniform_size(&st, 16, 4096), p),
			   rng_below(&st, 5) == 0);
	for (i = 0; i < s.nr; i++)
		short_lived += s.tag[s.ids[i]];
	short_target = short_lived;
	while (w->nr < p->ops && short_target) {
		uint32_t id;

		if (short_lived <= short_target || rng_below(&st, 2)) {
			live_alloc(&s, w, clamp_size(log_uniform_size(&st, 16, 4096), p), 1);
			short_lived++;
			continue;
		}
		do
			id = s.ids[rng_below(&st, s.nr)];
		while (!s.tag[id]);
		live_free(&s, w, id);
		short_lived--;
	}
	live_finish(&s, w);
}

/*
 * mspec: each mapping of the uncached device faults in its pages one at a
 * time, each a page-sized gen_pool_alloc; unmapping frees them all.
 */
#define MSPEC_PAGE 16384u	/* ia64's default page, what mspec served */
#define MSPEC_MAX_PAGES 32
#define MSPEC_MAX_VMAS 4096

struct vma {
	uint32_t want, have;
	uint32_t ids[MSPEC_MAX_PAGES];
};

static void gen_mspec(struct bench_workload *w, const struct bench_gen_params *p)
{
	struct live_set s = { 0 };
	uint64_t st = p->seed ? p->seed : 1;
	uint32_t page = clamp_size(MSPEC_PAGE, p);
	struct vma *v = calloc(MSPEC_MAX_VMAS, sizeof(*v));
	size_t nr_vmas = 0;

	if (!v)
		abort();
	while (w->nr < p->ops) {
		size_t k;

		if ((s.bytes < p->target_live || nr_vmas < 2) && nr_vmas < MSPEC_MAX_VMAS) {
			v[nr_vmas].want = 1 + (uint32_t)rng_below(&st, MSPEC_MAX_PAGES);
			v[nr_vmas++].have = 0;
		}
		/* Fault a page into some mapping that still wants one. */
		k = rng_below(&st, nr_vmas);
		if (v[k].have < v[k].want) {
			v[k].ids[v[k].have] = live_alloc(&s, w, page, 0);
			v[k].have++;
			continue;
		}
		if (s.bytes < p->target_live)
			continue;
		while (v[k].have)
			live_free(&s, w, v[k].ids[--v[k].have]);
		v[k] = v[--nr_vmas];
	}
	free(v);
	live_finish(&s, w);
}

static const struct bench_generator generators[] = {
	{ "fixed", "every request 100 bytes, random walk around the target", gen_fixed },
	{ "uniform", "sizes uniform in [16, 4096]", gen_uniform },
	{ "loguniform", "sizes log-uniform in [8, 32768]", gen_loguniform },
	{ "bimodal", "90% in [16, 128], 10% in [8192, 32768]", gen_bimodal },
	{ "ramp", "steady accumulation to twice the target (Wilson's ramp)", gen_ramp },
	{ "peak", "bursts to twice the target, 10% survive a phase (Wilson's peaks)", gen_peak },
	{ "plateau", "built fast, 80% held to the end, 20% churn (Wilson's plateau)", gen_plateau },
	{ "mspec", "16 KiB pages faulted per mapping, freed per mapping (2005 mspec)", gen_mspec },
};

const struct bench_generator *bench_generators(size_t *n)
{
	*n = sizeof(generators) / sizeof(generators[0]);
	return generators;
}

const struct bench_generator *bench_generator_find(const char *name)
{
	size_t i, n;
	const struct bench_generator *g = bench_generators(&n);

	for (i = 0; i < n; i++)
		if (!strcmp(g[i].name, name))
			return &g[i];
	return NULL;
}

void bench_workload_generate(struct bench_workload *w,
			     const struct bench_generator *g,
			     const struct bench_gen_params *p)
{
	memset(w, 0, sizeof(*w));
	snprintf(w->name, sizeof(w->name), "%s", g->name);
	snprintf(w->descr, sizeof(w->descr), "%s (seed %llu)", g->descr,
		 (unsigned long long)p->seed);
	g->make(w, p);
}
