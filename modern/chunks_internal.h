/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * modern/chunks_internal.h - a chunk's bookkeeping, made and freed by
 * modern/chunks.c, for the units that size it or free a chunk taken out
 * of its pool (not installed).
 */
#ifndef GENALLOC_MODERN_CHUNKS_INTERNAL_H
#define GENALLOC_MODERN_CHUNKS_INTERNAL_H

#include <stddef.h>

#include "genalloc.h"

/*
 * gen_pool_create() always in indexed mode: exported, but no wrapper calls
 * it any more (they pass the header's mode to modern_gen_pool_create_mode()).
 */
GENALLOC_API struct gen_pool *modern_gen_pool_create(int min_alloc_order, int nid);

/* Bytes of bookkeeping for a chunk of @nbits granules. */
size_t modern_chunk_meta_bytes(const struct gen_pool *pool, unsigned long nbits);

/** modern_chunk_free() - free a chunk's bookkeeping (no longer in the pool) */
void modern_chunk_free(const struct gen_pool *pool, struct gen_pool_chunk *chunk);

#endif /* GENALLOC_MODERN_CHUNKS_INTERNAL_H */
