/* SPDX-License-Identifier: GPL-2.0 */
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

#endif /* GENALLOC_BENCH_CHUNKS_H */
