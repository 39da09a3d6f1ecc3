/* SPDX-License-Identifier: GPL-2.0 */
/*
 * modern/algo_internal.h - what the pool needs to know about the built-in
 * algorithms beyond their genpool_algo_t signature (not installed).
 */
#ifndef GENALLOC_MODERN_ALGO_INTERNAL_H
#define GENALLOC_MODERN_ALGO_INTERNAL_H

#include "genalloc.h"

/**
 * modern_algo_data_ok() - validate a built-in algorithm's data once per call
 * @algo: the algorithm about to be used
 * @data: its data
 * @pool: the pool (for the granule size and the report)
 *
 * The algorithms check their data themselves, but they run once per chunk;
 * the pool checks first so that one bad request gives one WARN and no
 * chunk is searched.
 *
 * Return: true if @data suits @algo (always, for algorithms without data);
 * false after a WARN EINVAL naming the algorithm.
 */
bool modern_algo_data_ok(genpool_algo_t algo, const void *data,
			 const struct gen_pool *pool);

/**
 * modern_algo_indexed() - a built-in algorithm's answer through the index
 * @algo:  the algorithm
 * @data:  its data, already validated by modern_algo_data_ok()
 * @pool:  the pool
 * @chunk: the chunk, with an index that matches its bitmap
 * @nr:    granules wanted
 * @bit:   receives the first granule, or a value >= chunk->nbits for none
 * @run_end: receives, when the search learnt it, the end of the free run
 *         that @bit starts (for modern_index_claim_run()), else
 *         MODERN_INDEX_NONE
 *
 * Gives exactly what @algo(chunk->bits, chunk->nbits, 0, @nr, ...) returns
 * (a failure being any value >= nbits), without scanning the bitmap.
 *
 * Return: false if @algo is not a built-in algorithm (@bit untouched).
 */
bool modern_algo_indexed(genpool_algo_t algo, void *data, struct gen_pool *pool,
			 struct gen_pool_chunk *chunk, unsigned long nr, unsigned long *bit,
			 unsigned long *run_end);

#endif /* GENALLOC_MODERN_ALGO_INTERNAL_H */
