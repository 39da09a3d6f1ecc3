// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * examples/minimal/compat.c - 2005 code, unchanged, on either engine:
 * GENALLOC_BACKEND=bitmap runs it on the kernel's bitmap engine.
 */
#include <stdio.h>
#include <stdlib.h>

#include "compat/genalloc.h"

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
	struct gen_pool *pool = alloc_gen_pool(1, 16, get_chunk, 0);
	unsigned long a = gen_pool_alloc(pool, 3000);	/* 4 KiB, 4 KiB-aligned */

	printf("%s backend: a=%#lx\n",
	       compat_gen_pool_backend(pool) == COMPAT_BACKEND_BITMAP ? "bitmap" : "buddy", a);
	gen_pool_free(pool, a, 3000);
	compat_gen_pool_for_each_region(pool, put_chunk, NULL);
	gen_pool_destroy(pool);
	return a && a % 4096 == 0 ? 0 : 1;
}
