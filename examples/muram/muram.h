/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * examples/muram/muram.h - the allocator of the Freescale CPM/QE "multi-user
 * RAM" (drivers/soc/fsl/qe/qe_common.c), ported to user space.
 *
 * MURAM is memory on the communications processor that its controllers and
 * the CPU share: buffer descriptors, parameter RAM, microcode.  Drivers
 * never hold pointers into it; they hold offsets from its start, which is
 * what they write into the controllers' registers.  genalloc hands those
 * offsets out: the pool manages numbers, never touches the memory, and the
 * offset becomes a pointer only through cpm_muram_addr().  Requests are
 * aligned (gen_pool_first_fit_align) or at a fixed offset
 * (gen_pool_fixed_alloc).
 *
 * What stands in for the kernel: the device-tree lookup is replaced by the
 * node the caller passes to cpm_muram_init(), ioremap() by a malloc()ed
 * buffer, the spinlock by a pthread mutex.  cpm_muram_avail() and
 * cpm_muram_exit() are additions: the kernel neither reports the free
 * space nor ever tears the allocator down.
 */
#ifndef GENALLOC_EXAMPLES_MURAM_H
#define GENALLOC_EXAMPLES_MURAM_H

#include <stddef.h>
#include <stdint.h>

#include <linux/genalloc.h>

/**
 * struct muram_reg - one entry of the data node's "reg" property
 * @start: offset from the MURAM's start
 * @size:  bytes
 */
struct muram_reg {
	unsigned long start;
	unsigned long size;
};

/**
 * struct muram_data_node - the "fsl,cpm-muram-data" node, as the kernel
 * reads it
 * @base:   the physical address its offset 0 translates to through the
 *          parents' "ranges" (the kernel's of_translate_address() of zero)
 * @reg:    the ranges of the MURAM that may be allocated
 * @nr_reg: how many
 */
struct muram_data_node {
	phys_addr_t base;
	const struct muram_reg *reg;
	size_t nr_reg;
};

/**
 * cpm_muram_init() - put the MURAM that @np describes in the pool and map it
 * @np: the data node; NULL stands for a device tree without one
 *
 * Each range becomes one chunk, in the order of @np->reg, so the last one
 * is searched first.  The mapping runs from offset 0 to the end of the
 * highest range, holes included, as the kernel maps it.  Runs once: a
 * second call returns 0 and changes nothing.  Must not run at the same time
 * as any other cpm_muram_*() call.
 *
 * Return: 0; -ENODEV without a node or ranges; -EINVAL for a range that
 * ends past the largest offset an s32 holds (offsets are returned as
 * s32); -ENOMEM when memory runs out; the error of gen_pool_add() for a
 * range it refuses (after its report).  On failure nothing is left behind.
 */
int cpm_muram_init(const struct muram_data_node *np);

/**
 * cpm_muram_exit() - give back what is still allocated, destroy the pool,
 * unmap
 *
 * Not in the kernel.  It lets a program end without leaks, and tells it
 * which of its blocks were never freed.  Must not run at the same time as
 * any other cpm_muram_*() call; cpm_muram_init() may run again after it.
 *
 * Return: the number of blocks that were still allocated.
 */
int cpm_muram_exit(void);

/**
 * cpm_muram_alloc() - allocate MURAM at an alignment
 * @size:  bytes
 * @align: alignment of the returned offset in bytes: a power of two, at
 *         most 32 KiB
 *
 * The block comes from the last range of the device tree that has room,
 * at its lowest offset on @align, and is zeroed.
 *
 * Return: its offset, or -ENOMEM (no room, @size 0, not initialized);
 * -EINVAL for an @align out of bounds.
 */
int32_t cpm_muram_alloc(unsigned long size, unsigned long align);

/**
 * cpm_muram_alloc_fixed() - allocate MURAM at a given offset
 * @offset: where the block must start
 * @size:   bytes
 *
 * For blocks the hardware looks for at a fixed place.  The block is zeroed.
 * Unlike the kernel's (see cpm_muram_alloc_fixed_kernel()), it is placed at
 * @offset exactly, or not at all.
 *
 * Return: @offset, or -ENOMEM: part of [@offset, @offset + @size) is
 * allocated or lies outside the range that holds @offset, no range holds
 * @offset, @size is 0, or not initialized.
 */
int32_t cpm_muram_alloc_fixed(unsigned long offset, unsigned long size);

/**
 * cpm_muram_alloc_fixed_kernel() - cpm_muram_alloc_fixed() as the kernel
 * computes it
 * @offset: where the block should start
 * @size:   bytes
 *
 * Passes gen_pool_fixed_alloc() the pool address of @offset, as the kernel
 * does, where it takes an offset from the start of each chunk.  Kept so
 * that main.c can show the difference.  A block it returns is freed as any
 * other.
 *
 * Return: the offset genalloc found, @offset + 32 KiB past the start of
 * the last range in the device tree that is long enough and has that
 * block free (for a range at 0, 32 KiB past @offset); -ENOMEM when none
 * is.
 */
int32_t cpm_muram_alloc_fixed_kernel(unsigned long offset, unsigned long size);

/**
 * cpm_muram_free() - free a block by its offset
 * @offset: what cpm_muram_alloc*() returned
 *
 * A negative @offset (an allocation's error) and an offset that no live
 * block starts at are ignored.
 */
void cpm_muram_free(int32_t offset);

/**
 * cpm_muram_free_addr() - free a block by its address
 * @addr: cpm_muram_addr() of its offset, or NULL (ignored)
 */
void cpm_muram_free_addr(const void *addr);

/**
 * cpm_muram_addr() - the CPU's address of a MURAM offset
 * @offset: an offset into the MURAM
 *
 * Return: where @offset is mapped.  Not checked against the mapping.
 */
void *cpm_muram_addr(unsigned long offset);

/**
 * cpm_muram_offset() - the MURAM offset of a mapped address
 * @addr: an address from cpm_muram_addr()
 *
 * Return: its offset.
 */
unsigned long cpm_muram_offset(const void *addr);

/**
 * cpm_muram_dma() - the bus address of a mapped MURAM address
 * @addr: an address from cpm_muram_addr()
 *
 * Return: the physical address the device sees at @addr.
 */
dma_addr_t cpm_muram_dma(const void *addr);

/**
 * cpm_muram_avail() - free bytes of MURAM
 *
 * Not in the kernel; for the example's checks.
 *
 * Return: gen_pool_avail() of the pool, 0 when not initialized.
 */
size_t cpm_muram_avail(void);

#endif /* GENALLOC_EXAMPLES_MURAM_H */
