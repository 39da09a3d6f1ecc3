// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * bench/speed_report.c - what genalloc-speed prints: a table per point of
 * the pair timings, the SCALING and INDEX vs LINEAR summaries, the CSV of
 * every figure, and the tables of its sections (MANY CHUNKS, ADD CHUNKS,
 * FIXED OFFSETS, BUDDY FREE WITH LONG FREE LISTS).
 *
 * It only reads what the timing left in the settings: every figure is
 * printed as measured, a ratio of two figures as the median of their
 * rounds' ratios (speed_figure_ratio()).  Each table ends in the command
 * that measures it again on its own.
 */
#include <stdio.h>
#include <string.h>

#include "speed.h"

static const char *hsize(char *buf, size_t n, size_t v)
{
	if (v >= (1u << 30) && !(v % (1u << 30)))
		snprintf(buf, n, "%zuG", v >> 30);
	else if (v >= (1u << 20) && !(v % (1u << 20)))
		snprintf(buf, n, "%zuM", v >> 20);
	else if (v >= 1024 && !(v % 1024))
		snprintf(buf, n, "%zuK", v >> 10);
	else
		snprintf(buf, n, "%zu", v);
	return buf;
}

static size_t reference(const struct speed_settings *s)
{
	size_t ei;

	for (ei = 0; ei < s->ne; ei++)
		if (!strcmp(s->e[ei]->name, "ff8"))
			return ei;
	return 0;
}

static const char *sizes_arg(char *buf, size_t n, const struct speed_settings *s)
{
	snprintf(buf, n, "%zu..%zu", s->size_lo, s->size_hi);
	return buf;
}

/*
 * The command that measures one point again on its own: the same pool,
 * occupancy, threads, chunks, engines and loop, without the other sections.
 */
static void print_rerun(const struct speed_settings *s, const char *label, size_t pool, size_t occ,
			size_t threads, const char *note)
{
	char a[32], b[48];
	size_t ei;

	printf("  %s: %s --pools %s --occupancy %zu --threads %zu --runs %zu --pairs %zu "
	       "--budget %g --warmup %zu --seed %llu", label, s->argv0, hsize(a, sizeof(a), pool),
	       occ, threads, s->runs, s->pairs, s->budget * 1000, s->warm,
	       (unsigned long long)s->seed);
	if (s->size_lo)
		printf(" --sizes %s", sizes_arg(b, sizeof(b), s));
	if (s->chunks > 1)
		printf(" --chunks %zu", s->chunks);
	if (s->engines_set)
		for (ei = 0; ei < s->ne; ei++)
			printf("%s%s", ei ? "," : " -e ", s->e[ei]->name);
	printf(" --many-chunks none --linear none --fixed-offsets none%s\n", note);
}

/* The harness's line under a table: how much of each figure is the loop. */
static void print_harness(const struct speed_figure *h)
{
	printf("  %-7s %12.1f   the loop alone (random victim, size draw, calls into a no-op "
	       "engine): every figure above includes it\n", "harness", h->median);
}

