// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * test/compat/legacy_twin.c - see legacy_twin.h.
 */
#include <stdlib.h>

#include "../support.h"
#include "legacy/genalloc.h"
#include "legacy_twin.h"

struct twin_feed {
	const unsigned long *chunks;
	int cap, given;
};

static unsigned long twin_get_new_chunk(struct gen_pool *pool)
{
	struct twin_feed *feed = (struct twin_feed *)pool->private;

	return feed->given < feed->cap ? feed->chunks[feed->given++] : 0;
}

void *twin_create(int shift, const unsigned long *chunks, int cap)
{
	struct twin_feed *feed = test_region(64, sizeof(*feed));

	feed->chunks = chunks;
	feed->cap = cap;
	feed->given = 0;
	return legacy_alloc_gen_pool(0, shift, twin_get_new_chunk, (unsigned long)feed);
}

unsigned long twin_alloc(void *twin, int size)
{
	return legacy_gen_pool_alloc(twin, size);
}

void twin_free(void *twin, unsigned long addr, int size)
{
	legacy_gen_pool_free(twin, addr, size);
}

void twin_destroy(void *twin)
{
	legacy_gen_pool_destroy(twin);
}

unsigned long twin_metadata_bytes(void *twin)
{
	struct legacy_gen_pool_stats st;

	legacy_gen_pool_stats(twin, &st);
	return st.metadata_bytes;
}
