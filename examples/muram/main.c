// SPDX-License-Identifier: GPL-2.0-only
/*
 * examples/muram/main.c - a QE whose MURAM has two ranges, and the
 * allocations its drivers make there (muram.c).
 *
 *   muram           run and print what each step got
 *   muram --check   the same, comparing every offset with the one genalloc
 *                   must give; exit status 0 if all match
 *
 * The device tree, as a .dts would say it:
 *
 *	qe@e0100000 {
 *		ranges = <0x0 0xe0100000 0x100000>;
 *		muram@10000 {
 *			ranges = <0x0 0x10000 0xa000>;
 *			data-only@0 {
 *				compatible = "fsl,qe-muram-data", "fsl,cpm-muram-data";
 *				reg = <0x0 0x4000 0x8000 0x2000>;
 *			};
 *		};
 *	};
 *
 * So MURAM offset 0 is at 0xe0110000, and [0, 0x4000) and [0x8000, 0xa000)
 * may be allocated; the hole between them is not MURAM anyone may have.
 * The second range is added last, and genalloc searches the newest chunk
 * first: allocations go to [0x8000, 0xa000) while it has room.  Both ranges
 * start on 32 KiB in the pool, so an alignment of the pool address is the
 * same alignment of the offset.
 *
 * A reservation at a fixed offset shows where the port parts from the
 * kernel.  gen_pool_fixed_alloc() counts its offset from the start of each
 * chunk it tries; the kernel's cpm_muram_alloc_fixed() gives it the wanted
 * offset plus GENPOOL_OFFSET (32 KiB), so for MURAM 0x100 it asks 0x8100
 * bytes into ranges of 0x4000 and 0x2000, and is refused.  The port asks
 * for 0x100 into the range at 0, and there only (muram.c says why).  On a
 * MURAM of one 64 KiB range, brought up after the first is torn down, the
 * kernel's arithmetic is not refused but lands 32 KiB off: 0x8100.
 */
#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/genalloc.h>

#include "muram.h"

#define MURAM_PHYS	0xe0110000UL
#define MURAM_BYTES	(0x4000 + 0x2000)

/* Enough for every thread's blocks at once, with their alignment padding,
 * in the room the reservation leaves: no allocation may fail. */
#define CHURN_THREADS	4
#define CHURN_BLOCKS	8
#define CHURN_ROUNDS	200

static int failures;
static bool checking;
static int reports;

/* Print a step's answer; under --check compare it with the expected one. */
static void report(const char *what, const char *got, bool ok)
{
	printf("  %-50s %10s%s\n", what, got, checking && !ok ? "   MISMATCH" : "");
	failures += checking && !ok;
}

/* An offset, or a negative errno as its name. */
static void expect_off(const char *what, int32_t got, int32_t want)
{
	char s[32];

	if (got == -ENOMEM)
		snprintf(s, sizeof(s), "-ENOMEM");
	else if (got == -EINVAL)
		snprintf(s, sizeof(s), "-EINVAL");
	else if (got < 0)
		snprintf(s, sizeof(s), "%d", (int)got);
	else
		snprintf(s, sizeof(s), "0x%x", (unsigned int)got);
	report(what, s, got == want);
}

/* A byte count or an address. */
static void expect_num(const char *what, unsigned long long got, unsigned long long want)
{
	char s[32];

	snprintf(s, sizeof(s), "0x%llx", got);
	report(what, s, got == want);
}

/* A count. */
static void expect_count(const char *what, long got, long want)
{
	char s[32];

	snprintf(s, sizeof(s), "%ld", got);
	report(what, s, got == want);
}

static void expect_true(const char *what, bool got)
{
	report(what, got ? "yes" : "no", got);
}

/* Whether @size bytes at @offset all read @byte. */
static bool all_bytes(int32_t offset, size_t size, unsigned char byte)
{
	const unsigned char *p;
	size_t i;

	if (offset < 0)
		return false;
	p = cpm_muram_addr((unsigned long)offset);
	for (i = 0; i < size; i++)
		if (p[i] != byte)
			return false;
	return true;
}

/* The size of a churning thread's block @i: assorted, 0x20 to 0x58. */
static size_t churn_size(int i)
{
	return 0x20 + 8 * (size_t)i;
}

/* Lets the threads start together, so that their calls overlap. */
static pthread_barrier_t churn_start;

/*
 * One thread of churn(): allocate CHURN_BLOCKS blocks of assorted sizes and
 * alignments, check each arrives zeroed and aligned, mark each with the
 * thread's byte, check no mark was overwritten (no block handed out
 * twice), free them; CHURN_ROUNDS times.  Returns how many checks failed.
 */
