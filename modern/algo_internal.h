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

#endif /* GENALLOC_MODERN_ALGO_INTERNAL_H */
