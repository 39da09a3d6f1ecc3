// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * test/modern/test_golden.c - recorded address traces, replayed: every
 * built-in algorithm on several chunk shapes (one chunk, several, one of
 * more than 2^20 granules where the aligned searches turn their hints on,
 * chunks sized for the grid-point map and for the start-bit search, small
 * granule orders), each trace a file of test/modern/golden/ holding the
 * pool's shape and every request with the address it got.
 *
 * A replay asserts every address, in indexed mode and in the kernel's
 * linear mode (gen_pool_set_lockless()), so the recorded placement is the
 * kernel's and any change of the engine that moves one block fails here.
 *
 * The traces come from a seeded generator in this file.  To write them
 * again (only when the placement is meant to change, which for a
 * reimplementation of the kernel's it never is):
 *
 *     GENALLOC_GOLDEN_WRITE=1 make check SUITE=golden
 *
 * The files are read from test/modern/golden/ below the current directory
 * (make check runs from the top of the tree), or from $GENALLOC_GOLDEN_DIR.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../support.h"
#include "modern/genalloc.h"

#define MAX_CHUNKS 4
#define MAX_LIVE 4096
/* Each chunk's bus address is its address plus this. */
#define PHYS_OFF 0x8000000UL

enum golden_algo { G_FIRST, G_BEST, G_ORDER, G_ALIGN, G_FIXED, G_DMA };

static const char *const algo_names[] = {
	[G_FIRST] = "first_fit", [G_BEST] = "best_fit", [G_ORDER] = "order_align",
	[G_ALIGN] = "align", [G_FIXED] = "fixed", [G_DMA] = "dma_align",
};

/**
 * struct golden_case - one trace: the pool's shape and how its requests
 * are drawn
 * @name:    the file's name under test/modern/golden/, without ".trace"
 * @order:   granule order
 * @nchunks: chunks, added in this order
 * @start:   each chunk's address
 * @size:    each chunk's bytes
 * @algo:    the algorithm every request uses
 * @ops:     requests and frees to draw
 * @lo:      smallest request, bytes
 * @hi:      largest request, bytes (log-uniform between)
 * @fill:    occupancy (%) the generator steers to
 * @amin:    smallest alignment or fixed offset step (bytes), for G_ALIGN,
 *           G_DMA and G_FIXED
 * @amax:    largest alignment (a power of two), G_ALIGN and G_DMA
 * @seed:    the generator's seed
 */
struct golden_case {
	const char *name;
	int order;
	int nchunks;
	unsigned long start[MAX_CHUNKS];
	unsigned long size[MAX_CHUNKS];
	enum golden_algo algo;
	int ops;
	unsigned long lo, hi;
	int fill;
	unsigned long amin, amax;
	uint64_t seed;
};

#define ONE(a, s) 1, { a }, { s }
#define FOUR 4, { 0x10000000UL, 0x10100008UL, 0x20000000UL, 0x20800000UL }, \
		{ 0x8000, 0x20008, 0x100000, 0x4000 }

static const struct golden_case cases[] = {
	/* One chunk of 2^17 granules. */
	{ "ff-one", 3, ONE(0x40000000UL, 0x100000), G_FIRST, 1000, 8, 16384, 95, 0, 0, 1 },
	{ "bf-one", 3, ONE(0x40000000UL, 0x100000), G_BEST, 1000, 8, 16384, 95, 0, 0, 2 },
	{ "ffo-one", 3, ONE(0x40000000UL, 0x100000), G_ORDER, 1000, 8, 16384, 95, 0, 0, 3 },
	{ "ffa-one", 3, ONE(0x40000000UL, 0x100000), G_ALIGN, 1000, 8, 16384, 95, 8, 4096, 4 },
	{ "fixed-one", 3, ONE(0x40000000UL, 0x100000), G_FIXED, 1000, 8, 4096, 50, 64, 0, 5 },
	{ "dma-one", 3, ONE(0x40000000UL, 0x100000), G_DMA, 1000, 8, 32768, 95, 16, 4096, 6 },
	/* Several chunks, unaligned sizes and starts. */
	{ "ff-four", 3, FOUR, G_FIRST, 1000, 8, 32768, 95, 0, 0, 11 },
	{ "bf-four", 3, FOUR, G_BEST, 1000, 8, 32768, 95, 0, 0, 12 },
	{ "ffo-four", 3, FOUR, G_ORDER, 1000, 8, 32768, 95, 0, 0, 13 },
	{ "ffa-four", 3, FOUR, G_ALIGN, 1000, 8, 32768, 95, 8, 4096, 14 },
	{ "fixed-four", 3, FOUR, G_FIXED, 1000, 8, 2048, 50, 8, 0, 15 },
	/* 2^21 granules: the order hints' path, fragmented by small requests. */
	{ "ff-hint", 0, ONE(0x40000000UL, 0x200000), G_FIRST, 2000, 1, 65536, 95, 0, 0, 21 },
	{ "bf-hint", 0, ONE(0x40000000UL, 0x200000), G_BEST, 2000, 1, 65536, 95, 0, 0, 22 },
	{ "ffo-hint", 0, ONE(0x40000000UL, 0x200000), G_ORDER, 2000, 1, 65536, 95, 0, 0, 23 },
	{ "ffa-hint", 0, ONE(0x40000000UL, 0x200000), G_ALIGN, 2000, 1, 65536, 95, 64, 512, 24 },
	/* Page grids on chunks of 2^18 granules (the grid-point map) and of
	 * 2^15 granules (the start bits read from the bitmap). */
	{ "ffa-points", 3, ONE(0x40000000UL, 0x200000), G_ALIGN, 1000, 8, 16384, 95, 4096, 4096,
	  31 },
	{ "ffa-starts", 3, ONE(0x40000000UL, 0x40000), G_ALIGN, 1000, 8, 8192, 95, 4096, 4096,
	  32 },
	/* Granule orders 0, 1 and 5 on an unaligned chunk. */
	{ "ffo-order0", 0, ONE(0x40000001UL, 0x10000), G_ORDER, 1000, 1, 2048, 95, 0, 0, 41 },
	{ "ffa-order1", 1, ONE(0x40000002UL, 0x10000), G_ALIGN, 1000, 2, 1024, 95, 2, 256, 42 },
	{ "bf-order5", 5, ONE(0x40000020UL, 0x100000), G_BEST, 1000, 32, 32768, 95, 0, 0, 43 },
};

#define NCASES ((int)(sizeof(cases) / sizeof(cases[0])))

/* ------------------------------------------------------------ generator */

static uint64_t rng_next(uint64_t *s)
{
	/* splitmix64: any seed gives a good stream. */
	uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static unsigned long rng_below(uint64_t *s, unsigned long n)
{
	return (unsigned long)(rng_next(s) % n);
}

/* Log-uniform in [lo, hi]. */
static unsigned long rng_size(uint64_t *s, unsigned long lo, unsigned long hi)
{
	int bits = 0, lbits = 0;
	unsigned long top, v;

	while ((hi >> bits) > 1)
		bits++;
	while ((lo >> lbits) > 1)
		lbits++;
	top = 1UL << (lbits + (int)rng_below(s, (unsigned long)(bits - lbits + 1)));
	v = top + rng_below(s, top);
	return v < lo ? lo : v > hi ? hi : v;
}

/* A power of two in [amin, amax]. */
static unsigned long rng_align(uint64_t *s, unsigned long amin, unsigned long amax)
{
	unsigned long a = amin, n = 0;

	while ((a << n) < amax)
		n++;
	return a << rng_below(s, n + 1);
}

/* ------------------------------------------------------------ replay */

/* Requests of @algo carry an alignment or an offset. */
static bool has_arg(enum golden_algo algo)
{
	return algo == G_ALIGN || algo == G_FIXED || algo == G_DMA;
}

struct live {
	unsigned long addr, size;
};

/* @records: with block records, which must change no address. */
static struct gen_pool *golden_pool(const struct golden_case *c, bool lockless, bool records)
{
	struct gen_pool *pool = gen_pool_create(c->order, -1);
	int i;

	ck_assert_ptr_nonnull(pool);
	gen_pool_set_lockless(pool, lockless);
	if (records)
		ck_assert_int_eq(gen_pool_use_block_records(pool), 0);
	for (i = 0; i < c->nchunks; i++)
		ck_assert_int_eq(gen_pool_add_virt(pool, c->start[i], c->start[i] + PHYS_OFF,
						   c->size[i], -1), 0);
	return pool;
}

/* One request on @pool: its address, or 0. */
static unsigned long golden_alloc(struct gen_pool *pool, enum golden_algo algo,
				  unsigned long size, unsigned long arg)
{
	struct genpool_data_align align = { .align = (int)arg };
	struct genpool_data_fixed fixed = { .offset = arg };
	dma_addr_t dma = 0;
	void *p;

	switch (algo) {
	case G_FIRST:
		return gen_pool_alloc_algo(pool, size, gen_pool_first_fit, NULL);
	case G_BEST:
		return gen_pool_alloc_algo(pool, size, gen_pool_best_fit, NULL);
	case G_ORDER:
		return gen_pool_alloc_algo(pool, size, gen_pool_first_fit_order_align, NULL);
	case G_ALIGN:
		return gen_pool_alloc_algo(pool, size, gen_pool_first_fit_align, &align);
	case G_FIXED:
		return gen_pool_alloc_algo(pool, size, gen_pool_fixed_alloc, &fixed);
	case G_DMA:
		p = gen_pool_dma_alloc_align(pool, size, &dma, (int)arg);
		if (p)
			ck_assert_uint_eq(dma, (unsigned long)(uintptr_t)p + PHYS_OFF);
		return (unsigned long)(uintptr_t)p;
	}
	ck_abort_msg("unknown algorithm %d", (int)algo);
	return 0;
}

static unsigned long total_bytes(const struct golden_case *c)
{
	unsigned long t = 0;
	int i;

	for (i = 0; i < c->nchunks; i++)
		t += c->size[i];
	return t;
}

/* Draw @c's trace from its seed, run it on a fresh pool and write it. */
static void golden_write(const struct golden_case *c, FILE *f)
{
	static struct live live[MAX_LIVE];
	struct gen_pool *pool = golden_pool(c, false, false);
	unsigned long used = 0, target = total_bytes(c) / 100 * (unsigned long)c->fill;
	unsigned long size, arg, addr, k;
	uint64_t s = c->seed;
	int nlive = 0, op, i;

	fprintf(f, "# %s: %s, seed %" PRIu64 " (test/modern/test_golden.c)\n", c->name,
		algo_names[c->algo], c->seed);
	fprintf(f, "order %d\n", c->order);
	for (i = 0; i < c->nchunks; i++)
		fprintf(f, "chunk %lx %lx\n", c->start[i], c->size[i]);
	fprintf(f, "algo %s\n", algo_names[c->algo]);
	for (op = 0; op < c->ops; op++) {
		if (nlive > 0 && (nlive == MAX_LIVE ||
				  rng_below(&s, 100) < (used < target ? 30UL : 70UL))) {
			k = rng_below(&s, (unsigned long)nlive);
			fprintf(f, "f %lx %lx\n", live[k].addr, live[k].size);
			gen_pool_free(pool, live[k].addr, live[k].size);
			used -= live[k].size;
			live[k] = live[--nlive];
			continue;
		}
		size = rng_size(&s, c->lo, c->hi);
		arg = 0;
		if (c->algo == G_ALIGN || c->algo == G_DMA)
			arg = rng_align(&s, c->amin, c->amax);
		else if (c->algo == G_FIXED)
			arg = rng_below(&s, c->size[0] / c->amin) * c->amin;
		addr = golden_alloc(pool, c->algo, size, arg);
		if (has_arg(c->algo))
			fprintf(f, "%c %lx %lx %lx\n", c->algo == G_DMA ? 'd' : 'a', size, arg, addr);
		else
			fprintf(f, "a %lx %lx\n", size, addr);
		if (addr) {
			live[nlive].addr = addr;
			live[nlive++].size = size;
			used += size;
		}
	}
	/* The trace ends empty: the pool can be destroyed, and the replay
	 * checks that every byte came back. */
	while (nlive > 0) {
		nlive--;
		fprintf(f, "f %lx %lx\n", live[nlive].addr, live[nlive].size);
		gen_pool_free(pool, live[nlive].addr, live[nlive].size);
	}
	ck_assert_int_eq(gen_pool_check(pool), 0);
	gen_pool_destroy(pool);
}

static const char *golden_dir(void)
{
	const char *d = getenv("GENALLOC_GOLDEN_DIR");

	return d && *d ? d : "test/modern/golden";
}

static FILE *golden_open(const struct golden_case *c, const char *mode)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s.trace", golden_dir(), c->name);
	f = fopen(path, mode);
	ck_assert_msg(f != NULL, "cannot open %s (run from the top of the tree, or set "
		      "GENALLOC_GOLDEN_DIR)", path);
	return f;
}

/* Read the header of @f and check that it is @c's shape. */
static void golden_header(const struct golden_case *c, FILE *f)
{
	char line[256], name[32];
	unsigned long a, s;
	int order, i = 0;

	while (fgets(line, sizeof(line), f)) {
		if (line[0] == '#')
			continue;
		if (sscanf(line, "order %d", &order) == 1) {
			ck_assert_int_eq(order, c->order);
		} else if (sscanf(line, "chunk %lx %lx", &a, &s) == 2) {
			ck_assert_int_lt(i, c->nchunks);
			EXPECT_EQ(a, c->start[i]);
			EXPECT_EQ(s, c->size[i]);
			i++;
		} else if (sscanf(line, "algo %31s", name) == 1) {
			ck_assert_str_eq(name, algo_names[c->algo]);
			ck_assert_int_eq(i, c->nchunks);
			return;
		} else {
			ck_abort_msg("%s: bad header line: %s", c->name, line);
		}
	}
	ck_abort_msg("%s: no algo line", c->name);
}

/* Replay @c's file on a fresh pool: every address as recorded. */
static void golden_replay(const struct golden_case *c, bool lockless, bool records)
{
	struct gen_pool *pool = golden_pool(c, lockless, records);
	FILE *f = golden_open(c, "r");
	unsigned long size, arg, want, addr;
	char line[256], op;
	int n = 0, allocs = 0, hits = 0;

	golden_header(c, f);
	while (fgets(line, sizeof(line), f)) {
		n++;
		op = line[0];
		if (op == 'f') {
			ck_assert_int_eq(sscanf(line, "f %lx %lx", &addr, &size), 2);
			gen_pool_free(pool, addr, size);
		} else {
			arg = 0;
			if (has_arg(c->algo))
				ck_assert_int_eq(sscanf(line, "%c %lx %lx %lx", &op, &size, &arg, &want),
						 4);
			else
				ck_assert_int_eq(sscanf(line, "%c %lx %lx", &op, &size, &want), 3);
			ck_assert(op == (c->algo == G_DMA ? 'd' : 'a'));
			addr = golden_alloc(pool, c->algo, size, arg);
			ck_assert_msg(addr == want, "%s (%s mode), op %d: %lu bytes (arg %#lx) at "
				      "%#lx, recorded %#lx", c->name,
				      lockless ? "linear" : "indexed", n, size, arg, addr, want);
			allocs++;
			hits += addr != 0;
		}
		if (n % 256 == 0)
			ck_assert_int_eq(gen_pool_check(pool), 0);
	}
	fclose(f);
	/* A trace that never fails, or never succeeds, pins little. */
	ck_assert_int_gt(hits, allocs / 4);
	ck_assert_int_lt(hits, allocs);
	ck_assert_int_eq(gen_pool_check(pool), 0);
	EXPECT_EQ(gen_pool_avail(pool), gen_pool_size(pool));
	gen_pool_destroy(pool);
}

START_TEST(golden_indexed)
{
	const struct golden_case *c = &cases[_i];
	FILE *f;

	if (getenv("GENALLOC_GOLDEN_WRITE")) {
		f = golden_open(c, "w");
		golden_write(c, f);
		ck_assert_int_eq(fclose(f), 0);
	}
	golden_replay(c, false, false);
}
END_TEST

/* Block records change no address, in either mode. */
START_TEST(golden_records)
{
	golden_replay(&cases[_i / 2], _i % 2, true);
}
END_TEST

START_TEST(golden_linear)
{
	golden_replay(&cases[_i], true, false);
}
END_TEST

Suite *golden_suite(void)
{
	Suite *s = suite_create("golden");
	TCase *tc = tcase_create("traces");

	/* The linear replays of the 2^21-granule chunk scan 32K words a
	 * request. */
	tcase_set_timeout(tc, 30);
	tcase_add_loop_test(tc, golden_indexed, 0, NCASES);
	tcase_add_loop_test(tc, golden_linear, 0, NCASES);
	tcase_add_loop_test(tc, golden_records, 0, 2 * NCASES);
	suite_add_tcase(s, tc);
	return s;
}
