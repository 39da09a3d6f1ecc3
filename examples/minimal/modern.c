// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * examples/minimal/modern.c - today's kernel API: a pool over memory the
 * allocator never touches (here, a range of device offsets).
 */
#include <stdio.h>

#include "modern/genalloc.h"

int main(void)
{
	struct gen_pool *pool = gen_pool_create(4, NUMA_NO_NODE); /* 16-byte granules */
	unsigned long a, b;

	gen_pool_add(pool, 0x100000, 64 * 1024, NUMA_NO_NODE); /* 64 KiB of "SRAM" */
	a = gen_pool_alloc(pool, 100);			/* 0x100000, 112 bytes */
	b = gen_pool_alloc(pool, 16);			/* 0x100070 */
	printf("a=%#lx b=%#lx avail=%zu\n", a, b, gen_pool_avail(pool));
	gen_pool_free(pool, a, 100);
	gen_pool_free(pool, b, 16);
	gen_pool_destroy(pool);
	return a == 0x100000 && b == 0x100070 ? 0 : 1;
}
