// SPDX-License-Identifier: GPL-2.0-only
/*
 * examples/sram/main.c - a board with 64 KiB of on-chip SRAM, bound to the
 * generic SRAM driver (sram.c), and two consumers that find their pools
 * through the device tree, as kernel drivers do.
 *
 *   sram           run and print what each step got
 *   sram --check   the same, comparing every address with the kernel's
 *                  answer; exit status 0 if all match
 *
 * The device tree, as a .dts would say it:
 *
 *	ocram: sram@5c000000 {
 *		reg = <0x5c000000 0x10000>;
 *		mailbox@1000 { reg = <0x1000 0x1000>; };	// firmware's
 *		audio: codec@8000 { reg = <0x8000 0x2000>; pool; label = "codec-buf"; };
 *	};
 *	dma@40000000 { sram = <&ocram>; };	// descriptor rings, frames
 *	codec@40010000 { sram = <&audio>; };	// its own partition
 *
 * So the main pool holds three gaps, added in address order: [0, 0x1000),
 * [0x2000, 0x8000) and [0xa000, 0x10000).  genalloc searches the newest
 * chunk first, which makes the last gap the first one used.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/device.h>
#include <linux/err.h>
#include <linux/genalloc.h>

#include "sram.h"

#define SRAM_PHYS	0x5c000000UL
#define SRAM_SIZE	0x10000UL

static int failures;
static int checking;

/* Print a step's answer; under --check compare it with @want. */
static void report(const char *what, const char *got, bool ok)
{
	printf("  %-42s %8s%s\n", what, got, checking && !ok ? "   MISMATCH" : "");
	failures += checking && !ok;
}

/* An offset into the SRAM or a byte count (-1: none, "not in any pool"). */
static void expect(const char *what, long got, long want)
{
	char s[32];

	if (got < 0)
		snprintf(s, sizeof(s), "none");
	else
		snprintf(s, sizeof(s), "%#lx", (unsigned long)got);
	report(what, s, got == want);
}

static void expect_true(const char *what, bool got)
{
	report(what, got ? "yes" : "no", got);
}

/* Offset of a virtual address into the SRAM mapping, -1 for 0. */
static long off(const void *base, unsigned long addr)
{
	return addr ? (long)(addr - (unsigned long)base) : -1;
}

/* The DMA engine: descriptor rings and a frame buffer from the main pool.
 * Each DMA address must be the physical address of its virtual one. */
static void dma_engine(struct device_node *np, void *base)
{
	struct gen_pool *pool = of_gen_pool_get(np, "sram", 0);
	dma_addr_t tx_dma, rx_dma, frame_dma;
	void *tx, *rx, *frame;

	printf("dma engine (pool of %zu bytes, %zu free):\n",
	       pool ? gen_pool_size(pool) : 0, pool ? gen_pool_avail(pool) : 0);
	expect("main pool size", pool ? (long)gen_pool_size(pool) : -1, 0xd000);
	if (!pool)
		return;
	tx = gen_pool_dma_alloc(pool, 256, &tx_dma);
	expect("tx ring (256 B): newest gap, first", off(base, (unsigned long)tx), 0xa000);
	rx = gen_pool_dma_alloc(pool, 200, &rx_dma);
	expect("rx ring (200 B, 224 with granules)", off(base, (unsigned long)rx), 0xa100);
	/* 24 KiB no longer fits in the newest gap: the next older one. */
	frame = gen_pool_dma_zalloc(pool, 0x6000, &frame_dma);
	expect("frame (24 KiB): the middle gap, whole", off(base, (unsigned long)frame), 0x2000);
	expect("tx ring's DMA address", (long)(tx_dma - SRAM_PHYS), 0xa000);
	expect("frame's DMA address", (long)(frame_dma - SRAM_PHYS), 0x2000);
	expect("virt_to_phys of the rx ring",
	       rx ? (long)(gen_pool_virt_to_phys(pool, (unsigned long)rx) - SRAM_PHYS) : -1,
	       0xa100);
	expect("virt_to_phys of the mailbox (reserved)",
	       gen_pool_virt_to_phys(pool, (unsigned long)base + 0x1800) == (phys_addr_t)-1 ? -1 : 0,
	       -1);
	expect("main pool's free bytes", (long)gen_pool_avail(pool), 0xd000 - 0x100 - 0xe0 - 0x6000);
	if (tx)
		memset(tx, 0xa5, 256);	/* the SRAM is real memory here */
	gen_pool_free(pool, (unsigned long)tx, 256);
	gen_pool_free(pool, (unsigned long)rx, 200);
	gen_pool_free(pool, (unsigned long)frame, 0x6000);
	expect("main pool's free bytes, all back", (long)gen_pool_avail(pool), 0xd000);
}

/* The codec: its partition, through the phandle to the child node. */
static void *codec_buf;

