// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * test/modern/test_algo.c - exact placement tables for every built-in
 * algorithm: unaligned chunk starts, runs across 64-bit words, holes reused,
 * best-fit ties, fixed offsets in several chunks, alignment offsets; and the
 * claim's retry after a compare-and-swap conflict.
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>

#include "../support.h"
#include "modern/genalloc.h"
#include "drain.h"
#include "modern/bitmap_internal.h"

struct step {
	char op;		/* 'a' allocate, 'f' free */
	unsigned long size;
	unsigned long addr;	/* expected (alloc) or given (free) */
};

static struct gen_pool *pool_with(int order, unsigned long start, unsigned long size)
{
	struct gen_pool *pool = gen_pool_create(order, -1);

	ck_assert_ptr_nonnull(pool);
	ck_assert_int_eq(gen_pool_add(pool, start, size, -1), 0);
	return pool;
}

static void run(struct gen_pool *pool, genpool_algo_t algo, void *data,
		const struct step *steps, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		if (steps[i].op == 'a')
			ck_assert_msg(gen_pool_alloc_algo(pool, steps[i].size, algo, data) ==
				      steps[i].addr, "step %zu: alloc %lu, want %#lx", i,
				      steps[i].size, steps[i].addr);
		else
			gen_pool_free(pool, steps[i].addr, steps[i].size);
		ck_assert_int_eq(gen_pool_check(pool), 0);
	}
}

#define RUN(pool, algo, data, steps) run(pool, algo, data, steps, sizeof(steps) / sizeof(steps[0]))

START_TEST(first_fit_table)
{
	/* 8-byte granules, 200 granules: the bitmap spans four words. */
	struct gen_pool *pool = pool_with(3, 0x10000, 200 * 8);
	static const struct step steps[] = {
		{ 'a', 60 * 8, 0x10000 },		/* granules 0..59 */
		{ 'a', 10 * 8, 0x10000 + 60 * 8 },	/* 60..69 crosses word 0/1 */
		{ 'a', 1, 0x10000 + 70 * 8 },
		{ 'f', 60 * 8, 0x10000 },
		{ 'a', 61 * 8, 0x10000 + 71 * 8 },	/* the hole at 0 is too small */
		{ 'a', 60 * 8, 0x10000 },		/* hole reused exactly */
		{ 'a', 68 * 8, 0x10000 + 132 * 8 },	/* up to the last granule */
		{ 'a', 1, 0 },
		{ 'f', 1, 0x10000 + 70 * 8 },
		{ 'a', 8, 0x10000 + 70 * 8 },
		{ 'f', 60 * 8, 0x10000 },
		{ 'f', 10 * 8, 0x10000 + 60 * 8 },
		{ 'f', 8, 0x10000 + 70 * 8 },
		{ 'f', 61 * 8, 0x10000 + 71 * 8 },
		{ 'f', 68 * 8, 0x10000 + 132 * 8 },
	};

	RUN(pool, gen_pool_first_fit, NULL, steps);
	gen_pool_destroy(pool);
}
END_TEST

START_TEST(first_fit_align_absolute)
{
	/* Chunk start 0x1008 is not 64-aligned: align_off = 1 granule. */
	struct gen_pool *pool = pool_with(3, 0x1008, 0x400);
	struct genpool_data_align a64 = { .align = 64 }, a2 = { .align = 2 };
	struct genpool_data_align a256 = { .align = 256 };
	static const struct step s64[] = {
		{ 'a', 8, 0x1040 },	/* granule 7: 0x1008 + 7 * 8 */
		{ 'a', 8, 0x1080 },
		{ 'a', 100, 0x10c0 },	/* 13 granules */
		{ 'a', 8, 0x1140 },	/* 0x1100 is inside the 100-byte block */
	};
	static const struct step s2[] = {
		{ 'a', 1, 0x1008 },	/* below a granule: plain first fit */
		{ 'a', 8, 0x1010 },
	};
	static const struct step s256[] = {
		{ 'a', 8, 0x1200 },	/* 0x1100 is taken */
		{ 'a', 0x110, 0 },	/* 34 granules from 0x1300 pass the end */
		{ 'a', 0x100, 0x1300 },
		{ 'a', 8, 0x1400 },	/* the very last granule */
		{ 'a', 8, 0 },
	};

	RUN(pool, gen_pool_first_fit_align, &a64, s64);
	RUN(pool, gen_pool_first_fit_align, &a2, s2);
	RUN(pool, gen_pool_first_fit_align, &a256, s256);
	ck_assert_uint_eq(gen_pool_avail(pool), 0x400 - 416);
	drain_and_destroy(pool);
}
END_TEST

