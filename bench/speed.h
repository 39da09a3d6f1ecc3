/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * bench/speed.h - what the parts of genalloc-speed share: the settings a
 * run is made of, the figures it fills in, and the limits of both.
 *
 * Calls go one way, down this list: speed.c (main, the sections in order,
 * --check), speed_report.c (tables and CSV, reading the figures),
 * speed_timing.c (pairs in rounds, medians), speed_workloads.c (the
 * requests), speed_options.c (the command line and the engines it names).
 * Nothing here is seen outside genalloc-speed.
 */
#ifndef GENALLOC_BENCH_SPEED_H
#define GENALLOC_BENCH_SPEED_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "engine.h"

/* Entries of a list option (--pools, --occupancy, ...) at most */
#define SPEED_MAX_LIST 16
/* The largest chunk an engine's pool is made of */
#define SPEED_MAX_CHUNK ((size_t)4 << 20)
/* --threads at most */
#define SPEED_MAX_THREADS 8
/* The MANY CHUNKS section: one pool, one occupancy, one thread. */
#define SPEED_MANY_POOL ((size_t)64 << 20)
#define SPEED_MANY_OCC 50
/* The FIXED OFFSETS section: the 64 MiB pool of log-uniform 16 B-64 KiB blocks, 8-byte granules. */
#define SPEED_FIXED_POOL ((size_t)64 << 20)
#define SPEED_FIXED_OCC 50
#define SPEED_FIXED_LO 16
#define SPEED_FIXED_HI 65536

/* --runs at most */
#define SPEED_MAX_RUNS 64
/*
 * Before each timed run, this many untimed pairs, or as many as the run's
 * time budget allows, bring back into the caches what the other engines
 * of the round evicted: the engine's bookkeeping and its share of the
 * loop's table of live blocks (8 MiB at 64M of 64-byte blocks).  With 2000
 * the 64-byte first fit on 64M timed 94-98 ns a pair in rounds against
 * 70-76 with 20000, as alone.  A count that does not follow --pairs keeps
 * bench/instr.sh's difference of two runs exact.
 */
#define SPEED_REWARM_PAIRS 20000

/* One point of the pair timings (pool, occupancy, threads, engine). */
struct speed_figure {
	double median, min, max;
	double run_ns[SPEED_MAX_RUNS];	/* run by run, in the order of the rounds */
	size_t runs;		/* runs taken; 0: not timed */
	size_t failed;
	size_t pairs;		/* timed, over all runs */
	double fill;		/* seconds it took to fill to this level */
	size_t chunks_used;	/* chunks holding a live block after the fill */
	size_t chunk_lo;	/* the lowest of them (chunk 0 has the lowest address) */
	size_t warm;		/* untimed pairs run after the fill, before the runs */
};

/* One search of the FIXED OFFSETS section: ns per attempt over its runs. */
struct speed_fixed_figure {
	double median, min, max;
	size_t attempts;	/* timed, over all runs */
};

/* What FIXED OFFSETS measured, kept for --check. */
struct speed_fixed_result {
	struct speed_fixed_figure index, linear;
	size_t both;		/* attempts both searches made (the runs' common prefixes) */
	size_t succeeded;	/* of those; the same attempts for both, or it aborts */
	size_t live;		/* live blocks of the steady state */
	size_t warm;		/* untimed pairs that brought each pool there */
};

/* What a run of genalloc-speed does, and what it measured. */
struct speed_settings {
	size_t pools[SPEED_MAX_LIST], nr_pools;
	size_t occ[SPEED_MAX_LIST], nr_occ;
	size_t threads[SPEED_MAX_LIST], nr_threads;
	size_t linear[SPEED_MAX_LIST], nr_linear;
	const struct bench_engine *e[BENCH_MAX_ENGINES];
	size_t ne;		/* engines; the harness comes after them, at [ne] */
	int engines_set;	/* -e given: reruns repeat it */
	size_t chunks;		/* modern pools as this many equal chunks */
	size_t many_chunks;	/* MANY CHUNKS: 1 against this many; 0 skips it */
	size_t add_chunks;	/* ADD CHUNKS: chunks to add; 0 skips it */
	size_t fixed;		/* FIXED OFFSETS: attempts per run; 0 skips it */
	struct speed_fixed_result fixed_res;
	size_t runs;
	size_t pairs;		/* per run, unless the budget ends it first */
	double budget;		/* seconds per run at most */
	double linear_budget;	/* seconds per linear-search point */
	size_t warm;		/* untimed pairs per live block before the runs */
	double warm_budget;	/* seconds those pairs may take at most */
	uint64_t seed;
	size_t size_lo, size_hi;	/* fixed request sizes; 0: scale with the pool */
	int full;
	int quiet;		/* --check: no notes on stderr */
	const char *argv0;
	const char *csv;	/* where to write every figure, or NULL */
	struct speed_figure *results;	/* [pool][occupancy][threads][engine + harness] */
};

/* A live block of the loop's table; addr 0: its allocation failed. */
struct speed_block {
	unsigned long addr;
	size_t size;
};

/* One of FIXED OFFSETS' two pools at its steady state. */
struct speed_fixed_pool {
	struct bench_pool *p;
	struct speed_block *set;
	size_t nr;
	size_t warm;
};

