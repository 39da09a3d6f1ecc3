// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * modern/chunkmeta.c - a chunk's bookkeeping as one block: its header, its
 * bitmap, its block records if the pool keeps them, then its index; how
 * large it is and how it is freed, for the units that add chunks
 * (chunks.c), take them out (import.c) and count them (check.c).
 */
#include <stdbool.h>
#include <stddef.h>

#include "bitmap_internal.h"
#include "chunkmeta_internal.h"
#include "index_internal.h"
#include "meta_internal.h"

size_t modern_chunk_bytes(unsigned long nbits, bool records)
{
	return sizeof(struct gen_pool_chunk) +
	       modern_bits_to_longs(nbits) * sizeof(unsigned long) * (records ? 2 : 1);
}

void modern_chunk_free(const struct gen_pool *pool, struct gen_pool_chunk *chunk)
{
	modern_index_destroy(chunk->index);
	modern_meta_free(chunk, modern_chunk_bytes(chunk->nbits, pool->records));
}

size_t modern_chunk_meta_bytes(const struct gen_pool *pool, unsigned long nbits)
{
	return modern_chunk_bytes(nbits, pool->records) + modern_index_bytes(nbits);
}
