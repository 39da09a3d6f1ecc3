/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * modern/maxtree_internal.h - the arithmetic of the engine's 8-ary max trees (not
 * installed): the run index's tree over its blocks (index_state_internal.h), the order
 * hints' tree over theirs (orderhint.c) and the chunk directory's trees
 * over its chunks (chunkdir.c).
 *
 * A max tree keeps, above an array of values, levels of nodes each holding
 * the maximum of its eight children, up to one root.  Every level is
 * padded with zeros to whole nodes, so that a node's eight children are
 * always there to read at once; a zero never wins a maximum nor passes a
 * "value >= nr" test (nr > 0).  Finding the leftmost value >= nr is then
 * one test of eight children a level, down from a node known to hold it.
 *
 * Here: the fan-out, the level sizes, and the "which of these eight
 * children hold nr" masks for 16- and 32-bit nodes, the steps every walk
 * of both trees is made of.  The walks themselves stay with their trees:
 * the index's leaves saturate and its dirty block is read beside the tree,
 * which the hints' plain 16-bit levels need neither of.
 *
 * Cost: a tree over n values takes 1/7 of n nodes more (each level padded
 * to a multiple of 8); a mask is one SSE2 compare of eight nodes.
 */
#ifndef GENALLOC_MODERN_MAXTREE_H
#define GENALLOC_MODERN_MAXTREE_H

#include <stdbool.h>
#include <stdint.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "compiler_internal.h"

#define MODERN_MT_FAN_SHIFT 3
#define MODERN_MT_FAN (1UL << MODERN_MT_FAN_SHIFT)
/* The eight bits of a node's children in a mask. */
#define MODERN_MT_ALL ((1U << MODERN_MT_FAN) - 1)

/** modern_mt_padded() - entries of a level of @count, padded to whole nodes */
static inline unsigned long modern_mt_padded(unsigned long count)
{
	return (count + MODERN_MT_FAN - 1) / MODERN_MT_FAN * MODERN_MT_FAN;
}

/**
 * modern_mt_levels() - the level sizes of a tree over @count[0] values
 * @count: @count[0] given; receives the size of every level above, up to
 *         a level of one node
 * @min:   levels to make at the least, the values' level included
 *
 * Return: the number of levels, the values' included.
 */
static inline unsigned int modern_mt_levels(uint32_t *count, unsigned int min)
{
	unsigned int levels = 1;

	while (count[levels - 1] > 1 || levels < min) {
		count[levels] = (uint32_t)((count[levels - 1] + MODERN_MT_FAN - 1) / MODERN_MT_FAN);
		levels++;
	}
	return levels;
}

/**
 * modern_mt_ge_mask32() - bit k set when 32-bit node @c[k] is >= @nr (> 0)
 * @wide: nodes may reach 2^31.  SSE2 compares signed 32-bit lanes, so only
 *        then do both sides need an offset of 2^31 (one more dependent step
 *        a level of a descent); always inlined, @wide a constant.
 */
static MODERN_ALWAYS_INLINE unsigned int modern_mt_ge_mask32(const uint32_t *c, unsigned long nr,
							     bool wide)
{
	unsigned int mask = 0;

	if (nr > UINT32_MAX)
		return 0;
#if defined(__SSE2__)
	{
		/* A zero offset folds away: no branch on @wide to cover. */
		const __m128i bias = _mm_set1_epi32((int)((uint32_t)wide << 31));
		const __m128i lim = _mm_xor_si128(_mm_set1_epi32((int)(uint32_t)(nr - 1)), bias);
		const __m128i *v = (const __m128i *)(const void *)c;
		__m128i lo = _mm_xor_si128(_mm_loadu_si128(v), bias);
		__m128i hi = _mm_xor_si128(_mm_loadu_si128(v + 1), bias), m;

		/* Eight lane masks narrowed to eight bytes: one movemask. */
		m = _mm_packs_epi32(_mm_cmpgt_epi32(lo, lim), _mm_cmpgt_epi32(hi, lim));
		mask = (unsigned int)_mm_movemask_epi8(_mm_packs_epi16(m, m)) & MODERN_MT_ALL;
	}
#else
	(void)wide;
	for (unsigned int k = 0; k < MODERN_MT_FAN; k++)
		mask |= (unsigned int)(c[k] >= nr) << k;
#endif
	return mask;
}

/** modern_mt_ge_mask16() - bit k set when 16-bit node @c[k] is >= @lim (> 0) */
static MODERN_ALWAYS_INLINE unsigned int modern_mt_ge_mask16(const uint16_t *c, uint16_t lim)
{
	unsigned int mask = 0;

#if defined(__SSE2__)
	/* An unsigned lim - node that saturates at zero where the node
	 * reaches lim; one vector holds the eight. */
	__m128i v = _mm_loadu_si128((const __m128i *)(const void *)c);
	__m128i ge = _mm_cmpeq_epi16(_mm_subs_epu16(_mm_set1_epi16((short)lim), v),
				     _mm_setzero_si128());

	mask = (unsigned int)_mm_movemask_epi8(_mm_packs_epi16(ge, ge)) & MODERN_MT_ALL;
#else
	for (unsigned int k = 0; k < MODERN_MT_FAN; k++)
		mask |= (unsigned int)(c[k] >= lim) << k;
#endif
	return mask;
}

#endif /* GENALLOC_MODERN_MAXTREE_H */
