// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * bench/engine_modern.c - the kernel's bitmap engine, used natively.
 *
 * Ten configurations: first fit, best fit and first fit order-aligned, each
 * at granules of 8, 16 and 32 bytes, and instant fit at 8 bytes.  Growing
 * pools add a chunk from the shared source whenever a request fails, which is what a kernel driver does
 * with gen_pool_add() when it owns more memory; fixed pools get their whole
 * capacity as one range, or as many equal chunks when the configuration
 * asks (genalloc-speed --chunks).  The engine never touches the managed memory, so
 * it is given fake addresses when the configuration allows.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>

#include "engine.h"

#include "modern/genalloc.h"

/* Page alignment, as gen_pool_dma_alloc_align() callers ask for it. */
static struct genpool_data_align page_align = { .align = 4096 };

/* Bit 5 of an engine's arg: gen_pool_instant_fit instead of arg & 3. */
#define INSTANT 32
/* Bit 6: every request through gen_pool_xalloc(), arg & 3 naming the
 * constraint (XALIGN, XNOCROSS, XWINDOW); the pool's algorithm is unused. */
#define XALLOC 64
enum { XALIGN, XNOCROSS, XWINDOW };

/* xa8's alignment and phase, xn8's window (at least). */
#define XA_ALIGN 64
#define XA_PHASE 0
#define XN_NOCROSS ((size_t)64 << 10)

static genpool_algo_t algo_of(int which)
{
	if (which & INSTANT)
		return gen_pool_instant_fit;
	switch (which & 3) {
	case 1:
		return gen_pool_best_fit;
	case 2:
		return gen_pool_first_fit_order_align;
	case 3:
		return gen_pool_first_fit_align;
	default:
		return gen_pool_first_fit;
	}
}

/*
 * A fixed pool as many windows, as a driver with several device regions
 * adds them: equal chunks in address order, a gap between each two.
 */
static int add_chunks(struct bench_pool *p, struct gen_pool *gp)
{
	size_t i;

	for (i = 0; i < p->layout.nr; i++)
		if (gen_pool_add(gp, p->chunks.base + i * p->layout.stride, p->layout.size, -1))
			return -1;
	p->chunks.obtained = p->layout.nr * p->layout.size;
	return 0;
}

/* xw8: a fixed pool of one range twice the capacity, of which only the
 * middle half, the capacity, is in the window. */
static bool windowed(const struct bench_engine *e)
{
	return (e->arg & XALLOC) && (e->arg & 3) == XWINDOW;
}

static struct bench_pool *modern_create(const struct bench_engine *e,
					const struct bench_pool_config *cfg)
{
	struct bench_pool *p = calloc(1, sizeof(*p));
	struct gen_pool *gp;
	size_t range = cfg->capacity;

	if (!p)
		return NULL;
	p->engine = e;
	p->cfg = *cfg;
	if (windowed(e)) {
		if (cfg->regime != BENCH_FIXED || cfg->nr_chunks > 1 || range > SIZE_MAX / 2)
			goto fail;
		range *= 2;
	}
	if (cfg->regime == BENCH_FIXED && cfg->nr_chunks > 1) {
		/* Reserve the chunks and their gaps, page-aligned. */
		if (bench_chunk_layout(&p->layout, cfg->capacity, cfg->nr_chunks,
				       (size_t)1 << e->arg2) ||
		    bench_chunks_init(&p->chunks, BENCH_CHUNK_PAGE,
				      p->layout.nr * p->layout.stride, cfg->fake))
			goto fail;
	} else if (bench_chunks_init(&p->chunks, cfg->chunk_size, range, cfg->fake)) {
		goto fail;
	}
	/* Bit 3: created by <linux/genalloc.h>, lock-free by its default. */
	gp = e->arg & 8 ? bench_linux_gen_pool_create(e->arg2) : gen_pool_create(e->arg2, -1);
	if (!gp)
		goto fail_chunks;
	gen_pool_set_algo(gp, algo_of(e->arg),
			  !(e->arg & (INSTANT | XALLOC)) && (e->arg & 3) == 3 ? &page_align : NULL);
	/* Bit 2: the kernel's own path, lock-free with a linear search. */
	if (!(e->arg & 8))
		gen_pool_set_lockless(gp, e->arg & 4);
	/* Bit 4: block records, to weigh them against the same pool without
	 * (and every pool that is to be dumped). */
	if ((e->arg & 16 || cfg->blocks) && gen_pool_use_block_records(gp))
		goto fail_pool;
	p->impl = gp;
	if (cfg->regime == BENCH_FIXED && cfg->nr_chunks > 1) {
		if (add_chunks(p, gp))
			goto fail_pool;
	} else if (cfg->regime != BENCH_GROWING) {
		/* One range of the whole capacity, as a fixed device window. */
		p->chunks.obtained = cfg->capacity;
		if (gen_pool_add(gp, p->chunks.base, range, -1))
			goto fail_pool;
	}
	return p;
fail_pool:
	gen_pool_destroy(gp);
fail_chunks:
	bench_chunks_release(&p->chunks);
fail:
	free(p);
	return NULL;
}

