// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * test/dump/dump_modern.c - the dumper's modern pools, with and without
 * block records: three chunks added out of address order, one with a
 * tail, after random allocations and frees.
 */
#include <stdio.h>
#include <stdlib.h>

#include "dumper.h"
#include "modern/genalloc.h"

#define NLIVE 512

static int walk_line(struct gen_pool *pool, struct gen_pool_chunk *chunk, unsigned long addr,
		     size_t size, bool used, void *data)
{
	(void)pool;
	fprintf(data, "0x%lx %lu %zu %s\n", chunk->start_addr, addr - chunk->start_addr, size,
		used ? "true" : "false");
	return 0;
}

/* Four chunks, added out of address order, one with a tail, one smaller
 * than a granule (listed, with no runs). */
static struct gen_pool *build(bool records)
{
	struct gen_pool *pool = gen_pool_create(4, -1);

	if (!pool || (records && gen_pool_use_block_records(pool)) ||
	    gen_pool_add(pool, 0x300000, 8192, -1) || gen_pool_add(pool, 0x100000, 4096 + 8, -1) ||
	    gen_pool_add(pool, 0x200000, 16384, -1) || gen_pool_add(pool, 0x400000, 8, -1))
		return NULL;
	return pool;
}

static unsigned long addr[NLIVE];
static size_t size[NLIVE];

/* Random allocations and frees; returns how many blocks stay live. */
static int churn(struct gen_pool *pool, unsigned int seed)
{
	int n = 0;

	srand(seed);
	for (int step = 0; step < 4000; step++) {
		if (n < NLIVE && (rand() % 3 || !n)) {
			size[n] = 1 + (size_t)rand() % 400;
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
	return n;
}

int dumper_modern(bool records, unsigned int seed, FILE *json, FILE *walk)
{
	struct gen_pool *pool = build(records);
	int n, rc;

	if (!pool)
		return 1;
	n = churn(pool, seed);
	struct gen_pool_stats st;

	rc = gen_pool_dump(pool, json, GENALLOC_DUMP_JSON) ||
	     gen_pool_for_each_run(pool, GEN_POOL_RUNS_ALL, walk_line, walk);
	gen_pool_stats(pool, &st);
	fprintf(walk, "stats %zu %zu\n", gen_pool_size(pool), st.largest_free);
	while (n--)
		gen_pool_free(pool, addr[n], size[n]);
	gen_pool_destroy(pool);
	return rc;
}
