/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * test/support.h - what every Check suite shares: capturing reports from the
 * library's error hook, death tests that still count for coverage, and
 * aligned scratch memory.
 *
 * Each test runs in its own forked process (Check's default), so the captured
 * state below is per test and needs no locking beyond what the stress tests
 * add themselves.
 */
#ifndef GENALLOC_TEST_SUPPORT_H
#define GENALLOC_TEST_SUPPORT_H

#include <check.h>
#include <stddef.h>

#include "../common/error.h"

/**
 * capture_errors() - install a handler that records errors and returns
 *
 * After this, misuse makes library calls return their failure value and the
 * pool stays unchanged; errors_seen() and last_error() tell what was reported.
 */
void capture_errors(void);

/** errors_seen() - how many errors were reported since capture_errors() */
int errors_seen(void);

/** last_error() - the most recent report (zeroed if none) */
const struct genalloc_error *last_error(void);

/**
 * expect_death() - prepare a test that must die through the default hook
 *
 * Restores the default handler and, in coverage builds, arranges for the gcov
 * counters to be written before SIGABRT kills the process, so that code
 * reached only by dying tests still counts.  Register such tests with
 * tcase_add_test_raise_signal(tc, fn, SIGABRT).
 */
void expect_death(void);

/**
 * ck_assert_error() - assert the last report's code and severity, then reset
 */
#define ck_assert_error(sev, errcode)                                        \
	do {                                                                 \
		ck_assert_msg(errors_seen() > 0, "no error was reported");   \
		ck_assert_int_eq(last_error()->severity, (sev));             \
		ck_assert_int_eq(last_error()->code, (errcode));             \
		reset_errors();                                              \
	} while (0)

/**
 * EXPECT_EQ() - two unsigned long values are equal; on failure both
 * expressions and both values are printed (bit positions, addresses)
 */
#define EXPECT_EQ(a, b)                                                       \
	do {                                                                  \
		unsigned long a_ = (a), b_ = (b);                             \
		if (a_ != b_)                                                 \
			ck_abort_msg("%s:%d: %s == %lu, want %s == %lu", __FILE__, \
				     __LINE__, #a, a_, #b, b_);               \
	} while (0)

/** reset_errors() - forget what was captured so far */
void reset_errors(void);

/**
 * ck_assert_report() - exactly one report since the last reset, from @fn
 * (the call's kernel name) about pool @p; then reset
 */
#define ck_assert_report(fn, p)                                              \
	do {                                                                 \
		ck_assert_int_eq(errors_seen(), 1);                          \
		ck_assert_str_eq(last_error()->func, (fn));                  \
		ck_assert_ptr_eq(last_error()->pool, (p));                   \
		reset_errors();                                              \
	} while (0)

/**
 * assert_report_is() - exactly one report since the last reset, and every
 * field of it as @want says (severity, code, func, pool, addr, size, msg,
 * arg and arg_value); then reset
 */
void assert_report_is(const struct genalloc_error *want);

/** last_line() - the last report as the default hook prints it (no newline) */
const char *last_line(void);

/**
 * assert_line_is() - the last report's line is @tmpl with its values put in
 * @tmpl:  the line as docs/misuse.md shows it, where "<pool>" stands for
 *         @pool ("%p", or NULL), "<addr>", "<addr2>" and "<chunk>" for
 *         @addr, @addr2 and @chunk in hexadecimal: the values the test
 *         knows the report must carry
 * @pool, @addr, @addr2, @chunk: those values
 *
 * Leaves the captured report for assert_report_is() and the like.
 * test/docs/misuse_messages.sh checks that every @tmpl given here is a line
 * of docs/misuse.md and every message there is one given here, so the
 * catalogue shows what the code prints: keep each @tmpl one string literal.
 */
void assert_line_is(const char *tmpl, const void *pool, unsigned long addr,
		    unsigned long addr2, unsigned long chunk);

/** REPORT() - a report with an address and a size, for assert_report_is() */
#define REPORT(sev, c, fn, p, a, s, m)                                        \
	(&(const struct genalloc_error){ .severity = (sev), .code = (c),      \
		.func = (fn), .pool = (p), .addr = (a), .size = (s), .msg = (m) })

/** REPORT_ARG() - a report naming argument @name with @value (size 0) */
#define REPORT_ARG(sev, c, fn, p, a, m, name, value)                          \
	(&(const struct genalloc_error){ .severity = (sev), .code = (c),      \
		.func = (fn), .pool = (p), .addr = (a), .msg = (m),           \
		.arg = (name), .arg_value = (value) })

/**
 * struct stderr_capture - what stderr_capture_start() set aside
 * @saved: the process's stderr
 * @pipe:  the pipe standing in for it
 */
struct stderr_capture {
	int saved;
	int pipe[2];
};

/**
 * stderr_capture_start() - send file descriptor 2 into a pipe, so that a
 * test can read what the default error hook prints
 */
void stderr_capture_start(struct stderr_capture *c);

/**
 * stderr_capture_end() - give back stderr and read what was written
 * @c:    as stderr_capture_start() filled it
 * @buf:  receives the text, NUL-terminated (the test fails if there is none)
 * @size: bytes of @buf; the pipe's first @size - 1 bytes are kept
 */
void stderr_capture_end(struct stderr_capture *c, char *buf, size_t size);

/**
 * test_region() - aligned scratch memory, freed after the test
 * @align: power-of-two alignment
 * @size:  bytes
 *
 * Aborts the test if memory cannot be had.  The memory is freed by
 * test_region_release_all(), which the runner's global teardown calls.
 */
void *test_region(size_t align, size_t size);

/** test_region_release_all() - free every test_region() block */
void test_region_release_all(void);

/**
 * test_rng_next() - small deterministic PRNG (xorshift64*) for randomized tests
 * @state: the generator state, never 0
 */
unsigned long long test_rng_next(unsigned long long *state);

/** test_rng_below() - a value in [0, n) */
unsigned long long test_rng_below(unsigned long long *state, unsigned long long n);

/* Every suite's constructor, generated by the build from the test sources. */
#define SUITE(name) Suite *name(void);
#include "suites.inc"
#undef SUITE

#endif /* GENALLOC_TEST_SUPPORT_H */
