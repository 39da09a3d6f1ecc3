// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * examples/gpuvm/main.c - a GPU address space (gpuvm.h) on a page
 * allocator that straddles the 4 GiB boundary, told as a story.
 *
 *   gpuvm           run the story and print what happened at each step
 *   gpuvm --check   the same, verifying every address, the pages held,
 *                   imported and released after each step, that no command
 *                   buffer crosses a 4 GiB boundary and that the parent
 *                   ends empty; exit status 0 if all hold
 *
 * The page allocator is a pool of 64 KiB granules over 64 MiB from
 * 0xff800000, 8 MiB below 4 GiB.  Firmware keeps its first 1 MiB, so the
 * 2 MiB pages it then hands out start at odd megabytes and the fourth,
 * 0xfff00000, runs from 1 MiB below 4 GiB to 1 MiB above.  In that page an
 * ordinary 512 KiB buffer lands across the boundary, and a command buffer
 * of the same size does not.  Every address below follows from first fit
 * in the newest page and the parent's own first fit; the comments work
 * them out.
 */
#include <stdio.h>
#include <string.h>

#include "gpuvm.h"

#define KiB (1UL << 10)
#define MiB (1UL << 20)

#define PARENT_ORDER	16		/* 64 KiB */
#define FIRMWARE	(1 * MiB)

struct story {
	struct gen_pool *parent;
	unsigned long parent_base;
	size_t parent_size;
	struct gpuvm vm;
	size_t held;		/* pages held after the last step */
	int imported, released;
	bool checking;
	int failures;
};

static void fail(struct story *s, const char *what, unsigned long got, unsigned long want)
{
	if (s->checking && s->failures++ < 20)
		printf("  CHECK FAILED: %s (got %#lx, want %#lx)\n", what, got, want);
}

static const char *human(size_t bytes, char *buf, size_t len)
{
	if (bytes >= MiB && !(bytes % MiB))
		snprintf(buf, len, "%zu MiB", bytes / MiB);
	else
		snprintf(buf, len, "%zu KiB", bytes / KiB);
	return buf;
}

/* After a step: the pages held now, and what came in or went back. */
static void pages(struct story *s, size_t want_held, int want_imported, int want_released)
{
	size_t held = gpuvm_pages(&s->vm);

	if (held > s->held)
		s->imported += (int)(held - s->held);
	else
		s->released += (int)(s->held - held);
	s->held = held;
	printf("      pages held %zu (imported %d, released %d so far); parent free %zu MiB\n",
	       held, s->imported, s->released, gen_pool_avail(s->parent) / MiB);
	if (held != want_held)
		fail(s, "pages held", held, want_held);
	if (s->imported != want_imported)
		fail(s, "pages imported", (unsigned long)s->imported, (unsigned long)want_imported);
	if (s->released != want_released)
		fail(s, "pages released", (unsigned long)s->released, (unsigned long)want_released);
	/* The pages the address space holds are the parent's missing ones. */
	if (gen_pool_avail(s->parent) != s->parent_size - FIRMWARE - held * GPUVM_PAGE)
		fail(s, "parent's free bytes", gen_pool_avail(s->parent),
		     s->parent_size - FIRMWARE - held * GPUVM_PAGE);
}

static bool crosses_4g(unsigned long addr, size_t size)
{
#if GPUVM_HAS_CMD_WINDOW
	return addr / GPUVM_CMD_WINDOW != (addr + size - 1) / GPUVM_CMD_WINDOW;
#else
	(void)addr;
	(void)size;
	return false;
#endif
}

/* A buffer of @size for @what (a command buffer if @cmd), expected at @want. */
static unsigned long buffer(struct story *s, const char *what, size_t size, bool cmd,
			    unsigned long want)
{
	unsigned long a = cmd ? gpuvm_alloc_cmd(&s->vm, size) : gpuvm_alloc(&s->vm, size);
	char sz[16];

	printf("  %-30s %7s at %#11lx%s\n", what, human(size, sz, sizeof(sz)), a,
	       crosses_4g(a, size) ? ", across 4 GiB" : "");
	if (a != want)
		fail(s, what, a, want);
	if (cmd && crosses_4g(a, size))
		fail(s, "a command buffer's end past its 4 GiB window", a + size,
		     (a | (GPUVM_CMD_WINDOW - 1)) + 1);
	return a;
}

static void release(struct story *s, const char *what, unsigned long addr, size_t size)
{
	char sz[16];

	printf("  free %-25s %7s at %#11lx\n", what, human(size, sz, sizeof(sz)), addr);
	gpuvm_free(&s->vm, addr, size);
}