START_TEST(dma_align_in_second_chunk)
{
	struct gen_pool *pool = gen_pool_create(4, -1);
	struct genpool_data_align a = { .align = 0x100 };

	ck_assert_ptr_nonnull(pool);
	ck_assert_int_eq(gen_pool_add(pool, 0x2030, 0x100, -1), 0);	/* no 0x100-aligned 0x40 run */
	ck_assert_int_eq(gen_pool_add(pool, 0x5010, 0x80, -1), 0);	/* newest, none either */
	ck_assert_uint_eq(gen_pool_alloc_algo(pool, 0x40, gen_pool_first_fit_align, &a), 0);
	ck_assert_int_eq(gen_pool_add(pool, 0x8020, 0x200, -1), 0);
	ck_assert_uint_eq(gen_pool_alloc_algo(pool, 0x40, gen_pool_first_fit_align, &a), 0x8100);
	/* the newest chunk still has an aligned granule at 0x8200 */
	ck_assert_uint_eq(gen_pool_alloc_algo(pool, 0x10, gen_pool_first_fit_align, &a), 0x8200);
	ck_assert_uint_eq(gen_pool_alloc_algo(pool, 0x10, gen_pool_first_fit_align, &a), 0x2100);
	ck_assert_int_eq(gen_pool_check(pool), 0);
	drain_and_destroy(pool);
}
END_TEST

START_TEST(order_align_relative_to_chunk)
{
	/* Start 0x2008: order alignment is relative to the chunk, not absolute. */
	struct gen_pool *pool = pool_with(3, 0x2008, 64 * 8 + 4);
	static const struct step steps[] = {
		{ 'a', 8, 0x2008 },		/* 1 granule at 0 */
		{ 'a', 24, 0x2008 + 4 * 8 },	/* 3 granules, aligned to 4 */
		{ 'a', 8, 0x2008 + 1 * 8 },
		{ 'a', 16, 0x2008 + 2 * 8 },	/* 2 granules, aligned to 2 */
		{ 'a', 8, 0x2008 + 7 * 8 },	/* only 3 of 4 were taken */
		{ 'a', 40, 0x2008 + 8 * 8 },	/* 5 granules aligned to 8 */
		{ 'a', 9 * 8, 0x2008 + 16 * 8 },	/* 9 aligned to 16 */
		{ 'a', 33 * 8, 0 },		/* 33 aligned to 64: nowhere */
		{ 'f', 40, 0x2008 + 8 * 8 },
		{ 'a', 8, 0x2008 + 8 * 8 },	/* hole reused */
		{ 'a', 32, 0x2008 + 12 * 8 },	/* 4 aligned to 4 */
	};

	RUN(pool, gen_pool_first_fit_order_align, NULL, steps);
	drain_and_destroy(pool);
}
END_TEST

