// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * test/dump/dump_compat.c - the dumper's compat pools, on either backend.
 */
#include "compat/genalloc.h"
#include "dumper.h"

#include "dump_2005.h"

int dumper_compat(bool bitmap, unsigned int seed, FILE *json, FILE *walk)
{
	struct gen_pool *pool = gen_pool_create_backend(bitmap ? COMPAT_BACKEND_BITMAP
							       : COMPAT_BACKEND_BUDDY,
							D2005_CHUNKS - 1, D2005_SHIFT,
							d2005_get_chunk, 0);
	struct compat_gen_pool_stats st;
	int rc;

	if (!pool)
		return 1;
	d2005_churn(pool, seed);
	rc = compat_gen_pool_dump(pool, json, GENALLOC_DUMP_JSON) ||
	     compat_gen_pool_for_each_block(pool, d2005_walk_line, walk);
	compat_gen_pool_stats(pool, &st);
	fprintf(walk, "stats %lu %lu\n", st.obtained_bytes + st.donated_bytes, st.largest_free);
	d2005_release(pool);
	return rc;
}
