// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * test/legacy/test_model.c - the engine against a reference model of the
 * 2005 algorithm, operation by operation.
 *
 * The model (model2005.c, which the 2005 fuzz harnesses check against too)
 * is the seed's code re-expressed over out-of-band lists: one LIFO stack of
 * addresses per order, split by pushing upper halves, buddy found by a
 * linear search of its order's list, merged up to the chunk size.  It sees
 * the same chunk sequence from the same callback.  After every step
 * the engine must have returned the model's address, hold exactly the
 * model's free lists in the model's order, and pass its own checker.
 */
#include <stdlib.h>
#include <string.h>

#include "../support.h"
#include "chunks.h"
#include "model2005.h"

#define MAX_LIVE	4096

/* The 2005 lists (model2005.h), fed the chunks the callback hands out. */
struct model {
	struct m5_lists l;
	int chunks_left;
	unsigned long next_chunk, chunk_size;
};

static struct model *model_new(const struct chunk_supply *cs, unsigned long extra_bytes)
{
	struct model *m = calloc(1, sizeof(*m));

	ck_assert_ptr_nonnull(m);
	m->chunks_left = cs->limit;
	m->next_chunk = cs->base;
	m->chunk_size = 1UL << cs->shift;
	m5_lists_init(&m->l, cs->shift, (unsigned long)cs->limit * m->chunk_size + extra_bytes);
	return m;
}

static void model_delete(struct model *m)
{
	m5_lists_fini(&m->l);
	free(m);
}

static unsigned long model_new_chunk(struct model *m)
{
	unsigned long c;

	if (!m->chunks_left)
		return 0;
	m->chunks_left--;
	c = m->next_chunk;
	m->next_chunk += m->chunk_size;
	return c;
}

/* 2005: a free block of the order or above, else one new chunk, else 0. */
static unsigned long model_alloc(struct model *m, int size)
{
	int i;

	if ((unsigned long)size > m->chunk_size)
		return 0;
	i = m5_order((unsigned long)size);
	if (!m5_has(&m->l, i)) {
		unsigned long c = model_new_chunk(m);

		if (c)
			m5_release(&m->l, c, m->l.nr_orders - 1);
	}
	return m5_take(&m->l, i);
}

static void model_free(struct model *m, unsigned long a, int size)
{
	if ((unsigned long)size <= m->chunk_size)
		m5_release(&m->l, a, m5_order((unsigned long)size));
}

/* The engine's lists must be the model's, head first. */
static void assert_same_lists(struct gen_pool *pool, const struct model *m)
{
	for (int i = 0; i < m->l.nr_orders; i++) {
		const struct gen_pool_link *q = pool->h[i].next;
		int k = m->l.len[i];

		for (; q && k > 0; q = q->next)
			ck_assert_msg((unsigned long)q == m->l.stack[i][--k],
				      "order %d: list differs from the model", i);
		ck_assert_msg(!q && !k, "order %d: list length differs", i);
	}
}

static int random_size(unsigned long long *rng, unsigned long chunk)
{
	unsigned long r = test_rng_below(rng, 100);

	if (r < 2)
		return (int)chunk + 1 + (int)test_rng_below(rng, 64);	/* oversize */
	if (r < 4)
		return 0;
	if (r < 70)
		return 1 + (int)test_rng_below(rng, 256);
	return 1 + (int)test_rng_below(rng, chunk);
}

/* Donate a random free-standing block of @area (known[] marks atoms that
 * were donated already).  Returns 1 if one was donated. */
static int donate(struct gen_pool *pool, struct model *m, unsigned long long *rng,
		  unsigned long area, unsigned long area_size, unsigned char *known)
{
	int order = (int)test_rng_below(rng, (unsigned long long)m->l.nr_orders);
	unsigned long s = 32UL << order, atoms = s / 32;
	unsigned long off = test_rng_below(rng, area_size / s) * s;

	for (unsigned long x = 0; x < atoms; x++)
		if (known[off / 32 + x])
			return 0;
	memset(known + off / 32, 1, atoms);
	gen_pool_free(pool, area + off, (int)s);
	model_free(m, area + off, (int)s);
	return 1;
}

