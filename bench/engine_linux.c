// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * bench/engine_linux.c - a pool as kernel code gets it: created through
 * <linux/genalloc.h>, whose gen_pool_create() makes it lock-free (the
 * kernel's contract: allocation and free from any context).  The only
 * function here is the creation; bench/engine_modern.c drives the pool
 * (its lx* engines), so that the kernel header's default and the native
 * header's indexed default are measured by the same code.
 */
#include "modern/linux/genalloc.h"

#include "engine.h"

struct gen_pool *bench_linux_gen_pool_create(int min_alloc_order)
{
	struct gen_pool *gp = gen_pool_create(min_alloc_order, NUMA_NO_NODE);

	/* The header's default is what is measured: refuse anything else. */
	if (gp && !gp->lockless) {
		gen_pool_destroy(gp);
		return NULL;
	}
	return gp;
}
