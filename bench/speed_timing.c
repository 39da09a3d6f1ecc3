// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * bench/speed_timing.c - how genalloc-speed times alloc+free pairs: the
 * pools of every engine filled and brought to their steady state, the
 * pairs run on 1..8 threads against a time budget, the runs taken in
 * rounds, and a figure's median, spread and ratios.
 *
 * All the pools of all the engines are built first and timed in rounds,
 * one run of each a round (time_points()), and a ratio between two figures
 * is the median of their rounds' ratios: this machine's spells of other
 * load outlast a run, and then slow one round of everything instead of
 * all the runs of one engine or pool.
 *
 * The timed loop (worker_run()) costs a victim pick from the loop's table,
 * a size draw and the two calls on top of the engine's pair: the harness,
 * the same loop on the no-op engine, is timed beside every engine so that
 * the tables can say how much that is.
 */
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "options.h"
#include "replay.h"
#include "speed.h"
#include "workload.h"

/* One thread's share of the live blocks. */
struct worker {
	struct bench_pool *pool;
	struct speed_block *b;
	size_t nr;
	size_t pairs;
	size_t lo, hi;		/* request sizes */
	uint64_t rng;
	size_t failed;
	size_t done;
	double budget;		/* seconds; the run stops early past it */
	double t0, t1;
	pthread_barrier_t *start;
};

/* Victims drawn ahead of their pair, so that the table's miss is hidden
 * even behind an engine as fast as the no-op one. */
#define AHEAD 8

static void *worker_run(void *arg)
{
	struct worker *w = arg;
	const struct bench_engine *e = w->pool->engine;
	size_t i, k, ahead[AHEAD];

	for (k = 0; k < AHEAD; k++) {
		ahead[k] = bench_rng_below(&w->rng, w->nr);
		__builtin_prefetch(&w->b[ahead[k]], 1);
	}
	pthread_barrier_wait(w->start);
	w->t0 = bench_now();
	for (i = 0; i < w->pairs; i++) {
		/* The victim table is the loop's, not the engine's: its entry for
		 * a pair is fetched AHEAD pairs before, as a caller has its own
		 * record of a block at hand when it frees it.  Otherwise every
		 * engine pays the table's miss on top of its own. */
		struct speed_block *b = &w->b[ahead[i % AHEAD]];

		ahead[i % AHEAD] = bench_rng_below(&w->rng, w->nr);
		__builtin_prefetch(&w->b[ahead[i % AHEAD]], 1);

		/* The kernel-style searches are slow on big pools: cap the time. */
		if (!(i & 15) && i && bench_now() - w->t0 > w->budget)
			break;

		if (b->addr)
			e->free(w->pool, b->addr, b->size);
		b->size = bench_draw_log_uniform(&w->rng, w->lo, w->hi);
		b->addr = e->alloc(w->pool, b->size);
		w->failed += !b->addr;
	}
	w->t1 = bench_now();
	w->done = i;
	return NULL;
}

/* Give back @p's @nr live blocks of @set (a failed pair left address 0),
 * then the set and the pool. */