START_TEST(best_fit_table)
{
	/* 16-byte granules, 40 granules; holes carved by a first-fit fill. */
	struct gen_pool *pool = pool_with(4, 0x40000, 40 * 16);
	unsigned long i;

	for (i = 0; i < 40; i++)
		ck_assert_uint_eq(gen_pool_alloc(pool, 16), 0x40000 + i * 16);
	/* holes: A 2..5 (4), B 8..9 (2), C 12..14 (3), D 20..21 (2), E 30..39 (10) */
	gen_pool_free(pool, 0x40000 + 2 * 16, 4 * 16);
	gen_pool_free(pool, 0x40000 + 8 * 16, 2 * 16);
	gen_pool_free(pool, 0x40000 + 12 * 16, 3 * 16);
	gen_pool_free(pool, 0x40000 + 20 * 16, 2 * 16);
	gen_pool_free(pool, 0x40000 + 30 * 16, 10 * 16);
	ck_assert_int_eq(gen_pool_check(pool), 0);

	/* 3 granules: C is exact. */
	ck_assert_uint_eq(gen_pool_alloc_algo(pool, 48, gen_pool_best_fit, NULL),
			  0x40000 + 12 * 16);
	/* 1 granule: B and D tie at 2; the lower wins. */
	ck_assert_uint_eq(gen_pool_alloc_algo(pool, 16, gen_pool_best_fit, NULL),
			  0x40000 + 8 * 16);
	/* 1 granule again: B's rest (9) is an exact fit. */
	ck_assert_uint_eq(gen_pool_alloc_algo(pool, 16, gen_pool_best_fit, NULL),
			  0x40000 + 9 * 16);
	/* 2 granules: D exact (A has 4). */
	ck_assert_uint_eq(gen_pool_alloc_algo(pool, 17, gen_pool_best_fit, NULL),
			  0x40000 + 20 * 16);
	/* 5 granules: only E. */
	ck_assert_uint_eq(gen_pool_alloc_algo(pool, 80, gen_pool_best_fit, NULL),
			  0x40000 + 30 * 16);
	/* 3 granules: A (4) beats E's rest (5). */
	ck_assert_uint_eq(gen_pool_alloc_algo(pool, 48, gen_pool_best_fit, NULL),
			  0x40000 + 2 * 16);
	ck_assert_uint_eq(gen_pool_alloc_algo(pool, 6 * 16, gen_pool_best_fit, NULL), 0);
	ck_assert_int_eq(gen_pool_check(pool), 0);
	drain_and_destroy(pool);
}
END_TEST

START_TEST(best_fit_is_per_chunk)
{
	struct gen_pool *pool = gen_pool_create(3, -1);

	ck_assert_ptr_nonnull(pool);
	ck_assert_int_eq(gen_pool_add(pool, 0x10000, 8, -1), 0);	/* exact, but older */
	ck_assert_int_eq(gen_pool_add(pool, 0x20000, 64, -1), 0);
	ck_assert_uint_eq(gen_pool_alloc_algo(pool, 8, gen_pool_best_fit, NULL), 0x20000);
	ck_assert_uint_eq(gen_pool_alloc_algo(pool, 64, gen_pool_best_fit, NULL), 0);
	ck_assert_uint_eq(gen_pool_alloc_algo(pool, 56, gen_pool_best_fit, NULL), 0x20008);
	ck_assert_uint_eq(gen_pool_alloc_algo(pool, 8, gen_pool_best_fit, NULL), 0x10000);
	drain_and_destroy(pool);
}
END_TEST

