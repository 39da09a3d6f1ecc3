// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * test/modern/test_records.c - block records (gen_pool_use_block_records()):
 * wrong-size, interior and overreaching frees are refused and change
 * nothing, free by address, the checker's view of the records; for every
 * built-in algorithm and a user one, in indexed and lock-free mode; and a
 * randomized run against a model of the live blocks, checked after every
 * step.
 *
 * Addresses are plain numbers: the engine never touches managed memory.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "../support.h"
#include "modern/genalloc.h"
#include "modern/records_internal.h"

#define BASE 0x100000UL
#define ORDER 4			/* 16-byte granules */
#define CHUNK 4096UL

/* A user algorithm: the pool cannot answer it from its index. */
static unsigned long user_first_fit(unsigned long *map, unsigned long size, unsigned long start,
				    unsigned int nr, void *data, struct gen_pool *pool,
				    unsigned long start_addr)
{
	return gen_pool_first_fit(map, size, start, nr, data, pool, start_addr);
}

static struct genpool_data_align align16 = { 16 };

static const struct {
	genpool_algo_t algo;
	void *data;
} algos[] = {
	{ gen_pool_first_fit, NULL },
	{ gen_pool_best_fit, NULL },
	{ gen_pool_first_fit_order_align, NULL },
	{ gen_pool_first_fit_align, &align16 },
	{ user_first_fit, NULL },
};
#define NALGOS ((int)(sizeof(algos) / sizeof(algos[0])))

/* Loop index @i: algorithm i % NALGOS, lock-free for the second half. */
static bool lockless_case(int i)
{
	return i >= NALGOS;
}

static struct gen_pool *records_pool(int i)
{
	struct gen_pool *pool = gen_pool_create(ORDER, -1);

	ck_assert_ptr_nonnull(pool);
	ck_assert_int_eq(gen_pool_use_block_records(pool), 0);
	gen_pool_set_algo(pool, algos[i % NALGOS].algo, algos[i % NALGOS].data);
	ck_assert_int_eq(gen_pool_add(pool, BASE, CHUNK, -1), 0);
	gen_pool_set_lockless(pool, lockless_case(i));
	capture_errors();
	return pool;
}

/* @a and @b of 256 bytes, side by side at the chunk's start. */
static void two_blocks(struct gen_pool *pool, unsigned long *a, unsigned long *b)
{
	*a = gen_pool_alloc(pool, 256);
	*b = gen_pool_alloc(pool, 256);
	EXPECT_EQ(*a, BASE);
	EXPECT_EQ(*b, BASE + 256);
}

/* Lock-free mode left @size bytes at @addr used without a record: give
 * them one (as a test may, white-box) and free them. */
static void orphan_repair(struct gen_pool *pool, unsigned long addr, size_t size)
{
	modern_records_mark(pool->chunks, (addr - BASE) >> ORDER, false);
	ck_assert_int_eq(gen_pool_check(pool), 0);
	gen_pool_free(pool, addr, size);
}

static void drop(struct gen_pool *pool)
{
	ck_assert_int_eq(gen_pool_check(pool), 0);
	ck_assert_int_eq(errors_seen(), 0);
	EXPECT_EQ(gen_pool_avail(pool), CHUNK);
	gen_pool_destroy(pool);
}

START_TEST(short_free)
{
	struct gen_pool *pool = records_pool(_i);
	unsigned long a = gen_pool_alloc(pool, 256);

	gen_pool_free(pool, a, 128);
	if (lockless_case(_i)) {
		/* Accepted there (genalloc.h says why); the checker sees the
		 * orphaned tail. */
		ck_assert_int_eq(errors_seen(), 0);
		ck_assert_int_eq(gen_pool_check(pool), -1);
		ck_assert_error(GENALLOC_BUG, GENALLOC_ECORRUPT);
		orphan_repair(pool, a + 128, 128);
		drop(pool);
		return;
	}
	assert_report_is(REPORT(GENALLOC_BUG, GENALLOC_ESIZE, "gen_pool_free", pool, a, 128,
				"size ends inside the block"));
	EXPECT_EQ(gen_pool_avail(pool), CHUNK - 256);
	ck_assert_int_eq(gen_pool_check(pool), 0);
	gen_pool_free(pool, a, 256);
	drop(pool);
}
END_TEST

