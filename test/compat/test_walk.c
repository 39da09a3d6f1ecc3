// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * test/compat/test_walk.c - compat_gen_pool_for_each_block() and
 * compat_gen_pool_dump() on both backends: the same blocks and free runs
 * for the same requests, in address order, the visitor stopping the walk,
 * and the answers to bad arguments.  The JSON is read back by jq in
 * test/dump/run.sh.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "../support.h"
#include "compat_fixture.h"

struct seen {
	int n, stop_after;
	unsigned long addr[16], size[16];
	int used[16];
};

static int record(struct gen_pool *pool, unsigned long chunk, unsigned long chunk_size,
		  unsigned long addr, unsigned long size, int used, void *data)
{
	struct seen *s = data;

	(void)pool;
	ck_assert_uint_ge(addr, chunk);
	ck_assert_uint_le(addr + size, chunk + chunk_size);
	ck_assert_int_lt(s->n, 16);
	s->addr[s->n] = addr;
	s->size[s->n] = size;
	s->used[s->n] = used;
	return ++s->n == s->stop_after ? 9 : 0;
}

START_TEST(both_backends_tell_the_same_blocks)
{
	struct fx_provider *p = fx_provider_new(12, 1);
	struct gen_pool *pool = fx_pool(_i, p, 1);
	unsigned long a = gen_pool_alloc(pool, 64), b = gen_pool_alloc(pool, 256);
	struct seen s = { 0 };
	unsigned long used = 0, total = 0;

	ck_assert(a && b);
	ck_assert_int_eq(compat_gen_pool_for_each_block(pool, record, &s), 0);
	for (int i = 0; i < s.n; i++) {
		if (i)
			ck_assert_uint_eq(s.addr[i], s.addr[i - 1] + s.size[i - 1]);
		ck_assert_int_eq(s.used[i], s.addr[i] == a || s.addr[i] == b);
		if (s.used[i])
			ck_assert_uint_eq(s.size[i], s.addr[i] == a ? 64 : 256);
		used += s.used[i] ? s.size[i] : 0;
		total += s.size[i];
	}
	ck_assert_uint_eq(s.addr[0], p->chunk[0]);
	ck_assert_uint_eq(used, 320);
	ck_assert_uint_eq(total, 4096);
	gen_pool_free(pool, a, 64);
	gen_pool_free(pool, b, 256);
	gen_pool_destroy(pool);
}
END_TEST

START_TEST(visitor_stops_the_walk_and_bad_arguments)
{
	struct fx_provider *p = fx_provider_new(12, 1);
	struct gen_pool *pool = fx_pool(_i, p, 1);
	struct seen s = { .stop_after = 1 };
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	ck_assert_int_eq(compat_gen_pool_for_each_block(pool, record, &s), 9);
	ck_assert_int_eq(s.n, 1);
	ck_assert_int_eq(compat_gen_pool_dump(pool, f, GENALLOC_DUMP_JSON), 0);
	fclose(f);
	ck_assert_ptr_nonnull(strstr(buf, _i == 1 ? "\"engine\":\"compat-bitmap\""
						 : "\"engine\":\"compat-buddy\""));
	free(buf);
	capture_errors();
	ck_assert_int_eq(compat_gen_pool_for_each_block(NULL, record, &s), -EINVAL);
	ck_assert_error(GENALLOC_WARN, GENALLOC_EINVAL);
	ck_assert_int_eq(compat_gen_pool_for_each_block(pool, NULL, &s), -EINVAL);
	ck_assert_error(GENALLOC_WARN, GENALLOC_EINVAL);
	ck_assert_int_eq(compat_gen_pool_dump(NULL, stdout, GENALLOC_DUMP_TEXT), -EINVAL);
	ck_assert_error(GENALLOC_WARN, GENALLOC_EINVAL);
	ck_assert_int_eq(compat_gen_pool_dump(pool, stdout, -1), -EINVAL);
	ck_assert_error(GENALLOC_WARN, GENALLOC_EINVAL);
	gen_pool_destroy(pool);
}
END_TEST

/* From inside a walk's callback the dump is refused on both backends:
 * nothing written, and the report names the dump and the caller's pool. */
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
	ck_assert_int_eq(compat_gen_pool_dump(pool, f, GENALLOC_DUMP_TEXT), -EDEADLK);
	fclose(f);
	free(buf);
	return 1;
}

START_TEST(refused_dump_writes_nothing)
{
	struct gen_pool *pool = fx_pool(_i, fx_provider_new(12, 1), 1);
	size_t len = 99;

	capture_errors();
	ck_assert_int_eq(compat_gen_pool_for_each_block(pool, dump_inside, &len), 1);
	ck_assert_uint_eq(len, 0);
	ck_assert_int_eq(errors_seen(), 1);
	ck_assert_int_eq(last_error()->code, GENALLOC_EREENTRY);
	ck_assert_str_eq(last_error()->func, "gen_pool_dump");
	ck_assert_ptr_eq(last_error()->pool, pool);
	gen_pool_destroy(pool);
}
END_TEST

/* As in legacy: largest_free is the largest free block (the stats' meaning),
 * largest_free_run the run of buddies it lies in. */
START_TEST(largest_free_is_a_block_as_in_the_stats)
{
	struct fx_provider *p = fx_provider_new(12, 1);
	struct gen_pool *pool = fx_pool(_i, p, 1);
	struct compat_gen_pool_stats st;
	unsigned long a = gen_pool_alloc(pool, 32);
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	ck_assert_uint_eq(a, p->chunk[0]);
	compat_gen_pool_stats(pool, &st);
	ck_assert_uint_eq(st.largest_free, 2048);
	ck_assert_int_eq(compat_gen_pool_dump(pool, f, GENALLOC_DUMP_JSON), 0);
	fclose(f);
	ck_assert_msg(strstr(buf, "\"totals\":{\"chunks\":1,\"size\":4096,\"used\":32,"
			      "\"free\":4064,\"blocks\":1,\"free_runs\":1,\"largest_free\":2048,"
			      "\"largest_free_run\":4064}"), "%s", buf);
	free(buf);
	gen_pool_free(pool, a, 32);
	gen_pool_destroy(pool);
}
END_TEST

Suite *compat_walk_suite(void)
{
	Suite *s = suite_create("compat_walk");
	TCase *tc = tcase_create("walk");

	tcase_add_loop_test(tc, both_backends_tell_the_same_blocks, 0, 2);
	tcase_add_loop_test(tc, visitor_stops_the_walk_and_bad_arguments, 0, 2);
	tcase_add_loop_test(tc, refused_dump_writes_nothing, 0, 2);
	tcase_add_loop_test(tc, largest_free_is_a_block_as_in_the_stats, 0, 2);
	suite_add_tcase(s, tc);
	return s;
}
