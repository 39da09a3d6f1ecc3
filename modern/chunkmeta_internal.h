/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * modern/chunkmeta_internal.h - a chunk's bookkeeping (modern/chunkmeta.c;
 * not installed).
 */
#ifndef GENALLOC_MODERN_CHUNKMETA_INTERNAL_H
#define GENALLOC_MODERN_CHUNKMETA_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>

#include "genalloc.h"

/* Bytes of a chunk's header, its bitmap of @nbits granules and (@records)
 * its block records: the block modern_meta_zalloc() gives a new chunk. */
size_t modern_chunk_bytes(unsigned long nbits, bool records);

/* Bytes of bookkeeping for a chunk of @nbits granules, its index included. */
size_t modern_chunk_meta_bytes(const struct gen_pool *pool, unsigned long nbits);

/** modern_chunk_free() - free a chunk's bookkeeping (no longer in the pool) */
void modern_chunk_free(const struct gen_pool *pool, struct gen_pool_chunk *chunk);

#endif /* GENALLOC_MODERN_CHUNKMETA_INTERNAL_H */