START_TEST(fixed_offsets_in_each_chunk)
{
	struct gen_pool *pool = gen_pool_create(4, -1);
	struct genpool_data_fixed at30 = { .offset = 0x30 }, at0 = { .offset = 0 };
	struct genpool_data_fixed far = { .offset = 0x100 }, edge = { .offset = 0x70 };

	ck_assert_ptr_nonnull(pool);
	ck_assert_int_eq(gen_pool_add(pool, 0x10000, 0x80, -1), 0);
	ck_assert_int_eq(gen_pool_add(pool, 0x20000, 0x80, -1), 0);
	ck_assert_uint_eq(gen_pool_alloc_algo(pool, 0x20, gen_pool_fixed_alloc, &at30), 0x20030);
	/* taken in the newest chunk: the same offset in the older one */
	ck_assert_uint_eq(gen_pool_alloc_algo(pool, 0x10, gen_pool_fixed_alloc, &at30), 0x10030);
	ck_assert_uint_eq(gen_pool_alloc_algo(pool, 0x10, gen_pool_fixed_alloc, &at30), 0);
	/* a run that would overlap a taken granule fails even if it starts free */
	ck_assert_uint_eq(gen_pool_alloc_algo(pool, 0x40, gen_pool_fixed_alloc, &at0), 0);
	ck_assert_uint_eq(gen_pool_alloc_algo(pool, 0x30, gen_pool_fixed_alloc, &at0), 0x20000);
	ck_assert_uint_eq(gen_pool_alloc_algo(pool, 0x10, gen_pool_fixed_alloc, &far), 0);
	ck_assert_uint_eq(gen_pool_alloc_algo(pool, 0x20, gen_pool_fixed_alloc, &edge), 0);
	ck_assert_uint_eq(gen_pool_alloc_algo(pool, 0x10, gen_pool_fixed_alloc, &edge), 0x20070);
	ck_assert_int_eq(gen_pool_check(pool), 0);
	/* called directly: only start 0 can match the offset (the kernel's rule) */
	ck_assert_uint_eq(gen_pool_fixed_alloc(atomic_load(&pool->chunks)->bits, 8, 1, 1,
					       &edge, pool, 0x20000), 8);
	ck_assert_uint_eq(gen_pool_fixed_alloc(atomic_load(&pool->chunks)->bits, 8, 5, 1,
					       &edge, pool, 0x20000), 8);
	drain_and_destroy(pool);
}
END_TEST

START_TEST(algorithms_direct_calls)
{
	unsigned long map[2] = { 0x0fUL, 0 };
	struct gen_pool *pool = gen_pool_create(0, -1);
	struct genpool_data_align a = { .align = 4 };

	ck_assert_ptr_nonnull(pool);
	ck_assert_uint_eq(gen_pool_first_fit(map, 100, 0, 3, NULL, pool, 0x1000), 4);
	ck_assert_uint_eq(gen_pool_first_fit(map, 100, 10, 3, NULL, pool, 0x1000), 10);
	ck_assert_uint_ge(gen_pool_first_fit(map, 100, 0, 97, NULL, pool, 0x1000), 100);
	ck_assert_uint_eq(gen_pool_first_fit_align(map, 100, 0, 1, &a, pool, 0x1001), 7);
	ck_assert_uint_eq(gen_pool_first_fit_order_align(map, 100, 0, 5, NULL, pool, 0), 8);
	ck_assert_uint_eq(gen_pool_best_fit(map, 100, 0, 3, NULL, pool, 0), 4);
	ck_assert_uint_eq(gen_pool_best_fit(map, 100, 0, 97, NULL, pool, 0), 100);
	gen_pool_destroy(pool);
}
END_TEST

/*
 * A conflict in the middle of a claim: the algorithm itself plays the other
 * thread and takes the last @steal_n bits of the run it is about to return
 * (in the second word).  The pool must give back the word it had claimed,
 * ask again from the start it was given (the kernel's retry: 0, then 0
 * again, as the first answer was bit 0), and place the block after the
 * stolen bits.  Only the words the claim set are given back: when the other
 * thread holds all of the run's part of word 1 (bits 64..99), clearing the
 * whole range there would hand its granules away.
 */
static int conflict_calls;
static unsigned long conflict_starts[4];
static unsigned long steal_n;

static unsigned long stealing_first_fit(unsigned long *map, unsigned long size,
					unsigned long start, unsigned int nr, void *data,
					struct gen_pool *pool, unsigned long start_addr)
{
	unsigned long bit = gen_pool_first_fit(map, size, start, nr, data, pool, start_addr);

	if (conflict_calls < 4)
		conflict_starts[conflict_calls] = start;
	if (conflict_calls++ == 0)
		modern_bitmap_set(map, bit + nr - steal_n, steal_n);
	return bit;
}

