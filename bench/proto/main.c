// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * bench/proto/main.c - genalloc-proto: candidate search structures for
 * the modern engine, measured before one is built into it.
 *
 * Three modes:
 *   (default)  genalloc-speed's pair timings, with its options, loop,
 *              rounds and harness (bench/speed_timing.c), over any mix of
 *              its engines (ff8, bf8, ffo8, tlsf8...) and the prototypes
 *              (bench/proto/engine_proto.c: tff8, tbf8, tffo8, bff8,
 *              bffo8, lff8, lffo8, sff8, sbf8, snff8, snbf8); "-e"
 *              names them in the order of the table, and bench/instr.sh
 *              counts their instructions with --bin.
 *   --verify   every prototype in lockstep with the library on the same
 *              stream (fill, then random free + alloc pairs): every
 *              answer must be the same offset, and every few steps the
 *              prototype's runs must be the bitmap's free runs.  The
 *              reference is the kernel's lock-free search (kff8, kbf8,
 *              kffo8) on pools up to 1 MiB and the library's index above
 *              (whose own tests hold it to the kernel's answers).
 *   --memory   bookkeeping in the worst and best cases: every other
 *              granule free, and the pool as one free run.
 * Not part of "make bench" or "make check"; "make proto" runs it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../replay.h"
#include "../speed.h"
#include "../workload.h"
#include "proto.h"

static const struct bench_engine *proto_find(const char *name)
{
	size_t i;

	for (i = 0; i < proto_nr_engines; i++)
		if (!strcmp(proto_engines[i].name, name))
			return &proto_engines[i];
	return NULL;
}

/* ---------------------------------------------------------------- verify */

struct vblock {
	uint32_t size;
	unsigned long off;	/* from the pool's base; ~0UL: not allocated */
};

static struct bench_pool *make_pool(const struct bench_engine *e, size_t bytes)
{
	struct bench_pool_config cfg = {
		.regime = BENCH_FIXED, .chunk_size = SPEED_MAX_CHUNK, .capacity = bytes, .fake = 1,
	};
	struct bench_pool *p = e->create(e, &cfg);

	if (!p) {
		fprintf(stderr, "genalloc-proto: cannot make a %zu-byte %s pool\n", bytes, e->name);
		exit(1);
	}
	return p;
}

/* One allocation on both pools; its offset, ~0UL if both failed. */
static unsigned long both_alloc(struct bench_pool *c, struct bench_pool *r, size_t size,
				size_t step)
{
	unsigned long a = c->engine->alloc(c, size), b = r->engine->alloc(r, size);
	unsigned long oa = a ? a - c->chunks.base : ~0UL, ob = b ? b - r->chunks.base : ~0UL;

	if (oa != ob) {
		fprintf(stderr, "genalloc-proto: %s against %s, step %zu, %zu bytes: %#lx, "
			"expected %#lx\n", c->engine->name, r->engine->name, step, size, oa, ob);
		exit(1);
	}
	return oa;
}

/*
 * @pairs pairs after a fill to @occ% of @pool with requests @lo..@hi,
 * checking the prototype's runs against its bitmap every @every steps.
 */
static void verify_one(const struct bench_engine *ce, const struct bench_engine *re,
		       size_t pool, size_t occ, size_t lo, size_t hi, size_t pairs, size_t every)
{
	struct bench_pool *c = make_pool(ce, pool), *r = make_pool(re, pool);
	struct vblock *set = NULL;
	size_t nr = 0, cap = 0, granted = 0, i, step = 0, fails = 0;
	uint64_t rng = 0x5eed + pool + occ + lo;

	/* The kernel's path for every answer, the fill included. */
	if (re->measured)
		re->measured(r, 1);
	while (granted < pool / 100 * occ) {
		size_t size = bench_draw_log_uniform(&rng, lo, hi);
		unsigned long off = both_alloc(c, r, size, step++);

		if (off == ~0UL)
			break;
		if (nr == cap) {
			cap = cap ? 2 * cap : 4096;
			set = realloc(set, cap * sizeof(*set));
			if (!set)
				abort();
		}
		set[nr++] = (struct vblock){ (uint32_t)size, off };
		granted += ce->granted(c, size);
	}
	for (i = 0; i < pairs && nr; i++, step++) {
		struct vblock *b = &set[bench_rng_below(&rng, nr)];

		if (b->off != ~0UL) {
			ce->free(c, c->chunks.base + b->off, b->size);
			re->free(r, r->chunks.base + b->off, b->size);
		}
		b->size = (uint32_t)bench_draw_log_uniform(&rng, lo, hi);
		b->off = both_alloc(c, r, b->size, step);
		fails += b->off == ~0UL;
		if (every && !(i % every) && proto_pool_check(c)) {
			fprintf(stderr, "genalloc-proto: %s: runs and bitmap disagree at step %zu\n",
				ce->name, step);
			exit(1);
		}
	}
	if (proto_pool_check(c)) {
		fprintf(stderr, "genalloc-proto: %s: runs and bitmap disagree at the end\n", ce->name);
		exit(1);
	}
	printf("  %-6s = %-6s pool %7zuK %2zu%% %5zu..%-5zu B: %6zu blocks, %6zu free runs, "
	       "%zu pairs, %zu failed: same answers\n", ce->name, re->name, pool >> 10, occ, lo,
	       hi, nr, proto_pool_runs(c), i, fails);
	fflush(stdout);
	for (i = 0; i < nr; i++)
		if (set[i].off != ~0UL) {
			ce->free(c, c->chunks.base + set[i].off, set[i].size);
			re->free(r, r->chunks.base + set[i].off, set[i].size);
		}
	free(set);
	ce->destroy(c);
	re->destroy(r);
}

static int verify(void)
{
	static const struct { size_t pool, lo, hi, occ, pairs, every; } cases[] = {
		/* Small pools on the kernel's own search, checked often. */
		{ 64 << 10, 8, 512, 50, 20000, 97 },
		{ 64 << 10, 8, 512, 95, 20000, 97 },
		{ 1 << 20, 64, 64, 50, 100000, 997 },
		{ 1 << 20, 16, 65536, 50, 100000, 997 },
		{ 1 << 20, 16, 65536, 90, 100000, 997 },
		/* Large ones on the index; the runs checked at the end. */
		{ 64 << 20, 64, 64, 50, 300000, 0 },
		{ 64 << 20, 16, 65536, 50, 300000, 0 },
		{ 64 << 20, 16, 65536, 90, 300000, 0 },
		{ (size_t)1 << 30, 16, 65536, 90, 300000, 0 },
	};
	static const char *const refs[][3] = {
		/* prototype, reference up to 1 MiB, reference above */
		{ "tff8", "kff8", "ff8" }, { "bff8", "kff8", "ff8" },
		{ "tbf8", "kbf8", "bf8" },
		{ "tffo8", "kffo8", "ffo8" }, { "bffo8", "kffo8", "ffo8" },
		{ "lff8", "kff8", "ff8" }, { "lffo8", "kffo8", "ffo8" },
		{ "sff8", "kff8", "ff8" }, { "sbf8", "kbf8", "bf8" },
		{ "snff8", "kff8", "ff8" }, { "snbf8", "kbf8", "bf8" },
	};
	size_t i, k;

	printf("VERIFY: each prototype in lockstep with the library, same stream, same answers\n");
	for (k = 0; k < sizeof(refs) / sizeof(refs[0]); k++)
		for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
			const char *rn = refs[k][cases[i].pool <= (1 << 20) ? 1 : 2];
			const struct bench_engine *re = speed_engine_find(rn);

			/* Order-aligned fit wastes up to half a block at 90%: it
			 * runs dry; 50% is its case. */
			if (!re)
				return 1;
			verify_one(proto_find(refs[k][0]), re, cases[i].pool, cases[i].occ,
				   cases[i].lo, cases[i].hi, cases[i].pairs, cases[i].every);
		}
	return 0;
}

