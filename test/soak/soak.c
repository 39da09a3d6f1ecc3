// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * test/soak/soak.c - genalloc-soak: random pools, indexed against the
 * kernel's linear search, for as long as it is given.
 *
 * The Check suites replay a few fixed configurations, and the fuzzers
 * explore chunks of at most 700 granules.  This draws new pools of the
 * kind users build, round after round: up to eight chunks of up to a
 * million granules at odd bases, filled with up to 150,000 blocks, then
 * churned with one algorithm or all of them.
 * Each round draws its configuration from (seed, round) and runs
 * it on two pools given the same calls: one in indexed mode, one in the
 * lock-free mode (gen_pool_set_lockless()), whose built-in algorithms are
 * the kernel's linear bitmap searches.  Every address must agree; both
 * pools' checkers and free counts are compared every 1000 calls and at
 * the end of a round.  A disagreement prints the round's configuration
 * and the command that replays it, and the exit status is 1.
 *
 *   genalloc-soak [--seconds N] [--seed S] [--round R] [--rounds N]
 *   genalloc-soak --check       twenty short rounds, for make check
 *
 * Rounds are independent: round R of seed S is the same pool and the same
 * calls on every machine.  --seconds stops after the round running when
 * the time is up.
 */
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "modern/genalloc.h"

#define MAX_CHUNKS 8
#define BASE 0x100000000UL

enum soak_algo { FIRST, ALIGN, ORDER, BEST, FIXED, MIXED, NR_ALGOS = MIXED };

static const char *const algo_names[] = {
	"first_fit", "first_fit_align", "first_fit_order_align", "best_fit",
	"fixed_alloc", "mixed",
};

/* How request sizes are drawn. */
enum soak_sizes { TINY, POW2ISH, HUGE, MOSTLY_64, LOG_UNIFORM, NR_SIZES };

static const char *const size_names[] = {
	"1-8 granules", "2^k + up to 2^k bytes", "up to 1/8 of the pool",
	"64 B, a quarter up to 70000 B", "up to 1 MiB, spread over the log",
};

/* One round: the pool it builds and what it asks of it. */
struct soak_config {
	int order;
	int nchunks;
	unsigned long start[MAX_CHUNKS];
	unsigned long granules[MAX_CHUNKS];
	unsigned long total;		/* granules over all chunks */
	enum soak_sizes sizes;
	enum soak_algo algo;		/* one algorithm throughout, or MIXED */
	int align;			/* first_fit_align's usual alignment */
	unsigned int fill;		/* percent in use to fill to, then hold */
	long steps;			/* churn after the fill */
	long fill_cap;			/* at most this many allocations to fill */
};

struct soak_block {
	unsigned long addr;
	size_t size;
};

struct soak_run {
	const struct soak_config *cfg;
	uint64_t rng;
	struct gen_pool *ix, *lin;
	struct soak_block *live;
	size_t nlive, cap;
	unsigned long seed, round;
	long call;			/* calls of the round so far */
};

