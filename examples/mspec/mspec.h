/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * examples/mspec/mspec.h - the SGI mspec driver's core (drivers/char/mspec.c,
 * 2.6.13 era): one object per mmap of the uncached device, pages allocated
 * on first touch of each page of the mapping, all of them zeroed and freed
 * when the last user closes it.
 */
#ifndef MSPEC_MSPEC_H
#define MSPEC_MSPEC_H

#include <pthread.h>
#include <stdatomic.h>

#include "uncached.h"

/**
 * struct mspec_vma - one mapping of the device (the driver's vma_data)
 * @lock:   guards installing pages
 * @alloc:  the uncached allocator behind it
 * @nid:    the node the mapping prefers (the faulting CPU's, in the kernel)
 * @count:  pages installed
 * @races:  faults that lost the race to install their page and freed it
 * @npages: pages in the mapping
 * @maddr:  per page: 0 until first touch, then the page's address
 */
struct mspec_vma {
	pthread_mutex_t lock;
	const struct uncached_allocator *alloc;
	int nid;
	int count;
	atomic_int races;
	int npages;
	_Atomic unsigned long maddr[];
};

/* Map @npages pages of the device for node @nid; NULL if out of memory. */
struct mspec_vma *mspec_mmap(const struct uncached_allocator *alloc, int npages, int nid);

/*
 * The fault handler: the page behind @index, allocated on first touch.
 * Safe from many threads at once.  Return: its address, or 0 if no uncached
 * memory is left (VM_FAULT_OOM).
 */
unsigned long mspec_nopage(struct mspec_vma *vma, int index);

/* The last close: zero every installed page, free it, free @vma. */
void mspec_close(struct mspec_vma *vma);

#endif /* MSPEC_MSPEC_H */