static void drop_pool(struct bench_pool *p, struct speed_block *set, size_t nr)
{
	size_t i;

	for (i = 0; i < nr; i++)
		if (set[i].addr)
			p->engine->free(p, set[i].addr, set[i].size);
	free(set);
	p->engine->destroy(p);
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* The median of @runs figures (sorting @ns), and their spread. */
void speed_summarize(double *ns, size_t runs, double *median, double *min, double *max)
{
	qsort(ns, runs, sizeof(ns[0]), cmp_double);
	*median = runs % 2 ? ns[runs / 2] : (ns[runs / 2 - 1] + ns[runs / 2]) / 2;
	*min = ns[0];
	*max = ns[runs - 1];
}

/*
 * Run @r of a point: @pairs pairs with @nt threads, their seeds drawn from
 * @seed and @r.  Returns wall ns per pair; the pairs done and the failed
 * allocations are added to @f.
 */
static double time_run(struct bench_pool *p, struct speed_block *set, size_t nr, size_t nt,
		       size_t pairs, double budget, size_t lo, size_t hi, uint64_t seed,
		       size_t r, struct speed_figure *f)
{
	struct worker w[SPEED_MAX_THREADS];
	pthread_t tid[SPEED_MAX_THREADS];
	pthread_barrier_t start;
	double t0 = 1e300, t1 = 0;
	size_t done = 0, t;

	pthread_barrier_init(&start, NULL, (unsigned)nt + 1);
	for (t = 0; t < nt; t++) {
		/* Thread t owns the t-th slice of the live blocks. */
		w[t] = (struct worker){ p, set + nr * t / nt,
					nr * (t + 1) / nt - nr * t / nt,
					pairs / nt, lo, hi,
					seed * 131 + r * 17 + t + 1, 0, 0, budget,
					0, 0, &start };
		pthread_create(&tid[t], NULL, worker_run, &w[t]);
	}
	pthread_barrier_wait(&start);
	/* Wall time from the first thread's start to the last one's end. */
	for (t = 0; t < nt; t++) {
		pthread_join(tid[t], NULL);
		f->failed += w[t].failed;
		done += w[t].done;
		t0 = w[t].t0 < t0 ? w[t].t0 : t0;
		t1 = w[t].t1 > t1 ? w[t].t1 : t1;
	}
	pthread_barrier_destroy(&start);
	f->pairs += done;
	return (t1 - t0) * 1e9 / (double)(done ? done : 1);
}

/* Whether @f was timed in every round of @s. */
bool speed_all_rounds(const struct speed_figure *f, const struct speed_settings *s)
{
	return f->runs == s->runs;
}

/* @f's median and spread over the runs it was given. */
static void figure_summarize(struct speed_figure *f)
{
	double ns[SPEED_MAX_RUNS];

	memcpy(ns, f->run_ns, f->runs * sizeof(ns[0]));
	speed_summarize(ns, f->runs, &f->median, &f->min, &f->max);
}

/*
 * How many times @x's time is @y's: the median, over the rounds, of the
 * ratio of their runs in the same round (time_points()).  0 if either was
 * not timed.
 */
double speed_figure_ratio(const struct speed_figure *x, const struct speed_figure *y)
{
	double q[SPEED_MAX_RUNS], median, min, max;
	size_t r;

	if (!x->runs || x->runs != y->runs)
		return 0.0;
	for (r = 0; r < x->runs; r++)
		q[r] = y->run_ns[r] > 0 ? x->run_ns[r] / y->run_ns[r] : 0.0;
	speed_summarize(q, x->runs, &median, &min, &max);
	return median;
}

struct speed_figure *speed_result(const struct speed_settings *s, size_t pi, size_t oi, size_t ti,
			     size_t ei)
{
	return &s->results[((pi * s->nr_occ + oi) * s->nr_threads + ti) * (s->ne + 1) + ei];
}

/*
 * How many of a chunked pool's chunks hold at least one of the live blocks,
 * and the lowest of them in @lo.
 */
static size_t chunks_used(const struct bench_pool *p, const struct speed_block *set, size_t nr,
			  size_t *lo)
{
	const struct bench_chunk_layout *l = &p->layout;
	unsigned char *seen;
	size_t i, used = 0;

	*lo = 0;
	if (l->nr < 2)
		return 1;
	*lo = l->nr;
	seen = calloc(l->nr, 1);
	if (!seen)
		abort();
	for (i = 0; i < nr; i++) {
		size_t c = (set[i].addr - p->chunks.base) / l->stride;

		if (set[i].addr && c < l->nr && !seen[c]) {
			seen[c] = 1;
			used++;
			*lo = c < *lo ? c : *lo;
		}
	}
	free(seen);
	return used;
}

/*
 * A fill leaves the live blocks packed in allocation order; the pairs then
 * fragment the pool until their frees and allocations balance.  The figures
 * are meant for that steady state, so before the timed runs every engine
 * runs @s->warm untimed pairs per live block (a turnover of the whole live
 * set each), or as many as @budget seconds allow (@s->warm_budget in the
 * main timings): a 1G pool half full of log-uniform 16 B..64 KiB blocks
 * holds 43K of them, which 5 x 20000 timed pairs alone turn over 2.3
 * times, so without it that column timed the pool on its way there.  The
 * linear engines hit the budget first and stay nearer the fill, which
 * flatters them: their searches are shorter in a less fragmented pool.
 * Returns the pairs run.
 */
static size_t warm_up(const struct speed_settings *s, struct bench_pool *p, struct speed_block *set,
		      size_t nr, size_t lo, size_t hi, double budget)
{
	struct speed_figure f = { 0 };

	if (!s->warm || !nr)
		return 0;
	time_run(p, set, nr, 1, s->warm * nr, budget, lo, hi, s->seed + 0x9e37, 0, &f);
	return f.pairs;
}

/* Engine @ei of @s, or the harness's no-op engine at @ei == @s->ne. */
static const struct bench_engine *engine_at(const struct speed_settings *s, size_t ei)
{
	return ei < s->ne ? s->e[ei] : &bench_engine_noop;
}

/* One engine's pool at one pool size, kept from one occupancy to the next. */
struct lane {
	const struct speed_settings *s;	/* whose figures it gives */
	size_t pi, ei;		/* its pool and engine in @s (the harness at @s->ne) */
	struct bench_pool *p;	/* NULL: the engine could not make this pool; else
				 * p->engine is the lane's */
	struct speed_block *set;	/* the live blocks */
	size_t nr, cap, granted, held;
	uint64_t rng;		/* the fill's size draws */
	bool timed;		/* at the point being timed */
};

/* Lane @l's figure at occupancy @oi with thread count @ti. */
static struct speed_figure *lane_figure(const struct lane *l, size_t oi, size_t ti)
{
	return speed_result(l->s, l->pi, oi, ti, l->ei);
}

/* Engine @ei of @s (the harness at @ei == @s->ne) on pool @pi. */
static void lane_open(const struct speed_settings *s, size_t pi, size_t ei, struct lane *l)
{
	size_t pool = s->pools[pi];
	struct bench_pool_config cfg = {
		.regime = BENCH_FIXED,
		.chunk_size = pool < SPEED_MAX_CHUNK ? bench_floor_pow2(pool) : SPEED_MAX_CHUNK,
		.capacity = pool,
		.fake = 1,
		.nr_chunks = s->chunks,
	};
	const struct bench_engine *e = engine_at(s, ei);

	*l = (struct lane){ .s = s, .pi = pi, .ei = ei, .held = pool, .rng = s->seed };
	l->p = e->create(e, &cfg);
	if (!l->p) {
		fprintf(stderr, "genalloc-speed: %s: cannot create a %zu-byte pool\n", e->name,
			pool);
		return;
	}
	if (s->chunks > 1) {
		/* Equal chunks may hold a little less than asked: fill what is there. */
		struct bench_stats st;

		e->stats(l->p, &st);
		l->held = st.obtained;
	}
}

/* Lane @l filled to occupancy @oi and brought to its steady state; what
 * that took goes to the point's figures for every thread count. */
static void lane_fill(struct lane *l, size_t oi)
{
	const struct speed_settings *s = l->s;
	size_t pool = s->pools[l->pi];
	size_t lo = speed_request_lo(s, pool), hi = speed_request_hi(s, pool);
	const struct bench_engine *e = l->p->engine;
	size_t used, lo_chunk, warmed, ti;
	double t0 = bench_now(), spent;

	if (e->measured)
		e->measured(l->p, 0);
	speed_fill(l->p, &l->set, &l->nr, &l->cap, &l->granted, l->held / 100 * s->occ[oi], lo, hi,
	     &l->rng);
	spent = bench_now() - t0;
	if (e->measured)
		e->measured(l->p, 1);
	used = chunks_used(l->p, l->set, l->nr, &lo_chunk);
	warmed = warm_up(s, l->p, l->set, l->nr, lo, hi, s->warm_budget);
	for (ti = 0; ti < s->nr_threads; ti++) {
		struct speed_figure *f = lane_figure(l, oi, ti);

		f->fill = spent;
		f->chunks_used = used;
		f->chunk_lo = lo_chunk;
		f->warm = warmed;
	}
}

/* Whether lane @l can be timed with @nt threads: every thread frees and
 * allocates among its own share of the live blocks, so it needs one. */
static bool lane_timed(const struct lane *l, size_t oi, size_t nt)
{
	const struct speed_settings *s = l->s;
	size_t pool = s->pools[l->pi];

	if (!l->p)
		return false;
	if (l->nr >= nt)
		return true;
	if (!s->quiet)
		fprintf(stderr, "genalloc-speed: %s: %zu live blocks of %zu..%zu bytes in a "
			"%zu-byte pool at %zu%%, too few for %zu threads: not timed\n",
			l->p->engine->name, l->nr, speed_request_lo(s, pool),
			speed_request_hi(s, pool), pool, s->occ[oi], nt);
	return false;
}

/* Lane @l's run @r at occupancy @oi with thread count @ti, after its
 * untimed pairs. */
static void lane_run(struct lane *l, size_t oi, size_t ti, size_t r)
{
	const struct speed_settings *s = l->s;
	size_t pool = s->pools[l->pi];
	size_t lo = speed_request_lo(s, pool), hi = speed_request_hi(s, pool);
	size_t nt = s->threads[ti];
	struct speed_figure *f = lane_figure(l, oi, ti), rewarm = { 0 };

	time_run(l->p, l->set, l->nr, nt, SPEED_REWARM_PAIRS, s->budget, lo, hi,
		 s->seed + ti + 0x5bd1, r, &rewarm);
	f->run_ns[f->runs++] = time_run(l->p, l->set, l->nr, nt, s->pairs, s->budget, lo, hi,
					s->seed + ti, r, f);
}

/*
 * Occupancy @oi with thread count @ti on all @nl lanes.  The runs are
 * taken in rounds, one run of each lane a round, so that a spell of other
 * load on this machine, which outlasts a run, slows every engine and pool
 * of the rounds it falls in rather than all the runs of one: each median,
 * and each ratio of two figures in the same rounds, then stays near the
 * quiet machine's.  The lanes' settings agree on runs, occupancies and
 * threads.
 */
static void time_points(struct lane *lanes, size_t nl, size_t oi, size_t ti)
{
	const struct speed_settings *s = lanes[0].s;
	size_t runs = s->runs < SPEED_MAX_RUNS ? s->runs : SPEED_MAX_RUNS, r, i;

	for (i = 0; i < nl; i++)
		lanes[i].timed = lane_timed(&lanes[i], oi, s->threads[ti]);
	for (r = 0; r < runs; r++)
		for (i = 0; i < nl; i++)
			if (lanes[i].timed)
				lane_run(&lanes[i], oi, ti, r);
	for (i = 0; i < nl; i++)
		if (lanes[i].timed)
			figure_summarize(lane_figure(&lanes[i], oi, ti));
}

/* Every engine (and the harness) on every pool of each of the @nsets
 * settings @sets, which differ at most in their pools, engines and chunks:
 * all the pools are made and filled first, and timed side by side
 * (time_points()). */
int speed_run_pools(const struct speed_settings *const *sets, size_t nsets)
{
	const struct speed_settings *s = sets[0];
	size_t nl = 0, k, i, oi, ti, pi, ei;
	struct lane *lanes;

	for (k = 0; k < nsets; k++)
		nl += sets[k]->nr_pools * (sets[k]->ne + 1);
	lanes = calloc(nl, sizeof(*lanes));
	if (!lanes)
		return -1;
	for (k = 0, i = 0; k < nsets; k++)
		for (pi = 0; pi < sets[k]->nr_pools; pi++)
			for (ei = 0; ei <= sets[k]->ne; ei++)
				lane_open(sets[k], pi, ei, &lanes[i++]);
	for (oi = 0; oi < s->nr_occ; oi++) {
		for (i = 0; i < nl; i++)
			if (lanes[i].p)
				lane_fill(&lanes[i], oi);
		for (ti = 0; ti < s->nr_threads; ti++)
			time_points(lanes, nl, oi, ti);
	}
	for (i = 0; i < nl; i++)
		if (lanes[i].p)
			drop_pool(lanes[i].p, lanes[i].set, lanes[i].nr);
	free(lanes);
	return 0;
}

const char *speed_engine_name(const struct speed_settings *s, size_t ei)
{
	return engine_at(s, ei)->name;
}

/* @name's pool at the section's steady state, still on the index. */
int speed_fixed_steady(const struct speed_settings *s, const char *name,
		       struct speed_fixed_pool *fp)
{
	const struct bench_engine *e = speed_engine_find(name);
	struct bench_pool_config cfg = {
		.regime = BENCH_FIXED,
		.chunk_size = SPEED_MAX_CHUNK,
		.capacity = SPEED_FIXED_POOL,
		.fake = 1,
	};
	size_t cap = 0, granted = 0;
	uint64_t rng = s->seed;

	/* gen_pool_alloc_algo() needs the gen_pool itself, which only the
	 * modern adapter has (as the pool's impl). */
	if (!e || strcmp(e->family, "modern"))
		return -1;
	fp->p = e->create(e, &cfg);
	if (!fp->p)
		return -1;
	e->measured(fp->p, 0);
	speed_fill(fp->p, &fp->set, &fp->nr, &cap, &granted,
		   SPEED_FIXED_POOL / 100 * SPEED_FIXED_OCC, SPEED_FIXED_LO, SPEED_FIXED_HI, &rng);
	fp->warm = warm_up(s, fp->p, fp->set, fp->nr, SPEED_FIXED_LO, SPEED_FIXED_HI, 1e300);
	return 0;
}

void speed_fixed_release(struct speed_fixed_pool *fp)
{
	if (fp->p)
		drop_pool(fp->p, fp->set, fp->nr);
	else
		free(fp->set);
}

/* Whether @a and @b hold the same blocks at the same offsets. */
int speed_fixed_same(const struct speed_fixed_pool *a, const struct speed_fixed_pool *b)
{
	size_t i;

	if (a->nr != b->nr || a->warm != b->warm)
		return 0;
	for (i = 0; i < a->nr; i++) {
		const struct speed_block *x = &a->set[i], *y = &b->set[i];

		/* A pair whose allocation failed leaves address 0. */
		if (x->size != y->size || !x->addr != !y->addr ||
		    (x->addr && x->addr - a->p->chunks.base != y->addr - b->p->chunks.base))
			return 0;
	}
	return 1;
}