/* ---------------------------------------------------------------- memory */

/* What @e's pool of @pool bytes keeps besides its bitmap, now. */
static size_t search_bytes(struct bench_pool *p, size_t bitmap)
{
	struct bench_stats st;

	if (!strcmp(p->engine->family, "proto"))
		return proto_pool_search_bytes(p, 1);
	p->engine->stats(p, &st);
	return st.metadata - bitmap;
}

/*
 * Bookkeeping of @e's pool of @pool bytes beyond its bitmap: with every
 * other granule free (the most free runs a pool can have) and with the
 * pool one free run.  For the prototypes, the nodes in use; for the
 * library, gen_pool_stats()'s metadata less the bitmap.
 */
static void memory_one(const struct bench_engine *e, size_t pool)
{
	struct bench_pool *p = make_pool(e, pool);
	size_t n = pool / 8, i, bitmap = pool / 64, holes, one;
	unsigned long base = p->chunks.base;

	if (e->measured)
		e->measured(p, 0);
	for (i = 0; i < n; i++)
		if (e->alloc(p, 8) != base + 8 * i) {
			fprintf(stderr, "genalloc-proto: %s: fill stopped at granule %zu\n", e->name, i);
			exit(1);
		}
	for (i = 0; i < n; i += 2)
		e->free(p, base + 8 * i, 8);
	holes = search_bytes(p, bitmap);
	for (i = 1; i < n; i += 2)
		e->free(p, base + 8 * i, 8);
	one = search_bytes(p, bitmap);
	/* The library's index does not grow with the runs: no bytes a run. */
	printf("  %-6s %10zu B %9.3f x ", e->name, holes, (double)holes / (double)bitmap);
	if (!strcmp(e->family, "proto"))
		printf("%8.1f B/run", (double)holes / (double)(n / 2));
	else
		printf("%8s B/run", "-");
	printf(" %10zu B %9.4f x\n", one, (double)one / (double)bitmap);
	e->destroy(p);
}

