// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * test/modern/test_xalloc.c - gen_pool_xalloc(): exact placements, the
 * refused constraints, and a randomized differential test against a
 * model (a plain scan of each chunk's bitmap, chunk by chunk in first-fit
 * order, for the lowest granule boundary meeting every constraint), in
 * both modes, with the pool's checker after every step.
 */
#include <limits.h>
#include <string.h>

#include "../support.h"
#include "modern/genalloc.h"

/* ------------------------------------------------------------ the model */

struct model_walk {
	const struct gen_pool_constraints *c;
	unsigned long nr, bytes, found;
	int order;
	unsigned long free_from[4096];	/* free granules from each on */
};

static bool bit_set(const struct gen_pool_chunk *chunk, unsigned long p)
{
	return chunk->bits[p / (8 * sizeof(long))] >> (p % (8 * sizeof(long))) & 1;
}

/* Does the block at @a (bytes long) meet @c, read as the header states it? */
static bool meets(const struct gen_pool_constraints *c, unsigned long a, unsigned long bytes)
{
	if (c->align && a % c->align != c->phase)
		return false;
	if (c->nocross && a / c->nocross != (a + bytes - 1) / c->nocross)
		return false;
	if (a < c->minaddr)
		return false;
	return !c->maxaddr || (a + bytes >= a && a + bytes <= c->maxaddr);
}

static void model_chunk(struct gen_pool *pool, struct gen_pool_chunk *chunk, void *data)
{
	struct model_walk *w = data;
	unsigned long p, a;

	(void)pool;
	ck_assert_uint_le(chunk->nbits, 4096);
	if (w->found || w->nr > chunk->nbits)
		return;
	for (p = chunk->nbits; p-- > 0;)
		w->free_from[p] = bit_set(chunk, p) ? 0 :
				  1 + (p + 1 < chunk->nbits ? w->free_from[p + 1] : 0);
	for (p = 0; p + w->nr <= chunk->nbits; p++) {
		a = chunk->start_addr + (p << w->order);
		if (meets(w->c, a, w->bytes) && w->free_from[p] >= w->nr) {
			w->found = a;
			return;
		}
	}
}

/* The model's block for @size under @c: 0 for none. */
static unsigned long model(struct gen_pool *pool, size_t size,
			   const struct gen_pool_constraints *c)
{
	static const struct gen_pool_constraints none;
	static struct model_walk w;

	w.c = c ? c : &none;
	w.found = 0;
	w.order = pool->min_alloc_order;
	if (!size)
		return 0;
	w.nr = ((size - 1) >> w.order) + 1;
	w.bytes = w.nr << w.order;
	gen_pool_for_each_chunk(pool, model_chunk, &w);
	return w.found;
}

/* ------------------------------------------------------------ exact cases */

static struct gen_pool *pool_of(bool lockless, int order)
{
	struct gen_pool *pool = modern_gen_pool_create_mode(order, -1, lockless);

	ck_assert_ptr_nonnull(pool);
	return pool;
}

/* A chunk at an odd address: every constraint counts from the absolute
 * address, granule boundaries being the chunk's start plus granules. */
