/* SPDX-License-Identifier: GPL-2.0 */
/*
 * modern/meta_internal.h - where the engine's own bookkeeping (bitmaps,
 * indexes, size classes) gets its memory (not installed).
 *
 * A big pool's bitmap is megabytes read at random: a 1 GiB pool at 8-byte
 * granules has a 16 MiB bitmap, 4096 small pages, more than the TLB holds,
 * so nearly every free also missed in the TLB.  Asking for transparent huge
 * pages (where the system leaves that to madvise) cuts that to 8 entries:
 * callgrind cannot see it, the clock can (first fit, log-uniform pairs on
 * 1 GiB: ~430 -> ~330 ns).  Only the whole 2 MiB pages inside the block
 * are advised, so small allocations are left alone, and the advice is only
 * a hint: failure changes nothing.
 */
#ifndef GENALLOC_MODERN_META_INTERNAL_H
#define GENALLOC_MODERN_META_INTERNAL_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>

/* Below this, a block spans at most one whole huge page: not worth it. */
#define MODERN_META_HUGE_MIN (4UL << 20)
#define MODERN_META_HUGE_PAGE (2UL << 20)

/**
 * modern_meta_zalloc() - zeroed bookkeeping memory, like calloc(1, @size)
 *
 * Return: the block (free() it), or NULL.
 */
static inline void *modern_meta_zalloc(size_t size)
{
	void *p = calloc(1, size);

#ifdef MADV_HUGEPAGE
	if (p && size >= MODERN_META_HUGE_MIN) {
		uintptr_t lo = ((uintptr_t)p + MODERN_META_HUGE_PAGE - 1) &
			       ~(uintptr_t)(MODERN_META_HUGE_PAGE - 1);
		uintptr_t hi = ((uintptr_t)p + size) & ~(uintptr_t)(MODERN_META_HUGE_PAGE - 1);

		if (hi > lo)
			(void)madvise((void *)lo, hi - lo, MADV_HUGEPAGE);
	}
#endif
	return p;
}

#endif /* GENALLOC_MODERN_META_INTERNAL_H */
