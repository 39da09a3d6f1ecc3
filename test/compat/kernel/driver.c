// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * test/compat/kernel/driver.c - a small kernel-style user of genalloc that
 * includes nothing of this library but <linux/genalloc.h>.  It is built
 * twice (test/compat/build.mk): with -Icompat it is 2005 code
 * (gen_pool_create(nr_chunks, shift, get_new_chunk, data), the pool grows
 * itself), with -Imodern it is the same driver after the 2006 port
 * (gen_pool_create(order, nid) + gen_pool_add()).  Only the set-up differs,
 * keyed on ALLOC_MIN_SHIFT, which only the 2005 header defines; allocation
 * and free are the same source lines for both.
 *
 * Run with --check: exit status 0 if every block was naturally aligned,
 * inside the pool's memory, disjoint from the others, and all came back.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/genalloc.h>

#define DRV_CHUNK_SHIFT	16
#define DRV_CHUNK	(1UL << DRV_CHUNK_SHIFT)
#define DRV_CHUNKS	2
#define DRV_BLOCKS	64

static unsigned long drv_mem[DRV_CHUNKS];
static int drv_given;

static int drv_get_memory(void)
{
	for (int i = 0; i < DRV_CHUNKS; i++) {
		drv_mem[i] = (unsigned long)aligned_alloc(DRV_CHUNK, DRV_CHUNK);
		if (!drv_mem[i])
			return -1;
	}
	return 0;
}

static int drv_owns(unsigned long addr, unsigned long size)
{
	for (int i = 0; i < DRV_CHUNKS; i++)
		if (addr >= drv_mem[i] && addr + size <= drv_mem[i] + DRV_CHUNK)
			return 1;
	return 0;
}

#ifdef ALLOC_MIN_SHIFT
/* 2005: the pool asks for memory when it runs out. */
static unsigned long drv_get_new_chunk(struct gen_pool *pool)
{
	(void)pool;
	return drv_given < DRV_CHUNKS ? drv_mem[drv_given++] : 0;
}

static struct gen_pool *drv_create_pool(void)
{
	return gen_pool_create(1, DRV_CHUNK_SHIFT, drv_get_new_chunk, 0);
}

static const char *drv_api = "2005 (compat)";
#else
/* 2006: the driver adds its memory up front, blocks aligned to their order. */
static struct gen_pool *drv_create_pool(void)
{
	struct gen_pool *pool = gen_pool_create(5, -1);

	if (!pool)
		return NULL;
	gen_pool_set_algo(pool, gen_pool_first_fit_order_align, NULL);
	for (drv_given = 0; drv_given < DRV_CHUNKS; drv_given++)
		if (gen_pool_add(pool, drv_mem[drv_given], DRV_CHUNK, -1))
			return NULL;
	return pool;
}

static const char *drv_api = "2006 (modern)";
#endif

static unsigned long drv_round(unsigned long size)
{
	unsigned long s = 32;

	while (s < size)
		s <<= 1;
	return s;
}

int main(int argc, char **argv)
{
	unsigned long addr[DRV_BLOCKS], size[DRV_BLOCKS];
	struct gen_pool *pool;
	int bad = 0, n;

	(void)argv;
	if (drv_get_memory() || !(pool = drv_create_pool())) {
		fprintf(stderr, "driver: no pool\n");
		return 1;
	}
	for (n = 0; n < DRV_BLOCKS; n++) {
		size[n] = 32UL << (n % 9);
		addr[n] = gen_pool_alloc(pool, size[n]);
		if (!addr[n])
			break;
		bad |= (addr[n] & (drv_round(size[n]) - 1)) != 0;
		bad |= !drv_owns(addr[n], size[n]);
		for (int k = 0; k < n; k++)
			bad |= addr[k] < addr[n] + size[n] && addr[n] < addr[k] + size[k];
	}
	bad |= n < DRV_BLOCKS / 2;
	while (n--)
		gen_pool_free(pool, addr[n], size[n]);
	gen_pool_destroy(pool);
	for (int i = 0; i < DRV_CHUNKS; i++)
		free((void *)drv_mem[i]);
	printf("kernel-style driver, %s API: %d blocks, %s\n", drv_api, DRV_BLOCKS,
	       bad ? "FAILED" : "ok");
	return argc > 1 && bad ? 1 : 0;
}
