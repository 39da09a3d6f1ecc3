// SPDX-License-Identifier: GPL-2.0-only
/*
 * examples/mspec/uncached_modern.c - the same allocator as the kernel
 * rewrote it in 2006 for the bitmap genalloc: the port path from the 2005
 * API.  Built with -Imodern, so <linux/genalloc.h> is today's API.
 *
 * What the port changed: the pool no longer grows itself, so
 * gen_pool_create() takes the granularity (PAGE_SHIFT: one bit a page) and
 * a node, and the allocator adds a whole granule with gen_pool_add() when an
 * allocation fails, then retries; the EFI ranges are added whole instead of
 * freed page by page; a node's pool is found from the address as before.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <string.h>

#include <linux/genalloc.h>

#include "granule_cap.h"
#include "uncached.h"

static struct gen_pool *uncached_pools[SIM_NODES];
static pthread_mutex_t add_chunk_lock[SIM_NODES];
static struct granule_cap cap;

static atomic_long served[SIM_NODES], taken[SIM_NODES];
static atomic_long fallbacks, donated_served, outstanding;
static int pools_whole;

/* Convert one more granule on @nid and add it to the node's pool.
 * Return: 0, or -1 at the cap or out of memory. */
static int uncached_add_chunk(int nid)
{
	unsigned long granule;
	int rc = -1;

	pthread_mutex_lock(&add_chunk_lock[nid]);
	if (granule_cap_reserve(&cap))
		goto out;
	granule = sim_granule_alloc(nid);
	if (!granule || gen_pool_add(uncached_pools[nid], granule, SIM_GRANULE_SIZE, nid)) {
		granule_cap_cancel(&cap);
		goto out;
	}
	atomic_fetch_add(&taken[nid], 1);
	granule_cap_landed(&cap);
	rc = 0;
out:
	pthread_mutex_unlock(&add_chunk_lock[nid]);
	return rc;
}

static unsigned long uncached_walk_nodes(int starting_nid)
{
	unsigned long uc_addr;
	int nid = starting_nid;

	do {
		do {
			uc_addr = gen_pool_alloc(uncached_pools[nid], SIM_PAGE_SIZE);
			if (uc_addr) {
				atomic_fetch_add(&served[nid], 1);
				atomic_fetch_add(&outstanding, 1);
				if (nid != starting_nid)
					atomic_fetch_add(&fallbacks, 1);
				if (sim_is_firmware(uc_addr))
					atomic_fetch_add(&donated_served, 1);
				return uc_addr;
			}
		} while (uncached_add_chunk(nid) == 0);
		if (++nid == SIM_NODES)
			nid = 0;
	} while (nid != starting_nid);
	return 0;
}

static unsigned long uncached_alloc_page(int starting_nid)
{
	unsigned long uc_addr;
	unsigned int epoch;

	do {
		epoch = granule_cap_epoch(&cap);
		uc_addr = uncached_walk_nodes(starting_nid);
	} while (!uc_addr && granule_cap_retry(&cap, epoch));
	return uc_addr;
}

static void uncached_free_page(unsigned long uc_addr)
{
	int nid = sim_node_of(uc_addr);

	if (nid < 0)
		return;
	gen_pool_free(uncached_pools[nid], uc_addr, SIM_PAGE_SIZE);
	atomic_fetch_sub(&outstanding, 1);
}

static void uncached_build_memmap(unsigned long start, unsigned long end, int nid, void *arg)
{
	(void)arg;
	gen_pool_add(uncached_pools[nid], start, end - start, nid);
}

static int uncached_init(void)
{
	granule_cap_reset(&cap);
	for (int nid = 0; nid < SIM_NODES; nid++) {
		atomic_store(&served[nid], 0);
		atomic_store(&taken[nid], 0);
		pthread_mutex_init(&add_chunk_lock[nid], NULL);
		uncached_pools[nid] = gen_pool_create(SIM_PAGE_SHIFT, nid);
		if (!uncached_pools[nid])
			return -1;
	}
	atomic_store(&fallbacks, 0);
	atomic_store(&donated_served, 0);
	atomic_store(&outstanding, 0);
	pools_whole = 0;
	sim_efi_walk_uncached(uncached_build_memmap, NULL);
	return 0;
}

static void uncached_stats(struct uncached_stats *st)
{
	memset(st, 0, sizeof(*st));
	for (int nid = 0; nid < SIM_NODES; nid++) {
		st->pages_served[nid] = atomic_load(&served[nid]);
		st->granules_taken[nid] = atomic_load(&taken[nid]);
	}
	st->fallbacks = atomic_load(&fallbacks);
	st->donated_served = atomic_load(&donated_served);
	st->outstanding = atomic_load(&outstanding);
	st->pool_free_ok = pools_whole;
}

static void uncached_exit(void)
{
	pools_whole = 1;
	for (int nid = 0; nid < SIM_NODES; nid++) {
		if (!uncached_pools[nid])
			continue;
		if (gen_pool_avail(uncached_pools[nid]) != gen_pool_size(uncached_pools[nid]) ||
		    gen_pool_check(uncached_pools[nid]))
			pools_whole = 0;
		gen_pool_destroy(uncached_pools[nid]);
		uncached_pools[nid] = NULL;
		pthread_mutex_destroy(&add_chunk_lock[nid]);
	}
}

const struct uncached_allocator uncached_2006 = {
	.name = "2006 genalloc (modern)",
	.init = uncached_init,
	.alloc_page = uncached_alloc_page,
	.free_page = uncached_free_page,
	.stats = uncached_stats,
	.exit = uncached_exit,
};
