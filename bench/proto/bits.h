/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * bench/proto/bits.h - the bitmap every prototype keeps beside its search
 * structure.  The engine's bitmap stays the kernel's truth (the lock-free
 * path, walks and the checker read it), so a candidate that answers from
 * a tree of free runs must still set a claim's bits and clear a release's:
 * the prototypes pay for that here, one word at a time, as the engine
 * does, and use it to tell whether a release touches a free neighbour.
 */
#ifndef GENALLOC_BENCH_PROTO_BITS_H
#define GENALLOC_BENCH_PROTO_BITS_H

#include <stdint.h>

/* Bits [@lo, @hi) of a word: @lo < 64, @lo < @hi <= 64. */
static inline uint64_t proto_mask(unsigned int lo, unsigned int hi)
{
	uint64_t m = hi == 64 ? ~(uint64_t)0 : ((uint64_t)1 << hi) - 1;

	return m & ~(((uint64_t)1 << lo) - 1);
}

/* Set (@set) or clear granules [@start, @start + @nr) of @map, @nr > 0. */
static inline void proto_bits_assign(uint64_t *map, uint64_t start, uint64_t nr, int set)
{
	uint64_t end = start + nr, w = start >> 6, last = (end - 1) >> 6;
	unsigned int lo = start & 63, hi = ((end - 1) & 63) + 1;

	if (w == last) {
		uint64_t m = proto_mask(lo, hi);

		map[w] = set ? map[w] | m : map[w] & ~m;
		return;
	}
	map[w] = set ? map[w] | proto_mask(lo, 64) : map[w] & ~proto_mask(lo, 64);
	/* A plain loop, not memset(): valgrind counts glibc's "rep stosb" a
	 * byte at a time, and the instruction counts must mean the same for
	 * every candidate. */
	for (w++; w < last; w++)
		map[w] = set ? ~(uint64_t)0 : 0;
	map[last] = set ? map[last] | proto_mask(0, hi) : map[last] & ~proto_mask(0, hi);
}

/* Whether granule @bit of @map is in use. */
static inline int proto_bit(const uint64_t *map, uint64_t bit)
{
	return (int)((map[bit >> 6] >> (bit & 63)) & 1);
}

#endif /* GENALLOC_BENCH_PROTO_BITS_H */
