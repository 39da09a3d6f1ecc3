// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * bench/order_cost.c - genalloc-order-cost: what an allocation and a free
 * cost by the order of the request, on pools of several sizes.
 *
 * genalloc-speed gives one figure a workload; this splits it by the order
 * of the request (its granules rounded up to a power of two), to show
 * where the cost comes from: for order-aligned fit (the default), its
 * growth with the pool; for first fit (--algo first_fit), that the small
 * requests, which land in the fragmented front of the pool, cost most.
 * The workload is genalloc-speed's log-uniform one: requests of 16 B to
 * 64 KiB, 8-byte granules, the pool filled to half, then pairs of a free
 * of a random live block and a new allocation.  Each call is timed alone
 * with clock_gettime(); the timer's own cost, measured first, is taken
 * off.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "modern/genalloc.h"
#include "options.h"
#include "replay.h"
#include "workload.h"

#define ORDER 3			/* 8-byte granules */
#define LO 16
#define HI 65536
#define NORDERS 14		/* up to 2^13 granules: 64 KiB */
#define MAX_POOLS 8
#define BASE 0x100000000000UL	/* the managed range: never touched */

struct live {
	unsigned long addr;
	size_t size;
};

/* The algorithms it can split, by their names on the command line. */
static const struct {
	const char *name;
	const char *kernel_name;
	genpool_algo_t algo;
} algos[] = {
	{ "order_align", "gen_pool_first_fit_order_align", gen_pool_first_fit_order_align },
	{ "first_fit", "gen_pool_first_fit", gen_pool_first_fit },
	{ "best_fit", "gen_pool_best_fit", gen_pool_best_fit },
};

/* The calls timed, each split by the order of its block. */
enum call { ALLOC, FREE, NCALLS };

/* What one pool size gives a call: mean ns per order, and counts. */
struct call_cost {
	double ns[NORDERS];
	long count[NORDERS];
};

static double now_ns(void)
{
	return bench_now() * 1e9;
}

/* The order of a request: granules rounded up to a power of two. */
static unsigned int order_of(size_t size)
{
	size_t g = (size + (1U << ORDER) - 1) >> ORDER;
	unsigned int k = 0;

	while (((size_t)1 << k) < g)
		k++;
	return k;
}

static double timer_cost(void)
{
	double t0 = now_ns(), t1 = t0;
	int i;

	for (i = 0; i < 100000; i++)
		t1 = now_ns();
	return (t1 - t0) / 100000;
}

/* Give back the @nr blocks of @set and the pool. */
static void release(struct gen_pool *pool, struct live *set, size_t nr)
{
	size_t k;

	for (k = 0; k < nr; k++)
		if (set[k].addr)
			gen_pool_free(pool, set[k].addr, set[k].size);
	free(set);
	gen_pool_destroy(pool);
}

/* Mean ns per allocation and per free of each order on a pool of @bytes. */
static int run(size_t bytes, genpool_algo_t algo, size_t pairs, uint64_t seed, double overhead,
	       struct call_cost c[NCALLS])
{
	struct gen_pool *pool = gen_pool_create(ORDER, -1);
	struct live *set = NULL;
	size_t nr = 0, cap = 0, granted = 0, k;
	double sum[NCALLS][NORDERS] = { { 0 } };
	uint64_t s = seed;
	size_t i, n;

	if (!pool)
		return -1;
	if (gen_pool_add(pool, BASE, bytes, -1)) {
		gen_pool_destroy(pool);
		return -1;
	}
	gen_pool_set_algo(pool, algo, NULL);
	while (granted < bytes / 2) {
		size_t size = bench_draw_log_uniform(&s, LO, HI);
		unsigned long a = gen_pool_alloc(pool, size);

		if (!a)
			break;
		if (nr == cap) {
			struct live *grown;

			cap = cap ? 2 * cap : 4096;
			grown = realloc(set, cap * sizeof(*set));
			if (!grown) {
				gen_pool_free(pool, a, size);
				release(pool, set, nr);
				return -1;
			}
			set = grown;
		}
		set[nr++] = (struct live){ a, size };
		granted += size;
	}
	memset(c, 0, NCALLS * sizeof(*c));
	for (i = 0; i < pairs && nr; i++) {
		struct live *b = &set[bench_rng_below(&s, nr)];
		unsigned int o;
		double t0, t1;

		if (b->addr) {
			o = order_of(b->size);
			t0 = now_ns();
			gen_pool_free(pool, b->addr, b->size);
			t1 = now_ns();
			sum[FREE][o] += t1 - t0 - overhead;
			c[FREE].count[o]++;
		}
		b->size = bench_draw_log_uniform(&s, LO, HI);
		o = order_of(b->size);
		t0 = now_ns();
		b->addr = gen_pool_alloc(pool, b->size);
		t1 = now_ns();
		sum[ALLOC][o] += t1 - t0 - overhead;
		c[ALLOC].count[o]++;
	}
	for (n = 0; n < NCALLS; n++)
		for (k = 0; k < NORDERS; k++)
			c[n].ns[k] = c[n].count[k] ? sum[n][k] / (double)c[n].count[k] : 0;
	release(pool, set, nr);
	return 0;
}