void speed_print_point(const struct speed_settings *s, size_t pi, size_t oi, size_t ti)
{
	size_t ei, ref = reference(s);
	char a[32];
	size_t pool = s->pools[pi];

	printf("\nworkload: pool %s%s, %zu%% full, %zu thread%s, pairs of free(random live) + "
	       "alloc(log-uniform %zu..%zu B), %zu runs x %zu pairs or %g ms\n"
	       "  after the fill, untimed: %zu pairs per live block or %g ms (column warm); "
	       "before each run, %d or %g ms;\n"
	       "  runs in rounds with every other engine and pool, vs ff8 the median of the "
	       "rounds' ratios\n",
	       hsize(a, sizeof(a), pool), s->chunks > 1 ? " in equal chunks" : "",
	       s->occ[oi], s->threads[ti],
	       s->threads[ti] > 1 ? "s" : "", speed_request_lo(s, pool), speed_request_hi(s, pool),
	       s->runs, s->pairs, s->budget * 1000, s->warm, s->warm_budget * 1000,
	       SPEED_REWARM_PAIRS, s->budget * 1000);
	if (s->chunks > 1)
		printf("  modern pools as %zu chunks (one gen_pool_add each); after the fill the live "
		       "blocks lie in %zu of them (%s's pool)\n", s->chunks,
		       speed_result(s, pi, oi, ti, ref)->chunks_used, s->e[ref]->name);
	printf("  %-7s %12s %23s %8s %9s %7s %7s %9s\n", "engine", "ns/pair",
	       "spread (min..max)", "vs ff8", "pairs", "failed", "fill s", "warm");
	for (ei = 0; ei < s->ne; ei++) {
		const struct speed_figure *f = speed_result(s, pi, oi, ti, ei);
		const struct speed_figure *r = speed_result(s, pi, oi, ti, ref);

		printf("  %-7s %12.1f %11.1f..%-11.1f %8.2f %9zu %7zu %7.2f %9zu\n",
		       s->e[ei]->name, f->median, f->min, f->max,
		       speed_figure_ratio(f, r), f->pairs, f->failed, f->fill,
		       f->warm);
	}
	print_harness(speed_result(s, pi, oi, ti, s->ne));
	print_rerun(s, "rerun", pool, s->occ[oi], s->threads[ti],
		    s->occ[oi] != s->occ[0] ? " (filled through the lower levels first)" : "");
}

/* One row per point (the harness's too), for plotting the scaling elsewhere. */
int speed_write_csv(const struct speed_settings *s)
{
	FILE *f = fopen(s->csv, "w");
	size_t pi, oi, ti, ei, ref = reference(s);

	if (!f)
		return -1;
	fprintf(f, "pool,occupancy,threads,engine,ns_per_pair_median,ns_min,ns_max,"
		   "ratio_ff8,pairs,failed,fill_seconds,warm_pairs\n");
	for (pi = 0; pi < s->nr_pools; pi++)
		for (oi = 0; oi < s->nr_occ; oi++)
			for (ti = 0; ti < s->nr_threads; ti++)
				for (ei = 0; ei <= s->ne; ei++) {
					const struct speed_figure *x, *r;

					x = speed_result(s, pi, oi, ti, ei);
					r = speed_result(s, pi, oi, ti, ref);

					fprintf(f, "%zu,%zu,%zu,%s,%.1f,%.1f,%.1f,%.4f,%zu,%zu,%.3f,%zu\n",
						s->pools[pi], s->occ[oi], s->threads[ti],
						speed_engine_name(s, ei), x->median, x->min, x->max,
						speed_figure_ratio(x, r),
						x->pairs, x->failed, x->fill, x->warm);
				}
	return fclose(f);
}

/* The table that answers "how does the cost grow with the pool size". */
void speed_print_scaling(const struct speed_settings *s)
{
	size_t pi, oi, ti, ei;
	char a[32];

	for (oi = 0; oi < s->nr_occ; oi++) {
		for (ti = 0; ti < s->nr_threads; ti++) {
			printf("\nSCALING: median ns per alloc+free pair, %zu%% full, %zu thread%s "
			       "(harness: the loop alone;\n  last/1st: the median of the rounds' "
			       "ratios)\n",
			       s->occ[oi], s->threads[ti], s->threads[ti] > 1 ? "s" : "");
			printf("  %-7s", "engine");
			for (pi = 0; pi < s->nr_pools; pi++)
				printf(" %9s", hsize(a, sizeof(a), s->pools[pi]));
			printf(" %9s\n", "last/1st");
			for (ei = 0; ei <= s->ne; ei++) {
				const struct speed_figure *last;

				last = speed_result(s, s->nr_pools - 1, oi, ti, ei);
				printf("  %-7s", speed_engine_name(s, ei));
				for (pi = 0; pi < s->nr_pools; pi++)
					printf(" %9.1f", speed_result(s, pi, oi, ti, ei)->median);
				printf(" %9.2f\n", speed_figure_ratio(last, speed_result(s, 0, oi, ti, ei)));
			}
		}
	}
}