static void codec_start(struct device_node *np, void *base)
{
	struct gen_pool *pool = of_gen_pool_get(np, "sram", 0);
	dma_addr_t dma;

	printf("codec (partition \"%s\"):\n", pool && pool->name ? pool->name : "?");
	expect("partition size", pool ? (long)gen_pool_size(pool) : -1, 0x2000);
	if (!pool)
		return;
	codec_buf = gen_pool_dma_zalloc(pool, 0x1000, &dma);
	expect("codec buffer (4 KiB)", off(base, (unsigned long)codec_buf), 0x8000);
	expect("its DMA address", (long)(dma - SRAM_PHYS), 0x8000);
}

static void codec_stop(struct device_node *np)
{
	gen_pool_free(of_gen_pool_get(np, "sram", 0), (unsigned long)codec_buf, 0x1000);
}

/* A device tree whose children overlap: the probe must fail with -EINVAL
 * and leave nothing behind once its device is released. */
static void bad_board(void *base)
{
	struct device_node np = { .name = "sram", .full_name = "sram@5d000000" };
	struct device_node a = { .name = "a", .full_name = "a@0", .parent = &np };
	struct device_node b = { .name = "b", .full_name = "b@800", .parent = &np };
	struct sram_reserve rsv[] = {
		{ .np = &a, .start = 0, .size = 0x1000 },
		{ .np = &b, .start = 0x800, .size = 0x1000 },
	};
	struct device dev = { .name = "sram@5d000000" };
	struct sram_dev *sram;

	printf("a board whose reserved ranges overlap:\n");
	device_initialize(&dev);
	device_set_of_node(&dev, &np);
	sram = sram_probe(&dev, base, 0x5d000000UL, SRAM_SIZE, rsv, 2);
	expect("probe fails: -error (EINVAL is 0x16)", IS_ERR(sram) ? -PTR_ERR(sram) : 0, EINVAL);
	expect_true("the release frees what it had made", devres_release_all(&dev) > 0);
	device_release(&dev);
}

int main(int argc, char **argv)
{
	struct device_node root = { .name = "", .full_name = "/" };
	struct device_node ocram = { .name = "sram", .full_name = "sram@5c000000", .parent = &root };
	struct device_node mailbox = { .name = "mailbox", .full_name = "mailbox@1000",
				       .parent = &ocram };
	struct property label = { .name = "label", .string = "codec-buf" };
	struct device_node audio = { .name = "codec", .full_name = "codec@8000",
				     .parent = &ocram, .properties = &label };
	struct device_node *to_ocram = &ocram, *to_audio = &audio;
	struct property dma_sram = { .name = "sram", .phandles = &to_ocram, .nr_phandles = 1 };
	struct property codec_sram = { .name = "sram", .phandles = &to_audio, .nr_phandles = 1 };
	struct device_node dma_np = { .name = "dma", .full_name = "dma@40000000",
				      .parent = &root, .properties = &dma_sram };
	struct device_node codec_np = { .name = "codec", .full_name = "codec@40010000",
					.parent = &root, .properties = &codec_sram };
	struct sram_reserve rsv[] = {	/* out of order: the driver sorts */
		{ .np = &audio, .start = 0x8000, .size = 0x2000, .pool = true },
		{ .np = &mailbox, .start = 0x1000, .size = 0x1000 },
	};
	struct device dev = { .name = "sram@5c000000" };
	struct sram_dev *sram;
	void *base;

	if (argc > 2 || (argc == 2 && strcmp(argv[1], "--check"))) {
		fprintf(stderr, "usage: %s [--check]\n", argv[0]);
		return 2;
	}
	checking = argc == 2;
	/* The driver's messages go to stderr: keep them in step with ours. */
	setvbuf(stdout, NULL, _IOLBF, 0);
	/* The "ioremap": the SRAM is plain memory here. */
	base = aligned_alloc(4096, SRAM_SIZE);
	if (!base)
		return 1;
	device_initialize(&dev);
	device_set_of_node(&dev, &ocram);
	sram = sram_probe(&dev, base, SRAM_PHYS, SRAM_SIZE, rsv, 2);
	if (IS_ERR(sram)) {
		fprintf(stderr, "sram: probe failed: %ld\n", PTR_ERR(sram));
		free(base);
		return 1;
	}

	bad_board(base);
	dma_engine(&dma_np, base);
	codec_start(&codec_np, base);
	printf("unbinding with the codec's buffer out:\n");
	expect_true("sram_remove refuses", !sram_remove(sram));
	codec_stop(&codec_np);
	printf("unbinding:\n");
	expect_true("sram_remove releases the device", sram_remove(sram));
	expect_true("the pools are gone with it",
		    !of_gen_pool_get(&dma_np, "sram", 0) && !of_gen_pool_get(&codec_np, "sram", 0));
	free(base);
	if (checking)
		printf("%s\n", failures ? "sram: FAILED" : "sram: every address as the kernel's");
	return failures != 0;
}
