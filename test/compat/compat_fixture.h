/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * test/compat/compat_fixture.h - what the compat suites share: a chunk
 * provider standing in for get_new_chunk, and the backend of each loop
 * iteration (every scenario runs once per backend, _i = 0 buddy, 1 bitmap).
 */
#ifndef GENALLOC_TEST_COMPAT_FIXTURE_H
#define GENALLOC_TEST_COMPAT_FIXTURE_H

#include <stdatomic.h>

#include "compat/genalloc.h"

#define FX_MAX_CHUNKS 64

/**
 * struct fx_provider - hands out aligned chunks, up to a cap
 * @shift:  log2 of the chunk size
 * @cap:    chunks it will give; after that it returns 0
 * @calls:  how many times get_new_chunk was called (atomic)
 * @given:  chunks given
 * @chunk:  their addresses
 * @pool:   the pool the last call was made with
 * @bad:    if not 0, returned instead of a fresh chunk
 */
struct fx_provider {
	int shift;
	int cap;
	_Atomic int calls;
	_Atomic int given;
	unsigned long chunk[FX_MAX_CHUNKS];
	struct gen_pool *_Atomic pool;
	unsigned long bad;
};

/* The backend of loop iteration @i. */
enum compat_backend fx_backend(int i);

/* A provider for chunks of 2^@shift bytes, at most @cap of them, with all
 * chunks allocated up front (so the callback is thread-safe). */
struct fx_provider *fx_provider_new(int shift, int cap);

/* The same, but the chunks are consecutive in one region: chunk k + 1
 * starts where chunk k ends (for frees across a chunk boundary). */
struct fx_provider *fx_provider_adjacent(int shift, int cap);

/* get_new_chunk for pools whose ->private is a struct fx_provider. */
unsigned long fx_get_new_chunk(struct gen_pool *pool);

/* A pool on backend @i, fed by @p, with @nr_chunks prefilled. */
struct gen_pool *fx_pool(int i, struct fx_provider *p, int nr_chunks);

/* Bytes live in @pool: obtained + donated - free. */
unsigned long fx_live_bytes(struct gen_pool *pool);

/* Free bytes of @pool. */
unsigned long fx_free_bytes(struct gen_pool *pool);

#endif /* GENALLOC_TEST_COMPAT_FIXTURE_H */
