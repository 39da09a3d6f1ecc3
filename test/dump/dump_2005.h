/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * test/dump/dump_2005.h - what the legacy and the compat dumpers share,
 * written once over the 2005 API's names: chunks from a callback (real
 * memory: the buddy keeps its free lists in it), a donation, and a churn.
 * Included by a file that has already included legacy/genalloc.h or
 * compat/genalloc.h.
 */
#ifndef GENALLOC_TEST_DUMP_2005_H
#define GENALLOC_TEST_DUMP_2005_H

#include <stdlib.h>

#define D2005_SHIFT 12
#define D2005_CHUNKS 4
#define D2005_LIVE 256

static void *d2005_mem[D2005_CHUNKS + 1];
static int d2005_nr;
static unsigned long d2005_addr[D2005_LIVE];
static int d2005_size[D2005_LIVE];
static int d2005_live;

/* Chunks at whatever address aligned_alloc() gives: their order is not
 * the order of the calls, as in a driver. */
static unsigned long d2005_get_chunk(struct gen_pool *pool)
{
	(void)pool;
	if (d2005_nr == D2005_CHUNKS)
		return 0;
	d2005_mem[d2005_nr] = aligned_alloc(1UL << D2005_SHIFT, 1UL << D2005_SHIFT);
	return (unsigned long)d2005_mem[d2005_nr++];
}

static void d2005_churn(struct gen_pool *pool, unsigned int seed)
{
	unsigned long *addr = d2005_addr;
	int *size = d2005_size, n = 0;

	srand(seed);
	/* Half a frame donated: a chunk that is not a whole frame. */
	d2005_mem[D2005_CHUNKS] = aligned_alloc(1UL << D2005_SHIFT, 1UL << D2005_SHIFT);
	gen_pool_free(pool, (unsigned long)d2005_mem[D2005_CHUNKS], 1 << (D2005_SHIFT - 1));
	for (int step = 0; step < 3000; step++) {
		if (n < D2005_LIVE && (rand() % 3 || !n)) {
			size[n] = 1 + rand() % 300;
			addr[n] = gen_pool_alloc(pool, size[n]);
			if (addr[n])
				n++;
		} else {
			int k = rand() % n;

			gen_pool_free(pool, addr[k], size[k]);
			addr[k] = addr[--n];
			size[k] = size[n];
		}
	}
	d2005_live = n;
}

/* Every live block freed, the pool destroyed, its memory given back. */
static void d2005_release(struct gen_pool *pool)
{
	while (d2005_live--)
		gen_pool_free(pool, d2005_addr[d2005_live], d2005_size[d2005_live]);
	gen_pool_destroy(pool);
	for (int i = 0; i <= D2005_CHUNKS; i++)
		free(d2005_mem[i]);
}

static int d2005_walk_line(struct gen_pool *pool, unsigned long chunk, unsigned long chunk_size,
			   unsigned long addr, unsigned long size, int used, void *data)
{
	(void)pool;
	(void)chunk_size;
	fprintf(data, "0x%lx %lu %lu %s\n", chunk, addr - chunk, size, used ? "true" : "false");
	return 0;
}

#endif /* GENALLOC_TEST_DUMP_2005_H */
