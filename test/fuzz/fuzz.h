/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * test/fuzz/fuzz.h - what the three harnesses share: a reader that turns
 * the fuzzer's bytes into numbers (running dry yields zeros, so every input
 * is a valid program), an error hook that records reports and returns, and
 * a failure that crashes loudly enough for libFuzzer and for make check.
 *
 * Each harness defines LLVMFuzzerTestOneInput(); built with
 * -fsanitize=fuzzer it is driven by libFuzzer, built with replay_main.c it
 * replays committed inputs (see build.mk).
 */
#ifndef GENALLOC_TEST_FUZZ_H
#define GENALLOC_TEST_FUZZ_H

#include <stddef.h>
#include <stdint.h>

#include "common/error.h"

/** LLVMFuzzerTestOneInput() - run one input; 0 always (failures abort) */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/** struct fuzz_in - the unread part of an input */
struct fuzz_in {
	const uint8_t *p;
	size_t n;
};

/** fuzz_u8() - the next byte, 0 once the input is used up */
unsigned fuzz_u8(struct fuzz_in *in);

/** fuzz_u16() - the next two bytes, little-endian */
unsigned fuzz_u16(struct fuzz_in *in);

/** fuzz_below() - a value in [0, @n) from the next two bytes (0 if @n is 0) */
unsigned long fuzz_below(struct fuzz_in *in, unsigned long n);

/**
 * fuzz_fail() - report a broken promise and abort
 *
 * abort() rather than exit(): libFuzzer saves the input as a crash, and the
 * replay program dies with SIGABRT, which fails make check.
 */
_Noreturn void fuzz_fail(const char *file, int line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

#define FUZZ_CHECK(cond, ...)                                                \
	do {                                                                 \
		if (!(cond))                                                 \
			fuzz_fail(__FILE__, __LINE__, __VA_ARGS__);          \
	} while (0)

/** fuzz_capture_errors() - install the recording, returning handler; reset */
void fuzz_capture_errors(void);

/** fuzz_restore_errors() - put the default handler back */
void fuzz_restore_errors(void);

/**
 * fuzz_expect_report() - exactly one report since the last expectation,
 * with this severity and code; forgets it.  @what names the step.
 */
#define fuzz_expect_report(sev, code, what) \
	fuzz_expect_report_at(__FILE__, __LINE__, (sev), (code), (what))
void fuzz_expect_report_at(const char *file, int line, enum genalloc_severity sev,
			   enum genalloc_errcode code, const char *what);

/** fuzz_expect_quiet() - no report since the last expectation */
#define fuzz_expect_quiet(what) fuzz_expect_quiet_at(__FILE__, __LINE__, (what))
void fuzz_expect_quiet_at(const char *file, int line, const char *what);

#endif /* GENALLOC_TEST_FUZZ_H */
