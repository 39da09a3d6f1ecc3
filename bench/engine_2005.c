// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * bench/engine_2005.c - what the two 2005-API adapters (buddy and compat)
 * share: the pool shell around their chunk source and the 2005 rounding.
 *
 * The adapters themselves must stay separate files, because legacy/ and
 * compat/ both define struct gen_pool; everything here is type-neutral.
 */
#include <stdlib.h>

#include "engine.h"

struct bench_pool *bench_pool_2005_new(const struct bench_engine *e,
				       const struct bench_pool_config *cfg,
				       int *nr_chunks, int *shift)
{
	struct bench_pool *p = calloc(1, sizeof(*p));

	if (!p)
		return NULL;
	p->engine = e;
	p->cfg = *cfg;
	if (bench_chunks_init(&p->chunks, cfg->chunk_size, cfg->capacity, 0)) {
		free(p);
		return NULL;
	}
	/* Fixed capacity: the whole pool up front, through the 2005 prefill. */
	*nr_chunks = cfg->regime == BENCH_FIXED ? (int)(cfg->capacity / cfg->chunk_size) : 0;
	*shift = 0;
	while (((size_t)1 << *shift) < cfg->chunk_size)
		(*shift)++;
	return p;
}

void bench_pool_2005_release(struct bench_pool *p)
{
	bench_chunks_release(&p->chunks);
	free(p);
}

size_t bench_granted_2005(const struct bench_pool *p, size_t size)
{
	size_t g = 32;

	(void)p;
	while (g < size)
		g <<= 1;
	return g;
}
