/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * common/internal.h - helpers the engines share, not part of the API.
 *
 * The 2005 creation contract is kept by two engines (legacy/ itself and
 * compat/ on the bitmap backend); its rules live here once so that the two
 * can never drift apart.
 */
#ifndef GENALLOC_COMMON_INTERNAL_H
#define GENALLOC_COMMON_INTERNAL_H

/* log2 of the 2005 smallest block, 32 bytes (ALLOC_MIN_SHIFT in both APIs) */
#define GENALLOC_2005_MIN_SHIFT 5

/* 2005: "really an arbitrary limit, +10 is enough for IA64_GRANULE_SHIFT" */
#define GENALLOC_2005_MAX_SHIFT_OVER_PAGE 10

/**
 * genalloc_page_shift() - the kernel's PAGE_SHIFT, from the running system
 *
 * Return: log2 of sysconf(_SC_PAGESIZE) rounded up (12 when unknown).
 */
int genalloc_page_shift(void);

/**
 * genalloc_2005_bad_create_args() - check alloc_gen_pool()'s arguments
 * @nr_chunks:       chunks to prefill; negative is refused
 * @max_chunk_shift: 0 (page shift) or ALLOC_MIN_SHIFT..page shift + 10
 * @has_callback:    whether get_new_chunk is set (needed when @nr_chunks > 0)
 *
 * Return: NULL when the arguments are acceptable, else the message to
 * report (a static string).
 */
const char *genalloc_2005_bad_create_args(int nr_chunks, int max_chunk_shift,
					  int has_callback);

/*
 * What a call refused for re-entry says (GENALLOC_EREENTRY): the cause, and
 * the fix for an engine that has no lock-free mode.
 */
#define GENALLOC_REENTRY_MSG_2005                                              \
	"this thread is already inside a locked call on the pool (a signal "   \
	"handler interrupted it, or a callback re-entered it): block the "     \
	"signal around the pool's calls, or use <linux/genalloc.h>'s "         \
	"lock-free pools"

#endif /* GENALLOC_COMMON_INTERNAL_H */
