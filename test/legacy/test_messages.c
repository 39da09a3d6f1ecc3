// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * test/legacy/test_messages.c - what each report of the 2005 API (legacy
 * engine) says, field by field: the call, the pool, the address and size
 * given, the message, and an argument the address and size cannot carry
 * (a shift, a chunk count, a negative size) by its name with its value.
 * Other suites check codes and outcomes; a report that lost or mislabelled
 * a value passed them.
 */
#include <limits.h>
#include <string.h>

#include "../support.h"
#include "chunks.h"
#include "legacy/internal.h"

static struct chunk_supply cs;
static struct gen_pool *pool;
static unsigned long C;

/* Chunks of 4 KiB; the pool starts empty and grows from the supply. */
static void setup(void)
{
	chunk_supply_init(&cs, 12, 4);
	C = chunk_at(&cs, 0);
	pool = supply_pool(&cs, 0);
	capture_errors();
}

START_TEST(creation_names_the_argument_and_its_value)
{
	ck_assert_ptr_null(alloc_gen_pool(0, 30, NULL, 0));
	assert_line_is("genalloc: WARN EINVAL: alloc_gen_pool: max_chunk_shift above page shift + 10 (pool NULL, addr 0, max_chunk_shift 30); pass 0 (the page size) or a shift from ALLOC_MIN_SHIFT to page shift + 10", NULL, 0, 0, 0);
	assert_report_is(REPORT_ARG(GENALLOC_WARN, GENALLOC_EINVAL, "alloc_gen_pool", NULL, 0,
				  "max_chunk_shift above page shift + 10",
				  "max_chunk_shift", 30));
	ck_assert_ptr_null(alloc_gen_pool(0, ALLOC_MIN_SHIFT - 1, NULL, 0));
	assert_line_is("genalloc: WARN EINVAL: alloc_gen_pool: max_chunk_shift below ALLOC_MIN_SHIFT (pool NULL, addr 0, max_chunk_shift 4); pass 0 (the page size) or a shift from ALLOC_MIN_SHIFT to page shift + 10", NULL, 0, 0, 0);
	assert_report_is(REPORT_ARG(GENALLOC_WARN, GENALLOC_EINVAL, "alloc_gen_pool", NULL, 0,
				  "max_chunk_shift below ALLOC_MIN_SHIFT",
				  "max_chunk_shift", ALLOC_MIN_SHIFT - 1));
	ck_assert_ptr_null(alloc_gen_pool(0, -7, NULL, 0));
	assert_report_is(REPORT_ARG(GENALLOC_WARN, GENALLOC_EINVAL, "alloc_gen_pool", NULL, 0,
				  "max_chunk_shift below ALLOC_MIN_SHIFT",
				  "max_chunk_shift", -7));
	ck_assert_ptr_null(alloc_gen_pool(-3, 12, supply_chunk, 0));
	assert_line_is("genalloc: WARN EINVAL: alloc_gen_pool: negative nr_chunks (pool NULL, addr 0, nr_chunks -3); pass how many chunks to obtain now, 0 or more", NULL, 0, 0, 0);
	assert_report_is(REPORT_ARG(GENALLOC_WARN, GENALLOC_EINVAL, "alloc_gen_pool", NULL, 0,
				  "negative nr_chunks", "nr_chunks", -3));
	ck_assert_ptr_null(alloc_gen_pool(2, 12, NULL, 0));
	assert_line_is("genalloc: WARN EINVAL: alloc_gen_pool: nr_chunks without get_new_chunk (pool NULL, addr 0, nr_chunks 2); pass get_new_chunk, or 0 chunks", NULL, 0, 0, 0);
	assert_report_is(REPORT_ARG(GENALLOC_WARN, GENALLOC_EINVAL, "alloc_gen_pool", NULL, 0,
				  "nr_chunks without get_new_chunk", "nr_chunks", 2));
}
END_TEST

