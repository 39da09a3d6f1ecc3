// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * test/dump/dump_legacy.c - the dumper's buddy pool (legacy/).
 */
#include "dumper.h"
#include "legacy/genalloc.h"

#include "dump_2005.h"

int dumper_legacy(unsigned int seed, FILE *json, FILE *walk)
{
	struct gen_pool *pool = alloc_gen_pool(D2005_CHUNKS - 1, D2005_SHIFT, d2005_get_chunk, 0);
	struct legacy_gen_pool_stats st;
	int rc;

	if (!pool)
		return 1;
	d2005_churn(pool, seed);
	rc = legacy_gen_pool_dump(pool, json, GENALLOC_DUMP_JSON) ||
	     legacy_gen_pool_for_each_block(pool, d2005_walk_line, walk);
	legacy_gen_pool_stats(pool, &st);
	fprintf(walk, "stats %lu %lu\n", st.obtained_bytes + st.donated_bytes, st.largest_free);
	d2005_release(pool);
	return rc;
}