static size_t engine_index(const struct speed_settings *s, const char *name)
{
	size_t ei;

	for (ei = 0; ei < s->ne; ei++)
		if (!strcmp(s->e[ei]->name, name))
			return ei;
	return s->ne;
}

/* "how many times faster than": @slow's time over @fast's, or a dash. */
static void print_ratio(const struct speed_settings *s, size_t pi, size_t oi, size_t ti,
			const char *slow, const char *fast)
{
	size_t a = engine_index(s, slow), b = engine_index(s, fast);

	if (a == s->ne || b == s->ne) {
		printf(" %9s", "-");
		return;
	}
	printf(" %9.2f", speed_figure_ratio(speed_result(s, pi, oi, ti, a),
					    speed_result(s, pi, oi, ti, b)));
}

/*
 * The table the index is judged by: for each pool, how many times faster
 * each indexed algorithm is than the kernel's linear search of the same
 * bitmap (same addresses), and first fit's time over TLSF's.
 */
void speed_print_index_summary(const struct speed_settings *s)
{
	static const char *const pairs[][2] = {
		{ "kff8", "ff8" }, { "kbf8", "bf8" }, { "kffo8", "ffo8" }, { "kffa8", "ffa8" },
		{ "ff8", "tlsfi8" }, { "ff8", "tlsf8" },
	};
	size_t pi, oi, ti, k;
	char a[32];

	if (engine_index(s, "ff8") == s->ne)
		return;
	for (oi = 0; oi < s->nr_occ; oi++) {
		for (ti = 0; ti < s->nr_threads; ti++) {
			printf("\nINDEX vs LINEAR: times faster than the kernel's linear search "
			       "(same addresses), %zu%% full, %zu thread%s;\n"
			       "  last columns: ff8's time over TLSF's (2.0 = twice as slow), TLSF as\n"
			       "  published (tlsfi8: headers in the pool) and out of band (tlsf8)\n",
			       s->occ[oi], s->threads[ti], s->threads[ti] > 1 ? "s" : "");
			printf("  %-6s %9s %9s %9s %9s %9s %9s %9s\n", "pool", "ff8 ns", "ff x",
			       "bf x", "ffo x", "ffa x", "ff/tlsfi", "ff/tlsf");
			for (pi = 0; pi < s->nr_pools; pi++) {
				printf("  %-6s %9.1f", hsize(a, sizeof(a), s->pools[pi]),
				       speed_result(s, pi, oi, ti, engine_index(s, "ff8"))->median);
				for (k = 0; k < sizeof(pairs) / sizeof(pairs[0]); k++)
					print_ratio(s, pi, oi, ti, pairs[k][0], pairs[k][1]);
				printf("\n");
			}
		}
	}
}

/* ADD CHUNKS' figure, @secs for all the adds. */
void speed_print_add_chunks(const struct speed_settings *s, double secs)
{
	printf("\nADD CHUNKS: gen_pool_add() of %zu 64-byte chunks at descending addresses, "
	       "one pool\n  %.3f s, %.0f ns per add\n  rerun: %s --pools none --many-chunks none "
	       "--linear none --fixed-offsets none --add-chunks %zu\n", s->add_chunks, secs,
	       secs * 1e9 / (double)s->add_chunks, s->argv0, s->add_chunks);
}

/* The head of BUDDY FREE WITH LONG FREE LISTS. */
void speed_print_linear_head(void)
{
	printf("\nBUDDY FREE WITH LONG FREE LISTS: pool full of 32-byte blocks, every other one "
	       "free (list of pool/64), then frees that merge\n");
	printf("  %-6s %10s %16s %16s %8s\n", "pool", "list len", "linear ns/free",
	       "map ns/free", "ratio");
}

