// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * bench/compare.c - genalloc-compare: one workload through several engines,
 * in one process, under the same conditions, reported side by side.
 *
 * Run "genalloc-compare --help" for the options; "make compare" runs the
 * default set (every generator and every committed trace, both regimes).
 */
#include <ctype.h>
#include <getopt.h>
#include <glob.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "options.h"
#include "replay.h"
#include "study.h"

/* The 2005 allocator refuses chunks above page shift + 10: 4 MiB here. */
#define MAX_CHUNK ((size_t)4 << 20)
#define MIN_CAPACITY ((size_t)64 << 10)
#define GROWING_LIMIT ((size_t)1 << 30)
/* Workloads this long get a progress line on stderr. */
#define BIG_WORKLOAD ((size_t)1 << 20)
/* About how many events the timed replays of one cell may take in all. */
#define REPLAY_BUDGET ((size_t)2000000)
/* An arena that fills is doubled, up to this. */
#define ARENA_MAX ((size_t)1 << 40)

struct options {
	char *workloads;
	char *engines;
	const char *traces;
	const char *out;
	int regime[BENCH_NR_REGIMES];
	size_t repeat;
	size_t jobs;
	struct bench_gen_params gen;
	size_t chunk;
	size_t capacity;
	size_t samples;
	int plots;
	int quiet;
};

static void usage(FILE *f)
{
	fprintf(f,
"Usage: genalloc-compare [OPTION]...\n"
"Replay workloads through the 2005 buddy, the bitmap engine behind the 2005\n"
"API (compat) and the modern bitmap engine (first fit, best fit, first fit\n"
"order-aligned at 8, 16 and 32-byte granules), and report them side by side.\n"
"\n"
"  -w, --workloads LIST  comma-separated generator names, trace files and\n"
"                        names of traces in the trace directory (default:\n"
"                        every generator, then every trace there);\n"
"                        'generators' and 'traces' expand to all of them\n"
"  -e, --engines LIST    comma-separated engine names (default: all); ratios\n"
"                        are against the first\n"
"  -r, --regime LIST     comma-separated: arena, growing, fixed; 'all' (the\n"
"                        default) or 'both' (growing and fixed)\n"
"  -R, --repeat N        timed runs per cell, the median reported with its\n"
"                        range (default 5; fewer for workloads of over 400K\n"
"                        events, so that each cell replays about 2M)\n"
"  -j, --jobs N          cells replayed at once, one thread each (default:\n"
"                        the processors online, at most 64); -j 1 for times\n"
"                        that no other replay disturbs\n"
"  -s, --seed N          generator seed (default 1)\n"
"  -n, --ops N           events per generated workload (default 100000)\n"
"  -l, --live SIZE       live bytes the generators steer to (default 2M)\n"
"  -c, --chunk SIZE      growing regime: chunk obtained per get_new_chunk call,\n"
"                        a power of two, at most 4M (default 256K); larger\n"
"                        requests are skipped for every engine alike\n"
"  -C, --capacity SIZE   fixed regime: the pool's size (default: per workload,\n"
"                        the largest power of two <= its peak live, >= 64K, so\n"
"                        that every workload overflows it); the buddy gets it\n"
"                        as chunks of the largest power of two <= min(SIZE,\n"
"                        4M), SIZE rounded down to a multiple of that; the\n"
"                        modern engine gets it as one range\n"
"  -t, --traces DIR      where committed traces are (default bench/traces)\n"
"  -o, --out DIR         where CSV, plots and index.html go (default\n"
"                        build/compare)\n"
"  -S, --samples N       snapshots per run for the time series (default 200)\n"
"  -P, --no-plots        do not run gnuplot (the script is still written)\n"
"  -L, --list            list the engines and generators, then exit\n"
"  -D, --dump NAME       write generator NAME's workload as a trace on stdout\n"
"  -q, --quiet           no table on stdout\n"
"  -h, --help            this text\n"
"\n"
"SIZE takes K, M and G suffixes (binary).  Trace format: see bench/README or\n"
"bench/workload.h: one event a line, \"a ID SIZE\" or \"f ID\"; '#' comments;\n"
"a name ending in .gz is read through gzip -dc.\n");
}

