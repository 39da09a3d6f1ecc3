/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * bench/engine.h - what the comparison needs from an allocator engine.
 *
 * Each engine header (legacy/, modern/, compat/) defines its own struct
 * gen_pool, so no file may include two of them.  Each one is wrapped in its
 * own adapter file (engine_legacy.c, engine_compat.c, engine_modern.c) that
 * exports a table of engines of this one shape; the drivers (compare.c,
 * speed.c) and the tests only ever see this header.
 */
#ifndef GENALLOC_BENCH_ENGINE_H
#define GENALLOC_BENCH_ENGINE_H

#include <stddef.h>
#include <stdio.h>

#include "chunks.h"

/** enum bench_regime - how a pool gets its memory */
enum bench_regime {
	BENCH_GROWING,	/* fixed-size chunks on demand; measure what it took */
	BENCH_FIXED,	/* one pool of a given capacity; measure how full it got */
	BENCH_ARENA,	/* one region never filled; measure the highest byte used */
	BENCH_NR_REGIMES
};

/**
 * struct bench_pool_config - the conditions every engine runs under
 * @regime:     growing or fixed
 * @chunk_size: bytes per chunk obtained through the callback (power of two)
 * @capacity:   fixed regime: the pool's bytes (a multiple of @chunk_size);
 *              growing regime: the most the memory source will give;
 *              arena regime: the region's bytes.  The 2005 API caps a
 *              chunk at 2^(PAGE_SHIFT + 10) bytes, so its engines get the
 *              region as chunks of @chunk_size laid out from one base and
 *              handed out in order by get_new_chunk; the modern engines get
 *              it as one range.  Either way the highest byte handed out is
 *              measured from the same base.
 * @fake:       the engine may use addresses with no memory behind them
 *              (only engines that never touch the managed memory honour it)
 * @nr_chunks:  fixed regime, modern engines only: hand the capacity over as
 *              this many equal chunks, one gen_pool_add() each
 *              (bench_chunk_layout()); 0 or 1: one range of the whole
 *              capacity.  Other engines ignore it.
 * @blocks:     the pool is to be dumped: a modern pool keeps block records
 *              (gen_pool_use_block_records()), so that its dump tells its
 *              blocks apart as the 2005 engines' do; placement is the same
 */
struct bench_pool_config {
	enum bench_regime regime;
	size_t chunk_size;
	size_t capacity;
	int fake;
	size_t nr_chunks;
	int blocks;
};

/**
 * struct bench_stats - one snapshot of a pool
 * @obtained:     bytes the pool holds (every chunk it was given)
 * @free_bytes:   bytes of those not handed out
 * @largest_free: the largest request that would succeed without growing
 *                (for the bitmap engines: the largest free extent)
 * @metadata:     bytes of bookkeeping outside the managed memory
 */
struct bench_stats {
	size_t obtained;
	size_t free_bytes;
	size_t largest_free;
	size_t metadata;
};

/**
 * struct bench_pool - a pool made by an engine, with its memory source
 * @engine: the engine that made it
 * @cfg:    the conditions it runs under
 * @chunks: where its memory comes from (and what that cost)
 * @layout: how a fixed modern pool was cut into chunks (@layout.nr is 0
 *          when it is one range); chunk i starts at
 *          @chunks.base + i * @layout.stride
 * @impl:   the engine's own pool
 */
struct bench_pool {
	const struct bench_engine *engine;
	struct bench_pool_config cfg;
	struct bench_chunks chunks;
	struct bench_chunk_layout layout;
	void *impl;
};

/**
 * struct bench_engine - one engine configuration, as the drivers see it
 * @name:     short name used on the command line and in tables
 * @family:   "buddy", "compat" or "modern" (the adapter that owns it)
 * @descr:    one line for --list
 * @create:   a new pool under @cfg, or NULL
 * @alloc:    an address, or 0 on failure (may grow the pool)
 * @free:     give back what @alloc returned, with the same size
 * @granted:  how many bytes a successful request of @size really takes
 * @stats:    a snapshot
 * @destroy:  free everything; only called with no live block
 * @set_slow: turn on the engine's slow reference path (buddy: the 2005
 *            linear free-list search); NULL if there is none
 * @arg:      adapter-private (algorithm, granule order, backend)
 * @measured: genalloc-speed calls it with 0 before it fills a pool and with
 *            1 before it times pairs: an engine whose measured path is slow
 *            but places like a fast one (the kernel's linear search) fills
 *            on the fast one; NULL if there is nothing to switch
 * @dump:     the pool's layout as JSON (common/dump.h) to @f, 0 on success;
 *            NULL for an engine that cannot tell it
 */