static int memory(void)
{
	static const char *const names[] = { "ff8", "bf8", "tff8", "tbf8", "bff8", "sff8", "sbf8" };
	size_t i, pool = (size_t)16 << 20;

	printf("MEMORY: bookkeeping beyond the bitmap (%zu B) of a %zu MiB pool, 8-byte granules\n"
	       "  engine  every other granule free: bytes, x bitmap, per free run;  "
	       "one free run: bytes, x bitmap\n", pool / 64, pool >> 20);
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		const struct bench_engine *e = proto_find(names[i]);

		memory_one(e ? e : speed_engine_find(names[i]), pool);
	}
	return 0;
}

/* ---------------------------------------------------------------- timing */

/*
 * genalloc-speed's command line with the prototypes' names taken out of
 * -e (speed_configure() knows only its own engines) and put back, in the
 * order given, once it has parsed the rest.
 */
static int configure(struct speed_settings *s, int argc, char **argv)
{
	static char keep[512];	/* the -e list, cut into the names below */
	const char *names[BENCH_MAX_ENGINES];
	char list[512] = "", *lib = list, **av = calloc((size_t)argc + 1, sizeof(*av));
	size_t nn = 0, i;
	int a, ac = 0, ret;

	if (!av)
		return -1;
	for (a = 0; a < argc; a++) {
		char *tok, *save = NULL;
		const char *v;

		if ((!strcmp(argv[a], "-e") || !strcmp(argv[a], "--engines")) && a + 1 < argc)
			v = argv[++a];
		else if (!strncmp(argv[a], "--engines=", 10))
			v = argv[a] + 10;
		else {
			av[ac++] = argv[a];
			continue;
		}
		snprintf(keep, sizeof(keep), "%s", v);
		nn = 0;
		list[0] = 0;
		for (tok = strtok_r(keep, ",", &save); tok && nn < BENCH_MAX_ENGINES;
		     tok = strtok_r(NULL, ",", &save)) {
			names[nn++] = tok;
			if (!proto_find(tok))
				snprintf(list + strlen(list), sizeof(list) - strlen(list), "%s%s",
					 list[0] ? "," : "", tok);
		}
	}
	if (nn && list[0]) {
		av[ac++] = "-e";
		av[ac++] = lib;
	}
	ret = speed_configure(s, ac, av);
	free(av);
	if (ret || !nn)
		return ret;
	for (i = 0; i < nn; i++) {
		const struct bench_engine *e = proto_find(names[i]);

		s->e[i] = e ? e : speed_engine_find(names[i]);
		if (!s->e[i]) {
			fprintf(stderr, "genalloc-proto: no engine '%s'\n", names[i]);
			return -1;
		}
	}
	s->ne = nn;
	s->engines_set = 1;
	return 0;
}

