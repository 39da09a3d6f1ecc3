// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * test/legacy/test_walk.c - legacy_gen_pool_for_each_block() and
 * legacy_gen_pool_dump() on a layout written out by hand: blocks and
 * merged free runs in address order, chunk by chunk, the visitor stopping
 * the walk, the text dump, and the answers to bad arguments.  The JSON is
 * read back by jq in test/dump/run.sh.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "../support.h"
#include "chunks.h"

struct seen {
	int n, stop_after;
	unsigned long chunk[16], addr[16], size[16];
	int used[16];
};

static int record(struct gen_pool *pool, unsigned long chunk, unsigned long chunk_size,
		  unsigned long addr, unsigned long size, int used, void *data)
{
	struct seen *s = data;

	(void)pool;
	ck_assert_uint_eq(chunk_size, 4096);
	ck_assert_int_lt(s->n, 16);
	s->chunk[s->n] = chunk;
	s->addr[s->n] = addr;
	s->size[s->n] = size;
	s->used[s->n] = used;
	return ++s->n == s->stop_after ? 9 : 0;
}

/* Two chunks; in the first (the one obtained second) 64 B at +0 and
 * 256 B at +256 live, the rest free; the second all free. */
static struct gen_pool *layout(struct chunk_supply *cs, unsigned long *lo)
{
	struct gen_pool *pool;

	chunk_supply_init(cs, 12, 2);
	pool = supply_pool(cs, 2);
	*lo = chunk_at(cs, 0) < chunk_at(cs, 1) ? chunk_at(cs, 0) : chunk_at(cs, 1);
	return pool;
}

START_TEST(blocks_and_free_runs_in_address_order)
{
	struct chunk_supply cs;
	unsigned long lo, a, b;
	struct gen_pool *pool = layout(&cs, &lo);
	struct seen s = { 0 };

	a = gen_pool_alloc(pool, 64);
	b = gen_pool_alloc(pool, 256);
	ck_assert_int_eq(legacy_gen_pool_for_each_block(pool, record, &s), 0);
	/* The used chunk: a, a free 64 B and a free 128 B buddy told as one
	 * run, b, then the free rest; the other chunk: one free run. */
	ck_assert_int_eq(s.n, 5);
	for (int i = 1; i < s.n; i++)
		ck_assert_uint_gt(s.addr[i], s.addr[i - 1]);
	for (int i = 0; i < s.n; i++) {
		ck_assert_uint_eq(s.used[i], s.addr[i] == a || s.addr[i] == b);
		if (i + 1 < s.n && s.chunk[i + 1] == s.chunk[i])
			ck_assert_uint_eq(s.addr[i] + s.size[i], s.addr[i + 1]);
	}
	ck_assert_uint_eq(s.chunk[0], lo);
	gen_pool_free(pool, a, 64);
	gen_pool_free(pool, b, 256);
	gen_pool_destroy(pool);
}
END_TEST

START_TEST(visitor_stops_the_walk)
{
	struct chunk_supply cs;
	unsigned long lo;
	struct gen_pool *pool = layout(&cs, &lo);
	struct seen s = { .stop_after = 1 };

	ck_assert_int_eq(legacy_gen_pool_for_each_block(pool, record, &s), 9);
	ck_assert_int_eq(s.n, 1);
	ck_assert_uint_eq(s.addr[0], lo);
	ck_assert_uint_eq(s.size[0], 4096);
	gen_pool_destroy(pool);
}
END_TEST

START_TEST(text_dump)
{
	struct chunk_supply cs;
	unsigned long lo;
	struct gen_pool *pool = layout(&cs, &lo);
	char *buf = NULL, want[160];
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	ck_assert_int_eq(legacy_gen_pool_dump(pool, f, GENALLOC_DUMP_TEXT), 0);
	fclose(f);
	snprintf(want, sizeof(want), "legacy pool, granule 32, blocks\nchunk 0x%lx +4096: used 0 "
		 "(0%%) blocks 0 free runs 1 largest 4096 |", lo);
	ck_assert_int_eq(strncmp(buf, want, strlen(want)), 0);
	ck_assert_ptr_nonnull(strstr(buf, "total: 2 chunks, 8192 bytes, used 0, free 8192 "
				     "in 2 runs, largest 4096, blocks 0\n"));
	free(buf);
	gen_pool_destroy(pool);
}
END_TEST

START_TEST(bad_arguments)
{
	struct chunk_supply cs;
	unsigned long lo;
	struct gen_pool *pool = layout(&cs, &lo);
	struct seen s = { 0 };

	capture_errors();
	ck_assert_int_eq(legacy_gen_pool_for_each_block(NULL, record, &s), -EINVAL);
	ck_assert_error(GENALLOC_WARN, GENALLOC_EINVAL);
	ck_assert_int_eq(legacy_gen_pool_for_each_block(pool, NULL, &s), -EINVAL);
	ck_assert_error(GENALLOC_WARN, GENALLOC_EINVAL);
	ck_assert_int_eq(legacy_gen_pool_dump(NULL, stdout, GENALLOC_DUMP_TEXT), -EINVAL);
	ck_assert_error(GENALLOC_WARN, GENALLOC_EINVAL);
	ck_assert_int_eq(legacy_gen_pool_dump(pool, NULL, GENALLOC_DUMP_TEXT), -EINVAL);
	ck_assert_error(GENALLOC_WARN, GENALLOC_EINVAL);
	ck_assert_int_eq(legacy_gen_pool_dump(pool, stdout, 5), -EINVAL);
	ck_assert_error(GENALLOC_WARN, GENALLOC_EINVAL);
	ck_assert_int_eq(s.n, 0);
	gen_pool_destroy(pool);
}
END_TEST

Suite *legacy_walk_suite(void)
{
	Suite *s = suite_create("legacy_walk");
	TCase *tc = tcase_create("walk");

	tcase_add_test(tc, blocks_and_free_runs_in_address_order);
	tcase_add_test(tc, visitor_stops_the_walk);
	tcase_add_test(tc, text_dump);
	tcase_add_test(tc, bad_arguments);
	suite_add_tcase(s, tc);
	return s;
}
