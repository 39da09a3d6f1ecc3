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

/* The 2005 frame table's first size (legacy/frames.c). */
#define OOM_FRAME_SLOTS 16UL

/**
 * oom_frame_growth() - what a 2005 pool's frame table does at the insert of
 * frame number @count when every growth it tries is refused
 * (legacy/frames.c): it wants to double when it would be more than half
 * full, and keeps its size instead while a slot stays empty after the
 * insert
 * @slots: the table's slots; doubled here when the insert must have them
 * @count: frames already in the table
 *
 * Return: 0: no growth is tried; 1: one is, and refused, the insert goes
 * on in the old table; 2: one is and must succeed, or the insert fails.
 */
static inline int oom_frame_growth(unsigned long *slots, unsigned long count)
{
	if ((count + 1) * 2 <= *slots)
		return 0;
	if (count + 1 < *slots)
		return 1;
	*slots *= 2;
	return 2;
}

#endif /* GENALLOC_TEST_OOM_H */
