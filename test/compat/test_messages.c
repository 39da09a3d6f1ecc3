// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * test/compat/test_messages.c - what each report of the 2005 API says on
 * both backends, field by field: the call, the pool, the address and size
 * given, the message, and an argument the address and size cannot carry
 * (a shift, a chunk count, a negative size) by its name with its value.
 * The messages are the 2005 contract's (legacy/contract.c), so each backend
 * must say what the buddy engine says, naming the compat pool its caller
 * holds, never an engine's own (_i = 0 buddy, 1 bitmap).
 */
#include <limits.h>

#include "../support.h"
#include "compat_fixture.h"

#define SHIFT 12

START_TEST(creation_names_the_argument_and_its_value)
{
	enum compat_backend b = fx_backend(_i);
	struct fx_provider *p = fx_provider_new(SHIFT, 1);

	capture_errors();
	ck_assert_ptr_null(gen_pool_create_backend(b, 0, 30, NULL, 0));
	assert_report_is(REPORT_ARG(GENALLOC_WARN, GENALLOC_EINVAL, "alloc_gen_pool", NULL, 0,
				  "max_chunk_shift above page shift + 10",
				  "max_chunk_shift", 30));
	ck_assert_ptr_null(gen_pool_create_backend(b, 0, -7, NULL, 0));
	assert_report_is(REPORT_ARG(GENALLOC_WARN, GENALLOC_EINVAL, "alloc_gen_pool", NULL, 0,
				  "max_chunk_shift below ALLOC_MIN_SHIFT",
				  "max_chunk_shift", -7));
	ck_assert_ptr_null(gen_pool_create_backend(b, -3, SHIFT, fx_get_new_chunk,
						   (unsigned long)p));
	assert_line_is("genalloc: WARN EINVAL: alloc_gen_pool: negative nr_chunks (pool NULL, addr 0, nr_chunks -3); pass how many chunks to obtain now, 0 or more", NULL, 0, 0, 0);
	assert_report_is(REPORT_ARG(GENALLOC_WARN, GENALLOC_EINVAL, "alloc_gen_pool", NULL, 0,
				  "negative nr_chunks", "nr_chunks", -3));
	ck_assert_ptr_null(gen_pool_create_backend((enum compat_backend)7, 0, SHIFT, NULL, 0));
	assert_line_is("genalloc: WARN EINVAL: alloc_gen_pool: unknown compat backend (pool NULL, addr 0, backend 7); pass COMPAT_BACKEND_DEFAULT, COMPAT_BACKEND_BUDDY or COMPAT_BACKEND_BITMAP", NULL, 0, 0, 0);
	reset_errors();
	ck_assert_ptr_null(gen_pool_create_backend(b, 2, SHIFT, NULL, 0));
	assert_report_is(REPORT_ARG(GENALLOC_WARN, GENALLOC_EINVAL, "alloc_gen_pool", NULL, 0,
				  "nr_chunks without get_new_chunk", "nr_chunks", 2));
}
END_TEST

START_TEST(arguments_carry_the_values_given)
{
	struct gen_pool *pool = fx_pool(_i, fx_provider_new(SHIFT, 1), 0);

	capture_errors();
	ck_assert_uint_eq(gen_pool_alloc(pool, -32), 0);
	assert_line_is("genalloc: WARN EINVAL: gen_pool_alloc: negative size (pool <pool>, addr 0, size -32); pass a size of 0 or more", pool, 0, 0, 0);
	assert_report_is(REPORT_ARG(GENALLOC_WARN, GENALLOC_EINVAL, "gen_pool_alloc", pool, 0,
				  "negative size", "size", -32));
	ck_assert_uint_eq(gen_pool_alloc(NULL, -5), 0);
	assert_report_is(REPORT_ARG(GENALLOC_WARN, GENALLOC_EINVAL, "gen_pool_alloc", NULL, 0,
				  "NULL pool", "size", -5));
	ck_assert_uint_eq(gen_pool_alloc(NULL, 64), 0);
	assert_line_is("genalloc: WARN EINVAL: gen_pool_alloc: NULL pool (pool NULL, addr 0, size 64); pass the pool alloc_gen_pool() returned", NULL, 0, 0, 0);
	assert_report_is(REPORT(GENALLOC_WARN, GENALLOC_EINVAL, "gen_pool_alloc", NULL, 0, 64,
			      "NULL pool"));
	ck_assert_int_eq(compat_gen_pool_check(NULL), -1);
	assert_line_is("genalloc: WARN EINVAL: gen_pool_check: NULL pool (pool NULL, addr 0, size 0); pass the pool alloc_gen_pool() returned", NULL, 0, 0, 0);
	reset_errors();
	gen_pool_free(pool, 0x1000, INT_MIN);
	assert_report_is(REPORT_ARG(GENALLOC_WARN, GENALLOC_EINVAL, "gen_pool_free", pool, 0x1000,
				  "negative size", "size", INT_MIN));
	gen_pool_free(pool, 0, 32);
	assert_line_is("genalloc: WARN EINVAL: gen_pool_free: address 0 (pool <pool>, addr 0, size 32); free what gen_pool_alloc() returned, never its failure value 0", pool, 0, 0, 0);
	assert_report_is(REPORT(GENALLOC_WARN, GENALLOC_EINVAL, "gen_pool_free", pool, 0, 32,
			      "address 0"));
}
END_TEST