/* Valgrind runs the same sequences, shortened: the checker after every step
 * is what costs, and a quarter still covers every path. */
static int scaled(int steps)
{
	return getenv("GENALLOC_UNDER_VALGRIND") ? steps / 4 : steps;
}

static void run_differential(int shift, int chunks, int steps, int linear,
			     unsigned long long seed)
{
	struct chunk_supply cs;
	struct gen_pool *pool;
	struct model *m;
	struct m5_block *live = calloc(MAX_LIVE, sizeof(*live));
	int nr_live = 0, donations = 0, merges_seen = 0;
	unsigned long long rng = seed;
	unsigned long chunk = 1UL << shift, area_size = 4 * chunk;
	unsigned long area = (unsigned long)test_region(chunk, area_size);
	unsigned char *known = calloc(area_size / 32, 1);

	ck_assert_ptr_nonnull(live);
	ck_assert_ptr_nonnull(known);
	chunk_supply_init(&cs, shift, chunks);
	pool = supply_pool(&cs, 1);
	m = model_new(&cs, area_size);
	model_free(m, model_new_chunk(m), (int)chunk);	/* the prefill */
	legacy_gen_pool_set_linear_search(pool, linear);
	capture_errors();

	steps = scaled(steps);
	for (int step = 0; step < steps; step++) {
		unsigned long r = test_rng_below(&rng, 100);

		if (r < 3) {
			donations += donate(pool, m, &rng, area, area_size, known);
		} else if (r < 55 && nr_live < MAX_LIVE) {
			int size = random_size(&rng, chunk);
			unsigned long a = gen_pool_alloc(pool, size);

			ck_assert_uint_eq(a, model_alloc(m, size));
			if (a)
				live[nr_live++] = (struct m5_block){ a, size };
		} else if (nr_live) {
			int k = (int)test_rng_below(&rng, (unsigned long long)nr_live);
			int size = m5_same_rounding(live[k].size, (unsigned)test_rng_next(&rng));
			int before = m->l.len[0];

			gen_pool_free(pool, live[k].addr, size);
			model_free(m, live[k].addr, size);
			merges_seen += m->l.len[0] < before;
			live[k] = live[--nr_live];
		}
		ck_assert_int_eq(errors_seen(), 0);
		assert_same_lists(pool, m);
		assert_consistent(pool);
	}
	/* Drain: everything merges back into whole chunks and donations. */
	while (nr_live) {
		nr_live--;
		gen_pool_free(pool, live[nr_live].addr, live[nr_live].size);
		model_free(m, live[nr_live].addr, live[nr_live].size);
		assert_same_lists(pool, m);
	}
	assert_consistent(pool);
	ck_assert_uint_eq(pool_live_bytes(pool), 0);
	ck_assert_int_gt(donations, 0);
	ck_assert_int_gt(merges_seen, 0);
	ck_assert_int_eq(errors_seen(), 0);
	legacy_gen_pool_destroy(pool);
	free(known);
	free(live);
	model_delete(m);
}

START_TEST(small_chunks_map_lookup)
{
	run_differential(12, 24, 6000, 0, 0x9e3779b97f4a7c15ULL);
}
END_TEST

START_TEST(small_chunks_linear_search)
{
	run_differential(12, 24, 4000, 1, 0x2545f4914f6cdd1dULL);
}
END_TEST

START_TEST(large_chunks_deep_splits)
{
	run_differential(16, 6, 3000, 0, 0xdeadbeefcafef00dULL);
}
END_TEST

START_TEST(tiny_chunks_many_callbacks)
{
	run_differential(7, 400, 5000, 0, 12345);
}
END_TEST

Suite *legacy_model_suite(void)
{
	Suite *s = suite_create("legacy_model");
	TCase *tc = tcase_create("differential");

	/* The deep-split run alone takes 2-3 s in the coverage build (-O0,
	 * no timeout multiplier) and timed out at Check's 4 s on a busy
	 * machine. */
	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, small_chunks_map_lookup);
	tcase_add_test(tc, small_chunks_linear_search);
	tcase_add_test(tc, large_chunks_deep_splits);
	tcase_add_test(tc, tiny_chunks_many_callbacks);
	suite_add_tcase(s, tc);
	return s;
}
