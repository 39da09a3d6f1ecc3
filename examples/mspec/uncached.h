/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * examples/mspec/uncached.h - the ia64 uncached page allocator, twice:
 *
 *   uncached_2005  arch/ia64/kernel/uncached.c as merged in 2.6.13, on the
 *                  2005 genalloc API (compat/): one pool per node created
 *                  with gen_pool_create(0, GRANULE_SHIFT, get_new_chunk, nid),
 *                  grown a granule at a time by the callback, seeded page by
 *                  page from the EFI map with gen_pool_free().  Runs on
 *                  whichever backend GENALLOC_BACKEND names.
 *   uncached_2006  the same allocator as the kernel rewrote it for the
 *                  bitmap genalloc in 2006 (modern/): gen_pool_create(
 *                  PAGE_SHIFT, nid), whole granules and EFI ranges added with
 *                  gen_pool_add(), growth done by the caller on failure.
 *
 * Both share the machine in sim.h and the same global cap on granules
 * (MAX_UNCACHED_GRANULES), and count what they do in struct uncached_stats.
 * The two files are separate translation units: the 2005 and modern
 * headers both define struct gen_pool.
 */
#ifndef MSPEC_UNCACHED_H
#define MSPEC_UNCACHED_H

#include "sim.h"

/* The global cap on granules converted to uncached (as the original's). */
#define MAX_UNCACHED_GRANULES	8

/**
 * struct uncached_stats - what the allocator did
 * @pages_served:   pages handed out, per node whose pool served them
 * @granules_taken: granules obtained from the machine, per node
 * @fallbacks:      pages served by a node other than the one asked for
 * @donated_served: pages served from firmware (EFI) uncached ranges
 * @outstanding:    pages handed out and not yet freed
 * @pool_free_ok:   at exit: every pool's free space equals its memory
 */
struct uncached_stats {
	long pages_served[SIM_NODES];
	long granules_taken[SIM_NODES];
	long fallbacks;
	long donated_served;
	long outstanding;
	int pool_free_ok;
};

/**
 * struct uncached_allocator - one version of the allocator
 * @name:       for the summary
 * @init:       create the per-node pools and seed them from the EFI map;
 *              0 or -1
 * @alloc_page: a page, preferring node @nid and falling back to the others
 *              in turn; 0 if every node is exhausted
 * @free_page:  give a page back to the pool of the node it is on
 * @stats:      read the counters
 * @exit:       check the pools are whole (sets pool_free_ok), destroy them
 */
struct uncached_allocator {
	const char *name;
	int (*init)(void);
	unsigned long (*alloc_page)(int nid);
	void (*free_page)(unsigned long maddr);
	void (*stats)(struct uncached_stats *st);
	void (*exit)(void);
};

extern const struct uncached_allocator uncached_2005;
extern const struct uncached_allocator uncached_2006;

#endif /* MSPEC_UNCACHED_H */
