// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * test/docs/bookkeeping.c - the tables of docs/bookkeeping.md, computed
 * from the engine itself: what each structure of a chunk costs (the sizes
 * the engine allocates), and the fixed costs as gen_pool_stats() counts
 * them.  test/docs/bookkeeping.sh compares its output with the page, so a
 * change to the engine's bookkeeping that the page does not follow fails
 * "make check".
 *
 *   bookkeeping    print the tables, as the page has them
 */
#include <stdio.h>

#include "modern/genalloc.h"
#include "modern/index_internal.h"
#include "modern/orderhint_internal.h"
#include "modern/sizeclass_internal.h"

/* "8 B", "86.6 KiB", "1.0 MiB". */
static const char *human(char *buf, size_t len, double bytes)
{
	if (bytes < 10240)
		snprintf(buf, len, "%.0f B", bytes);
	else if (bytes < 1048576)
		snprintf(buf, len, "%.1f KiB", bytes / 1024);
	else
		snprintf(buf, len, "%.1f MiB", bytes / 1048576);
	return buf;
}

/* @bytes, and its share of the bitmap when it is the smaller. */
static const char *cell(char *buf, size_t len, double bytes, double bitmap)
{
	char h[32];

	if (bytes == 0)
		snprintf(buf, len, "-");
	else if (bytes < bitmap)
		snprintf(buf, len, "%s (1/%.1f)", human(h, sizeof(h), bytes), bitmap / bytes);
	else
		snprintf(buf, len, "%s", human(h, sizeof(h), bytes));
	return buf;
}

/* The directory's bytes in a pool of @n chunks, as gen_pool_stats() counts
 * them: the pool's bookkeeping less the pool and its chunks. */
static size_t dir_bytes(unsigned int n)
{
	struct gen_pool *pool = gen_pool_create(3, NUMA_NO_NODE);
	struct gen_pool_stats st;
	size_t chunks = 0;

	for (unsigned int k = 0; k < n; k++) {
		gen_pool_add(pool, (1UL << 32) + k * 8192UL, 4096, NUMA_NO_NODE);
		chunks += sizeof(struct gen_pool_chunk) + 4096 / 8 / 8 + modern_index_bytes(512);
	}
	gen_pool_stats(pool, &st);
	gen_pool_destroy(pool);
	return st.metadata_bytes - sizeof(struct gen_pool) - chunks;
}

int main(void)
{
	static const unsigned int shift[] = { 6, 10, 16, 20, 21, 23, 26 };
	char a[64], b[64], c[64], d[64];

	printf("| granules in the chunk | bitmap | run index | size classes | aligned-fit hints |\n");
	printf("|---|---|---|---|---|\n");

	for (size_t i = 0; i < sizeof(shift) / sizeof(shift[0]); i++) {
		unsigned long n = 1UL << shift[i];
		double bitmap = (double)((n + 63) / 64 * 8);
		double hints = n >= MODERN_INDEX_HINT_MIN_BITS ?
			(double)modern_ohint_bytes((n + 511) / 512) : 0;

		printf("| 2^%u | %s | %s | %s | %s |\n", shift[i], human(a, sizeof(a), bitmap),
		       cell(b, sizeof(b), (double)modern_index_bytes(n), bitmap),
		       cell(c, sizeof(c), (double)modern_sc_bytes(n), bitmap),
		       cell(d, sizeof(d), hints, bitmap));
	}
	printf("\n| fixed | bytes |\n|---|---|\n");
	printf("| the pool | %zu B |\n", sizeof(struct gen_pool));
	printf("| a chunk's header | %zu B |\n", sizeof(struct gen_pool_chunk));
	printf("| the run index of a chunk of up to 256 granules | %zu B |\n",
	       modern_index_bytes(256));
	printf("| the chunk directory, empty | %zu B |\n", dir_bytes(0));
	printf("| the directory with 8 slots (1 to 8 chunks) | %zu B |\n", dir_bytes(1));
	printf("| the directory with 4096 slots (2049 to 4096 chunks) | %.0f KiB |\n",
	       dir_bytes(4096) / 1024.0);
	return 0;
}