START_TEST(free_verdicts_carry_address_and_size)
{
	struct gen_pool *pool = fx_pool(_i, fx_provider_new(SHIFT, 1), 0);
	unsigned long a = gen_pool_alloc(pool, 128), d = (unsigned long)test_region(4096, 4096);
	const void *f = pool;	/* the caller's, whichever engine found it */

	capture_errors();
	gen_pool_free(pool, a, 256);
	assert_line_is("genalloc: BUG ESIZE: gen_pool_free: size differs from the allocated size (pool <pool>, addr <addr>, size 256); free with the size given to gen_pool_alloc(), or one that rounds up alike", pool, a, 0, 0);
	assert_report_is(REPORT(GENALLOC_BUG, GENALLOC_ESIZE, "gen_pool_free", f, a, 256,
			      "size differs from the allocated size"));
	gen_pool_free(pool, a + 32, 32);
	assert_line_is("genalloc: BUG EFOREIGN: gen_pool_free: address inside a live block, not its start (pool <pool>, addr <addr>, size 32); free the block's first address, the one gen_pool_alloc() returned", pool, a + 32, 0, 0);
	assert_report_is(REPORT(GENALLOC_BUG, GENALLOC_EFOREIGN, "gen_pool_free", f, a + 32, 32,
			      "address inside a live block, not its start"));
	gen_pool_free(pool, a + 8, 64);
	assert_line_is("genalloc: BUG EMISALIGNED: gen_pool_free: address not aligned to the rounded size (pool <pool>, addr <addr>, size 64); free the address gen_pool_alloc() returned; donate only ranges aligned to their size rounded up to a power of two", pool, a + 8, 0, 0);
	assert_report_is(REPORT(GENALLOC_BUG, GENALLOC_EMISALIGNED, "gen_pool_free", f, a + 8, 64,
			      "address not aligned to the rounded size"));
	gen_pool_free(pool, ULONG_MAX - 31, 64);
	assert_line_is("genalloc: BUG ERANGE: gen_pool_free: range wraps past the end of the address space (pool <pool>, addr 0xffffffffffffffe0, size 64); free the address and size of a block gen_pool_alloc() returned", pool, 0, 0, 0);
	assert_report_is(REPORT(GENALLOC_BUG, GENALLOC_ERANGE, "gen_pool_free", f, ULONG_MAX - 31,
			      64, "range wraps past the end of the address space"));
	gen_pool_free(pool, a, 100);
	ck_assert_int_eq(errors_seen(), 0);
	gen_pool_free(pool, a, 100);
	assert_line_is("genalloc: BUG EDOUBLEFREE: gen_pool_free: block is already free (pool <pool>, addr <addr>, size 100); free each block once", pool, a, 0, 0);
	assert_report_is(REPORT(GENALLOC_BUG, GENALLOC_EDOUBLEFREE, "gen_pool_free", f, a, 100,
			      "block is already free"));
	gen_pool_free(pool, a + 64, 32);
	assert_report_is(REPORT(GENALLOC_BUG, GENALLOC_EDOUBLEFREE, "gen_pool_free", f, a + 64, 32,
			      "block is already free"));
	gen_pool_free(pool, d + 128, 64);
	ck_assert_int_eq(errors_seen(), 0);
	gen_pool_free(pool, d, 256);
	assert_line_is("genalloc: BUG EOVERLAP: gen_pool_free: donated range overlaps memory the pool has (pool <pool>, addr <addr>, size 256); donate only memory the pool has not had", pool, d, 0, 0);
	assert_report_is(REPORT(GENALLOC_BUG, GENALLOC_EOVERLAP, "gen_pool_free", f, d, 256,
			      "donated range overlaps memory the pool has"));
}
END_TEST