START_TEST(interior_free)
{
	struct gen_pool *pool = records_pool(_i);
	unsigned long a = gen_pool_alloc(pool, 256);

	gen_pool_free(pool, a + 16, 240);
	assert_report_is(REPORT(GENALLOC_BUG, GENALLOC_EFOREIGN, "gen_pool_free", pool, a + 16,
				240, "address is inside a block, not at its start"));
	gen_pool_free(pool, a + 128, 16);
	ck_assert_error(GENALLOC_BUG, GENALLOC_EFOREIGN);
	EXPECT_EQ(gen_pool_avail(pool), CHUNK - 256);
	ck_assert_int_eq(gen_pool_check(pool), 0);
	gen_pool_free(pool, a, 256);
	drop(pool);
}
END_TEST

START_TEST(free_over_live_neighbour)
{
	struct gen_pool *pool = records_pool(_i);
	unsigned long a, b;

	two_blocks(pool, &a, &b);
	gen_pool_free(pool, a, 512);
	assert_report_is(REPORT(GENALLOC_BUG, GENALLOC_ESIZE, "gen_pool_free", pool, a, 512,
				"size runs past the end of the block"));
	EXPECT_EQ(gen_pool_avail(pool), CHUNK - 512);
	ck_assert_int_eq(gen_pool_check(pool), 0);
	/* b's owner frees it without a false double free. */
	gen_pool_free(pool, b, 256);
	gen_pool_free(pool, a, 256);
	drop(pool);
}
END_TEST

START_TEST(free_past_block_into_free_granules)
{
	struct gen_pool *pool = records_pool(_i);
	unsigned long a = gen_pool_alloc(pool, 256);

	gen_pool_free(pool, a, 272);
	/* The bitmap's own verdict, as without records. */
	ck_assert_error(GENALLOC_BUG, GENALLOC_EDOUBLEFREE);
	EXPECT_EQ(gen_pool_avail(pool), CHUNK - 256);
	gen_pool_free(pool, a, 256);
	drop(pool);
}
END_TEST

START_TEST(right_frees_are_accepted)
{
	struct gen_pool *pool = records_pool(_i);
	unsigned long a, b, c;

	two_blocks(pool, &a, &b);
	c = gen_pool_alloc(pool, 40);	/* rounded up to three granules */
	ck_assert_uint_ne(c, 0);
	/* Any size that rounds up to the block's granules is its size. */
	gen_pool_free(pool, c, 33);
	gen_pool_free(pool, b, 250);
	gen_pool_free(pool, a, 256);
	drop(pool);
}
END_TEST

START_TEST(free_by_address)
{
	struct gen_pool *pool = records_pool(_i);
	unsigned long a, b;

	two_blocks(pool, &a, &b);
	if (lockless_case(_i)) {
		EXPECT_EQ(gen_pool_free_addr(pool, a), 0);
		assert_report_is(REPORT(GENALLOC_WARN, GENALLOC_EINVAL, "gen_pool_free_addr",
					pool, a, 0, "not in lock-free mode"));
		gen_pool_set_lockless(pool, false);
	}
	EXPECT_EQ(gen_pool_free_addr(pool, b + 16), 0);
	assert_report_is(REPORT(GENALLOC_BUG, GENALLOC_EFOREIGN, "gen_pool_free_addr", pool,
				b + 16, 0, "address is inside a block, not at its start"));
	EXPECT_EQ(gen_pool_free_addr(pool, a), 256);
	EXPECT_EQ(gen_pool_free_addr(pool, a), 0);
	assert_report_is(REPORT(GENALLOC_BUG, GENALLOC_EDOUBLEFREE, "gen_pool_free_addr", pool,
				a, 0, "no block in use at this address"));
	EXPECT_EQ(gen_pool_free_addr(pool, a + 8), 0);
	ck_assert_error(GENALLOC_BUG, GENALLOC_EMISALIGNED);
	EXPECT_EQ(gen_pool_free_addr(pool, BASE + CHUNK), 0);
	ck_assert_error(GENALLOC_BUG, GENALLOC_EFOREIGN);
	EXPECT_EQ(gen_pool_avail(pool), CHUNK - 256);
	EXPECT_EQ(gen_pool_free_addr(pool, b), 256);
	drop(pool);
}
END_TEST