static void list(void)
{
	const struct bench_engine *e[BENCH_MAX_ENGINES];
	size_t i, n = bench_engine_list(e, BENCH_MAX_ENGINES);
	const struct bench_generator *g;

	if (n > BENCH_MAX_ENGINES)
		n = BENCH_MAX_ENGINES;
	printf("Engines:\n");
	for (i = 0; i < n; i++)
		printf("  %-8s %s\n", e[i]->name, e[i]->descr);
	g = bench_generators(&n);
	printf("Generators:\n");
	for (i = 0; i < n; i++)
		printf("  %-11s %s\n", g[i].name, g[i].descr);
}

static int parse_size_opt(const char *arg, const char *what, size_t *out)
{
	if (bench_parse_size(arg, out) || !*out) {
		fprintf(stderr, "genalloc-compare: bad %s '%s'\n", what, arg);
		return -1;
	}
	return 0;
}

static int dump(const struct options *o, const char *name)
{
	const struct bench_generator *g = bench_generator_find(name);
	struct bench_workload w;
	int rc;

	if (!g) {
		fprintf(stderr, "genalloc-compare: no generator '%s'\n", name);
		return 2;
	}
	bench_workload_generate(&w, g, &o->gen);
	rc = bench_workload_write(&w, "-");
	bench_workload_release(&w);
	return rc ? 1 : 0;
}

static int parse_regimes(const char *arg, int *on)
{
	static const char *const name[BENCH_NR_REGIMES] = { "growing", "fixed", "arena" };
	char buf[128], *tok, *save = NULL;
	int r;

	memset(on, 0, BENCH_NR_REGIMES * sizeof(*on));
	snprintf(buf, sizeof(buf), "%s", arg);
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		int found = !strcmp(tok, "all") || !strcmp(tok, "both");

		for (r = 0; r < BENCH_NR_REGIMES; r++) {
			if (!strcmp(tok, name[r]) || !strcmp(tok, "all") ||
			    (!strcmp(tok, "both") && r != BENCH_ARENA)) {
				on[r] = 1;
				found = 1;
			}
		}
		if (!found) {
			fprintf(stderr, "genalloc-compare: no regime '%s' (arena, growing, fixed, all)\n",
				tok);
			return -1;
		}
	}
	return 0;
}

