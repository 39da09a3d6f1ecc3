// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * test/modern/test_messages.c - what each report of the modern API says, as
 * the default hook prints it: the code, the call, the pool, the address and
 * size, the detail a row needs (the chunk an add overlaps, the live blocks
 * a destroy refuses to drop) and what to do.  Each line here is the one
 * docs/misuse.md shows (test/docs/misuse_messages.sh keeps the two equal).
 * Other suites check codes and outcomes.
 */
#include <errno.h>
#include <limits.h>

#include "../support.h"
#include "modern/genalloc.h"
#include "modern/lock_internal.h"

static struct gen_pool *pool;

/* 16-byte granules; chunks at 0x10000 (0x108 bytes) and 0x20000 (0x80). */
static void setup(void)
{
	pool = gen_pool_create(4, -1);
	ck_assert_ptr_nonnull(pool);
	ck_assert_int_eq(gen_pool_add(pool, 0x10000, 0x108, -1), 0);
	ck_assert_int_eq(gen_pool_add(pool, 0x20000, 0x80, -1), 0);
	capture_errors();
}

START_TEST(creation_and_arguments)
{
	ck_assert_ptr_null(gen_pool_create(-1, -1));
	assert_line_is("genalloc: WARN EINVAL: gen_pool_create: min_alloc_order out of range (pool NULL, addr 0, min_alloc_order -1); pass a min_alloc_order from 0 to BITS_PER_LONG - 1", NULL, 0, 0, 0);
	reset_errors();
	/* A NULL pool's report carries the caller's own address and size. */
	ck_assert_uint_eq(gen_pool_alloc(NULL, 64), 0);
	assert_line_is("genalloc: WARN EINVAL: gen_pool_alloc: NULL pool (pool NULL, addr 0, size 64); pass the pool gen_pool_create() returned", NULL, 0, 0, 0);
	reset_errors();
	gen_pool_free(NULL, 0x20000, 0x20);
	assert_line_is("genalloc: WARN EINVAL: gen_pool_free: NULL pool (pool NULL, addr 0x20000, size 32); pass the pool gen_pool_create() returned", NULL, 0, 0, 0);
	reset_errors();
	ck_assert_int_eq(gen_pool_add(pool, 0x30000, 0, -1), -EINVAL);
	assert_line_is("genalloc: WARN EINVAL: gen_pool_add: empty range (pool <pool>, addr 0x30000, size 0); add 1 byte or more", pool, 0, 0, 0);
	reset_errors();
	ck_assert_int_eq(gen_pool_add(pool, 0, 0x100, -1), -EINVAL);
	assert_line_is("genalloc: WARN EINVAL: gen_pool_add: address 0 is the allocation failure value (pool <pool>, addr 0, size 256); add memory from address 1 up (offset the range if it starts at 0)", pool, 0, 0, 0);
	reset_errors();
	ck_assert_int_eq(gen_pool_add(pool, ULONG_MAX - 0xff, 0x101, -1), -EINVAL);
	assert_line_is("genalloc: WARN ERANGE: gen_pool_add: range wraps the address space or is too large (pool <pool>, addr 0xffffffffffffff00, size 257); add at most LONG_MAX bytes that end at or below ULONG_MAX", pool, 0, 0, 0);
	reset_errors();
}
END_TEST

