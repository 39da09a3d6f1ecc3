// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * bench/speed.c - genalloc-speed: what an alloc+free pair costs, against
 * the pool's size, its occupancy and the number of threads.
 *
 * Each engine gets a fixed pool, is filled to 50% and then to 90% of it
 * with random blocks, and at each level, after untimed pairs that bring
 * the pool to its steady state (speed_timing.c), runs alloc+free pairs (free a
 * random live block, allocate a new random one) with 1 and then 2 threads
 * on the same pool.  Request sizes scale with the pool (log-uniform in
 * [pool/2^17, pool/2^11]), so every pool holds about the same number of
 * blocks: what grows with the pool is the memory an engine must search.
 * A figure is the median of several runs of wall time per pair, with the
 * spread (min..max) and the ratio against first-fit at an 8-byte granule,
 * all the engines and pools timed side by side in rounds.
 *
 * Besides the library's engines it times the modern engine on the kernel's
 * lock-free path (kff8, kbf8, kffo8: the linear bitmap search the index
 * replaces, same addresses) and two TLSF yardsticks: TLSF as published,
 * its headers in the pool's memory (tlsfi8, bench/tlsf_inband.c), and a
 * TLSF-style allocator that keeps its blocks out of band as genalloc must
 * (tlsf8, bench/tlsf.c), and sums them up in one table: how many times
 * faster the index is than the linear search, and how it stands against
 * each TLSF.  --sizes fixes the request sizes instead of scaling them with
 * the pool, so that the cost growth with the pool size is measured on one
 * workload.
 *
 * Every table also gives the harness: the same loop timed on an engine that
 * does nothing (bench/engine_noop.c), i.e. what the victim pick, the size
 * draw and the calls cost by themselves; every figure includes it.
 *
 * --chunks N hands each modern pool over as N equal chunks instead of one
 * range, and a section of its own (MANY CHUNKS, --many-chunks) sets a 64M
 * pool as 1 and as 1000 chunks side by side, index against linear search:
 * with many chunks a request must not walk them all when its answer lies
 * in a few.  ADD CHUNKS (--add-chunks) times building a pool of many small
 * chunks, one gen_pool_add() each, at descending addresses.
 *
 * FIXED OFFSETS (--fixed-offsets) times gen_pool_fixed_alloc() at random
 * offsets of a 64M pool at steady state, the index against the kernel's
 * search, which runs on from the offset to the next fit before it gives
 * up: both must answer every attempt alike.
 *
 * Then the buddy's free with long free lists: a pool full of 32-byte blocks
 * with every other one freed, so that each further free merges with a
 * buddy on a list of pool/64 entries, timed with the 2005 linear search of
 * the list and with the control-map look-up.
 *
 * This file runs the sections in that order and checks the program for
 * make check (--check); speed_options.c reads the command line,
 * speed_timing.c times the pairs, speed_workloads.c makes each section's
 * requests and speed_report.c prints the tables (speed.h).
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine.h"
#include "replay.h"
#include "speed.h"

/* ADD CHUNKS, timed and printed. */
static int run_add_chunks(const struct speed_settings *s)
{
	double secs;

	if (speed_add_chunks(s, &secs))
		return 1;
	speed_print_add_chunks(s, secs);
	return 0;
}

/* BUDDY FREE WITH LONG FREE LISTS, timed and printed pool by pool. */
static void run_linear(const struct speed_settings *s)
{
	const struct bench_engine *e = bench_engine_find("buddy");
	size_t i;

	if (!e || !e->set_slow || !s->nr_linear)
		return;
	speed_print_linear_head();
	for (i = 0; i < s->nr_linear; i++) {
		size_t n1, n2;
		double slow = speed_linear_point(e, s->linear[i], 1, s->linear_budget, &n1);
		double fast = speed_linear_point(e, s->linear[i], 0, s->linear_budget, &n2);

		speed_print_linear_row(s->linear[i], slow, fast, n1, n2);
	}
	speed_print_linear_rerun(s);
}

