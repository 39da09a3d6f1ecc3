// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * test/test_error.c - the shared error hook: handler swapping, the default
 * handler's message and abort, strerror names.
 */
#include <signal.h>
#include <stddef.h>
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
	ck_assert_str_eq(buf, "genalloc: WARN EINVAL: gen_pool_alloc: invalid argument "
			      "(pool NULL, addr 0, size 0); pass what the function's comment in "
			      "its header allows\n");
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
	ck_assert_str_eq(buf, "genalloc: WARN EINVAL: gen_pool_alloc: negative size "
			      "(pool NULL, addr 0, size -32); pass what the function's comment "
			      "in its header allows\n");
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

/* Every code has its own name, as its enumerator is spelt, and a fix. */
START_TEST(errcode_names_and_fixes)
{
	static const char *const names[] = { "EINVAL", "EDOUBLEFREE", "EFOREIGN",
		"EMISALIGNED", "ESIZE", "ERANGE", "EBUSY", "EOVERLAP", "ECORRUPT", "EREENTRY" };

	for (int c = GENALLOC_EINVAL; c <= GENALLOC_EREENTRY; c++) {
		ck_assert_str_eq(genalloc_errcode_name(c), names[c - GENALLOC_EINVAL]);
		ck_assert_str_ne(genalloc_errcode_fix(c), genalloc_errcode_fix(0));
		for (int d = GENALLOC_EINVAL; d < c; d++)
			ck_assert_str_ne(genalloc_errcode_fix(c), genalloc_errcode_fix(d));
	}
	ck_assert_str_eq(genalloc_errcode_name(0), "EUNKNOWN");
}
END_TEST

/* The short forms fill in the code's fix, so a handler always gets one. */
START_TEST(every_report_carries_a_fix)
{
	capture_errors();
	genalloc_report(GENALLOC_BUG, GENALLOC_ESIZE, "gen_pool_free", NULL, 0x1000, 64, "x");
	ck_assert_str_eq(last_error()->fix, genalloc_errcode_fix(GENALLOC_ESIZE));
	genalloc_report_arg(GENALLOC_WARN, GENALLOC_EINVAL, "f", NULL, 0, "size", -1, "x");
	ck_assert_str_eq(last_error()->fix, genalloc_errcode_fix(GENALLOC_EINVAL));
	genalloc_report_error(&(const struct genalloc_error){ .severity = GENALLOC_WARN,
		.code = GENALLOC_EBUSY, .func = "f" });
	ck_assert_str_eq(last_error()->fix, genalloc_errcode_fix(GENALLOC_EBUSY));
	genalloc_report_error(&(const struct genalloc_error){ .severity = GENALLOC_WARN,
		.code = GENALLOC_EBUSY, .func = "f", .fix = "do this" });
	ck_assert_str_eq(last_error()->fix, "do this");
}
END_TEST

/* The details beyond an address and a size, each where the header says. */
START_TEST(format_prints_every_detail)
{
	struct genalloc_error e = { .severity = GENALLOC_WARN, .code = GENALLOC_EOVERLAP,
		.func = "gen_pool_add", .addr = 0x1800, .size = 4096, .msg = "overlap",
		.chunk_addr = 0x1000, .chunk_size = 4096, .fix = "do that" };
	char buf[512];
	int n;

	n = genalloc_format_error(&e, buf, sizeof(buf));
	ck_assert_str_eq(buf, "genalloc: WARN EOVERLAP: gen_pool_add: overlap (pool NULL, "
			      "addr 0x1800, size 4096, chunk 0x1000 size 4096); do that");
	ck_assert_int_eq(n, (int)strlen(buf));
	e = (struct genalloc_error){ .severity = GENALLOC_BUG, .code = GENALLOC_EBUSY,
		.func = "gen_pool_destroy", .addr = 0x100, .size = 160, .nr_live = 5,
		.live = { 0x100, 0x200, 0x300, 0x400 } };
	genalloc_format_error(&e, buf, sizeof(buf));
	ck_assert_str_eq(buf, "genalloc: BUG EBUSY: gen_pool_destroy: pool has live allocations "
			      "(pool NULL, addr 0x100, size 160, 5 live: 0x100 0x200 0x300 0x400 "
			      "...); release what is still in use first, then call again");
	e.nr_live = 1;
	genalloc_format_error(&e, buf, sizeof(buf));
	ck_assert_ptr_nonnull(strstr(buf, "size 160, 1 live: 0x100); release"));
	e = (struct genalloc_error){ .severity = GENALLOC_WARN, .code = GENALLOC_EINVAL,
		.func = "f", .pool = buf, .arg = "ENV", .arg_text = "x", .msg = "m" };
	genalloc_format_error(&e, buf + 256, 256);
	ck_assert_ptr_nonnull(strstr(buf + 256, ", addr 0, ENV \"x\"); pass"));
	ck_assert_ptr_null(strstr(buf + 256, "pool NULL"));
}
END_TEST

/* As snprintf(): cut short but terminated, and the whole length returned. */
START_TEST(format_cuts_short_and_counts)
{
	const struct genalloc_error e = { .severity = GENALLOC_WARN, .code = GENALLOC_EINVAL,
		.func = "gen_pool_alloc", .msg = "m" };
	char whole[256], cut[16];
	int n = genalloc_format_error(&e, whole, sizeof(whole));

	ck_assert_int_eq(genalloc_format_error(&e, NULL, 0), n);
	ck_assert_int_eq(genalloc_format_error(&e, cut, sizeof(cut)), n);
	ck_assert_int_eq(strlen(cut), sizeof(cut) - 1);
	ck_assert_int_eq(strncmp(cut, whole, sizeof(cut) - 1), 0);
}
END_TEST

/* A handler written for the struct before its later members reads the
 * same values in the same places: a report seen through a copy of the old
 * layout is the report. */
START_TEST(a_handler_of_the_first_layout_still_works)
{
	struct first_layout {
		enum genalloc_severity severity;
		enum genalloc_errcode code;
		const char *func;
		const void *pool;
		unsigned long addr;
		size_t size;
		const char *msg;
		const char *arg;
		long arg_value;
	} old;
	int pool;

	capture_errors();
	genalloc_report(GENALLOC_BUG, GENALLOC_ESIZE, "gen_pool_free", &pool, 0x1000, 64, "m");
	memcpy(&old, last_error(), sizeof(old));
	ck_assert_int_eq(old.code, GENALLOC_ESIZE);
	ck_assert_ptr_eq(old.pool, &pool);
	ck_assert_uint_eq(old.addr, 0x1000);
	ck_assert_uint_eq(old.size, 64);
	ck_assert_str_eq(old.msg, "m");
	ck_assert_uint_eq(offsetof(struct genalloc_error, arg_value),
			  offsetof(struct first_layout, arg_value));
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
	tcase_add_test(tc, errcode_names_and_fixes);
	tcase_add_test(tc, every_report_carries_a_fix);
	tcase_add_test(tc, format_prints_every_detail);
	tcase_add_test(tc, format_cuts_short_and_counts);
	tcase_add_test(tc, a_handler_of_the_first_layout_still_works);
	suite_add_tcase(s, tc);
	return s;
}
