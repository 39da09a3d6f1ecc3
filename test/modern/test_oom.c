// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * test/modern/test_oom.c - the modern engine without memory for its own
 * bookkeeping, failed at every allocation it makes in turn (test/oom.h):
 * gen_pool_create() returns NULL, gen_pool_add() returns -ENOMEM and leaves
 * the pool as it was, best fit without memory for its size classes walks
 * the runs instead and order-aligned fit without its hints searches
 * without them, both still giving the kernel's answers, and the
 * device layer's pools and records are either made whole or not at all.  Leaks on
 * these paths are the sanitizer and valgrind runs' to find.
 */
#include <errno.h>
#include <stdint.h>

#include "../oom.h"
#include "../support.h"
#include "modern/genalloc.h"
#include "modern/linux/device.h"
#include "modern/linux/err.h"

#define BASE 0x100000UL

START_TEST(create_fails_cleanly_at_every_allocation)
{
	struct gen_pool *pool;
	long n, failed;

	capture_errors();
	for (n = 0;; n++) {
		OOM_RUN(n, failed, pool = gen_pool_create(4, -1));
		if (pool)
			break;
		ck_assert_int_gt(failed, 0);
		ck_assert_int_lt(n, 16);
	}
	/* It does allocate, and once it succeeds nothing was refused. */
	ck_assert_int_gt(n, 0);
	ck_assert_int_eq(failed, 0);
	ck_assert_int_eq(gen_pool_add(pool, BASE, 4096, -1), 0);
	EXPECT_EQ(gen_pool_alloc(pool, 100), BASE);
	gen_pool_free(pool, BASE, 100);
	gen_pool_destroy(pool);
	/* Out of memory is no misuse: nothing is reported. */
	ck_assert_int_eq(errors_seen(), 0);
}
END_TEST

/* Adds @count chunks of @size bytes, @gap bytes apart, each retried with
 * one more allocation allowed until it goes in: every failure must be
 * -ENOMEM with the pool as it was. */
static void add_under_oom(struct gen_pool *pool, int count, size_t size, size_t gap)
{
	unsigned long addr;
	size_t before;
	long n, failed;
	int i, rc;

	capture_errors();
	for (i = 0; i < count; i++) {
		addr = BASE + (unsigned long)i * (size + gap);
		for (n = 0;; n++) {
			before = gen_pool_size(pool);
			OOM_RUN(n, failed, rc = gen_pool_add(pool, addr, size, -1));
			if (rc == 0)
				break;
			ck_assert_int_eq(rc, -ENOMEM);
			ck_assert_int_gt(failed, 0);
			ck_assert_uint_eq(gen_pool_size(pool), before);
			ck_assert_uint_eq(gen_pool_avail(pool), before);
			ck_assert(!gen_pool_has_addr(pool, addr, 1));
			ck_assert_int_eq(gen_pool_check(pool), 0);
		}
		ck_assert_int_eq(failed, 0);
		ck_assert_uint_eq(gen_pool_size(pool), before + size);
	}
	ck_assert_int_eq(errors_seen(), 0);
}

/* Every chunk is whole and the newest is searched first. */
static void take_every_chunk(struct gen_pool *pool, int count, size_t size, size_t gap)
{
	unsigned long addr;
	int i;

	for (i = count - 1; i >= 0; i--) {
		addr = BASE + (unsigned long)i * (size + gap);
		EXPECT_EQ(gen_pool_alloc(pool, size), addr);
	}
	EXPECT_EQ(gen_pool_alloc(pool, 1), 0);
	for (i = 0; i < count; i++)
		gen_pool_free(pool, BASE + (unsigned long)i * (size + gap), size);
	ck_assert_uint_eq(gen_pool_avail(pool), (size_t)count * size);
	ck_assert_int_eq(gen_pool_check(pool), 0);
}

START_TEST(add_fails_cleanly_at_every_allocation)
{
	/* Enough chunks that the chunk directory grows several times. */
	struct gen_pool *pool = gen_pool_create(4, -1);

	ck_assert_ptr_nonnull(pool);
	add_under_oom(pool, 40, 4096, 4096);
	take_every_chunk(pool, 40, 4096, 4096);
	gen_pool_destroy(pool);
}
END_TEST