START_TEST(places_on_absolute_addresses)
{
	struct gen_pool *pool = pool_of(_i, 4);
	struct gen_pool_constraints c = { .align = 64, .phase = 3 };

	ck_assert_int_eq(gen_pool_add(pool, 0x10003, 0x1000, -1), 0);
	/* 0x10003 % 64 == 3: the chunk's start. */
	EXPECT_EQ(gen_pool_xalloc(pool, 16, &c), 0x10003);
	EXPECT_EQ(gen_pool_xalloc(pool, 16, &c), 0x10043);
	/* No granule boundary of this chunk has phase 4 mod 64. */
	c.phase = 4;
	EXPECT_EQ(gen_pool_xalloc(pool, 16, &c), 0);
	ck_assert_int_eq(errors_seen(), 0);
	/* An alignment below the granule, literally: 0x10003 % 2 == 1. */
	c = (struct gen_pool_constraints){ .align = 2, .phase = 0 };
	EXPECT_EQ(gen_pool_xalloc(pool, 16, &c), 0);
	c.phase = 1;
	EXPECT_EQ(gen_pool_xalloc(pool, 16, &c), 0x10013);
	/* nocross: a 48-byte block in 64-byte windows, above 0x10080. */
	c = (struct gen_pool_constraints){ .nocross = 64, .minaddr = 0x10080 };
	/* 0x10083 + 48 - 1 = 0x100b2: the window of 0x10080. */
	EXPECT_EQ(gen_pool_xalloc(pool, 48, &c), 0x10083);
	/* 0x100b3's block would end at 0x100e2, past 0x100c0: the next
	 * window's first boundary is 0x100c3. */
	EXPECT_EQ(gen_pool_xalloc(pool, 48, &c), 0x100c3);
	EXPECT_EQ(gen_pool_xalloc(pool, 48, &c), 0x10103);
	/* maxaddr: the block must end at or below it. */
	c = (struct gen_pool_constraints){ .minaddr = 0x10200, .maxaddr = 0x10243 };
	EXPECT_EQ(gen_pool_xalloc(pool, 0x40, &c), 0x10203);
	EXPECT_EQ(gen_pool_xalloc(pool, 0x10, &c), 0);
	ck_assert_int_eq(gen_pool_check(pool), 0);
	gen_pool_free(pool, 0x10203, 0x40);
	gen_pool_free(pool, 0x10103, 48);
	gen_pool_free(pool, 0x100c3, 48);
	gen_pool_free(pool, 0x10083, 48);
	gen_pool_free(pool, 0x10013, 16);
	gen_pool_free(pool, 0x10043, 16);
	gen_pool_free(pool, 0x10003, 16);
	EXPECT_EQ(gen_pool_avail(pool), 0x1000);
	gen_pool_destroy(pool);
}
END_TEST

/* The chunks in first-fit order, the newest first, whatever the algorithm;
 * NULL constraints and size 0 as gen_pool_alloc(). */
START_TEST(newest_chunk_first_whatever_the_algorithm)
{
	struct gen_pool *pool = pool_of(_i, 3);
	struct gen_pool_constraints c = { .minaddr = 0x20010 };

	ck_assert_int_eq(gen_pool_add(pool, 0x10000, 0x100, -1), 0);
	ck_assert_int_eq(gen_pool_add(pool, 0x20000, 0x100, -1), 0);
	gen_pool_set_algo(pool, gen_pool_best_fit, NULL);
	EXPECT_EQ(gen_pool_xalloc(pool, 8, NULL), 0x20000);
	EXPECT_EQ(gen_pool_xalloc(pool, 8, &c), 0x20010);
	c.minaddr = 0x200f9;	/* no room up there: the older chunk's is below */
	EXPECT_EQ(gen_pool_xalloc(pool, 8, &c), 0);
	c = (struct gen_pool_constraints){ .maxaddr = 0x10010 };
	EXPECT_EQ(gen_pool_xalloc(pool, 16, &c), 0x10000);
	EXPECT_EQ(gen_pool_xalloc(pool, 0, NULL), 0);
	EXPECT_EQ(gen_pool_xalloc(pool, 0, &c), 0);
	ck_assert_int_eq(errors_seen(), 0);
	gen_pool_free(pool, 0x10000, 16);
	gen_pool_free(pool, 0x20010, 8);
	gen_pool_free(pool, 0x20000, 8);
	gen_pool_destroy(pool);
}
END_TEST

/* A request at the top of the address space: the last window has no
 * successor, and maxaddr 0 means no limit. */
START_TEST(top_of_the_address_space)
{
	struct gen_pool *pool = pool_of(_i, 4);
	unsigned long top = ULONG_MAX - 0xfff;	/* [top, ULONG_MAX] */
	struct gen_pool_constraints c = { .nocross = 0x100, .minaddr = ULONG_MAX - 0x1f };

	ck_assert_int_eq(gen_pool_add(pool, top, 0x1000, -1), 0);
	EXPECT_EQ(gen_pool_xalloc(pool, 0x20, &c), ULONG_MAX - 0x1f);
	EXPECT_EQ(gen_pool_xalloc(pool, 0x10, &c), 0);
	c.minaddr = ULONG_MAX - 0x2f;
	EXPECT_EQ(gen_pool_xalloc(pool, 0x20, &c), 0);
	EXPECT_EQ(gen_pool_xalloc(pool, 0x10, &c), ULONG_MAX - 0x2f);
	ck_assert_int_eq(gen_pool_check(pool), 0);
	gen_pool_free(pool, ULONG_MAX - 0x2f, 0x10);
	gen_pool_free(pool, ULONG_MAX - 0x1f, 0x20);
	gen_pool_destroy(pool);
}
END_TEST

