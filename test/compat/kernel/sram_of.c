// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * test/compat/kernel/sram_of.c - driver-shaped code that finds its memory
 * through the device tree, written the way the kernel's on-chip SRAM
 * driver and the QE/CPM MURAM set-up are written, and built with nothing
 * of this library but the kernel's header names under -Imodern:
 *
 *   - an SRAM driver's probe: the SRAM's "reg" from its platform device,
 *     its children walked with for_each_available_child_of_node(), each
 *     child's "reg" read with of_address_to_resource() (translated through
 *     the SRAM's "ranges"), "pool" and "export" read with
 *     of_property_read_bool(); one pool for what no child reserves and a
 *     pool per "pool" child, named by its label;
 *   - a MURAM set-up: the node found with of_find_compatible_node(), every
 *     "reg" entry added to one pool at its offset from the first;
 *   - a consumer: of_find_device_by_node() on the SRAM's node, then
 *     to_platform_device()'s drvdata, and of_gen_pool_get() through a
 *     phandle to a partition.
 *
 * The tree and the platform device are built here as a board would
 * describe them.  Run with --check: exit status 0 when every pool holds
 * exactly the ranges the tree describes, at the addresses it gives.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/genalloc.h>
#include <linux/device.h>
#include <linux/ioport.h>
#include <linux/of.h>
#include <linux/of_address.h>
#include <linux/of_platform.h>
#include <linux/platform_device.h>

#define SRAM_PHYS	0x5c000000UL
#define SRAM_SIZE	0x8000UL
#define SRAM_GRAN_ORDER	5	/* 32-byte granules */
#define MAX_RESERVED	4

/* ------------------------------------------------------------ the driver */

struct toy_reserve {
	unsigned long start, size;	/* offset into the SRAM, bytes */
};

struct toy_sram {
	void *virt_base;
	struct gen_pool *pool;
	int nr_parts, nr_exported;
};

/* Adds @virt + [from, to) of the SRAM to @pool, if it is not empty. */
static int toy_add_range(struct gen_pool *pool, char *virt, phys_addr_t phys,
			 unsigned long from, unsigned long to)
{
	if (to <= from)
		return 0;
	return gen_pool_add_virt(pool, (unsigned long)(virt + from), phys + from, to - from, -1);
}

static int toy_sram_probe(struct platform_device *pdev)
{
	struct device *dev = &pdev->dev;
	struct device_node *np = dev->of_node, *child;
	struct resource *res = platform_get_resource(pdev, IORESOURCE_MEM, 0);
	struct toy_reserve rsv[MAX_RESERVED];
	struct toy_sram *sram;
	unsigned long cur = 0;
	int nr = 0, ret = 0;

	if (!res)
		return -EINVAL;
	sram = devm_kzalloc(dev, sizeof(*sram), GFP_KERNEL);
	if (!sram)
		return -ENOMEM;
	sram->virt_base = dev_get_platdata(dev);	/* the board mapped it */
	sram->pool = devm_gen_pool_create(dev, SRAM_GRAN_ORDER, NUMA_NO_NODE, NULL);
	if (IS_ERR(sram->pool))
		return (int)PTR_ERR(sram->pool);

	for_each_available_child_of_node(np, child) {
		struct resource child_res;
		bool pool = of_property_read_bool(child, "pool");

		if (of_address_to_resource(child, 0, &child_res) ||
		    child_res.start < res->start || child_res.end > res->end ||
		    nr == MAX_RESERVED) {
			dev_err(dev, "bad reserved region %s", of_node_full_name(child));
			of_node_put(child);
			return -EINVAL;
		}
		rsv[nr].start = (unsigned long)(child_res.start - res->start);
		rsv[nr].size = (unsigned long)resource_size(&child_res);
		if (of_property_read_bool(child, "export"))
			sram->nr_exported++;
		if (pool) {
			const char *label;
			struct gen_pool *part;

			if (of_property_read_string(child, "label", &label))
				label = of_node_full_name(child);
			part = devm_gen_pool_create(dev, SRAM_GRAN_ORDER, NUMA_NO_NODE, label);
			if (IS_ERR(part)) {
				of_node_put(child);
				return (int)PTR_ERR(part);
			}
			ret = toy_add_range(part, sram->virt_base, res->start, rsv[nr].start,
					    rsv[nr].start + rsv[nr].size);
			if (ret) {
				of_node_put(child);
				return ret;
			}
			sram->nr_parts++;
		}
		nr++;
	}

	/* The children are in address order in this tree, as in most. */
	for (int i = 0; i < nr && !ret; i++) {
		ret = toy_add_range(sram->pool, sram->virt_base, res->start, cur, rsv[i].start);
		cur = rsv[i].start + rsv[i].size;
	}
	if (!ret)
		ret = toy_add_range(sram->pool, sram->virt_base, res->start, cur,
				    (unsigned long)resource_size(res));
	if (!ret)
		platform_set_drvdata(pdev, sram);
	return ret;
}

