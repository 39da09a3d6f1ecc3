// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * bench/speed_options.c - genalloc-speed's command line: its defaults, the
 * options that change them, --help, and the engines it can name.
 *
 * A value an option does not take is refused with the option's name and
 * the value (bad_value()), and nothing runs: the report's rerun lines
 * repeat the command line, so it must mean what it says.  --full
 * lengthens what was left at its default, not what was given.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "options.h"
#include "speed.h"

/* --chunks at most */
#define MAX_CHUNKS ((size_t)1 << 20)
/* --fixed-offsets at most */
#define MAX_FIXED ((size_t)1 << 24)

static int parse_list(const char *arg, size_t *out, size_t *nr, int sizes)
{
	char buf[512], *tok, *save = NULL;

	*nr = 0;
	if (!strcmp(arg, "none"))
		return 0;
	snprintf(buf, sizeof(buf), "%s", arg);
	for (tok = strtok_r(buf, ",", &save); tok && *nr < SPEED_MAX_LIST;
	     tok = strtok_r(NULL, ",", &save)) {
		size_t v;

		if (bench_parse_size(tok, &v) || !v || (sizes && !bench_is_pow2(v)))
			return -1;
		out[(*nr)++] = v;
	}
	return 0;
}

/* The library's engines, then the lock-free kernel path, first fit aligned
 * to a page, and TLSF. */
static size_t speed_engine_list(const struct bench_engine **out, size_t max)
{
	size_t n = bench_engine_list(out, max), i;

	for (i = 0; i < bench_nr_engines_modern_lockless && n < max; i++)
		out[n++] = &bench_engines_modern_lockless[i];
	for (i = 0; i < bench_nr_engines_modern_page && n < max; i++)
		out[n++] = &bench_engines_modern_page[i];
	for (i = 0; i < bench_nr_engines_tlsf && n < max; i++)
		out[n++] = &bench_engines_tlsf[i];
	return n;
}

const struct bench_engine *speed_engine_find(const char *name)
{
	const struct bench_engine *l[BENCH_MAX_ENGINES];
	size_t i, n = speed_engine_list(l, BENCH_MAX_ENGINES);

	for (i = 0; i < n; i++)
		if (!strcmp(l[i]->name, name))
			return l[i];
	/* Block records and gen_pool_xalloc(): only when asked for by name. */
	for (i = 0; i < bench_nr_engines_modern_records; i++)
		if (!strcmp(bench_engines_modern_records[i].name, name))
			return &bench_engines_modern_records[i];
	for (i = 0; i < bench_nr_engines_modern_xalloc; i++)
		if (!strcmp(bench_engines_modern_xalloc[i].name, name))
			return &bench_engines_modern_xalloc[i];
	/* The loop alone, as an engine: bench/instr.sh counts it this way. */
	if (!strcmp(name, bench_engine_noop.name))
		return &bench_engine_noop;
	return NULL;
}

void speed_usage(FILE *f)
{
	fprintf(f,
"Usage: genalloc-speed [OPTION]...\n"
"Time alloc+free pairs per engine at steady occupancy, against the pool size\n"
"and the number of threads, then the buddy's free with long free lists.\n"
"\n"
"  -p, --pools LIST      pool sizes, powers of two (default 1M,16M,256M,1G;\n"
"                        'none' skips the pair timings)\n"
"  -o, --occupancy LIST  steady-state occupancies in %%, 1 to 99 (default\n"
"                        50,90)\n"
"  -t, --threads LIST    thread counts (default 1,2; at most 8)\n"
"  -e, --engines LIST    engines (default: all: genalloc-compare --list, and\n"
"                        kff8, kbf8, kffo8 (kernel linear path), lxff8,\n"
"                        lxbf8, lxffo8, lxffa8 (<linux/genalloc.h>'s\n"
"                        lock-free default, same path), tlsfi8,\n"
"                        tlsf8; 'harness' times the loop alone like an\n"
"                        engine).  Only when named: rff8, rbf8, rffo8\n"
"                        (block records), and gen_pool_xalloc() under one\n"
"                        constraint each: xa8 (align 64, phase 0), xn8\n"
"                        (nocross 64 KiB, or the request's power of two if\n"
"                        larger), xw8 (minaddr..maxaddr: the middle half of\n"
"                        a range twice the pool)\n"
"  -r, --runs N          runs per point, 1 to 64; the median is reported\n"
"                        (default 5)\n"
"  -n, --pairs N         pairs per run (default 20000)\n"
"  -b, --budget MS       a run stops after MS milliseconds even if its pairs\n"
"                        are not done (default 25)\n"
"  -w, --warmup N        untimed pairs per live block after each fill, to\n"
"                        reach the steady state (default 2; 0: none); they\n"
"                        stop after 10x the budget\n"
"  -l, --linear LIST     pools for the buddy free-list test, powers of two\n"
"                        from 64 (default 1M,16M,64M; 'none' skips it)\n"
"  -s, --seed N          PRNG seed (default 1)\n"
"  -z, --sizes LO..HI    request sizes log-uniform in [LO, HI] bytes on every\n"
"                        pool (default: [pool/2^17, pool/2^11]); 64..64\n"
"                        for one size\n"
"  -k, --chunks N        build each modern pool from N equal chunks, one\n"
"                        gen_pool_add each (default 1: one range); only the\n"
"                        modern engines (ff*, bf*, ffo*, ffa8, kff8, kbf8,\n"
"                        kffo8, kffa8)\n"
"  -K, --many-chunks N   the MANY CHUNKS section: a 64M pool, 50%% full, 1\n"
"                        thread, as 1 and as N chunks, ff8/bf8/ffo8/ffa8\n"
"                        against kff8/kbf8/kffo8/kffa8 (default 1000; 'none'\n"
"                        skips it)\n"
"  -A, --add-chunks N    the ADD CHUNKS section: the time to add N 64-byte\n"
"                        chunks to one pool (default 10000; 'none' skips it)\n"
"  -X, --fixed-offsets N the FIXED OFFSETS section: N gen_pool_fixed_alloc\n"
"                        attempts per run (log-uniform 16 B..64 KiB at random\n"
"                        offsets of a 64M pool, 50%% full), ff8 against kff8\n"
"                        (default 20000; 'none' skips it)\n"
"  -c, --csv FILE        also write every figure to FILE as CSV\n"
"  -F, --full            the long version: 11 runs, 10x the pairs, fixed\n"
"                        offset attempts and time per run, the free-list\n"
"                        test up to 1G with 10x the time\n"
"  -h, --help            this text\n");
}