START_TEST(add_of_mapped_bookkeeping_fails_cleanly)
{
	/* 2^22 granules: a 512 KiB bitmap, which is mapped, not malloc()ed. */
	const size_t size = (size_t)1 << 26;
	struct gen_pool *pool = gen_pool_create(4, -1);

	ck_assert_ptr_nonnull(pool);
	add_under_oom(pool, 2, size, 0x1000);
	take_every_chunk(pool, 2, size, 0x1000);
	gen_pool_destroy(pool);
}
END_TEST

static unsigned long alloc_with(struct gen_pool *pool, size_t size, genpool_algo_t algo)
{
	return algo ? gen_pool_alloc_algo(pool, size, algo, NULL) : gen_pool_alloc(pool, size);
}

/* The live blocks of both pools, which place them alike. */
struct twin {
	unsigned long addr[64];
	size_t size[64];
};

/*
 * @steps random allocations and frees on two pools of one range: @ix
 * indexed, @lin the kernel's linear path; every answer must be the same.
 * Allocations use @algo, or the pools' own when NULL.  With @starve, @ix's
 * allocations run with no memory to be had.  Returns how many of its
 * allocations were refused.
 */
static long run_twins(struct gen_pool *ix, struct gen_pool *lin, struct twin *t,
		      unsigned long long *rng, int steps, bool starve, genpool_algo_t algo)
{
	unsigned long a, b;
	long refused = 0, failed;
	size_t size;
	int step, k;

	for (step = 0; step < steps; step++) {
		k = (int)test_rng_below(rng, 64);
		if (t->addr[k]) {
			gen_pool_free(ix, t->addr[k], t->size[k]);
			gen_pool_free(lin, t->addr[k], t->size[k]);
			t->addr[k] = 0;
			continue;
		}
		size = 8 * (1 + test_rng_below(rng, 1000));
		if (starve) {
			OOM_RUN(0, failed, a = alloc_with(ix, size, algo));
			refused += failed;
		} else {
			a = alloc_with(ix, size, algo);
		}
		b = alloc_with(lin, size, algo);
		EXPECT_EQ(a, b);
		t->addr[k] = a;
		t->size[k] = size;
		if (step % 64 == 0)
			ck_assert_int_eq(gen_pool_check(ix), 0);
	}
	return refused;
}

/* Frees what both twins hold, checks the indexed one and destroys both. */
static void twins_destroy(struct gen_pool *ix, struct gen_pool *lin, struct twin *t)
{
	int k;

	for (k = 0; k < 64; k++)
		if (t->addr[k]) {
			gen_pool_free(ix, t->addr[k], t->size[k]);
			gen_pool_free(lin, t->addr[k], t->size[k]);
		}
	ck_assert_int_eq(gen_pool_check(ix), 0);
	ck_assert_int_eq(errors_seen(), 0);
	gen_pool_destroy(ix);
	gen_pool_destroy(lin);
}

START_TEST(best_fit_without_size_classes_walks_the_runs)
{
	struct gen_pool *ix = gen_pool_create(3, -1), *lin = gen_pool_create(3, -1);
	unsigned long long rng = 0xb357;
	struct twin t = { { 0 }, { 0 } };

	ck_assert_ptr_nonnull(ix);
	ck_assert_ptr_nonnull(lin);
	ck_assert_int_eq(gen_pool_add(ix, BASE, 1 << 19, -1), 0);
	ck_assert_int_eq(gen_pool_add(lin, BASE, 1 << 19, -1), 0);
	gen_pool_set_algo(ix, gen_pool_best_fit, NULL);
	gen_pool_set_algo(lin, gen_pool_best_fit, NULL);
	gen_pool_set_lockless(lin, true);
	capture_errors();
	/* Starved, every best fit tries to build the size classes, fails, and
	 * walks; then they are built and kept up to date. */
	ck_assert_int_gt(run_twins(ix, lin, &t, &rng, 3000, true, NULL), 0);
	run_twins(ix, lin, &t, &rng, 3000, false, NULL);
	twins_destroy(ix, lin, &t);
}
END_TEST

/* Order-aligned requests on a pool of another default allocate the order
 * hints when a search first passes too many useless blocks: starved, such
 * a search tries, fails and leaves them off (later ones try again); then
 * they turn on and are kept up to date. */