/* The QE/CPM way: one pool of offsets over every "reg" of the MURAM. */
#define MURAM_OFFSET 0x100	/* offset 0 would be "no memory" */

static struct gen_pool *toy_muram_init(phys_addr_t *base)
{
	struct device_node *np;
	struct gen_pool *pool;
	struct resource r;
	int i = 0;

	np = of_find_compatible_node(NULL, NULL, "fsl,cpm-muram-data");
	if (!np)
		np = of_find_node_by_name(NULL, "data-only");
	if (!np)
		return NULL;
	pool = gen_pool_create(0, -1);
	if (!pool)
		goto out;
	while (of_address_to_resource(np, i, &r) == 0) {
		if (!i)
			*base = r.start;
		if (gen_pool_add(pool, (unsigned long)(r.start - *base) + MURAM_OFFSET,
				 (size_t)resource_size(&r), -1)) {
			gen_pool_destroy(pool);
			pool = NULL;
			break;
		}
		i++;
	}
out:
	of_node_put(np);
	return pool;
}

/* ------------------------------------------------------------ the board */

static const uint32_t one[] = { 1 };
static const uint32_t sram_reg[] = { SRAM_PHYS, SRAM_SIZE };
static const uint32_t sram_ranges[] = { 0, SRAM_PHYS, SRAM_SIZE };
static const uint32_t part_a_reg[] = { 0x1000, 0x1000 };
static const uint32_t part_b_reg[] = { 0x4000, 0x800 };
static const uint32_t part_off_reg[] = { 0x6000, 0x100 };
static const uint32_t muram_reg[] = { 0x110000, 0x2000, 0x118000, 0x1000 };

#define CELLS(a) .cells = (a), .nr_cells = (int)(sizeof(a) / sizeof((a)[0]))

static struct property root_ac = { .name = "#address-cells", CELLS(one) };
static struct property root_sc = { .name = "#size-cells", CELLS(one), .next = &root_ac };

static struct property sram_ranges_p = { .name = "ranges", CELLS(sram_ranges) };
static struct property sram_sc = { .name = "#size-cells", CELLS(one), .next = &sram_ranges_p };
static struct property sram_ac = { .name = "#address-cells", CELLS(one), .next = &sram_sc };
static struct property sram_reg_p = { .name = "reg", CELLS(sram_reg), .next = &sram_ac };
static struct property sram_compat = { .name = "compatible", .string = "acme,ocram\0mmio-sram",
				       .length = sizeof("acme,ocram\0mmio-sram"),
				       .next = &sram_reg_p };

static struct property a_label = { .name = "label", .string = "codec" };
static struct property a_pool = { .name = "pool", .next = &a_label };
static struct property a_reg = { .name = "reg", CELLS(part_a_reg), .next = &a_pool };
static struct property b_export = { .name = "export" };
static struct property b_reg = { .name = "reg", CELLS(part_b_reg), .next = &b_export };
static struct property off_status = { .name = "status", .string = "disabled" };
static struct property off_pool = { .name = "pool", .next = &off_status };
static struct property off_reg = { .name = "reg", CELLS(part_off_reg), .next = &off_pool };

static struct property muram_reg_p = { .name = "reg", CELLS(muram_reg) };
static struct property muram_compat = { .name = "compatible", .string = "fsl,cpm-muram-data",
					.next = &muram_reg_p };

static struct device_node root = { .name = "", .full_name = "/", .properties = &root_sc };
static struct device_node sram_np = { .name = "sram", .full_name = "sram@5c000000",
				      .properties = &sram_compat };
static struct device_node part_a = { .name = "codec-sram", .full_name = "codec-sram@1000",
				     .properties = &a_reg };
static struct device_node part_b = { .name = "scratch", .full_name = "scratch@4000",
				     .properties = &b_reg };
static struct device_node part_off = { .name = "off", .full_name = "off@6000",
				       .properties = &off_reg };
static struct device_node muram_np = { .name = "muram", .full_name = "muram@110000",
				       .properties = &muram_compat };

static struct device_node *codec_phandle[] = { &part_a };
static struct property codec_sram = { .name = "sram", .phandles = codec_phandle,
				      .nr_phandles = 1 };
static struct device_node codec_np = { .name = "codec", .full_name = "codec",
				       .properties = &codec_sram };

