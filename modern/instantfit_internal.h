/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * modern/instantfit_internal.h - gen_pool_instant_fit() through the index
 * (modern/instantfit.c) (not installed).
 */
#ifndef GENALLOC_MODERN_INSTANTFIT_INTERNAL_H
#define GENALLOC_MODERN_INSTANTFIT_INTERNAL_H

#include "index_internal.h"

/** modern_instant_want() - @nr rounded up to a power of two */
static inline unsigned long modern_instant_want(unsigned long nr)
{
	return nr <= 1 ? 1 : 1UL << (8 * sizeof(long) - (unsigned int)__builtin_clzl(nr - 1));
}

/**
 * modern_instant_fit() - instant fit's answer in one chunk: the start of a
 * free run of at least modern_instant_want(@nr) bits, or best fit's
 * @run_end: receives the run's end, or MODERN_INDEX_NONE when unknown
 *
 * Return: the first bit, or MODERN_INDEX_NONE.
 */
unsigned long modern_instant_fit(struct modern_index *ix, const unsigned long *map,
				 unsigned long nr, unsigned long *run_end);

#endif /* GENALLOC_MODERN_INSTANTFIT_INTERNAL_H */