/* "1M,64M,1G" into @pools; the number of pools, or 0 if any is bad. */
static size_t parse_pools(const char *arg, size_t *pools)
{
	char buf[64], *tok, *save = NULL;
	size_t np = 0;

	if (strlen(arg) >= sizeof(buf))
		return 0;
	strcpy(buf, arg);
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save))
		if (np == MAX_POOLS || bench_parse_size(tok, &pools[np++]) || !pools[np - 1])
			return 0;
	return np;
}

static void print_size(size_t v)
{
	if (v >= (1UL << 30) && !(v % (1UL << 30)))
		printf(" %9zuG", v >> 30);
	else if (v >= (1UL << 20) && !(v % (1UL << 20)))
		printf(" %9zuM", v >> 20);
	else
		printf(" %9zuK", v >> 10);
}

static void usage(void)
{
	fprintf(stderr, "usage: genalloc-order-cost [--algo order_align|first_fit|best_fit] "
			"[--pools 1M,64M,1G] [--pairs N] [--seed S]\n");
	exit(2);
}

/* One table: a row per order, a column per pool, mean ns per @call. */
static void print_table(const char *what, const size_t *pools, size_t np,
			struct call_cost (*c)[NCALLS], enum call call)
{
	size_t p, k;
	double first, last;

	printf("  %-17s", what);
	for (p = 0; p < np; p++)
		print_size(pools[p]);
	printf("  last/first\n");
	for (k = 0; k < NORDERS; k++) {
		if (!c[0][call].count[k])
			continue;
		printf("  %2zu (%5zu..%-5zu)", k, k ? ((size_t)1 << (k - 1)) + 1 : 1, (size_t)1 << k);
		for (p = 0; p < np; p++)
			printf(" %10.0f", c[p][call].ns[k]);
		first = c[0][call].ns[k];
		last = c[np - 1][call].ns[k];
		printf("  %9.1f\n", first > 0 ? last / first : 0);
	}
}

int main(int argc, char **argv)
{
	const char *pools_arg = "1M,64M,1G";
	size_t pools[MAX_POOLS], np = 0, p, a = 0;
	struct call_cost costs[MAX_POOLS][NCALLS];
	size_t pairs = 200000, seed = 88172645463325252ULL;
	double overhead;
	bool ok;
	int i;

	for (i = 1; i < argc; i++) {
		ok = true;
		if (!strcmp(argv[i], "--pools") && i + 1 < argc) {
			pools_arg = argv[++i];
		} else if (!strcmp(argv[i], "--algo") && i + 1 < argc) {
			for (a = 0; a < sizeof(algos) / sizeof(algos[0]); a++)
				if (!strcmp(argv[i + 1], algos[a].name))
					break;
			ok = a < sizeof(algos) / sizeof(algos[0]);
			i++;
		} else if (!strcmp(argv[i], "--pairs") && i + 1 < argc) {
			ok = !bench_parse_count(argv[++i], 1, (size_t)1 << 40, &pairs);
		} else if (!strcmp(argv[i], "--seed") && i + 1 < argc) {
			ok = !bench_parse_count(argv[++i], 1, SIZE_MAX, &seed);
		} else {
			ok = false;
		}
		if (!ok)
			usage();
	}
	np = parse_pools(pools_arg, pools);
	if (!np)
		usage();
	overhead = timer_cost();
	printf("ORDER COST: %s, 8-byte granules, log-uniform %d B..%d KiB, 50%% full;\n"
	       "  mean ns per call by the request's order (granules rounded up to 2^k),\n"
	       "  timer's %.0f ns taken off\n",
	       algos[a].kernel_name, LO, HI >> 10, overhead);
	for (p = 0; p < np; p++)
		if (run(pools[p], algos[a].algo, pairs, seed, overhead, costs[p])) {
			fprintf(stderr, "genalloc-order-cost: cannot run a pool of %zu bytes\n", pools[p]);
			return 1;
		}
	print_table("alloc, by order", pools, np, costs, ALLOC);
	print_table("free, by order", pools, np, costs, FREE);
	printf("rerun: genalloc-order-cost --algo %s --pools %s --pairs %zu --seed %zu\n",
	       algos[a].name, pools_arg, pairs, seed);
	return 0;
}