static uint64_t rng_next(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

/* A value in [0, n); 0 for n == 0. */
static unsigned long below(uint64_t *s, unsigned long n)
{
	return n ? (unsigned long)(rng_next(s) % n) : 0;
}

static uint64_t round_state(unsigned long seed, unsigned long round)
{
	uint64_t s = seed * 0x9e3779b97f4a7c15ULL + round * 0x632be59bd9b4e019ULL + 1;
	int i;

	for (i = 0; i < 8; i++)
		rng_next(&s);
	return s;
}

/* Chunk sizes around the index's boundaries: words, blocks of 256, hint
 * blocks of 512, tree nodes of 2048, full-map words of 16384, a saturated
 * leaf's 65535, the hints' 2^20. */
static const unsigned long awkward[] = {
	1, 2, 63, 64, 65, 255, 256, 257, 511, 512, 513, 2047, 2048, 2049, 16383, 16385,
	65535, 65537, 262143, 262145, 524288, 524289, 1048575, 1048576, 1048577,
};

static unsigned long chunk_granules(uint64_t *s, bool small)
{
	switch (below(s, 4)) {
	case 0:
		return awkward[below(s, sizeof(awkward) / sizeof(awkward[0]))];
	case 1:
		return 1 + below(s, 5000);
	case 2:
		return 1 + below(s, small ? 20000 : 200000);
	default:
		return small ? 1 + below(s, 60000) : 524288 + below(s, 600000);
	}
}

/*
 * Draw round @round's configuration.  @small keeps the pools and rounds
 * short (make check, and under valgrind).
 */
static void draw_config(struct soak_config *c, uint64_t *s, bool small)
{
	const unsigned long max_total = small ? 120000 : 3000000;
	unsigned long base = BASE, g;
	int i;

	memset(c, 0, sizeof(*c));
	c->order = (int)below(s, 7);
	g = 1UL << c->order;
	c->nchunks = 1 + (int)below(s, below(s, 4) ? 3 : MAX_CHUNKS);
	for (i = 0; i < c->nchunks; i++) {
		unsigned long n = chunk_granules(s, small);

		if (c->total + n > max_total)
			n = 1 + below(s, 4096);
		/* On the granule grid but off the page, off every grid, or on a MiB. */
		switch (below(s, 3)) {
		case 0:
			c->start[i] = base + (below(s, 1UL << 16) & ~(g - 1));
			break;
		case 1:
			c->start[i] = base + below(s, 1UL << 14);
			break;
		default:
			c->start[i] = base;
			break;
		}
		c->granules[i] = n;
		c->total += n;
		base = (c->start[i] + (n << c->order) + (1UL << 24)) & ~((1UL << 20) - 1);
	}
	c->sizes = (enum soak_sizes)below(s, NR_SIZES);
	c->algo = (enum soak_algo)below(s, NR_ALGOS + 1);
	c->align = 1 << below(s, 17);
	c->fill = 40 + (unsigned int)below(s, 59);
	c->steps = (small ? 500 : 3000) + (long)below(s, small ? 1500 : 20000);
	c->fill_cap = small ? 20000 : 150000;
}

static size_t draw_size(const struct soak_config *c, uint64_t *s)
{
	unsigned long e;

	switch (c->sizes) {
	case TINY:
		return (1 + below(s, 8)) << c->order;
	case POW2ISH:
		e = 4 + below(s, 13);
		return (1UL << e) + below(s, 1UL << e);
	case HUGE:
		return 1 + below(s, 1 + below(s, (c->total << c->order) / 8 + 1));
	case MOSTLY_64:
		return below(s, 4) ? 64 : 1 + below(s, 70000);
	default:
		e = below(s, 21);
		return 1 + below(s, 1UL << e);
	}
}

static void print_config(const struct soak_config *c)
{
	int i;

	fprintf(stderr, "  granule %lu B, %d chunk(s):", 1UL << c->order, c->nchunks);
	for (i = 0; i < c->nchunks; i++)
		fprintf(stderr, " %lu@%#lx", c->granules[i], c->start[i]);
	fprintf(stderr, "\n  sizes %s, algorithm %s (align %d), fill %u%%, %ld steps\n",
		size_names[c->sizes], algo_names[c->algo], c->align, c->fill, c->steps);
}

/* Report a broken promise with what replays it; the caller exits 1. */
static bool fail(const struct soak_run *r, const char *what)
{
	fprintf(stderr, "genalloc-soak: seed %lu round %lu call %ld: %s\n", r->seed, r->round,
		r->call, what);
	print_config(r->cfg);
	fprintf(stderr, "  replay: genalloc-soak --seed %lu --round %lu --rounds 1\n", r->seed,
		r->round);
	return false;
}

static bool pools_agree(struct soak_run *r)
{
	if (gen_pool_check(r->ix) || gen_pool_check(r->lin))
		return fail(r, "gen_pool_check() failed");
	if (gen_pool_avail(r->ix) != gen_pool_avail(r->lin))
		return fail(r, "the pools' free bytes differ");
	return true;
}

static size_t in_use(struct gen_pool *pool)
{
	return gen_pool_size(pool) - gen_pool_avail(pool);
}

/* The same request of both pools; false on a disagreement. */
static bool alloc_both(struct soak_run *r, bool filling)
{
	const struct soak_config *c = r->cfg;
	struct genpool_data_align al;
	struct genpool_data_fixed fx;
	genpool_algo_t algo = gen_pool_first_fit;
	enum soak_algo k = c->algo;
	size_t size = draw_size(c, &r->rng);
	unsigned long a, b;
	void *data = NULL;
	char msg[160];

	if (k == MIXED)
		k = (enum soak_algo)below(&r->rng, NR_ALGOS);
	/* A fixed offset rarely fits: fill with first fit meanwhile. */
	if (filling && k == FIXED)
		k = FIRST;
	switch (k) {
	case ALIGN:
		al.align = below(&r->rng, 3) ? c->align : 1 << below(&r->rng, 17);
		algo = gen_pool_first_fit_align;
		data = &al;
		break;
	case ORDER:
		algo = gen_pool_first_fit_order_align;
		break;
	case BEST:
		algo = gen_pool_best_fit;
		break;
	case FIXED:
		fx.offset = (below(&r->rng, 2) ? below(&r->rng, c->total)
					       : below(&r->rng, 512)) << c->order;
		algo = gen_pool_fixed_alloc;
		data = &fx;
		break;
	default:
		break;
	}
	a = gen_pool_alloc_algo(r->ix, size, algo, data);
	b = gen_pool_alloc_algo(r->lin, size, algo, data);
	if (a != b) {
		snprintf(msg, sizeof(msg), "%s of %zu bytes: indexed %#lx, linear %#lx",
			 algo_names[k], size, a, b);
		return fail(r, msg);
	}
	if (a)
		r->live[r->nlive++] = (struct soak_block){ a, size };
	return true;
}

static void free_both(struct soak_run *r, size_t i)
{
	gen_pool_free(r->ix, r->live[i].addr, r->live[i].size);
	gen_pool_free(r->lin, r->live[i].addr, r->live[i].size);
	r->live[i] = r->live[--r->nlive];
}

/* Fill to the configured share, then alloc below it and free above it. */
static bool churn(struct soak_run *r)
{
	const struct soak_config *c = r->cfg;
	size_t target = (size_t)(c->total << c->order) / 100 * c->fill;
	long filled = 0, steps = 0;
	bool filling = true;

	for (r->call = 0; steps < c->steps; r->call++) {
		bool below_target = in_use(r->ix) < target, grow;

		if (filling && (!below_target || filled >= c->fill_cap || r->nlive == r->cap))
			filling = false;
		if (filling)
			filled++;
		else
			steps++;
		grow = r->nlive == 0 || filling ||
		       (below_target ? below(&r->rng, 10) < 7 : below(&r->rng, 10) < 3);
		if (grow && r->nlive < r->cap) {
			if (!alloc_both(r, filling))
				return false;
		} else if (r->nlive) {
			free_both(r, below(&r->rng, r->nlive));
		}
		if (r->call % 1000 == 0 && !pools_agree(r))
			return false;
	}
	return pools_agree(r);
}

static bool add_chunks(struct soak_run *r)
{
	const struct soak_config *c = r->cfg;
	int i;

	for (i = 0; i < c->nchunks; i++) {
		size_t bytes = c->granules[i] << c->order;

		if (gen_pool_add(r->ix, c->start[i], bytes, -1) ||
		    gen_pool_add(r->lin, c->start[i], bytes, -1))
			return fail(r, "gen_pool_add() failed");
	}
	return true;
}

static bool drain(struct soak_run *r)
{
	while (r->nlive)
		free_both(r, r->nlive - 1);
	if (gen_pool_avail(r->ix) != gen_pool_size(r->ix))
		return fail(r, "the drained pool is not all free");
	return true;
}

/* One round: build both pools, run them, give everything back. */
static bool run_round(unsigned long seed, unsigned long round, bool small, bool verbose)
{
	struct soak_config cfg;
	struct soak_run r = { .cfg = &cfg, .seed = seed, .round = round };
	bool ok;

	r.rng = round_state(seed, round);
	draw_config(&cfg, &r.rng, small);
	if (verbose) {
		fprintf(stderr, "seed %lu round %lu\n", seed, round);
		print_config(&cfg);
	}
	r.cap = (size_t)cfg.fill_cap;
	r.live = malloc(r.cap * sizeof(*r.live));
	r.ix = gen_pool_create(cfg.order, -1);
	r.lin = gen_pool_create(cfg.order, -1);
	ok = r.live && r.ix && r.lin;
	if (!ok) {
		fprintf(stderr, "genalloc-soak: out of memory\n");
	} else {
		gen_pool_set_lockless(r.lin, true);
		ok = add_chunks(&r) && churn(&r) && drain(&r);
	}
	/* Pools that disagree may still hold blocks, which destroying them
	 * would report as a bug of its own: the process exits 1 anyway. */
	if (r.nlive)
		return false;
	if (r.ix)
		gen_pool_destroy(r.ix);
	if (r.lin)
		gen_pool_destroy(r.lin);
	free(r.live);
	return ok;
}

static void usage(FILE *f)
{
	fputs("Usage: genalloc-soak [OPTION]...\n"
	      "Random pools run on the indexed engine and on the kernel's linear\n"
	      "search with the same calls; every address must agree.\n\n"
	      "  --seconds N   stop after the round running at N seconds (default 60)\n"
	      "  --seed S      the seed of the rounds (default 1)\n"
	      "  --round R     the first round (default 0)\n"
	      "  --rounds N    stop after N rounds (default: no limit)\n"
	      "  --small       small pools and short rounds\n"
	      "  --verbose     print each round's configuration\n"
	      "  --check       twenty short rounds of seed 1 (make check; three\n"
	      "                under valgrind)\n"
	      "  --help        this text\n", f);
}

static bool parse_ulong(const char *s, unsigned long *v)
{
	char *end;

	errno = 0;
	*v = strtoul(s, &end, 0);
	return s[0] != '-' && *s && !*end && errno == 0;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	unsigned long seconds = 60, seed = 1, round = 0, rounds = ULONG_MAX, done = 0, *arg;
	bool small = false, verbose = false, check = false;
	double start = now();
	int i;

	for (i = 1; i < argc; i++) {
		arg = NULL;
		if (!strcmp(argv[i], "--seconds"))
			arg = &seconds;
		else if (!strcmp(argv[i], "--seed"))
			arg = &seed;
		else if (!strcmp(argv[i], "--round"))
			arg = &round;
		else if (!strcmp(argv[i], "--rounds"))
			arg = &rounds;
		else if (!strcmp(argv[i], "--small"))
			small = true;
		else if (!strcmp(argv[i], "--verbose"))
			verbose = true;
		else if (!strcmp(argv[i], "--check"))
			check = true;
		else if (!strcmp(argv[i], "--help")) {
			usage(stdout);
			return 0;
		} else {
			usage(stderr);
			return 2;
		}
		if (arg && (++i == argc || !parse_ulong(argv[i], arg))) {
			usage(stderr);
			return 2;
		}
	}
	/* Valgrind runs a round some fifty times slower. */
	if (getenv("GENALLOC_UNDER_VALGRIND"))
		small = true;
	if (check) {
		small = true;
		rounds = getenv("GENALLOC_UNDER_VALGRIND") ? 3 : 20;
		seconds = ULONG_MAX;
	}
	for (; done < rounds && now() - start < (double)seconds; done++, round++)
		if (!run_round(seed, round, small, verbose))
			return 1;
	printf("genalloc-soak: seed %lu, %lu round(s) from %lu agreed (%.0f s)\n", seed, done,
	       round - done, now() - start);
	return 0;
}
