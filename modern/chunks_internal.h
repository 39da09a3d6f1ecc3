/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * modern/chunks_internal.h - what modern/chunks.c exports beyond the
 * public calls (not installed).
 */
#ifndef GENALLOC_MODERN_CHUNKS_INTERNAL_H
#define GENALLOC_MODERN_CHUNKS_INTERNAL_H

#include "genalloc.h"

/*
 * gen_pool_create() always in indexed mode: exported, but no wrapper calls
 * it any more (they pass the header's mode to modern_gen_pool_create_mode()).
 */
GENALLOC_API struct gen_pool *modern_gen_pool_create(int min_alloc_order, int nid);

#endif /* GENALLOC_MODERN_CHUNKS_INTERNAL_H */