static void *churn_thread(void *arg)
{
	unsigned char mark = (unsigned char)(uintptr_t)arg;
	int32_t held[CHURN_BLOCKS];
	uintptr_t bad = 0;
	int round, i;

	pthread_barrier_wait(&churn_start);
	for (round = 0; round < CHURN_ROUNDS; round++) {
		for (i = 0; i < CHURN_BLOCKS; i++) {
			unsigned long align = 8UL << (i % 4);

			held[i] = cpm_muram_alloc(churn_size(i), align);
			if (held[i] < 0 || (held[i] & (align - 1)) ||
			    !all_bytes(held[i], churn_size(i), 0)) {
				bad++;
				continue;
			}
			memset(cpm_muram_addr((unsigned long)held[i]), mark, churn_size(i));
		}
		for (i = 0; i < CHURN_BLOCKS; i++) {
			if (held[i] >= 0 && !all_bytes(held[i], churn_size(i), mark))
				bad++;
			cpm_muram_free(held[i]);
		}
	}
	return (void *)bad;
}

/* The port's lock: threads allocating and freeing at once, as kernel
 * callers may on several CPUs.  Returns the failed checks, all threads. */
static unsigned long churn(void)
{
	pthread_t t[CHURN_THREADS];
	unsigned long bad = 0;
	int i;

	if (pthread_barrier_init(&churn_start, NULL, CHURN_THREADS))
		return 1;
	for (i = 0; i < CHURN_THREADS; i++) {
		if (pthread_create(&t[i], NULL, churn_thread, (void *)(uintptr_t)(0xa0 + i))) {
			/* The started ones wait at the barrier for ever. */
			fprintf(stderr, "muram: cannot start a thread\n");
			exit(1);
		}
	}
	for (i = 0; i < CHURN_THREADS; i++) {
		void *ret;

		pthread_join(t[i], &ret);
		bad += (unsigned long)(uintptr_t)ret;
	}
	pthread_barrier_destroy(&churn_start);
	return bad;
}

/*
 * The port is written never to make the pool report (the kernel's size-0
 * free of an offset outside the ranges would: EFOREIGN).  Count the
 * reports and print them, instead of the default handler's abort().
 */
static void count_report(const struct genalloc_error *err)
{
	reports++;
	fprintf(stderr, "muram: genalloc %s: %s: %s\n",
		err->severity == GENALLOC_BUG ? "BUG" : "WARN", err->func,
		genalloc_strerror(err->code));
}

