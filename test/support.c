// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * test/support.c - see support.h.
 */
#include "support.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int seen;
static struct genalloc_error last;
static char last_text[1024];

static void record_error(const struct genalloc_error *err)
{
	seen++;
	last = *err;
	genalloc_format_error(err, last_text, sizeof(last_text));
}

const char *last_line(void)
{
	return last_text;
}

void assert_line_is(const char *tmpl, const void *pool, unsigned long addr,
		    unsigned long addr2, unsigned long chunk)
{
	static const char *const token[] = { "<pool>", "<addr>", "<addr2>", "<chunk>" };
	char want[1024], value[4][32];
	size_t n = 0;

	if (pool)
		snprintf(value[0], sizeof(value[0]), "%p", pool);
	else
		snprintf(value[0], sizeof(value[0]), "NULL");
	snprintf(value[1], sizeof(value[1]), "%#lx", addr);
	snprintf(value[2], sizeof(value[2]), "%#lx", addr2);
	snprintf(value[3], sizeof(value[3]), "%#lx", chunk);
	while (*tmpl && n < sizeof(want) - 1) {
		size_t t, len = 0;

		for (t = 0; t < 4; t++) {
			len = strlen(token[t]);
			if (!strncmp(tmpl, token[t], len))
				break;
		}
		if (t < 4) {
			n += (size_t)snprintf(want + n, sizeof(want) - n, "%s", value[t]);
			tmpl += len;
		} else {
			want[n++] = *tmpl++;
		}
	}
	want[n < sizeof(want) ? n : sizeof(want) - 1] = '\0';
	ck_assert_msg(seen > 0, "no report, want \"%s\"", want);
	ck_assert_msg(!strcmp(last_text, want), "the report's line:\n  got  \"%s\"\n  want \"%s\"",
		      last_text, want);
}

void capture_errors(void)
{
	reset_errors();
	genalloc_set_error_handler(record_error);
}

int errors_seen(void)
{
	return seen;
}

const struct genalloc_error *last_error(void)
{
	return &last;
}

void reset_errors(void)
{
	seen = 0;
	memset(&last, 0, sizeof(last));
	last_text[0] = '\0';
}

/* Strings compared as strings, NULL only with NULL. */
static void assert_same_str(const char *field, const char *got, const char *want)
{
	if (!got || !want)
		ck_assert_msg(got == want, "%s: got %s, want %s", field, got ? got : "NULL",
			      want ? want : "NULL");
	else
		ck_assert_msg(!strcmp(got, want), "%s: got \"%s\", want \"%s\"", field, got,
			      want);
}

void assert_report_is(const struct genalloc_error *want)
{
	ck_assert_int_eq(seen, 1);
	ck_assert_int_eq(last.severity, want->severity);
	ck_assert_int_eq(last.code, want->code);
	assert_same_str("func", last.func, want->func);
	ck_assert_ptr_eq(last.pool, want->pool);
	ck_assert_uint_eq(last.addr, want->addr);
	ck_assert_uint_eq(last.size, want->size);
	assert_same_str("msg", last.msg, want->msg);
	assert_same_str("arg", last.arg, want->arg);
	ck_assert_int_eq(last.arg_value, want->arg_value);
	reset_errors();
}

void stderr_capture_start(struct stderr_capture *c)
{
	c->saved = dup(2);
	ck_assert_int_ge(c->saved, 0);
	ck_assert_int_eq(pipe(c->pipe), 0);
	fflush(stderr);
	ck_assert_int_eq(dup2(c->pipe[1], 2), 2);
}

void stderr_capture_end(struct stderr_capture *c, char *buf, size_t size)
{
	ssize_t n;

	fflush(stderr);
	dup2(c->saved, 2);
	close(c->saved);
	close(c->pipe[1]);
	n = read(c->pipe[0], buf, size - 1);
	close(c->pipe[0]);
	ck_assert_int_gt(n, 0);
	buf[n] = '\0';
}

#ifdef GENALLOC_TEST_COVERAGE
extern void __gcov_dump(void);

static void flush_coverage_and_die(int sig)
{
	__gcov_dump();
	signal(sig, SIG_DFL);
	raise(sig);
}
#endif

void expect_death(void)
{
	genalloc_set_error_handler(NULL);
#ifdef GENALLOC_TEST_COVERAGE
	signal(SIGABRT, flush_coverage_and_die);
#endif
}

struct region {
	struct region *next;
	void *mem;
};

static struct region *regions;

void *test_region(size_t align, size_t size)
{
	struct region *r = malloc(sizeof(*r));
	size_t rounded = (size + align - 1) & ~(align - 1);

	ck_assert_ptr_nonnull(r);
	r->mem = aligned_alloc(align, rounded ? rounded : align);
	ck_assert_ptr_nonnull(r->mem);
	r->next = regions;
	regions = r;
	return r->mem;
}

void test_region_release_all(void)
{
	while (regions) {
		struct region *r = regions;

		regions = r->next;
		free(r->mem);
		free(r);
	}
}

unsigned long long test_rng_next(unsigned long long *state)
{
	unsigned long long x = *state;

	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	*state = x;
	return x * 0x2545F4914F6CDD1DULL;
}

unsigned long long test_rng_below(unsigned long long *state, unsigned long long n)
{
	return n ? test_rng_next(state) % n : 0;
}