struct bench_engine {
	const char *name;
	const char *family;
	const char *descr;
	struct bench_pool *(*create)(const struct bench_engine *e,
				     const struct bench_pool_config *cfg);
	unsigned long (*alloc)(struct bench_pool *p, size_t size);
	void (*free)(struct bench_pool *p, unsigned long addr, size_t size);
	size_t (*granted)(const struct bench_pool *p, size_t size);
	void (*stats)(struct bench_pool *p, struct bench_stats *st);
	void (*destroy)(struct bench_pool *p);
	void (*set_slow)(struct bench_pool *p, int on);
	int arg;
	int arg2;
	void (*measured)(struct bench_pool *p, int on);
	int (*dump)(struct bench_pool *p, FILE *f);
};

/*
 * What the two 2005-API adapters share (bench/engine_2005.c): a pool shell
 * with its chunk source, the prefill count and chunk shift for @cfg, and the
 * 2005 rounding (the power of two at or above max(size, 32)).
 */
struct bench_pool *bench_pool_2005_new(const struct bench_engine *e,
				       const struct bench_pool_config *cfg,
				       int *nr_chunks, int *shift);
void bench_pool_2005_release(struct bench_pool *p);
size_t bench_granted_2005(const struct bench_pool *p, size_t size);

/* The adapters' tables. */
extern const struct bench_engine bench_engines_legacy[];
extern const size_t bench_nr_engines_legacy;
extern const struct bench_engine bench_engines_compat[];
extern const size_t bench_nr_engines_compat;
extern const struct bench_engine bench_engines_modern[];
extern const size_t bench_nr_engines_modern;

/*
 * Only genalloc-speed lists these (bench_speed_engine_list()): the modern
 * engine on the kernel's lock-free linear path, first fit aligned to a
 * page (ffa8, kffa8), and the two TLSF yardsticks (bench/engine_tlsf.c).
 */
extern const struct bench_engine bench_engines_modern_lockless[];
extern const size_t bench_nr_engines_modern_lockless;
extern const struct bench_engine bench_engines_modern_page[];
extern const struct bench_engine bench_engines_modern_records[];
extern const size_t bench_nr_engines_modern_records;
extern const size_t bench_nr_engines_modern_page;
/* gen_pool_xalloc() under each constraint: genalloc-speed -e xa8,xn8,xw8. */
extern const struct bench_engine bench_engines_modern_xalloc[];
extern const size_t bench_nr_engines_modern_xalloc;
extern const struct bench_engine bench_engines_tlsf[];
extern const size_t bench_nr_engines_tlsf;

/* A lock-free pool, as <linux/genalloc.h> creates it (bench/engine_linux.c). */
struct gen_pool *bench_linux_gen_pool_create(int min_alloc_order);

/*
 * And the harness (bench/engine_noop.c): an engine that does nothing, so
 * that timing it measures the bench loop alone.  In no list.
 */
extern const struct bench_engine bench_engine_noop;

/* More than the adapters export, so a list never needs to be cut. */
#define BENCH_MAX_ENGINES 32

/**
 * bench_engine_list() - every engine compiled in: buddy, compat, modern
 * @out: filled with up to @max engines, in that order (the first one is
 *       the reference the reports take ratios against)
 * @max: room in @out
 *
 * Return: how many engines there are (may exceed @max).
 */
size_t bench_engine_list(const struct bench_engine **out, size_t max);

/**
 * bench_engine_label() - what the engine is, in words: "buddy 2005",
 * "2005 API on bitmap", "bitmap first fit, 8 B"...; its name if it has no
 * such label.  The string stays valid for the next three calls.
 */
const char *bench_engine_label(const struct bench_engine *e);

/**
 * bench_engine_family() - the family the plots group it in: "buddy",
 * "compat", "first fit", "best fit", "order-aligned" (or its adapter's)
 */
const char *bench_engine_family(const struct bench_engine *e);

/** bench_engine_find() - the engine called @name, or NULL */
const struct bench_engine *bench_engine_find(const char *name);

#endif /* GENALLOC_BENCH_ENGINE_H */