START_TEST(arguments_carry_the_values_given)
{
	ck_assert_uint_eq(gen_pool_alloc(pool, -32), 0);
	assert_line_is("genalloc: WARN EINVAL: gen_pool_alloc: negative size (pool <pool>, addr 0, size -32); pass a size of 0 or more", pool, 0, 0, 0);
	assert_report_is(REPORT_ARG(GENALLOC_WARN, GENALLOC_EINVAL, "gen_pool_alloc", pool, 0,
				  "negative size", "size", -32));
	ck_assert_uint_eq(gen_pool_alloc(pool, INT_MIN), 0);
	assert_report_is(REPORT_ARG(GENALLOC_WARN, GENALLOC_EINVAL, "gen_pool_alloc", pool, 0,
				  "negative size", "size", INT_MIN));
	ck_assert_uint_eq(gen_pool_alloc(NULL, 64), 0);
	assert_line_is("genalloc: WARN EINVAL: gen_pool_alloc: NULL pool (pool NULL, addr 0, size 64); pass the pool alloc_gen_pool() returned", NULL, 0, 0, 0);
	assert_report_is(REPORT(GENALLOC_WARN, GENALLOC_EINVAL, "gen_pool_alloc", NULL, 0, 64,
			      "NULL pool"));
	ck_assert_uint_eq(gen_pool_alloc(NULL, -5), 0);
	assert_report_is(REPORT_ARG(GENALLOC_WARN, GENALLOC_EINVAL, "gen_pool_alloc", NULL, 0,
				  "NULL pool", "size", -5));
	gen_pool_free(pool, C, -1);
	assert_report_is(REPORT_ARG(GENALLOC_WARN, GENALLOC_EINVAL, "gen_pool_free", pool, C,
				  "negative size", "size", -1));
	gen_pool_free(NULL, C, 96);
	assert_report_is(REPORT(GENALLOC_WARN, GENALLOC_EINVAL, "gen_pool_free", NULL, C, 96,
			      "NULL pool"));
	gen_pool_free(pool, 0, 32);
	assert_line_is("genalloc: WARN EINVAL: gen_pool_free: address 0 (pool <pool>, addr 0, size 32); free what gen_pool_alloc() returned, never its failure value 0", pool, 0, 0, 0);
	assert_report_is(REPORT(GENALLOC_WARN, GENALLOC_EINVAL, "gen_pool_free", pool, 0, 32,
			      "address 0"));
}
END_TEST