/* One pool's row: ns per free with the linear search (@n1 frees) and the map (@n2). */
void speed_print_linear_row(size_t pool, double slow, double fast, size_t n1, size_t n2)
{
	char a[32];

	printf("  %-6s %10zu %16.1f %16.1f %8.1f   (%zu and %zu frees)\n",
	       hsize(a, sizeof(a), pool), pool / 64, slow, fast,
	       fast > 0 ? slow / fast : 0.0, n1, n2);
}

void speed_print_linear_rerun(const struct speed_settings *s)
{
	char a[32];

	printf("  rerun: %s --pools none --many-chunks none --fixed-offsets none --linear %s%s\n",
	       s->argv0, hsize(a, sizeof(a), s->linear[s->nr_linear - 1]),
	       s->full ? " --full" : "");
}

static void print_many_header(const struct speed_settings *m, const struct speed_figure *f)
{
	struct bench_chunk_layout l;
	char a[32];

	if (bench_chunk_layout(&l, SPEED_MANY_POOL, m->chunks, 8))
		return;
	printf("\nMANY CHUNKS: pool %s as 1 range and as %zu chunks of %zu B (one gen_pool_add "
	       "each, a page apart), %d%% full, 1 thread,\n"
	       "  pairs of free(random live) + alloc(log-uniform %zu..%zu B), %zu runs x %zu pairs "
	       "or %g ms; median ns per pair\n", hsize(a, sizeof(a), SPEED_MANY_POOL), l.nr, l.size,
	       SPEED_MANY_OCC, speed_request_lo(m, SPEED_MANY_POOL),
	       speed_request_hi(m, SPEED_MANY_POOL), m->runs, m->pairs, m->budget * 1000);
	printf("  Fill: random blocks allocated one after another.  Every algorithm takes the first "
	       "chunk on the\n"
	       "  pool's list that can hold a request, so the fill packs the chunks in list order: "
	       "the first half\n"
	       "  end up full, the rest empty, and a request's answer lies at that frontier or in a "
	       "hole a free\n"
	       "  opened since.  A linear search walks the full chunks to get there; an index should "
	       "not.  (A fill\n"
	       "  spread over all chunks would put most answers in the first chunks searched: "
	       "nothing to measure.)\n"
	       "  After the fill, ff8's live blocks lie in %zu of the %zu chunks, numbers %zu..%zu "
	       "by address", f->chunks_used, l.nr, f->chunk_lo, l.nr - 1);
	/* The list starts with the chunk added last: the highest address. */
	if (f->chunks_used == l.nr - f->chunk_lo)
		printf(":\n  the first %zu the search visits (the list starts with the chunk added "
		       "last)", f->chunks_used);
	printf(".\n");
}

static void print_many_row(const struct speed_settings *one, const struct speed_settings *many,
			   size_t ei, const char *what)
{
	const struct speed_figure *a = speed_result(one, 0, 0, 0, ei);
	const struct speed_figure *b = speed_result(many, 0, 0, 0, ei);
	char failed[48];

	snprintf(failed, sizeof(failed), "%zu/%zu", a->failed, b->failed);
	printf("  %-7s %-8s %12.1f %12.1f %8.2f %10s\n", speed_engine_name(one, ei), what,
	       a->median, b->median, speed_figure_ratio(b, a), failed);
}

