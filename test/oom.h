/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * test/oom.h - make the library's allocations fail on demand.
 *
 * The test program is linked with -Wl,--wrap for malloc, calloc, realloc,
 * posix_memalign, aligned_alloc, strdup and mmap, so every call from the
 * library (linked statically) and from the tests passes through here.
 * Disarmed, each call goes straight to the real one; armed, a countdown
 * lets the next n calls through and fails every later one, as an
 * out-of-memory system would.  Check itself is a shared library and is
 * never affected; disarm before asserting all the same, since a failing
 * assertion may allocate.
 */
#ifndef GENALLOC_TEST_OOM_H
#define GENALLOC_TEST_OOM_H

/** oom_fail_after() - let @n more allocations through, then fail them all */
void oom_fail_after(long n);

/** oom_off() - let every allocation through again */
void oom_off(void);

/** oom_failed() - how many allocations failed since oom_fail_after() */
long oom_failed(void);

/**
 * OOM_RUN() - make the one library call @call with @n allocations allowed,
 * then let every allocation through again; @failed receives how many were
 * refused.  The only safe way to arm: nothing asserts in between.
 */
#define OOM_RUN(n, failed, call)                \
	do {                                    \
		oom_fail_after(n);              \
		call;                           \
		(failed) = oom_failed();        \
		oom_off();                      \
	} while (0)

#endif /* GENALLOC_TEST_OOM_H */