/* The chunk overlapped, by its start and size; the lowest of several. */
START_TEST(overlapping_add_names_the_chunk)
{
	ck_assert_int_eq(gen_pool_add(pool, 0x10100, 0x10, -1), -EINVAL);
	assert_line_is("genalloc: WARN EOVERLAP: gen_pool_add: range overlaps a chunk of the pool (pool <pool>, addr 0x10100, size 16, chunk 0x10000 size 264); add memory the pool does not have yet; ranges may touch, not overlap", pool, 0, 0, 0);
	ck_assert_uint_eq(last_error()->chunk_addr, 0x10000);
	ck_assert_uint_eq(last_error()->chunk_size, 0x108);
	reset_errors();
	ck_assert_int_eq(gen_pool_add_virt(pool, 0x1000, 0, 0x40000, -1), -EINVAL);
	assert_line_is("genalloc: WARN EOVERLAP: gen_pool_add_virt: range overlaps a chunk of the pool (pool <pool>, addr 0x1000, size 262144, chunk 0x10000 size 264); add memory the pool does not have yet; ranges may touch, not overlap", pool, 0, 0, 0);
	reset_errors();
	ck_assert_int_eq(gen_pool_add(pool, 0x1ff00, 0x200, -1), -EINVAL);
	ck_assert_uint_eq(last_error()->chunk_addr, 0x20000);
	ck_assert_uint_eq(last_error()->chunk_size, 0x80);
	reset_errors();
}
END_TEST

/* First fit starts at the newest chunk, 0x20000. */
START_TEST(free_verdicts)
{
	unsigned long a = gen_pool_alloc(pool, 0x20);

	ck_assert_uint_eq(a, 0x20000);
	gen_pool_free(pool, 0x30000, 0x10);
	assert_line_is("genalloc: BUG EFOREIGN: gen_pool_free: address is in no chunk of the pool (pool <pool>, addr 0x30000, size 16); free only an address the pool's allocation returned, with its size", pool, 0, 0, 0);
	reset_errors();
	gen_pool_free(pool, 0x20008, 0x10);
	assert_line_is("genalloc: BUG EMISALIGNED: gen_pool_free: address is not on a granule boundary (pool <pool>, addr 0x20008, size 16); free the exact address the allocation returned", pool, 0, 0, 0);
	reset_errors();
	gen_pool_free(pool, 0x20070, 0x20);
	assert_line_is("genalloc: BUG ERANGE: gen_pool_free: range runs past the end of its chunk (pool <pool>, addr 0x20070, size 32); free the address and size the allocation had, which lie in one chunk", pool, 0, 0, 0);
	reset_errors();
	gen_pool_free(pool, 0x20010, 0x20);
	assert_line_is("genalloc: BUG EDOUBLEFREE: gen_pool_free: part of the range is already free (pool <pool>, addr 0x20010, size 32); free each block once, with the address and size its allocation had", pool, 0, 0, 0);
	reset_errors();
	/* Size 0 frees nothing, but the address must lie in a chunk (the
	 * kernel's BUG()); a negative int size is a huge size_t. */
	gen_pool_free(pool, 0x30000, 0);
	assert_line_is("genalloc: BUG EFOREIGN: gen_pool_free: address is in no chunk of the pool (pool <pool>, addr 0x30000, size 0); free only an address the pool's allocation returned, with its size", pool, 0, 0, 0);
	reset_errors();
	gen_pool_free(pool, a, (size_t)-1);
	assert_line_is("genalloc: BUG ERANGE: gen_pool_free: range runs past the end of its chunk (pool <pool>, addr 0x20000, size 18446744073709551615); free the address and size the allocation had, which lie in one chunk", pool, 0, 0, 0);
	reset_errors();
	gen_pool_free(pool, a, 0x20);
	ck_assert_int_eq(errors_seen(), 0);
}
END_TEST

START_TEST(algorithm_data)
{
	struct genpool_data_fixed half = { .offset = 0x38 };
	struct genpool_data_align three = { 3 };

	ck_assert_uint_eq(gen_pool_alloc_algo(pool, 16, gen_pool_fixed_alloc, &half), 0);
	assert_line_is("genalloc: WARN EINVAL: gen_pool_fixed_alloc: offset is not a whole number of granules (pool <pool>, addr 0x38, size 0); pass a struct genpool_data_fixed whose offset is a multiple of the granule", pool, 0, 0, 0);
	reset_errors();
	ck_assert_uint_eq(gen_pool_alloc_algo(pool, 16, gen_pool_first_fit_align, &three), 0);
	assert_line_is("genalloc: WARN EINVAL: gen_pool_first_fit_align: alignment is not a power of two > 0 (pool <pool>, addr 0, align 3); pass a struct genpool_data_align whose align is a power of two", pool, 0, 0, 0);
	reset_errors();
}
END_TEST

