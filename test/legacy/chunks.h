/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * test/legacy/chunks.h - a get_new_chunk callback for the legacy suites:
 * hands out consecutive chunks of one aligned test region, counting calls.
 */
#ifndef GENALLOC_TEST_LEGACY_CHUNKS_H
#define GENALLOC_TEST_LEGACY_CHUNKS_H

#include <stdatomic.h>

#include "legacy/genalloc.h"

/**
 * struct chunk_supply - where the callback takes chunks from
 * @base:  the first chunk
 * @shift: log2 of the chunk size
 * @limit: chunks available; the callback returns 0 after that
 * @next:  chunks handed out so far (also the number of successful calls)
 * @calls: callback invocations, including those that returned 0
 * @bad:   what supply_bad_chunk() returns (a misaligned, overlapping or
 *         wrapping "chunk" a test feeds the pool)
 */
struct chunk_supply {
	unsigned long base;
	int shift;
	int limit;
	atomic_int next;
	atomic_int calls;
	unsigned long bad;
};

/** chunk_supply_init() - @limit chunks of 2^@shift bytes, aligned to their size */
void chunk_supply_init(struct chunk_supply *cs, int shift, int limit);

/** chunk_at() - the address of chunk number @n */
unsigned long chunk_at(const struct chunk_supply *cs, int n);

/** supply_chunk() - the get_new_chunk callback; pool->private is the supply */
unsigned long supply_chunk(struct gen_pool *pool);

/** supply_bad_chunk() - a get_new_chunk callback that always returns the supply's @bad */
unsigned long supply_bad_chunk(struct gen_pool *pool);

/** supply_pool() - a pool fed by @cs (nr_chunks prefilled); fails the test on NULL */
struct gen_pool *supply_pool(struct chunk_supply *cs, int nr_chunks);

/** pool_live_bytes() - bytes allocated and not freed */
unsigned long pool_live_bytes(struct gen_pool *pool);

/** assert_consistent() - gen_pool_check() must pass */
#define assert_consistent(pool) ck_assert_int_eq(legacy_gen_pool_check(pool), 0)

#endif /* GENALLOC_TEST_LEGACY_CHUNKS_H */