/* ------------------------------------------------------------ misuse */

/* Every refused constraint: WARN EINVAL, 0, the pool unchanged. */
START_TEST(xalloc_refuses_bad_constraints)
{
	static const struct {
		struct gen_pool_constraints c;
		size_t size;
	} bad[] = {
		{ { .align = 3 }, 8 },
		{ { .align = 48 }, 8 },
		{ { .nocross = 24 }, 8 },
		{ { .align = 8, .phase = 8 }, 8 },
		{ { .align = 8, .phase = 9 }, 8 },
		{ { .phase = 1 }, 8 },
		{ { .nocross = 16 }, 17 },	/* rounds to 24 at 8-byte granules */
		{ { .nocross = 8 }, 9 },
		{ { .minaddr = 0x20000, .maxaddr = 0x20000 }, 8 },
		{ { .minaddr = 0x20001, .maxaddr = 0x20000 }, 8 },
	};
	struct gen_pool *pool = pool_of(_i, 3);
	size_t k, avail;

	ck_assert_int_eq(gen_pool_add(pool, 0x10000, 0x1000, -1), 0);
	EXPECT_EQ(gen_pool_alloc(pool, 24), 0x10000);
	avail = gen_pool_avail(pool);
	capture_errors();
	for (k = 0; k < sizeof(bad) / sizeof(bad[0]); k++) {
		EXPECT_EQ(gen_pool_xalloc(pool, bad[k].size, &bad[k].c), 0);
		ck_assert_msg(errors_seen() == 1, "case %zu: %d reports", k, errors_seen());
		ck_assert_str_eq(last_error()->func, "gen_pool_xalloc");
		ck_assert_error(GENALLOC_WARN, GENALLOC_EINVAL);
		EXPECT_EQ(gen_pool_avail(pool), avail);
	}
	/* The edges that are fine: a rounded size equal to nocross, maxaddr 0
	 * with any minaddr, phase align - 1. */
	{
		struct gen_pool_constraints c = { .nocross = 16, .minaddr = 0x10100 };

		EXPECT_EQ(gen_pool_xalloc(pool, 16, &c), 0x10100);
		c = (struct gen_pool_constraints){ .align = 16, .phase = 15 };
		EXPECT_EQ(gen_pool_xalloc(pool, 8, &c), 0);	/* no boundary has it */
		ck_assert_int_eq(errors_seen(), 0);
	}
	gen_pool_xalloc(NULL, 8, NULL);
	assert_line_is("genalloc: WARN EINVAL: gen_pool_xalloc: NULL pool (pool NULL, addr 0, size 8); pass the pool gen_pool_create() returned",
		       NULL, 0, 0, 0);
	ck_assert_error(GENALLOC_WARN, GENALLOC_EINVAL);
	ck_assert_int_eq(gen_pool_check(pool), 0);
	gen_pool_free(pool, 0x10000, 24);
	gen_pool_free(pool, 0x10100, 16);
	gen_pool_destroy(pool);
	ck_assert_int_eq(errors_seen(), 0);
}
END_TEST

