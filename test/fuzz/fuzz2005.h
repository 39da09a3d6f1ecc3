/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * test/fuzz/fuzz2005.h - the driver the legacy and compat harnesses share:
 * both fuzz the 2005 API (int sizes, a get_new_chunk callback, donations by
 * free) with the same input language, the same misuse and the same checks.
 * A harness describes its engine in a struct f5_engine (how to call it, how
 * to read its state, what else to check) and hands each input to
 * f5_run_input().
 *
 * Input: three header bytes (b0: chunk shift 7..14 and whatever else the
 * engine reads from it, b1: chunks the callback may give, b2: prefill and
 * engine options), then operations: allocations of any size, frees with any
 * size of the same rounding, donations, bad chunks from the callback and
 * deliberate misuse.  After every step the checker must pass and the
 * statistics must match the shadow and the placement model; a refused call
 * must report exactly the documented code and change nothing.
 */
#ifndef GENALLOC_TEST_FUZZ_FUZZ2005_H
#define GENALLOC_TEST_FUZZ_FUZZ2005_H

#include "fuzz.h"
#include "test/legacy/model2005.h"

#define F5_MAX_LIVE		1024
#define F5_DONATION_CHUNKS	3

struct gen_pool;	/* the legacy or the compat one: the driver never looks in */

enum f5_bad_chunk { F5_GOOD, F5_MISALIGNED, F5_OVERLAPPING, F5_WRAPPING };

/** struct f5_supply - the get_new_chunk callback's state (pool->private) */
struct f5_supply {
	unsigned long base, chunk;
	int limit, given, calls;
	enum f5_bad_chunk bad;		/* what the next call returns */
	enum f5_bad_chunk last_kind;	/* what the last call returned */
	unsigned long last;
};

/** f5_supply_next() - the callback's answer; the harness's callback calls it */
unsigned long f5_supply_next(struct f5_supply *s);

/**
 * struct f5_state - what a refused call must leave bit-for-bit alone, and
 * what check_pool compares: the engine's statistics, plus the list heads
 * where the engine shows them (zero otherwise).
 */
struct f5_state {
	unsigned long obtained_bytes, donated_bytes, free_bytes, largest_free;
	unsigned long metadata_bytes;
	unsigned long nr_free[32];
	unsigned long heads[M5_MAX_ORDERS];
};

struct f5_run;

/**
 * struct f5_model - where the next block must go.  The driver's own
 * f5_lists_model is the 2005 free lists (m5_*); an engine with another
 * placement rule brings its own.  add/release are called after the shadow
 * has been updated.
 */
struct f5_model {
	int lists;	/* the 2005 lists are the model: check free bytes against them */
	int (*has)(const struct f5_run *r, int order);
	unsigned long (*take)(struct f5_run *r, int order);
	unsigned long (*largest)(const struct f5_run *r);
	void (*add)(struct f5_run *r, unsigned long a, int order);
	void (*release)(struct f5_run *r, unsigned long a, int order);
};

extern const struct f5_model f5_lists_model;

/** struct f5_engine - one API under test */
struct f5_engine {
	/* the chunk shift (before adding 7) from header byte 0 */
	int (*shift_of)(unsigned b0);
	/* make the pool (prefill chunks from &r->sup); may set r->model */
	struct gen_pool *(*create)(struct f5_run *r, int prefill);
	/* after the prefill reached the model: options from the header */
	void (*configure)(struct f5_run *r);
	unsigned long (*alloc)(struct gen_pool *pool, int size);
	void (*free)(struct gen_pool *pool, unsigned long addr, int size);
	void (*destroy)(struct gen_pool *pool);
	int (*check)(struct gen_pool *pool);
	void (*state)(const struct f5_run *r, struct f5_state *st);
	void (*for_each_region)(struct gen_pool *pool,
				void (*fn)(struct gen_pool *pool, unsigned long addr,
					   unsigned long size, int from_callback, void *data),
				void *data);
	/* what else must hold after every step (NULL: nothing) */
	void (*check_more)(const struct f5_run *r, const struct f5_state *st);
	/* op byte % 16: [11, donate_end) donates, [donate_end, misuse_end)
	 * misuses, the rest calls extra_op */
	unsigned donate_end, misuse_end;
	void (*extra_op)(struct f5_run *r);
};

/** struct f5_run - one input's world */
struct f5_run {
	const struct f5_engine *eng;
	const struct f5_model *model;
	struct fuzz_in in;
	unsigned hdr[3];		/* the header bytes */
	struct gen_pool *pool;
	struct f5_supply sup;
	struct m5_lists m;
	struct shadow sh;
	unsigned long chunk, donated, donation_area;
	int shift;
	struct m5_block live[F5_MAX_LIVE];
	int nr_live;
};

/**
 * f5_run_input() - set up, run every operation of @data, drain, destroy.
 * @r must be zeroed by the caller; it may be the first member of a larger
 * struct that holds the engine's own model.
 */
void f5_run_input(struct f5_run *r, const struct f5_engine *eng,
		  const uint8_t *data, size_t size);

#endif /* GENALLOC_TEST_FUZZ_FUZZ2005_H */