START_TEST(claim_conflict_rolls_back_and_retries_from_its_start)
{
	struct gen_pool *pool = pool_with(0, 0x10000, 400);
	struct gen_pool_chunk *chunk = atomic_load(&pool->chunks);

	/* A conflict needs another thread inside the claim: the lock-free
	 * path (indexed mode serializes allocations). */
	gen_pool_set_lockless(pool, true);
	for (int i = 0; i < 2; i++) {
		steal_n = i ? 36 : 1;	/* bit 99; bits 64..99, all of word 1's part */
		conflict_calls = 0;
		ck_assert_uint_eq(gen_pool_alloc_algo(pool, 100, stealing_first_fit, NULL),
				  0x10000 + 100);
		ck_assert_int_eq(conflict_calls, 2);
		ck_assert_uint_eq(conflict_starts[0], 0);
		ck_assert_uint_eq(conflict_starts[1], 0);
		/* word 0 rolled back, the stolen bits still the other's,
		 * 100..199 ours */
		ck_assert_uint_eq(chunk->bits[0], 0);
		ck_assert(modern_bitmap_all_set(chunk->bits, 100 - steal_n, 100 + steal_n));
		ck_assert_uint_eq(modern_bitmap_weight(chunk->bits, 400), 100 + steal_n);
		/* the "other thread" frees */
		modern_bitmap_clear(chunk->bits, 100 - steal_n, steal_n);
		ck_assert_int_eq(gen_pool_check(pool), 0);
		gen_pool_free(pool, 0x10000 + 100, 100);
	}
	gen_pool_destroy(pool);
}
END_TEST

/*
 * The kernel's retry does not go back to bit 0: it hands the algorithm the
 * start it answered.  With bits 0..9 in use the first answer is 10; once a
 * bit of that run is stolen, first fit searches again from 10.  A conflict
 * on gen_pool_fixed_alloc() then looks for its offset from twice the
 * offset, as the kernel's does, and gives up on the chunk.
 */
static unsigned long stealing_fixed(unsigned long *map, unsigned long size, unsigned long start,
				    unsigned int nr, void *data, struct gen_pool *pool,
				    unsigned long start_addr)
{
	unsigned long bit = gen_pool_fixed_alloc(map, size, start, nr, data, pool, start_addr);

	if (conflict_calls < 4)
		conflict_starts[conflict_calls] = start;
	if (conflict_calls++ == 0 && bit < size)
		modern_bitmap_set(map, bit + nr - 1, 1);
	return bit;
}

START_TEST(claim_conflict_retries_from_the_answered_start)
{
	struct gen_pool *pool = pool_with(0, 0x10000, 400);
	struct genpool_data_fixed at = { .offset = 256 };

	gen_pool_set_lockless(pool, true);
	ck_assert_uint_eq(gen_pool_alloc(pool, 10), 0x10000);
	conflict_calls = 0;
	steal_n = 1;
	ck_assert_uint_eq(gen_pool_alloc_algo(pool, 100, stealing_first_fit, NULL), 0x10000 + 110);
	ck_assert_int_eq(conflict_calls, 2);
	ck_assert_uint_eq(conflict_starts[0], 0);
	ck_assert_uint_eq(conflict_starts[1], 10);
	/* the stolen bit 109 stays with the "other thread" */
	ck_assert(modern_bitmap_all_set(atomic_load(&pool->chunks)->bits, 109, 1));
	conflict_calls = 0;
	ck_assert_uint_eq(gen_pool_alloc_algo(pool, 50, stealing_fixed, &at), 0);
	ck_assert_int_eq(conflict_calls, 2);
	ck_assert_uint_eq(conflict_starts[1], 256);
	/* the fixed claim was rolled back: 10 + 1 + 100 + the stolen 305 */
	ck_assert_uint_eq(modern_bitmap_weight(atomic_load(&pool->chunks)->bits, 400), 112);
	modern_bitmap_clear(atomic_load(&pool->chunks)->bits, 109, 1);	/* the thief frees */
	modern_bitmap_clear(atomic_load(&pool->chunks)->bits, 305, 1);
	gen_pool_free(pool, 0x10000, 10);
	gen_pool_free(pool, 0x10000 + 110, 100);
	ck_assert_int_eq(gen_pool_check(pool), 0);
	gen_pool_destroy(pool);
}
END_TEST

