// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * examples/offsets/main.c - a GPU's virtual address space as a heap of
 * offsets (vaheap.h): 1 TiB at 4 KiB granules with no memory behind it,
 * filled with buffers, half of them freed, filled again, then emptied.
 *
 *   offsets           run and print each phase's statistics
 *   offsets --check   the same, verifying every offset's alignment, that no
 *                     two live buffers overlap, that the pool's counts agree
 *                     with the buffers, and that the heap ends empty; exit
 *                     status 0 if all hold
 *
 * Buffer sizes are log-uniform from 4 KiB to 1 GiB, and each buffer is
 * aligned to the largest GPU page it can be mapped with: 2 MiB pages from
 * 2 MiB up, 64 KiB pages from 64 KiB, 4 KiB pages below.  The heap's bias is
 * therefore 2 MiB.  The run starts by showing why, on two small heaps.
 *
 * Each phase prints the free bytes, the largest free block, the
 * fragmentation (the share of the free bytes outside the largest block)
 * and the pool's bookkeeping: for 1 TiB at 4 KiB, a 32 MiB bitmap and its
 * index, allocated once and never touching the heap.
 *
 * Under valgrind (GENALLOC_UNDER_VALGRIND set) the heap is 64 GiB and its
 * buffers 4 KiB to 64 MiB: the pool's statistics and checks read the whole
 * bitmap (32 MiB for 1 TiB), which valgrind reads slowly.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vaheap.h"

#define KiB (1UL << 10)
#define MiB (1UL << 20)

#define GRANULE_ORDER	12		/* 4 KiB */
#define MAX_ALIGN	(2 * MiB)	/* the largest GPU page: the bias */

/* A 1 TiB heap needs offsets wider than 32 bits; where long has 32, the
 * same run on 1 GiB with buffers up to 1 MiB. */
#if ULONG_MAX > 0xffffffffUL
#define HEAP_BYTES	(1UL << 40)
#define SIZE_OCTAVES	18		/* 4 KiB << 18 = 1 GiB */
#else
#define HEAP_BYTES	(1UL << 30)
#define SIZE_OCTAVES	8
#endif
/* The run under valgrind: heap and largest buffer 16 times smaller. */
#define VALGRIND_SHIFT	4

/* A phase stops filling after this many refusals in a row. */
#define GIVE_UP		64

struct buffer {
	unsigned long off;
	size_t size;
	unsigned long align;
};

struct run {
	struct va_heap heap;
	struct buffer *bufs;
	size_t nr, cap;
	unsigned long long rng;
	unsigned long heap_bytes;
	int octaves;		/* buffers from 4 KiB to 4 KiB << octaves */
	bool checking;
	int failures;
};

/* xorshift64*: the same buffers on every run. */
static unsigned long long rng_next(unsigned long long *s)
{
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * 2685821657736338717ULL;
}

static void fail(struct run *r, const char *what, unsigned long a, unsigned long b)
{
	if (r->checking && r->failures++ < 10)
		printf("  CHECK FAILED: %s (%#lx, %#lx)\n", what, a, b);
}

/* "1 TiB", "506.04 GiB", "4 KiB". */
static const char *human(size_t bytes, char *buf, size_t len)
{
	static const char *unit[] = { "B", "KiB", "MiB", "GiB", "TiB" };
	double v = (double)bytes;
	int u = 0;

	while (v >= 1024 && u < 4) {
		v /= 1024;
		u++;
	}
	snprintf(buf, len, v == (double)(size_t)v ? "%.0f %s" : "%.2f %s", v, unit[u]);
	return buf;
}

static unsigned long page_for(size_t size)
{
	if (size >= 2 * MiB)
		return 2 * MiB;
	if (size >= 64 * KiB)
		return 64 * KiB;
	return 4 * KiB;
}

static size_t rounded(size_t size)
{
	return (size + (1UL << GRANULE_ORDER) - 1) & ~((1UL << GRANULE_ORDER) - 1);
}

