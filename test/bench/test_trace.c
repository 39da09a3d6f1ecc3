// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * test/bench/test_trace.c - the trace reader: what it takes, what it
 * refuses and how it says so.
 *
 * Every malformed line is refused with "PATH:LINE: reason", never half-read;
 * ids take the whole 64-bit range (none of them marks an empty slot of the
 * id map); lines may be of any length.
 */
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../support.h"
#include "bench/replay.h"
#include "bench/workload.h"

/* Write @text to a fresh file; @path receives its name. */
static void write_trace(char *path, const char *text)
{
	int fd;
	FILE *f;

	strcpy(path, "/tmp/genalloc-trace-XXXXXX");
	fd = mkstemp(path);
	ck_assert_int_ge(fd, 0);
	f = fdopen(fd, "w");
	ck_assert_ptr_nonnull(f);
	ck_assert_int_ge(fputs(text, f), 0);
	ck_assert_int_eq(fclose(f), 0);
}

/* Read @text; 0 or -1, with the message in @err. */
static int read_text(const char *text, struct bench_workload *w, char *err, size_t n)
{
	char path[64];
	int rc;

	write_trace(path, text);
	rc = bench_workload_read(w, path, err, n);
	unlink(path);
	return rc;
}

START_TEST(trace_round_trip)
{
	char path[] = "/tmp/genalloc-bench-XXXXXX";
	int fd = mkstemp(path);
	FILE *f = fdopen(fd, "w");
	struct bench_workload w;
	char err[512];

	ck_assert_ptr_nonnull(f);
	fprintf(f, "# comment\n\na 0x1000 136\na 0x2000 60\nf 0x9999\n"
		   "a 0x1000 8\nf 0x2000\na 0x3000 40\nf 0x1000\n");
	fclose(f);
	ck_assert_int_eq(bench_workload_read(&w, path, err, sizeof(err)), 0);
	unlink(path);
	ck_assert_uint_eq(w.dropped, 1);
	ck_assert_uint_eq(w.reused, 1);
	/* a0 a1, the reuse as f0 a0, f1, a1 (recycled number), f0 */
	ck_assert_uint_eq(w.nr, 7);
	ck_assert_uint_eq(w.nr_ids, 2);
	ck_assert_uint_eq(w.ev[2].op, BENCH_FREE);
	ck_assert_uint_eq(w.ev[3].size, 8);
	ck_assert_uint_eq(w.ev[5].id, 1);	/* 0x3000 takes the freed number */
	ck_assert_uint_eq(bench_workload_peak_live(&w), 196);
	bench_workload_release(&w);
	ck_assert_int_eq(bench_workload_read(&w, "/nonexistent/x.trace", err, sizeof(err)), -1);
}
END_TEST

