/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * examples/sram/sram.h - the kernel's generic on-chip SRAM driver
 * (drivers/misc/sram.c), reduced to what it does with genalloc and ported
 * to user space: the platform bus, "reg" parsing and ioremap() are replaced
 * by what the caller passes in.
 *
 * The driver puts an SRAM into one pool, except the ranges its device-tree
 * children reserve; a child marked "pool" becomes a pool of its own, named
 * by its label, that consumers reach with of_gen_pool_get() through a
 * phandle to the child.  Every pool belongs to the SRAM's device, so
 * unbinding the device (device_release()) destroys them.
 */
#ifndef GENALLOC_EXAMPLES_SRAM_H
#define GENALLOC_EXAMPLES_SRAM_H

#include <stdbool.h>
#include <stddef.h>

#include <linux/genalloc.h>

/* Granule of every SRAM pool, as in the kernel driver. */
#define SRAM_GRANULARITY 32

/* Children with pools of their own, at most (the kernel keeps a list). */
#define SRAM_MAX_PARTS 8

/**
 * struct sram_reserve - a child node of the SRAM, as its "reg" reads
 * @np:    the child's device-tree node
 * @start: offset into the SRAM
 * @size:  bytes
 * @pool:  the child has the "pool" property: it becomes a pool of its own
 *         instead of staying out of every pool
 */
struct sram_reserve {
	struct device_node *np;
	unsigned long start;
	unsigned long size;
	bool pool;
};

/**
 * struct sram_dev - a bound SRAM
 * @dev:       its device (the SRAM's node is @dev->of_node)
 * @virt_base: where the SRAM is mapped
 * @pool:      the pool of everything not reserved
 * @parts:     the children's own pools
 * @nr_parts:  how many
 */
struct sram_dev {
	struct device *dev;
	void *virt_base;
	struct gen_pool *pool;
	struct gen_pool *parts[SRAM_MAX_PARTS];
	size_t nr_parts;
};

/**
 * sram_probe() - bind the driver to an SRAM
 * @dev:       the SRAM's device, initialized and bound to its node
 * @virt_base: the SRAM's mapping
 * @phys_base: its physical (bus) address
 * @size:      its size in bytes
 * @rsv:       its children, in any order (sorted in place)
 * @nr_rsv:    how many
 *
 * Return: the driver's state, owned by @dev; an ERR_PTR() when the
 * children overlap or run past the SRAM (-EINVAL) or memory runs out
 * (-ENOMEM), or there are more than SRAM_MAX_PARTS pool children
 * (-ENOSPC).  What was created before a failure is released with @dev.
 */
struct sram_dev *sram_probe(struct device *dev, void *virt_base, phys_addr_t phys_base,
			    size_t size, struct sram_reserve *rsv, size_t nr_rsv);

/**
 * sram_remove() - unbind: say so if blocks are still allocated, then
 * release the device, which destroys the pools
 *
 * Return: false, without releasing anything, if any pool still has blocks
 * out.  The kernel driver prints "removed while SRAM allocated" and goes
 * on, and the pool's destruction then BUG()s; this port stops short of it.
 */
bool sram_remove(struct sram_dev *sram);

#endif /* GENALLOC_EXAMPLES_SRAM_H */