/* The xalloc engines' constraints for a request of @size bytes. */
static void constraints_of(const struct bench_pool *p, size_t size,
			   struct gen_pool_constraints *c)
{
	size_t w = XN_NOCROSS;

	*c = (struct gen_pool_constraints){ 0 };
	switch (p->engine->arg & 3) {
	case XALIGN:
		c->align = XA_ALIGN;
		c->phase = XA_PHASE;
		break;
	case XNOCROSS:
		/* A request larger than the window gets the smallest window that
		 * holds it, since a larger size is refused. */
		while (w < size)
			w *= 2;
		c->nocross = w;
		break;
	default:
		c->minaddr = p->chunks.base + p->cfg.capacity / 2;
		c->maxaddr = c->minaddr + p->cfg.capacity;
		break;
	}
}

static unsigned long modern_alloc(struct bench_pool *p, size_t size)
{
	struct gen_pool *gp = p->impl;
	struct gen_pool_constraints c;
	unsigned long addr, chunk;

	if (p->engine->arg & XALLOC) {
		constraints_of(p, size, &c);
		return gen_pool_xalloc(gp, size, &c);
	}
	addr = gen_pool_alloc(gp, size);

	if (addr || p->cfg.regime != BENCH_GROWING || size > p->cfg.chunk_size)
		return addr;
	chunk = bench_chunks_get(&p->chunks);
	if (!chunk || gen_pool_add(gp, chunk, p->cfg.chunk_size, -1))
		return 0;
	return gen_pool_alloc(gp, size);
}

static void modern_free(struct bench_pool *p, unsigned long addr, size_t size)
{
	gen_pool_free(p->impl, addr, size);
}

static size_t modern_granted(const struct bench_pool *p, size_t size)
{
	size_t g = (size_t)1 << p->engine->arg2;

	return (size + g - 1) & ~(g - 1);
}

static void modern_stats(struct bench_pool *p, struct bench_stats *st)
{
	struct gen_pool_stats s;

	gen_pool_stats(p->impl, &s);
	st->obtained = p->chunks.obtained;
	st->free_bytes = s.avail;
	/* Outside xw8's window nothing is ever handed out. */
	if (windowed(p->engine))
		st->free_bytes -= p->cfg.capacity;
	st->largest_free = s.largest_free;
	st->metadata = s.metadata_bytes;
}

static int modern_dump(struct bench_pool *p, FILE *f)
{
	return gen_pool_dump(p->impl, f, GENALLOC_DUMP_JSON);
}

static void modern_destroy(struct bench_pool *p)
{
	gen_pool_destroy(p->impl);
	bench_chunks_release(&p->chunks);
	free(p);
}

/*
 * The lock-free engines time the kernel's linear search, but fill on the
 * index: the two place identically (the library tests it), so the pool a
 * fill leaves is the same and a 64 MiB fill takes a second, not a minute.
 */
static void modern_measured(struct bench_pool *p, int on)
{
	if (p->engine->arg & 4)
		gen_pool_set_lockless(p->impl, on);
}

#define MODERN(nm, algo, order, d) \
	{ nm, "modern", d, modern_create, modern_alloc, modern_free, \
	  modern_granted, modern_stats, modern_destroy, NULL, algo, order, modern_measured, \
	  modern_dump }

