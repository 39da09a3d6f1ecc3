/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * modern/assert_internal.h - the engine's invariants as assertions (not
 * installed).
 *
 * Built with GENALLOC_ASSERTS (make check's build, VARIANT=debug and the
 * sanitizer variants), each MODERN_ASSERT() checks its condition and, when
 * it fails, reports BUG ECORRUPT through the error hook with the condition,
 * the file and the line; a release build compiles them out, condition and
 * all, so they cost nothing there.  The conditions are the contract between
 * the layers: what a claim, a release and an index update may assume and
 * must leave behind (modern/invariants.c).
 */
#ifndef GENALLOC_MODERN_ASSERT_INTERNAL_H
#define GENALLOC_MODERN_ASSERT_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>

#include "genalloc.h"

/* Report @msg (a literal: the hook may keep it) from @func for @pool. */
void modern_assert_failed(struct gen_pool *pool, const char *func, const char *msg,
			  unsigned long addr, size_t size);

#ifdef GENALLOC_ASSERTS
#define MODERN_ASSERTS_ON 1

#define MODERN_ASSERT_STR_(x) #x
#define MODERN_ASSERT_STR(x) MODERN_ASSERT_STR_(x)
#define MODERN_ASSERT(pool, cond, addr, size)                                          \
	((cond) ? (void)0                                                               \
		: modern_assert_failed((pool), __func__,                               \
				       "engine invariant broken at " __FILE__ ":"      \
				       MODERN_ASSERT_STR(__LINE__) ": " #cond,          \
				       (unsigned long)(addr), (size_t)(size)))
#else
#define MODERN_ASSERTS_ON 0
/* The condition is not evaluated, but its names count as used. */
#define MODERN_ASSERT(pool, cond, addr, size) \
	((void)(pool), (void)(0 && (cond)), (void)(addr), (void)(size))
#endif

struct gen_pool_chunk;

/*
 * The invariants the assertions check (modern/invariants.c); each is O(the
 * run) or, where it re-derives a structure, bounded to chunks of at most
 * MODERN_ASSERT_FULL_BITS granules so that a checked build stays usable on
 * large pools.
 */
#define MODERN_ASSERT_FULL_BITS (1UL << 12)

/* [@bit, @bit + @nr) lies inside @chunk and every granule of it is free. */
bool modern_inv_run_free(const struct gen_pool_chunk *chunk, unsigned long bit,
			 unsigned long nr);

/* [@bit, @bit + @nr) lies inside @chunk and every granule of it is in use. */
bool modern_inv_run_used(const struct gen_pool_chunk *chunk, unsigned long bit,
			 unsigned long nr);

/* The index's answer @bit (>= nbits: none) is what @algo, the row's
 * function, gives on the bare bitmap; for a row that is not @exact, it
 * fails only where @algo fails. */
bool modern_inv_same_answer(struct gen_pool *pool, const struct gen_pool_chunk *chunk,
			    genpool_algo_t algo, void *data, unsigned long nr, unsigned long bit,
			    bool exact);

/* @chunk's index matches its bitmap (gen_pool_check() also checks what is
 * built on it). */
bool modern_inv_index_matches(const struct gen_pool_chunk *chunk);

#endif /* GENALLOC_MODERN_ASSERT_INTERNAL_H */
