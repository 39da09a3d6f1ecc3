// SPDX-License-Identifier: GPL-2.0-only
/*
 * examples/mspec/mspec.c - see mspec.h.  Knows nothing of genalloc: it only
 * calls the uncached allocator, which is why the same driver runs on the
 * 2005 and the 2006 allocator.
 */
#include <stdlib.h>
#include <string.h>

#include "mspec.h"

struct mspec_vma *mspec_mmap(const struct uncached_allocator *alloc, int npages, int nid)
{
	struct mspec_vma *vma = calloc(1, sizeof(*vma) + (size_t)npages * sizeof(vma->maddr[0]));

	if (!vma)
		return NULL;
	pthread_mutex_init(&vma->lock, NULL);
	vma->alloc = alloc;
	vma->nid = nid;
	vma->npages = npages;
	return vma;
}

/*
 * Allocate outside the lock (the allocator may have to convert a granule,
 * which is slow), install under it, and if another thread installed a page
 * first, give ours back and use theirs - as the driver did.
 */
unsigned long mspec_nopage(struct mspec_vma *vma, int index)
{
	unsigned long maddr = atomic_load(&vma->maddr[index]);

	if (maddr)
		return maddr;
	maddr = vma->alloc->alloc_page(vma->nid);
	if (!maddr)
		return 0;
	pthread_mutex_lock(&vma->lock);
	if (!atomic_load(&vma->maddr[index])) {
		vma->count++;
		atomic_store(&vma->maddr[index], maddr);
	} else {
		vma->alloc->free_page(maddr);
		atomic_fetch_add(&vma->races, 1);
		maddr = atomic_load(&vma->maddr[index]);
	}
	pthread_mutex_unlock(&vma->lock);
	return maddr;
}

void mspec_close(struct mspec_vma *vma)
{
	for (int i = 0; i < vma->npages; i++) {
		unsigned long maddr = atomic_load(&vma->maddr[i]);

		if (!maddr)
			continue;
		/* The driver zeroed pages with the fetchop unit; memset here. */
		memset((void *)maddr, 0, SIM_PAGE_SIZE);
		vma->alloc->free_page(maddr);
	}
	pthread_mutex_destroy(&vma->lock);
	free(vma);
}