int main(int argc, char **argv)
{
	static const struct muram_reg reg[] = {
		{ .start = 0x0, .size = 0x4000 },
		{ .start = 0x8000, .size = 0x2000 },
	};
	static const struct muram_reg reg_64k[] = { { .start = 0x0, .size = 0x10000 } };
	const struct muram_data_node data_only = {
		.base = MURAM_PHYS, .reg = reg, .nr_reg = 2,
	};
	const struct muram_data_node data_only_64k = {
		.base = MURAM_PHYS, .reg = reg_64k, .nr_reg = 1,
	};
	int32_t kernel_at, port_at, reserved, tx_bd, rx_bd, pram, tiny, sdma, big, pram2;
	unsigned long avail;
	void *sdma_addr;
	int ret;

	if (argc > 2 || (argc == 2 && strcmp(argv[1], "--check"))) {
		fprintf(stderr, "usage: %s [--check]\n", argv[0]);
		return 2;
	}
	checking = argc == 2;
	setvbuf(stdout, NULL, _IOLBF, 0);
	genalloc_set_error_handler(count_report);

	printf("boot:\n");
	expect_off("cpm_muram_alloc before init", cpm_muram_alloc(0x10, 8), -ENOMEM);
	ret = cpm_muram_init(&data_only);
	if (ret) {
		fprintf(stderr, "muram: init failed: %d\n", ret);
		return 1;
	}
	expect_num("free MURAM: both ranges", cpm_muram_avail(), MURAM_BYTES);
	expect_count("init again: nothing added", cpm_muram_init(&data_only), 0);
	expect_num("free MURAM, still", cpm_muram_avail(), MURAM_BYTES);

	printf("a reservation at a fixed offset (0x80 bytes at 0x100):\n");
	expect_off("the kernel's arithmetic: 0x8100 into a range",
		   cpm_muram_alloc_fixed_kernel(0x100, 0x80), -ENOMEM);
	reserved = cpm_muram_alloc_fixed(0x100, 0x80);
	expect_off("the port: there, not at 0x8100 in the newer range", reserved, 0x100);
	expect_off("the same again: taken", cpm_muram_alloc_fixed(0x100, 0x80), -ENOMEM);
	expect_off("0x20 at 0x3ff0: past the end of its range",
		   cpm_muram_alloc_fixed(0x3ff0, 0x20), -ENOMEM);
	expect_off("0x10 at 0x5000: in the hole", cpm_muram_alloc_fixed(0x5000, 0x10), -ENOMEM);
	expect_num("free MURAM: less the reservation", cpm_muram_avail(), MURAM_BYTES - 0x80);

	printf("aligned allocations (the last range first):\n");
	tx_bd = cpm_muram_alloc(0x200, 64);
	expect_off("tx descriptors (0x200, align 64): 0x8100 free", tx_bd, 0x8000);
	rx_bd = cpm_muram_alloc(0x28, 8);
	expect_off("rx descriptors (0x28, align 8)", rx_bd, 0x8200);
	pram = cpm_muram_alloc(0x100, 64);
	expect_off("parameter RAM (0x100, align 64): skips 0x8228", pram, 0x8240);
	tiny = cpm_muram_alloc(0x10, 8);
	expect_off("0x10, align 8: in the gap the 64 left", tiny, 0x8228);
	sdma = cpm_muram_alloc(0x200, 4096);
	expect_off("SDMA area (0x200, align 4096)", sdma, 0x9000);
	/* More than the last range has free: the older range's lowest fit,
	 * which [0, 0x100) below the reservation is not. */
	big = cpm_muram_alloc(0x1d00, 8);
	expect_off("0x1d00, align 8: the other range, past 0x100", big, 0x180);
	avail = MURAM_BYTES - 0x80 - 0x200 - 0x28 - 0x100 - 0x10 - 0x200 - 0x1d00;
	expect_num("free MURAM", cpm_muram_avail(), avail);
	expect_off("alignment 48 (not a power of two)", cpm_muram_alloc(0x10, 48), -EINVAL);
	expect_off("alignment 64 KiB (past the pool's offset)",
		   cpm_muram_alloc(0x10, 0x10000), -EINVAL);
	expect_off("size 0", cpm_muram_alloc(0, 8), -ENOMEM);
	/* 0x8000 is the tx descriptors'; 0 in the older range, at the same
	 * offset from its start, is free and must stay so. */
	expect_off("0x40 fixed at 0x8000: taken", cpm_muram_alloc_fixed(0x8000, 0x40), -ENOMEM);
	expect_num("free MURAM unchanged: 0x0 not taken instead", cpm_muram_avail(), avail);

	printf("free by offset, allocate again:\n");
	if (pram >= 0)
		memset(cpm_muram_addr((unsigned long)pram), 0xff, 0x100);
	cpm_muram_free(pram);
	expect_num("free MURAM: 0x100 more", cpm_muram_avail(), avail + 0x100);
	pram2 = cpm_muram_alloc(0xc0, 64);
	expect_off("0xc0, align 64: the freed block's place", pram2, 0x8240);
	expect_true("its bytes read 0, not the 0xff left there", all_bytes(pram2, 0xc0, 0));
	expect_true("the bytes past it still read 0xff", all_bytes(0x8300, 0x40, 0xff));
	avail += 0x100 - 0xc0;
	/* The two largest free runs: [0x1e80, 0x4000) and [0x9200, 0xa000). */
	expect_off("0x2400, align 8: more than any free run",
		   cpm_muram_alloc(0x2400, 8), -ENOMEM);
	expect_true("though more than that is free", cpm_muram_avail() > 0x2400);

	printf("offsets no block starts at (ignored):\n");
	cpm_muram_free(-ENOMEM);
	cpm_muram_free(0x8010);		/* inside the tx descriptors */
	cpm_muram_free(0x5000);		/* in the hole between the ranges */
	cpm_muram_free(0xa000);		/* past the MURAM */
	cpm_muram_free_addr(NULL);
	expect_num("free MURAM unchanged", cpm_muram_avail(), avail);

	printf("addresses:\n");
	sdma_addr = cpm_muram_addr((unsigned long)sdma);
	expect_num("cpm_muram_offset(cpm_muram_addr(SDMA area))",
		   cpm_muram_offset(sdma_addr), 0x9000);
	expect_num("cpm_muram_dma(its address)", cpm_muram_dma(sdma_addr), MURAM_PHYS + 0x9000);
	cpm_muram_free_addr(sdma_addr);
	expect_num("free MURAM after cpm_muram_free_addr", cpm_muram_avail(), avail + 0x200);

	printf("teardown:\n");
	cpm_muram_free(tx_bd);
	cpm_muram_free(rx_bd);
	cpm_muram_free(tiny);
	cpm_muram_free(pram2);
	cpm_muram_free(big);
	expect_num("free MURAM: all but the reservation", cpm_muram_avail(), MURAM_BYTES - 0x80);
	expect_count("4 threads, 200 rounds of 8 blocks: failed checks", (long)churn(), 0);
	expect_num("free MURAM: all back", cpm_muram_avail(), MURAM_BYTES - 0x80);
	expect_count("cpm_muram_exit: blocks left (the reservation)", cpm_muram_exit(), 1);

	printf("a MURAM of one 64 KiB range, a reservation at 0x100:\n");
	expect_count("init", cpm_muram_init(&data_only_64k), 0);
	kernel_at = cpm_muram_alloc_fixed_kernel(0x100, 0x80);
	expect_off("the kernel's arithmetic: 32 KiB off", kernel_at, 0x8100);
	port_at = cpm_muram_alloc_fixed(0x100, 0x80);
	expect_off("the port", port_at, 0x100);
	cpm_muram_free(kernel_at);
	cpm_muram_free(port_at);
	expect_count("cpm_muram_exit: blocks left", cpm_muram_exit(), 0);
	expect_count("genalloc reports", reports, 0);
	if (checking)
		printf("%s\n", failures ? "muram: FAILED" : "muram: every offset as expected");
	return failures != 0;
}
