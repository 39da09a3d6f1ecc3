/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * test/legacy/snapshot.h - what a refused call must leave alone, for the
 * legacy suites that check the "pool unchanged" rule: the statistics, every
 * free-list head and the callback count, compared bit for bit.
 */
#ifndef GENALLOC_TEST_LEGACY_SNAPSHOT_H
#define GENALLOC_TEST_LEGACY_SNAPSHOT_H

#include <string.h>

#include "chunks.h"

/** struct pool_snapshot - a legacy pool's visible state */
struct pool_snapshot {
	struct legacy_gen_pool_stats st;
	struct gen_pool_link *heads[32];
	int calls;
};

/** pool_snapshot() - read @pool's state (and @cs's callback count) into @s */
void pool_snapshot(struct pool_snapshot *s, struct gen_pool *pool, struct chunk_supply *cs);

/*
 * assert_pool_unchanged() - @pool still matches the snapshot @before, and
 * its checker passes.  A macro, so that a failure names the test's line.
 */
#define assert_pool_unchanged(pool, cs, before)                              \
	do {                                                                 \
		struct pool_snapshot now_;                                   \
		pool_snapshot(&now_, (pool), (cs));                          \
		ck_assert_msg(!memcmp(&(before), &now_, sizeof(now_)),       \
			      "pool changed by a refused call");             \
		assert_consistent(pool);                                     \
	} while (0)

#endif /* GENALLOC_TEST_LEGACY_SNAPSHOT_H */
