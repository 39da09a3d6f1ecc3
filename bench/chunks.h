/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * bench/chunks.h - the memory source behind every pool in a comparison.
 *
 * Every engine gets its chunks from the same kind of source, as the 2005
 * mspec driver did through get_new_chunk: fixed-size, naturally aligned
 * chunks carved from one reservation, counted as they go.  What a pool had
 * to obtain is read here, not trusted to the engine.
 */
#ifndef GENALLOC_BENCH_CHUNKS_H
#define GENALLOC_BENCH_CHUNKS_H

#include <stddef.h>

/**
 * struct bench_chunks - a source of naturally aligned chunks
 * @chunk_size: bytes per chunk, a power of two
 * @limit:      how many bytes may be handed out in all
 * @obtained:   how many have been
 * @calls:      how many chunks were asked for (including refusals)
 *
 * The counters are atomic: get_new_chunk runs without the pool's lock, so
 * two threads may ask at once.
 * @base:       first chunk's address
 * @map:        the reservation (NULL for fake addresses)
 * @map_len:    its length
 */
struct bench_chunks {
	size_t chunk_size;
	size_t limit;
	_Atomic size_t obtained;
	_Atomic size_t calls;
	unsigned long base;
	void *map;
	size_t map_len;
};

/**
 * bench_chunks_init() - reserve address space for up to @limit bytes
 * @c:          the source
 * @chunk_size: a power of two
 * @limit:      a multiple of @chunk_size
 * @fake:       hand out addresses with no memory behind them (for engines
 *              that never touch the managed memory)
 *
 * Real memory is mapped with MAP_NORESERVE: only what the engine writes
 * (the buddy's free-list links) is ever backed.
 *
 * Return: 0, or -1 if the reservation failed.
 */
int bench_chunks_init(struct bench_chunks *c, size_t chunk_size, size_t limit,
		      int fake);

/** bench_chunks_get() - the next chunk's address, or 0 past the limit (thread-safe) */
unsigned long bench_chunks_get(struct bench_chunks *c);

/** bench_chunks_release() - unmap the reservation */
void bench_chunks_release(struct bench_chunks *c);

/**
 * struct bench_chunk_layout - a fixed pool cut into equal chunks
 * @nr:     how many chunks
 * @size:   bytes in each, a multiple of the granule
 * @stride: from one chunk's start to the next: @size rounded up to a page,
 *          plus a page of gap, so that no two chunks touch and the pool
 *          cannot pass for one range
 *
 * Chunk i starts at base + i * @stride; the pool holds @nr * @size bytes,
 * which may fall short of the capacity asked for by less than @nr granules.
 */
struct bench_chunk_layout {
	size_t nr;
	size_t size;
	size_t stride;
};

/* The page the layout rounds chunks to; also the reservation's alignment. */
#define BENCH_CHUNK_PAGE ((size_t)4096)

/**
 * bench_chunk_layout() - cut @capacity bytes into @nr equal chunks
 * @l:        the result
 * @capacity: the pool's bytes
 * @nr:       how many chunks (at least 1)
 * @granule:  the engine's granule, a power of two: each chunk is a whole
 *            number of them
 *
 * Return: 0, or -1 (and @l untouched) if @nr is 0, @granule is not a power
 * of two, a chunk would hold less than one granule, or @nr * @stride
 * overflows.
 */
int bench_chunk_layout(struct bench_chunk_layout *l, size_t capacity, size_t nr,
		       size_t granule);

#endif /* GENALLOC_BENCH_CHUNKS_H */