/* One buffer of a log-uniform size; false when the heap refuses it. */
static bool alloc_one(struct run *r)
{
	int octave = (int)(rng_next(&r->rng) % (unsigned)r->octaves);
	size_t base = (4 * KiB) << octave;
	size_t size = base + rng_next(&r->rng) % base;
	struct buffer b = { .size = size, .align = page_for(size) };

	if (!va_alloc(&r->heap, size, b.align, &b.off))
		return false;
	if (b.off & (b.align - 1))
		fail(r, "offset off its alignment", b.off, b.align);
	if (b.off >= r->heap_bytes || rounded(size) > r->heap_bytes - b.off)
		fail(r, "buffer outside the heap", b.off, size);
	if (r->nr == r->cap) {
		r->cap = r->cap ? 2 * r->cap : 4096;
		r->bufs = realloc(r->bufs, r->cap * sizeof(*r->bufs));
		if (!r->bufs) {
			perror("realloc");
			exit(2);
		}
	}
	r->bufs[r->nr++] = b;
	return true;
}

/* Allocate until the heap refuses GIVE_UP requests in a row. */
static size_t fill(struct run *r, size_t *refused)
{
	size_t got = 0;
	int in_a_row = 0;

	*refused = 0;
	while (in_a_row < GIVE_UP) {
		if (alloc_one(r)) {
			got++;
			in_a_row = 0;
		} else {
			(*refused)++;
			in_a_row++;
		}
	}
	return got;
}

/* Free buffer @i, moving the last one into its place. */
static void free_one(struct run *r, size_t i)
{
	va_free(&r->heap, r->bufs[i].off, r->bufs[i].size);
	r->bufs[i] = r->bufs[--r->nr];
}

/* Free each buffer with probability 1/@one_in (1: all), in random order. */
static void free_some(struct run *r, unsigned one_in)
{
	size_t i = r->nr;

	while (i-- > 0) {
		size_t j = rng_next(&r->rng) % (i + 1);
		struct buffer t = r->bufs[i];

		/* Shuffle as we go, so frees come in random order. */
		r->bufs[i] = r->bufs[j];
		r->bufs[j] = t;
		if (rng_next(&r->rng) % one_in == 0)
			free_one(r, i);
	}
}

static int by_offset(const void *a, const void *b)
{
	unsigned long x = ((const struct buffer *)a)->off;
	unsigned long y = ((const struct buffer *)b)->off;

	return x < y ? -1 : x > y;
}

/* Live buffers (in offset order) are disjoint, and the pool counts
 * exactly their bytes. */
static void check_live(struct run *r, const struct gen_pool_stats *st)
{
	size_t live = 0, i;

	for (i = 0; i < r->nr; i++) {
		live += rounded(r->bufs[i].size);
		if (i && r->bufs[i - 1].off + rounded(r->bufs[i - 1].size) > r->bufs[i].off)
			fail(r, "two buffers overlap", r->bufs[i - 1].off, r->bufs[i].off);
	}
	if (st->size - st->avail != live)
		fail(r, "pool's used bytes differ from the buffers'", st->size - st->avail, live);
	if (gen_pool_check(r->heap.pool))
		fail(r, "gen_pool_check", 0, 0);
}

static void print_stats(struct run *r, const char *phase, const char *detail)
{
	struct gen_pool_stats st;
	char a[32], b[32], c[32];
	double frag;

	/* In offset order at every phase's end, with --check or without: the
	 * same buffers are freed next either way. */
	if (r->nr)
		qsort(r->bufs, r->nr, sizeof(*r->bufs), by_offset);
	gen_pool_stats(r->heap.pool, &st);
	frag = st.avail ? 100.0 * (1.0 - (double)st.largest_free / (double)st.avail) : 0;
	printf("%-10s %-34s %8zu live\n", phase, detail, r->nr);
	printf("           free %s, largest free block %s, fragmentation %.2f%%\n",
	       human(st.avail, a, sizeof(a)), human(st.largest_free, b, sizeof(b)), frag);
	printf("           %zu free extents, bookkeeping %zu bytes (%s)\n",
	       st.nr_free_extents, st.metadata_bytes, human(st.metadata_bytes, c, sizeof(c)));
	if (r->checking)
		check_live(r, &st);
}