/* How many blocks are live, their bytes, the first few in address order. */
/* How many are live, their bytes, the first few in address order: without
 * block records, runs of used granules (two blocks side by side are one). */
START_TEST(busy_destroy_lists_the_live_runs)
{
	ck_assert_uint_eq(gen_pool_alloc(pool, 0x20), 0x20000);
	ck_assert_uint_eq(gen_pool_alloc(pool, 0x10), 0x20020);
	ck_assert_int_eq(gen_pool_add(pool, 0x30000, 0x100, -1), 0);
	ck_assert_uint_eq(gen_pool_alloc_algo(pool, 0x10, gen_pool_fixed_alloc,
					      &(struct genpool_data_fixed){ .offset = 0x40 }), 0x30040);
	gen_pool_destroy(pool);
	assert_line_is("genalloc: BUG EBUSY: gen_pool_destroy: pool has live allocations, counted as runs of used granules (pool <pool>, addr 0x20000, size 64, 2 live: 0x20000 0x30040); free them first (gen_pool_for_each_run() with GEN_POOL_RUNS_USED lists them), then destroy the pool", pool, 0, 0, 0);
	ck_assert_uint_eq(last_error()->nr_live, 2);
	reset_errors();
}
END_TEST

START_TEST(busy_destroy_with_records_lists_blocks)
{
	struct gen_pool *rp = gen_pool_create(4, -1);

	ck_assert_int_eq(gen_pool_use_block_records(rp), 0);
	ck_assert_int_eq(gen_pool_add(rp, 0x10000, 0x1000, -1), 0);
	for (int i = 0; i < 6; i++)
		ck_assert_uint_eq(gen_pool_alloc(rp, 0x10), 0x10000 + 0x10 * i);
	gen_pool_destroy(rp);
	assert_line_is("genalloc: BUG EBUSY: gen_pool_destroy: pool has live blocks (pool <pool>, addr 0x10000, size 96, 6 live: 0x10000 0x10010 0x10020 0x10030 ...); free them first (gen_pool_for_each_run() with GEN_POOL_RUNS_USED lists them), then destroy the pool", rp, 0, 0, 0);
	reset_errors();
	for (int i = 0; i < 6; i++)
		gen_pool_free(rp, 0x10000 + 0x10 * i, 0x10);
	gen_pool_destroy(rp);
	ck_assert_int_eq(errors_seen(), 0);
}
END_TEST

START_TEST(reentry)
{
	ck_assert(modern_lock_acquire(&pool->lock));
	ck_assert_uint_eq(gen_pool_alloc(pool, 32), 0);
	modern_lock_release(&pool->lock);
	assert_line_is("genalloc: WARN EREENTRY: gen_pool_alloc: this thread is already inside a locked call on the pool (a signal handler interrupted it, or a callback re-entered it) (pool <pool>, addr 0, size 32); use a lock-free pool (gen_pool_set_lockless(), the default through <linux/genalloc.h>), or block the signal around the pool's calls", pool, 0, 0, 0);
	reset_errors();
}
END_TEST

Suite *modern_messages_suite(void)
{
	Suite *s = suite_create("modern_messages");
	TCase *tc = tcase_create("messages");

	tcase_add_checked_fixture(tc, setup, NULL);
	tcase_add_test(tc, creation_and_arguments);
	tcase_add_test(tc, overlapping_add_names_the_chunk);
	tcase_add_test(tc, free_verdicts);
	tcase_add_test(tc, algorithm_data);
	tcase_add_test(tc, busy_destroy_lists_the_live_runs);
	tcase_add_test(tc, busy_destroy_with_records_lists_blocks);
	tcase_add_test(tc, reentry);
	suite_add_tcase(s, tc);
	return s;
}
