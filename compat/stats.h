/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * compat/stats.h - what a compat pool reports about itself.
 *
 * Kept apart from compat/genalloc.h because the backends, which may not see
 * compat's struct gen_pool (it collides with the engines' own), fill it in.
 */
#ifndef GENALLOC_COMPAT_STATS_H
#define GENALLOC_COMPAT_STATS_H

#include "../common/version.h"

/**
 * struct compat_gen_pool_stats - what a pool holds, on either backend
 * @obtained_bytes: bytes obtained from get_new_chunk (including prefill)
 * @donated_bytes:  bytes donated by freeing memory the pool never saw
 * @free_bytes:     bytes free for allocation
 * @largest_free:   the largest block gen_pool_alloc() could return now
 *                  without calling get_new_chunk, bytes (0 if none); a
 *                  dump's largest_free is the same, and its
 *                  largest_free_run the longer run free buddies may form
 * @metadata_bytes: bytes of out-of-band bookkeeping the pool malloc()ed
 */
struct compat_gen_pool_stats {
	unsigned long obtained_bytes;
	unsigned long donated_bytes;
	unsigned long free_bytes;
	unsigned long largest_free;
	unsigned long metadata_bytes;
};

#endif /* GENALLOC_COMPAT_STATS_H */
