/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * modern/meta_internal.h - where the engine's own bookkeeping (bitmaps,
 * indexes, size classes) gets its memory (not installed).
 *
 * Every block starts on a cache line.  The index cuts a bitmap into blocks
 * of eight words and reads one such block whole at every search and
 * rescan; calloc() aligns to 16 bytes only, so each of them straddled two
 * lines (a chunk's bitmap follows its 64-byte header).
 *
 * Big blocks are mapped, not allocated: the pages stay untouched zeros
 * until used, as calloc() would leave them, so a huge sparse pool costs
 * little resident memory.  And a big pool's bitmap is megabytes read at
 * random: a 1 GiB pool at 8-byte granules has a 16 MiB bitmap, 4096 small
 * pages, more than the TLB holds, so nearly every free also missed in the
 * TLB.  Asking for transparent huge pages (where the system leaves that
 * to madvise) cuts that to 8 entries, which instruction counts do not
 * show and the clock does.  Only the
 * whole 2 MiB pages inside the block are advised, and the advice is only
 * a hint: failure changes nothing.
 */
#ifndef GENALLOC_MODERN_META_INTERNAL_H
#define GENALLOC_MODERN_META_INTERNAL_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

/* From this size on, a block is mapped rather than allocated. */
#define MODERN_META_MAP_MIN (256UL << 10)
/* Below this, a block spans at most one whole huge page: not worth it. */
#define MODERN_META_HUGE_MIN (4UL << 20)
#define MODERN_META_HUGE_PAGE (2UL << 20)
#define MODERN_META_LINE 64

/* The whole huge pages inside [@p, @p + @size): a hint, failure is fine. */
static inline void modern_meta_advise_huge(void *p, size_t size)
{
#ifdef MADV_HUGEPAGE
	uintptr_t lo = ((uintptr_t)p + MODERN_META_HUGE_PAGE - 1) &
		       ~(uintptr_t)(MODERN_META_HUGE_PAGE - 1);
	uintptr_t hi = ((uintptr_t)p + size) & ~(uintptr_t)(MODERN_META_HUGE_PAGE - 1);

	if (size >= MODERN_META_HUGE_MIN && hi > lo)
		(void)madvise((void *)lo, hi - lo, MADV_HUGEPAGE);
#else
	(void)p;
	(void)size;
#endif
}

/**
 * modern_meta_zalloc() - zeroed bookkeeping memory on a cache line
 * @size: bytes, more than 0
 *
 * Return: the block, to be given back with modern_meta_free() and the same
 * @size; or NULL.
 */
static inline void *modern_meta_zalloc(size_t size)
{
	void *p;

	if (size >= MODERN_META_MAP_MIN) {
		p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (p == MAP_FAILED)
			return NULL;
		modern_meta_advise_huge(p, size);
		return p;
	}
	if (posix_memalign(&p, MODERN_META_LINE, size))
		return NULL;
	return memset(p, 0, size);
}

/**
 * modern_meta_free() - give back a block of modern_meta_zalloc()
 * @p:    the block, or NULL
 * @size: the size it was asked for
 */
static inline void modern_meta_free(void *p, size_t size)
{
	if (p && size >= MODERN_META_MAP_MIN)
		(void)munmap(p, size);
	else
		free(p);
}

#endif /* GENALLOC_MODERN_META_INTERNAL_H */
