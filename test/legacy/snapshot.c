// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * test/legacy/snapshot.c - see snapshot.h.
 */
#include "snapshot.h"

void pool_snapshot(struct pool_snapshot *s, struct gen_pool *pool, struct chunk_supply *cs)
{
	memset(s, 0, sizeof(*s));	/* the padding too: compared by memcmp */
	legacy_gen_pool_stats(pool, &s->st);
	for (int i = 0; i < pool->nr_orders; i++)
		s->heads[i] = pool->h[i].next;
	s->calls = atomic_load(&cs->calls);
}