/*
 * Only the modern engines can be cut into chunks: with --chunks, the
 * default list narrows to them and a named other engine is an error.
 */
static int keep_modern(struct speed_settings *s)
{
	size_t i, n = 0;

	for (i = 0; i < s->ne; i++) {
		if (!strcmp(s->e[i]->family, "modern"))
			s->e[n++] = s->e[i];
		else if (s->engines_set) {
			fprintf(stderr, "genalloc-speed: --chunks: %s is not a modern engine\n",
				s->e[i]->name);
			return -1;
		}
	}
	s->ne = n;
	return 0;
}

/* A value getopt accepted but the option does not: name both, since the
 * usage text alone left the reader guessing which one was wrong. */
static int bad_value(const struct option *longopts, int c, const char *arg)
{
	for (; longopts->name; longopts++)
		if (longopts->val == c)
			break;
	fprintf(stderr, "genalloc-speed: bad --%s '%s' (--help gives the allowed values)\n",
		longopts->name ? longopts->name : "?", arg);
	return -1;
}

static int parse(int argc, char **argv, struct speed_settings *s)
{
	static const struct option longopts[] = {
		{ "pools", required_argument, NULL, 'p' },
		{ "occupancy", required_argument, NULL, 'o' },
		{ "threads", required_argument, NULL, 't' },
		{ "engines", required_argument, NULL, 'e' },
		{ "runs", required_argument, NULL, 'r' },
		{ "pairs", required_argument, NULL, 'n' },
		{ "linear", required_argument, NULL, 'l' },
		{ "seed", required_argument, NULL, 's' },
		{ "budget", required_argument, NULL, 'b' },
		{ "warmup", required_argument, NULL, 'w' },
		{ "csv", required_argument, NULL, 'c' },
		{ "sizes", required_argument, NULL, 'z' },
		{ "chunks", required_argument, NULL, 'k' },
		{ "many-chunks", required_argument, NULL, 'K' },
		{ "add-chunks", required_argument, NULL, 'A' },
		{ "fixed-offsets", required_argument, NULL, 'X' },
		{ "full", no_argument, NULL, 'F' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c, linear_set = 0, runs_set = 0, pairs_set = 0, budget_set = 0, fixed_set = 0;
	size_t i, v;

	while ((c = getopt_long(argc, argv, "p:o:t:e:r:n:l:s:b:w:c:z:k:K:A:X:Fh", longopts, NULL)) != -1) {
		switch (c) {
		case 'p':
			if (parse_list(optarg, s->pools, &s->nr_pools, 1))
				return bad_value(longopts, c, optarg);
			break;
		case 'o':
			if (parse_list(optarg, s->occ, &s->nr_occ, 0) || !s->nr_occ)
				return bad_value(longopts, c, optarg);
			for (i = 0; i < s->nr_occ; i++)
				if (s->occ[i] > 99)
					return bad_value(longopts, c, optarg);
			break;
		case 't':
			if (parse_list(optarg, s->threads, &s->nr_threads, 0) || !s->nr_threads)
				return bad_value(longopts, c, optarg);
			for (i = 0; i < s->nr_threads; i++)
				if (s->threads[i] > SPEED_MAX_THREADS)
					return bad_value(longopts, c, optarg);
			break;
		case 'e': {
			char buf[512], *tok, *save = NULL;

			s->ne = 0;
			snprintf(buf, sizeof(buf), "%s", optarg);
			for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
				const struct bench_engine *e = speed_engine_find(tok);

				if (!e || s->ne == BENCH_MAX_ENGINES) {
					fprintf(stderr, "genalloc-speed: no engine '%s'\n", tok);
					return -1;
				}
				s->e[s->ne++] = e;
			}
			s->engines_set = 1;
			break;
		}
		case 'r':
			if (bench_parse_size(optarg, &s->runs) || !s->runs ||
			    s->runs > SPEED_MAX_RUNS)
				return bad_value(longopts, c, optarg);
			runs_set = 1;
			break;
		case 'n':
			if (bench_parse_size(optarg, &s->pairs) || !s->pairs)
				return bad_value(longopts, c, optarg);
			pairs_set = 1;
			break;
		case 'l':
			if (parse_list(optarg, s->linear, &s->nr_linear, 1))
				return bad_value(longopts, c, optarg);
			/* Smaller pools have no odd block to free. */
			for (i = 0; i < s->nr_linear; i++)
				if (s->linear[i] < 64)
					return bad_value(longopts, c, optarg);
			linear_set = 1;
			break;
		case 's':
			if (bench_parse_size(optarg, &v))
				return bad_value(longopts, c, optarg);
			s->seed = v ? v : 1;
			break;
		case 'b':
			if (bench_parse_size(optarg, &v) || !v)
				return bad_value(longopts, c, optarg);
			s->budget = (double)v / 1000;
			budget_set = 1;
			break;
		case 'w':
			if (bench_parse_size(optarg, &s->warm))
				return bad_value(longopts, c, optarg);
			break;
		case 'c':
			s->csv = optarg;
			break;
		case 'z': {
			char lo[32], *dots;

			snprintf(lo, sizeof(lo), "%s", optarg);
			dots = strstr(lo, "..");
			if (!dots)
				return bad_value(longopts, c, optarg);
			*dots = '\0';
			if (bench_parse_size(lo, &s->size_lo) ||
			    bench_parse_size(dots + 2, &s->size_hi) || !s->size_lo ||
			    s->size_hi < s->size_lo)
				return bad_value(longopts, c, optarg);
			break;
		}
		case 'k':
			if (bench_parse_count(optarg, 1, MAX_CHUNKS, &s->chunks))
				return bad_value(longopts, c, optarg);
			break;
		case 'K':
			if (!strcmp(optarg, "none"))
				s->many_chunks = 0;
			else if (bench_parse_count(optarg, 2, MAX_CHUNKS, &s->many_chunks))
				return bad_value(longopts, c, optarg);
			break;
		case 'A':
			if (!strcmp(optarg, "none"))
				s->add_chunks = 0;
			else if (bench_parse_size(optarg, &s->add_chunks) || !s->add_chunks ||
				 s->add_chunks > (1UL << 24))
				return bad_value(longopts, c, optarg);
			break;
		case 'X':
			if (!strcmp(optarg, "none"))
				s->fixed = 0;
			else if (bench_parse_size(optarg, &s->fixed) || !s->fixed ||
				 s->fixed > MAX_FIXED)
				return bad_value(longopts, c, optarg);
			fixed_set = 1;
			break;
		case 'F':
			s->full = 1;
			break;
		case 'h':
			speed_usage(stdout);
			exit(0);
		default:
			return -1;
		}
	}
	if (optind < argc || (s->chunks > 1 && keep_modern(s)))
		return -1;
	if (s->full) {
		if (!runs_set)
			s->runs = 11;
		if (!pairs_set)
			s->pairs *= 10;
		if (!fixed_set)
			s->fixed *= 10;
		if (!linear_set)
			parse_list("1M,16M,64M,256M,1G", s->linear, &s->nr_linear, 1);
		s->linear_budget *= 10;
		if (!budget_set)
			s->budget *= 10;
	}
	s->warm_budget = 10 * s->budget;
	return 0;
}

/* Defaults, then @argv's options; 0 or -1 (the reason printed). */
int speed_configure(struct speed_settings *s, int argc, char **argv)
{
	*s = (struct speed_settings){
		.runs = 5, .pairs = 20000, .budget = 0.025, .linear_budget = 0.5, .seed = 1,
		.argv0 = argv[0], .chunks = 1, .many_chunks = 1000, .add_chunks = 10000, .warm = 2,
		.fixed = 20000,
	};
	size_t n = speed_engine_list(s->e, BENCH_MAX_ENGINES);

	parse_list("1M,16M,256M,1G", s->pools, &s->nr_pools, 1);
	parse_list("50,90", s->occ, &s->nr_occ, 0);
	parse_list("1,2", s->threads, &s->nr_threads, 0);
	parse_list("1M,16M,64M", s->linear, &s->nr_linear, 1);
	s->ne = n < BENCH_MAX_ENGINES ? n : BENCH_MAX_ENGINES;
	optind = 1;	/* parse() may run more than once (--check) */
	return parse(argc, argv, s);
}