START_TEST(order_aligned_fit_without_hints_searches_without)
{
	struct gen_pool *ix = gen_pool_create(3, -1), *lin = gen_pool_create(3, -1);
	unsigned long long rng = 0x0a11;
	struct twin t = { { 0 }, { 0 } };
	unsigned long a;
	long failed;

	ck_assert_ptr_nonnull(ix);
	ck_assert_ptr_nonnull(lin);
	/* 2^20 granules: big enough for hints (modern_index_hints_fit()). */
	ck_assert_int_eq(gen_pool_add(ix, BASE, 1 << 23, -1), 0);
	ck_assert_int_eq(gen_pool_add(lin, BASE, 1 << 23, -1), 0);
	gen_pool_set_lockless(lin, true);
	capture_errors();
	ck_assert_int_gt(run_twins(ix, lin, &t, &rng, 3000, true,
				   gen_pool_first_fit_order_align), 0);
	run_twins(ix, lin, &t, &rng, 3000, false, gen_pool_first_fit_order_align);
	/* On by now: a starved search allocates nothing. */
	OOM_RUN(0, failed, a = gen_pool_alloc_algo(ix, 200, gen_pool_first_fit_order_align, NULL));
	ck_assert_int_eq(failed, 0);
	EXPECT_EQ(a, gen_pool_alloc_algo(lin, 200, gen_pool_first_fit_order_align, NULL));
	gen_pool_free(ix, a, 200);
	gen_pool_free(lin, a, 200);
	twins_destroy(ix, lin, &t);
}
END_TEST

/*
 * The first 10 blocks of the chunk at @base (16-byte granules, 8 KiB a
 * block) full but for granules 1-3 of each: holes of 3 that hold no
 * 48-byte block on a 64-byte grid, so a search for one wastes 10 blocks
 * and turns the hints on.
 */
static void fragment_front(struct gen_pool *pool, unsigned long base)
{
	unsigned long b, g;

	for (b = 0; b < 10; b++)
		for (g = 0; g < 512; g++)
			EXPECT_EQ(gen_pool_alloc_algo(pool, 16, gen_pool_first_fit, NULL),
				  base + (b * 512 + g) * 16);
	for (b = 0; b < 10; b++)
		for (g = 1; g < 4; g++)
			gen_pool_free(pool, base + (b * 512 + g) * 16, 16);
}

/* A 48-byte allocation from @pool, fragmented at @base, that must turn the
 * hints on without asking for memory, and land past the 10 blocks. */
static void hints_on_without_memory(struct gen_pool *pool, unsigned long base)
{
	unsigned long a;
	long failed;

	fragment_front(pool, base);
	OOM_RUN(0, failed, a = gen_pool_alloc(pool, 48));
	ck_assert_int_eq(failed, 0);
	EXPECT_EQ(a, base + 10 * 8192);
	gen_pool_free(pool, a, 48);
	ck_assert_int_eq(gen_pool_check(pool), 0);
	/* Every 16-byte block fragment_front() kept. */
	for (a = base; a < base + 10 * 8192; a += 16)
		if ((a - base) / 16 % 512 == 0 || (a - base) / 16 % 512 > 3)
			gen_pool_free(pool, a, 16);
}

/*
 * A pool whose default is order-aligned fit (_i 0) or first fit aligned to
 * 64 bytes (_i 1) reserves the hints' memory as a chunk joins (which then
 * fails cleanly without it) and as the algorithm is set: when a search
 * turns them on, it needs no memory.  (Both algorithms place the 48-byte
 * blocks here alike.)
 */
START_TEST(order_aligned_pool_builds_its_hints_up_front)
{
	static struct genpool_data_align align64 = { .align = 64 };
	genpool_algo_t algo = _i ? gen_pool_first_fit_align : gen_pool_first_fit_order_align;
	void *data = _i ? &align64 : NULL;
	/* 2^20 granules a chunk: big enough for hints (modern_index_hints_fit()). */
	const size_t size = (size_t)1 << 24;
	struct gen_pool *pool = gen_pool_create(4, -1), *late = gen_pool_create(4, -1);
	unsigned long newest = BASE + 2 * (size + 0x1000);

	ck_assert_ptr_nonnull(pool);
	ck_assert_ptr_nonnull(late);
	gen_pool_set_algo(pool, algo, data);
	add_under_oom(pool, 3, size, 0x1000);
	hints_on_without_memory(pool, newest);
	take_every_chunk(pool, 3, size, 0x1000);

	/* Set after the chunk is in: reserved then, under the pool's lock. */
	ck_assert_int_eq(gen_pool_add(late, BASE, size, -1), 0);
	gen_pool_set_algo(late, algo, data);
	hints_on_without_memory(late, BASE);
	gen_pool_destroy(pool);
	gen_pool_destroy(late);
}
END_TEST