/* Where @algo would put 64 KiB now: allocated and given back at once. */
static unsigned long probe(struct gen_pool *pool, genpool_algo_t algo, void *data)
{
	unsigned long addr = gen_pool_alloc_algo(pool, 64 * KiB, algo, data);

	if (addr)
		gen_pool_free(pool, addr, 64 * KiB);
	return addr;
}

/*
 * The bias rule on a 1 MiB heap whose first 4 KiB is taken, asked where
 * 64 KiB at 64 KiB alignment would go: first_fit_align aligns the pool
 * address, order_align the position in the chunk.  At a bias of one granule
 * they disagree and first_fit_align's offset is off its alignment; at a
 * bias of the alignment both give the aligned offset.
 */
static void show_bias(struct run *r, unsigned long bias, unsigned long want_ffa,
		      unsigned long want_order)
{
	struct gen_pool *pool = gen_pool_create(GRANULE_ORDER, NUMA_NO_NODE);
	struct genpool_data_align al = { .align = 64 * KiB };
	unsigned long first, ffa, order;

	if (!pool || gen_pool_add(pool, bias, 1 * MiB, NUMA_NO_NODE)) {
		fail(r, "small pool", bias, 0);
		gen_pool_destroy(pool);
		return;
	}
	first = gen_pool_alloc(pool, 4 * KiB);
	ffa = probe(pool, gen_pool_first_fit_align, &al) - bias;
	order = probe(pool, gen_pool_first_fit_order_align, NULL) - bias;
	printf("bias %#8lx: 64 KiB at 64 KiB: first_fit_align offset %#7lx, "
	       "order_align offset %#7lx (address %#lx)\n", bias, ffa, order, order + bias);
	if (first != bias || ffa != want_ffa || order != want_order)
		fail(r, "bias demonstration", ffa, order);
	if (first)
		gen_pool_free(pool, first, 4 * KiB);
	gen_pool_destroy(pool);
}

int main(int argc, char **argv)
{
	struct run r = { .rng = 0x9e3779b97f4a7c15ULL };
	struct gen_pool_stats st;
	size_t got, refused;
	char buf[64], size_s[32];

	r.checking = argc > 1 && !strcmp(argv[1], "--check");
	r.heap_bytes = HEAP_BYTES;
	r.octaves = SIZE_OCTAVES;
	if (getenv("GENALLOC_UNDER_VALGRIND")) {
		r.heap_bytes >>= VALGRIND_SHIFT;
		r.octaves -= VALGRIND_SHIFT;
	}

	/* One granule of bias: 64 KiB aligned in the pool is 0xf000 in the
	 * heap; order_align counts from the chunk, so it is 0x10000 either way. */
	show_bias(&r, 4 * KiB, 0xf000, 0x10000);
	show_bias(&r, MAX_ALIGN, 0x10000, 0x10000);

	if (va_heap_init(&r.heap, r.heap_bytes, GRANULE_ORDER, MAX_ALIGN)) {
		fprintf(stderr, "offsets: cannot create the heap\n");
		return 2;
	}
	printf("heap: %s of offsets at 4 KiB granules, added at bias %#lx\n",
	       human(r.heap_bytes, size_s, sizeof(size_s)), r.heap.bias);
	print_stats(&r, "empty", "");

	got = fill(&r, &refused);
	snprintf(buf, sizeof(buf), "%zu allocated, %zu refused", got, refused);
	print_stats(&r, "full", buf);

	free_some(&r, 2);
	snprintf(buf, sizeof(buf), "a random half freed");
	print_stats(&r, "holes", buf);

	got = fill(&r, &refused);
	snprintf(buf, sizeof(buf), "%zu allocated, %zu refused", got, refused);
	print_stats(&r, "refilled", buf);

	free_some(&r, 1);
	print_stats(&r, "emptied", "all freed in random order");

	gen_pool_stats(r.heap.pool, &st);
	if (r.checking && (st.avail != r.heap_bytes || st.largest_free != r.heap_bytes ||
			   st.nr_free_extents != 1))
		fail(&r, "heap not empty at the end", st.avail, st.largest_free);
	va_heap_destroy(&r.heap);
	free(r.bufs);
	if (r.checking)
		printf("offsets --check: %s\n", r.failures ? "FAILED" : "all hold");
	return r.failures ? 1 : 0;
}