START_TEST(free_verdicts_carry_address_and_size)
{
	unsigned long a = gen_pool_alloc(pool, 128), d = (unsigned long)test_region(4096, 4096);

	ck_assert_uint_eq(a, C);
	gen_pool_free(pool, a, 256);
	assert_line_is("genalloc: BUG ESIZE: gen_pool_free: size differs from the allocated size (pool <pool>, addr <addr>, size 256); free with the size given to gen_pool_alloc(), or one that rounds up alike", pool, a, 0, 0);
	assert_report_is(REPORT(GENALLOC_BUG, GENALLOC_ESIZE, "gen_pool_free", pool, a, 256,
			      "size differs from the allocated size"));
	gen_pool_free(pool, a + 32, 32);
	assert_line_is("genalloc: BUG EFOREIGN: gen_pool_free: address inside a live block, not its start (pool <pool>, addr <addr>, size 32); free the block's first address, the one gen_pool_alloc() returned", pool, a + 32, 0, 0);
	assert_report_is(REPORT(GENALLOC_BUG, GENALLOC_EFOREIGN, "gen_pool_free", pool, a + 32, 32,
			      "address inside a live block, not its start"));
	gen_pool_free(pool, a + 8, 64);
	assert_line_is("genalloc: BUG EMISALIGNED: gen_pool_free: address not aligned to the rounded size (pool <pool>, addr <addr>, size 64); free the address gen_pool_alloc() returned; donate only ranges aligned to their size rounded up to a power of two", pool, a + 8, 0, 0);
	assert_report_is(REPORT(GENALLOC_BUG, GENALLOC_EMISALIGNED, "gen_pool_free", pool, a + 8,
			      64, "address not aligned to the rounded size"));
	gen_pool_free(pool, ULONG_MAX - 31, 64);
	assert_line_is("genalloc: BUG ERANGE: gen_pool_free: range wraps past the end of the address space (pool <pool>, addr 0xffffffffffffffe0, size 64); free the address and size of a block gen_pool_alloc() returned", pool, 0, 0, 0);
	assert_report_is(REPORT(GENALLOC_BUG, GENALLOC_ERANGE, "gen_pool_free", pool,
			      ULONG_MAX - 31, 64, "range wraps past the end of the address space"));
	gen_pool_free(pool, a, 100);
	ck_assert_int_eq(errors_seen(), 0);
	/* Both a freed block's start and an address inside a free block. */
	gen_pool_free(pool, a, 100);
	assert_line_is("genalloc: BUG EDOUBLEFREE: gen_pool_free: block is already free (pool <pool>, addr <addr>, size 100); free each block once", pool, a, 0, 0);
	assert_report_is(REPORT(GENALLOC_BUG, GENALLOC_EDOUBLEFREE, "gen_pool_free", pool, a, 100,
			      "block is already free"));
	gen_pool_free(pool, a + 64, 32);
	assert_report_is(REPORT(GENALLOC_BUG, GENALLOC_EDOUBLEFREE, "gen_pool_free", pool, a + 64,
			      32, "block is already free"));
	gen_pool_free(pool, d + 128, 64);
	ck_assert_int_eq(errors_seen(), 0);
	gen_pool_free(pool, d, 256);
	assert_line_is("genalloc: BUG EOVERLAP: gen_pool_free: donated range overlaps memory the pool has (pool <pool>, addr <addr>, size 256); donate only memory the pool has not had", pool, d, 0, 0);
	assert_report_is(REPORT(GENALLOC_BUG, GENALLOC_EOVERLAP, "gen_pool_free", pool, d, 256,
			      "donated range overlaps memory the pool has"));
}
END_TEST

START_TEST(chunk_verdicts_carry_the_chunk)
{
	struct gen_pool *bad;

	ck_assert_uint_eq(gen_pool_alloc(pool, 32), C);
	bad = alloc_gen_pool(0, 12, supply_bad_chunk, (unsigned long)&cs);
	ck_assert_ptr_nonnull(bad);
	cs.bad = C + 32;
	ck_assert_uint_eq(gen_pool_alloc(bad, 32), 0);
	assert_line_is("genalloc: BUG EMISALIGNED: gen_pool_alloc: new chunk not aligned to the chunk size (pool <pool>, addr <addr>, size 4096); make get_new_chunk return 2^max_chunk_shift bytes aligned to their size, or 0", bad, C + 32, 0, 0);
	assert_report_is(REPORT(GENALLOC_BUG, GENALLOC_EMISALIGNED, "gen_pool_alloc", bad, C + 32,
			      4096, "new chunk not aligned to the chunk size"));
	cs.bad = ULONG_MAX - 31;
	ck_assert_uint_eq(gen_pool_alloc(bad, 32), 0);
	assert_line_is("genalloc: BUG ERANGE: gen_pool_alloc: new chunk wraps past the end of the address space (pool <pool>, addr 0xffffffffffffffe0, size 4096); make get_new_chunk return 2^max_chunk_shift bytes aligned to their size, or 0", bad, 0, 0, 0);
	assert_report_is(REPORT(GENALLOC_BUG, GENALLOC_ERANGE, "gen_pool_alloc", bad,
			      ULONG_MAX - 31, 4096,
			      "new chunk wraps past the end of the address space"));
	/* A donation, then a chunk from the callback over it. */
	gen_pool_free(bad, C + 4096, 32);
	cs.bad = C + 4096;
	ck_assert_uint_eq(gen_pool_alloc(bad, 4096), 0);
	assert_line_is("genalloc: BUG EOVERLAP: gen_pool_alloc: new chunk overlaps memory the pool has (pool <pool>, addr <addr>, size 4096); make get_new_chunk return memory the pool has not had, from it or by a free", bad, C + 4096, 0, 0);
	assert_report_is(REPORT(GENALLOC_BUG, GENALLOC_EOVERLAP, "gen_pool_alloc", bad, C + 4096,
			      4096, "new chunk overlaps memory the pool has"));
	gen_pool_destroy(bad);
	ck_assert_int_eq(errors_seen(), 0);
	/* The prefill reports as the call that made it. */
	cs.bad = C + 64;
	bad = alloc_gen_pool(1, 12, supply_bad_chunk, (unsigned long)&cs);
	ck_assert_ptr_nonnull(bad);
	assert_report_is(REPORT(GENALLOC_BUG, GENALLOC_EMISALIGNED, "alloc_gen_pool", bad, C + 64,
			      4096, "new chunk not aligned to the chunk size"));
	gen_pool_destroy(bad);
}
END_TEST