static void run(struct story *s)
{
	unsigned long t1, t2, t3, t4, v, scratch, c1, u, c2, k;

	printf("1. Three 2 MiB textures: a page each, in the parent's first fit order.\n");
	t1 = buffer(s, "texture 1", 2 * MiB, false, 0xff900000);
	t2 = buffer(s, "texture 2", 2 * MiB, false, 0xffb00000);
	t3 = buffer(s, "texture 3", 2 * MiB, false, 0xffd00000);
	pages(s, 3, 3, 0);

	printf("2. A 768 KiB vertex buffer: a fourth page, 0xfff00000..0x100100000,\n"
	       "   across 4 GiB; the buffer takes its first 768 KiB.\n");
	v = buffer(s, "vertex buffer", 768 * KiB, false, 0xfff00000);
	pages(s, 4, 4, 0);

	printf("3. An ordinary 512 KiB buffer goes to the first free address of the\n"
	       "   newest page, 256 KiB below 4 GiB: across the boundary.  Freed again.\n");
	scratch = buffer(s, "scratch buffer", 512 * KiB, false, 0xfffc0000);
	if (!crosses_4g(scratch, 512 * KiB))
		fail(s, "the scratch buffer does not cross 4 GiB", scratch, 0xfffc0000);
	release(s, "scratch buffer", scratch, 512 * KiB);
	pages(s, 4, 4, 0);

	printf("4. A 512 KiB command buffer in the same place must not cross: it goes\n"
	       "   to 4 GiB itself, and the 256 KiB below stays free.\n");
	c1 = buffer(s, "command buffer 1", 512 * KiB, true, 0x100000000);
	pages(s, 4, 4, 0);

	printf("5. A 256 KiB uniform buffer fills that hole.\n");
	u = buffer(s, "uniform buffer", 256 * KiB, false, 0xfffc0000);
	pages(s, 4, 4, 0);

	printf("6. A 1 MiB command buffer: no page has room (512 KiB is left in the\n"
	       "   fourth), so one more page comes in, wholly above 4 GiB.\n");
	c2 = buffer(s, "command buffer 2", 1 * MiB, true, 0x100100000);
	pages(s, 5, 5, 0);

	printf("7. A 4 KiB constant buffer: first fit in the newest page.\n");
	k = buffer(s, "constant buffer", 4 * KiB, false, 0x100200000);
	pages(s, 5, 5, 0);

	printf("8. Texture 1 freed: its page is empty and goes back to the parent.\n");
	release(s, "texture 1", t1, 2 * MiB);
	pages(s, 4, 5, 1);

	printf("9. A fourth texture: the parent hands out its lowest free page, the same.\n");
	t4 = buffer(s, "texture 4", 2 * MiB, false, 0xff900000);
	pages(s, 5, 6, 1);

	printf("10. Everything freed: each page goes back as its last buffer leaves.\n");
	release(s, "texture 2", t2, 2 * MiB);
	release(s, "texture 3", t3, 2 * MiB);
	pages(s, 3, 6, 3);
	release(s, "command buffer 1", c1, 512 * KiB);
	release(s, "vertex buffer", v, 768 * KiB);
	pages(s, 3, 6, 3);
	release(s, "uniform buffer", u, 256 * KiB);
	pages(s, 2, 6, 4);
	release(s, "command buffer 2", c2, 1 * MiB);
	release(s, "constant buffer", k, 4 * KiB);
	pages(s, 1, 6, 5);
	release(s, "texture 4", t4, 2 * MiB);
	pages(s, 0, 6, 6);
}

int main(int argc, char **argv)
{
	struct story s = { .parent_base = 0xff800000UL, .parent_size = 64 * MiB };
	unsigned long fw;

	s.checking = argc > 1 && !strcmp(argv[1], "--check");
#if !GPUVM_HAS_CMD_WINDOW
	/* The story's addresses pass 4 GiB. */
	printf("gpuvm: needs a 64-bit long; nothing to show\n");
	return 0;
#endif
	s.parent = gen_pool_create(PARENT_ORDER, NUMA_NO_NODE);
	if (!s.parent || gen_pool_add(s.parent, s.parent_base, s.parent_size, NUMA_NO_NODE)) {
		fprintf(stderr, "gpuvm: cannot create the page allocator\n");
		return 2;
	}
	fw = gen_pool_alloc(s.parent, FIRMWARE);
	if (fw != s.parent_base)
		fail(&s, "firmware reservation", fw, s.parent_base);
	if (gpuvm_init(&s.vm, s.parent)) {
		fprintf(stderr, "gpuvm: cannot create the address space\n");
		return 2;
	}
	printf("page allocator: 64 MiB at %#lx..%#lx, 64 KiB granules; firmware keeps\n"
	       "the first 1 MiB.  Address space: 4 KiB granules, 2 MiB pages imported\n"
	       "from it; command buffers never cross a 4 GiB boundary.\n\n",
	       s.parent_base, s.parent_base + s.parent_size);
	run(&s);

	gpuvm_destroy(&s.vm);
	gen_pool_free(s.parent, fw, FIRMWARE);
	printf("\nAddress space destroyed, firmware's 1 MiB freed: the parent has %zu MiB free.\n",
	       gen_pool_avail(s.parent) / MiB);
	if (gen_pool_avail(s.parent) != s.parent_size)
		fail(&s, "parent not empty at the end", gen_pool_avail(s.parent), s.parent_size);
	gen_pool_destroy(s.parent);
	if (s.checking)
		printf("gpuvm --check: %s\n", s.failures ? "FAILED" : "all hold");
	return s.failures ? 1 : 0;
}
