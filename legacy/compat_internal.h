/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * legacy/compat_internal.h - what the buddy engine offers compat's buddy
 * backend beyond its public API.  Not installed.
 *
 * A compat pool over this engine is two pools: the compat one its caller
 * holds and this engine's.  Reports must name the caller's, from the
 * first chunk of the prefill on, so it is given at creation.
 */
#ifndef GENALLOC_LEGACY_COMPAT_INTERNAL_H
#define GENALLOC_LEGACY_COMPAT_INTERNAL_H

#include "genalloc.h"

/**
 * legacy_create_for() - legacy_alloc_gen_pool() for a pool that is another's
 * @nr_chunks, @max_chunk_shift, @get_new_chunk, @data: as alloc_gen_pool()
 * @report_pool: the pool every report about this one names (not NULL)
 */
struct gen_pool *legacy_create_for(int nr_chunks, int max_chunk_shift,
				   unsigned long (*get_new_chunk)(struct gen_pool *),
				   unsigned long data, const void *report_pool);

#endif /* GENALLOC_LEGACY_COMPAT_INTERNAL_H */
