// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * test/test_error.c - the shared error hook: handler swapping, the default
 * handler's message and abort, strerror names.
 */
#include <signal.h>
#include <string.h>

#include "support.h"

START_TEST(set_handler_returns_previous)
{
	genalloc_error_fn old = genalloc_set_error_handler(NULL);

	ck_assert_ptr_eq(old, genalloc_default_error_handler);
	capture_errors();
	old = genalloc_set_error_handler(NULL);
	ck_assert_ptr_ne(old, genalloc_default_error_handler);
	ck_assert_ptr_eq(genalloc_set_error_handler(NULL),
			 genalloc_default_error_handler);
}
END_TEST

START_TEST(report_reaches_handler_with_all_fields)
{
	int pool;

	capture_errors();
	genalloc_report(GENALLOC_BUG, GENALLOC_ESIZE, "gen_pool_free", &pool,
			0x1000, 64, "wrong size");
	ck_assert_int_eq(errors_seen(), 1);
	ck_assert_int_eq(last_error()->severity, GENALLOC_BUG);
	ck_assert_int_eq(last_error()->code, GENALLOC_ESIZE);
	ck_assert_str_eq(last_error()->func, "gen_pool_free");
	ck_assert_ptr_eq(last_error()->pool, &pool);
	ck_assert_uint_eq(last_error()->addr, 0x1000);
	ck_assert_uint_eq(last_error()->size, 64);
	ck_assert_str_eq(last_error()->msg, "wrong size");
}
END_TEST

START_TEST(default_warn_prints_and_returns)
{
	struct stderr_capture cap;
	char buf[256];

	stderr_capture_start(&cap);
	genalloc_set_error_handler(NULL);
	genalloc_report(GENALLOC_WARN, GENALLOC_EINVAL, "gen_pool_alloc", NULL,
			0, 0, NULL);
	stderr_capture_end(&cap, buf, sizeof(buf));
	ck_assert_str_eq(buf, "genalloc: WARN: gen_pool_alloc: invalid argument "
			      "(pool (nil), addr 0, size 0)\n");
}
END_TEST

/* An argument that is neither an address nor a size reaches the handler by
 * name, and the default line prints it in place of the size. */
START_TEST(report_arg_names_the_argument)
{
	struct stderr_capture cap;
	char buf[256];

	capture_errors();
	genalloc_report_arg(GENALLOC_WARN, GENALLOC_EINVAL, "alloc_gen_pool", NULL, 0,
			    "max_chunk_shift", 30, "max_chunk_shift above page shift + 10");
	assert_report_is(REPORT_ARG(GENALLOC_WARN, GENALLOC_EINVAL, "alloc_gen_pool", NULL, 0,
				    "max_chunk_shift above page shift + 10",
				    "max_chunk_shift", 30));
	stderr_capture_start(&cap);
	genalloc_set_error_handler(NULL);
	genalloc_report_arg(GENALLOC_WARN, GENALLOC_EINVAL, "gen_pool_alloc", NULL, 0,
			    "size", -32, "negative size");
	stderr_capture_end(&cap, buf, sizeof(buf));
	ck_assert_str_eq(buf, "genalloc: WARN: gen_pool_alloc: negative size "
			      "(pool (nil), addr 0, size -32)\n");
}
END_TEST

START_TEST(default_bug_aborts)
{
	expect_death();
	genalloc_report(GENALLOC_BUG, GENALLOC_EDOUBLEFREE, "gen_pool_free",
			NULL, 0x40, 32, NULL);
}
END_TEST

START_TEST(strerror_names_every_code)
{
	for (int c = GENALLOC_EINVAL; c <= GENALLOC_EREENTRY; c++)
		ck_assert_str_ne(genalloc_strerror(c), "unknown error");
	ck_assert_str_eq(genalloc_strerror(0), "unknown error");
	ck_assert_str_eq(genalloc_strerror(GENALLOC_EDOUBLEFREE), "double free");
}
END_TEST

/* The names are what a report's reader sees: each code its own (the
 * mutation audit gave one code another's name and nothing failed). */
START_TEST(strerror_names_are_as_listed)
{
	static const struct {
		enum genalloc_errcode code;
		const char *name;
	} names[] = {
		{ GENALLOC_EINVAL, "invalid argument" },
		{ GENALLOC_EDOUBLEFREE, "double free" },
		{ GENALLOC_EFOREIGN, "address not owned by the pool" },
		{ GENALLOC_EMISALIGNED, "misaligned address" },
		{ GENALLOC_ESIZE, "size does not match the block" },
		{ GENALLOC_ERANGE, "range outside its chunk" },
		{ GENALLOC_EBUSY, "pool has live allocations" },
		{ GENALLOC_EOVERLAP, "memory overlaps the pool" },
		{ GENALLOC_ECORRUPT, "inconsistent pool state" },
		{ GENALLOC_EREENTRY, "pool re-entered by its own thread" },
	};
	size_t n = sizeof(names) / sizeof(names[0]);

	ck_assert_uint_eq(n, GENALLOC_EREENTRY - GENALLOC_EINVAL + 1);
	for (size_t i = 0; i < n; i++)
		ck_assert_str_eq(genalloc_strerror(names[i].code), names[i].name);
}
END_TEST

Suite *error_hook_suite(void)
{
	Suite *s = suite_create("error_hook");
	TCase *tc = tcase_create("hook");

	tcase_add_test(tc, set_handler_returns_previous);
	tcase_add_test(tc, report_reaches_handler_with_all_fields);
	tcase_add_test(tc, default_warn_prints_and_returns);
	tcase_add_test(tc, report_arg_names_the_argument);
	tcase_add_test_raise_signal(tc, default_bug_aborts, SIGABRT);
	tcase_add_test(tc, strerror_names_every_code);
	tcase_add_test(tc, strerror_names_are_as_listed);
	suite_add_tcase(s, tc);
	return s;
}
