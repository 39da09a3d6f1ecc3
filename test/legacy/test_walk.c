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
		 "(0%%) blocks 0 free runs 1 largest free block 4096 run 4096 |", lo);
	ck_assert_int_eq(strncmp(buf, want, strlen(want)), 0);
	ck_assert_ptr_nonnull(strstr(buf, "total: 2 chunks, 8192 bytes, used 0, free 8192 "
				     "in 2 runs, largest free block 4096 run 4096, blocks 0\n"));
	free(buf);
	gen_pool_destroy(pool);
}
END_TEST

/* A free run of several buddies: the dump's largest_free is the largest
 * free block, as legacy_gen_pool_stats() says, and largest_free_run the run. */
START_TEST(largest_free_is_a_block_as_in_the_stats)
{
	struct chunk_supply cs;
	unsigned long lo;
	struct gen_pool *pool = layout(&cs, &lo);
	struct legacy_gen_pool_stats st;
	char *buf = NULL, want[200];
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	unsigned long a = gen_pool_alloc(pool, 32);

	/* Past a, one free run of 4064 bytes: buddies of 32, 64, ... 2048. */
	ck_assert_uint_eq(a % 4096, 0);
	legacy_gen_pool_stats(pool, &st);
	ck_assert_uint_eq(st.largest_free, 4096);	/* the other chunk */
	ck_assert_int_eq(legacy_gen_pool_dump(pool, f, GENALLOC_DUMP_TEXT), 0);
	fclose(f);
	snprintf(want, sizeof(want), "chunk 0x%lx +4096: used 32 (0%%) blocks 1 free runs 1 "
		 "largest free block 2048 run 4064 |", a);
	ck_assert_msg(strstr(buf, want), "%s", buf);
	ck_assert_ptr_nonnull(strstr(buf, "largest free block 4096 run 4096, blocks 1\n"));
	free(buf);
	gen_pool_free(pool, a, 32);
	gen_pool_destroy(pool);
}
END_TEST

/* From inside a walk's callback the dump is refused: nothing written, the
 * report names the dump. */
static int dump_inside(struct gen_pool *pool, unsigned long chunk, unsigned long chunk_size,
		       unsigned long addr, unsigned long size, int used, void *data)
{
	size_t *len = data;
	char *buf = NULL;
	FILE *f = open_memstream(&buf, len);

	(void)chunk;
	(void)chunk_size;
	(void)addr;
	(void)size;
	(void)used;
	ck_assert_int_eq(legacy_gen_pool_dump(pool, f, GENALLOC_DUMP_JSON), -EDEADLK);
	fclose(f);
	free(buf);
	return 1;
}

START_TEST(refused_dump_writes_nothing)
{
	struct chunk_supply cs;
	unsigned long lo;
	struct gen_pool *pool = layout(&cs, &lo);
	size_t len = 99;

	capture_errors();
	ck_assert_int_eq(legacy_gen_pool_for_each_block(pool, dump_inside, &len), 1);
	ck_assert_uint_eq(len, 0);
	ck_assert_int_eq(last_error()->code, GENALLOC_EREENTRY);
	ck_assert_str_eq(last_error()->func, "gen_pool_dump");
	ck_assert_int_eq(errors_seen(), 1);
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
	tcase_add_test(tc, largest_free_is_a_block_as_in_the_stats);
	tcase_add_test(tc, refused_dump_writes_nothing);
	tcase_add_test(tc, bad_arguments);
	suite_add_tcase(s, tc);
	return s;
}