/* Whether every engine of MANY CHUNKS' @m, and the harness, ran every
 * round: the section's ratios take one run of each per round. */
static bool many_timed(const struct speed_settings *m)
{
	size_t ei;

	for (ei = 0; ei <= m->ne; ei++)
		if (!speed_all_rounds(speed_result(m, 0, 0, 0, ei), m)) {
			fprintf(stderr, "genalloc-speed: MANY CHUNKS: %s on %zu chunks timed in %zu "
				"of %zu rounds\n", speed_engine_name(m, ei), m->chunks,
				speed_result(m, 0, 0, 0, ei)->runs, m->runs);
			return false;
		}
	return true;
}

/* MANY CHUNKS: the section's two settings timed side by side, then printed. */
static int run_many(const struct speed_settings *s)
{
	struct speed_settings *one = malloc(sizeof(*one)), *many = malloc(sizeof(*many));
	int ret = -1;

	if (!one || !many)
		goto out;
	speed_many_settings(s, one, 1);
	speed_many_settings(s, many, s->many_chunks);
	one->results = calloc(one->ne + 1, sizeof(*one->results));
	many->results = calloc(many->ne + 1, sizeof(*many->results));
	if (one->results && many->results) {
		const struct speed_settings *both[] = { one, many };

		if (!speed_run_pools(both, 2)) {
			speed_print_many(one, many);
			fflush(stdout);
			ret = many_timed(one) && many_timed(many) ? 0 : -1;
		}
	}
	free(one->results);
	free(many->results);
out:
	free(one);
	free(many);
	return ret;
}

/*
 * FIXED OFFSETS: gen_pool_fixed_alloc() at random offsets of a 64 MiB
 * pool of log-uniform 16 B-64 KiB blocks, the index (ff8's pool) against the
 * kernel's search from the offset (kff8's pool, on its lock-free path).
 * Both pools are brought to the main timings' steady state, the same fill
 * and the same warm-up, with two differences: kff8 warms up on the index
 * as well as filling there, and neither warm-up has a time limit.  On the
 * linear path, or under the budget, kff8's warm-up would stop short of
 * ff8's and leave another pool, and the two searches must face the same
 * one: every attempt must get the same answer from both.
 */
static int run_fixed(struct speed_settings *s)
{
	struct speed_fixed_pool ix = { 0 }, ln = { 0 };
	struct speed_fixed_result *res = &s->fixed_res;
	unsigned char *ok_ix = malloc(s->fixed), *ok_ln = malloc(s->fixed);
	double ns_ix[SPEED_MAX_RUNS], ns_ln[SPEED_MAX_RUNS];
	size_t runs = s->runs < SPEED_MAX_RUNS ? s->runs : SPEED_MAX_RUNS, r, i;
	int ret = -1;

	memset(res, 0, sizeof(*res));
	if (!ok_ix || !ok_ln || speed_fixed_steady(s, "ff8", &ix) ||
	    speed_fixed_steady(s, "kff8", &ln))
		goto out;
	if (!speed_fixed_same(&ix, &ln)) {
		fprintf(stderr, "genalloc-speed: FIXED OFFSETS: ff8's and kff8's steady states "
			"differ\n");
		abort();
	}
	res->live = ix.nr;
	res->warm = ix.warm;
	ln.p->engine->measured(ln.p, 1);
	for (r = 0; r < runs; r++) {
		/* Both searches get the same stream of (size, offset) each run. */
		uint64_t seed = (s->seed + 0xf1ed) * 131 + r * 17;
		double t_ix, t_ln;
		size_t n_ix = speed_fixed_run(ix.p, s->fixed, s->budget, seed, ok_ix, &t_ix);
		size_t n_ln = speed_fixed_run(ln.p, s->fixed, s->budget, seed, ok_ln, &t_ln);
		size_t both = n_ix < n_ln ? n_ix : n_ln;

		for (i = 0; i < both; i++) {
			if (ok_ix[i] != ok_ln[i]) {
				fprintf(stderr, "genalloc-speed: FIXED OFFSETS: run %zu, attempt %zu: "
					"the index %s, the linear search %s\n", r, i,
					ok_ix[i] ? "succeeded" : "failed",
					ok_ln[i] ? "succeeded" : "failed");
				abort();
			}
			res->succeeded += ok_ix[i];
		}
		res->both += both;
		res->index.attempts += n_ix;
		res->linear.attempts += n_ln;
		ns_ix[r] = t_ix * 1e9 / (double)n_ix;
		ns_ln[r] = t_ln * 1e9 / (double)n_ln;
	}
	speed_summarize(ns_ix, runs, &res->index.median, &res->index.min, &res->index.max);
	speed_summarize(ns_ln, runs, &res->linear.median, &res->linear.min, &res->linear.max);
	speed_print_fixed(s);
	fflush(stdout);
	ret = 0;
out:
	speed_fixed_release(&ix);
	speed_fixed_release(&ln);
	free(ok_ix);
	free(ok_ln);
	return ret;
}