/* A gzip-compressed trace is read through gzip -dc; written traces read back. */
START_TEST(trace_gzip_and_write)
{
	char path[] = "/tmp/genalloc-bench-XXXXXX";
	char gz[64], cmd[160];
	int fd = mkstemp(path);
	struct bench_workload w, r;
	char err[512];
	size_t i;

	close(fd);
	memset(&w, 0, sizeof(w));
	bench_workload_push(&w, BENCH_ALLOC, 0, 100);
	bench_workload_push(&w, BENCH_ALLOC, 1, 7);
	bench_workload_push(&w, BENCH_FREE, 0, 100);
	bench_workload_push(&w, BENCH_ALLOC, 0, 33);
	w.nr_ids = 2;
	ck_assert_int_eq(bench_workload_write(&w, path), 0);
	snprintf(gz, sizeof(gz), "%s.gz", path);
	snprintf(cmd, sizeof(cmd), "gzip -c '%s' > '%s'", path, gz);
	ck_assert_int_eq(system(cmd), 0);
	unlink(path);
	ck_assert_int_eq(bench_workload_read(&r, gz, err, sizeof(err)), 0);
	unlink(gz);
	ck_assert_uint_eq(r.nr, w.nr);
	for (i = 0; i < w.nr; i++) {
		ck_assert_uint_eq(r.ev[i].op, w.ev[i].op);
		ck_assert_uint_eq(r.ev[i].id, w.ev[i].id);
		ck_assert_uint_eq(r.ev[i].size, w.ev[i].size);
	}
	bench_workload_release(&r);
	/* A corrupt .gz is an error, not an empty workload. */
	fd = open(gz, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	ck_assert_int_eq((int)write(fd, "not gzip", 8), 8);
	close(fd);
	ck_assert_int_eq(bench_workload_read(&r, gz, err, sizeof(err)), -1);
	unlink(gz);
	bench_workload_release(&w);
}
END_TEST

/*
 * Each malformed line, after a good first line: refused, the message names
 * line 2 and why.
 */
static const struct {
	const char *line;
	const char *why;
} bad_lines[] = {
	{ "a 010 8\n", "leading zero" },		/* not octal 8, not ten */
	{ "a 1 010\n", "leading zero" },
	{ "a 1 100kB\n", "glued" },
	{ "a 1 1e6\n", "glued" },
	{ "f 1 junk\n", "trailing text" },
	{ "a1 64\n", "no blank after the event letter" },
	{ "a 1 64 f 1\n", "trailing text" },
	{ "a 1 0x\n", "0x without hex digits" },
	{ "a -1 8\n", "expected a number" },
	{ "f -1\n", "expected a number" },
	{ "a 1\n", "without a size" },
	{ "a 1 4294967296\n", "size above" },
	{ "a 18446744073709551616 8\n", "above 2^64" },
	{ "a 0x10000000000000000 8\n", "above 2^64" },
	{ "x 1\n", "expected \"a ID SIZE\"" },
	{ "alloc 1 8\n", "no blank after the event letter" },
	{ "f\n", "no blank after the event letter" },
	{ "f \n", "expected a number" },
	{ "a 1 8 # a comment after an event\n", "trailing text" },
};

START_TEST(refuses_each_malformed_line)
{
	char text[128], err[512], want[80];
	struct bench_workload w;

	snprintf(text, sizeof(text), "a 0 8\n%s", bad_lines[_i].line);
	ck_assert_int_eq(read_text(text, &w, err, sizeof(err)), -1);
	ck_assert_msg(strstr(err, bad_lines[_i].why), "'%s': got '%s'",
		      bad_lines[_i].line, err);
	snprintf(want, sizeof(want), ":2: ");
	ck_assert_msg(strstr(err, want), "no line number in '%s'", err);
	ck_assert_ptr_null(w.ev);
}
END_TEST

/* A NUL byte inside a line is not the end of it. */
START_TEST(refuses_nul_byte)
{
	char path[64], err[512];
	struct bench_workload w;
	FILE *f;

	write_trace(path, "");
	f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	ck_assert_uint_eq(fwrite("a 1 8\nf 1\0 junk\n", 1, 16, f), 16);
	fclose(f);
	ck_assert_int_eq(bench_workload_read(&w, path, err, sizeof(err)), -1);
	unlink(path);
	ck_assert_msg(strstr(err, ":2: a NUL byte"), "%s", err);
}
END_TEST

/* The line number counts blank lines and comments too. */
START_TEST(line_number_counts_every_line)
{
	char err[512];
	struct bench_workload w;

	ck_assert_int_eq(read_text("# head\n\na 1 8\n\t\n  f 1 2\n", &w, err, sizeof(err)), -1);
	ck_assert_msg(strstr(err, ":5: trailing text"), "%s", err);
}
END_TEST

/*
 * The ids the old map could not hold: 2^64 - 1 (its empty-slot marker plus
 * one) and 0, in decimal and hex.  Frees must find them: peak live is one
 * block's, not two.
 */
START_TEST(takes_full_64bit_ids)
{
	char err[512];
	struct bench_workload w;

	ck_assert_int_eq(read_text("a 18446744073709551615 100\nf 0xffffffffffffffff\n"
				   "a 0 100\nf 0\na 0xFFFFFFFFFFFFFFFF 100\n"
				   "f 18446744073709551615\n\t a\t7\t5 \r\n",
				   &w, err, sizeof(err)), 0);
	ck_assert_uint_eq(w.dropped, 0);
	ck_assert_uint_eq(w.reused, 0);
	ck_assert_uint_eq(w.nr, 7);
	ck_assert_uint_eq(bench_workload_peak_live(&w), 100);
	ck_assert_uint_eq(w.ev[6].size, 5);
	bench_workload_release(&w);
}
END_TEST

/*
 * Lines of any length: a long comment is a comment to its end (the old
 * reader read its tail as a new line), a long run of blanks is blanks.
 */
START_TEST(takes_lines_of_any_length)
{
	size_t n = 100000, k;
	char *text = malloc(n + 64), err[512];
	struct bench_workload w;

	ck_assert_ptr_nonnull(text);
	text[0] = '#';
	for (k = 1; k < 255; k++)
		text[k] = 'x';
	strcpy(text + 255, "a 7 999999\n");	/* still the comment */
	strcat(text, "a 1 ");
	k = strlen(text);
	memset(text + k, ' ', n - k);
	strcpy(text + n, "16\nf 1\n");
	ck_assert_int_eq(read_text(text, &w, err, sizeof(err)), 0);
	ck_assert_uint_eq(w.nr, 2);
	ck_assert_uint_eq(w.ev[0].size, 16);
	ck_assert_uint_eq(bench_workload_peak_live(&w), 16);
	bench_workload_release(&w);
	free(text);
}
END_TEST

START_TEST(names_from_paths)
{
	char name[64];

	bench_workload_name_from_path(name, sizeof(name), "/x/y/cc1.trace.gz");
	ck_assert_str_eq(name, "cc1");
	bench_workload_name_from_path(name, sizeof(name), "cc1");
	ck_assert_str_eq(name, "cc1");
	bench_workload_name_from_path(name, sizeof(name), "dir/.trace");
	ck_assert_str_eq(name, ".trace");
}
END_TEST

Suite *bench_trace_suite(void)
{
	Suite *s = suite_create("bench_trace");
	TCase *tc = tcase_create("reader");

	tcase_add_test(tc, trace_round_trip);
	tcase_add_test(tc, trace_gzip_and_write);
	tcase_add_loop_test(tc, refuses_each_malformed_line, 0,
			    (int)(sizeof(bad_lines) / sizeof(bad_lines[0])));
	tcase_add_test(tc, refuses_nul_byte);
	tcase_add_test(tc, line_number_counts_every_line);
	tcase_add_test(tc, takes_full_64bit_ids);
	tcase_add_test(tc, takes_lines_of_any_length);
	tcase_add_test(tc, names_from_paths);
	suite_add_tcase(s, tc);
	return s;
}