START_TEST(block_of_whole_chunk_at_the_end)
{
	struct gen_pool *pool = records_pool(_i);
	unsigned long a = gen_pool_alloc(pool, CHUNK);

	EXPECT_EQ(a, BASE);
	gen_pool_free(pool, a, CHUNK - 16);
	if (lockless_case(_i)) {
		ck_assert_int_eq(gen_pool_check(pool), -1);
		ck_assert_error(GENALLOC_BUG, GENALLOC_ECORRUPT);
		orphan_repair(pool, a + CHUNK - 16, 16);
		drop(pool);
		return;
	}
	ck_assert_error(GENALLOC_BUG, GENALLOC_ESIZE);
	EXPECT_EQ(gen_pool_free_addr(pool, a), CHUNK);
	drop(pool);
}
END_TEST

START_TEST(without_records_partial_free_is_the_kernels)
{
	struct gen_pool *pool = gen_pool_create(ORDER, -1);
	unsigned long a;

	ck_assert_int_eq(gen_pool_add(pool, BASE, CHUNK, -1), 0);
	capture_errors();
	a = gen_pool_alloc(pool, 256);
	gen_pool_free(pool, a, 128);
	ck_assert_int_eq(errors_seen(), 0);
	EXPECT_EQ(gen_pool_avail(pool), CHUNK - 128);
	EXPECT_EQ(gen_pool_free_addr(pool, a + 128), 0);
	assert_report_is(REPORT(GENALLOC_WARN, GENALLOC_EINVAL, "gen_pool_free_addr", pool,
				a + 128, 0, "the pool keeps no block records"));
	gen_pool_free(pool, a + 128, 128);
	drop(pool);
}
END_TEST

START_TEST(opt_in_only_before_memory)
{
	struct gen_pool *pool = gen_pool_create(ORDER, -1);

	capture_errors();
	ck_assert_int_eq(gen_pool_use_block_records(NULL), -EINVAL);
	ck_assert_error(GENALLOC_WARN, GENALLOC_EINVAL);
	ck_assert_int_eq(gen_pool_add(pool, BASE, CHUNK, -1), 0);
	ck_assert_int_eq(gen_pool_use_block_records(pool), -EINVAL);
	assert_report_is(REPORT(GENALLOC_WARN, GENALLOC_EINVAL, "gen_pool_use_block_records",
				pool, 0, 0, "the pool already has memory"));
	ck_assert(!pool->records);
	drop(pool);
}
END_TEST

START_TEST(added_used_is_one_block)
{
	struct gen_pool *pool = records_pool(0);

	ck_assert_int_eq(gen_pool_add_used(pool, 2 * BASE, 1024, -1), 0);
	ck_assert_int_eq(gen_pool_check(pool), 0);
	gen_pool_free(pool, 2 * BASE + 64, 64);
	ck_assert_error(GENALLOC_BUG, GENALLOC_EFOREIGN);
	EXPECT_EQ(gen_pool_free_addr(pool, 2 * BASE), 1024);
	ck_assert_int_eq(gen_pool_check(pool), 0);
	/* The newest chunk first, as in the kernel: the block is free again. */
	EXPECT_EQ(gen_pool_alloc(pool, 64), 2 * BASE);
	gen_pool_free(pool, 2 * BASE, 64);
	EXPECT_EQ(gen_pool_avail(pool), CHUNK + 1024);
	gen_pool_destroy(pool);
}
END_TEST

