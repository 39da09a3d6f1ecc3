// SPDX-License-Identifier: GPL-2.0-only
/*
 * examples/mspec/sim.c - see sim.h.  The machine is one process-wide
 * object, as hardware is; a mutex guards its range table.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "sim.h"

struct sim_range {
	unsigned long start, end;
	int nid;
	int firmware;
	long first_page;	/* dense page index of @start */
};

static struct {
	pthread_mutex_t lock;
	struct sim_range range[SIM_MAX_RANGES];
	int nr;
	long pages;
} sim = { .lock = PTHREAD_MUTEX_INITIALIZER };

/* Firmware ranges: pages per node that EFI reported uncached at boot. */
static const int sim_firmware_pages[SIM_NODES] = { 0, 4, 16, 12 };

static unsigned long sim_add(unsigned long size, int nid, int firmware)
{
	void *mem = aligned_alloc(firmware ? SIM_PAGE_SIZE : SIM_GRANULE_SIZE, size);
	struct sim_range *r;

	if (!mem)
		return 0;
	pthread_mutex_lock(&sim.lock);
	if (sim.nr == SIM_MAX_RANGES) {
		pthread_mutex_unlock(&sim.lock);
		free(mem);
		return 0;
	}
	r = &sim.range[sim.nr++];
	r->start = (unsigned long)mem;
	r->end = r->start + size;
	r->nid = nid;
	r->firmware = firmware;
	r->first_page = sim.pages;
	sim.pages += (long)(size / SIM_PAGE_SIZE);
	pthread_mutex_unlock(&sim.lock);
	return (unsigned long)mem;
}

unsigned long sim_granule_alloc(int nid)
{
	return sim_add(SIM_GRANULE_SIZE, nid, 0);
}

static const struct sim_range *sim_find(unsigned long addr)
{
	for (int i = 0; i < sim.nr; i++)
		if (addr >= sim.range[i].start && addr < sim.range[i].end)
			return &sim.range[i];
	return NULL;
}

int sim_node_of(unsigned long addr)
{
	const struct sim_range *r;
	int nid;

	pthread_mutex_lock(&sim.lock);
	r = sim_find(addr);
	nid = r ? r->nid : -1;
	pthread_mutex_unlock(&sim.lock);
	return nid;
}

int sim_is_firmware(unsigned long addr)
{
	const struct sim_range *r;
	int fw;

	pthread_mutex_lock(&sim.lock);
	r = sim_find(addr);
	fw = r && r->firmware;
	pthread_mutex_unlock(&sim.lock);
	return fw;
}

long sim_page_index(unsigned long addr)
{
	const struct sim_range *r;
	long idx;

	pthread_mutex_lock(&sim.lock);
	r = sim_find(addr);
	idx = r ? r->first_page + (long)((addr - r->start) / SIM_PAGE_SIZE) : -1;
	pthread_mutex_unlock(&sim.lock);
	return idx;
}

void sim_efi_walk_uncached(void (*fn)(unsigned long start, unsigned long end, int nid,
				      void *arg), void *arg)
{
	for (int i = 0; i < sim.nr; i++)
		if (sim.range[i].firmware)
			fn(sim.range[i].start, sim.range[i].end, sim.range[i].nid, arg);
}

int sim_boot(void)
{
	for (int nid = 0; nid < SIM_NODES; nid++)
		if (sim_firmware_pages[nid] &&
		    !sim_add((unsigned long)sim_firmware_pages[nid] * SIM_PAGE_SIZE, nid, 1))
			return -1;
	return 0;
}

void sim_shutdown(void)
{
	pthread_mutex_lock(&sim.lock);
	for (int i = 0; i < sim.nr; i++)
		free((void *)sim.range[i].start);
	sim.nr = 0;
	sim.pages = 0;
	pthread_mutex_unlock(&sim.lock);
}
