/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * modern/sizeclass_internal.h - free runs by size class, for best fit (not
 * installed); modern/sizeclass.c states the design.
 */
#ifndef GENALLOC_MODERN_SIZECLASS_INTERNAL_H
#define GENALLOC_MODERN_SIZECLASS_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>

#include "index_internal.h"

struct modern_sizeclass;

/** modern_sc_bytes() - bookkeeping for a chunk of @nbits granules */
size_t modern_sc_bytes(unsigned long nbits);

/** modern_sc_create() - classify every free run of @map, or NULL (no memory) */
struct modern_sizeclass *modern_sc_create(const unsigned long *map, unsigned long nbits);

/** modern_sc_destroy() - free it (NULL is a no-op) */
void modern_sc_destroy(struct modern_sizeclass *sc);

/**
 * modern_sc_best_fit() - the smallest maximal free run holding @nr, the
 * lowest on ties; refills the heads it finds empty, clearing the stale
 * bits it meets
 * @run_end: receives the run's end (its first used bit), so that the claim
 *           need not look for it; untouched when there is no run
 *
 * Return: its first bit, or MODERN_INDEX_NONE.
 */
unsigned long modern_sc_best_fit(struct modern_sizeclass *sc, const struct modern_index *ix,
				 const unsigned long *map, unsigned long nr,
				 unsigned long *run_end);

/**
 * modern_best_fit() - the smallest maximal run of clear bits holding @nr,
 * the lowest on ties (gen_pool_best_fit()'s answer), through the index
 *
 * The first call builds the size classes and attaches them to the index,
 * which feeds them every change from then on; without memory for them,
 * the runs that can hold @nr are walked in address order instead.
 * *@run_end receives the run's end, for modern_index_claim_run(); it is
 * untouched when there is no run.
 *
 * Return: the run's first bit, or MODERN_INDEX_NONE.
 */
unsigned long modern_best_fit(struct modern_index *ix, const unsigned long *map,
			      unsigned long nr, unsigned long *run_end);

/* Called with each run [@start, @end) that modern_sc_visit_runs() finds. */
typedef void (*modern_sc_visit_fn)(void *arg, unsigned long start, unsigned long end);

/**
 * modern_sc_visit_runs() - every run of at least @nr clear bits that
 * starts in [@lo, @limit), in address order
 * @ix:    the index
 * @map:   its bitmap
 * @lo:    first bit of the stretch; a run through it that starts below it
 *         is not visited
 * @limit: runs must start below it
 * @nr:    shortest run to visit, > 0
 * @visit: called with each run, whole (its end may lie past @limit)
 * @arg:   passed to @visit
 *
 * The walk a refill makes over the index's leaves.  Reads only the blocks of 256 bits in [@lo, @limit) that start such a
 * run, and the full map for the ends of runs that leave their block.
 */
void modern_sc_visit_runs(const struct modern_index *ix, const unsigned long *map,
			     unsigned long lo, unsigned long limit, unsigned long nr,
			     modern_sc_visit_fn visit, void *arg);

/**
 * modern_best_fit_claim() - modern_best_fit(), and the size classes told
 * of the claim of its answer, [answer, answer + @nr) out of the run that
 * ends at *@run_end
 *
 * For the pool's best-fit path, which claims the answer at once and then
 * tells the index with modern_index_claim_run(..., 1U << MODERN_INDEX_CLASSES):
 * the classes learn of the claim from their own search, and the index
 * does not call back up into them.
 *
 * Return: the run's first bit, or MODERN_INDEX_NONE (nothing told).
 */
unsigned long modern_best_fit_claim(struct modern_index *ix, const unsigned long *map,
				    unsigned long nr, unsigned long *run_end);

/**
 * modern_sc_verify() - does every class agree with @map: its count, its
 * bound, its head exactly the runs before its horizon, every run marked in
 * its row?  (Stale extra marks are allowed: refills clear them.)
 */
bool modern_sc_verify(struct modern_sizeclass *sc, const unsigned long *map);

/**
 * modern_sc_get() - the index's size classes, built and attached on first
 * use as best fit does; NULL without memory
 */
struct modern_sizeclass *modern_sc_get(struct modern_index *ix, const unsigned long *map);

/**
 * modern_sc_any_at_least() - some maximal free run of at least @len bits
 * that a class's head holds (instant fit's answer), without a search
 * @start:   receives its first bit
 * @run_end: receives its end
 *
 * Return: false when no head holds such a run.
 */
bool modern_sc_any_at_least(struct modern_sizeclass *sc, unsigned long len,
			    unsigned long *start, unsigned long *run_end);

#endif /* GENALLOC_MODERN_SIZECLASS_INTERNAL_H */