/* Each refusal's line names the member at fault and how to mend it. */
START_TEST(xalloc_refusals_say_what_to_pass)
{
	struct gen_pool *pool = pool_of(_i, 3);
	struct gen_pool_constraints c;

	ck_assert_int_eq(gen_pool_add(pool, 0x10000, 0x1000, -1), 0);
	capture_errors();
	c = (struct gen_pool_constraints){ .align = 3 };
	EXPECT_EQ(gen_pool_xalloc(pool, 8, &c), 0);
	assert_line_is("genalloc: WARN EINVAL: gen_pool_xalloc: align is neither 0 nor a power of two (pool <pool>, addr 0, align 3); pass a struct gen_pool_constraints whose align is 0 or a power of two",
		       pool, 0, 0, 0);
	ck_assert_report("gen_pool_xalloc", pool);
	c = (struct gen_pool_constraints){ .nocross = 24 };
	EXPECT_EQ(gen_pool_xalloc(pool, 8, &c), 0);
	assert_line_is("genalloc: WARN EINVAL: gen_pool_xalloc: nocross is neither 0 nor a power of two (pool <pool>, addr 0, nocross 24); pass a struct gen_pool_constraints whose nocross is 0 or a power of two",
		       pool, 0, 0, 0);
	ck_assert_report("gen_pool_xalloc", pool);
	c = (struct gen_pool_constraints){ .align = 8, .phase = 8 };
	EXPECT_EQ(gen_pool_xalloc(pool, 8, &c), 0);
	assert_line_is("genalloc: WARN EINVAL: gen_pool_xalloc: phase is not below align (pool <pool>, addr 0, phase 8); pass a phase below align (the remainder addr % align), or 0 when align is 0",
		       pool, 0, 0, 0);
	ck_assert_report("gen_pool_xalloc", pool);
	c = (struct gen_pool_constraints){ .phase = 1 };
	EXPECT_EQ(gen_pool_xalloc(pool, 8, &c), 0);
	assert_line_is("genalloc: WARN EINVAL: gen_pool_xalloc: phase is not 0 with align 0 (pool <pool>, addr 0, phase 1); pass a phase below align (the remainder addr % align), or 0 when align is 0",
		       pool, 0, 0, 0);
	ck_assert_report("gen_pool_xalloc", pool);
	c = (struct gen_pool_constraints){ .nocross = 16 };
	EXPECT_EQ(gen_pool_xalloc(pool, 17, &c), 0);
	assert_line_is("genalloc: WARN EINVAL: gen_pool_xalloc: the size rounded up to whole granules is larger than nocross (pool <pool>, addr 0, size 17); pass a nocross of 0 or at least the rounded size, or allocate less",
		       pool, 0, 0, 0);
	ck_assert_report("gen_pool_xalloc", pool);
	c = (struct gen_pool_constraints){ .minaddr = 0x20001, .maxaddr = 0x20000 };
	EXPECT_EQ(gen_pool_xalloc(pool, 8, &c), 0);
	assert_line_is("genalloc: WARN EINVAL: gen_pool_xalloc: minaddr is not below maxaddr (pool <pool>, addr 0x20001, size 8); pass a maxaddr above minaddr, or maxaddr 0 for no upper limit",
		       pool, 0, 0, 0);
	ck_assert_report("gen_pool_xalloc", pool);
	EXPECT_EQ(gen_pool_avail(pool), 0x1000);
	ck_assert_int_eq(gen_pool_check(pool), 0);
	gen_pool_destroy(pool);
}
END_TEST

/* ------------------------------------------------------------ random */

/* A power of two in [2^lo, 2^hi]. */
static unsigned long pow2_in(unsigned long long *rng, unsigned int lo, unsigned int hi)
{
	return 1UL << (lo + test_rng_below(rng, hi - lo + 1));
}

/* Random constraints, biased to the edges; sometimes invalid. */
static void random_constraints(unsigned long long *rng, struct gen_pool *pool,
			       unsigned long lo_addr, unsigned long hi_addr, size_t size,
			       struct gen_pool_constraints *c)
{
	unsigned long g = 1UL << pool->min_alloc_order, rounded = ((size - 1) | (g - 1)) + 1;
	unsigned long span = hi_addr - lo_addr;

	memset(c, 0, sizeof(*c));
	if (test_rng_below(rng, 3)) {
		c->align = pow2_in(rng, 0, 14);
		switch (test_rng_below(rng, 5)) {
		case 0: c->phase = 0; break;
		case 1: c->phase = c->align - 1; break;
		case 2: c->phase = c->align > g ? c->align - g : 0; break;
		case 3: c->phase = c->align / 2; break;
		default: c->phase = test_rng_below(rng, c->align); break;
		}
	}
	if (!test_rng_below(rng, 2)) {
		switch (test_rng_below(rng, 4)) {
		case 0: c->nocross = rounded; break;	/* windows of the block */
		case 1: c->nocross = c->align > rounded ? c->align : rounded; break;
		case 2: c->nocross = 1UL << 40; break;		/* past the pool */
		default: c->nocross = rounded << test_rng_below(rng, 6); break;
		}
		/* A power of two at least the rounded size. */
		while (c->nocross & (c->nocross - 1))
			c->nocross += c->nocross & -c->nocross;
	}
	if (!test_rng_below(rng, 3))
		c->minaddr = lo_addr - 0x40 + test_rng_below(rng, span + 0x80);
	if (!test_rng_below(rng, 3))
		c->maxaddr = c->minaddr + 1 + test_rng_below(rng, span + 0x80);
	if (!test_rng_below(rng, 40)) {
		/* Something refused. */
		switch (test_rng_below(rng, 3)) {
		case 0: c->align = 12; break;
		case 1: c->phase = c->align ? c->align : 1; break;
		default: c->maxaddr = c->minaddr ? c->minaddr : 1; c->minaddr = c->maxaddr; break;
		}
	}
}

