/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * examples/gpuvm/gpuvm.h - a GPU-style address space that grows and
 * shrinks in 2 MiB pages taken from a parent pool, the driver's page
 * allocator, and hands out buffers of 4 KiB to 2 MiB inside them.
 *
 * The address space is a pool of 4 KiB granules stacked on the parent with
 * gen_pool_import_from(): when no page it holds has room for a request, it
 * takes another 2 MiB from the parent, and a page that a free leaves empty
 * goes straight back.  Nothing is behind the addresses; the pools never
 * touch what they manage.
 *
 * Command buffers are read by a DMA engine whose address counter has 32
 * bits: it wraps at every 4 GiB boundary, so a command buffer must not
 * cross one.  gpuvm_alloc_cmd() asks for that with gen_pool_xalloc()'s
 * nocross; other buffers go where first fit puts them.
 */
#ifndef EXAMPLES_GPUVM_GPUVM_H
#define EXAMPLES_GPUVM_GPUVM_H

#include <limits.h>
#include <stddef.h>

#include "modern/genalloc.h"

#define GPUVM_GRANULE_ORDER	12			/* 4 KiB */
#define GPUVM_MIN_BUFFER	(1UL << GPUVM_GRANULE_ORDER)
#define GPUVM_PAGE		(2UL << 20)		/* 2 MiB, also the largest buffer */
/* The command DMA engine's window: 4 GiB.  Where long has 32 bits no
 * address reaches past one, and there is no window to keep. */
#if ULONG_MAX > 0xffffffffUL
#define GPUVM_HAS_CMD_WINDOW	1
#define GPUVM_CMD_WINDOW	(1UL << 32)
#else
#define GPUVM_HAS_CMD_WINDOW	0
#define GPUVM_CMD_WINDOW	0UL
#endif

/**
 * struct gpuvm - an address space on a parent page allocator
 * @pool:  the address space (4 KiB granules, importing 2 MiB pages)
 * @pages: the parent it imports from; it must outlive the address space
 */
struct gpuvm {
	struct gen_pool *pool;
	struct gen_pool *pages;
};

/* 0, or -1 with nothing made (no memory, or a parent that is no pool). */
int gpuvm_init(struct gpuvm *vm, struct gen_pool *pages);

/* Gives every empty page back (all buffers must have been freed) and
 * destroys the address space. */
void gpuvm_destroy(struct gpuvm *vm);

/* A buffer of @size bytes, 4 KiB to 2 MiB (rounded up to 4 KiB): its
 * address, or 0 when @size is out of that range or the parent has no page. */
unsigned long gpuvm_alloc(struct gpuvm *vm, size_t size);

/* The same for a command buffer: never across a 4 GiB boundary. */
unsigned long gpuvm_alloc_cmd(struct gpuvm *vm, size_t size);

/* Frees what gpuvm_alloc() or gpuvm_alloc_cmd() returned, with its size. */
void gpuvm_free(struct gpuvm *vm, unsigned long addr, size_t size);

/* The pages the address space holds now. */
size_t gpuvm_pages(const struct gpuvm *vm);

#endif /* EXAMPLES_GPUVM_GPUVM_H */