START_TEST(chunk_verdicts_carry_the_chunk)
{
	struct fx_provider *p = fx_provider_new(SHIFT, 2);
	struct gen_pool *pool = fx_pool(_i, p, 0);
	const void *f = pool;	/* the caller's, whichever engine found it */
	unsigned long c1 = p->chunk[1];

	capture_errors();
	p->bad = c1 + 32;
	ck_assert_uint_eq(gen_pool_alloc(pool, 32), 0);
	assert_line_is("genalloc: BUG EMISALIGNED: gen_pool_alloc: new chunk not aligned to the chunk size (pool <pool>, addr <addr>, size 4096); make get_new_chunk return 2^max_chunk_shift bytes aligned to their size, or 0", pool, c1 + 32, 0, 0);
	assert_report_is(REPORT(GENALLOC_BUG, GENALLOC_EMISALIGNED, "gen_pool_alloc", f, c1 + 32,
			      4096, "new chunk not aligned to the chunk size"));
	p->bad = ULONG_MAX - 31;
	ck_assert_uint_eq(gen_pool_alloc(pool, 32), 0);
	assert_line_is("genalloc: BUG ERANGE: gen_pool_alloc: new chunk wraps past the end of the address space (pool <pool>, addr 0xffffffffffffffe0, size 4096); make get_new_chunk return 2^max_chunk_shift bytes aligned to their size, or 0", pool, 0, 0, 0);
	assert_report_is(REPORT(GENALLOC_BUG, GENALLOC_ERANGE, "gen_pool_alloc", f, ULONG_MAX - 31,
			      4096, "new chunk wraps past the end of the address space"));
	gen_pool_free(pool, c1, 32);	/* a donation, then a chunk over it */
	ck_assert_int_eq(errors_seen(), 0);
	p->bad = c1;
	ck_assert_uint_eq(gen_pool_alloc(pool, 4096), 0);
	assert_line_is("genalloc: BUG EOVERLAP: gen_pool_alloc: new chunk overlaps memory the pool has (pool <pool>, addr <addr>, size 4096); make get_new_chunk return memory the pool has not had, from it or by a free", pool, c1, 0, 0);
	assert_report_is(REPORT(GENALLOC_BUG, GENALLOC_EOVERLAP, "gen_pool_alloc", f, c1, 4096,
			      "new chunk overlaps memory the pool has"));
}
END_TEST

START_TEST(busy_destroy_carries_the_live_bytes)
{
	struct gen_pool *pool = fx_pool(_i, fx_provider_new(SHIFT, 1), 0);
	unsigned long a, b;

	capture_errors();
	a = gen_pool_alloc(pool, 100);
	b = gen_pool_alloc(pool, 32);
	ck_assert_uint_ne(a, 0);
	ck_assert_uint_eq(b, a + 128);
	gen_pool_destroy(pool);
	assert_line_is("genalloc: BUG EBUSY: gen_pool_destroy: pool has live blocks (pool <pool>, addr <addr>, size 160, 2 live: <addr> <addr2>); free them first (gen_pool_for_each_block() lists them), then destroy the pool", pool, a, b, 0);
	ck_assert_uint_eq(last_error()->nr_live, 2);
	ck_assert_uint_eq(last_error()->live[0], a);
	ck_assert_uint_eq(last_error()->live[1], b);
	assert_report_is(REPORT(GENALLOC_BUG, GENALLOC_EBUSY, "gen_pool_destroy", pool, a, 160,
			      "pool has live blocks"));
}
END_TEST

/* A misuse the buddy engine finds while its callback runs for the prefill
 * names the compat pool too: the engine knows it from its creation on. */
START_TEST(prefill_reports_name_the_compat_pool)
{
	struct fx_provider *p = fx_provider_new(SHIFT, 2);
	struct gen_pool *pool;

	capture_errors();
	p->bad = p->chunk[1] + 32;
	pool = gen_pool_create_backend(fx_backend(_i), 1, SHIFT, fx_get_new_chunk,
				       (unsigned long)p);
	ck_assert_ptr_nonnull(pool);
	assert_report_is(REPORT(GENALLOC_BUG, GENALLOC_EMISALIGNED, "alloc_gen_pool", pool,
			      p->chunk[1] + 32, 4096, "new chunk not aligned to the chunk size"));
	gen_pool_destroy(pool);
}
END_TEST

Suite *compat_messages_suite(void)
{
	Suite *s = suite_create("compat_messages");
	TCase *tc = tcase_create("messages");

	tcase_add_loop_test(tc, creation_names_the_argument_and_its_value, 0, 2);
	tcase_add_loop_test(tc, arguments_carry_the_values_given, 0, 2);
	tcase_add_loop_test(tc, free_verdicts_carry_address_and_size, 0, 2);
	tcase_add_loop_test(tc, chunk_verdicts_carry_the_chunk, 0, 2);
	tcase_add_loop_test(tc, busy_destroy_carries_the_live_bytes, 0, 2);
	tcase_add_loop_test(tc, prefill_reports_name_the_compat_pool, 0, 2);
	suite_add_tcase(s, tc);
	return s;
}
