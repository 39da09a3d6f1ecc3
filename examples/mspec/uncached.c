// SPDX-License-Identifier: GPL-2.0-only
/*
 * examples/mspec/uncached.c - the 2.6.13 ia64 uncached page allocator, on
 * the 2005 genalloc API.  Built with -Icompat, so <linux/genalloc.h> is the
 * compat header and this is the 2005 code's shape, line for line in spirit:
 * a pool per node whose get_new_chunk converts one granule at a time, the
 * EFI map's uncached pages donated with gen_pool_free(), and allocation that
 * walks the nodes round-robin when the preferred one is exhausted.
 */
#include <stdatomic.h>
#include <string.h>

#include <linux/genalloc.h>

#include "granule_cap.h"
#include "uncached.h"

static struct gen_pool *uncached_pool[SIM_NODES];
static struct granule_cap cap;

/* Set by the callback in the thread whose gen_pool_alloc() called it: when
 * that call returns, genalloc has added the granule (granule_cap.h). */
static _Thread_local int took_granule;

static atomic_long served[SIM_NODES], taken[SIM_NODES];
static atomic_long fallbacks, donated_served, outstanding;
static int pools_whole;

/*
 * Add a new granule to the node's pool.  Called by genalloc (no pool lock
 * held) when the pool has no free page; the cap is global, across nodes.
 */
static unsigned long uncached_get_new_chunk(struct gen_pool *poolp)
{
	int nid = (int)poolp->private;
	unsigned long granule;

	if (granule_cap_reserve(&cap))
		return 0;
	granule = sim_granule_alloc(nid);
	if (!granule) {
		granule_cap_cancel(&cap);
		return 0;
	}
	/* ia64 flushed the caches and remapped the granule uncached here. */
	atomic_fetch_add(&taken[nid], 1);
	took_granule = 1;
	return granule;
}

/* The 2005 allocation: the preferred node first, then round-robin. */
static unsigned long uncached_walk_nodes(int starting_nid)
{
	unsigned long maddr;
	int nid = starting_nid;

	do {
		maddr = gen_pool_alloc(uncached_pool[nid], SIM_PAGE_SIZE);
		if (took_granule) {
			took_granule = 0;
			granule_cap_landed(&cap);
		}
		if (maddr) {
			atomic_fetch_add(&served[nid], 1);
			atomic_fetch_add(&outstanding, 1);
			if (nid != starting_nid)
				atomic_fetch_add(&fallbacks, 1);
			if (sim_is_firmware(maddr))
				atomic_fetch_add(&donated_served, 1);
			return maddr;
		}
		if (++nid == SIM_NODES)
			nid = 0;
	} while (nid != starting_nid);
	return 0;
}

static unsigned long uncached_alloc_page(int starting_nid)
{
	unsigned long maddr;
	unsigned int epoch;

	do {
		epoch = granule_cap_epoch(&cap);
		maddr = uncached_walk_nodes(starting_nid);
	} while (!maddr && granule_cap_retry(&cap, epoch));
	return maddr;
}

static void uncached_free_page(unsigned long maddr)
{
	int node = sim_node_of(maddr);

	if (node < 0)
		return;
	gen_pool_free(uncached_pool[node], maddr, SIM_PAGE_SIZE);
	atomic_fetch_sub(&outstanding, 1);
}

/* The EFI walk callback: give every uncached page to its node's pool. */
static void uncached_build_memmap(unsigned long start, unsigned long end, int nid, void *arg)
{
	(void)arg;
	for (; start < end; start += SIM_PAGE_SIZE)
		gen_pool_free(uncached_pool[nid], start, SIM_PAGE_SIZE);
}

static void uncached_reset_counters(void)
{
	granule_cap_reset(&cap);
	for (int nid = 0; nid < SIM_NODES; nid++) {
		atomic_store(&served[nid], 0);
		atomic_store(&taken[nid], 0);
	}
	atomic_store(&fallbacks, 0);
	atomic_store(&donated_served, 0);
	atomic_store(&outstanding, 0);
	pools_whole = 0;
}

static int uncached_init(void)
{
	uncached_reset_counters();
	for (int nid = 0; nid < SIM_NODES; nid++) {
		uncached_pool[nid] = gen_pool_create(0, SIM_GRANULE_SHIFT,
						     &uncached_get_new_chunk, (unsigned long)nid);
		if (!uncached_pool[nid])
			return -1;
	}
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

/* 2005 had no teardown; here each pool must be whole before it goes. */
static void uncached_exit(void)
{
	pools_whole = 1;
	for (int nid = 0; nid < SIM_NODES; nid++) {
		struct compat_gen_pool_stats st;

		if (!uncached_pool[nid])
			continue;
		compat_gen_pool_stats(uncached_pool[nid], &st);
		if (st.free_bytes != st.obtained_bytes + st.donated_bytes ||
		    compat_gen_pool_check(uncached_pool[nid]))
			pools_whole = 0;
		gen_pool_destroy(uncached_pool[nid]);
		uncached_pool[nid] = NULL;
	}
}

const struct uncached_allocator uncached_2005 = {
	.name = "2005 genalloc",
	.init = uncached_init,
	.alloc_page = uncached_alloc_page,
	.free_page = uncached_free_page,
	.stats = uncached_stats,
	.exit = uncached_exit,
};
