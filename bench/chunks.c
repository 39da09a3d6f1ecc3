// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * bench/chunks.c - naturally aligned chunks from one reservation.
 */
#include "chunks.h"

#include <stdatomic.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>

/*
 * Fake chunks start high and chunk-aligned so that no address is 0 and no
 * engine can confuse them with its own metadata.
 */
#define BENCH_FAKE_BASE (1UL << 40)

int bench_chunks_init(struct bench_chunks *c, size_t chunk_size, size_t limit,
		      int fake)
{
	memset(c, 0, sizeof(*c));
	atomic_init(&c->obtained, 0);
	atomic_init(&c->calls, 0);
	c->chunk_size = chunk_size;
	c->limit = limit;
	if (fake) {
		c->base = BENCH_FAKE_BASE;
		return 0;
	}
	/* One extra chunk so the first can be aligned to the chunk size. */
	c->map_len = limit + chunk_size;
	c->map = mmap(NULL, c->map_len, PROT_READ | PROT_WRITE,
		      MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (c->map == MAP_FAILED) {
		c->map = NULL;
		return -1;
	}
	c->base = ((uintptr_t)c->map + chunk_size - 1) & ~(uintptr_t)(chunk_size - 1);
	return 0;
}

unsigned long bench_chunks_get(struct bench_chunks *c)
{
	size_t got = atomic_load(&c->obtained);

	atomic_fetch_add(&c->calls, 1);
	do {
		if (got + c->chunk_size > c->limit)
			return 0;
	} while (!atomic_compare_exchange_weak(&c->obtained, &got, got + c->chunk_size));
	return c->base + got;
}

void bench_chunks_release(struct bench_chunks *c)
{
	if (c->map)
		munmap(c->map, c->map_len);
	c->map = NULL;
}

int bench_chunk_layout(struct bench_chunk_layout *l, size_t capacity, size_t nr,
		       size_t granule)
{
	size_t size, stride;

	if (!nr || !granule || (granule & (granule - 1)))
		return -1;
	size = capacity / nr & ~(granule - 1);
	/* Rounding up to a page and adding the gap must not wrap. */
	if (!size || size > SIZE_MAX - 2 * BENCH_CHUNK_PAGE)
		return -1;
	stride = ((size + BENCH_CHUNK_PAGE - 1) & ~(BENCH_CHUNK_PAGE - 1)) + BENCH_CHUNK_PAGE;
	if (stride > SIZE_MAX / nr)
		return -1;
	l->nr = nr;
	l->size = size;
	l->stride = stride;
	return 0;
}
