/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * examples/offsets/vaheap.h - a heap of offsets: a range of numbers that
 * starts at 0 (a GPU's virtual addresses, offsets into a file or a BAR),
 * handed out by genalloc with no memory behind it.
 *
 * genalloc answers 0 for "no room", so the range cannot be added at 0.  The
 * heap adds it at a bias instead and subtracts the bias from every answer.
 * The bias is the largest alignment the heap will ask for (any non-zero
 * multiple of it would do): gen_pool_first_fit_align aligns the pool's
 * address, bias included, so only then is the offset aligned too.
 */
#ifndef EXAMPLES_OFFSETS_VAHEAP_H
#define EXAMPLES_OFFSETS_VAHEAP_H

#include <stdbool.h>
#include <stddef.h>

#include "modern/genalloc.h"

/**
 * struct va_heap - offsets [0, @size) in a pool at [@bias, @bias + @size)
 * @pool:      the pool
 * @bias:      what the pool's addresses exceed the offsets by
 * @size:      bytes of offsets
 * @max_align: the largest alignment va_alloc() accepts (a divisor of @bias)
 */
struct va_heap {
	struct gen_pool *pool;
	unsigned long bias;
	unsigned long size;
	unsigned long max_align;
};

/**
 * va_heap_init() - a heap of offsets [0, @size)
 * @h:           the heap to set up
 * @size:        bytes of offsets
 * @granule_order: log2 of the smallest block
 * @max_align:   the largest alignment va_alloc() will be asked for, a power
 *               of two no smaller than the granule; it is the bias
 *
 * Return: 0, or -1 when the pool cannot be had (its bookkeeping is not
 * memory the heap can do without) or the range does not fit above the bias.
 */
int va_heap_init(struct va_heap *h, unsigned long size, int granule_order,
		 unsigned long max_align);

/**
 * va_alloc() - @size bytes of offsets at a multiple of @align
 * @h:     the heap
 * @size:  bytes
 * @align: a power of two no larger than @h->max_align
 * @off:   receives the first offset
 *
 * Offset 0 is a real answer here, so success is the return value.
 *
 * Return: true with *@off set, or false when no aligned run of @size is
 * free (or @align is larger than the bias allows).
 */
bool va_alloc(struct va_heap *h, size_t size, unsigned long align, unsigned long *off);

/** va_free() - give back what va_alloc() gave at @off for @size */
void va_free(struct va_heap *h, unsigned long off, size_t size);

/** va_heap_destroy() - free the pool; every offset must have been freed */
void va_heap_destroy(struct va_heap *h);

#endif /* EXAMPLES_OFFSETS_VAHEAP_H */