/* The checker compares the records with the bitmap, both ways. */
START_TEST(checker_verifies_records)
{
	struct gen_pool *pool = records_pool(0);
	struct gen_pool_chunk *chunk = pool->chunks;
	unsigned long a = gen_pool_alloc(pool, 64);

	modern_records_unmark(chunk, 0, false);
	ck_assert_int_eq(gen_pool_check(pool), -1);
	assert_report_is(REPORT(GENALLOC_BUG, GENALLOC_ECORRUPT, "gen_pool_check", pool, BASE,
				CHUNK, "used granules with no block record"));
	modern_records_mark(chunk, 0, false);
	modern_records_mark(chunk, 100, false);
	ck_assert_int_eq(gen_pool_check(pool), -1);
	assert_report_is(REPORT(GENALLOC_BUG, GENALLOC_ECORRUPT, "gen_pool_check", pool, BASE,
				CHUNK, "block record on a free granule"));
	modern_records_unmark(chunk, 100, false);
	/* A record at a word's first granule continuing a run from the
	 * word before is a block of its own: allowed. */
	gen_pool_free(pool, a, 64);
	drop(pool);
}
END_TEST

/* A model: the live blocks by first granule, their length in granules. */
#define NGRAN (CHUNK >> ORDER)

struct model {
	unsigned int len[NGRAN];
	unsigned long live[NGRAN];
	int nlive;
};

static void model_remove(struct model *m, int k)
{
	m->len[(m->live[k] - BASE) >> ORDER] = 0;
	m->live[k] = m->live[--m->nlive];
}

/* One wrong free of live block @k, chosen at random; nothing may change. */
static void wrong_free(struct gen_pool *pool, const struct model *m, int k, bool lockless)
{
	unsigned long a = m->live[k], len = m->len[(a - BASE) >> ORDER];
	size_t avail = gen_pool_avail(pool);

	switch (rand() % 3) {
	case 0:		/* interior */
		if (len < 2)
			return;
		gen_pool_free(pool, a + ((1 + (unsigned long)rand() % (len - 1)) << ORDER), 16);
		ck_assert_error(GENALLOC_BUG, GENALLOC_EFOREIGN);
		break;
	case 1:		/* short: lock-free mode cannot tell */
		if (len < 2 || lockless)
			return;
		gen_pool_free(pool, a, (len - 1) << ORDER);
		ck_assert_error(GENALLOC_BUG, GENALLOC_ESIZE);
		break;
	default:	/* long: over whatever follows */
		if (((a - BASE) >> ORDER) + len >= NGRAN)
			return;
		gen_pool_free(pool, a, (len + 1) << ORDER);
		ck_assert_int_eq(errors_seen(), 1);
		ck_assert_int_eq(last_error()->severity, GENALLOC_BUG);
		reset_errors();
		break;
	}
	EXPECT_EQ(gen_pool_avail(pool), avail);
}

/* The walk against the model: runs tile the chunk, used runs are exactly
 * the live blocks, and no block starts inside a free run. */
struct walk_check {
	const struct model *m;
	unsigned long next;	/* the granule the next run must start at */
	int blocks;
};

static int check_run(struct gen_pool *pool, struct gen_pool_chunk *chunk, unsigned long addr,
		     size_t size, bool used, void *data)
{
	struct walk_check *w = data;
	unsigned long g = (addr - BASE) >> ORDER, n = size >> ORDER;

	(void)pool;
	(void)chunk;
	EXPECT_EQ(g, w->next);
	if (used) {
		EXPECT_EQ(w->m->len[g], n);
		w->blocks++;
	} else {
		for (unsigned long i = g; i < g + n; i++)
			EXPECT_EQ(w->m->len[i], 0);
	}
	w->next = g + n;
	return 0;
}

static void walk_matches(struct gen_pool *pool, const struct model *m)
{
	struct walk_check w = { m, 0, 0 };

	ck_assert_int_eq(gen_pool_for_each_run(pool, GEN_POOL_RUNS_ALL, check_run, &w), 0);
	EXPECT_EQ(w.next, NGRAN);
	ck_assert_int_eq(w.blocks, m->nlive);
}

START_TEST(walk_tells_blocks_apart)
{
	struct gen_pool *pool = records_pool(_i);
	unsigned long a, b;
	struct walk_check w = { NULL, 0, 0 };
	struct model *m = calloc(1, sizeof(*m));

	two_blocks(pool, &a, &b);
	m->len[0] = m->len[16] = 16;
	m->nlive = 2;
	w.m = m;
	ck_assert_int_eq(gen_pool_for_each_run(pool, GEN_POOL_RUNS_ALL, check_run, &w), 0);
	ck_assert_int_eq(w.blocks, 2);
	EXPECT_EQ(w.next, NGRAN);
	gen_pool_free(pool, a, 256);
	gen_pool_free(pool, b, 256);
	free(m);
	drop(pool);
}
END_TEST