/* devm_gen_pool_create() of @name (or an unnamed pool), failed at each of
 * its allocations in turn: -ENOMEM and no pool on the device each time. */
static void devm_pool_under_oom(const char *name)
{
	struct gen_pool *pool;
	struct device dev;
	long n, failed;

	device_initialize(&dev);
	capture_errors();
	for (n = 0;; n++) {
		OOM_RUN(n, failed, pool = devm_gen_pool_create(&dev, 4, -1, name));
		if (!IS_ERR(pool))
			break;
		ck_assert_int_eq(PTR_ERR(pool), -ENOMEM);
		ck_assert_int_gt(failed, 0);
		ck_assert_ptr_null(gen_pool_get(&dev, name));
		ck_assert_int_lt(n, 16);
	}
	ck_assert_int_eq(failed, 0);
	ck_assert_int_eq(errors_seen(), 0);
	ck_assert_ptr_eq(gen_pool_get(&dev, name), pool);
	ck_assert_int_eq(gen_pool_add(pool, BASE, 4096, -1), 0);
	EXPECT_EQ(gen_pool_alloc(pool, 64), BASE);
	gen_pool_free(pool, BASE, 64);
	/* The pool is the device's only resource. */
	ck_assert_int_eq(devres_release_all(&dev), 1);
	device_release(&dev);
}

START_TEST(devm_pool_fails_cleanly_at_every_allocation)
{
	devm_pool_under_oom("sram");
	devm_pool_under_oom(NULL);
}
END_TEST

START_TEST(devm_kzalloc_without_memory_records_nothing)
{
	struct device dev;
	void *p;

	device_initialize(&dev);
	oom_fail_after(0);
	p = devm_kzalloc(&dev, 64, GFP_KERNEL);
	oom_off();
	ck_assert_ptr_null(p);
	ck_assert_int_eq(devres_release_all(&dev), 0);
	device_release(&dev);
}
END_TEST

/*
 * A duplicate name is refused before anything is allocated, as the kernel
 * asks gen_pool_get() first: without any memory the answer is still -EINVAL
 * (the name is taken), not -ENOMEM, and the first pool is still the one
 * gen_pool_get() finds.
 */
START_TEST(devm_duplicate_is_refused_before_allocating)
{
	struct gen_pool *first, *second;
	struct device dev;
	long failed;

	device_initialize(&dev);
	first = devm_gen_pool_create(&dev, 4, -1, "sram");
	ck_assert(!IS_ERR_OR_NULL(first));
	capture_errors();
	OOM_RUN(0, failed, second = devm_gen_pool_create(&dev, 4, -1, "sram"));
	ck_assert_int_eq(failed, 0);
	ck_assert_ptr_eq(second, ERR_PTR(-EINVAL));
	ck_assert_int_eq(errors_seen(), 0);	/* silent, as the kernel */
	ck_assert_ptr_eq(gen_pool_get(&dev, "sram"), first);
	ck_assert_int_eq(devres_release_all(&dev), 1);
	device_release(&dev);
}
END_TEST

Suite *modern_oom_suite(void)
{
	Suite *s = suite_create("modern_oom");
	TCase *tc = tcase_create("oom");

	tcase_add_test(tc, create_fails_cleanly_at_every_allocation);
	tcase_add_test(tc, add_fails_cleanly_at_every_allocation);
	tcase_add_test(tc, add_of_mapped_bookkeeping_fails_cleanly);
	tcase_add_test(tc, best_fit_without_size_classes_walks_the_runs);
	tcase_add_test(tc, order_aligned_fit_without_hints_searches_without);
	tcase_add_loop_test(tc, order_aligned_pool_builds_its_hints_up_front, 0, 2);
	tcase_add_test(tc, devm_pool_fails_cleanly_at_every_allocation);
	tcase_add_test(tc, devm_kzalloc_without_memory_records_nothing);
	tcase_add_test(tc, devm_duplicate_is_refused_before_allocating);
	suite_add_tcase(s, tc);
	return s;
}