struct live {
	unsigned long addr;
	size_t size;
};

/* Refused by the header's rules?  (What the model expects a WARN for.) */
static bool refused(struct gen_pool *pool, size_t size, const struct gen_pool_constraints *c)
{
	unsigned long g = 1UL << pool->min_alloc_order;

	if ((c->align & (c->align - 1)) || (c->nocross & (c->nocross - 1)))
		return true;
	if (c->align ? c->phase >= c->align : c->phase != 0)
		return true;
	if (c->maxaddr && c->minaddr >= c->maxaddr)
		return true;
	return c->nocross && size && ((size - 1) | (g - 1)) + 1 > c->nocross;
}

static void random_run(bool lockless, unsigned long long seed, int steps)
{
	struct gen_pool *pool = pool_of(lockless, 3 + (int)(seed % 3));
	unsigned long g = 1UL << pool->min_alloc_order, want, got, base[3];
	struct gen_pool_constraints c;
	unsigned long long rng = seed;
	struct live live[512];
	int n = 0, step, k;
	size_t size;

	/* Three chunks at odd places: one granule-aligned only relative to
	 * itself, one off every power of two, one on a big boundary. */
	base[0] = 0x100000 + 3;
	base[1] = 0x180000 + g * 5 + 1;
	base[2] = 0x200000;
	ck_assert_int_eq(gen_pool_add(pool, base[0], g * 700 + 5, -1), 0);
	ck_assert_int_eq(gen_pool_add(pool, base[1], g * 300, -1), 0);
	ck_assert_int_eq(gen_pool_add(pool, base[2], g * 1100, -1), 0);
	capture_errors();
	for (step = 0; step < steps; step++) {
		if (n && (n == 512 || test_rng_below(&rng, 5) < 2)) {
			k = (int)test_rng_below(&rng, (unsigned long long)n);
			gen_pool_free(pool, live[k].addr, live[k].size);
			live[k] = live[--n];
		} else {
			size = 1 + test_rng_below(&rng, test_rng_below(&rng, 4) ? g * 8 : g * 200);
			k = (int)test_rng_below(&rng, 3);
			random_constraints(&rng, pool, base[k], base[k] + g * 1100, size, &c);
			want = refused(pool, size, &c) ? 0 : model(pool, size, &c);
			got = gen_pool_xalloc(pool, size, &c);
			ck_assert_msg(got == want,
				      "seed %llu step %d: size %zu align %lu phase %lu nocross %lu "
				      "min %lx max %lx: got %lx, model %lx", seed, step, size,
				      c.align, c.phase, c.nocross, c.minaddr, c.maxaddr, got, want);
			ck_assert_int_eq(errors_seen(), refused(pool, size, &c));
			reset_errors();
			if (got)
				live[n++] = (struct live){ got, size };
		}
		ck_assert_int_eq(gen_pool_check(pool), 0);
	}
	while (n--)
		gen_pool_free(pool, live[n].addr, live[n].size);
	EXPECT_EQ(gen_pool_avail(pool), gen_pool_size(pool));
	ck_assert_int_eq(errors_seen(), 0);
	gen_pool_destroy(pool);
}

START_TEST(random_against_the_model)
{
	for (unsigned long long seed = 1; seed <= 6; seed++)
		random_run(_i, seed * 0x9e3779b97f4a7c15ULL, 700);
}
END_TEST

Suite *modern_xalloc_suite(void)
{
	Suite *s = suite_create("modern_xalloc");
	TCase *tc = tcase_create("xalloc");

	/* Each test runs indexed (0) and lock-free (1). */
	tcase_add_loop_test(tc, places_on_absolute_addresses, 0, 2);
	tcase_add_loop_test(tc, newest_chunk_first_whatever_the_algorithm, 0, 2);
	tcase_add_loop_test(tc, top_of_the_address_space, 0, 2);
	tcase_add_loop_test(tc, xalloc_refuses_bad_constraints, 0, 2);
	tcase_add_loop_test(tc, xalloc_refusals_say_what_to_pass, 0, 2);
	tcase_add_loop_test(tc, random_against_the_model, 0, 2);
	suite_add_tcase(s, tc);
	return s;
}