START_TEST(random_against_model)
{
	struct gen_pool *pool = records_pool(_i);
	struct model *m = calloc(1, sizeof(*m));
	bool lockless = lockless_case(_i);

	srand(39u + (unsigned int)_i);
	for (int step = 0; step < 3000; step++) {
		int r = rand() % 8;

		if (r < 4 || !m->nlive) {
			size_t size = 1 + (size_t)rand() % 300;
			unsigned long a = gen_pool_alloc(pool, size);

			if (a) {
				m->len[(a - BASE) >> ORDER] = (unsigned int)((size + 15) >> ORDER);
				m->live[m->nlive++] = a;
			}
		} else if (r < 7) {
			int k = rand() % m->nlive;
			unsigned long a = m->live[k];

			if (!lockless && rand() % 2)
				EXPECT_EQ(gen_pool_free_addr(pool, a),
					  m->len[(a - BASE) >> ORDER] << ORDER);
			else
				gen_pool_free(pool, a, m->len[(a - BASE) >> ORDER] << ORDER);
			model_remove(m, k);
		} else {
			wrong_free(pool, m, rand() % m->nlive, lockless);
		}
		ck_assert_int_eq(errors_seen(), 0);
		ck_assert_int_eq(gen_pool_check(pool), 0);
		if (step % 50 == 0)
			walk_matches(pool, m);
	}
	while (m->nlive)
		gen_pool_free(pool, m->live[0], m->len[(m->live[0] - BASE) >> ORDER] << ORDER),
			model_remove(m, 0);
	free(m);
	drop(pool);
}
END_TEST

/* The word-at-a-time range test against a bit-by-bit one, on sparse maps
 * and ranges of every alignment from one bit to sixteen words. */
START_TEST(any_set_matches_bit_by_bit)
{
	unsigned long map[24];	/* ranges end before bit 1300 */

	srand(7);
	for (int round = 0; round < 2000; round++) {
		unsigned long from = (unsigned long)rand() % 300, to = from + (unsigned long)rand() % 1000;
		bool want = false;

		memset(map, 0, sizeof(map));
		for (int k = rand() % 3; k > 0; k--) {
			unsigned long b = (unsigned long)rand() % (20 * MODERN_BITS_PER_LONG);

			map[b / MODERN_BITS_PER_LONG] |= 1UL << (b % MODERN_BITS_PER_LONG);
		}
		for (unsigned long b = from; b < to; b++)
			want |= (map[b / MODERN_BITS_PER_LONG] >> (b % MODERN_BITS_PER_LONG)) & 1;
		ck_assert_int_eq(modern_records_any(map, from, to), want);
	}
}
END_TEST

Suite *modern_records_suite(void)
{
	Suite *s = suite_create("modern_records");
	TCase *tc = tcase_create("records");

	tcase_add_loop_test(tc, short_free, 0, 2 * NALGOS);
	tcase_add_loop_test(tc, interior_free, 0, 2 * NALGOS);
	tcase_add_loop_test(tc, free_over_live_neighbour, 0, 2 * NALGOS);
	tcase_add_loop_test(tc, free_past_block_into_free_granules, 0, 2 * NALGOS);
	tcase_add_loop_test(tc, right_frees_are_accepted, 0, 2 * NALGOS);
	tcase_add_loop_test(tc, free_by_address, 0, 2 * NALGOS);
	tcase_add_loop_test(tc, block_of_whole_chunk_at_the_end, 0, 2 * NALGOS);
	tcase_add_test(tc, without_records_partial_free_is_the_kernels);
	tcase_add_test(tc, opt_in_only_before_memory);
	tcase_add_test(tc, added_used_is_one_block);
	tcase_add_test(tc, checker_verifies_records);
	tcase_add_test(tc, any_set_matches_bit_by_bit);
	tcase_add_loop_test(tc, walk_tells_blocks_apart, 0, 2 * NALGOS);
	tcase_add_loop_test(tc, random_against_model, 0, 2 * NALGOS);
	suite_add_tcase(s, tc);
	return s;
}