/*
 * The goal is stated against tlsf8: each engine's time over tlsf8's at
 * every point, the median of the ratios of their runs in the same round
 * (speed_figure_ratio()), as the tables' "vs ff8" column.
 */
static void print_vs_tlsf(const struct speed_settings *s)
{
	size_t pi, oi, ti, ei, ref;

	for (ref = 0; ref < s->ne && strcmp(s->e[ref]->name, "tlsf8"); ref++)
		;
	if (ref == s->ne)
		return;
	printf("\nVS TLSF8: ns per pair over tlsf8's, median of the rounds' ratios\n  %-18s",
	       "pool occ threads");
	for (ei = 0; ei < s->ne; ei++)
		printf(" %7s", s->e[ei]->name);
	printf("\n");
	for (pi = 0; pi < s->nr_pools; pi++)
		for (oi = 0; oi < s->nr_occ; oi++)
			for (ti = 0; ti < s->nr_threads; ti++) {
				printf("  %5zuM %3zu%% %7zu ", s->pools[pi] >> 20, s->occ[oi],
				       s->threads[ti]);
				for (ei = 0; ei < s->ne; ei++)
					printf(" %7.2f", speed_figure_ratio(speed_result(s, pi, oi, ti, ei),
									    speed_result(s, pi, oi, ti, ref)));
				printf("\n");
			}
}

static int timing(int argc, char **argv)
{
	struct speed_settings *s = calloc(1, sizeof(*s));
	size_t pi, oi, ti;

	if (!s || configure(s, argc, argv))
		return 1;
	s->argv0 = "genalloc-proto";
	if (!s->nr_pools || !s->ne)
		return 0;
	s->results = calloc(s->nr_pools * s->nr_occ * s->nr_threads * (s->ne + 1),
			    sizeof(*s->results));
	if (!s->results || speed_run_pools((const struct speed_settings *const[]){ s }, 1))
		return 1;
	for (pi = 0; pi < s->nr_pools; pi++)
		for (oi = 0; oi < s->nr_occ; oi++)
			for (ti = 0; ti < s->nr_threads; ti++)
				speed_print_point(s, pi, oi, ti);
	if (s->nr_pools > 1)
		speed_print_scaling(s);
	print_vs_tlsf(s);
	free(s->results);
	free(s);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc > 1 && !strcmp(argv[1], "--verify"))
		return verify();
	if (argc > 1 && !strcmp(argv[1], "--memory"))
		return memory();
	if (argc > 1 && !strcmp(argv[1], "--list")) {
		size_t i;

		for (i = 0; i < proto_nr_engines; i++)
			printf("%-6s %s\n", proto_engines[i].name, proto_engines[i].descr);
		return 0;
	}
	return timing(argc, argv);
}
