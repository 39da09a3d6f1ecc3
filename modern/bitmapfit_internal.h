/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * modern/bitmapfit_internal.h - what the kernel's algorithms on a bare
 * bitmap (bitmapfit.c) share with the indexed searches (not installed).
 */
#ifndef GENALLOC_MODERN_BITMAPFIT_INTERNAL_H
#define GENALLOC_MODERN_BITMAPFIT_INTERNAL_H

#include <stdbool.h>

#include "genalloc.h"

/**
 * modern_bitmapfit_align_ok() - is @data a struct genpool_data_align with an
 * alignment that is a power of two > 0?
 * modern_bitmapfit_fixed_ok() - is @data a struct genpool_data_fixed whose
 * offset is a whole number of @pool's granules?
 *
 * The algorithms check their data themselves, but they run once per chunk;
 * the pool checks first (the table's DATA_OK) so that one bad request gives
 * one WARN and no chunk is searched.
 *
 * Return: true, or false after a WARN EINVAL naming the algorithm.
 */
bool modern_bitmapfit_align_ok(const void *data, const struct gen_pool *pool);
bool modern_bitmapfit_fixed_ok(const void *data, const struct gen_pool *pool);

/**
 * modern_bitmapfit_grid() - the granule grid of an alignment
 * @align:      the alignment in bytes, a power of two
 * @order:      the pool's min_alloc_order
 * @start_addr: the chunk's first address
 * @mask:       receives the grid's mask, in granules
 * @off:        receives the chunk's offset on the grid
 *
 * A granule p of the chunk is aligned when (p + *@off) & *@mask == 0.
 */
void modern_bitmapfit_grid(unsigned long align, int order, unsigned long start_addr,
			   unsigned long *mask, unsigned long *off);

#endif /* GENALLOC_MODERN_BITMAPFIT_INTERNAL_H */