static unsigned long overhanging(unsigned long *map, unsigned long size, unsigned long start,
				 unsigned int nr, void *data, struct gen_pool *pool,
				 unsigned long start_addr)
{
	(void)map; (void)start; (void)nr; (void)data; (void)pool; (void)start_addr;
	return size - 1;
}

START_TEST(answer_past_the_chunk_is_no_room)
{
	struct gen_pool *pool = pool_with(3, 0x10000, 64);

	ck_assert_uint_eq(gen_pool_alloc_algo(pool, 16, overhanging, NULL), 0);
	ck_assert_uint_eq(gen_pool_alloc_algo(pool, 8, overhanging, NULL), 0x10038);
	ck_assert_uint_eq(gen_pool_alloc_algo(pool, 8, NULL, NULL), 0x10000);	/* NULL: first fit */
	ck_assert_int_eq(gen_pool_check(pool), 0);
	drain_and_destroy(pool);
}
END_TEST

/*
 * More than 2^32 granules (order 12: 16 TiB of address space that is never
 * touched; the bitmap is 512 MiB of untouched calloc memory).
 */
/*
 * A pool of @granules 4 KiB granules at 2^44 (address space that is never
 * touched), or NULL where the test cannot run: 32-bit longs, valgrind (too
 * slow for bitmaps this big), or no memory for the bitmap.
 */
static struct gen_pool *huge_pool(unsigned long granules)
{
	struct gen_pool *pool;
	int rc;

	if (sizeof(long) < 8 || getenv("GENALLOC_UNDER_VALGRIND"))
		return NULL;
	pool = gen_pool_create(12, -1);
	ck_assert_ptr_nonnull(pool);
	rc = gen_pool_add(pool, 1UL << 44, granules << 12, -1);
	if (rc == -ENOMEM) {
		gen_pool_destroy(pool);
		return NULL;
	}
	ck_assert_int_eq(rc, 0);
	return pool;
}

START_TEST(huge_pool_never_truncates_nr)
{
	const unsigned long order = 12, granules = (1UL << 32) + 64;
	const unsigned long base = 1UL << 44;
	struct genpool_data_fixed high = { .offset = ((1UL << 32) + 5) << order };
	struct gen_pool *pool = huge_pool(granules);

	if (!pool)
		return;
	capture_errors();
	/* 2^32 + 1 granules fits the chunk but not "unsigned int nr": refused,
	 * never truncated to a 1-granule block. */
	ck_assert_uint_eq(gen_pool_alloc(pool, ((1UL << 32) + 1) << order), 0);
	ck_assert_uint_eq(gen_pool_alloc(pool, (1UL << 32) << order), 0);
	ck_assert_int_eq(errors_seen(), 0);
	ck_assert_uint_eq(gen_pool_avail(pool), granules << order);
	/* bit numbers above 2^32 are placed and freed exactly */
	ck_assert_uint_eq(gen_pool_alloc_algo(pool, 3 << order, gen_pool_fixed_alloc, &high),
			  base + high.offset);
	ck_assert_uint_eq(gen_pool_alloc(pool, 1), base);
	ck_assert_uint_eq(gen_pool_virt_to_phys(pool, base), (phys_addr_t)-1);
	ck_assert(gen_pool_has_addr(pool, base + high.offset, 3 << order));
	gen_pool_free(pool, base + high.offset, 3 << order);
	gen_pool_free(pool, base, 1);
	ck_assert_uint_eq(gen_pool_avail(pool), granules << order);
	gen_pool_destroy(pool);
}
END_TEST

/*
 * An indexed chunk of more than 2^31 granules (order 12; the bitmap is
 * 256 MiB of untouched mapped memory): runs that long do not fit a signed
 * 32-bit lane, so the index compares them with the offset it skips on
 * smaller chunks.  A search that read them as negative would never choose
 * the long run, or would choose a short one.
 */
