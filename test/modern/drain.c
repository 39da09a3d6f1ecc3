// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * test/modern/drain.c - see drain.h.
 */
#include "drain.h"

#include <check.h>
#include <stdatomic.h>

void drain_and_destroy(struct gen_pool *pool)
{
	struct gen_pool_chunk *c;
	unsigned long i, j, bpl = 8 * sizeof(long);

	for (c = atomic_load(&pool->chunks); c; c = c->next_chunk)
		for (i = 0; i < c->nbits; i = j) {
			for (; i < c->nbits && !((c->bits[i / bpl] >> (i % bpl)) & 1); i++)
				;
			for (j = i; j < c->nbits && ((c->bits[j / bpl] >> (j % bpl)) & 1); j++)
				;
			if (j > i)
				gen_pool_free(pool, c->start_addr + (i << pool->min_alloc_order),
					      (j - i) << pool->min_alloc_order);
		}
	ck_assert_int_eq(gen_pool_check(pool), 0);
	gen_pool_destroy(pool);
}
