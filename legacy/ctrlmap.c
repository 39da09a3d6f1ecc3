// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * legacy/ctrlmap.c - the frame hash behind the control map (see internal.h).
 *
 * Frames are never removed before the pool is destroyed: a pool only grows,
 * as in 2005.  The table doubles when it holds more frames than buckets;
 * if that malloc() fails the chains just get longer, so adding a frame only
 * fails when the frame itself cannot be allocated.
 */
#include <stdlib.h>
#include <string.h>

#include "internal.h"

#define LEGACY_MAP_MIN_BUCKETS	16UL

/*
 * A frame for a large chunk is large too (a byte per 32 bytes), so malloc()
 * maps each on pages of its own, and every frame header would sit at the
 * same page offset: in one L1 set, which holds 8 lines.  With more frames in
 * use than that, each look-up evicted another frame's header.  Frame n starts
 * n mod 64 cache lines into its allocation instead, spreading the headers
 * over the 64 sets a 4 KiB page covers, wherever that costs at most 1/32 of
 * the frame.
 */
#define LEGACY_FRAME_COLOURS	64UL
#define LEGACY_CACHE_LINE	64UL

/** legacy_frame_bytes() - what one frame's bookkeeping costs */
unsigned long legacy_frame_bytes(const struct gen_pool *pool)
{
	return sizeof(struct legacy_frame) + legacy_atoms_per_frame(pool);
}

static unsigned long frame_colour(const struct gen_pool *pool)
{
	unsigned long c = pool->nr_frames % LEGACY_FRAME_COLOURS * LEGACY_CACHE_LINE;

	return c <= legacy_frame_bytes(pool) / 32 ? c : 0;
}

/** legacy_map_init() - allocate an empty frame table; 0 or -1 */
int legacy_map_init(struct gen_pool *pool)
{
	pool->frames = calloc(LEGACY_MAP_MIN_BUCKETS, sizeof(*pool->frames));
	if (!pool->frames)
		return -1;
	pool->nr_buckets = LEGACY_MAP_MIN_BUCKETS;
	pool->nr_frames = 0;
	pool->metadata_bytes += LEGACY_MAP_MIN_BUCKETS * sizeof(*pool->frames);
	return 0;
}

/** legacy_map_release() - free every frame and the table */
void legacy_map_release(struct gen_pool *pool)
{
	for (unsigned long b = 0; b < pool->nr_buckets; b++) {
		struct legacy_frame *f = pool->frames[b];

		while (f) {
			struct legacy_frame *next = f->next;

			free(f->mem);
			f = next;
		}
	}
	free(pool->frames);
	pool->frames = NULL;
	pool->nr_buckets = 0;
	pool->nr_frames = 0;
}

static void map_grow(struct gen_pool *pool)
{
	unsigned long n = pool->nr_buckets * 2;
	struct legacy_frame **t = calloc(n, sizeof(*t));

	if (!t)
		return;
	for (unsigned long b = 0; b < pool->nr_buckets; b++) {
		struct legacy_frame *f = pool->frames[b];

		while (f) {
			struct legacy_frame *next = f->next;
			unsigned long nb = legacy_bucket_of(legacy_frame_number(pool, f->base), n);

			f->next = t[nb];
			t[nb] = f;
			f = next;
		}
	}
	free(pool->frames);
	pool->metadata_bytes += (n - pool->nr_buckets) * sizeof(*t);
	pool->frames = t;
	pool->nr_buckets = n;
}

/**
 * legacy_frame_new() - allocate a frame, not yet in the map
 * @pool:          the pool (locked, or not yet shared: the colour reads it)
 * @from_callback: what the frame will hold
 *
 * All its atoms start out unknown.  Allocated apart from legacy_map_insert()
 * so that growth can secure a chunk's record before it asks for the chunk.
 * Return: the frame, or NULL if out of memory.
 */
struct legacy_frame *legacy_frame_new(const struct gen_pool *pool, int from_callback)
{
	unsigned long colour = frame_colour(pool);
	char *mem = calloc(1, colour + legacy_frame_bytes(pool));
	struct legacy_frame *f;

	if (!mem)
		return NULL;
	f = (void *)(mem + colour);
	f->mem = mem;
	f->from_callback = from_callback;
	return f;
}

/** legacy_frame_free() - free a frame that never went into the map */
void legacy_frame_free(struct legacy_frame *f)
{
	if (f)
		free(f->mem);
}

/**
 * legacy_map_insert() - make @f the (absent) frame holding @addr
 *
 * Cannot fail: if the table cannot double, its chains just get longer.
 */
void legacy_map_insert(struct gen_pool *pool, struct legacy_frame *f, unsigned long addr)
{
	unsigned long b;

	f->base = addr & ~(legacy_chunk_size(pool) - 1);
	if (pool->nr_frames >= pool->nr_buckets)
		map_grow(pool);
	b = legacy_bucket_of(legacy_frame_number(pool, f->base), pool->nr_buckets);
	f->next = pool->frames[b];
	pool->frames[b] = f;
	pool->nr_frames++;
	pool->metadata_bytes += (unsigned long)((char *)f - (char *)f->mem) +
				legacy_frame_bytes(pool);
}

/**
 * legacy_map_add() - create the (absent) frame holding @addr
 *
 * All its atoms start out unknown.  Return: the frame, or NULL if out of
 * memory (nothing changed).
 */
struct legacy_frame *legacy_map_add(struct gen_pool *pool, unsigned long addr,
				    int from_callback)
{
	struct legacy_frame *f = legacy_frame_new(pool, from_callback);

	if (f)
		legacy_map_insert(pool, f, addr);
	return f;
}

/** legacy_map_first() - start iterating over all frames; *@bucket is state */
struct legacy_frame *legacy_map_first(const struct gen_pool *pool, unsigned long *bucket)
{
	for (*bucket = 0; *bucket < pool->nr_buckets; (*bucket)++)
		if (pool->frames[*bucket])
			return pool->frames[*bucket];
	return NULL;
}

/** legacy_map_next() - the frame after @f, or NULL at the end */
struct legacy_frame *legacy_map_next(const struct gen_pool *pool, struct legacy_frame *f,
				     unsigned long *bucket)
{
	if (f->next)
		return f->next;
	while (++(*bucket) < pool->nr_buckets)
		if (pool->frames[*bucket])
			return pool->frames[*bucket];
	return NULL;
}
