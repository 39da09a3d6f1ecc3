// SPDX-License-Identifier: GPL-2.0
/*
 * bench/order_cost.c - genalloc-order-cost: what an order-aligned
 * allocation costs by its order, on pools of several sizes.
 *
 * genalloc-speed gives one figure a workload; this splits order-aligned
 * fit's (gen_pool_first_fit_order_align) by the order of the request, to
 * show where its growth with the pool comes from.  The workload is
 * genalloc-speed's log-uniform one: requests of 16 B to 64 KiB, 8-byte
 * granules, the pool filled to half, then pairs of a free of a random live
 * block and a new allocation.  Each allocation is timed alone with
 * clock_gettime(); the timer's own cost, measured first, is taken off.
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

/* Mean ns per allocation of each order on a pool of @bytes. */
static int run(size_t bytes, size_t pairs, uint64_t seed, double overhead, double *ns, long *count)
{
	struct gen_pool *pool = gen_pool_create(ORDER, -1);
	struct live *set = NULL;
	size_t nr = 0, cap = 0, granted = 0, k;
	double sum[NORDERS] = { 0 };
	uint64_t s = seed;
	size_t i;

	if (!pool || gen_pool_add(pool, BASE, bytes, -1))
		return -1;
	gen_pool_set_algo(pool, gen_pool_first_fit_order_align, NULL);
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
				free(set);
				return -1;
			}
			set = grown;
		}
		set[nr++] = (struct live){ a, size };
		granted += size;
	}
	memset(count, 0, NORDERS * sizeof(*count));
	for (i = 0; i < pairs && nr; i++) {
		struct live *b = &set[bench_rng_below(&s, nr)];
		unsigned int o;
		double t0, t1;

		if (b->addr)
			gen_pool_free(pool, b->addr, b->size);
		b->size = bench_draw_log_uniform(&s, LO, HI);
		o = order_of(b->size);
		t0 = now_ns();
		b->addr = gen_pool_alloc(pool, b->size);
		t1 = now_ns();
		sum[o] += t1 - t0 - overhead;
		count[o]++;
	}
	for (k = 0; k < NORDERS; k++)
		ns[k] = count[k] ? sum[k] / (double)count[k] : 0;
	for (k = 0; k < nr; k++)
		if (set[k].addr)
			gen_pool_free(pool, set[k].addr, set[k].size);
	free(set);
	gen_pool_destroy(pool);
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
	fprintf(stderr, "usage: genalloc-order-cost [--pools 1M,64M,1G] [--pairs N] [--seed S]\n");
	exit(2);
}

int main(int argc, char **argv)
{
	const char *pools_arg = "1M,64M,1G";
	size_t pools[MAX_POOLS], np = 0, p, k;
	double ns[MAX_POOLS][NORDERS], overhead;
	long count[MAX_POOLS][NORDERS];
	size_t pairs = 200000, seed = 88172645463325252ULL;
	bool ok;
	int i;

	for (i = 1; i < argc; i++) {
		ok = true;
		if (!strcmp(argv[i], "--pools") && i + 1 < argc)
			pools_arg = argv[++i];
		else if (!strcmp(argv[i], "--pairs") && i + 1 < argc)
			ok = !bench_parse_count(argv[++i], 1, (size_t)1 << 40, &pairs);
		else if (!strcmp(argv[i], "--seed") && i + 1 < argc)
			ok = !bench_parse_count(argv[++i], 1, SIZE_MAX, &seed);
		else
			ok = false;
		if (!ok)
			usage();
	}
	np = parse_pools(pools_arg, pools);
	if (!np)
		usage();
	overhead = timer_cost();
	printf("ORDER COST: gen_pool_first_fit_order_align, 8-byte granules, log-uniform "
	       "%d B..%d KiB, 50%% full;\n  mean ns per gen_pool_alloc() by order (granules "
	       "rounded up to 2^k), timer's %.0f ns taken off\n", LO, HI >> 10, overhead);
	for (p = 0; p < np; p++)
		if (run(pools[p], pairs, seed, overhead, ns[p], count[p])) {
			fprintf(stderr, "genalloc-order-cost: no pool of %zu bytes\n", pools[p]);
			return 1;
		}
	printf("  %-17s", "order (granules)");
	for (p = 0; p < np; p++)
		print_size(pools[p]);
	printf("  last/first\n");
	for (k = 0; k < NORDERS; k++) {
		if (!count[0][k])
			continue;
		printf("  %2zu (%5zu..%-5zu)", k, k ? ((size_t)1 << (k - 1)) + 1 : 1, (size_t)1 << k);
		for (p = 0; p < np; p++)
			printf(" %10.0f", ns[p][k]);
		printf("  %9.1f\n", ns[0][k] > 0 ? ns[np - 1][k] / ns[0][k] : 0);
	}
	printf("rerun: genalloc-order-cost --pools %s --pairs %zu --seed %zu\n", pools_arg, pairs,
	       seed);
	return 0;
}
