// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * test/legacy/test_inspect.c - looking into a pool: statistics, the region
 * walk, and the checker, which must notice each kind of damage (the tests
 * damage the pool through the engine's internal view, then repair it).
 */
#include <signal.h>
#include <stdlib.h>

#include "../support.h"
#include "chunks.h"
#include "legacy/internal.h"

static struct chunk_supply cs;
static struct gen_pool *pool;
static unsigned long C;

static void setup(void)
{
	chunk_supply_init(&cs, 12, 4);
	C = chunk_at(&cs, 0);
	pool = supply_pool(&cs, 0);
}

START_TEST(stats_follow_the_pool)
{
	struct legacy_gen_pool_stats st;
	unsigned long meta;

	legacy_gen_pool_stats(pool, &st);
	ck_assert_uint_eq(st.obtained_bytes, 0);
	ck_assert_uint_eq(st.free_bytes, 0);
	ck_assert_uint_eq(st.largest_free, 0);
	ck_assert_uint_gt(st.metadata_bytes, sizeof(struct gen_pool));
	meta = st.metadata_bytes;

	ck_assert_uint_eq(gen_pool_alloc(pool, 100), C);
	legacy_gen_pool_stats(pool, &st);
	ck_assert_uint_eq(st.obtained_bytes, 4096);
	ck_assert_uint_eq(st.donated_bytes, 0);
	ck_assert_uint_eq(st.free_bytes, 4096 - 128);
	ck_assert_uint_eq(st.largest_free, 2048);
	for (int i = 0; i < 32; i++)
		ck_assert_uint_eq(st.nr_free[i], i >= 2 && i < 7);
	/* One frame of control bytes: one per 32 bytes. */
	ck_assert_uint_ge(st.metadata_bytes - meta, 4096 / 32);
	gen_pool_free(pool, C, 100);
	legacy_gen_pool_stats(pool, &st);
	ck_assert_uint_eq(st.free_bytes, 4096);
	ck_assert_uint_eq(st.largest_free, 4096);
	gen_pool_destroy(pool);
}
END_TEST

/* ------------------------------------------------------------ regions */

struct region {
	unsigned long addr, size;
	int from_callback;
};

struct seen {
	struct region r[16];
	int n;
};

static void record(struct gen_pool *p, unsigned long addr, unsigned long size,
		   int from_callback, void *data)
{
	struct seen *s = data;

	ck_assert_ptr_eq(p, pool);
	ck_assert_int_lt(s->n, 16);
	s->r[s->n++] = (struct region){ addr, size, from_callback };
}

static int by_addr(const void *a, const void *b)
{
	const struct region *x = a, *y = b;

	return (x->addr > y->addr) - (x->addr < y->addr);
}

START_TEST(regions_are_chunks_and_donated_runs)
{
	unsigned long d = (unsigned long)test_region(4096, 6 * 4096);
	struct seen s = { .n = 0 };

	ck_assert_uint_eq(gen_pool_alloc(pool, 4096), C);
	ck_assert_uint_eq(gen_pool_alloc(pool, 32), chunk_at(&cs, 1));
	gen_pool_free(pool, d, 4096);			/* frames 0 and 1 whole: */
	gen_pool_free(pool, d + 4096, 4096);		/* one run of 8192 */
	gen_pool_free(pool, d + 3 * 4096 - 32, 32);	/* across frames 2|3: */
	gen_pool_free(pool, d + 3 * 4096, 64);		/* one run of 96 */
	gen_pool_free(pool, d + 3 * 4096 + 256, 256);	/* alone in frame 3 */
	gen_pool_free(pool, d + 5 * 4096, 32);		/* frame 5, after a gap */
	assert_consistent(pool);

	legacy_gen_pool_for_each_region(pool, record, &s);
	qsort(s.r, (size_t)s.n, sizeof(s.r[0]), by_addr);
	ck_assert_int_eq(s.n, 6);
	ck_assert_uint_eq(s.r[0].addr, C);
	ck_assert_uint_eq(s.r[0].size, 4096);
	ck_assert_int_eq(s.r[0].from_callback, 1);
	ck_assert_uint_eq(s.r[1].addr, chunk_at(&cs, 1));
	ck_assert_int_eq(s.r[1].from_callback, 1);
	ck_assert_uint_eq(s.r[2].addr, d);
	ck_assert_uint_eq(s.r[2].size, 8192);
	ck_assert_int_eq(s.r[2].from_callback, 0);
	ck_assert_uint_eq(s.r[3].addr, d + 3 * 4096 - 32);
	ck_assert_uint_eq(s.r[3].size, 96);
	ck_assert_uint_eq(s.r[4].addr, d + 3 * 4096 + 256);
	ck_assert_uint_eq(s.r[4].size, 256);
	ck_assert_uint_eq(s.r[5].addr, d + 5 * 4096);
	ck_assert_uint_eq(s.r[5].size, 32);
}
END_TEST

START_TEST(many_frames_grow_the_table)
{
	/* More frames than the table's first slots: it must grow. */
	unsigned long d = (unsigned long)test_region(64, 64 * 64);
	struct gen_pool *p = alloc_gen_pool(0, ALLOC_MIN_SHIFT + 1, NULL, 0);
	struct legacy_gen_pool_stats st;

	for (int i = 0; i < 64; i++)
		gen_pool_free(p, d + 64UL * (unsigned long)i + 32, 32);
	for (int i = 0; i < 64; i++)
		gen_pool_free(p, d + 64UL * (unsigned long)i, 32);
	ck_assert_int_eq(legacy_gen_pool_check(p), 0);
	legacy_gen_pool_stats(p, &st);
	ck_assert_uint_eq(st.nr_free[1], 64);
	ck_assert_uint_eq(st.donated_bytes, 64 * 64);
	for (int i = 0; i < 64; i++)
		ck_assert_uint_ne(gen_pool_alloc(p, 64), 0);
	for (int i = 0; i < 64; i++)
		gen_pool_free(p, d + 64UL * (unsigned long)i, 64);
	gen_pool_destroy(p);
}
END_TEST

/* Frames of 4 MiB chunks are 128 KiB: frame n starts n cache lines into its
 * allocation, so that the headers do not all share one L1 set.  Small
 * frames are not shifted (it would cost more than 1/32 of them). */
START_TEST(large_frames_start_a_cache_line_apart)
{
	unsigned long size = 1UL << 22;
	unsigned long d = (unsigned long)test_region(size, 3 * size);
	struct gen_pool *big = alloc_gen_pool(0, 22, NULL, 0);
	struct gen_pool *small = alloc_gen_pool(0, 12, NULL, 0);

	for (unsigned long n = 0; n < 3; n++) {
		struct legacy_frame *f;

		gen_pool_free(big, d + n * size, 32);
		f = legacy_map_find(big, d + n * size);
		ck_assert_uint_eq((unsigned long)((char *)f - (char *)f->mem), n * 64);
		gen_pool_free(small, d + n * size + 32, 32);
		f = legacy_map_find(small, d + n * size + 32);
		ck_assert_ptr_eq(f->mem, f);
	}
	gen_pool_destroy(big);
	gen_pool_destroy(small);
}
END_TEST

/* ------------------------------------------------------------ checker */

/* Live C (32) and C + 128 (128); free C + 32 (32), C + 64 (64), 256.. */
static void prepare(void)
{
	ck_assert_uint_eq(gen_pool_alloc(pool, 32), C);
	ck_assert_uint_eq(gen_pool_alloc(pool, 32), C + 32);
	ck_assert_uint_eq(gen_pool_alloc(pool, 128), C + 128);
	gen_pool_free(pool, C + 32, 32);
	assert_consistent(pool);
	capture_errors();
}

static unsigned char *ctrl_of(unsigned long a)
{
	return legacy_ctrl(legacy_map_find(pool, a), a);
}

#define assert_damage_found()                                                \
	do {                                                                 \
		ck_assert_int_eq(legacy_gen_pool_check(pool), -1);           \
		ck_assert_error(GENALLOC_BUG, GENALLOC_ECORRUPT);            \
	} while (0)

/* Damage a control byte, expect the checker to see it, repair. */
static void poke_ctrl(unsigned long a, unsigned char bad)
{
	unsigned char *c = ctrl_of(a), good = *c;

	*c = bad;
	assert_damage_found();
	*c = good;
	assert_consistent(pool);
}

START_TEST(checker_sees_bad_control_bytes)
{
	prepare();
	poke_ctrl(C, 0x20);					/* invalid */
	poke_ctrl(C, LEGACY_CTRL_FREE | LEGACY_CTRL_LIVE);	/* both */
	poke_ctrl(C, LEGACY_CTRL_INTERIOR);			/* orphan interior */
	poke_ctrl(C, LEGACY_CTRL_UNKNOWN);			/* hole in a chunk */
	poke_ctrl(C + 160, LEGACY_CTRL_LIVE);			/* overlap */
	poke_ctrl(C + 32, LEGACY_CTRL_FREE | 1);		/* misaligned */
	poke_ctrl(C + 2048, LEGACY_CTRL_FREE | 7);		/* past the chunk */
	poke_ctrl(C + 2048, LEGACY_CTRL_FREE | 12);		/* order too big */
	poke_ctrl(C, LEGACY_CTRL_FREE);				/* unmerged buddies */
	poke_ctrl(C + 32, LEGACY_CTRL_LIVE);			/* list too long */
	poke_ctrl(C + 64, LEGACY_CTRL_FREE | 0);		/* not its order */
}
END_TEST

/* Two free buddies left unmerged while the lists, the map and the counters
 * all agree: only the merge rule can tell.  (The "unmerged buddies" poke
 * above also leaves a free block off its list, which another rule finds,
 * so a checker without the merge rule passed it.) */
START_TEST(checker_sees_unmerged_buddies)
{
	struct gen_pool_link *l = (struct gen_pool_link *)C, *head;

	prepare();
	head = pool->h[0].next;			/* C + 32, the only free 32 */
	ck_assert_ptr_eq(head, (struct gen_pool_link *)(C + 32));
	*ctrl_of(C) = LEGACY_CTRL_FREE | 0;	/* "free" C without merging */
	l->next = head;
	l->prev = &pool->h[0];
	head->prev = l;
	pool->h[0].next = l;
	pool->nr_free[0]++;
	pool->free_bytes += 32;
	assert_damage_found();
	pool->h[0].next = head;			/* C live again */
	head->prev = &pool->h[0];
	*ctrl_of(C) = LEGACY_CTRL_LIVE | 0;
	pool->nr_free[0]--;
	pool->free_bytes -= 32;
	assert_consistent(pool);
}
END_TEST

START_TEST(checker_sees_broken_lists)
{
	struct gen_pool_link *l = (struct gen_pool_link *)(C + 32), saved;
	struct gen_pool_link *head;

	prepare();
	saved = *l;
	l->prev = NULL;				/* back link */
	assert_damage_found();
	*l = saved;
	l->next = (struct gen_pool_link *)C;	/* points at a live block */
	assert_damage_found();
	*l = saved;
	head = pool->h[0].next;
	pool->h[0].next = NULL;			/* free block off its list */
	assert_damage_found();
	pool->h[0].next = (struct gen_pool_link *)(C + 64);	/* wrong order */
	assert_damage_found();
	pool->h[0].next = head;
	assert_consistent(pool);
}
END_TEST

START_TEST(checker_sees_wrong_counters)
{
	prepare();
	pool->free_bytes += 32;
	assert_damage_found();
	pool->free_bytes -= 32;
	pool->obtained_bytes += 4096;
	assert_damage_found();
	pool->obtained_bytes -= 4096;
	pool->donated_bytes += 32;
	assert_damage_found();
	pool->donated_bytes -= 32;
	pool->nr_free[3]++;
	assert_damage_found();
	pool->nr_free[3]--;
	assert_consistent(pool);
}
END_TEST

START_TEST(checker_damage_aborts)
{
	prepare();
	expect_death();
	*ctrl_of(C + 160) = LEGACY_CTRL_LIVE;
	legacy_gen_pool_check(pool);
}
END_TEST

Suite *legacy_inspect_suite(void)
{
	Suite *s = suite_create("legacy_inspect");
	TCase *tc = tcase_create("inspect");

	tcase_add_checked_fixture(tc, setup, NULL);
	tcase_add_test(tc, stats_follow_the_pool);
	tcase_add_test(tc, regions_are_chunks_and_donated_runs);
	tcase_add_test(tc, many_frames_grow_the_table);
	tcase_add_test(tc, large_frames_start_a_cache_line_apart);
	tcase_add_test(tc, checker_sees_bad_control_bytes);
	tcase_add_test(tc, checker_sees_unmerged_buddies);
	tcase_add_test(tc, checker_sees_broken_lists);
	tcase_add_test(tc, checker_sees_wrong_counters);
	tcase_add_test_raise_signal(tc, checker_damage_aborts, SIGABRT);
	suite_add_tcase(s, tc);
	return s;
}
