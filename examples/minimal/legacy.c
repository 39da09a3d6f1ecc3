// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * examples/minimal/legacy.c - the 2005 API: a buddy pool that grows through
 * a callback and keeps its free lists inside the memory it manages.
 */
#include <stdio.h>
#include <stdlib.h>

#include "legacy/genalloc.h"

/* Each chunk must be 2^max_chunk_shift bytes, aligned to its size. */
static unsigned long get_chunk(struct gen_pool *pool)
{
	return (unsigned long)aligned_alloc(1UL << pool->max_chunk_shift,
					    1UL << pool->max_chunk_shift);
}

static void put_chunk(struct gen_pool *pool, unsigned long addr,
		      unsigned long size, int from_callback, void *data)
{
	(void)pool; (void)size; (void)data;
	if (from_callback)
		free((void *)addr);
}

int main(void)
{
	struct gen_pool *pool = alloc_gen_pool(0, 16, get_chunk, 0); /* 64 KiB chunks */
	unsigned long a = gen_pool_alloc(pool, 100);	/* a 128-byte block */
	unsigned long b = gen_pool_alloc(pool, 100);	/* its buddy: a + 128 */

	printf("a=%#lx b=%#lx\n", a, b);
	gen_pool_free(pool, a, 100);
	gen_pool_free(pool, b, 100);			/* merges back to 64 KiB */
	legacy_gen_pool_for_each_region(pool, put_chunk, NULL);
	gen_pool_destroy(pool);
	return b == a + 128 && a % 65536 == 0 ? 0 : 1;
}