START_TEST(indexed_runs_past_2_31_granules)
{
	const unsigned long order = 12, granules = (1UL << 31) + 64;
	const unsigned long base = 1UL << 44, left = 1UL << 30;
	struct genpool_data_fixed mid = { .offset = left << order };
	struct genpool_data_fixed near = { .offset = 50UL << order };
	struct gen_pool *pool = huge_pool(granules);

	if (!pool)
		return;
	/* Block 0's longest run (from granule 51) is longer than 2^31. */
	ck_assert_uint_eq(gen_pool_alloc_algo(pool, 1UL << order, gen_pool_fixed_alloc, &near),
			  base + near.offset);
	ck_assert_uint_eq(gen_pool_alloc(pool, 100 << order), base + (51UL << order));
	ck_assert_uint_eq(gen_pool_alloc_algo(pool, 256UL << order,
					      gen_pool_first_fit_order_align, NULL),
			  base + (256UL << order));
	gen_pool_free(pool, base + near.offset, 1UL << order);
	gen_pool_free(pool, base + (51UL << order), 100 << order);
	gen_pool_free(pool, base + (256UL << order), 256UL << order);
	ck_assert_uint_eq(gen_pool_alloc(pool, ((1UL << 31) + 1) << order), base);
	ck_assert_uint_eq(gen_pool_alloc(pool, 63 << order), base + (((1UL << 31) + 1) << order));
	ck_assert_uint_eq(gen_pool_alloc(pool, 1), 0);
	gen_pool_free(pool, base, ((1UL << 31) + 1) << order);
	gen_pool_free(pool, base + (((1UL << 31) + 1) << order), 63 << order);
	/* A used granule at 2^30: the run below it is too short, the one
	 * above (2^30 + 63 granules) fits. */
	ck_assert_uint_eq(gen_pool_alloc_algo(pool, 1UL << order, gen_pool_fixed_alloc, &mid),
			  base + mid.offset);
	ck_assert_uint_eq(gen_pool_alloc(pool, (left + 5) << order),
			  base + ((left + 1) << order));
	ck_assert_uint_eq(gen_pool_alloc(pool, left << order), base);
	ck_assert_uint_eq(gen_pool_alloc(pool, 59 << order), 0);
	ck_assert_uint_eq(gen_pool_alloc(pool, 58 << order), base + ((2 * left + 6) << order));
	ck_assert_int_eq(gen_pool_check(pool), 0);
	gen_pool_free(pool, base, left << order);
	gen_pool_free(pool, base + mid.offset, 1UL << order);
	gen_pool_free(pool, base + ((left + 1) << order), (left + 5) << order);
	gen_pool_free(pool, base + ((2 * left + 6) << order), 58 << order);
	ck_assert_uint_eq(gen_pool_avail(pool), granules << order);
	gen_pool_destroy(pool);
}
END_TEST

Suite *modern_algo_suite(void)
{
	Suite *s = suite_create("modern_algo");
	TCase *tc = tcase_create("placement");

	/* The runs past 2^31 granules set and clear 256 MiB of bitmap whole:
	 * seconds in the coverage build (-O0, no timeout multiplier), which
	 * timed out at Check's 4 s on a busy machine. */
	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, first_fit_table);
	tcase_add_test(tc, first_fit_align_absolute);
	tcase_add_test(tc, dma_align_in_second_chunk);
	tcase_add_test(tc, order_align_relative_to_chunk);
	tcase_add_test(tc, best_fit_table);
	tcase_add_test(tc, best_fit_is_per_chunk);
	tcase_add_test(tc, fixed_offsets_in_each_chunk);
	tcase_add_test(tc, algorithms_direct_calls);
	tcase_add_test(tc, claim_conflict_rolls_back_and_retries_from_its_start);
	tcase_add_test(tc, claim_conflict_retries_from_the_answered_start);
	tcase_add_test(tc, answer_past_the_chunk_is_no_room);
	tcase_add_test(tc, huge_pool_never_truncates_nr);
	tcase_add_test(tc, indexed_runs_past_2_31_granules);
	suite_add_tcase(s, tc);
	return s;
}
