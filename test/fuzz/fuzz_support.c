// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * test/fuzz/fuzz_support.c - see fuzz.h.
 */
#include "fuzz.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

unsigned fuzz_u8(struct fuzz_in *in)
{
	if (!in->n)
		return 0;
	in->n--;
	return *in->p++;
}

unsigned fuzz_u16(struct fuzz_in *in)
{
	unsigned lo = fuzz_u8(in);

	return lo | fuzz_u8(in) << 8;
}

unsigned long fuzz_below(struct fuzz_in *in, unsigned long n)
{
	return n ? fuzz_u16(in) % n : 0;
}

void fuzz_fail(const char *file, int line, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s:%d: ", file, line);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	abort();
}

/* The harness is single-threaded: plain statics are enough. */
static int nr_reports;
static struct genalloc_error last_report;

static void record(const struct genalloc_error *err)
{
	nr_reports++;
	last_report = *err;
}

void fuzz_capture_errors(void)
{
	nr_reports = 0;
	memset(&last_report, 0, sizeof(last_report));
	genalloc_set_error_handler(record);
}

void fuzz_restore_errors(void)
{
	genalloc_set_error_handler(NULL);
}

void fuzz_expect_report_at(const char *file, int line, enum genalloc_severity sev,
			   enum genalloc_errcode code, const char *what)
{
	if (nr_reports != 1 || last_report.severity != sev || last_report.code != code)
		fuzz_fail(file, line, "%s: expected one %s %s, got %d report(s), last %s %s (%s: %s)",
			  what, sev == GENALLOC_BUG ? "BUG" : "WARN", genalloc_strerror(code),
			  nr_reports, last_report.severity == GENALLOC_BUG ? "BUG" : "WARN",
			  genalloc_strerror(last_report.code),
			  last_report.func ? last_report.func : "-",
			  last_report.msg ? last_report.msg : "-");
	nr_reports = 0;
	memset(&last_report, 0, sizeof(last_report));
}

void fuzz_expect_quiet_at(const char *file, int line, const char *what)
{
	if (nr_reports)
		fuzz_fail(file, line, "%s: unexpected report: %s %s (%s: %s)", what,
			  last_report.severity == GENALLOC_BUG ? "BUG" : "WARN",
			  genalloc_strerror(last_report.code),
			  last_report.func ? last_report.func : "-",
			  last_report.msg ? last_report.msg : "-");
}
