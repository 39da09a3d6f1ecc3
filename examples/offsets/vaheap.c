// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * examples/offsets/vaheap.c - a heap of offsets over a genalloc pool (the
 * bias rule is in vaheap.h).  Each call is one genalloc call and one
 * addition or subtraction; the pool's bookkeeping is all the heap has.
 */
#include <limits.h>

#include "vaheap.h"

int va_heap_init(struct va_heap *h, unsigned long size, int granule_order,
		 unsigned long max_align)
{
	h->pool = NULL;
	if (!max_align || (max_align & (max_align - 1)) || max_align > INT_MAX ||
	    max_align < 1UL << granule_order || size > ULONG_MAX - max_align)
		return -1;
	h->pool = gen_pool_create(granule_order, NUMA_NO_NODE);
	if (!h->pool)
		return -1;
	h->bias = max_align;
	h->size = size;
	h->max_align = max_align;
	if (gen_pool_add(h->pool, h->bias, size, NUMA_NO_NODE)) {
		gen_pool_destroy(h->pool);
		h->pool = NULL;
		return -1;
	}
	return 0;
}

bool va_alloc(struct va_heap *h, size_t size, unsigned long align, unsigned long *off)
{
	struct genpool_data_align data = { .align = (int)align };
	unsigned long addr;

	if (align > h->max_align)
		return false;
	addr = gen_pool_alloc_algo(h->pool, size, gen_pool_first_fit_align, &data);
	if (!addr)
		return false;
	*off = addr - h->bias;
	return true;
}

void va_free(struct va_heap *h, unsigned long off, size_t size)
{
	gen_pool_free(h->pool, off + h->bias, size);
}

void va_heap_destroy(struct va_heap *h)
{
	gen_pool_destroy(h->pool);
	h->pool = NULL;
}