static void board_build(void)
{
	of_node_add_child(&root, &sram_np);
	of_node_add_child(&sram_np, &part_a);
	of_node_add_child(&sram_np, &part_b);
	of_node_add_child(&sram_np, &part_off);
	of_node_add_child(&root, &muram_np);
	of_node_add_child(&root, &codec_np);
	of_set_root(&root);
}

/* ------------------------------------------------------------ the check */

static int failures;

#define CHECK(cond)                                                          \
	do {                                                                 \
		if (!(cond)) {                                               \
			fprintf(stderr, "sram_of: %s:%d: %s\n", __FILE__,    \
				__LINE__, #cond);                            \
			failures++;                                          \
		}                                                            \
	} while (0)

int main(int argc, char **argv)
{
	static char sram_mem[SRAM_SIZE] __attribute__((aligned(64)));
	struct resource sram_res = { .start = SRAM_PHYS, .end = SRAM_PHYS + SRAM_SIZE - 1,
				     .flags = IORESOURCE_MEM };
	struct platform_device pdev = { .name = "mmio-sram", .id = PLATFORM_DEVID_NONE,
					.num_resources = 1, .resource = &sram_res };
	struct device_node *found;
	struct platform_device *bound;
	struct toy_sram *sram;
	struct gen_pool *codec, *muram;
	phys_addr_t muram_base = 0;
	unsigned long blk;
	int check = argc > 1 && !strcmp(argv[1], "--check");

	board_build();
	found = of_find_compatible_node(NULL, NULL, "mmio-sram");
	CHECK(found == &sram_np);
	pdev.dev.of_node = found;
	pdev.dev.platform_data = sram_mem;
	CHECK(platform_device_register(&pdev) == 0);
	CHECK(toy_sram_probe(&pdev) == 0);

	/* A consumer finds the driver's state through the node. */
	bound = of_find_device_by_node(&sram_np);
	CHECK(bound == &pdev);
	CHECK(to_platform_device(&bound->dev) == &pdev);
	sram = bound ? platform_get_drvdata(bound) : NULL;
	if (bound)
		put_device(&bound->dev);
	CHECK(sram != NULL);
	if (!sram)
		return 1;
	/* 32 KiB less the two available children (4 KiB and 2 KiB); the
	 * disabled child is not reserved. */
	CHECK(gen_pool_size(sram->pool) == SRAM_SIZE - 0x1000 - 0x800);
	CHECK(sram->nr_parts == 1);
	CHECK(sram->nr_exported == 1);

	codec = of_gen_pool_get(&codec_np, "sram", 0);
	CHECK(codec != NULL && codec == gen_pool_get(&pdev.dev, "codec"));
	CHECK(codec && gen_pool_size(codec) == 0x1000);
	blk = codec ? gen_pool_alloc(codec, 100) : 0;
	CHECK(blk == (unsigned long)(sram_mem + 0x1000));
	CHECK(codec && gen_pool_virt_to_phys(codec, blk) == SRAM_PHYS + 0x1000);
	if (blk)
		gen_pool_free(codec, blk, 100);
	/* The main pool searches its newest chunk first, as the kernel's
	 * (chunks go on the head of its list): the highest gap; and it never
	 * holds a reserved byte. */
	blk = gen_pool_alloc(sram->pool, 0x1000);
	CHECK(blk == (unsigned long)(sram_mem + 0x4800));
	CHECK(gen_pool_virt_to_phys(sram->pool, blk) == SRAM_PHYS + 0x4800);
	CHECK(!gen_pool_has_addr(sram->pool, (unsigned long)(sram_mem + 0x1000), 1));
	CHECK(!gen_pool_has_addr(sram->pool, (unsigned long)(sram_mem + 0x47ff), 1));
	CHECK(gen_pool_has_addr(sram->pool, (unsigned long)(sram_mem + 0x4800), 1));
	if (blk)
		gen_pool_free(sram->pool, blk, 0x1000);

	muram = toy_muram_init(&muram_base);
	CHECK(muram != NULL);
	CHECK(muram_base == 0x110000);
	if (muram) {
		CHECK(gen_pool_size(muram) == 0x3000);
		CHECK(gen_pool_has_addr(muram, MURAM_OFFSET + 0x8000, 0x1000));
		CHECK(!gen_pool_has_addr(muram, MURAM_OFFSET + 0x2000, 1));
		gen_pool_destroy(muram);
	}

	platform_device_unregister(&pdev);
	CHECK(of_find_device_by_node(&sram_np) == NULL);
	CHECK(of_gen_pool_get(&codec_np, "sram", 0) == NULL);
	of_set_root(NULL);

	if (!check || failures)
		printf("sram_of: %s\n", failures ? "FAILED" : "ok");
	return failures ? 1 : 0;
}
