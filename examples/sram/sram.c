// SPDX-License-Identifier: GPL-2.0-only
/*
 * examples/sram/sram.c - the genalloc side of the kernel's generic SRAM
 * driver (drivers/misc/sram.c), in user space.
 *
 * Probing walks the children in address order and adds every gap between
 * them to the main pool, one chunk per gap, each with its physical address
 * (gen_pool_add_virt), so gen_pool_dma_alloc() can answer with both.  The
 * chunks are added lowest first; genalloc searches the newest chunk first,
 * so the main pool hands out its highest gap before the lower ones.
 */
#include "sram.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <linux/device.h>
#include <linux/err.h>

static int by_start(const void *a, const void *b)
{
	const struct sram_reserve *x = a, *y = b;

	return (x->start > y->start) - (x->start < y->start);
}

/* The range [@start, @start + @size) of the SRAM, in @pool. */
static int add_range(struct sram_dev *sram, struct gen_pool *pool, phys_addr_t phys_base,
		     unsigned long start, unsigned long size)
{
	return gen_pool_add_virt(pool, (unsigned long)sram->virt_base + start,
				 phys_base + start, size, NUMA_NO_NODE);
}

/* A child marked "pool": a pool of its own, found by its label (or its
 * node's name) through the SRAM's device, as of_gen_pool_get() looks. */
static int add_part(struct sram_dev *sram, phys_addr_t phys_base, const struct sram_reserve *r)
{
	const char *label;
	struct gen_pool *part;

	if (sram->nr_parts == SRAM_MAX_PARTS)
		return -ENOSPC;
	if (of_property_read_string(r->np, "label", &label))
		label = of_node_full_name(r->np);
	part = devm_gen_pool_create(sram->dev, __builtin_ctz(SRAM_GRANULARITY), NUMA_NO_NODE, label);
	if (IS_ERR(part))
		return (int)PTR_ERR(part);
	sram->parts[sram->nr_parts++] = part;
	return add_range(sram, part, phys_base, r->start, r->size);
}

struct sram_dev *sram_probe(struct device *dev, void *virt_base, phys_addr_t phys_base,
			    size_t size, struct sram_reserve *rsv, size_t nr_rsv)
{
	struct sram_dev *sram = devm_kzalloc(dev, sizeof(*sram), GFP_KERNEL);
	unsigned long cur = 0;
	size_t i;
	int ret;

	if (!sram)
		return ERR_PTR(-ENOMEM);
	sram->dev = dev;
	sram->virt_base = virt_base;
	sram->pool = devm_gen_pool_create(dev, __builtin_ctz(SRAM_GRANULARITY), NUMA_NO_NODE, NULL);
	if (IS_ERR(sram->pool))
		return ERR_CAST(sram->pool);

	qsort(rsv, nr_rsv, sizeof(*rsv), by_start);
	/* One pass past the last child too, for the gap up to the end. */
	for (i = 0; i <= nr_rsv; i++) {
		unsigned long next = i < nr_rsv ? rsv[i].start : size;
		if (next < cur || next > size ||
		    (i < nr_rsv && rsv[i].size > size - next)) {
			fprintf(stderr, "sram: child %zu overlaps or runs past the SRAM\n", i);
			return ERR_PTR(-EINVAL);
		}
		if (next > cur) {
			ret = add_range(sram, sram->pool, phys_base, cur, next - cur);
			if (ret)
				return ERR_PTR(ret);
		}
		if (i == nr_rsv)
			break;
		if (rsv[i].pool) {
			ret = add_part(sram, phys_base, &rsv[i]);
			if (ret)
				return ERR_PTR(ret);
		}
		cur = next + rsv[i].size;
	}
	return sram;
}

static bool in_use(struct gen_pool *pool)
{
	return gen_pool_avail(pool) < gen_pool_size(pool);
}

bool sram_remove(struct sram_dev *sram)
{
	bool busy = in_use(sram->pool);
	size_t i;

	for (i = 0; i < sram->nr_parts; i++)
		busy |= in_use(sram->parts[i]);
	if (busy) {
		fprintf(stderr, "sram: removed while SRAM allocated\n");
		return false;
	}
	device_release(sram->dev);
	return true;
}