/* Every section @s asks for; the figures stay in @s->results for the
 * caller to free. */
static int run_all(struct speed_settings *s)
{
	size_t pi, oi, ti;
	double t0 = bench_now();

	if (s->nr_pools && s->ne) {
		s->results = calloc(s->nr_pools * s->nr_occ * s->nr_threads * (s->ne + 1),
				    sizeof(*s->results));
		if (!s->results)
			return 1;
		if (speed_run_pools((const struct speed_settings *const[]){ s }, 1))
			return 1;
		for (pi = 0; pi < s->nr_pools; pi++) {
			for (oi = 0; oi < s->nr_occ; oi++)
				for (ti = 0; ti < s->nr_threads; ti++)
					speed_print_point(s, pi, oi, ti);
			fflush(stdout);
		}
		speed_print_scaling(s);
		speed_print_index_summary(s);
		if (s->csv && speed_write_csv(s))
			perror(s->csv);
		else if (s->csv)
			printf("\nEvery figure: %s\n", s->csv);
	}
	if (s->many_chunks && run_many(s))
		return 1;
	if (s->add_chunks && run_add_chunks(s))
		return 1;
	if (s->fixed && run_fixed(s))
		return 1;
	run_linear(s);
	printf("\ngenalloc-speed: done in %.1f s%s\n", bench_now() - t0,
	       s->full ? "" : " (BENCH_FULL=1 make bench, or --full, for the long version)");
	return 0;
}

/*
 * genalloc-speed --check, for make check: tiny runs of every engine,
 * including the points that cannot be timed (a request larger than the
 * pool, more threads than live blocks), each asserted timed or skipped as
 * it should be (the harness, which allocates nothing, is left out), and a
 * short FIXED OFFSETS, asserted timed (a disagreement between its two
 * searches aborts it).  The tables go to /dev/null, the verdicts to @out
 * (stderr, where a sanitizer's report goes too).
 */
#define CHECK_ARGS "-r", "1", "-n", "200", "-w", "1", "--many-chunks", "none", \
	"--add-chunks", "100", "--fixed-offsets", "none"