void speed_print_many(const struct speed_settings *one, const struct speed_settings *many)
{
	size_t k, n = many->chunks;
	char c1[32], cn[32];

	print_many_header(many, speed_result(many, 0, 0, 0, 0));
	snprintf(cn, sizeof(cn), "%zu chunks", n);
	snprintf(c1, sizeof(c1), "%zu/1", n);
	printf("  %-7s %-8s %12s %12s %8s %10s\n", "engine", "search", "1 chunk", cn, c1,
	       "failed");
	for (k = 0; k < many->ne; k += 2) {
		const struct speed_figure *i1 = speed_result(one, 0, 0, 0, k);
		const struct speed_figure *l1 = speed_result(one, 0, 0, 0, k + 1);
		const struct speed_figure *in = speed_result(many, 0, 0, 0, k);
		const struct speed_figure *ln = speed_result(many, 0, 0, 0, k + 1);

		print_many_row(one, many, k, "index");
		print_many_row(one, many, k + 1, "linear");
		printf("  %-7s %-8s %12.1f %12.1f\n", "", "x faster",
		       speed_figure_ratio(l1, i1), speed_figure_ratio(ln, in));
	}
	printf("  %-7s %-8s %12.1f %12.1f\n", "harness", "no-op",
	       speed_result(one, 0, 0, 0, one->ne)->median,
	       speed_result(many, 0, 0, 0, many->ne)->median);
	printf("  x faster: the linear search's time over the index's.  harness: the loop alone "
	       "(random victim,\n  size draw, calls into a no-op engine): every figure above "
	       "includes it.\n");
	print_rerun(one, "rerun, 1 chunk", SPEED_MANY_POOL, SPEED_MANY_OCC, 1, "");
	snprintf(cn, sizeof(cn), "rerun, %zu chunks", n);
	print_rerun(many, cn, SPEED_MANY_POOL, SPEED_MANY_OCC, 1, "");
}

static void print_fixed_row(const char *engine, const char *search,
			    const struct speed_fixed_figure *f)
{
	printf("  %-7s %-8s %12.1f %11.1f..%-11.1f %9zu\n", engine, search, f->median, f->min,
	       f->max, f->attempts);
}

void speed_print_fixed(const struct speed_settings *s)
{
	const struct speed_fixed_result *r = &s->fixed_res;
	char a[32];

	printf("\nFIXED OFFSETS: gen_pool_alloc_algo(gen_pool_fixed_alloc) of log-uniform %d..%d B "
	       "at uniform granule offsets,\n"
	       "  a success freed at once; pool %s at 8-byte granules, %d%% full of log-uniform "
	       "%d..%d B blocks (%zu live):\n"
	       "  first fit fill and %zu untimed pairs as in the main timings, but on the index for "
	       "both pools and with\n"
	       "  no time limit, so that kff8's pool is ff8's; %zu runs x %zu attempts or %g ms; "
	       "median ns per attempt\n",
	       SPEED_FIXED_LO, SPEED_FIXED_HI, hsize(a, sizeof(a), SPEED_FIXED_POOL),
	       SPEED_FIXED_OCC, SPEED_FIXED_LO, SPEED_FIXED_HI, r->live, r->warm, s->runs, s->fixed,
	       s->budget * 1000);
	printf("  %-7s %-8s %12s %23s %9s\n", "engine", "search", "ns/attempt",
	       "spread (min..max)", "attempts");
	print_fixed_row("ff8", "index", &r->index);
	print_fixed_row("kff8", "linear", &r->linear);
	printf("  linear/index: %.1f (kff8's time over ff8's: the kernel's search runs on from "
	       "the offset to the next fit,\n  the index tests the range at the offset)\n",
	       r->index.median > 0 ? r->linear.median / r->index.median : 0.0);
	printf("  succeeded: %.1f%% (%zu of the %zu attempts both made, each run's first ones), "
	       "the same attempts for both\n",
	       r->both ? 100.0 * (double)r->succeeded / (double)r->both : 0.0, r->succeeded,
	       r->both);
	printf("  rerun: %s --pools none --many-chunks none --add-chunks none --linear none "
	       "--fixed-offsets %zu --runs %zu --budget %g --warmup %zu --seed %llu\n", s->argv0, s->fixed,
	       s->runs, s->budget * 1000, s->warm, (unsigned long long)s->seed);
}
