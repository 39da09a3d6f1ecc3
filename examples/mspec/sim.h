/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * examples/mspec/sim.h - the simulated ia64 box under the uncached
 * allocator: four NUMA nodes, memory handed out a granule at a time, and an
 * EFI memory map with a few ranges the firmware already set up uncached.
 *
 * Scaled down from ia64: 16 KiB pages, 1 MiB granules (IA64_GRANULE_SHIFT
 * was 24 or 26).  Knowing which node an address is on is the machine's job
 * (nasid_to_cnodeid() on SN2), so sim_node_of() does it here.
 */
#ifndef MSPEC_SIM_H
#define MSPEC_SIM_H

#define SIM_NODES		4
#define SIM_PAGE_SHIFT		14
#define SIM_PAGE_SIZE		(1UL << SIM_PAGE_SHIFT)
#define SIM_GRANULE_SHIFT	20
#define SIM_GRANULE_SIZE	(1UL << SIM_GRANULE_SHIFT)
#define SIM_MAX_RANGES		64

/* A fresh granule "on" @nid, aligned to its size, or 0 if out of memory. */
unsigned long sim_granule_alloc(int nid);

/* The node of any address the machine handed out, or -1. */
int sim_node_of(unsigned long addr);

/* Whether @addr lies in a firmware (EFI) uncached range. */
int sim_is_firmware(unsigned long addr);

/* A dense index for every page the machine handed out, or -1. */
long sim_page_index(unsigned long addr);

/* Walk the EFI memory map's uncached ranges, [start, end) on node nid. */
void sim_efi_walk_uncached(void (*fn)(unsigned long start, unsigned long end, int nid,
				      void *arg), void *arg);

/* Set up the machine (firmware ranges) / give every byte back. */
int sim_boot(void);
void sim_shutdown(void);

#endif /* MSPEC_SIM_H */