static const struct check_case {
	const char *what;
	char *argv[28];
	size_t untimed_from;	/* thread counts from this index are skipped */
} check_cases[] = {
	{ "every engine, 1 and 2 threads",
	  { "check", "--pools", "64K,1M", "-o", "50", "-t", "1,2", "--linear", "64,4K",
	    CHECK_ARGS, NULL }, 2 },
	/* The engines only a name selects: block records, gen_pool_xalloc(). */
	{ "engines named only, 1 and 2 threads",
	  { "check", "--pools", "64K,1M", "-o", "50,90", "-t", "1,2", "--linear", "none",
	    "-e", "rff8,rbf8,rffo8,xa8,xn8,xw8", CHECK_ARGS, NULL }, 2 },
	{ "a pool too small for the scaled sizes",
	  { "check", "--pools", "1K", "-o", "90", "-t", "1", "--linear", "none", CHECK_ARGS,
	    NULL }, 1 },
	{ "requests larger than the pool",
	  { "check", "--pools", "64K", "--sizes", "128K..128K", "-t", "1", "--linear", "none",
	    CHECK_ARGS, NULL }, 0 },
	{ "more threads than live blocks",
	  { "check", "--pools", "64K", "--sizes", "16K..16K", "-o", "50", "-t", "1,8",
	    "--linear", "none", CHECK_ARGS, NULL }, 1 },
	/* MANY CHUNKS fails the run if a lane missed a round. */
	{ "many chunks, index and linear",
	  { "check", "--pools", "none", "--linear", "none", CHECK_ARGS, "--many-chunks", "8", NULL },
	  0 },
	/* The section aborts by itself if the two searches disagree. */
	{ "fixed offsets, index and linear",
	  { "check", "--pools", "none", "--linear", "none", CHECK_ARGS, "--fixed-offsets", "200", NULL },
	  0 },
};

static int check_case(const struct check_case *c, FILE *out)
{
	struct speed_settings s;
	size_t pi, oi, ti, ei, argc = 0, bad = 0;

	while (c->argv[argc])
		argc++;
	if (speed_configure(&s, (int)argc, (char **)c->argv)) {
		fprintf(out, "genalloc-speed --check: %s: bad options\n", c->what);
		return 1;
	}
	s.quiet = 1;
	if (run_all(&s)) {
		fprintf(out, "genalloc-speed --check: %s: could not run\n", c->what);
		free(s.results);
		return 1;
	}
	for (pi = 0; pi < s.nr_pools; pi++)
		for (oi = 0; oi < s.nr_occ; oi++)
			for (ti = 0; ti < s.nr_threads; ti++)
				for (ei = 0; ei < s.ne; ei++) {
					const struct speed_figure *f = speed_result(&s, pi, oi, ti,
										    ei);
					const struct speed_figure *h = speed_result(&s, pi, oi, ti,
										    s.ne);
					int timed = f->pairs > 0 && f->median > 0;

					/* Timed in every round, beside the harness. */
					if (timed && (!speed_all_rounds(f, &s) ||
						      !(speed_figure_ratio(f, h) > 0))) {
						fprintf(out, "genalloc-speed --check: %s: %s, pool "
							"%zu: %zu of %zu rounds\n", c->what,
							speed_engine_name(&s, ei), s.pools[pi],
							f->runs, s.runs);
						bad++;
					}
					if (timed == (ti < c->untimed_from))
						continue;
					fprintf(out, "genalloc-speed --check: %s: %s, pool %zu, %zu%%, "
						"%zu threads: %s\n", c->what,
						speed_engine_name(&s, ei), s.pools[pi], s.occ[oi],
						s.threads[ti],
						timed ? "timed, should be skipped" : "not timed");
					bad++;
				}
	if (s.fixed && (!s.fixed_res.index.attempts || !s.fixed_res.linear.attempts ||
			!s.fixed_res.both || !s.fixed_res.live)) {
		fprintf(out, "genalloc-speed --check: %s: FIXED OFFSETS not timed\n", c->what);
		bad++;
	}
	free(s.results);
	fprintf(out, "genalloc-speed --check: %s: %s\n", c->what, bad ? "FAILED" : "ok");
	return bad != 0;
}

static int self_check(void)
{
	size_t i;
	int rc = 0;

	if (!freopen("/dev/null", "w", stdout))
		return 1;
	for (i = 0; i < sizeof(check_cases) / sizeof(check_cases[0]); i++)
		rc |= check_case(&check_cases[i], stderr);
	return rc;
}

int main(int argc, char **argv)
{
	struct speed_settings s;
	int rc;

	if (argc == 2 && !strcmp(argv[1], "--check"))
		return self_check();
	if (speed_configure(&s, argc, argv)) {
		speed_usage(stderr);
		return 2;
	}
	rc = run_all(&s);
	free(s.results);
	return rc;
}
