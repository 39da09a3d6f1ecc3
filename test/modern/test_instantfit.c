// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * test/modern/test_instantfit.c - gen_pool_instant_fit(): its block starts
 * a free run of at least the request rounded up to a power of two whenever
 * a chunk has one, it fails only where best fit would, and its blocks
 * never overlap; in both modes (lock-free: best fit's blocks).
 */
#include "../support.h"
#include "modern/genalloc.h"

struct probe {
	unsigned long nr, want, order;
	bool want_run;		/* some chunk has a free run >= want */
	bool best_fits;		/* best fit finds room in some chunk */
	unsigned long addr;	/* with it: does addr start a run >= want? */
	bool starts_run;
};

static bool used(const struct gen_pool_chunk *c, unsigned long p)
{
	return c->bits[p / (8 * sizeof(long))] >> (p % (8 * sizeof(long))) & 1;
}

static void probe_chunk(struct gen_pool *pool, struct gen_pool_chunk *c, void *data)
{
	struct probe *pr = data;
	unsigned long p, e;

	if (modern_gen_pool_best_fit(c->bits, c->nbits, 0, (unsigned int)pr->nr, NULL, pool,
				     c->start_addr) < c->nbits)
		pr->best_fits = true;
	for (p = 0; p < c->nbits; p = e + 1) {
		while (p < c->nbits && used(c, p))
			p++;
		for (e = p; e < c->nbits && !used(c, e); e++)
			;
		if (e > p && e - p >= pr->want) {
			pr->want_run = true;
			if (pr->addr == c->start_addr + (p << pr->order))
				pr->starts_run = true;
		}
	}
}

START_TEST(instant_fit_against_best_fit)
{
	struct gen_pool *pool = modern_gen_pool_create_mode(3, -1, _i);
	unsigned long long rng = 77 + (unsigned long long)_i;
	struct { unsigned long addr; size_t size; } live[300];
	struct probe pr, after;
	int n = 0, step, k, instant = 0;
	size_t size;

	ck_assert_int_eq(gen_pool_add(pool, 0x100000, 0x4000, -1), 0);
	ck_assert_int_eq(gen_pool_add(pool, 0x200000, 0x1000, -1), 0);
	gen_pool_set_algo(pool, gen_pool_instant_fit, NULL);
	for (step = 0; step < 4000; step++) {
		if (n && (n == 300 || test_rng_below(&rng, 2))) {
			k = (int)test_rng_below(&rng, (unsigned long long)n);
			gen_pool_free(pool, live[k].addr, live[k].size);
			live[k] = live[--n];
			continue;
		}
		size = 1 + test_rng_below(&rng, test_rng_below(&rng, 6) ? 200 : 3000);
		pr = (struct probe){ .nr = (size + 7) / 8, .order = 3 };
		for (pr.want = 1; pr.want < pr.nr; pr.want *= 2)
			;
		gen_pool_for_each_chunk(pool, probe_chunk, &pr);
		live[n].addr = gen_pool_alloc(pool, size);
		live[n].size = size;
		ck_assert_msg(!!live[n].addr == pr.best_fits,
			      "step %d: size %zu: instant fit %lx, best fit %s", step, size,
			      live[n].addr, pr.best_fits ? "fits" : "fails");
		if (live[n].addr && pr.want_run && !_i) {
			/* Indexed: the block starts a run of want, as it was. */
			gen_pool_free(pool, live[n].addr, size);
			after = pr;
			after.addr = live[n].addr;
			gen_pool_for_each_chunk(pool, probe_chunk, &after);
			ck_assert_msg(after.starts_run, "step %d: %lx starts no run of %lu",
				      step, live[n].addr, pr.want);
			EXPECT_EQ(gen_pool_alloc(pool, size), live[n].addr);
			instant++;
		}
		if (live[n].addr)
			n++;
		ck_assert_int_eq(gen_pool_check(pool), 0);
	}
	while (n--)
		gen_pool_free(pool, live[n].addr, live[n].size);
	EXPECT_EQ(gen_pool_avail(pool), gen_pool_size(pool));
	ck_assert(_i || instant > 100);
	gen_pool_destroy(pool);
}
END_TEST

/* On a bare bitmap it is best fit. */
START_TEST(bare_bitmap_is_best_fit)
{
	unsigned long map[2] = { 0x0f0f00f0UL, 0 };

	EXPECT_EQ(gen_pool_instant_fit(map, 64, 0, 2, NULL, NULL, 0),
		  gen_pool_best_fit(map, 64, 0, 2, NULL, NULL, 0));
	EXPECT_EQ(gen_pool_instant_fit(map, 64, 0, 4, NULL, NULL, 0),
		  gen_pool_best_fit(map, 64, 0, 4, NULL, NULL, 0));
}
END_TEST

Suite *modern_instantfit_suite(void)
{
	Suite *s = suite_create("modern_instantfit");
	TCase *tc = tcase_create("instantfit");

	tcase_add_loop_test(tc, instant_fit_against_best_fit, 0, 2);
	tcase_add_test(tc, bare_bitmap_is_best_fit);
	suite_add_tcase(s, tc);
	return s;
}
