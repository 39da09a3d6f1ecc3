/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * bench/tlsf_lists.h - the size classes and list bitmaps both TLSF
 * yardsticks share (bench/tlsf.c out of band, bench/tlsf_inband.c in band),
 * so that the two differ only in where their blocks live.  Sizes are in
 * granules: first level floor(log2(size)), second level the next
 * TLSF_SL_SHIFT bits (16 lists per power of two); sizes below
 * TLSF_SL_COUNT one list each, at first level 0.  The heads of the lists
 * are each allocator's own, as their blocks are.
 */
#ifndef GENALLOC_BENCH_TLSF_LISTS_H
#define GENALLOC_BENCH_TLSF_LISTS_H

#include <stdbool.h>
#include <stdint.h>

#define TLSF_SL_SHIFT 4
#define TLSF_SL_COUNT (1U << TLSF_SL_SHIFT)
#define TLSF_FL_COUNT 64

/* Which lists are non-empty: a bit per first level, a word of bits each. */
struct tlsf_maps {
	uint64_t fl_map;
	uint32_t sl_map[TLSF_FL_COUNT];
};

static inline unsigned int tlsf_fls(unsigned long x)
{
	return (unsigned int)(63 - __builtin_clzl(x));
}

/* The list that holds blocks of @size granules. */
static inline void tlsf_map(unsigned long size, unsigned int *fl, unsigned int *sl)
{
	if (size < TLSF_SL_COUNT) {
		*fl = 0;
		*sl = (unsigned int)size;
		return;
	}
	*fl = tlsf_fls(size) - TLSF_SL_SHIFT + 1;
	*sl = (unsigned int)(size >> (*fl - 1)) & (TLSF_SL_COUNT - 1);
}

/* The first list all of whose blocks hold @size granules ("good fit"):
 * @size rounded up to the next list bound. */
static inline void tlsf_map_search(unsigned long size, unsigned int *fl, unsigned int *sl)
{
	if (size >= TLSF_SL_COUNT)
		size += (1UL << (tlsf_fls(size) - TLSF_SL_SHIFT)) - 1;
	tlsf_map(size, fl, sl);
}

/* The smallest size, in granules, list (@fl, @sl) holds. */
static inline unsigned long tlsf_list_floor(unsigned int fl, unsigned int sl)
{
	if (fl == 0)
		return sl;
	return ((unsigned long)TLSF_SL_COUNT + sl) << (fl - 1);
}

static inline void tlsf_maps_set(struct tlsf_maps *m, unsigned int fl, unsigned int sl)
{
	m->sl_map[fl] |= 1U << sl;
	m->fl_map |= 1ULL << fl;
}

/* List (@fl, @sl) became empty. */
static inline void tlsf_maps_clear(struct tlsf_maps *m, unsigned int fl, unsigned int sl)
{
	m->sl_map[fl] &= ~(1U << sl);
	if (!m->sl_map[fl])
		m->fl_map &= ~(1ULL << fl);
}

/* A non-empty list at or above (@fl, @sl) into them, or false: two
 * find-first-set instructions. */
static inline bool tlsf_maps_find(const struct tlsf_maps *m, unsigned int *fl, unsigned int *sl)
{
	uint32_t sls;

	if (*fl >= TLSF_FL_COUNT)
		return false;
	sls = m->sl_map[*fl] & (~0U << *sl);
	if (!sls) {
		uint64_t fls;

		if (*fl + 1 >= TLSF_FL_COUNT)
			return false;
		fls = m->fl_map & (~0ULL << (*fl + 1));
		if (!fls)
			return false;
		*fl = (unsigned int)__builtin_ctzll(fls);
		sls = m->sl_map[*fl];
	}
	*sl = (unsigned int)__builtin_ctz(sls);
	return true;
}

/* The top non-empty list into (@fl, @sl), or false when all are empty. */
static inline bool tlsf_maps_top(const struct tlsf_maps *m, unsigned int *fl, unsigned int *sl)
{
	if (!m->fl_map)
		return false;
	*fl = tlsf_fls(m->fl_map);
	*sl = tlsf_fls(m->sl_map[*fl]);
	return true;
}

#endif /* GENALLOC_BENCH_TLSF_LISTS_H */