static int parse(int argc, char **argv, struct options *o)
{
	static const struct option longopts[] = {
		{ "workloads", required_argument, NULL, 'w' },
		{ "engines", required_argument, NULL, 'e' },
		{ "regime", required_argument, NULL, 'r' },
		{ "repeat", required_argument, NULL, 'R' },
		{ "jobs", required_argument, NULL, 'j' },
		{ "seed", required_argument, NULL, 's' },
		{ "ops", required_argument, NULL, 'n' },
		{ "live", required_argument, NULL, 'l' },
		{ "chunk", required_argument, NULL, 'c' },
		{ "capacity", required_argument, NULL, 'C' },
		{ "traces", required_argument, NULL, 't' },
		{ "out", required_argument, NULL, 'o' },
		{ "samples", required_argument, NULL, 'S' },
		{ "no-plots", no_argument, NULL, 'P' },
		{ "list", no_argument, NULL, 'L' },
		{ "dump", required_argument, NULL, 'D' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c;
	size_t v;

	while ((c = getopt_long(argc, argv, "w:e:r:R:j:s:n:l:c:C:t:o:S:PLD:qh", longopts, NULL)) != -1) {
		switch (c) {
		case 'w': o->workloads = optarg; break;
		case 'e': o->engines = optarg; break;
		case 'r':
			if (parse_regimes(optarg, o->regime))
				return -1;
			break;
		case 'R':
			if (bench_parse_count(optarg, 1, 1000, &o->repeat)) {
				fprintf(stderr, "genalloc-compare: --repeat takes 1 to 1000\n");
				return -1;
			}
			break;
		case 'j':
			if (bench_parse_count(optarg, 1, 64, &o->jobs)) {
				fprintf(stderr, "genalloc-compare: --jobs takes 1 to 64\n");
				return -1;
			}
			break;
		case 's':
			if (bench_parse_size(optarg, &v))
				return -1;
			o->gen.seed = v ? v : 1;
			break;
		case 'n':
			if (parse_size_opt(optarg, "--ops", &o->gen.ops))
				return -1;
			break;
		case 'l':
			if (parse_size_opt(optarg, "--live", &o->gen.target_live))
				return -1;
			break;
		case 'c':
			if (parse_size_opt(optarg, "--chunk", &o->chunk))
				return -1;
			if (!bench_is_pow2(o->chunk) || o->chunk > MAX_CHUNK || o->chunk < 32) {
				fprintf(stderr, "genalloc-compare: --chunk must be a power of two in [32, 4M]\n");
				return -1;
			}
			break;
		case 'C':
			if (parse_size_opt(optarg, "--capacity", &o->capacity))
				return -1;
			break;
		case 't': o->traces = optarg; break;
		case 'o': o->out = optarg; break;
		case 'S':
			if (parse_size_opt(optarg, "--samples", &o->samples))
				return -1;
			break;
		case 'P': o->plots = 0; break;
		case 'q': o->quiet = 1; break;
		case 'L': list(); exit(0);
		case 'D': exit(dump(o, optarg));
		case 'h': usage(stdout); exit(0);
		default: usage(stderr); return -1;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "genalloc-compare: unexpected argument '%s'\n", argv[optind]);
		return -1;
	}
	return 0;
}

static struct bench_workload *add_workload(struct bench_study *s)
{
	struct bench_workload *w = realloc(s->w, (s->nw + 1) * sizeof(*w));

	if (!w)
		abort();
	s->w = w;
	return &s->w[s->nw++];
}

static void add_generators(struct bench_study *s, const struct options *o)
{
	size_t i, n;
	const struct bench_generator *g = bench_generators(&n);

	for (i = 0; i < n; i++)
		bench_workload_generate(add_workload(s), &g[i], &o->gen);
}

/*
 * Workload names become file names, gnuplot titles and HTML: anything but
 * letters, digits, '-', '_' and '.' becomes '_', and a name already taken
 * (cc1 and /x/cc1.trace) gets "-2", "-3"...
 */
static void name_uniquely(struct bench_study *s, size_t wi)
{
	struct bench_workload *w = &s->w[wi];
	char base[sizeof(w->name)];
	unsigned int k = 2;
	size_t i;
	char *c;

	for (c = w->name; *c; c++)
		if (!isalnum((unsigned char)*c) && !strchr("-_.", *c))
			*c = '_';
	snprintf(base, sizeof(base), "%s", w->name);
	for (i = 0; i < wi; i++) {
		if (strcmp(s->w[i].name, w->name))
			continue;
		snprintf(w->name, sizeof(w->name), "%.50s-%u", base, k++);
		i = (size_t)-1;	/* check the new name against all of them */
	}
}

/* A trace that cannot be read is reported and left out; the rest still run. */
static void add_trace(struct bench_study *s, const char *path)
{
	struct bench_workload w;
	char err[512];
	double t0 = bench_now();

	if (bench_workload_read(&w, path, err, sizeof(err))) {
		fprintf(stderr, "genalloc-compare: refused %s\n", err);
		s->refused++;
		return;
	}
	if (w.dropped || w.reused)
		fprintf(stderr, "genalloc-compare: %s: %zu frees of unknown blocks dropped, "
				"%zu live ids reused\n", path, w.dropped, w.reused);
	if (w.nr >= BIG_WORKLOAD)
		fprintf(stderr, "genalloc-compare: %s: %zu events read in %.1f s\n",
			path, w.nr, bench_now() - t0);
	*add_workload(s) = w;
}

static void add_traces(struct bench_study *s, const struct options *o)
{
	char pat[4096];
	glob_t gl;
	size_t i;

	snprintf(pat, sizeof(pat), "%s/*.trace*", o->traces);
	if (glob(pat, 0, NULL, &gl))
		return;	/* no traces: nothing to add */
	for (i = 0; i < gl.gl_pathc; i++)
		add_trace(s, gl.gl_pathv[i]);
	globfree(&gl);
}

/* "sqlite" names bench/traces/sqlite.trace.gz when no such file exists. */
static const char *committed_trace(const struct options *o, const char *name,
				   char *buf, size_t n)
{
	static const char *const suffix[] = { ".trace.gz", ".trace" };
	size_t i;

	if (!access(name, R_OK))
		return name;
	for (i = 0; i < 2; i++) {
		snprintf(buf, n, "%s/%s%s", o->traces, name, suffix[i]);
		if (!access(buf, R_OK))
			return buf;
	}
	return name;
}

static int choose_workloads(struct bench_study *s, struct options *o)
{
	char *tok, *save = NULL;
	char path[4096];

	if (!o->workloads) {
		add_generators(s, o);
		add_traces(s, o);
		return s->nw ? 0 : -1;
	}
	for (tok = strtok_r(o->workloads, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		const struct bench_generator *g = bench_generator_find(tok);

		if (!strcmp(tok, "generators"))
			add_generators(s, o);
		else if (!strcmp(tok, "traces"))
			add_traces(s, o);
		else if (g)
			bench_workload_generate(add_workload(s), g, &o->gen);
		else
			add_trace(s, committed_trace(o, tok, path, sizeof(path)));
	}
	return s->nw ? 0 : -1;
}

static int choose_engines(struct bench_study *s, struct options *o)
{
	const struct bench_engine *all[BENCH_MAX_ENGINES];
	size_t n = bench_engine_list(all, BENCH_MAX_ENGINES);
	char *tok, *save = NULL;

	if (n > BENCH_MAX_ENGINES)
		n = BENCH_MAX_ENGINES;
	s->e = calloc(n ? n : 1, sizeof(*s->e));
	if (!s->e)
		abort();
	if (!o->engines) {
		memcpy(s->e, all, n * sizeof(*s->e));
		s->ne = n;
		return n ? 0 : -1;
	}
	for (tok = strtok_r(o->engines, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		const struct bench_engine *e = bench_engine_find(tok);

		if (!e) {
			fprintf(stderr, "genalloc-compare: no engine '%s' (see --list)\n", tok);
			return -1;
		}
		if (s->ne < n)
			s->e[s->ne++] = e;
	}
	return s->ne ? 0 : -1;
}

/* The conditions of one workload under one regime, the same for every engine. */
static struct bench_pool_config config_for(const struct options *o,
					   const struct bench_workload *w,
					   enum bench_regime r)
{
	struct bench_pool_config cfg = { .regime = r, .fake = 1 };
	size_t cap;

	if (r == BENCH_GROWING) {
		cfg.chunk_size = o->chunk;
		cfg.capacity = GROWING_LIMIT;
		return cfg;
	}
	if (r == BENCH_ARENA) {
		/* Twice the peak and two chunks: no engine here came near it. */
		cfg.chunk_size = MAX_CHUNK;
		cap = 2 * bench_workload_peak_live_upto(w, MAX_CHUNK) + 2 * MAX_CHUNK;
		cfg.capacity = (cap + MAX_CHUNK - 1) / MAX_CHUNK * MAX_CHUNK;
		return cfg;
	}
	if (o->capacity) {
		cap = o->capacity < MIN_CAPACITY ? MIN_CAPACITY : o->capacity;
	} else {
		/*
		 * From the peak of the requests the pool can take: one above
		 * the chunk is skipped, and counting it would leave a pool
		 * that never fills.  A smaller pool skips more, so go on
		 * until the size no longer moves.
		 */
		size_t next = bench_workload_peak_live_upto(w, MAX_CHUNK);

		do {
			cap = bench_floor_pow2(next);
			if (cap < MIN_CAPACITY)
				cap = MIN_CAPACITY;
			next = bench_workload_peak_live_upto(w, cap < MAX_CHUNK ? cap : MAX_CHUNK);
		} while (bench_floor_pow2(next) < cap && next >= MIN_CAPACITY);
	}
	cfg.chunk_size = bench_floor_pow2(cap < MAX_CHUNK ? cap : MAX_CHUNK);
	cfg.capacity = cap / cfg.chunk_size * cfg.chunk_size;
	return cfg;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* Median, least and most of @n values (sorted in place), in ns per call. */
static void spread(double *v, size_t n, size_t calls, struct bench_spread *out)
{
	memset(out, 0, sizeof(*out));
	if (!n || !calls)
		return;
	qsort(v, n, sizeof(*v), cmp_double);
	out->median = (n & 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2) * 1e9 / (double)calls;
	out->lo = v[0] * 1e9 / (double)calls;
	out->hi = v[n - 1] * 1e9 / (double)calls;
	out->runs = n;
}

/*
 * Timed replays, after the one that measured memory.  That one is a run of
 * its own when nothing was refused (its times are of successful calls
 * only); otherwise every run is a replay that times refusals apart.  Long
 * workloads get fewer replays: about REPLAY_BUDGET events a cell.
 */
static void time_cell(struct bench_cell *c, const struct bench_engine *e,
		      const struct bench_workload *w, size_t repeat)
{
	double ok[1001], fail[1001];
	size_t k, n = 0, extra = repeat;

	if (!c->m.failed) {
		ok[n] = c->m.seconds;
		fail[n++] = 0;
		extra--;
	}
	if (w->nr * extra > REPLAY_BUDGET)
		extra = REPLAY_BUDGET / (w->nr ? w->nr : 1);
	if (!n && !extra)
		extra = 1;
	for (k = 0; k < extra; k++)
		if (!bench_replay_time(e, &c->cfg, w, &c->m, &ok[n], &fail[n]))
			n++;
	spread(ok, n, c->m.allocs + c->m.frees, &c->ok_ns);
	spread(fail, n, c->m.failed, &c->fail_ns);
}

static void run_cell(struct bench_cell *c, const struct bench_engine *e,
		     const struct bench_workload *w, struct bench_pool_config cfg,
		     const struct options *o)
{
	for (;;) {
		c->ok = !bench_replay(e, &cfg, w, o->samples, &c->m);
		/* An arena is sized never to fill; if one did, double it. */
		if (!c->ok || cfg.regime != BENCH_ARENA || !c->m.failed || cfg.capacity > ARENA_MAX)
			break;
		bench_metrics_release(&c->m);
		cfg.capacity *= 2;
	}
	c->cfg = cfg;
	if (!c->ok) {
		fprintf(stderr, "genalloc-compare: %s: cannot create a pool\n", e->name);
		return;
	}
	time_cell(c, e, w, o->repeat);
}

/*
 * The cells are independent (a pool each), so --jobs threads take them in
 * turn, workload by workload; each cell is written by the thread that ran
 * it alone.
 */
struct runner {
	struct bench_study *s;
	const struct options *o;
	struct bench_pool_config *cfg;	/* per regime and workload */
	atomic_size_t next;
	pthread_mutex_t say;
	double t0;
};

static void *run_cells(void *arg)
{
	static const char *const name[BENCH_NR_REGIMES] = { "growing", "fixed", "arena" };
	struct runner *ru = arg;
	struct bench_study *s = ru->s;
	size_t per_w = BENCH_NR_REGIMES * s->ne, i;

	while ((i = atomic_fetch_add(&ru->next, 1)) < s->nw * per_w) {
		size_t wi = i / per_w, r = i % per_w / s->ne, ei = i % s->ne;

		if (!s->run[r])
			continue;
		if (ei == 0 && s->w[wi].nr >= BIG_WORKLOAD) {
			pthread_mutex_lock(&ru->say);
			fprintf(stderr, "genalloc-compare: %5.1f s: %s (%zu/%zu), %zu events, %s "
				"regime, %zu engines\n", bench_now() - ru->t0, s->w[wi].name,
				wi + 1, s->nw, s->w[wi].nr, name[r], s->ne);
			pthread_mutex_unlock(&ru->say);
		}
		run_cell(bench_cell_at(s, (enum bench_regime)r, wi, ei), s->e[ei], &s->w[wi],
			 ru->cfg[r * s->nw + wi], ru->o);
	}
	return NULL;
}

static void run_all(struct bench_study *s, const struct options *o)
{
	struct runner ru = { .s = s, .o = o, .t0 = bench_now() };
	pthread_t tid[64];
	size_t wi, j, started = 0;
	int r;

	ru.cfg = calloc(BENCH_NR_REGIMES * s->nw, sizeof(*ru.cfg));
	if (!ru.cfg)
		abort();
	atomic_init(&ru.next, 0);
	pthread_mutex_init(&ru.say, NULL);
	for (r = 0; r < BENCH_NR_REGIMES; r++) {
		if (!s->run[r])
			continue;
		s->cell[r] = calloc(s->nw * s->ne, sizeof(*s->cell[r]));
		if (!s->cell[r])
			abort();
		for (wi = 0; wi < s->nw; wi++)
			ru.cfg[(size_t)r * s->nw + wi] = config_for(o, &s->w[wi], (enum bench_regime)r);
	}
	for (j = 1; j < o->jobs; j++)
		if (!pthread_create(&tid[started], NULL, run_cells, &ru))
			started++;
	run_cells(&ru);
	for (j = 0; j < started; j++)
		pthread_join(tid[j], NULL);
	pthread_mutex_destroy(&ru.say);
	free(ru.cfg);
}

static void release(struct bench_study *s)
{
	size_t i;
	int r;

	for (r = 0; r < BENCH_NR_REGIMES; r++) {
		for (i = 0; s->cell[r] && i < s->nw * s->ne; i++)
			bench_metrics_release(&s->cell[r][i].m);
		free(s->cell[r]);
	}
	for (i = 0; i < s->nw; i++)
		bench_workload_release(&s->w[i]);
	free(s->w);
	free(s->e);
}

int main(int argc, char **argv)
{
	struct options o = {
		.traces = "bench/traces",
		.out = "build/compare",
		.regime = { 1, 1, 1 },
		.repeat = 5,
		.gen = { .seed = 1, .ops = 100000, .target_live = 2 << 20, .max_size = 32768 },
		.chunk = 256 << 10,
		.samples = 200,
		.plots = 1,
	};
	struct bench_study s = { 0 };
	double t0 = bench_now();
	int rc = 0;
	char rerun[4096];
	size_t len = 0;

	/* Kept before the lists are tokenised in place. */
	rerun[0] = 0;
	for (int i = 0; i < argc && len < sizeof(rerun); i++)
		len += (size_t)snprintf(rerun + len, sizeof(rerun) - len, "%s%s",
					i ? " " : "", argv[i]);
	{
		long cpus = sysconf(_SC_NPROCESSORS_ONLN);

		o.jobs = cpus < 1 ? 1 : cpus > 64 ? 64 : (size_t)cpus;
	}
	if (parse(argc, argv, &o))
		return 2;
	if (o.gen.max_size > o.chunk)
		o.gen.max_size = o.chunk;
	if (choose_engines(&s, &o) || choose_workloads(&s, &o)) {
		fprintf(stderr, "genalloc-compare: nothing to compare\n");
		release(&s);
		return 2;
	}
	for (size_t wi = 0; wi < s.nw; wi++)
		name_uniquely(&s, wi);
	memcpy(s.run, o.regime, sizeof(s.run));
	s.repeat = o.repeat;
	s.jobs = o.jobs;
	run_all(&s, &o);
	if (!o.quiet)
		bench_report_table(stdout, &s);
	if (bench_report_files(&s, o.out, o.plots)) {
		perror("genalloc-compare: writing the report");
		rc = 1;
	}
	if (s.refused) {
		fprintf(stderr, "genalloc-compare: %zu trace%s refused (above); the others ran\n",
			s.refused, s.refused > 1 ? "s" : "");
		rc = 1;
	}
	printf("\n%zu workloads x %zu engines in %.1f s.\nCSV files and plots: %s/\n"
	       "Open %s/index.html for the tables and the plots.\nrerun: %s\n",
	       s.nw, s.ne, bench_now() - t0, o.out, o.out, rerun);
	release(&s);
	return rc;
}