START_TEST(busy_destroy_carries_the_live_bytes)
{
	ck_assert_uint_eq(gen_pool_alloc(pool, 100), C);
	ck_assert_uint_eq(gen_pool_alloc(pool, 32), C + 128);
	gen_pool_destroy(pool);
	assert_line_is("genalloc: BUG EBUSY: gen_pool_destroy: pool has live blocks (pool <pool>, addr <addr>, size 160, 2 live: <addr> <addr2>); free them first (gen_pool_for_each_block() lists them), then destroy the pool", pool, C, C + 128, 0);
	assert_report_is(REPORT(GENALLOC_BUG, GENALLOC_EBUSY, "gen_pool_destroy", pool, C, 160,
			      "pool has live blocks"));
	ck_assert_uint_eq(last_error()->nr_live, 0);	/* reset by assert_report_is() */
}
END_TEST

/* Past GENALLOC_LIVE_SHOWN live blocks, the first ones in address order, then "...". */
START_TEST(busy_destroy_lists_the_first_live_blocks)
{
	unsigned long a[6];

	for (int i = 0; i < 6; i++)
		a[i] = gen_pool_alloc(pool, 32);
	gen_pool_free(pool, a[0], 32);
	gen_pool_destroy(pool);
	ck_assert_int_eq(errors_seen(), 1);
	ck_assert_uint_eq(last_error()->nr_live, 5);
	ck_assert_uint_eq(last_error()->size, 5 * 32);
	ck_assert_uint_eq(last_error()->addr, C + 32);
	for (int i = 0; i < GENALLOC_LIVE_SHOWN; i++)
		ck_assert_uint_eq(last_error()->live[i], C + 32 * (i + 1));
	ck_assert_msg(strstr(last_line(), ", 5 live: ") && strstr(last_line(), " ...); free"),
		      "%s", last_line());
}
END_TEST

/* A call refused because this thread already holds the pool's lock. */
START_TEST(reentry_names_cause_and_fix)
{
	ck_assert(legacy_lock(pool));
	ck_assert_uint_eq(gen_pool_alloc(pool, 32), 0);
	legacy_unlock(pool);
	assert_line_is("genalloc: WARN EREENTRY: gen_pool_alloc: this thread is already inside a locked call on the pool (a signal handler interrupted it, or a callback re-entered it) (pool <pool>, addr 0, size 32); block the signal around the pool's calls, or use <linux/genalloc.h>'s lock-free pools", pool, 0, 0, 0);
}
END_TEST

Suite *legacy_messages_suite(void)
{
	Suite *s = suite_create("legacy_messages");
	TCase *tc = tcase_create("messages");

	tcase_add_checked_fixture(tc, setup, NULL);
	tcase_add_test(tc, creation_names_the_argument_and_its_value);
	tcase_add_test(tc, arguments_carry_the_values_given);
	tcase_add_test(tc, free_verdicts_carry_address_and_size);
	tcase_add_test(tc, chunk_verdicts_carry_the_chunk);
	tcase_add_test(tc, busy_destroy_carries_the_live_bytes);
	tcase_add_test(tc, busy_destroy_lists_the_first_live_blocks);
	tcase_add_test(tc, reentry_names_cause_and_fix);
	suite_add_tcase(s, tc);
	return s;
}