const struct bench_engine bench_engines_modern[] = {
	MODERN("ff8", 0, 3, "modern bitmap, gen_pool_first_fit, 8-byte granule"),
	MODERN("ff16", 0, 4, "modern bitmap, gen_pool_first_fit, 16-byte granule"),
	MODERN("ff32", 0, 5, "modern bitmap, gen_pool_first_fit, 32-byte granule"),
	MODERN("bf8", 1, 3, "modern bitmap, gen_pool_best_fit, 8-byte granule"),
	MODERN("bf16", 1, 4, "modern bitmap, gen_pool_best_fit, 16-byte granule"),
	MODERN("bf32", 1, 5, "modern bitmap, gen_pool_best_fit, 32-byte granule"),
	MODERN("ffo8", 2, 3, "modern bitmap, gen_pool_first_fit_order_align, 8-byte granule"),
	MODERN("ffo16", 2, 4, "modern bitmap, gen_pool_first_fit_order_align, 16-byte granule"),
	MODERN("ffo32", 2, 5, "modern bitmap, gen_pool_first_fit_order_align, 32-byte granule"),
	MODERN("if8", INSTANT, 3, "modern bitmap, gen_pool_instant_fit, 8-byte granule"),
};
const size_t bench_nr_engines_modern =
	sizeof(bench_engines_modern) / sizeof(bench_engines_modern[0]);

/*
 * The same pools on the kernel's lock-free path (gen_pool_set_lockless()):
 * the linear bitmap search the index replaces, with the same addresses.
 * genalloc-speed measures the index against them.
 */
const struct bench_engine bench_engines_modern_lockless[] = {
	MODERN("kff8", 4, 3, "modern, kernel lock-free path (linear search), first fit, 8-byte granule"),
	MODERN("kbf8", 5, 3, "modern, kernel lock-free path (linear search), best fit, 8-byte granule"),
	MODERN("kffo8", 6, 3, "modern, kernel lock-free path (linear search), order-aligned, 8-byte granule"),
	/* The default of kernel code, through <linux/genalloc.h>. */
	MODERN("lxff8", 12, 3, "modern via <linux/genalloc.h> (its lock-free default), first fit, 8-byte granule"),
	MODERN("lxbf8", 13, 3, "modern via <linux/genalloc.h> (its lock-free default), best fit, 8-byte granule"),
	MODERN("lxffo8", 14, 3, "modern via <linux/genalloc.h> (its lock-free default), order-aligned, 8-byte granule"),
	MODERN("lxffa8", 15, 3, "modern via <linux/genalloc.h> (its lock-free default), first_fit_align to 4096 bytes"),
};
const size_t bench_nr_engines_modern_lockless =
	sizeof(bench_engines_modern_lockless) / sizeof(bench_engines_modern_lockless[0]);

/*
 * First fit aligned to a page, indexed and on the kernel's path: for
 * genalloc-speed only (genalloc-compare's footprints would add nothing).
 */
const struct bench_engine bench_engines_modern_page[] = {
	MODERN("ffa8", 3, 3, "modern bitmap, gen_pool_first_fit_align to 4096 bytes, 8-byte granule"),
	MODERN("kffa8", 7, 3, "modern, kernel lock-free path (linear search), first_fit_align to 4096 bytes"),
};
const size_t bench_nr_engines_modern_page =
	sizeof(bench_engines_modern_page) / sizeof(bench_engines_modern_page[0]);

/*
 * The indexed pools with block records (gen_pool_use_block_records()):
 * genalloc-speed times them only when named (-e rff8,...), against the
 * same pools without.
 */
const struct bench_engine bench_engines_modern_records[] = {
	MODERN("rff8", 16, 3, "modern bitmap with block records, first fit, 8-byte granule"),
	MODERN("rbf8", 17, 3, "modern bitmap with block records, best fit, 8-byte granule"),
	MODERN("rffo8", 18, 3, "modern bitmap with block records, order-aligned, 8-byte granule"),
};
const size_t bench_nr_engines_modern_records =
	sizeof(bench_engines_modern_records) / sizeof(bench_engines_modern_records[0]);

/*
 * Every request through gen_pool_xalloc() with one constraint, on an
 * indexed pool: genalloc-speed times them only when named (-e xa8,...),
 * against first fit, whose placement they share when unconstrained.
 */
const struct bench_engine bench_engines_modern_xalloc[] = {
	MODERN("xa8", XALLOC | XALIGN, 3,
	       "modern, gen_pool_xalloc with align 64, phase 0, 8-byte granule"),
	MODERN("xn8", XALLOC | XNOCROSS, 3,
	       "modern, gen_pool_xalloc with nocross 64 KiB (or the size's power of two)"),
	MODERN("xw8", XALLOC | XWINDOW, 3,
	       "modern, gen_pool_xalloc in [minaddr, maxaddr), the middle half of twice the pool"),
};
const size_t bench_nr_engines_modern_xalloc =
	sizeof(bench_engines_modern_xalloc) / sizeof(bench_engines_modern_xalloc[0]);