/* The timing (speed_timing.c) */

/* Every engine (and the harness) on every pool of each of the @nsets
 * settings @sets, which differ at most in their pools, engines and chunks,
 * timed in rounds; 0, or -1 if out of memory. */
int speed_run_pools(const struct speed_settings *const *sets, size_t nsets);
/* The median of @runs figures (sorting @ns), and their spread. */
void speed_summarize(double *ns, size_t runs, double *median, double *min, double *max);
/* Whether @f was timed in every round of @s. */
bool speed_all_rounds(const struct speed_figure *f, const struct speed_settings *s);
/* How many times @x's time is @y's: the median of their rounds' ratios; 0 if
 * either was not timed. */
double speed_figure_ratio(const struct speed_figure *x, const struct speed_figure *y);
/* The figure of pool @pi, occupancy @oi, thread count @ti, engine @ei (the
 * harness at @ei == @s->ne). */
struct speed_figure *speed_result(const struct speed_settings *s, size_t pi, size_t oi,
				  size_t ti, size_t ei);
/* The name of engine @ei of @s, or the harness's at @ei == @s->ne. */
const char *speed_engine_name(const struct speed_settings *s, size_t ei);
/* FIXED OFFSETS: engine @name's pool filled and warmed up without a time
 * limit, still on the index; 0, or -1 if @name is no modern engine. */
int speed_fixed_steady(const struct speed_settings *s, const char *name,
		       struct speed_fixed_pool *fp);
/* Whether @a and @b hold the same blocks at the same offsets. */
int speed_fixed_same(const struct speed_fixed_pool *a, const struct speed_fixed_pool *b);
/* @fp's blocks, pool and table given back. */
void speed_fixed_release(struct speed_fixed_pool *fp);

/* The request streams (speed_workloads.c) */

/* The smallest and largest request on a @pool-byte pool. */
size_t speed_request_lo(const struct speed_settings *s, size_t pool);
size_t speed_request_hi(const struct speed_settings *s, size_t pool);
/* Allocate blocks of @lo..@hi bytes drawn from @rng until @target bytes are
 * granted or an allocation fails; they go to @set (@nr of @cap), their
 * grants to @granted. */
void speed_fill(struct bench_pool *p, struct speed_block **set, size_t *nr, size_t *cap,
		size_t *granted, size_t target, size_t lo, size_t hi, uint64_t *rng);
/* MANY CHUNKS: @m is @s narrowed to the section's pool, engines and @chunks. */
void speed_many_settings(const struct speed_settings *s, struct speed_settings *m,
			 size_t chunks);
/* ADD CHUNKS: @s->add_chunks adds to one pool, their time in @secs; 0 or 1. */
int speed_add_chunks(const struct speed_settings *s, double *secs);
/* FIXED OFFSETS: up to @n attempts on @p drawn from @seed, @ok[i] whether
 * attempt i succeeded; the attempts made, their time in @secs. */
size_t speed_fixed_run(struct bench_pool *p, size_t n, double budget, uint64_t seed,
		       unsigned char *ok, double *secs);
/* BUDDY FREE WITH LONG FREE LISTS: ns per merging free on a @pool-byte pool,
 * with the 2005 linear search (@slow) or the map; @done frees. */
double speed_linear_point(const struct bench_engine *e, size_t pool, int slow,
			  double budget, size_t *done);

/* The command line (speed_options.c) */

/* --help's text, to @f. */
void speed_usage(FILE *f);
/* Defaults, then @argv's options; 0 or -1 (the reason printed).  --help
 * prints the usage and exits. */
int speed_configure(struct speed_settings *s, int argc, char **argv);
/* The engine called @name: any of the default list, a block-record engine,
 * or the harness's no-op one; NULL if none. */
const struct bench_engine *speed_engine_find(const char *name);

/* The report (speed_report.c), on stdout but for the CSV */

/* The table of one point of the pair timings. */
void speed_print_point(const struct speed_settings *s, size_t pi, size_t oi, size_t ti);
/* SCALING: each engine's figure pool by pool. */
void speed_print_scaling(const struct speed_settings *s);
/* INDEX vs LINEAR: each index against the kernel's search, and against TLSF. */
void speed_print_index_summary(const struct speed_settings *s);
/* Every figure to @s->csv; 0, or -1 with errno set. */
int speed_write_csv(const struct speed_settings *s);
/* MANY CHUNKS: the same settings but for the chunks, @one and @many of them. */
void speed_print_many(const struct speed_settings *one, const struct speed_settings *many);
/* ADD CHUNKS, @secs for all the adds. */
void speed_print_add_chunks(const struct speed_settings *s, double secs);
/* FIXED OFFSETS, from @s->fixed_res. */
void speed_print_fixed(const struct speed_settings *s);
/* BUDDY FREE WITH LONG FREE LISTS: its head, a row per pool, the rerun line. */
void speed_print_linear_head(void);
void speed_print_linear_row(size_t pool, double slow, double fast, size_t n1, size_t n2);
void speed_print_linear_rerun(const struct speed_settings *s);

#endif /* GENALLOC_BENCH_SPEED_H */
